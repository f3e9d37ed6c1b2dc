"""`legal_choices(state)`: every decision the player to move may make now."""

from __future__ import annotations

from companion.cardplay import card_choices
from companion.events import SLOT_MACHINE, Event, Kick, Place, ResolvePayout, Skip
from companion.state import WHITE, GameState, Phase, PlacedDie
from companion.tiles import closed_casino, decision_choices, power_play_choices


def _kick_sets(
    options: list[tuple[int, bool]], count: int, start: int = 0
) -> list[tuple[Kick, ...]]:
    """Distinct multisets of `count` kick targets drawn from `options` (a sorted multiset)."""
    if count == 0:
        return [()]
    if len(options) - start < count:
        return []
    result: list[tuple[Kick, ...]] = []
    previous = None
    for index in range(start, len(options)):
        if options[index] == previous:
            continue
        previous = options[index]
        head = Kick(*options[index])
        for tail in _kick_sets(options, count - 1, index + 1):
            result.append((head,) + tail)
    return result


def _placements(state: GameState, number: int, slot: bool) -> list[Event]:
    roll = state.pending_roll
    assert roll is not None
    target = SLOT_MACHINE if slot else number
    seat = state.current
    placed = [PlacedDie(seat, number, False, state.turn)] * roll.regular.count(number)
    placed += [PlacedDie(seat, number, True, state.turn)] * roll.biggy.count(number)
    placed += [PlacedDie(WHITE, number, False, state.turn)] * roll.neutral.count(number)
    casino = state.casino(target)
    dice = list(casino.dice) + placed
    kickable = [d for d in dice if not slot or d.turn == state.turn]
    targets = sorted((d.owner, d.big) for d in kickable)
    kick_sets = _kick_sets(targets, min(roll.kickers.count(number), len(targets)))
    chips: list[str | None] = [None]
    if state.rules.chip_cards and not slot and roll.counted(number) >= 2:
        chips += sorted(set(casino.chip_cards))
    return [Place(number, slot, kicks, chip) for kicks in kick_sets for chip in chips]


def legal_choices(state: GameState) -> tuple[Event, ...]:
    """Every decision open now; empty while the game waits only for chance (a deal, a roll).

    Before a roll, the holder of Royale's Power Play token may use it instead of rolling.
    """
    if state.phase is Phase.PAYOUT:
        return (ResolvePayout(),)
    if state.phase is Phase.ROLL:
        return tuple(power_play_choices(state))
    if state.phase is Phase.TILE:
        return tuple(decision_choices(state))
    if state.phase is Phase.CARDS:
        return tuple(card_choices(state))
    if state.phase is not Phase.CHOOSE:
        return ()
    roll = state.pending_roll
    assert roll is not None
    rules = state.rules
    if not (rules.kickers or rules.chip_cards or rules.slot_machine or rules.skip_rule != "none"):
        return tuple(Place(number) for number in sorted(set(roll.values())))
    taken = {d.value for d in state.casino(SLOT_MACHINE).dice} if rules.slot_machine else set()
    closed = closed_casino(state)
    if closed is not None and set(roll.values()) == {closed}:
        return (Skip(),)  # nothing can be placed: the turn passes
    choices: list[Event] = []
    for number in sorted(set(roll.values()) - {closed}):
        choices += _placements(state, number, slot=False)
        if rules.slot_machine and number not in taken:
            choices += _placements(state, number, slot=True)
    seat = state.current
    if (
        rules.skip_rule != "none"
        and state.skip_tokens[seat] > 0
        and (not rules.skip_limit or state.skips_used[seat] < rules.skip_limit)
    ):
        choices.append(Skip())
    return tuple(choices)
