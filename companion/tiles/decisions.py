"""What each tile's decision does: one function a tile, applied through `table.TILES`."""

from __future__ import annotations

from dataclasses import replace

from companion.dice import DieKind
from companion.errors import IllegalMove
from companion.events import TileDecision
from companion.state import GREY, GameState, Pending, Phase, PlacedDie, Tile
from companion.steps import replace_at
from companion.tiles.activation import knockout, knockout_choosers
from companion.tiles.board import check_open, gain, no_entry_reward, thrown_dice, with_tile
from companion.tiles.catalog import (
    BETS,
    JACKPOT_MAX,
    JACKPOT_START,
    JACKPOT_STEP,
    JACKPOT_SUM,
    LUCKY_PUNCH_REWARDS,
)


def jackpot(state: GameState, tile: Tile, pending: Pending, event: TileDecision) -> GameState:
    """Jackpot: a pair or a 7 on the extra dice wins the pot; otherwise the pot grows."""
    dice = thrown_dice(event, "Jackpot")
    if sum(dice) == JACKPOT_SUM or dice[0] == dice[1]:
        state = gain(state, pending.seat, money=tile.level)
        return with_tile(state, replace(tile, level=JACKPOT_START))
    return with_tile(state, replace(tile, level=min(tile.level + JACKPOT_STEP, JACKPOT_MAX)))


def lucky_punch(state: GameState, tile: Tile, pending: Pending, event: TileDecision) -> GameState:
    """Lucky Punch: a wrong guess earns the player the reward they choose."""
    guessed = event.get("guessed")
    if not isinstance(guessed, bool):
        raise IllegalMove(
            "Lucky Punch", f"say whether the guess was right (true/false), got {guessed!r}"
        )
    if guessed:
        return state
    reward = event.get("reward")
    if reward not in LUCKY_PUNCH_REWARDS:
        raise IllegalMove("Lucky Punch", f"the reward is 'chips', 30000 or 40000, got {reward!r}")
    if reward == "chips":
        return gain(state, pending.seat, chips=2)
    return gain(state, pending.seat, money=reward)


def knockout_bar(state: GameState, tile: Tile, pending: Pending, event: TileDecision) -> GameState:
    """Knockout: the opponents who chose it put their Biggy in the bar instead of a die."""
    biggies = event.get("biggy_from", ())
    choosers = knockout_choosers(state, tile, pending.seat)
    if not isinstance(biggies, tuple) or not set(biggies) <= set(choosers):
        names = [state.players[s] for s in choosers]
        raise IllegalMove(
            "Knockout",
            f"biggy_from lists the seats putting their Biggy in the bar, from {choosers} "
            f"({', '.join(names)}), got {biggies!r}",
        )
    return knockout(state, tile, pending.seat, biggies)


def block_it(state: GameState, tile: Tile, pending: Pending, event: TileDecision) -> GameState:
    """Block It: a cluster of grey dice from the tile goes to a casino."""
    size, target = event.get("cluster"), event.get("casino")
    if size not in tile.spaces:
        raise IllegalMove(
            "Block It", f"clusters left hold {sorted(set(tile.spaces))} dice, got {size!r}"
        )
    if not isinstance(target, int) or not 1 <= target <= 6:
        raise IllegalMove("Block It", f"the grey dice go to a casino 1-6, got {target!r}")
    check_open(state, target, "Block It")
    spaces = list(tile.spaces)
    spaces.remove(size)
    casino = state.casino(target)
    grey = (PlacedDie(GREY, target, False, state.turn),) * size
    state = replace(
        state,
        casinos=replace_at(state.casinos, target - 1, replace(casino, dice=casino.dice + grey)),
    )
    return with_tile(state, replace(tile, spaces=tuple(spaces)))


def double_down(state: GameState, tile: Tile, pending: Pending, event: TileDecision) -> GameState:
    """Double Down: move some of the player's dice (and maybe their Biggy) onto the tile."""
    seat = pending.seat
    regular, big = event.get(DieKind.REGULAR, 0), bool(event.get(DieKind.BIGGY, False))
    casino = state.casino(pending.casino)
    own = [d for d in casino.dice if d.owner == seat]
    held_regular = sum(1 for d in own if not d.big)
    if (
        not isinstance(regular, int)
        or not 0 <= regular <= held_regular
        or (big and not any(d.big for d in own))
    ):
        raise IllegalMove(
            "Double Down",
            f"{state.players[seat]} has {held_regular} dice and "
            f"{'a' if any(d.big for d in own) else 'no'} Biggy here; asked to move {regular} and "
            f"{'the' if big else 'no'} Biggy",
        )
    moving: list[PlacedDie] = []
    kept: list[PlacedDie] = []
    for die in casino.dice:
        if die.owner == seat and (
            die.big and big or not die.big and len([m for m in moving if not m.big]) < regular
        ):
            moving.append(die)
        else:
            kept.append(die)
    state = replace(
        state,
        casinos=replace_at(state.casinos, pending.casino - 1, replace(casino, dice=tuple(kept))),
    )
    return with_tile(state, replace(tile, dice=tile.dice + tuple(moving)))


def prime_time(state: GameState, tile: Tile, pending: Pending, event: TileDecision) -> GameState:
    """Prime Time: the casino's winner places none, one or both of the extra dice."""
    dice, chosen = thrown_dice(event, "Prime Time"), event.get("place", ())
    left = list(dice)
    for value in chosen if isinstance(chosen, tuple) else (chosen,):
        if value not in left:
            raise IllegalMove(
                "Prime Time", f"'place' lists dice from the throw {list(dice)}, got {chosen!r}"
            )
        left.remove(value)
    for value in chosen:
        check_open(state, value, "Prime Time")
    casinos = list(state.casinos)
    for value in chosen:
        casino = casinos[value - 1]
        extra = PlacedDie(pending.seat, value, False, state.turn, extra=True)
        casinos[value - 1] = replace(casino, dice=casino.dice + (extra,))
    state = replace(state, casinos=tuple(casinos), phase=Phase.PAYOUT)
    return with_tile(state, replace(tile, level=1))


def black_box(state: GameState, tile: Tile, pending: Pending, event: TileDecision) -> GameState:
    """The winner turns up the pile they chose (the neighbour split the tokens 3+3, 4+2, 5+1).

    The tokens lie on the tile until the payout, which pays them (`endgame.after_payout`).
    """
    pile = event.get("pile")
    tokens = state.rules.black_box_tokens
    left = list(tokens)
    if not isinstance(pile, tuple) or not 1 <= len(pile) <= len(left) - 1:
        raise IllegalMove("Black Box", f"the chosen pile holds 1-5 of the 6 tokens, got {pile!r}")
    for token in pile:
        if token not in left:
            raise IllegalMove(
                "Black Box",
                f"tokens are {list(tokens)} (0 = empty), the pile {list(pile)} is not among them",
            )
        left.remove(token)
    chosen = replace(tile, level=1, holder=pending.seat, spaces=tuple(pile))
    return replace(with_tile(state, chosen), phase=Phase.PAYOUT)


def no_entry(state: GameState, tile: Tile, pending: Pending, event: TileDecision) -> GameState:
    """Move the token to close a casino, advance the counter and take the new space's reward.

    The track is the `no_entry` setting. A decision may state the reward it took
    ('money', 'chips'); it must be the one on the space. Leaving the token where it
    lies (allowed after the first time) moves nothing and earns nothing.
    """
    target = event.get("close")
    if target in (None, False):
        if tile.holder is None:
            raise IllegalMove("No Entry", "the first activation must close a casino")
        return state
    if not isinstance(target, int) or not 1 <= target <= 6 or target == tile.casino:
        raise IllegalMove(
            "No Entry", f"close any casino 1-6 but the tile's own ({tile.casino}), got {target!r}"
        )
    if target == tile.holder:
        raise IllegalMove(
            "No Entry", f"the token already closes casino {target}: moving it means another casino"
        )
    money, chips = no_entry_reward(state, tile)
    said = (event.get("money", money), event.get("chips", chips))
    if said != (money, chips):
        raise IllegalMove(
            "No Entry",
            f"the counter's next space shows money {money}, chips {chips}; "
            f"got money {said[0]!r}, chips {said[1]!r}",
        )
    state = gain(state, pending.seat, money=money, chips=chips)
    return with_tile(state, replace(tile, holder=target, level=tile.level + 1))


def fifty_fifty(state: GameState, tile: Tile, pending: Pending, event: TileDecision) -> GameState:
    """Throw, then take the reward under the counter or bet higher/lower on the next throw.

    The pending context holds (throws so far, last sum, bet): bet 0 before a throw
    decides, 1 for higher, 2 for lower. A tie with the last sum loses the bet.
    """
    steps, last, bet = pending.context or (0, 0, 0)
    if pending.ask == "extra dice":
        dice = thrown_dice(event, "Fifty Fifty")
        total = sum(dice)
        won = bet == 0 or (total > last if bet == BETS["higher"] else total < last)
        if not won:
            return state  # the bet is lost: the turn ends with nothing, the counter goes back
        ask = replace(pending, ask="take or bet", context=(steps + 1, total, 0))
        return replace(state, phase=Phase.TILE, pending=ask)
    track = state.rules.fifty_fifty_track
    if event.get("take") is True or steps >= len(track):
        return gain(state, pending.seat, money=track[steps - 1])
    choice = event.get("bet")
    if choice not in BETS:
        raise IllegalMove(
            "Fifty Fifty",
            f"take the reward (take: true) or bet 'higher' or 'lower', got {choice!r}",
        )
    ask = replace(pending, ask="extra dice", context=(steps, last, BETS[choice]))
    return replace(state, phase=Phase.TILE, pending=ask)
