"""The SQLite game file: resume, undo/redo, refused logs, crash safety, imported records."""

from __future__ import annotations

import gc
import json
import random
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from helpers_play import (
    events_table,
    file_hash,
    forge_payload,
    fresh_game,
    full_random_game,
    next_random_event,
    random_events,
    stored_payload,
)

from companion.errors import IllegalMove
from companion.events import Place, Roll
from companion.record import RecordError, record_from_events
from companion.rules import every_variant
from companion.session import GameStore, SessionError, open_or_create
from companion.state import Phase

REPO = Path(__file__).resolve().parent.parent

OPTION_SETS = [
    pytest.param({}, id="plain"),  # the base game
    pytest.param({"neutral_dice": True}, id="neutral"),  # white dice, 3-player start pair
    pytest.param(  # every classic variant at once: kicks, chips, slot choices, rainbows
        every_variant("classic"),
        id="everything",
    ),
]


def play_into(session, rng: random.Random, count: int) -> None:
    """Apply `count` random events to a stored game (fewer if it ends)."""
    for _ in range(count):
        if session.state.phase is Phase.OVER:
            return
        session.apply(next_random_event(session.state, rng))


def close_all(*stores: GameStore) -> None:
    """Close every given store and collect connections left open by refused opens."""
    for store in stores:
        store.close()
    gc.collect()


# --- resume ---------------------------------------------------------------


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize(
    "steps",
    [
        0,  # stored but not dealt yet
        1,  # just dealt
        37,  # mid-round
    ],
)
def test_reopened_file_resumes_the_same_game(tmp_path, options, steps):
    """A game closed after any number of steps reopens with an equal state and event list."""
    path = tmp_path / "games.db"
    session = open_or_create(path, fresh_game(options))
    play_into(session, random.Random(steps), steps)
    state, events = session.state, list(session.events)
    session.store.close()

    again = open_or_create(path, fresh_game({"neutral_dice": True}, players=("X", "Y")))
    assert again.game_id == session.game_id
    assert again.state == state
    assert again.events == events
    assert again.record() == record_from_events(again.initial, events)
    again.store.close()


def test_finished_game_is_not_resumed(tmp_path):
    """open_or_create starts a new game once the stored one has ended, and resumes the newest."""
    path = tmp_path / "games.db"
    session = open_or_create(path, fresh_game())
    play_into(session, random.Random(3), 10_000)
    assert session.state.phase is Phase.OVER
    session.store.close()

    second = open_or_create(path, fresh_game())
    assert second.game_id != session.game_id
    assert second.events == []
    play_into(second, random.Random(4), 5)
    second.store.close()

    third = open_or_create(path, fresh_game())
    assert third.game_id == second.game_id
    assert len(third.events) == 5
    summaries = third.store.games()
    assert [g.finished for g in summaries] == [False, True]
    third.store.close()
    with pytest.raises(SessionError, match="no unfinished game"):
        open_or_create(tmp_path / "empty.db")


# --- undo / redo ----------------------------------------------------------


@pytest.mark.parametrize("options", OPTION_SETS[::2])  # plain, and every variant
@pytest.mark.parametrize(
    "played, undo_plan",
    [
        (30, [1, 1, 1]),  # one step at a time
        (30, [5, 10]),  # several steps at once
        (30, [30]),  # back to the setup
        (200, [7, 3, 60]),  # a whole game (or most of one), across rounds and payouts
    ],
)
def test_undo_and_redo_restore_exact_states(tmp_path, options, played, undo_plan):
    """Undoing k steps gives the state k steps back; redo walks forward through the same states."""
    session = GameStore(tmp_path / "g.db").new_game(fresh_game(options))
    states = [session.state]
    rng = random.Random(played)
    for _ in range(played):
        if session.state.phase is Phase.OVER:
            break
        states.append(session.apply(next_random_event(session.state, rng)))
    position = len(states) - 1
    for steps in undo_plan:
        steps = min(steps, position)
        assert session.undo(steps) == states[position - steps]
        position -= steps
        assert len(session.events) == position
    assert session.can_redo() == (position < len(states) - 1)
    while position < len(states) - 1:
        assert session.redo() == states[position + 1]
        position += 1
    assert not session.can_redo()
    assert session.state == states[-1]
    session.store.close()


def test_new_event_clears_redo(tmp_path):
    """After an undo, applying a different event forgets the undone ones."""
    session = GameStore(tmp_path / "g.db").new_game(fresh_game())
    play_into(session, random.Random(1), 6)
    session.undo(3)
    assert session.can_redo()
    session.apply(next_random_event(session.state, random.Random(99)))
    assert not session.can_redo()
    with pytest.raises(IllegalMove, match="nothing to redo"):
        session.redo()
    session.store.close()


@pytest.mark.parametrize(
    "played, action, message",
    [
        (0, lambda s: s.undo(), "0 steps can be undone, not 1"),  # nothing played yet
        (4, lambda s: s.undo(5), "only 4 steps can be undone, not 5"),  # one beyond the start
        (4, lambda s: s.redo(), "nothing to redo"),  # nothing was undone
        (4, lambda s: (s.undo(2), s.redo(3)), "only 2 steps can be redone, not 3"),  # one too many
    ],
)
def test_undo_redo_beyond_the_log_is_refused(tmp_path, played, action, message):
    """Undo past the start and redo with nothing undone raise IllegalMove with a clear message."""
    session = GameStore(tmp_path / "g.db").new_game(fresh_game())
    play_into(session, random.Random(5), played)
    with pytest.raises(IllegalMove, match=message):
        action(session)
    session.store.close()


def test_undo_and_redo_survive_a_reopen(tmp_path):
    """Undone steps can still be redone after the file is closed and reopened."""
    path = tmp_path / "g.db"
    session = open_or_create(path, fresh_game())
    states = [session.state]
    rng = random.Random(8)
    for _ in range(12):
        states.append(session.apply(next_random_event(session.state, rng)))
    session.undo(5)
    session.store.close()

    again = open_or_create(path)
    assert again.state == states[7]
    assert again.can_redo()
    assert again.redo(2) == states[9]
    again.store.close()

    third = open_or_create(path)
    assert third.state == states[9]
    assert third.redo(3) == states[12]
    assert not third.can_redo()
    assert third.undo(12) == states[0]
    third.store.close()


def test_undo_of_finished_game_makes_it_resumable(tmp_path):
    """Taking back the last step of a finished game makes it the game open_or_create resumes."""
    path = tmp_path / "g.db"
    store = GameStore(path)
    session = store.import_record(record_from_events(*full_random_game({}, 2)[:2]))
    assert store.latest_unfinished() is None
    session.undo()
    assert session.state.phase is not Phase.OVER
    session.store.close()
    again = open_or_create(path, fresh_game())
    assert again.game_id == session.game_id
    again.redo()
    assert again.state.phase is Phase.OVER
    assert again.store.latest_unfinished() is None
    again.store.close()


@pytest.mark.parametrize(
    "action",
    [
        lambda s: s.undo(0),  # nothing to take back must not mark the game unfinished
        lambda s: s.undo(-1),  # nor a negative count
        lambda s: s.redo(0),  # redo of no step
    ],
)
def test_undo_of_no_steps_leaves_a_finished_game_finished(tmp_path, action):
    """undo/redo with a step count below 1 is refused and does not reopen a finished game."""
    store = GameStore(tmp_path / "g.db")
    session = store.import_record(record_from_events(*full_random_game({}, 2)[:2]))
    with pytest.raises(IllegalMove, match="at least 1 step"):
        action(session)
    assert session.store.latest_unfinished() is None
    session.store.close()


# --- illegal events -------------------------------------------------------


def _unrolled_place(state):
    """A placement of a number the pending roll does not show."""
    missing = sorted(set(range(1, 7)) - set(state.pending_roll.values()))
    return Place(missing[0]) if missing else Place(9)


@pytest.mark.parametrize(
    "make_event",
    [
        _unrolled_place,  # placing a number that was not rolled
        lambda state: Roll((1, 2, 3)),  # a roll while the game waits for a choice
        lambda state: Place(state.pending_roll.regular[0], slot=True),  # no slot machine
    ],
)
def test_illegal_event_writes_nothing(tmp_path, make_event):
    """An illegal event raises IllegalMove and leaves the stored log exactly as it was."""
    path = tmp_path / "g.db"
    session = open_or_create(path, fresh_game())
    play_into(session, random.Random(11), 2)  # deal and roll: a choice is due
    assert session.state.phase is Phase.CHOOSE
    state, events = session.state, list(session.events)
    before = events_table(path)
    with pytest.raises(IllegalMove):
        session.apply(make_event(session.state))
    assert session.state == state
    assert session.events == events
    assert events_table(path) == before
    session.store.close()
    again = open_or_create(path)
    assert again.state == state
    assert again.events == events
    again.store.close()


# --- refused logs ---------------------------------------------------------


def _garbage(path: Path) -> None:
    path.write_bytes(bytes(random.Random(1).randrange(256) for _ in range(8192)))


def _sql(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path)
    try:
        with db:
            for statement in statements:
                db.execute(statement)
    finally:
        db.close()


def _edit_payload(path: Path) -> None:
    payload = stored_payload(path, 1, 4)
    payload["regular"] = [6] * len(payload["regular"])  # what a cheat would do
    _sql(path, f"UPDATE events SET payload = '{json.dumps(payload)}' WHERE seq = 4")


def _forge_rule_break(path: Path) -> None:
    payload = stored_payload(path, 1, 3)  # the first placement
    assert payload["type"] == "place"
    roll = stored_payload(path, 1, 2)
    unrolled = sorted(set(range(1, 7)) - set(roll["regular"] + roll["neutral"]))
    payload["number"] = unrolled[0] if unrolled else 9
    forge_payload(path, 1, 3, payload)


def _forge_malformed(path: Path) -> None:
    forge_payload(path, 1, 6, {"type": "roll", "regular": "six"})


@pytest.mark.parametrize(
    "damage, fragment",
    [
        (_garbage, "is not a readable game file"),  # not SQLite at all
        (_edit_payload, "event 4 does not match its checksum"),  # payload edited by hand
        (
            lambda p: _sql(p, "DELETE FROM events WHERE seq = 7"),
            "event 7 is missing",
        ),  # a row lost in the middle
        (_forge_rule_break, "event 3 fails the rules"),  # re-checksummed, but breaks a rule
        (_forge_malformed, "event 6 fails the rules"),  # re-checksummed, not an event at all
        (
            lambda p: _sql(p, 'UPDATE games SET setup = \'{"edition": "classic", "pla\''),
            "its setup cannot be read",
        ),  # setup JSON cut short
        (
            lambda p: _sql(p, 'UPDATE games SET setup = \'{"edition": "poker", "players": []}\''),
            "its setup cannot be read",
        ),  # setup that names no edition we know
        (
            lambda p: _sql(p, "UPDATE meta SET value = '2' WHERE key = 'schema'"),
            "uses game file format 2",
        ),  # written by a newer companion
    ],
)
def test_damaged_file_is_refused_and_left_untouched(tmp_path, damage, fragment):
    """Each kind of damage raises SessionError naming the problem; the file bytes do not change."""
    path = tmp_path / "g.db"
    session = open_or_create(path, fresh_game())
    play_into(session, random.Random(21), 12)
    close_all(session.store)
    damage(path)
    before = file_hash(path)
    with pytest.raises(SessionError, match=fragment):
        open_or_create(path, fresh_game())
    gc.collect()  # a refused GameStore may keep its connection until collected
    assert file_hash(path) == before
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0


@pytest.mark.parametrize(
    "statements, fragment",
    [
        (
            [
                "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
                "INSERT INTO meta VALUES ('schema', '2')",
                "CREATE TABLE rounds (id INTEGER PRIMARY KEY)",
            ],
            "format 2",
        ),  # a newer companion's file whose tables differ from ours
        (
            ["CREATE TABLE recipes (name TEXT)", "INSERT INTO recipes VALUES ('soup')"],
            "another program",
        ),  # some other program's SQLite file
        (
            ["CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"],
            "format unknown",
        ),  # a meta table that names no format
    ],
)
def test_foreign_sqlite_file_is_left_untouched(tmp_path, statements, fragment):
    """An SQLite file of another format or program is refused before anything is written to it."""
    path = tmp_path / "other.db"
    _sql(path, *statements)
    before = file_hash(path)
    with pytest.raises(SessionError, match=fragment):
        GameStore(path)
    gc.collect()
    assert file_hash(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]


# --- crash safety ---------------------------------------------------------

CHILD = """
import random, sys
from companion.rules import make_rules
from companion.session import GameStore
from companion.simulate import chance_event, random_choice
from companion.state import Phase, new_game

path, seed = sys.argv[1], int(sys.argv[2])
rng = random.Random(seed)
store = GameStore(path)
total = sum(game.events for game in store.games())
setup = lambda: new_game(make_rules("classic", {"neutral_dice": True}), ["A", "B", "C"])
game_id = store.latest_unfinished()
session = store.open(game_id) if game_id is not None else store.new_game(setup())
while True:
    if session.state.phase is Phase.OVER:
        session = store.new_game(setup())
    state = session.state
    session.apply(chance_event(state, rng) or random_choice(state, rng))
    total += 1
    print(total, flush=True)
"""


def _check_whole_file(path: Path) -> int:
    """Open every stored game (each open checks its log) and return the total event count."""
    store = GameStore(path)
    try:
        assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        total = 0
        for summary in store.games():
            session = store.open(summary.game_id)
            assert len(session.events) == summary.events
            assert summary.finished == (session.state.phase is Phase.OVER)
            total += len(session.events)
        return total
    finally:
        store.close()


def test_sigkill_at_random_moments_never_loses_a_committed_event(tmp_path):
    """A writer killed at random moments leaves a file that opens, passes its checks, keeps every event."""
    path = tmp_path / "crash.db"
    rng = random.Random(2024)
    last = 0
    for run in range(5):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(path), str(run)],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        guard = threading.Timer(10, child.kill)  # never hang the suite on a stuck child
        guard.start()
        try:
            wanted = rng.randint(24, 60)
            lines = []
            while len(lines) < wanted:
                line = child.stdout.readline()
                assert line, f"child stopped early: {child.stderr.read()}"
                lines.append(line)
            child.send_signal(signal.SIGKILL)
            child.wait(timeout=5)
            lines += child.stdout.read().splitlines()
        finally:
            guard.cancel()
            child.stdout.close()
            child.stderr.close()
        assert child.returncode == -signal.SIGKILL
        printed = int(lines[-1])
        assert printed > last  # each run resumed and went on
        stored = _check_whole_file(path)
        assert printed <= stored <= printed + 1  # killed at most between a commit and its print
        last = stored


# --- imported records -----------------------------------------------------


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("seed", [1, 2])
def test_imported_record_is_stored_and_exported_unchanged(tmp_path, options, seed):
    """import_record of a whole random game stores it; record() of the stored game equals it."""
    initial, events, final = full_random_game(options, seed)
    record = json.loads(json.dumps(record_from_events(initial, events)))
    path = tmp_path / "g.db"
    store = GameStore(path)
    session = store.import_record(record)
    assert session.state == final
    assert session.record() == record
    [summary] = store.games()
    assert summary.finished and summary.events == len(events)
    store.close()
    store = GameStore(path)
    assert store.open(session.game_id).record() == record
    assert store.latest_unfinished() is None
    store.close()


def _break_turn(record, turn_no):
    turn = record["rounds"][0]["turns"][turn_no]
    unrolled = sorted(set(range(1, 7)) - set(turn["roll"] + turn.get("neutral", [])))
    turn["place"] = unrolled[0] if unrolled else 9
    return 1 + 2 * turn_no + 2  # the deal, two steps per earlier turn, this roll, this place


def _wrong_player(record, turn_no):
    turns = record["rounds"][0]["turns"]
    turns[turn_no]["player"] = turns[turn_no + 1]["player"]
    return 1 + 2 * turn_no + 1


@pytest.mark.parametrize(
    "breaker, turn_no",
    [
        (_break_turn, 0),  # the first placement names an unrolled number
        (_break_turn, 4),  # a later placement does
        (_wrong_player, 2),  # a turn played by the wrong player
    ],
)
def test_import_of_illegal_record_stores_nothing(tmp_path, breaker, turn_no):
    """A record with an illegal step raises RecordError with its step number and stores nothing."""
    path = tmp_path / "g.db"
    store = GameStore(path)
    store.import_record(record_from_events(*full_random_game({}, 7)[:2]))
    before_games, before_events = store.games(), events_table(path)
    initial, events, _ = full_random_game({}, 9)
    record = json.loads(json.dumps(record_from_events(initial, events)))
    step = breaker(record, turn_no)
    with pytest.raises(RecordError) as error:
        store.import_record(record)
    assert error.value.step == step
    assert f"step {step}" in str(error.value)
    assert store.games() == before_games
    assert events_table(path) == before_events
    store.close()


def test_random_events_helper_stops_at_game_end():
    """The shared helper plays no further than the end of a game."""
    initial, events, _ = full_random_game({}, 3)
    assert random_events(initial, random.Random(3), 10_000) == events
