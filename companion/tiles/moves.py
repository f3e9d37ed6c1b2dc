"""Tile decisions that move dice or pick one of several actions: Handicap, Nice Dice, My Choice."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from companion.errors import IllegalMove
from companion.events import TileDecision
from companion.state import GREY, GameState, Pending, Phase, PlacedDie, Tile
from companion.steps import replace_at
from companion.tiles.board import (
    check_open,
    gain,
    remove_die,
    rotate_or_return,
    thrown_dice,
    with_tile,
)
from companion.tiles.catalog import (
    HANDICAP_SPACES,
)


def handicap(state: GameState, tile: Tile, pending: Pending, event: TileDecision) -> GameState:
    """Take a grey die onto the tile for its reward: a chip, $30,000, or rotate / return a die."""
    seat = pending.seat
    source = event.get("take")
    if source in (None, False):
        return state  # nobody must take a blank die, but only taking one is rewarded
    kinds = list(HANDICAP_SPACES)
    reward = event.get("reward")
    if reward not in ("chip", "money", "rotate", "return"):
        raise IllegalMove(
            "Handicap", f"the reward is chip, money, rotate or return, got {reward!r}"
        )
    space = kinds.index("option") if reward in ("rotate", "return") else kinds.index(reward)
    if not tile.spaces[space]:
        raise IllegalMove("Handicap", f"no empty {kinds[space]} space is left on the tile")
    if not isinstance(source, int) or not 1 <= source <= 6:
        raise IllegalMove("Handicap", f"take names the casino of a blank die, got {source!r}")
    state = remove_die(state, source, GREY, False, "Handicap")
    spaces = replace_at(tile.spaces, space, tile.spaces[space] - 1)
    grey = PlacedDie(GREY, 0, False, state.turn)
    state = with_tile(state, replace(tile, spaces=spaces, dice=tile.dice + (grey,)))
    if reward == "chip":
        return gain(state, seat, chips=1)
    if reward == "money":
        return gain(state, seat, money=30_000)
    return rotate_or_return(state, seat, event, "Handicap")


def nice_dice(state: GameState, tile: Tile, pending: Pending, event: TileDecision) -> GameState:
    """Put a die just rolled, or just placed here, on the tile's space for its number."""
    seat = pending.seat
    source = event.get("from")
    if source in (None, False):
        return state
    big = bool(event.get("big", False))
    number = tile.casino
    if source == "casino":
        value = number
        casino = state.casino(number)
        index = next(
            (
                i
                for i, d in enumerate(casino.dice)
                if d.owner == seat and d.big == big and d.turn == state.turn
            ),
            None,
        )
        if index is None:
            raise IllegalMove(
                "Nice Dice", f"{state.players[seat]} placed no such die here this turn"
            )
        dice = casino.dice[:index] + casino.dice[index + 1 :]
        state = replace(
            state, casinos=replace_at(state.casinos, number - 1, replace(casino, dice=dice))
        )
    elif source == "roll":
        value = event.get("value")
        roll = state.pending_roll
        rolled = (roll.biggy if big else roll.regular) if roll else ()
        if value == number or value not in rolled:
            raise IllegalMove(
                "Nice Dice",
                f"no die showing {value!r} stayed in hand from this roll (rolled {list(rolled)})",
            )
        held = state.supplies[seat]
        held = held.moved(big, -1)
        state = replace(state, supplies=replace_at(state.supplies, seat, held))
    else:
        raise IllegalMove("Nice Dice", f"'from' is 'roll' or 'casino', got {source!r}")
    occupant = next((d for d in tile.dice if d.value == value), None)
    if occupant is not None:
        check_open(state, value, "Nice Dice")
    kept = tuple(d for d in tile.dice if d is not occupant)
    if occupant is not None:  # the die already there goes to its casino (without activating it)
        target = state.casino(value)
        moved = PlacedDie(occupant.owner, value, occupant.big, state.turn)
        state = replace(
            state,
            casinos=replace_at(
                state.casinos, value - 1, replace(target, dice=target.dice + (moved,))
            ),
        )
    return with_tile(state, replace(tile, dice=kept + (PlacedDie(seat, value, big, state.turn),)))


def my_choice(
    state: GameState,
    tile: Tile,
    pending: Pending,
    event: TileDecision,
    activate: Callable[[GameState, int, int], GameState],
) -> GameState:
    """Throw two extra dice, then carry out the action of one of the two faces.

    Face 4 activates another tile, by `activate(state, casino, seat)`.
    """
    seat = pending.seat
    if not pending.context:
        dice = thrown_dice(event, "My Choice")
        ask = replace(pending, ask="action", context=dice)
        return replace(state, phase=Phase.TILE, pending=ask)
    face = event.get("use")
    if face not in pending.context:
        raise IllegalMove(
            "My Choice", f"use one of the thrown faces {list(pending.context)}, got {face!r}"
        )
    if face in (1, 2):
        return gain(state, seat, chips=face)
    if face == 3:
        return gain(state, seat, money=30_000)
    if face == 4:
        other = event.get("tile")
        target = state.tile_at(other) if isinstance(other, int) else None
        if target is None or other == tile.casino:
            raise IllegalMove(
                "My Choice", f"'tile' names the casino of another tile, got {other!r}"
            )
        check_open(state, other, "My Choice")
        return activate(state, other, seat)
    if face == 5:
        return rotate_or_return(state, seat, event, "My Choice")
    big = bool(event.get("big", False))
    held = state.supplies[seat]
    if not held.holds(big):
        raise IllegalMove(
            "My Choice",
            f"{state.players[seat]} holds no {'Biggy' if big else 'die'} for the gold space",
        )
    held = held.moved(big, -1)
    supplies = replace_at(state.supplies, seat, held)
    for old in tile.dice:  # the die on the gold space goes back to its owner
        back = supplies[old.owner]
        back = back.moved(old.big, 1)
        supplies = replace_at(supplies, old.owner, back)
    state = replace(state, supplies=supplies)
    return with_tile(state, replace(tile, dice=(PlacedDie(seat, 0, big, state.turn),)))
