"""`lasvegas hint RECORD.json` and `hint` at the `lasvegas play` prompt."""

from __future__ import annotations

import json
import random

from test_cli import assert_clean_failure, lasvegas

from companion.engine import apply
from companion.events import Roll
from companion.record import record_from_events
from companion.rules import make_rules
from companion.simulate import chance_event, random_choice
from companion.state import Phase, new_game


def record_until(
    phase: Phase, options: dict | None = None, turns: int = 5, edition: str = "classic"
):
    """A seeded random game's record, stopped at `phase` after a few turns of round 2."""
    start = new_game(make_rules(edition, options or {}), ["Anna", "Ben", "Carla"])
    rng = random.Random(8)
    state, events = start, []
    while not (state.phase is phase and state.round == 2 and state.turn >= turns):
        event = chance_event(state, rng) or random_choice(state, rng)
        state = apply(state, event)
        events.append(event)
    return record_from_events(start, events), state


def test_hint_json_for_a_record_ending_after_a_throw(tmp_path):
    """The record ends with a throw: every value shown is a choice, with its win chance,
    error and money, best first, for the player to move."""
    record, state = record_until(Phase.CHOOSE)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    result = lasvegas("hint", path, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["player"] == state.to_move()
    roll = state.pending_roll
    assert isinstance(roll, Roll)
    assert sorted(c["place"] for c in data["choices"]) == sorted(set(roll.values()))
    wins = [c["win"] for c in data["choices"]]
    assert wins == sorted(wins, reverse=True)
    for choice in data["choices"]:
        assert 0 <= choice["win"] <= 1 and 0 < choice["win_error"] < 0.5
        assert choice["money"] >= 0 and choice["money"] % 1000 == 0
    assert 0 < data["seconds"] < 5


def test_hint_text_names_each_choice(tmp_path):
    record, _ = record_until(Phase.CHOOSE)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    result = lasvegas("hint", path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Hint for ")
    assert "expected this round" in result.stdout


def test_hint_refuses_a_finished_game_and_uncovered_variants(tmp_path):
    start = new_game(make_rules("classic"), ["Anna", "Ben"])
    rng = random.Random(1)
    state, events = start, []
    while state.phase is not Phase.OVER:
        event = chance_event(state, rng) or random_choice(state, rng)
        state = apply(state, event)
        events.append(event)
    path = tmp_path / "over.json"
    path.write_text(json.dumps(record_from_events(start, events)))
    assert_clean_failure(lasvegas("hint", path, "--json"), 1, "no player decides now")
    record, _ = record_until(Phase.CHOOSE, {"tiles": 3}, edition="royale")
    path.write_text(json.dumps(record))
    assert_clean_failure(lasvegas("hint", path), 1, "not this game's rules")


def test_hint_at_the_play_prompt():
    """Typed 'hint' after a throw lists each value's chance; the game then goes on."""
    typed = "r\n3 3 5 1 6 2 2 4\nhint\n5\nquit\n"
    result = lasvegas("play", "--players", "Anna", "Ben", stdin=typed)
    assert result.returncode == 0, result.stderr
    hint_text = result.stdout.split("Hint for Anna", 1)[1]
    for number in (1, 2, 3, 4, 5, 6):
        assert f"the {number}s: wins" in hint_text
    assert "Anna places the 5s." in result.stdout
