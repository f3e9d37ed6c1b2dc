"""What tiles do to the table: gains from the bank, dice moved, the closed casino."""

from __future__ import annotations

from dataclasses import replace

from companion.errors import IllegalMove
from companion.events import TileDecision
from companion.state import GameState, PlacedDie, Tile
from companion.steps import replace_at
from companion.tile_codes import TileCode


def closed_casino(state: GameState) -> int | None:
    """The casino the No Entry token closes, if it lies out."""
    return next((t.holder for t in state.tiles if t.code is TileCode.NO_ENTRY and t.holder), None)


def thrown_dice(event: TileDecision, what: str) -> tuple[int, int]:
    """The two black extra dice a decision reports, each 1-6."""
    dice = event.get("dice")
    if not isinstance(dice, tuple) or len(dice) != 2 or not all(d in range(1, 7) for d in dice):
        raise IllegalMove(what, f"two extra dice showing 1-6 are thrown, got {dice!r}")
    return dice[0], dice[1]


def no_entry_reward(state: GameState, tile: Tile) -> tuple[int, int]:
    """(money, chips) on the space the counter moves to next; nothing past the track's end."""
    track = state.rules.no_entry_track
    return track[tile.level] if tile.level < len(track) else (0, 0)


def check_open(state: GameState, casino: int, what: str) -> None:
    """Refuse adding or removing dice at the casino No Entry closed."""
    if casino == closed_casino(state):
        raise IllegalMove(what, f"casino {casino} is closed by No Entry: no dice go in or out")


def with_tile(state: GameState, tile: Tile) -> GameState:
    return replace(state, tiles=tuple(tile if t.casino == tile.casino else t for t in state.tiles))


def gain(state: GameState, seat: int, money: int = 0, chips: int = 0) -> GameState:
    """Money from the bank (in the main game one money card a reward) and chips."""
    cards = state.bank_cards
    if money > 0 and cards:
        cards = replace_at(cards, seat, cards[seat] + 1)
    return replace(
        state,
        bank=replace_at(state.bank, seat, state.bank[seat] + money),
        bank_cards=cards,
        skip_tokens=replace_at(state.skip_tokens, seat, state.skip_tokens[seat] + chips),
    )


def remove_die(state: GameState, number: int, owner: int, big: bool, what: str) -> GameState:
    check_open(state, number, what)
    casino = state.casino(number)
    for index, die in enumerate(casino.dice):
        if die.owner == owner and die.big == big and not die.extra:
            dice = casino.dice[:index] + casino.dice[index + 1 :]
            return replace(
                state, casinos=replace_at(state.casinos, number - 1, replace(casino, dice=dice))
            )
    size = "Biggy" if big else "die"
    raise IllegalMove(what, f"casino {number} has no such {size} to take")


def rotate_or_return(state: GameState, seat: int, event: TileDecision, what: str) -> GameState:
    """Turn a die from hand to `number` and place it (no activation), or take one back from a casino."""
    big = bool(event.get("big", False))
    reward = event.get("reward")
    held = state.supplies[seat]
    if reward == "rotate":
        number = event.get("number")
        if not isinstance(number, int) or not 1 <= number <= 6:
            raise IllegalMove(what, f"a rotated die shows 1-6, got {number!r}")
        check_open(state, number, what)
        if not held.holds(big):
            raise IllegalMove(
                what, f"{state.players[seat]} holds no {'Biggy' if big else 'die'} to rotate"
            )
        held = held.moved(big, -1)
        casino = state.casino(number)
        placed = casino.dice + (PlacedDie(seat, number, big, state.turn),)
        state = replace(
            state, casinos=replace_at(state.casinos, number - 1, replace(casino, dice=placed))
        )
        return replace(state, supplies=replace_at(state.supplies, seat, held))
    source_casino = event.get("from")
    if not isinstance(source_casino, int) or not 1 <= source_casino <= 6:
        raise IllegalMove(
            what, f"'from' names the casino to take your die back from, got {source_casino!r}"
        )
    state = remove_die(state, source_casino, seat, big, what)
    held = held.moved(big, 1)
    return replace(state, supplies=replace_at(state.supplies, seat, held))


def clear_leader(state: GameState, casino: int) -> int | None:
    """The owner alone with the most counted dice at a casino, if there is one."""
    counted = sorted(state.casino(casino).counted().items(), key=lambda item: -item[1])
    if not counted or len(counted) > 1 and counted[0][1] == counted[1][1]:
        return None
    return counted[0][0]
