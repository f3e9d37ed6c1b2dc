"""A game file that cannot be written: every write is refused whole, and play goes on after.

The full disk is real (a small tmpfs, see `small_disk`); where none can be mounted, the same
refusals are met through SQLite's own page limit and a connection made read-only.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers_play import fresh_game, full_random_game, next_random_event

from companion.record import record_from_events
from companion.session import GameFileFull, GameSession, GameStore, WriteFailed
from companion.state import Phase
from companion.terminal import Terminal

PLAYED, UNDONE = 14, 3
"""A game some steps in, with steps undone, so that redo has something to play again."""


def file_rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, read with a connection of its own, closed at once."""
    db = sqlite3.connect(path)
    try:
        return {
            table: db.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
            for table in ("games", "events", "redo", "settings")
        }
    finally:
        db.close()


def held(session: GameSession) -> tuple[Any, ...]:
    """What a session holds in memory: its events, its state, its checksum, whether it can redo."""
    return tuple(session.events), session.state, session.head, session.can_redo()


def read_afresh(path: Path, game_id: int) -> tuple[Any, ...]:
    """What a new store opening the file reads for one game."""
    store = GameStore(path)
    try:
        return held(store.open(game_id))
    finally:
        store.close()


def game_under_way(path: Path) -> GameSession:
    """A stored game PLAYED steps in, the last UNDONE of them undone."""
    session = GameStore(path).new_game(fresh_game())
    rng = random.Random(4)
    for _ in range(PLAYED):
        session.apply(next_random_event(session.state, rng))
    session.undo(UNDONE)
    return session


def _record() -> dict[str, Any]:
    initial, events, _ = full_random_game(seed=9)
    return record_from_events(initial, events[:30])


WRITES: list[Any] = [
    pytest.param(lambda s: s.apply(next_random_event(s.state, random.Random(1))), id="apply"),
    pytest.param(lambda s: s.undo(), id="undo"),
    pytest.param(lambda s: s.undo(4), id="undo-several"),
    pytest.param(lambda s: s.redo(), id="redo"),
    pytest.param(lambda s: s.redo(UNDONE), id="redo-several"),
    pytest.param(lambda s: s.store.set_setting("zones", {"names": ["arena"]}), id="setting"),
    pytest.param(lambda s: s.store.put_on_table(s.game_id), id="table-game"),
    pytest.param(lambda s: s.store.new_game(fresh_game()), id="new-game"),
    pytest.param(lambda s: s.store.import_record(_record()), id="import"),
]


@pytest.mark.parametrize("write", WRITES)
def test_a_full_disk_refuses_the_write_whole_and_play_goes_on(small_disk, write):
    path = small_disk.path / "table.sqlite3"
    session = game_under_way(path)
    before_file, before_held = file_rows(path), held(session)
    small_disk.fill()

    with pytest.raises(GameFileFull, match="the disk is full. Nothing was changed"):
        write(session)

    assert held(session) == before_held
    assert file_rows(path) == before_file
    with pytest.raises(GameFileFull):  # refused again: nothing half-done stands in its way
        write(session)
    assert file_rows(path) == before_file

    small_disk.free()
    write(session)
    session.apply(next_random_event(session.state, random.Random(2)))
    assert read_afresh(path, session.game_id) == held(session)
    session.store.close()


def test_a_full_disk_refuses_the_last_step_and_the_game_stays_unfinished(small_disk):
    path = small_disk.path / "table.sqlite3"
    initial, events, final = full_random_game(seed=2)
    session = GameStore(path).new_game(initial)
    for event in events[:-1]:
        session.apply(event)
    small_disk.fill()

    with pytest.raises(GameFileFull):
        session.apply(events[-1])

    assert session.store.latest_unfinished() == session.game_id
    small_disk.free()
    assert session.apply(events[-1]) == final
    assert session.store.latest_unfinished() is None
    session.store.close()


def test_a_restart_after_a_full_disk_resumes_every_acknowledged_step(small_disk):
    path = small_disk.path / "table.sqlite3"
    session = game_under_way(path)
    rng = random.Random(3)
    play = [
        session.undo,
        session.redo,
        lambda: session.apply(next_random_event(session.state, rng)),
    ]
    small_disk.fill()
    for write in play:
        with pytest.raises(GameFileFull):
            write()
    small_disk.free()
    for write in play:
        write()
    acknowledged = held(session)
    session.store.close()

    assert read_afresh(path, session.game_id) == acknowledged


# --- without a disk to fill -------------------------------------------------


def test_the_page_limit_refuses_a_step_whole(tmp_path):
    """SQLite's own limit on the file's size ends the transaction itself, as a full disk does."""
    path = tmp_path / "table.sqlite3"
    session = game_under_way(path)
    pages = session.db.execute("PRAGMA page_count").fetchone()[0]
    session.db.execute(f"PRAGMA max_page_count = {pages}")
    rng = random.Random(6)
    with pytest.raises(GameFileFull):
        for _ in range(500):
            session.apply(next_random_event(session.state, rng))
    refused_at = held(session)
    assert read_afresh(path, session.game_id) == refused_at

    session.db.execute(f"PRAGMA max_page_count = {pages * 10}")
    session.undo()
    session.apply(next_random_event(session.state, rng))
    assert read_afresh(path, session.game_id) == held(session)
    session.store.close()


def test_the_page_limit_refuses_an_import_whole(tmp_path):
    """The limit met halfway through a long record's events: no game, and the reason said."""
    path = tmp_path / "table.sqlite3"
    session = game_under_way(path)
    pages = session.db.execute("PRAGMA page_count").fetchone()[0]
    session.db.execute(f"PRAGMA max_page_count = {pages}")
    before_file = file_rows(path)
    initial, events, _ = full_random_game(seed=9)

    with pytest.raises(GameFileFull):
        session.store.import_record(record_from_events(initial, events))

    assert file_rows(path) == before_file
    session.store.close()


@pytest.mark.parametrize("write", WRITES)
def test_a_refused_write_changes_nothing(tmp_path, write: Callable[[GameSession], Any]):
    """A file that takes no writes (here: a connection made read-only) refuses each one whole."""
    path = tmp_path / "table.sqlite3"
    session = game_under_way(path)
    before_file, before_held = file_rows(path), held(session)
    session.db.execute("PRAGMA query_only = ON")

    with pytest.raises(WriteFailed, match="could not be written .*; nothing was changed"):
        write(session)

    assert not session.db.in_transaction
    assert held(session) == before_held
    assert file_rows(path) == before_file
    session.db.execute("PRAGMA query_only = OFF")
    write(session)
    assert read_afresh(path, session.game_id) == held(session)
    session.store.close()


def _terminal(session: GameSession, said: list[str]) -> Terminal:
    """An automatic terminal game on `session` whose words go to `said`."""
    return Terminal(session, input, said.append, random.Random(1), True, auto=True)


def test_terminal_play_on_a_full_disk_stops_saying_why(small_disk):
    path = small_disk.path / "table.sqlite3"
    session = game_under_way(path)
    before_file, before_held = file_rows(path), held(session)
    said: list[str] = []
    small_disk.fill()

    _terminal(session, said).run()

    assert any(line.startswith("Not saved - ") and "disk is full" in line for line in said)
    assert held(session) == before_held and file_rows(path) == before_file
    small_disk.free()
    assert _terminal(session, said).run().phase is Phase.OVER
    assert read_afresh(path, session.game_id) == held(session)
    session.store.close()


@pytest.mark.parametrize("command", ["undo", "redo"])
def test_terminal_undo_and_redo_on_a_full_disk_say_why(small_disk, command):
    path = small_disk.path / "table.sqlite3"
    session = game_under_way(path)
    before_held, said = held(session), []
    small_disk.fill()

    assert _terminal(session, said).command(command)

    assert said and said[-1].startswith("Not saved - ") and "disk is full" in said[-1]
    assert held(session) == before_held
    session.store.close()
