"""The page enters every chance outcome of a Royale game with all 16 tiles by hand."""

from __future__ import annotations

import pytest

from companion.events import DealRound, Roll, TileDecision, event_to_dict
from companion.record import result_summary
from tests.test_hand_entry import PLAYERS, SEED, table_game


def _dice(roll: Roll) -> list[dict]:
    kinds = (("regular", roll.regular), ("biggy", roll.biggy))
    return [{"pips": v, "kind": kind} for kind, values in kinds for v in values]


def test_the_page_enters_every_outcome_by_hand(client, act):
    events, final, _asked = table_game(SEED)
    players = [
        {"name": n, "colour": c} for n, c in zip(PLAYERS, ("red", "blue", "green"), strict=True)
    ]
    response = act("new_game", edition="royale", options={"tiles": 6}, players=players)
    assert response.status_code == 200, response.get_json()
    for event in events:
        game = client.get("/api/state").get_json()["game"]
        data = event_to_dict(event)
        if isinstance(event, Roll):
            response = act("roll", dice=_dice(event))
        elif isinstance(event, TileDecision) and game["pending"]["ask"] == "extra dice":
            # the page lists every throw, and takes it as tapped in, like a roll
            assert data in [c["event"] for c in game["choices"]]
            dice = [{"pips": v, "kind": "regular"} for v in event.get("dice")]
            response = act("roll", dice=dice, place=list(event.get("place", ())))
        else:
            if not isinstance(event, DealRound):
                assert data in [c["event"] for c in game["choices"]], data
            response = act("event", event=data)
        assert response.status_code == 200, (data, response.get_json())
    game = client.get("/api/state").get_json()["game"]
    assert game["phase"] == "over"
    money = {row["name"]: row["money"] for row in game["standings"]}
    assert money == {r["player"]: r["money"] for r in result_summary(final)["standings"]}


def test_the_page_refuses_a_throw_replay_would_refuse(client, act):
    players = [
        {"name": n, "colour": c} for n, c in zip(PLAYERS, ("red", "blue", "green"), strict=True)
    ]
    act("new_game", edition="royale", options={"tiles": 6}, players=players)
    events, _final, _asked = table_game(SEED)
    for event in events:
        game = client.get("/api/state").get_json()["game"]
        if game["phase"] == "tile" and game["pending"]["ask"] == "extra dice":
            break
        if isinstance(event, Roll):
            act("roll", dice=_dice(event))
        else:
            act("event", event=event_to_dict(event))
    else:
        pytest.fail("no tile asked for its extra dice")
    response = act("roll", dice=[{"pips": 3, "kind": "regular"}])  # one die, not two
    assert response.status_code == 409
    assert "two extra dice" in response.get_json()["error"]
