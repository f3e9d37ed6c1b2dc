"""Placing dice beside a tile: its immediate effect, or the decision it asks for; Power Play."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from companion.errors import IllegalMove
from companion.events import PowerPlay
from companion.state import GREY, GameState, Pending, Phase, PlacedDie, Tile
from companion.steps import replace_at
from companion.tile_codes import TileCode
from companion.tiles.board import (
    check_open,
    clear_leader,
    closed_casino,
    gain,
    with_tile,
)
from companion.tiles.catalog import (
    HIGH_FIVE_DICE,
    KNOCKOUT_BAR,
    PAY_DAY_CHIPS_UP_TO,
    PAY_DAY_PER_CASINO,
)


def nothing(state: GameState, tile: Tile, seat: int) -> GameState:
    """A tile that acts only at round end: placing dice beside it does nothing more."""
    return state


def ask(question: str) -> Callable[[GameState, Tile, int], GameState]:
    """A tile whose outcome the table tells: the game waits for the placing player's decision."""

    def waiting(state: GameState, tile: Tile, seat: int) -> GameState:
        pending = Pending(tile.casino, tile.code, seat, question)
        return replace(state, phase=Phase.TILE, pending=pending)

    return waiting


def double_down(state: GameState, tile: Tile, seat: int) -> GameState:
    """Double Down asks which dice move onto the tile, when the player has dice in its casino."""
    if not any(d.owner == seat for d in state.casino(tile.casino).dice):
        return state
    return ask("dice to move")(state, tile, seat)


def take_power_play(state: GameState, tile: Tile, seat: int) -> GameState:
    """Power Play: the player alone with the most dice here takes the token."""
    if clear_leader(state, tile.casino) == seat:
        return with_tile(state, replace(tile, holder=seat, spaces=()))
    return state


def block_it(state: GameState, tile: Tile, seat: int) -> GameState:
    """Block It asks where a cluster of grey dice goes, while clusters are left."""
    return ask("cluster")(state, tile, seat) if tile.spaces else state


def handicap(state: GameState, tile: Tile, seat: int) -> GameState:
    """Handicap asks for a blank die, while one lies out and a space on the tile is free."""
    has_grey = any(d.owner == GREY for c in state.casinos for d in c.dice)
    if not has_grey or not any(tile.spaces):
        return state
    return ask("blank die")(state, tile, seat)


def high_five(state: GameState, tile: Tile, seat: int) -> GameState:
    """High Five: the first player with five counted dice here takes the token."""
    placed = state.casino(tile.casino).counted().get(seat, 0)
    if tile.holder is None and placed >= HIGH_FIVE_DICE:
        return with_tile(state, replace(tile, holder=seat))
    return state


def pay_day(state: GameState, tile: Tile, seat: int) -> GameState:
    """Pay Day: $10,000 for each casino holding the player's dice, as chips up to $20,000."""
    casinos = sum(1 for c in state.casinos if any(d.owner == seat for d in c.dice))
    amount = PAY_DAY_PER_CASINO * casinos
    if amount <= PAY_DAY_CHIPS_UP_TO:
        return gain(state, seat, chips=amount // PAY_DAY_PER_CASINO)
    return gain(state, seat, money=amount)


def knock_out(state: GameState, tile: Tile, seat: int) -> GameState:
    """Knockout: opponents put a die in the bar (asking first who may choose their Biggy)."""
    return knockout(state, tile, seat)


def knockout_choosers(state: GameState, tile: Tile, seat: int) -> list[int]:
    """Opponents who must put a die in the bar and hold both a regular die and their Biggy."""
    return [
        s
        for s in knockout_victims(state, tile, seat)
        if state.supplies[s].regular and state.supplies[s].biggy
    ]


def knockout_victims(state: GameState, tile: Tile, seat: int) -> list[int]:
    in_bar = {s: sum(1 for d in tile.dice if d.owner == s) for s in range(len(state.players))}
    return [
        s
        for s in range(len(state.players))
        if s != seat
        and in_bar[s] < KNOCKOUT_BAR
        and state.supplies[s].regular + state.supplies[s].biggy
    ]


def knockout(
    state: GameState, tile: Tile, seat: int, biggies: tuple[int, ...] | None = None
) -> GameState:
    """Opponents put a die from their hand in the bar; the activating player's bar dice return.

    `biggies` names the opponents who chose their Biggy; None asks them first if any may choose.
    """
    if biggies is None and knockout_choosers(state, tile, seat):
        return replace(
            state,
            phase=Phase.TILE,
            pending=Pending(tile.casino, TileCode.KNOCKOUT, seat, "dice for the bar"),
        )
    supplies = list(state.supplies)
    bar = [d for d in tile.dice if d.owner != seat]
    back = [d for d in tile.dice if d.owner == seat]
    for victim in knockout_victims(state, tile, seat):
        held = supplies[victim]
        big = victim in (biggies or ()) or not held.regular
        supplies[victim] = held.moved(big, -1)
        bar.append(PlacedDie(victim, 0, big, state.turn))
    own = supplies[seat]
    supplies[seat] = own._replace(
        regular=own.regular + sum(1 for d in back if not d.big),
        biggy=own.biggy + sum(1 for d in back if d.big),
    )
    state = replace(state, supplies=tuple(supplies))
    return with_tile(state, replace(tile, dice=tuple(bar)))


def power_play_holder(state: GameState) -> Tile | None:
    """The Power Play tile when the player to move holds its token and may still use it.

    The text allows it 'on your next turn': a holder who rolls instead lets that turn go
    (`spaces` then holds a mark), unless the table plays `power_play=any`.
    """
    tile = next(
        (t for t in state.tiles if t.code is TileCode.POWER_PLAY and t.holder == state.current),
        None,
    )
    if tile is None or tile.spaces and state.rules.power_play == "next":
        return None
    return tile


def power_play_rolled(state: GameState) -> GameState:
    """The holder rolled on their turn: with the text's reading the token's turn is gone."""
    tile = power_play_holder(state)
    if tile is None:
        return state
    return with_tile(state, replace(tile, spaces=(1,)))


def return_power_play(state: GameState) -> GameState:
    """The Power Play token goes back to its tile whenever nobody has a clear majority there."""
    for tile in state.tiles:
        if (
            tile.code is TileCode.POWER_PLAY
            and tile.holder is not None
            and clear_leader(state, tile.casino) is None
        ):
            state = with_tile(state, replace(tile, holder=None, spaces=()))
    return state


def power_play_choices(state: GameState) -> list[PowerPlay]:
    """Power Play uses open to the player to move instead of rolling."""
    if not state.tiles or power_play_holder(state) is None:
        return []
    held = state.supplies[state.current]
    kinds = [big for big in (False, True) if held.holds(big)]
    closed = closed_casino(state)
    return [PowerPlay(n, big) for big in kinds for n in range(1, 7) if n != closed]


def use_power_play(state: GameState, number: int, big: bool) -> tuple[GameState, int]:
    """Place one die from hand turned to `number`; the token goes back. Returns the casino."""
    tile = power_play_holder(state)
    name = state.to_move()
    if tile is None:
        if any(t.code is TileCode.POWER_PLAY and t.holder == state.current for t in state.tiles):
            raise IllegalMove(
                "Power Play",
                f"{name} let the turn after taking the token go by: it is used on the next turn "
                "(power_play=any allows any later turn)",
            )
        raise IllegalMove("Power Play", f"{name} does not hold the Power Play token")
    if not 1 <= number <= 6:
        raise IllegalMove("Power Play", f"a turned die shows 1-6, got {number}")
    check_open(state, number, "Power Play")
    held = state.supplies[state.current]
    if not held.holds(big):
        raise IllegalMove("Power Play", f"{name} holds no {'Biggy' if big else 'die'} to turn")
    held = held.moved(big, -1)
    casino = state.casino(number)
    placed = casino.dice + (PlacedDie(state.current, number, big, state.turn),)
    state = replace(
        state,
        supplies=replace_at(state.supplies, state.current, held),
        casinos=replace_at(state.casinos, number - 1, replace(casino, dice=placed)),
    )
    return with_tile(state, replace(tile, holder=None, spaces=())), number
