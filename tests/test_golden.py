"""Golden game records: replayed exactly, payout explanations and standings included.

Regenerate (after an intended change of the explanation format) with
`LASVEGAS_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py`.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from companion.record import record_from_events, replay_record, result_summary
from companion.rules import every_variant, make_rules
from companion.simulate import play_random_game
from companion.state import new_game

GOLDEN = Path(__file__).parent / "golden"

CASES = {
    # the base game, four players
    "classic-base-4p": ("classic", {}, ["Anna", "Ben", "Carla", "Denny"], 11),
    # neutral dice with the 3-player extra pair, every dice and money variant at once
    "classic-all-3p": ("classic", every_variant("classic"), ["Anna", "Ben", "Carla"], 7),
    # two players with four white dice each
    "classic-neutral-2p": ("classic", {"neutral_dice": True}, ["Anna", "Ben"], 5),
    # the card game with chip cards, four players
    "cards-chips-4p": ("cards", {"chip_cards": True}, ["Leo", "Henry", "Rebecca", "Emily"], 2),
    # Las Vegas Royale, basic game, two players with the neutral set
    "royale-basic-2p": ("royale", {}, ["Anna", "Ben"], 8),
    # Las Vegas Royale, main game with three tiles a round, four players
    "royale-tiles-4p": ("royale", {"tiles": 3}, ["Anna", "Ben", "Carla", "Denny"], 0),
    # Las Vegas Royale with a tile beside every casino, three players
    "royale-six-tiles-3p": ("royale", {"tiles": 6}, ["Anna", "Ben", "Carla"], 5),
    # the Custom edition with skip chips, five players
    "custom-chips-5p": (
        "custom",
        {"skip_rule": "chips"},
        ["Red", "Yellow", "Blue", "Green", "Black"],
        3,
    ),
}


def _make(name: str) -> dict:
    edition, options, players, seed = CASES[name]
    initial = new_game(make_rules(edition, options), players)
    _, events = play_random_game(initial, random.Random(seed))
    return record_from_events(initial, events)


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_record_replays_exactly(name):
    """The stored record replays without error to exactly the stored result."""
    path = GOLDEN / f"{name}.json"
    if os.environ.get("LASVEGAS_UPDATE_GOLDEN"):
        path.write_text(json.dumps(_make(name), indent=1) + "\n", encoding="utf-8")
    record = json.loads(path.read_text(encoding="utf-8"))
    replay = replay_record(record)
    assert result_summary(replay.final) == record["result"]
    assert record_from_events(replay.initial, replay.events) == record
