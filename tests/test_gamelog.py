"""The game log: one entry per move, owners as numbers, Biggies counted as the payout counts them."""

from __future__ import annotations

import random

from companion.engine import apply
from companion.events import Place, ResolvePayout, Roll
from companion.gamelog import game_log
from companion.rules import make_rules
from companion.simulate import play_random_game
from companion.state import Phase, new_game
from tests.table import PLAIN_DEAL

# Anna puts three 6s and her Biggy on casino 6; Ben four 6s: both count 5, a tie at 5.
SCRIPT = [
    PLAIN_DEAL,
    Roll((6, 6, 6, 1, 2, 3, 4), biggy=(6,)),
    Place(6),
    Roll((6, 6, 6, 6, 2, 3, 4), biggy=(1,)),
    Place(6),
]


def _scripted():
    initial = new_game(make_rules("classic", {"biggies": True}), ["Anna", "Ben"])
    state = initial
    for event in SCRIPT:
        state = apply(state, event)
    return initial, state


def test_a_placement_with_a_biggy_says_how_it_counts():
    initial, _ = _scripted()
    log = game_log(initial, SCRIPT)
    assert [e["what"] for e in log] == ["deal", "roll", "place", "roll", "place"]
    anna, ben = log[2], log[4]
    assert (anna["seat"], anna["dice"], anna["biggy"], anna["counted"], anna["casino"]) == (
        0,
        3,
        1,
        5,
        6,
    )
    assert (ben["seat"], ben["dice"], ben["biggy"], ben["counted"]) == (1, 4, 0, 4)
    assert [e["step"] for e in log] == [1, 2, 3, 4, 5]


def test_the_payout_names_ties_and_every_note_taken():
    initial = new_game(make_rules("classic", {"biggies": True}), ["Anna", "Ben"])
    # Ben's fifth 6 ties Anna's 3 dice + Biggy at 5; the rest goes to casino 1 (Anna 4, Ben 3).
    events = [*SCRIPT, Roll((1, 1, 1, 1)), Place(1), Roll((6, 2, 2), biggy=(2,)), Place(6)]
    state = initial
    for event in events:
        state = apply(state, event)
    while state.phase is not Phase.PAYOUT:
        supply = state.supplies[state.current]
        roll = Roll((1,) * supply.regular, biggy=(2,) * supply.biggy)
        number = 1 if supply.regular else 2
        events += [roll, Place(number)]
        state = apply(apply(state, roll), Place(number))
    events.append(ResolvePayout())
    log = game_log(initial, events)
    paid = [e for e in log if e["step"] == len(events)]
    assert paid[0] == {"what": "payout", "round": 1, "step": len(events)}
    assert {
        "what": "tie",
        "casino": 6,
        "owners": [0, 1],
        "dice": 5,
        "round": 1,
        "step": len(events),
    } in paid
    awards = {e["casino"]: (e["owner"], e["note"]) for e in paid if e["what"] == "award"}
    assert awards[1] == (0, 60_000)  # Anna's 4 beat Ben's 3
    assert 6 not in awards  # the tie cancelled, nobody else was there


def test_every_event_of_a_random_game_is_logged_and_the_end_names_the_winner():
    rng = random.Random(4)
    initial = new_game(
        make_rules("classic", {"neutral_dice": True, "biggies": True}), ["A", "B", "C", "D"]
    )
    final, events = play_random_game(initial, rng)
    log = game_log(initial, events)
    assert {e["step"] for e in log} == set(range(1, len(events) + 1))
    assert log[-1]["what"] == "over"
    assert sum(e["what"] == "place" for e in log) == sum(isinstance(e, Place) for e in events)
