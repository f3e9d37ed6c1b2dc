"""`lasvegas play` and `replay` cover every edition."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def lasvegas(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    "edition, options, players",
    [
        ("royale", [], ["Anna", "Ben"]),  # basic game, 2-player neutral set
        ("royale", ["--option", "tiles=3"], ["Anna", "Ben", "Carla"]),  # main game with tiles
        (
            "royale",
            ["--option", "tiles=6"],
            ["Anna", "Ben", "Carla", "Denny"],
        ),  # a tile at every casino
        ("cards", ["--option", "chip_cards"], ["Leo", "Henry", "Rebecca"]),  # the card game
        ("cards", ["--option", "sequential"], ["Leo", "Henry"]),  # its sequential variation
    ],
)
def test_play_a_whole_game_of_every_edition(tmp_path, edition, options, players):
    """A simulated game plays to the winner, and its export replays to the same standings."""
    db = tmp_path / "game.sqlite3"
    run = lasvegas(
        "play",
        "--edition",
        edition,
        *options,
        "--seed",
        "3",
        "--auto",
        "--db",
        str(db),
        "--players",
        *players,
    )
    assert run.returncode == 0, run.stderr
    assert "Winner:" in run.stdout
    record = tmp_path / "game.json"
    assert lasvegas("export", "--db", str(db), "-o", str(record)).returncode == 0
    replay = lasvegas("replay", str(record), "--json")
    assert replay.returncode == 0, replay.stderr
    result = json.loads(replay.stdout)
    stored = json.loads(record.read_text())["result"]
    assert result["standings"] == stored["standings"] and result["winners"] == stored["winners"]
