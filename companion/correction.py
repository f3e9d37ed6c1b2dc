"""Correcting the game to the table: a casino's dice set to what lies on it (`CorrectCasino`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from companion.errors import IllegalMove
from companion.events import SLOT_MACHINE, CorrectCasino, TableDie
from companion.state import GREY, NEUTRAL_SET, WHITE, GameState, Phase, PlacedDie
from companion.steps import replace_at

CORRECTABLE = (Phase.ROLL, Phase.PAYOUT)
"""Between turns (a die seen landing on the wrong casino) and before the payout (the round-end
check): the moments when no roll waits to be placed and no card or tile waits for a choice."""


def _where(number: int) -> str:
    return "the slot machine" if number == SLOT_MACHINE else f"casino {number}"


def _owner_label(state: GameState, owner: int) -> str:
    if 0 <= owner < len(state.players) or owner in (WHITE, GREY, NEUTRAL_SET):
        return state.owner_name(owner)
    return f"owner {owner!r}"


def _check_owner(state: GameState, die: TableDie) -> None:
    """Refuse an owner this game has no dice of, and a Biggy where that owner has none."""
    rules, players = state.rules, len(state.players)
    owners = {
        WHITE: bool(rules.neutral_dice),
        GREY: rules.edition == "royale",
        NEUTRAL_SET: rules.neutral_at_round_start(players) > 0 and rules.edition == "royale",
    }
    if not (0 <= die.owner < players or owners.get(die.owner, False)):
        raise IllegalMove(
            "correction",
            f"no dice of {_owner_label(state, die.owner)} are in this game "
            f"(seats 0-{players - 1}{''.join(f', {o}' for o, used in owners.items() if used)})",
        )
    if die.big and not ((0 <= die.owner < players and rules.biggies) or die.owner == NEUTRAL_SET):
        raise IllegalMove(
            "correction", f"{_owner_label(state, die.owner)} has no Biggy in this game"
        )


def _placed(number: int, die: TableDie) -> tuple[int, int, bool]:
    """(owner, value, big) of a die as the correction gives it; its value checked."""
    if number == SLOT_MACHINE:
        if die.value is None or not 1 <= die.value <= 6:
            raise IllegalMove(
                "correction",
                f"a die on the slot machine needs its value, 1-6, got {die.value!r}",
            )
        return die.owner, die.value, die.big
    if die.value is not None and die.value != number:
        raise IllegalMove(
            "correction", f"a die on casino {number} shows {number}, not {die.value!r}"
        )
    return die.owner, number, die.big


def _check_counts(state: GameState) -> None:
    """Refuse more dice of an owner lying on the table than the owner has. The dice in hand are
    not counted: a die put down by mistake is on the table and still counted in hand."""
    rules, players = state.rules, len(state.players)
    lying = [d for c in state.casinos for d in c.dice] + [d for t in state.tiles for d in t.dice]
    dice = Counter(d.owner for d in lying)
    big = Counter(d.owner for d in lying if d.big)
    most = {seat: (rules.dice_per_player, 1 if rules.biggies else 0) for seat in range(players)}
    most[NEUTRAL_SET] = (rules.dice_per_player, 1)
    white = rules.neutral_per_player(players) * players + rules.neutral_at_round_start(players)
    most[WHITE] = (white, 0)
    for owner, (count, biggies) in most.items():
        if dice[owner] > count or big[owner] > biggies:
            have = f"{count} dice" + (f", {biggies} of them a Biggy" if biggies else "")
            raise IllegalMove(
                "correction",
                f"{_owner_label(state, owner)} has {have}; with this correction "
                f"{dice[owner]} would lie on the table"
                + (f", {big[owner]} of them Biggies" if big[owner] > biggies else ""),
            )


def correct_casino(state: GameState, event: CorrectCasino) -> GameState:
    """The state with casino `event.casino` holding exactly `event.dice`; the dice in hand stay
    as they are (a die taken off a casino is off the table). Dice that were there already keep
    their place in the casino's order and when they were placed; the others are placed now."""
    rules = state.rules
    if rules.play != "dice":
        raise IllegalMove("correction", "the card game lays cards, not dice: nothing to correct")
    if state.phase not in CORRECTABLE:
        raise IllegalMove(
            "correction",
            f"a casino is corrected between turns or before the payout; the game waits for "
            f"{state.phase.value}",
        )
    number = event.casino
    if not 1 <= number <= rules.casino_count():
        slot = ", 7 for the slot machine" if rules.slot_machine else ""
        raise IllegalMove("correction", f"casinos are numbered 1-6{slot}, got {number!r}")
    for named in event.dice:
        _check_owner(state, named)
    wanted = Counter(_placed(number, die) for die in event.dice)
    casino = state.casino(number)
    before = Counter((d.owner, d.value, d.big) for d in casino.dice)
    if wanted == before:
        raise IllegalMove(
            "correction", f"{_where(number)} already holds these dice; nothing to correct"
        )
    left = wanted.copy()
    kept: list[PlacedDie] = []
    for lying in casino.dice:
        key = (lying.owner, lying.value, lying.big)
        if left[key] > 0:
            left[key] -= 1
            kept.append(lying)
    added = [
        PlacedDie(owner, value, big, state.turn)
        for (owner, value, big), count in _in_order(event.dice, number, left)
        for _ in range(count)
    ]
    casino = replace(casino, dice=tuple(kept + added))
    state = replace(state, casinos=replace_at(state.casinos, number - 1, casino))
    _check_counts(state)
    return state


def _in_order(
    dice: tuple[TableDie, ...], number: int, left: Counter
) -> list[tuple[tuple[int, int, bool], int]]:
    """The dice still to add, in the order the correction first names them."""
    seen: dict[tuple[int, int, bool], int] = {}
    for die in dice:
        key = _placed(number, die)
        if left[key] > 0 and key not in seen:
            seen[key] = left[key]
    return list(seen.items())
