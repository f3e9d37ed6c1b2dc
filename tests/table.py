"""Helpers to set up a table by hand in tests: casinos with dice and notes, scripted turns."""

from __future__ import annotations

from dataclasses import replace

from companion.engine import apply
from companion.events import DealRound, Event, Place, Roll, TableDie
from companion.rules import make_rules
from companion.state import WHITE, Casino, GameState, PlacedDie, new_game
from companion.table_check import CasinoCheck, SeenCasino, UnsureDie, check_table

PLAIN_DEAL = DealRound(((60_000,), (50_000,), (70_000,), (80_000,), (90_000,), (50_000,)))


def casino(number: int, notes: tuple[int, ...], **dice_by_owner: int) -> Casino:
    """A casino with `owner=count` dice; owners are seat numbers as 'p0'.. or 'white'."""
    dice = []
    for key, count in dice_by_owner.items():
        owner = WHITE if key == "white" else int(key[1:])
        dice += [PlacedDie(owner, number, False, 1)] * count
    return Casino(number, notes, tuple(dice))


def play(state: GameState, *events: Event) -> GameState:
    """Apply events one after another."""
    for event in events:
        state = apply(state, event)
    return state


def started(players: list[str], deal: DealRound = PLAIN_DEAL, **options) -> GameState:
    """A classic game with the given options, dealt and waiting for the first roll."""
    state = new_game(make_rules("classic", options), players)
    return apply(state, deal)


def turn(state: GameState, regular: tuple[int, ...], number: int, **kinds) -> GameState:
    """One roll and one placement."""
    state = apply(state, Roll(regular, **kinds))
    return apply(state, Place(number))


def with_casinos(state: GameState, *casinos: Casino) -> GameState:
    """The state with some casinos replaced (for payout checks)."""
    replaced = list(state.casinos)
    for c in casinos:
        replaced[c.number - 1] = c
    return replace(state, casinos=tuple(replaced))


ROYALE_PAIRS = (
    (40_000, 30_000),
    (50_000, 30_000),
    (60_000, 40_000),
    (70_000, 30_000),
    (60_000, 50_000),
    (90_000, 80_000),
)
"""Two money cards at each casino, for Royale tests."""


def royale_main_game(tiles, players=("Anna", "Ben", "Carla"), **options) -> GameState:
    """A dealt Royale main game with the given tiles beside casinos 1, 2, 3 ... and settings."""
    rules = make_rules("royale", {"tiles": len(tiles)} | options)
    return apply(new_game(rules, list(players)), DealRound(ROYALE_PAIRS, tiles=tuple(tiles)))


def casino_four_in_doubt() -> CasinoCheck:
    """Casino 4 checked where its payout change hangs on a die not read for sure: Ben and
    Carla tie at 5, the table shows Anna a die more than the game, and a pale die lies there
    in doubt (no die or Anna's changes nothing, Ben's or Carla's breaks the tie)."""
    state = with_casinos(
        started(["Anna", "Ben", "Carla"], PLAIN_DEAL), casino(4, (60_000,), p0=1, p1=5, p2=5)
    )
    table = (TableDie(0), TableDie(0), *[TableDie(1)] * 5, *[TableDie(2)] * 5)
    seen = [
        SeenCasino(c.number, tuple(TableDie(d.owner, d.big) for d in c.dice)) for c in state.casinos
    ]
    seen[3] = SeenCasino(4, table, 1, (), (UnsureDie(),))
    return check_table(state, seen, {0: "red", 1: "blue", 2: "green", WHITE: "white"}).casinos[3]


def slot_machine_in_doubt_by_value() -> CasinoCheck:
    """The slot machine checked where its payout change hangs on the value of a die in doubt
    for its pips alone: Anna's 5 and Ben's 6 and 2 read for sure, Anna's 4 in doubt among 1, 3,
    4 and 6 (4 or 6 pays Anna as the game does, 1 or 3 pays Ben)."""
    dice = ((0, 5), (0, 4), (1, 6), (1, 2))
    slot = Casino(7, (60_000,), tuple(PlacedDie(o, v, False, 1) for o, v in dice))
    deal = DealRound((*PLAIN_DEAL.casinos, (60_000,)))
    state = with_casinos(started(["Anna", "Ben"], deal, slot_machine=True), slot)
    seen = [
        SeenCasino(c.number, tuple(TableDie(d.owner, d.big) for d in c.dice)) for c in state.casinos
    ]
    shown = (TableDie(0, value=5), TableDie(1, value=6), TableDie(1, value=2))
    seen[6] = SeenCasino(7, shown, 1, (), (UnsureDie(0, values=(1, 3, 4, 6)),))
    return check_table(state, seen, {0: "red", 1: "blue", WHITE: "white"}).casinos[6]
