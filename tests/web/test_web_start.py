"""Starting the server: the game that was on the table comes back; a bad game file stops the
start with one clear line and is left as it was."""

from __future__ import annotations

import hashlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from browser import free_port, serve_command
from helpers_play import forge_payload, fresh_game, next_random_event, stored_payload
from test_web_restart import get, post, start

from companion.session import TABLE_GAME, GameStore

ANNA_BEN = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]


def _files(path: Path) -> dict[str, str]:
    """The game file and its companions (-wal, -shm) by name, each by its sha256."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(path.parent.iterdir())
        if p.name.startswith(path.name)
    }


def _stored_game(path: Path, steps: int = 6) -> None:
    session = GameStore(path).new_game(fresh_game())
    rng = random.Random(2)
    for _ in range(steps):
        session.apply(next_random_event(session.state, rng))
    session.store.close()


def _sql(path: Path, statement: str) -> None:
    db = sqlite3.connect(path)
    try:
        with db:
            db.execute(statement)
    finally:
        db.close()


def _edited(path: Path) -> None:
    _sql(path, "UPDATE events SET payload = payload || ' ' WHERE seq = 3")


def _rule_broken(path: Path) -> None:
    payload = stored_payload(path, 1, 2)  # the first roll
    payload["regular"] = [7] * len(payload["regular"])  # a die showing 7, checksums made good
    forge_payload(path, 1, 2, payload)


def _gap(path: Path) -> None:
    _sql(path, "DELETE FROM events WHERE seq = 3")


@pytest.mark.parametrize(
    ("damage", "fragment"),
    [
        (_edited, "event 3 does not match its checksum"),  # altered by hand
        (_rule_broken, "event 2 fails the rules"),  # forged with checksums recomputed
        (_gap, "event 3 is missing"),  # a step cut out
    ],
)
def test_serve_on_a_game_that_fails_its_checks_stops_with_one_line(tmp_path, damage, fragment):
    db = tmp_path / "table.sqlite3"
    _stored_game(db)
    damage(db)
    before = _files(db)

    result = subprocess.run(
        serve_command(free_port(), db), capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.startswith("lasvegas serve: game 1 in") and fragment in result.stderr
    assert _files(db) == before


@pytest.mark.parametrize(
    "command",
    [
        ["serve", "--camera", "sim", "--host", "127.0.0.1", "--port", str(free_port())],
        ["play", "--auto", "--seed", "1"],
        ["export"],
        ["games"],
    ],
)
def test_an_empty_game_file_is_refused_and_left_empty(tmp_path, command):
    db = tmp_path / "table.sqlite3"
    db.touch()

    result = subprocess.run(
        [sys.executable, "-m", "companion.cli", *command, "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert "is empty (0 bytes), not a game file; it was left untouched" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == [db.name] and db.stat().st_size == 0


def test_a_missing_game_file_is_created(tmp_path):
    store = GameStore(tmp_path / "new.sqlite3")
    assert store.games() == []
    store.close()
    assert (tmp_path / "new.sqlite3").stat().st_size > 0


def _new_game(port: int) -> int:
    base = get(port, "/api/state")["version"]
    post(port, {"action": "new_game", "base": base, "edition": "classic", "players": ANNA_BEN})
    post(port, {"action": "simulate", "base": get(port, "/api/state")["version"]})
    return get(port, "/api/state")["game_id"]


def test_a_restart_resumes_the_game_that_was_on_the_table(tmp_path):
    db, port = tmp_path / "table.sqlite3", free_port()
    server, _ = start(db, port)
    try:
        first = _new_game(port)
        second = _new_game(port)  # newer, and unfinished too
        base = get(port, "/api/state")["version"]
        post(port, {"action": "open_game", "game_id": first, "base": base})
        before = get(port, "/api/state")
        assert before["game_id"] == first != second
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
    server, after = start(db, port)
    try:
        assert after["game_id"] == first
        assert after["version"] == before["version"]
    finally:
        server.terminate()
        server.wait(10)


@pytest.mark.parametrize(
    "remembered",
    [
        99,  # a game no longer in the file
        "2",  # not a game number
        None,  # nothing remembered: a file from before the table's game was
    ],
)
def test_without_a_game_to_remember_the_newest_unfinished_is_resumed(tmp_path, remembered):
    db = tmp_path / "table.sqlite3"
    _stored_game(db)
    _stored_game(db)
    store = GameStore(db)
    if remembered is not None:
        store.set_setting(TABLE_GAME, remembered)
    assert store.table_game() == 2
    store.close()


def test_a_remembered_finished_game_is_shown_again(tmp_path):
    db = tmp_path / "table.sqlite3"
    _stored_game(db)
    _stored_game(db)
    store = GameStore(db)
    _sql(db, "UPDATE games SET finished = 1 WHERE id = 1")
    store.put_on_table(1)
    store.close()
    assert GameStore(db).table_game() == 1
