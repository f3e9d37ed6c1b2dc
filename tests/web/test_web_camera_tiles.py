"""The camera reads a tile's two extra dice as it reads a roll; only a sure read of two is applied."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from test_web_camera import detections  # noqa: E402  (the tests' folder is on the path)

from companion.events import TileDecision
from companion.proposal import extra_dice_throw
from companion.session import GameStore
from companion.state import Pending, Phase
from vision.video import RollSettled
from web.actions import act as act_on
from web.hub import TableHub
from web.reading import dice_read

PAIRS = [
    [40000, 30000],
    [50000, 30000],
    [60000, 40000],
    [70000, 30000],
    [60000, 50000],
    [90000, 80000],
]


def royale_table(path, tiles):
    """Anna (red), Ben (blue), Carla (green); Anna has placed a die beside the first tile."""
    table = TableHub(GameStore(path), seed=2)
    players = [
        {"name": n, "colour": c} for n, c in (("Anna", "red"), ("Ben", "blue"), ("Carla", "green"))
    ]

    def act(action, **fields):
        act_on(table, {"action": action, "base": table.version()} | fields, None)

    act("new_game", edition="royale", options={"tiles": 3}, players=players)
    act("event", event={"type": "deal", "casinos": PAIRS, "tiles": tiles})
    act("roll", dice=[{"pips": 1}] + [{"pips": 5}] * 6 + [{"pips": 5, "kind": "biggy"}])
    act("event", event={"type": "place", "number": 1})
    return table


def black(*values, unsure=False):
    return [(v, "black", "regular", unsure) for v in values]


def test_the_jackpots_extra_dice_are_read_by_the_camera(tmp_path):
    hub = royale_table(tmp_path / "t.sqlite3", ["A2", "C1", "D1"])
    assert hub.session.state.pending.ask == "extra dice"
    # Anna's six 5s still lie in the arena from her roll: only the thrown dice count
    dice = [(5, "red", "regular", False)] * 6 + black(3, 4)
    stayed = np.array([True] * 6 + [False] * 2)
    hub.on_camera_event(RollSettled(detections(dice), stayed))
    state = hub.session.state
    assert str(state.phase) == "roll" and state.bank[0] == 30_000  # a 7 pays the Jackpot
    assert hub.snapshot()["notice"] == {"source": "camera", "event": "tile"}


@pytest.mark.parametrize(
    "dice",
    [
        black(3),  # one die read: the other is out of view
        black(3, 4, unsure=True),  # cocked
        black(3, 4, 5),  # a third die among the thrown
    ],
)
def test_an_unsure_read_of_the_extra_dice_is_left_to_the_page(tmp_path, dice):
    hub = royale_table(tmp_path / "t.sqlite3", ["B2", "C1", "D1"])
    hub.on_camera_event(RollSettled(detections(dice)))
    assert hub.session.state.pending.ask == "extra dice"


def test_prime_times_placement_is_left_to_the_player(tmp_path):
    hub = royale_table(tmp_path / "t.sqlite3", ["A2", "C1", "D1"])
    state = hub.session.state
    waiting = replace(state, phase=Phase.TILE, pending=Pending(1, "B1", 0, "extra dice"))
    read = dice_read(detections(black(2, 6)))
    assert extra_dice_throw(waiting, read, [True, True]) is None
    jackpot = replace(waiting, pending=Pending(1, "A2", 0, "extra dice"))
    assert extra_dice_throw(jackpot, read, [True, True]) == TileDecision(1, (("dice", (2, 6)),))
