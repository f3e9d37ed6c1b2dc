"""The correction event: a casino set to what the table shows, undoable, in records and replay."""

from __future__ import annotations

import copy
import json
import random

import pytest
from helpers_play import fresh_game, next_random_event, roundtrip
from table import play, started, turn

from companion.engine import apply
from companion.errors import IllegalMove
from companion.events import (
    SLOT_MACHINE,
    CorrectCasino,
    DealRound,
    Event,
    ResolvePayout,
    Roll,
    TableDie,
    event_from_dict,
)
from companion.record import RecordError, record_from_events, replay_record
from companion.render import step_line
from companion.session import GameStore
from companion.simulate import play_random_game
from companion.state import WHITE, GameState, Phase

ANNA, BEN, CARLA = 0, 1, 2
SEVEN = DealRound(((60_000,), (50_000,), (70_000,), (80_000,), (90_000,), (50_000,), (60_000,)))


def until_payout(state: GameState, seed: int) -> GameState:
    """A random game played on to its first payout."""
    rng = random.Random(seed)
    while state.phase is not Phase.PAYOUT:
        state = apply(state, next_random_event(state, rng))
    return state


def two_turns(**options) -> GameState:
    """Anna placed two 4s, Ben one 5; Carla to roll (with Biggies, theirs show 1 and 6)."""
    state = started(["Anna", "Ben", "Carla"], **options)
    if options.get("biggies"):
        state = turn(state, (4, 4, 1, 2, 3, 6, 6), 4, biggy=(1,))
        return turn(state, (5, 1, 1, 2, 2, 3, 3), 5, biggy=(6,))
    state = turn(state, (4, 4, 1, 2, 3, 6, 6, 6), 4)
    return turn(state, (5, 1, 1, 2, 2, 3, 3, 6), 5)


def test_a_die_on_the_wrong_casino_is_put_right_by_two_corrections():
    state = two_turns()
    moved = play(
        state,
        CorrectCasino(4, (TableDie(ANNA),)),
        CorrectCasino(5, (TableDie(BEN), TableDie(ANNA, value=5))),
    )
    assert moved.casino(4).counted() == {ANNA: 1}
    assert moved.casino(5).counted() == {BEN: 1, ANNA: 1}
    assert moved.supplies == state.supplies  # the dice in hand do not change
    assert moved.phase is Phase.ROLL and moved.current == CARLA
    assert state.casino(4).counted() == {ANNA: 2}  # the state before is untouched


def test_dice_that_stay_keep_their_turn_and_new_ones_are_placed_now():
    state = two_turns()
    after = apply(state, CorrectCasino(4, (TableDie(ANNA), TableDie(ANNA), TableDie(BEN))))
    assert [d.turn for d in after.casino(4).dice] == [1, 1, state.turn]
    assert [d.owner for d in after.casino(4).dice] == [ANNA, ANNA, BEN]


def test_a_biggy_counts_two_at_the_payout_after_a_correction():
    state = two_turns(biggies=True)
    fixed = apply(state, CorrectCasino(4, (TableDie(ANNA, big=True), TableDie(BEN))))
    assert fixed.casino(4).counted() == {ANNA: 2, BEN: 1}


def test_the_payout_goes_on_from_a_corrected_casino():
    state = fresh_game({}, players=("Anna", "Ben"))
    state = until_payout(state, 4)
    busiest = max(state.casinos[:6], key=lambda c: len(c.dice))
    first = busiest.dice[0]
    fewer = CorrectCasino(busiest.number, tuple(TableDie(d.owner, d.big) for d in busiest.dice[1:]))
    after = apply(state, fewer)
    assert after.phase is Phase.PAYOUT
    assert sum(after.casino(busiest.number).counted().values()) == sum(
        busiest.counted().values()
    ) - (2 if first.big else 1)
    apply(after, ResolvePayout())  # the payout goes on from the corrected casino


def test_the_slot_machine_takes_values():
    state = play(started(["Anna", "Ben"], SEVEN, slot_machine=True))
    fixed = apply(state, CorrectCasino(SLOT_MACHINE, (TableDie(ANNA, value=3),)))
    assert [(d.owner, d.value) for d in fixed.casino(SLOT_MACHINE).dice] == [(ANNA, 3)]


@pytest.mark.parametrize(
    ("options", "event", "message"),
    [
        # no such casino
        ({}, CorrectCasino(8, ()), "casinos are numbered 1-6, got 8"),
        # the slot machine is not in play
        ({}, CorrectCasino(7, ()), "numbered 1-6, got 7"),
        # a seat the game does not have
        ({}, CorrectCasino(4, (TableDie(5),)), "no dice of owner 5"),
        # white dice without the neutral dice variant
        ({}, CorrectCasino(4, (TableDie(WHITE),)), "no dice of white are in this game"),
        # a Biggy without the Biggy variant
        ({}, CorrectCasino(4, (TableDie(ANNA, big=True),)), "Anna has no Biggy"),
        # a die on casino 4 shows 4
        ({}, CorrectCasino(4, (TableDie(ANNA, value=3),)), "shows 4, not 3"),
        # nothing changes
        ({}, CorrectCasino(4, (TableDie(ANNA), TableDie(ANNA))), "already holds these dice"),
        # more dice than Anna has (8): two lie on casino 4 already
        ({}, CorrectCasino(1, (TableDie(ANNA),) * 7), "with this correction 9 would lie"),
        # two Biggies of one player
        (
            {"biggies": True},
            CorrectCasino(1, (TableDie(ANNA, big=True),) * 2),  # one Biggy each
            "2 of them Biggies",
        ),
    ],
)
def test_corrections_that_cannot_be_are_refused(options, event, message):
    state = two_turns(**options)
    with pytest.raises(IllegalMove, match="correction") as refused:
        apply(state, event)
    assert message in str(refused.value)


def test_the_slot_machine_needs_each_die_value():
    state = play(started(["Anna", "Ben"], SEVEN, slot_machine=True))
    with pytest.raises(IllegalMove, match="needs its value"):
        apply(state, CorrectCasino(SLOT_MACHINE, (TableDie(ANNA),)))


def test_no_correction_while_a_roll_waits_to_be_placed():
    state = apply(two_turns(), Roll((1, 1, 2, 2, 3, 3, 4, 5)))
    with pytest.raises(IllegalMove, match="between turns or before the payout"):
        apply(state, CorrectCasino(4, (TableDie(ANNA),)))


def test_the_card_game_has_no_dice_to_correct():
    state = fresh_game({}, edition="cards", players=("Leo", "Henry"))
    state = until_payout(state, 1)
    with pytest.raises(IllegalMove, match="lays cards, not dice"):
        apply(state, CorrectCasino(1, ()))


def test_the_event_goes_through_its_stored_form():
    event = CorrectCasino(7, (TableDie(ANNA, True, 5), TableDie(WHITE, False, 2), TableDie(BEN)))
    assert roundtrip(event) == event


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"type": "correct", "casino": "4", "dice": []}, "casino must be"),
        ({"type": "correct", "casino": 4, "dice": {"owner": 1}}, "dice must be a list"),
        ({"type": "correct", "casino": 4, "dice": [[1, False]]}, "dice must be"),
        ({"type": "correct", "casino": 4, "dice": [{"owner": "Ben"}]}, "die owner"),
        ({"type": "correct", "casino": 4, "dice": [{"owner": 1, "big": "no"}]}, "big must be"),
        ({"type": "correct", "casino": 4, "dice": [{"owner": 1, "value": 2.5}]}, "die value"),
        ({"type": "correct", "casino": 4}, "correct event lacks 'dice'"),
    ],
)
def test_correction_events_of_the_wrong_shape_name_the_field(data, field):
    with pytest.raises(ValueError, match="malformed event") as refused:
        event_from_dict(data)
    assert field in str(refused.value)


def test_step_line_tells_the_correction():
    state = two_turns()
    event = CorrectCasino(4, (TableDie(ANNA),))
    line = step_line(state, event, apply(state, event))
    assert line == "Casino 4 corrected to what lies on the table: Anna 1."


def test_a_correction_is_undone_like_any_step(tmp_path):
    store = GameStore(tmp_path / "games.db")
    session = store.new_game(fresh_game())
    for event in (
        DealRound(((60_000,), (50_000,), (70_000,), (80_000,), (90_000,), (50_000,))),
        Roll((4, 4, 1, 2, 3, 6, 6, 6)),
    ):
        session.apply(event)
    from companion.events import Place

    before = session.apply(Place(4))
    session.apply(CorrectCasino(4, (TableDie(ANNA),)))
    assert session.state.casino(4).counted() == {ANNA: 1}
    assert session.undo() == before
    store.close()


# --- records ----------------------------------------------------------------------------------


def with_corrections(seed: int, options: dict | None = None) -> tuple[GameState, list[Event]]:
    """A random 3-player game with a correction after some turns and before every payout:
    the casino with most dice loses its first die."""
    initial = fresh_game(options or {})
    rng = random.Random(seed)
    state, events = initial, []
    _, plain = play_random_game(initial, random.Random(seed))
    for event in plain:
        if state.phase is Phase.PAYOUT or state.phase is Phase.ROLL and rng.random() < 0.15:
            busiest = max(state.casinos, key=lambda c: len(c.dice))
            if busiest.dice:
                fix = CorrectCasino(
                    busiest.number,
                    tuple(TableDie(d.owner, d.big, d.value) for d in busiest.dice[1:]),
                )
                events.append(fix)
                state = apply(state, fix)
        try:
            state = apply(state, event)
        except IllegalMove:  # the corrected game took another turn: stop here
            break
        events.append(event)
    return initial, events


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("options", [{}, {"biggies": True, "slot_machine": True}])
def test_records_with_corrections_replay_exactly(seed, options):
    initial, events = with_corrections(seed, options)
    assert any(isinstance(e, CorrectCasino) for e in events)
    record = record_from_events(initial, events)
    listed = [c for r in record["rounds"] for c in r.get("corrections", [])]
    assert any("after_turn" in c for c in listed)  # during play
    assert any("after_turn" not in c for c in listed)  # before a payout
    replay = replay_record(json.loads(json.dumps(record)))
    assert list(replay.events) == events
    assert record_from_events(replay.initial, replay.events) == record


def a_record_with_a_correction() -> dict:
    state = two_turns()
    events = [
        DealRound(((60_000,), (50_000,), (70_000,), (80_000,), (90_000,), (50_000,))),
        Roll((4, 4, 1, 2, 3, 6, 6, 6)),
    ]
    from companion.events import Place

    events += [Place(4), Roll((5, 1, 1, 2, 2, 3, 3, 6)), Place(5)]
    events.append(CorrectCasino(4, (TableDie(ANNA), TableDie(BEN))))
    initial = fresh_game()
    assert play(initial, *events[:-1]) == state
    return record_from_events(initial, events)


def test_the_record_lists_a_correction_by_names():
    record = a_record_with_a_correction()
    assert record["rounds"][0]["corrections"] == [
        {
            "after_turn": 2,
            "casino": 4,
            "dice": [{"owner": "Anna", "big": False}, {"owner": "Ben", "big": False}],
        }
    ]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda c: c.update(casino="four"), "'casino' must be 1-6 or \"slot\""),
        (lambda c: c.update(dice="Anna"), "'dice' has the wrong type"),
        (lambda c: c.update(dice=["Anna"]), "each die is an object"),
        (lambda c: c["dice"][0].update(owner="Dora"), "'Dora' is neither a player"),
        (lambda c: c["dice"][0].update(big="yes"), "'big' must be true or false"),
        (lambda c: c["dice"][0].update(value="4"), "a die's 'value' must be 1-6"),
        (lambda c: c.update(after_turn=9), "'after_turn' must be a turn of this round, 0-2"),
        (lambda c: c.update(after_turn=True), "'after_turn' must be a turn"),
        (lambda c: c.update(after_turn=1, casino=9), "step 4 (round 1, correction after turn 1)"),
        (lambda c: c.pop("after_turn"), "comes just before the payout"),
    ],
)
def test_bad_corrections_in_a_record_are_refused_by_name(change, message):
    record = copy.deepcopy(a_record_with_a_correction())
    change(record["rounds"][0]["corrections"][0])
    with pytest.raises(RecordError) as refused:
        replay_record(record)
    assert message in str(refused.value)


def test_a_correction_after_the_turn_where_the_record_stops_is_refused():
    record = a_record_with_a_correction()
    record["rounds"][0]["turns"].append({"player": "Carla", "roll": [1, 1, 2, 2, 3, 3, 4, 5]})
    record["rounds"][0]["corrections"][0]["after_turn"] = 3
    with pytest.raises(RecordError, match="follows turn 3, but the record ends before it"):
        replay_record(record)
