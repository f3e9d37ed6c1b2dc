"""The decisions open at each tile while it waits, before the closed casino filters them."""

from __future__ import annotations

from companion.dice import DieKind
from companion.events import TileDecision
from companion.state import GREY, GameState, Pending
from companion.tile_codes import TileCode
from companion.tiles.activation import (
    knockout_choosers,
)
from companion.tiles.board import no_entry_reward
from companion.tiles.catalog import (
    BETS,
    LUCKY_PUNCH_REWARDS,
)

THROWS = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
"""Every throw of the two black extra dice, order aside (21 of them)."""


def throw_choices(state: GameState, pending: Pending) -> list[TileDecision]:
    """Every outcome of the extra dice, to be entered as thrown at the table.

    Prime Time's winner also says which of the two dice they place (none, one or both).
    """
    if pending.code is not TileCode.PRIME_TIME:
        return [TileDecision(pending.casino, (("dice", d),)) for d in THROWS]
    options = []
    for a, b in THROWS:
        placed = sorted({(), (a,), (b,), (a, b)})
        options += [TileDecision(pending.casino, (("dice", (a, b)), ("place", p))) for p in placed]
    return options


def pile_choices(state: GameState, pending: Pending) -> list[TileDecision]:
    """Every pile of Black Box tokens the winner may turn up (1-5 of the six tokens)."""
    tokens = state.rules.black_box_tokens
    piles: set[tuple[int, ...]] = set()
    for mask in range(1, (1 << len(tokens)) - 1):
        piles.add(tuple(sorted((t for i, t in enumerate(tokens) if mask >> i & 1), reverse=True)))
    return [
        TileDecision(pending.casino, (("pile", p),))
        for p in sorted(piles, key=lambda p: (-sum(p), p))
    ]


def knockout_choices(state: GameState, pending: Pending) -> list[TileDecision]:
    """Every set of opponents who may put their Biggy in the bar instead of a die."""
    tile = state.tile_at(pending.casino)
    assert tile is not None
    choosers = knockout_choosers(state, tile, pending.seat)
    subsets = [
        tuple(s for i, s in enumerate(choosers) if mask >> i & 1)
        for mask in range(1 << len(choosers))
    ]
    return [TileDecision(pending.casino, (("biggy_from", s),)) for s in subsets]


def block_it_choices(state: GameState, pending: Pending) -> list[TileDecision]:
    """Every cluster left on the tile, to any casino."""
    tile = state.tile_at(pending.casino)
    assert tile is not None
    return [
        TileDecision(pending.casino, (("casino", c), ("cluster", size)))
        for size in sorted(set(tile.spaces))
        for c in range(1, 7)
    ]


def no_entry_choices(state: GameState, pending: Pending) -> list[TileDecision]:
    """Close another casino (taking the next space's reward), or leave the token where it lies."""
    tile = state.tile_at(pending.casino)
    assert tile is not None
    keep = [(("close", False),)] if tile.holder is not None else []
    money, chips = no_entry_reward(state, tile)
    closes = [
        (("chips", chips),) * bool(chips) + (("close", c),) + (("money", money),) * bool(money)
        for c in range(1, 7)
        if c not in (pending.casino, tile.holder)
    ]
    return [TileDecision(pending.casino, o) for o in keep + closes]


def fifty_fifty_choices(state: GameState, pending: Pending) -> list[TileDecision]:
    """Take the reward under the counter, or bet on the next throw while spaces are left."""
    track = state.rules.fifty_fifty_track
    bets = [(("bet", bet),) for bet in BETS] if pending.context[0] < len(track) else []
    return [TileDecision(pending.casino, o) for o in [(("take", True),), *bets]]


def lucky_punch_choices(state: GameState, pending: Pending) -> list[TileDecision]:
    """The guess was right, or it was wrong and the player takes one of the rewards."""
    options: list[tuple[tuple[str, object], ...]] = [(("guessed", True),)]
    options += [(("guessed", False), ("reward", r)) for r in LUCKY_PUNCH_REWARDS]
    return [TileDecision(pending.casino, o) for o in options]


def double_down_choices(state: GameState, pending: Pending) -> list[TileDecision]:
    """Any number of the player's dice at the casino, with or without their Biggy."""
    own = [d for d in state.casino(pending.casino).dice if d.owner == pending.seat]
    regular = sum(1 for d in own if not d.big)
    bigs = (False, True) if any(d.big for d in own) else (False,)
    return [
        TileDecision(pending.casino, ((DieKind.BIGGY.value, b), (DieKind.REGULAR.value, n)))
        for n in range(regular + 1)
        for b in bigs
    ]


def nice_dice_choices(state: GameState, pending: Pending) -> list[TileDecision]:
    seat, number = pending.seat, pending.casino
    options: list[tuple[tuple[str, object], ...]] = [(("from", False),)]
    placed = {d.big for d in state.casino(number).dice if d.owner == seat and d.turn == state.turn}
    options += [(("big", big), ("from", "casino")) for big in sorted(placed)]
    roll = state.pending_roll
    if roll is not None:
        for big, values in ((False, roll.regular), (True, roll.biggy)):
            options += [
                (("big", big), ("from", "roll"), ("value", v))
                for v in sorted(set(values))
                if v != number
            ]
    return [TileDecision(number, o) for o in options]


def rotate_or_return_options(state: GameState, seat: int) -> list[tuple[tuple[str, object], ...]]:
    """Turn a die in hand to any number, or take back one of your dice from a casino.

    Keys are in sorted order so that the options equal decisions read from records.
    """
    held = state.supplies[seat]
    rotate: list[tuple[tuple[str, object], ...]] = [
        (("big", big), ("number", n), ("reward", "rotate"))
        for big in (False, True)
        if held.holds(big)
        for n in range(1, 7)
    ]
    placed = {
        (c.number, d.big) for c in state.casinos for d in c.dice if d.owner == seat and not d.extra
    }
    back = [
        (("big", big), ("from", number), ("reward", "return")) for number, big in sorted(placed)
    ]
    return rotate + back


def my_choice_choices(state: GameState, pending: Pending) -> list[TileDecision]:
    seat = pending.seat
    held = state.supplies[seat]
    kinds = [big for big in (False, True) if held.holds(big)]
    options: list[tuple[tuple[str, object], ...]] = []
    for face in sorted(set(pending.context)):
        if face in (1, 2, 3):
            options.append((("use", face),))
        elif face == 4:
            options += [
                (("tile", t.casino), ("use", 4)) for t in state.tiles if t.casino != pending.casino
            ]
        elif face == 5:
            options += [o + (("use", 5),) for o in rotate_or_return_options(state, seat)]
        else:
            options += [(("big", big), ("use", 6)) for big in kinds]
    if not options:  # nothing either face allows can be done: the throw is lost
        options = [(("use", 0),)]
    return [TileDecision(pending.casino, o) for o in options]


def handicap_choices(state: GameState, pending: Pending) -> list[TileDecision]:
    tile = state.tile_at(pending.casino)
    assert tile is not None
    seat = pending.seat
    sources = sorted({c.number for c in state.casinos if any(d.owner == GREY for d in c.dice)})
    options: list[tuple[tuple[str, object], ...]] = [(("take", False),)]
    for source in sources:
        if tile.spaces[0]:
            options.append((("reward", "chip"), ("take", source)))
        if tile.spaces[1]:
            options.append((("reward", "money"), ("take", source)))
        if tile.spaces[2]:
            options += [o + (("take", source),) for o in rotate_or_return_options(state, seat)]
    return [TileDecision(pending.casino, o) for o in options]
