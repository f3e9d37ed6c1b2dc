"""Bad input at the command line, run for real in a subprocess: each case ends with one clear
line on stderr and a non-zero exit, prints no traceback, and leaves the folder as it was."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers_play import fresh_game

from companion.session import GameStore

PROMPT = b"or 'r' to draw at random: "  # the deal prompt, the first a typed game asks


def lasvegas(*args: object, cwd: Path, stdin: str = "", timeout: float = 60):
    """Run `python -m companion.cli ARGS` in `cwd`."""
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
    )


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every path under `folder` with its bytes (None for a folder)."""
    return {
        str(path.relative_to(folder)): None if path.is_dir() else path.read_bytes()
        for path in sorted(folder.rglob("*"))
    }


def refused(result, *fragments: str, code: int | None = None) -> str:
    """Check the run failed with one line on stderr holding every fragment; that line."""
    output = result.stdout + result.stderr
    assert "Traceback" not in output, output
    assert result.returncode != 0 if code is None else result.returncode == code, output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def table(tmp_path) -> Path:
    """A folder holding a game file with one unfinished classic game, an image and a text."""
    store = GameStore(tmp_path / "table.sqlite3")
    store.new_game(fresh_game(players=("Anna", "Ben")))
    store.close()
    import cv2
    import numpy as np

    cv2.imwrite(str(tmp_path / "roll.png"), np.full((48, 64, 3), 60, np.uint8))
    (tmp_path / "notes.txt").write_text("not JSON, not a picture\n")
    (tmp_path / "list.json").write_text("[1, 2, 3]\n")
    (tmp_path / "folder").mkdir()
    return tmp_path


@pytest.mark.parametrize(
    "args, fragments",
    [
        # export into a folder that does not exist
        (["export", "--db", "table.sqlite3", "-o", "missing/game.json"], ["no folder missing"]),
        # export onto a folder
        (["export", "--db", "table.sqlite3", "-o", "folder"], ["folder is a folder"]),
        # export over the game file it reads
        (["export", "--db", "table.sqlite3", "-o", "table.sqlite3"], ["the game file itself"]),
        # a mistyped --db: no empty game file is made
        (["games", "--db", "tabel.sqlite3"], ["no game file at tabel.sqlite3"]),
        (["export", "--db", "tabel.sqlite3"], ["no game file at tabel.sqlite3"]),
        (["import", "list.json", "--db", "tabel.sqlite3"], ["list.json", "a record is"]),
        (["import", "missing.json", "--db", "tabel.sqlite3"], ["cannot read missing.json"]),
        # detect --draw onto a file
        (["detect", "roll.png", "--draw", "notes.txt"], ["--draw notes.txt", "a file"]),
        # detect --palette and --zones with bad files name the option and the file
        (["detect", "roll.png", "--palette", "missing.json"], ["--palette missing.json"]),
        (["detect", "roll.png", "--palette", "notes.txt"], ["--palette notes.txt", "not JSON"]),
        (["detect", "roll.png", "--palette", "list.json"], ["--palette list.json", "palette"]),
        (["detect", "roll.png", "--zones", "missing.json"], ["--zones missing.json"]),
        (["detect", "roll.png", "--zones", "notes.txt"], ["--zones notes.txt", "not JSON"]),
        (["detect", "roll.png", "--zones", "list.json"], ["--zones list.json", "arena"]),
        (["detect", "roll.png", "--zones", "folder"], ["--zones folder", "a folder"]),
        # calibrate --out onto a folder, or into a folder that does not exist
        (["calibrate", "roll.png", "--colours", "red", "--out", "folder"], ["--out folder"]),
        (["calibrate", "roll.png", "--colours", "red", "--out", "no/p.json"], ["no folder no"]),
        # a game file whose unfinished game is another edition than the one asked for
        (
            ["play", "--db", "table.sqlite3", "--edition", "royale", "--players", "Anna", "Ben"],
            ["table.sqlite3 holds unfinished game 1 (classic", "(royale", "--new"],
        ),
        (
            ["play", "--db", "table.sqlite3", "--players", "Anna", "Ben", "Cy", "--auto"],
            ["players Anna, Ben), not", "players Anna, Ben, Cy)", "lasvegas play --db"],
        ),
    ],
)
def test_bad_input_is_refused_in_one_line_and_changes_nothing(table, args, fragments):
    """Each case exits non-zero with one line naming what is wrong, and no file appears or
    changes."""
    before = snapshot(table)
    refused(lasvegas(*args, cwd=table), *fragments)
    assert snapshot(table) == before


def test_export_writes_a_whole_file_or_none(table):
    """A good export writes the record, and nothing else is left beside it."""
    result = lasvegas("export", "--db", "table.sqlite3", "-o", "folder/game.json", cwd=table)
    assert result.returncode == 0, result.stderr
    assert json.loads((table / "folder" / "game.json").read_text())["players"] == ["Anna", "Ben"]
    assert sorted(p.name for p in (table / "folder").iterdir()) == ["game.json"]


def test_play_with_new_starts_a_new_game_beside_the_unfinished_one(table):
    """--new starts the game asked for and keeps the other one in the file."""
    result = lasvegas(
        "play", "--db", "table.sqlite3", "--new", "--edition", "royale", "--players", "A", "B",
        "--seed", "1", "--auto", cwd=table,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Winner:" in result.stdout
    listing = lasvegas("games", "--db", "table.sqlite3", cwd=table).stdout.splitlines()
    assert [line.split()[2:4] for line in listing] == [
        ["royale", "finished"],
        ["classic", "running"],
    ]


def test_play_without_a_game_file_says_the_game_was_not_saved(tmp_path):
    """Quitting `play` without --db says the game is lost, and leaves no file."""
    result = lasvegas("play", "--players", "A", "B", cwd=tmp_path, stdin="quit\n")
    assert result.returncode == 0, result.stderr
    assert "this game was not saved" in result.stdout
    assert "is saved" not in result.stdout
    assert list(tmp_path.iterdir()) == []


def _interrupt_at_prompt(cwd: Path, *args: str) -> tuple[int, str, str]:
    """Start `play`, wait for its first prompt, press Ctrl+C; (status, stdout, stderr)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "play", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
    )
    seen = b""
    deadline = time.monotonic() + 30
    try:
        while not seen.endswith(PROMPT):
            assert time.monotonic() < deadline, f"no prompt: {seen.decode()[-300:]}"
            ready, _, _ = select.select([process.stdout], [], [], 0.5)
            if ready:
                chunk = os.read(process.stdout.fileno(), 4096)
                assert chunk, f"play ended before its prompt: {seen.decode()[-300:]}"
                seen += chunk
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
    return process.returncode, (seen + out).decode(), err.decode()


@pytest.mark.parametrize(
    "db, line",
    [
        ("game.sqlite3", "Stopped; the game is saved in game.sqlite3"),  # with a game file
        (None, "Stopped; this game was not saved"),  # without one
    ],
)
def test_ctrl_c_at_a_play_prompt_stops_cleanly(tmp_path, db, line):
    """Ctrl+C at a prompt ends `play` with status 130 and one line saying where the game is."""
    args = ["--players", "A", "B"] + (["--db", db] if db else [])
    status, out, err = _interrupt_at_prompt(tmp_path, *args)
    assert status == 130, err
    assert "Traceback" not in out + err
    assert err.strip().splitlines() == [err.strip()] and err.startswith(line)
    if db:
        assert GameStore(tmp_path / db).games()[0].players == ("A", "B")
    else:
        assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "camera, fragment",
    [
        ("missing.mp4", "no camera 'missing.mp4'"),  # a mistyped video file
        ("folder", "folder folder holds no images"),  # a folder without pictures
        ("notes.txt", "cannot open notes.txt as a video"),  # a file that is no video
        ("/dev/video-missing", "camera /dev/video-missing not found"),  # no such device
        ("63", "camera 63 not found or in use"),  # a camera index nothing answers at
    ],
)
def test_serve_refuses_a_camera_that_does_not_open(table, camera, fragment):
    """`serve --camera` with a source that cannot be opened stops at once with one line (and
    no OpenCV output), before the game file is made."""
    before = snapshot(table)
    try:
        result = lasvegas("serve", "--camera", camera, "--host", "127.0.0.1", "--port", "1",
                          cwd=table, timeout=30)  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"serve started with --camera {camera}")
    refused(result, fragment, code=2)
    assert snapshot(table) == before  # no lasvegas.sqlite3


def test_markers_help_says_100_percent(tmp_path):
    """The help text is shown as written: '100%', not '100%%'."""
    result = lasvegas("markers", "--help", cwd=tmp_path)
    assert result.returncode == 0
    assert "100%," in " ".join(result.stdout.split())
    assert "%%" not in result.stdout
