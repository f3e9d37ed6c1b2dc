"""Every Royale tile's rules in one row: how it starts, what placing dice beside it does,
the decision it asks for, the choices open then, and what it pays at round end."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from companion.errors import IllegalMove
from companion.events import TileDecision
from companion.state import GameState, Pending, Phase, Tile
from companion.steps import expect_phase
from companion.tile_codes import TileCode
from companion.tiles import activation, decisions, endgame, moves, options
from companion.tiles.board import closed_casino
from companion.tiles.catalog import (
    BLOCK_IT_CLUSTERS,
    HANDICAP_SPACES,
    JACKPOT_START,
    TILE_NAMES,
    TileEffect,
)

Activate = Callable[[GameState, Tile, int], GameState]
"""What placing dice beside the tile does: (state, tile, seat of the placing player)."""

Decide = Callable[[GameState, Tile, Pending, TileDecision], GameState]
"""Apply a decision at the tile; the state given no longer waits for it."""

Choices = Callable[[GameState, Pending], list[TileDecision]]
"""Every decision open at the tile while it waits."""

Pay = Callable[[GameState, Tile], tuple[GameState, list[TileEffect]]]
"""The tile's rewards after the casinos paid out, with a line for each."""


@dataclass(frozen=True, slots=True)
class TileRules:
    """One tile face: its setup, its effect when dice are placed beside it, its decision, its payout.

    `round_end_ask` names what the winner of the tile's casino is asked at round end (Prime
    Time, Black Box), and `record_key` where a game record keeps that decision.
    """

    activate: Activate = activation.nothing
    decide: Decide | None = None
    choices: Choices | None = None
    pay: Pay | None = None
    level: int = 0
    spaces: tuple[int, ...] = ()
    round_end_ask: str = ""
    record_key: str = ""


def _my_choice(state: GameState, tile: Tile, pending: Pending, event: TileDecision) -> GameState:
    """My Choice: the throw is lost only when neither face can be used; face 4 activates a tile."""
    if event.get("use") == 0:
        waiting = replace(state, phase=Phase.TILE, pending=pending)
        usable = [
            o
            for o in options.my_choice_choices(waiting, pending)
            if o.get("use") != 0 and _allowed(waiting, o)
        ]
        if usable:
            raise IllegalMove("My Choice", f"a face can be used: {len(usable)} ways are open")
        return state
    return moves.my_choice(state, tile, pending, event, activate)


TILES: dict[TileCode, TileRules] = {
    TileCode.LUCKY_PUNCH: TileRules(
        activate=activation.ask("guess"),
        decide=decisions.lucky_punch,
        choices=options.lucky_punch_choices,
    ),
    TileCode.JACKPOT: TileRules(
        activate=activation.ask("extra dice"),
        decide=decisions.jackpot,
        choices=options.throw_choices,
        level=JACKPOT_START,
    ),
    TileCode.PRIME_TIME: TileRules(
        decide=decisions.prime_time,
        choices=options.throw_choices,
        round_end_ask="extra dice",
        record_key="prime_time",
    ),
    TileCode.FIFTY_FIFTY: TileRules(
        activate=activation.ask("extra dice"),
        decide=decisions.fifty_fifty,
        choices=options.fifty_fifty_choices,
    ),
    TileCode.HIGH_FIVE: TileRules(activate=activation.high_five, pay=endgame.high_five),
    TileCode.BAD_LUCK: TileRules(),  # fines at payout: `endgame.before_payout` sees who
    TileCode.PAY_DAY: TileRules(activate=activation.pay_day),
    TileCode.POWER_PLAY: TileRules(activate=activation.take_power_play),
    TileCode.NO_ENTRY: TileRules(
        activate=activation.ask("casino to close"),
        decide=decisions.no_entry,
        choices=options.no_entry_choices,
    ),
    TileCode.KNOCKOUT: TileRules(
        activate=activation.knock_out,
        decide=decisions.knockout_bar,
        choices=options.knockout_choices,
    ),
    TileCode.BLOCK_IT: TileRules(
        activate=activation.block_it,
        decide=decisions.block_it,
        choices=options.block_it_choices,
        spaces=BLOCK_IT_CLUSTERS,
    ),
    TileCode.HANDICAP: TileRules(
        activate=activation.handicap,
        decide=moves.handicap,
        choices=options.handicap_choices,
        spaces=tuple(HANDICAP_SPACES.values()),
    ),
    TileCode.BLACK_BOX: TileRules(
        decide=decisions.black_box,
        choices=options.pile_choices,
        pay=endgame.black_box,
        round_end_ask="chosen pile",
        record_key="black_box",
    ),
    TileCode.DOUBLE_DOWN: TileRules(
        activate=activation.double_down,
        decide=decisions.double_down,
        choices=options.double_down_choices,
        pay=endgame.double_down,
    ),
    TileCode.NICE_DICE: TileRules(
        activate=activation.ask("die for the tile"),
        decide=moves.nice_dice,
        choices=options.nice_dice_choices,
        pay=endgame.nice_dice,
    ),
    TileCode.MY_CHOICE: TileRules(
        activate=activation.ask("extra dice"),
        decide=_my_choice,
        choices=options.my_choice_choices,
        pay=endgame.my_choice,
    ),
}
"""Each tile face's rules by its code."""


def setup_tiles(state: GameState, codes: tuple[str, ...]) -> tuple[Tile, ...]:
    """Check the tiles dealt this round and lay them beside casinos 1, 2, 3 ..."""
    wanted = state.rules.tiles
    if len(codes) != wanted:
        raise IllegalMove(
            "tiles",
            f"{wanted} tiles lie out each round, got {len(codes)}",
            why={"key": "tiles_count", "wanted": wanted, "got": len(codes)},
        )
    for code in codes:
        if code not in TILE_NAMES:
            raise IllegalMove(
                "tiles", f"there is no tile {code!r}; tiles are {', '.join(TILE_NAMES)}"
            )
    faces = [TileCode(code) for code in codes]
    letters = [face.letter for face in faces]
    if len(set(letters)) != len(letters):
        raise IllegalMove(
            "tiles",
            f"{codes}: the two faces of one tile cannot both lie out",
            why={"key": "tiles_faces"},
        )
    return tuple(
        Tile(face, casino, level=TILES[face].level, spaces=TILES[face].spaces)
        for casino, face in enumerate(faces, start=1)
    )


def activate(state: GameState, casino: int, seat: int) -> GameState:
    """The effect of placing dice in a casino with a tile (maybe waiting for a decision)."""
    tile = state.tile_at(casino)
    if tile is None or casino == closed_casino(state):
        return state
    return TILES[tile.code].activate(state, tile, seat)


def decide(state: GameState, event: TileDecision) -> GameState:
    """Apply a tile decision; the game goes on with the next turn afterwards."""
    expect_phase(state, Phase.TILE, event)
    pending = state.pending
    assert pending is not None
    if event.casino != pending.casino:
        raise IllegalMove(
            "tile decision",
            f"the game waits for {pending.code.label} at casino {pending.casino}, "
            f"not casino {event.casino}",
        )
    tile = state.tile_at(pending.casino)
    assert tile is not None
    rules = TILES[pending.code].decide
    assert rules is not None, f"{pending.code.label} asks for no decision"
    return rules(replace(state, pending=None, phase=Phase.CHOOSE), tile, pending, event)


def all_decisions(state: GameState) -> list[TileDecision]:
    """Every decision open at the pending tile, before the closed casino filters them."""
    pending = state.pending
    if pending is None:
        return []
    if pending.ask == "extra dice":
        return options.throw_choices(state, pending)
    choices = TILES[pending.code].choices
    assert choices is not None, f"{pending.code.label} asks for no decision"
    return choices(state, pending)


def decision_choices(state: GameState) -> list[TileDecision]:
    """Every decision a player may make at the pending tile (chance outcomes excluded).

    Options that No Entry's closed casino forbids are left out.
    """
    found = all_decisions(state)
    if closed_casino(state) is None:
        return found
    allowed = [o for o in found if o.get("use") != 0 and _allowed(state, o)]
    if not allowed and state.pending is not None and state.pending.code is TileCode.MY_CHOICE:
        return [TileDecision(state.pending.casino, (("use", 0),))]
    return allowed


def _allowed(state: GameState, decision: TileDecision) -> bool:
    try:
        decide(state, decision)
    except IllegalMove:
        return False
    return True


def round_end(state: GameState) -> GameState:
    """Tiles acting at round end, each once: every Prime Time, then every Black Box.

    The winner of the tile's casino (after ties) throws Prime Time's extra dice, or
    chooses one of the two Black Box piles. Prime Time acts 'before payout' and Black
    Box 'during payout', so Prime Time's extra dice can change who wins a Black Box
    casino. A tile is marked done (level 1) once decided.
    """
    for tile in sorted(state.tiles, key=lambda t: (t.code is not TileCode.PRIME_TIME, t.casino)):
        ask = TILES[tile.code].round_end_ask
        if ask and tile.level == 0:
            winner = endgame.casino_winner(state, tile.casino)
            if winner is not None:
                return replace(
                    state, phase=Phase.TILE, pending=Pending(tile.casino, tile.code, winner, ask)
                )
    return state


def after_payout(
    state: GameState, fined: tuple[tuple[int, int], ...]
) -> tuple[GameState, tuple[TileEffect, ...]]:
    """Tile rewards at round end, then Bad Luck's fines, with a line for each."""
    effects: list[TileEffect] = []
    for tile in state.tiles:
        pay = TILES[tile.code].pay
        if pay is not None:
            state, paid = pay(state, tile)
            effects += paid
    state, fines = endgame.bad_luck_fines(state, fined)
    return state, tuple(effects + fines)
