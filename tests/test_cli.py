"""The `lasvegas` console script, run for real in a subprocess."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from helpers_play import fresh_game

from companion.engine import apply
from companion.events import DealRound, Place, Roll
from companion.session import GameStore
from companion.simulate import chance_event
from companion.state import Phase
from companion.terminal import parse_notes

REPO = Path(__file__).resolve().parent.parent


def lasvegas(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run the command line with `args` and `stdin`; never longer than 30 s."""
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=30,
        cwd=cwd or REPO,
    )


def stored_game(path: Path, game_id: int = 1):
    """(state, events) of a stored game, read with a store closed at once."""
    store = GameStore(path)
    try:
        session = store.open(game_id)
        return session.state, list(session.events)
    finally:
        store.close()


def assert_clean_failure(result: subprocess.CompletedProcess, code: int, *fragments: str) -> None:
    """The command failed with `code`, a message holding every fragment, and no traceback."""
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    for fragment in fragments:
        assert fragment in result.stderr


# --- automatic play -------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "A", "B", "C", "--option", "neutral_dice"],  # the brief's example
        ["--option", "kickers", "--option", "slot_machine", "--option", "rainbow"],  # variants
        ["--edition", "custom", "--option", "skip_rule=chips", "--players", *"ABCDEFG"],  # 7
    ],
)
def test_auto_play_finishes_with_a_winner(args):
    """`play --seed N --auto` plays a whole game and announces the winner."""
    result = lasvegas("play", "--seed", "7", "--auto", *args)
    assert result.returncode == 0, result.stderr
    assert "Winner:" in result.stdout
    assert result.stderr == ""


def test_auto_play_tells_a_line_a_turn_and_verbose_draws_the_table():
    """`play --auto` sums a game up in a few hundred lines; --verbose draws every step."""
    brief = lasvegas("play", "--seed", "7", "--auto").stdout.splitlines()
    verbose = lasvegas("play", "--seed", "7", "--auto", "--verbose").stdout.splitlines()
    assert len(brief) < 300 < 1000 < len(verbose)  # about 1,700 lines drawn step by step
    assert [line for line in brief if line.startswith("Payout of round")] == [
        f"Payout of round {n}" for n in (1, 2, 3, 4)
    ]
    placed = [line for line in brief if " places the " in line]
    assert len(placed) == sum(line.endswith("to choose") for line in verbose)  # one a turn
    assert brief[-1] == verbose[-1] and brief[-1].startswith("Winner:")


def _typed_choices(seed: int, options: dict, players: list[str], turns: int):
    """What `play --seed` would deal and roll, the first rolled number chosen each turn."""
    rng = random.Random(seed)
    state = fresh_game(options, players=players)
    typed = []
    events = []
    while len(typed) < turns:
        event = chance_event(state, rng)
        if event is None:
            event = Place(min(state.pending_roll.values()))
            typed.append(str(event.number))
        state = apply(state, event)
        events.append(event)
    return typed, state, events


def test_quit_and_resume_from_game_file(tmp_path):
    """Quitting mid-game keeps the game in --db; the next `play` resumes it and ends it."""
    db = tmp_path / "table.db"
    args = ["--seed", "5", "--players", "A", "B", "C", "--option", "neutral_dice", "--db", db]
    typed, state, events = _typed_choices(5, {"neutral_dice": True}, ["A", "B", "C"], 7)
    first = lasvegas("play", *args, stdin="\n".join([*typed, "quit", ""]))
    assert first.returncode == 0, first.stderr
    assert "Stopped; the game is saved" in first.stdout
    assert "Winner:" not in first.stdout
    saved_state, saved_events = stored_game(db)
    assert saved_events[: len(events)] == events  # then chance up to the next choice
    assert saved_state.phase is Phase.CHOOSE

    second = lasvegas("play", *args, "--auto")
    assert second.returncode == 0, second.stderr
    assert f"Resuming game 1 from {db} ({len(saved_events)} steps)" in second.stdout
    assert "Winner:" in second.stdout
    final, all_events = stored_game(db)
    assert final.phase is Phase.OVER
    assert all_events[: len(saved_events)] == saved_events
    games = lasvegas("games", "--db", db)
    assert games.returncode == 0
    assert [line.split()[3] for line in games.stdout.splitlines()] == ["finished"]


# --- typed play -----------------------------------------------------------

DEAL = "60 | 20 40 | 50 | 30 30 | 90 | 10 40"
TYPED = [
    DEAL,  # the deal, in thousands
    "11223344",  # Anna rolls, as digits
    "3",  # Anna places her 3s
    "5 5 6 6 1 1 2 2",  # Ben rolls, spaced
    "6",  # Ben places his 6s
    "33344556",  # Carla rolls
    "undo",  # ... takes the roll back
    "12345666",  # ... and rolls again
    "6",  # Carla places her 6s
    "224466",  # Anna rolls her six dice left
    "4",  # Anna places her 4s
]
TYPED_EVENTS = [
    DealRound(parse_notes(DEAL, 6, set())),
    Roll((1, 1, 2, 2, 3, 3, 4, 4)),
    Place(3),
    Roll((5, 5, 6, 6, 1, 1, 2, 2)),
    Place(6),
    Roll((1, 2, 3, 4, 5, 6, 6, 6)),
    Place(6),
    Roll((2, 2, 4, 4, 6, 6)),
    Place(4),
]


def _typed_play(tmp_path, lines):
    db = tmp_path / "typed.db"
    result = lasvegas(
        "play", "--players", "Anna", "Ben", "Carla", "--db", db, stdin="\n".join(lines) + "\n"
    )
    return result, db


def test_typed_play_stores_what_was_typed(tmp_path):
    """Typed deal, rolls, choices and an undo become exactly the expected stored events."""
    result, db = _typed_play(tmp_path, TYPED)
    assert result.returncode == 0, result.stderr
    for line in ("Anna places the 3s.", "Ben places the 6s.", "Carla places the 6s."):
        assert line in result.stdout
    assert "Anna places the 4s." in result.stdout
    assert "Stopped; the game is saved" in result.stdout  # end of input stops the game
    state, events = stored_game(db)
    assert events == TYPED_EVENTS
    assert state.to_move() == "Ben"


@pytest.mark.parametrize(
    "position, bad",
    [
        (2, "5"),  # Anna places a number she did not roll
        (1, "1122334"),  # Anna rolls seven dice while she holds eight
        (3, "55661127"),  # Ben rolls a die showing 7
        (0, "10 | 20 40 | 50 | 30 30 | 90 | 10 40"),  # casino 1 short of $50,000
        (0, "60 50 | 20 40 | 50 | 30 30 | 90 | 10 40"),  # casino 1 one note too many
    ],
)
def test_bad_typed_value_is_refused_and_play_goes_on(tmp_path, position, bad):
    """A typed value the rules refuse prints 'Not allowed' and the game continues as before."""
    lines = TYPED[:position] + [bad] + TYPED[position:]
    result, db = _typed_play(tmp_path, lines)
    assert result.returncode == 0, result.stderr
    assert "Not allowed - " in result.stdout
    assert "Traceback" not in result.stderr
    assert stored_game(db)[1] == TYPED_EVENTS


@pytest.mark.parametrize(
    "position, bad",
    [
        (1, "1 2 x3 4 5 6 1 2"),  # an unreadable roll token
        (3, "5 5 6 6 1 1 2 2 3"),  # ... but first Ben types one die too many
        (0, "60 | 20 40 | 50 | 30 30 | 90"),  # notes for five casinos
        (0, "60 | 20 forty | 50 | 30 30 | 90 | 10 40"),  # an unreadable note
    ],
)
def test_unreadable_typed_value_is_refused_and_play_goes_on(tmp_path, position, bad):
    """A typed value that cannot be read prints a clear message and the game continues."""
    lines = TYPED[:position] + [bad] + TYPED[position:]
    result, db = _typed_play(tmp_path, lines)
    assert "Traceback" not in result.stderr
    assert result.returncode == 0
    assert "Not allowed - " in result.stdout
    assert stored_game(db)[1] == TYPED_EVENTS


# --- records: replay, export, import, games -------------------------------


@pytest.fixture(scope="module")
def finished_db(tmp_path_factory):
    """A game file holding one finished game played by `play --auto`."""
    db = tmp_path_factory.mktemp("finished") / "table.db"
    result = lasvegas(
        "play", "--seed", "11", "--auto", "--players", "Ann", "Bo", "Cy", "--option",
        "neutral_dice", "--db", db,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return db


@pytest.fixture
def exported(finished_db, tmp_path):
    """The finished game exported to a JSON record file."""
    record = tmp_path / "game.json"
    result = lasvegas("export", "--db", finished_db, "-o", record)
    assert result.returncode == 0, result.stderr
    return record


def test_replay_json_prints_standings_and_winners(exported, finished_db):
    """`replay RECORD --json` prints the standings (player, money, notes) and the winners."""
    result = lasvegas("replay", exported, "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    state, _ = stored_game(finished_db)
    rows = {row["player"]: row for row in summary["standings"]}
    assert set(rows) == {"Ann", "Bo", "Cy"}
    for seat, name in enumerate(state.players):
        assert rows[name]["money"] == sum(v for v in state.winnings[seat])
        assert rows[name]["notes"] == len(state.winnings[seat])
    best = max(row["money"] for row in rows.values())
    assert summary["winners"] and all(rows[w]["money"] == best for w in summary["winners"])
    text = lasvegas("replay", exported)
    assert text.returncode == 0
    assert "Standings" in text.stdout


def _unrolled(turn):
    shown = set(turn["roll"] + turn.get("neutral", []))
    return min(set(range(1, 7)) - shown, default=9)


@pytest.mark.parametrize(
    "turn_no, edit, step, rule",
    [
        (0, lambda t: t.update(place=_unrolled(t)), 3, "place a rolled number"),  # first turn
        (3, lambda t: t.update(place=_unrolled(t)), 9, "place a rolled number"),  # fourth turn
        (1, lambda t: t.update(roll=[7] * len(t["roll"])), 4, "die value"),  # a die showing 7
    ],
)
def test_replay_names_the_illegal_step(exported, tmp_path, turn_no, edit, step, rule):
    """A record with an illegal step exits 1 naming the step and the rule it breaks."""
    record = json.loads(exported.read_text())
    edit(record["rounds"][0]["turns"][turn_no])
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(record))
    result = lasvegas("replay", broken, "--json")
    assert_clean_failure(result, 1, f"step {step}", rule)
    assert json.loads(result.stdout) == {
        "error": result.stderr.split(": ", 2)[2].strip(),
        "step": step,
        "rule": rule,
    }


@pytest.mark.parametrize(
    "content, fragment",
    [
        ("this is not json", "is not JSON"),  # plain text
        ('{"edition": "classic", ', "is not JSON"),  # JSON cut short
        (b"\xff\xfe\x00garbage", "cannot read"),  # not even UTF-8
        (None, "cannot read"),  # no such file
        ("[1, 2, 3]", "a record is a JSON object"),  # JSON, but not a record
    ],
)
def test_replay_of_unreadable_file_fails_clearly(tmp_path, content, fragment):
    """A record file that cannot be read as a record exits 1 with a clear message."""
    path = tmp_path / "record.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    assert_clean_failure(lasvegas("replay", path), 1, fragment)


def test_export_import_round_trip(exported, tmp_path):
    """A record exported, imported into another file and exported again is unchanged."""
    other = tmp_path / "other.db"
    imported = lasvegas("import", exported, "--db", other)
    assert imported.returncode == 0, imported.stderr
    assert f"Imported {exported} as game 1" in imported.stdout
    again = lasvegas("export", "--db", other)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == json.loads(exported.read_text())
    second = lasvegas("import", exported, "--db", other)
    assert "as game 2" in second.stdout
    listing = lasvegas("games", "--db", other)
    assert listing.returncode == 0
    lines = listing.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["2", "1"]  # newest first
    assert all("classic" in line and "finished" in line and "Ann, Bo, Cy" in line for line in lines)


def test_import_of_illegal_record_stores_nothing(exported, tmp_path):
    """Importing a record with an illegal step exits 1 and leaves the game file without it."""
    record = json.loads(exported.read_text())
    turn = record["rounds"][0]["turns"][0]
    turn["place"] = _unrolled(turn)
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(record))
    db = tmp_path / "other.db"
    assert_clean_failure(lasvegas("import", broken, "--db", db), 1, "step 3")
    assert not db.exists()  # not even an empty game file


def test_export_of_empty_file_fails_clearly(tmp_path):
    """Exporting from a file with no games exits 1 saying so."""
    db = tmp_path / "none.db"
    GameStore(db).close()
    assert_clean_failure(lasvegas("export", "--db", db), 1, "holds no games")


@pytest.mark.parametrize(
    "command, code, stream, fragment",
    [
        ("games", 0, "stdout", "(damaged)"),  # still listed, marked as damaged
        ("export", 1, "stderr", "its setup cannot be read"),  # refused with the reason
    ],
)
def test_damaged_setup_is_reported_not_crashed_on(tmp_path, command, code, stream, fragment):
    """`games` and `export` on a file whose setup JSON is damaged report it without a traceback."""
    db = tmp_path / "table.db"
    store = GameStore(db)
    store.new_game(fresh_game())
    store.close()
    connection = sqlite3.connect(db)
    with connection:
        connection.execute("UPDATE games SET setup = '{\"edition\": '")
    connection.close()
    result = lasvegas(command, "--db", db)
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr
    assert fragment in getattr(result, stream)


@pytest.mark.parametrize(
    "field, value",
    [
        ("result", [1, 2]),  # result is not an object
        ("slot_choices", 5),  # slot choices are not a list
    ],
)
def test_malformed_record_fields_fail_clearly(exported, tmp_path, field, value):
    """A record with a field of the wrong type exits 1 with a message, not a traceback."""
    record = json.loads(exported.read_text())
    if field == "result":
        record["result"] = value
    else:
        record["rounds"][0][field] = value
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(record))
    assert_clean_failure(lasvegas("replay", broken), 1, field)


# --- bad command lines ----------------------------------------------------


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["--option", "no_such_option"], ["unknown option", "no_such_option"]),  # no such variant
        (["--players", "Solo"], ["player count", "2-6 players, got 1"]),  # too few players
        (["--players", *"ABCDEFG"], ["2-6 players, got 7"]),  # too many for classic
        (["--edition", "custom", "--players", *"ABCDEFGHI"], ["2-8 players, got 9"]),  # custom
        (["--players", "Ann", "ann"], ["player names"]),  # names differ only in case
        (["--start", "Zed"], ["start player", "Zed"]),  # start player not seated
        (["--edition", "custom", "--option", "skip_rule=sometimes"], ["skip_rule must be one of"]),
        (["--option", "skip_rule=chips"], ["classic has no option 'skip_rule'"]),  # wrong edition
        (["--edition", "poker"], ["invalid choice: 'poker'"]),  # argparse itself
    ],
)
def test_bad_play_arguments_exit_2_with_a_message(args, fragments):
    """Bad options, player counts or names exit with code 2 and a clear message, no traceback."""
    result = lasvegas("play", "--seed", "1", "--auto", *args)
    assert_clean_failure(result, 2, *fragments)
    assert "Winner:" not in result.stdout
