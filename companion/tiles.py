"""Las Vegas Royale's casino tiles: setup, activation, decisions and payout effects.

Tiles lie beside casinos 1 to k (k = the `tiles` option, 3 in the main game).
Placing dice in such a casino activates its tile. A tile whose outcome the
companion cannot see (extra dice, a hidden guess, a player's choice) puts the
game in the TILE phase until a TileDecision brings the outcome.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.errors import IllegalMove
from companion.events import PowerPlay, TileDecision
from companion.payout import rank_casino
from companion.state import GREY, GameState, Pending, Phase, PlacedDie, Tile
from companion.steps import expect_phase, replace_at

TILE_NAMES = {
    "A1": "Lucky Punch",
    "A2": "Jackpot",
    "B1": "Prime Time",
    "B2": "Fifty Fifty",
    "C1": "High Five",
    "C2": "Bad Luck",
    "D1": "Pay Day",
    "D2": "Power Play",
    "E1": "No Entry",
    "E2": "Knockout",
    "F1": "Block It",
    "F2": "Handicap",
    "G1": "Black Box",
    "G2": "Double Down",
    "H1": "Nice Dice",
    "H2": "My Choice",
}

JACKPOT_START, JACKPOT_STEP, JACKPOT_MAX = 30_000, 10_000, 80_000
LUCKY_PUNCH_REWARDS = ("chips", 30_000, 40_000)
HIGH_FIVE_REWARD = 100_000
BAD_LUCK_FINE = 50_000
DOUBLE_DOWN_NOTES = (60_000, 30_000)
KNOCKOUT_BAR = 2
BLOCK_IT_CLUSTERS = (1, 1, 2, 2, 3)
NICE_DICE_REWARDS = {
    1: (0, 1),
    2: (0, 2),
    3: (30_000, 0),
    4: (40_000, 0),
    5: (50_000, 0),
    6: (60_000, 0),
}
"""(money, chips) for a die on each Nice Dice space: 1 or 2 chips, then $30,000 to $60,000."""
MY_CHOICE_ACTIONS = {
    1: "1 chip",
    2: "2 chips",
    3: "$30,000",
    4: "activate a tile",
    5: "rotate or return",
    6: "gold space",
}
"""What each face of My Choice's extra dice does, in the order the rules list them."""
GOLD_SPACE = 60_000
FIFTY_FIFTY_TRACK = (0, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000)
"""Fifty Fifty's reward under the counter after the 1st, 2nd ... throw ($0 to $60,000)."""
BETS = {"higher": 1, "lower": 2}
BLACK_BOX_TOKENS = (60_000, 20_000, 20_000, 0, 0, 0)
"""The six Black Box tokens (0 = an empty token), as the rulings set them."""
HANDICAP_SPACES = {"chip": 2, "money": 3, "option": 4}
HANDICAP_SETUP = (1, 1, 1, 2, 2, 2)
"""Grey dice laid in casinos 1-6 when Handicap is out."""


@dataclass(frozen=True, slots=True)
class TileEffect:
    """One line of a round's tile effects: who gained or paid what, and why."""

    casino: int
    code: str
    owner: int
    money: int = 0
    chips: int = 0
    reason: str = ""


def tile_name(code: str) -> str:
    """'A2' -> 'Jackpot'."""
    return TILE_NAMES[code]


def setup_tiles(state: GameState, codes: tuple[str, ...]) -> tuple[Tile, ...]:
    """Check the tiles dealt this round and lay them beside casinos 1, 2, 3 ..."""
    wanted = state.rules.tiles
    if len(codes) != wanted:
        raise IllegalMove("tiles", f"{wanted} tiles lie out each round, got {len(codes)}")
    for code in codes:
        if code not in TILE_NAMES:
            raise IllegalMove(
                "tiles", f"there is no tile {code!r}; tiles are {', '.join(TILE_NAMES)}"
            )
    sides = [code[0] for code in codes]
    if len(set(sides)) != len(sides):
        raise IllegalMove("tiles", f"{codes}: the two faces of one tile cannot both lie out")
    return tuple(
        Tile(
            code,
            casino,
            level=JACKPOT_START if code == "A2" else 0,
            spaces=BLOCK_IT_CLUSTERS
            if code == "F1"
            else tuple(HANDICAP_SPACES.values())
            if code == "F2"
            else (),
        )
        for casino, code in enumerate(codes, start=1)
    )


def closed_casino(state: GameState) -> int | None:
    """The casino the No Entry token closes, if it lies out."""
    return next((t.holder for t in state.tiles if t.code == "E1" and t.holder), None)


def check_open(state: GameState, casino: int, what: str) -> None:
    """Refuse adding or removing dice at the casino No Entry closed."""
    if casino == closed_casino(state):
        raise IllegalMove(what, f"casino {casino} is closed by No Entry: no dice go in or out")


def _with_tile(state: GameState, tile: Tile) -> GameState:
    return replace(state, tiles=tuple(tile if t.casino == tile.casino else t for t in state.tiles))


def _gain(state: GameState, seat: int, money: int = 0, chips: int = 0) -> GameState:
    return replace(
        state,
        bank=replace_at(state.bank, seat, state.bank[seat] + money),
        skip_tokens=replace_at(state.skip_tokens, seat, state.skip_tokens[seat] + chips),
    )


def activate(state: GameState, casino: int, seat: int) -> GameState:
    """The effect of placing dice in a casino with a tile (maybe waiting for a decision)."""
    tile = state.tile_at(casino)
    if tile is None or casino == closed_casino(state):
        return state
    code = tile.code
    if code == "E1":
        return replace(
            state, phase=Phase.TILE, pending=Pending(casino, code, seat, "casino to close")
        )
    if code in ("A1", "A2", "G2"):
        ask = {"A1": "guess", "A2": "extra dice", "G2": "dice to move"}[code]
        if code == "G2" and not any(d.owner == seat for d in state.casino(casino).dice):
            return state
        return replace(state, phase=Phase.TILE, pending=Pending(casino, code, seat, ask))
    if code == "E2":
        return _knockout(state, tile, seat)
    if code == "H1":
        return replace(
            state, phase=Phase.TILE, pending=Pending(casino, code, seat, "die for the tile")
        )
    if code == "B2":
        return replace(state, phase=Phase.TILE, pending=Pending(casino, code, seat, "extra dice"))
    if code == "H2":
        return replace(state, phase=Phase.TILE, pending=Pending(casino, code, seat, "extra dice"))
    if code == "D2":
        if clear_leader(state, casino) == seat:
            return _with_tile(state, replace(tile, holder=seat))
        return state
    if code == "F1":
        if not tile.spaces:
            return state
        return replace(state, phase=Phase.TILE, pending=Pending(casino, code, seat, "cluster"))
    if code == "F2":
        has_grey = any(d.owner == GREY for c in state.casinos for d in c.dice)
        if not has_grey or not any(tile.spaces):
            return state
        return replace(state, phase=Phase.TILE, pending=Pending(casino, code, seat, "blank die"))
    if code == "C1":
        placed = state.casino(casino).counted().get(seat, 0)
        if tile.holder is None and placed >= 5:
            return _with_tile(state, replace(tile, holder=seat))
        return state
    if code == "D1":
        casinos = sum(1 for c in state.casinos if any(d.owner == seat for d in c.dice))
        amount = 10_000 * casinos
        if amount <= 20_000:
            return _gain(state, seat, chips=amount // 10_000)
        return _gain(state, seat, money=amount)
    return state  # tiles that act only at payout


def _knockout_choosers(state: GameState, tile: Tile, seat: int) -> list[int]:
    """Opponents who must put a die in the bar and hold both a regular die and their Biggy."""
    return [
        s
        for s in _knockout_victims(state, tile, seat)
        if state.supplies[s].regular and state.supplies[s].biggy
    ]


def _knockout_victims(state: GameState, tile: Tile, seat: int) -> list[int]:
    in_bar = {s: sum(1 for d in tile.dice if d.owner == s) for s in range(len(state.players))}
    return [
        s
        for s in range(len(state.players))
        if s != seat
        and in_bar[s] < KNOCKOUT_BAR
        and state.supplies[s].regular + state.supplies[s].biggy
    ]


def _knockout(
    state: GameState, tile: Tile, seat: int, biggies: tuple[int, ...] | None = None
) -> GameState:
    """Opponents put a die from their hand in the bar; the activating player's bar dice return.

    `biggies` names the opponents who chose their Biggy; None asks them first if any may choose.
    """
    if biggies is None and _knockout_choosers(state, tile, seat):
        return replace(
            state, phase=Phase.TILE, pending=Pending(tile.casino, "E2", seat, "dice for the bar")
        )
    supplies = list(state.supplies)
    bar = [d for d in tile.dice if d.owner != seat]
    back = [d for d in tile.dice if d.owner == seat]
    for victim in _knockout_victims(state, tile, seat):
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
    return _with_tile(state, replace(tile, dice=tuple(bar)))


ROUND_END_ASKS = {"B1": "extra dice", "G1": "chosen pile"}


def round_end(state: GameState) -> GameState:
    """Tiles acting before payout, in casino order, each once: Prime Time, Black Box.

    The winner of the tile's casino (after ties) throws Prime Time's extra dice, or
    chooses one of the two Black Box piles. A tile is marked done (level 1) once decided.
    """
    for tile in state.tiles:
        if tile.code in ROUND_END_ASKS and tile.level == 0:
            ranking = rank_casino(state.casino(tile.casino))[2]
            if ranking and ranking[0] >= 0:
                ask = ROUND_END_ASKS[tile.code]
                return replace(
                    state,
                    phase=Phase.TILE,
                    pending=Pending(tile.casino, tile.code, ranking[0], ask),
                )
    return state


def _black_box(state: GameState, tile: Tile, seat: int, event: TileDecision) -> GameState:
    """The winner gets the tokens of the pile they chose (the neighbour split them 3+3, 4+2, 5+1)."""
    pile = event.get("pile")
    left = list(BLACK_BOX_TOKENS)
    if not isinstance(pile, tuple) or not 1 <= len(pile) <= len(left) - 1:
        raise IllegalMove("Black Box", f"the chosen pile holds 1-5 of the 6 tokens, got {pile!r}")
    for token in pile:
        if token not in left:
            raise IllegalMove(
                "Black Box",
                f"tokens are {list(BLACK_BOX_TOKENS)} (0 = empty), the pile {list(pile)} is not among them",
            )
        left.remove(token)
    state = _gain(state, seat, money=sum(pile))
    return replace(_with_tile(state, replace(tile, level=1, holder=seat)), phase=Phase.PAYOUT)


def _prime_time(state: GameState, pending: Pending, event: TileDecision) -> GameState:
    dice, chosen = event.get("dice"), event.get("place", ())
    if not isinstance(dice, tuple) or len(dice) != 2 or not all(d in range(1, 7) for d in dice):
        raise IllegalMove("Prime Time", f"two extra dice showing 1-6 are thrown, got {dice!r}")
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
    tile = state.tile_at(pending.casino)
    assert tile is not None
    return _with_tile(state, replace(tile, level=1))


def clear_leader(state: GameState, casino: int) -> int | None:
    """The owner alone with the most counted dice at a casino, if there is one."""
    counted = sorted(state.casino(casino).counted().items(), key=lambda item: -item[1])
    if not counted or len(counted) > 1 and counted[0][1] == counted[1][1]:
        return None
    return counted[0][0]


def power_play_holder(state: GameState) -> Tile | None:
    """The Power Play tile when the player to move holds its token."""
    return next((t for t in state.tiles if t.code == "D2" and t.holder == state.current), None)


def return_power_play(state: GameState) -> GameState:
    """The Power Play token goes back to its tile whenever nobody has a clear majority there."""
    for tile in state.tiles:
        if (
            tile.code == "D2"
            and tile.holder is not None
            and clear_leader(state, tile.casino) is None
        ):
            state = _with_tile(state, replace(tile, holder=None))
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
    return _with_tile(state, replace(tile, holder=None)), number


def decide(state: GameState, event: TileDecision) -> GameState:
    """Apply a tile decision; the game goes on with the next turn afterwards."""
    expect_phase(state, Phase.TILE, event)
    pending = state.pending
    assert pending is not None
    if event.casino != pending.casino:
        raise IllegalMove(
            "tile decision",
            f"the game waits for {tile_name(pending.code)} at casino {pending.casino}, "
            f"not casino {event.casino}",
        )
    tile = state.tile_at(pending.casino)
    assert tile is not None
    seat = pending.seat
    waiting = state
    state = replace(state, pending=None, phase=Phase.CHOOSE)
    if pending.code == "B1":
        return _prime_time(state, pending, event)
    if pending.code == "G1":
        return _black_box(state, tile, seat, event)
    if pending.code == "A2":
        dice = event.get("dice")
        if not isinstance(dice, tuple) or len(dice) != 2 or not all(d in range(1, 7) for d in dice):
            raise IllegalMove("Jackpot", f"two extra dice showing 1-6 are thrown, got {dice!r}")
        if sum(dice) == 7 or dice[0] == dice[1]:
            state = _gain(state, seat, money=tile.level)
            return _with_tile(state, replace(tile, level=JACKPOT_START))
        return _with_tile(state, replace(tile, level=min(tile.level + JACKPOT_STEP, JACKPOT_MAX)))
    if pending.code == "A1":
        guessed = event.get("guessed")
        if not isinstance(guessed, bool):
            raise IllegalMove(
                "Lucky Punch", f"say whether the guess was right (true/false), got {guessed!r}"
            )
        if guessed:
            return state
        reward = event.get("reward")
        if reward not in LUCKY_PUNCH_REWARDS:
            raise IllegalMove(
                "Lucky Punch", f"the reward is 'chips', 30000 or 40000, got {reward!r}"
            )
        return (
            _gain(state, seat, chips=2) if reward == "chips" else _gain(state, seat, money=reward)
        )
    if pending.code == "E2":
        biggies = event.get("biggy_from", ())
        choosers = _knockout_choosers(state, tile, seat)
        if not isinstance(biggies, tuple) or not set(biggies) <= set(choosers):
            names = [state.players[s] for s in choosers]
            raise IllegalMove(
                "Knockout",
                f"biggy_from lists the seats putting their Biggy in the bar, from {choosers} "
                f"({', '.join(names)}), got {biggies!r}",
            )
        return _knockout(state, tile, seat, biggies)
    if pending.code == "F1":
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
        return _with_tile(state, replace(tile, spaces=tuple(spaces)))
    if pending.code == "F2":
        return _handicap(state, tile, seat, event)
    if pending.code == "H1":
        return _nice_dice(state, tile, seat, event)
    if pending.code == "B2":
        return _fifty_fifty(state, pending, event)
    if pending.code == "E1":
        return _no_entry(state, tile, seat, event)
    if pending.code == "H2":
        if event.get("use") == 0:  # the throw is lost only when no face can be used
            usable = [
                o
                for o in _my_choice_choices(waiting, pending)
                if o.get("use") != 0 and _allowed(waiting, o)
            ]
            if usable:
                raise IllegalMove("My Choice", f"a face can be used: {len(usable)} ways are open")
            return state
        return _my_choice(state, tile, pending, event)
    # G2 Double Down: move some of the player's dice from the casino onto the tile.
    regular, big = event.get("regular", 0), bool(event.get("biggy", False))
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
    return _with_tile(state, replace(tile, dice=tile.dice + tuple(moving)))


def _remove_die(state: GameState, number: int, owner: int, big: bool, what: str) -> GameState:
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


def _handicap(state: GameState, tile: Tile, seat: int, event: TileDecision) -> GameState:
    """Take a grey die onto the tile for its reward: a chip, $30,000, or rotate / return a die."""
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
    state = _remove_die(state, source, GREY, False, "Handicap")
    spaces = replace_at(tile.spaces, space, tile.spaces[space] - 1)
    grey = PlacedDie(GREY, 0, False, state.turn)
    state = _with_tile(state, replace(tile, spaces=spaces, dice=tile.dice + (grey,)))
    if reward == "chip":
        return _gain(state, seat, chips=1)
    if reward == "money":
        return _gain(state, seat, money=30_000)
    return rotate_or_return(state, seat, event, "Handicap")


def _nice_dice(state: GameState, tile: Tile, seat: int, event: TileDecision) -> GameState:
    """Put a die just rolled, or just placed here, on the tile's space for its number."""
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
    return _with_tile(state, replace(tile, dice=kept + (PlacedDie(seat, value, big, state.turn),)))


def _no_entry(state: GameState, tile: Tile, seat: int, event: TileDecision) -> GameState:
    """Close a casino with the token and take the reward of the next space on the track.

    The track's printed rewards are not in the rule text, so the decision gives the
    reward the new space shows (chips 0-2, or money up to $60,000). Leaving the token
    where it lies (allowed after the first time) moves nothing and earns nothing.
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
    chips, money = event.get("chips", 0), event.get("money", 0)
    if chips not in (0, 1, 2) or money not in range(0, 60_001, 10_000):
        raise IllegalMove(
            "No Entry",
            f"the space shows 0-2 chips or up to $60,000, got chips {chips!r}, money {money!r}",
        )
    state = _gain(state, seat, money=money, chips=chips)
    return _with_tile(state, replace(tile, holder=target, level=tile.level + 1))


def _fifty_fifty(state: GameState, pending: Pending, event: TileDecision) -> GameState:
    """Throw, then take the reward under the counter or bet higher/lower on the next throw.

    The pending context holds (throws so far, last sum, bet): bet 0 before a throw
    decides, 1 for higher, 2 for lower. A tie with the last sum loses the bet.
    """
    steps, last, bet = pending.context or (0, 0, 0)
    if pending.ask == "extra dice":
        dice = event.get("dice")
        if not isinstance(dice, tuple) or len(dice) != 2 or not all(d in range(1, 7) for d in dice):
            raise IllegalMove("Fifty Fifty", f"two extra dice showing 1-6 are thrown, got {dice!r}")
        total = sum(dice)
        won = bet == 0 or (total > last if bet == BETS["higher"] else total < last)
        if not won:
            return state  # the bet is lost: the turn ends with nothing, the counter goes back
        ask = replace(pending, ask="take or bet", context=(steps + 1, total, 0))
        return replace(state, phase=Phase.TILE, pending=ask)
    if event.get("take") is True or steps >= len(FIFTY_FIFTY_TRACK):
        return _gain(state, pending.seat, money=FIFTY_FIFTY_TRACK[steps - 1])
    choice = event.get("bet")
    if choice not in BETS:
        raise IllegalMove(
            "Fifty Fifty",
            f"take the reward (take: true) or bet 'higher' or 'lower', got {choice!r}",
        )
    ask = replace(pending, ask="extra dice", context=(steps, last, BETS[choice]))
    return replace(state, phase=Phase.TILE, pending=ask)


def _my_choice(state: GameState, tile: Tile, pending: Pending, event: TileDecision) -> GameState:
    """Throw two extra dice, then carry out the action of one of the two faces."""
    seat = pending.seat
    if not pending.context:
        dice = event.get("dice")
        if not isinstance(dice, tuple) or len(dice) != 2 or not all(d in range(1, 7) for d in dice):
            raise IllegalMove("My Choice", f"two extra dice showing 1-6 are thrown, got {dice!r}")
        ask = replace(pending, ask="action", context=dice)
        return replace(state, phase=Phase.TILE, pending=ask)
    face = event.get("use")
    if face not in pending.context:
        raise IllegalMove(
            "My Choice", f"use one of the thrown faces {list(pending.context)}, got {face!r}"
        )
    if face in (1, 2):
        return _gain(state, seat, chips=face)
    if face == 3:
        return _gain(state, seat, money=30_000)
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
    return _with_tile(state, replace(tile, dice=(PlacedDie(seat, 0, big, state.turn),)))


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
    state = _remove_die(state, source_casino, seat, big, what)
    held = held.moved(big, 1)
    return replace(state, supplies=replace_at(state.supplies, seat, held))


def decision_choices(state: GameState) -> list[TileDecision]:
    """Every decision a player may make at the pending tile (chance outcomes excluded).

    Options that No Entry's closed casino forbids are left out.
    """
    options = _all_decisions(state)
    if closed_casino(state) is None:
        return options
    allowed = [o for o in options if o.get("use") != 0 and _allowed(state, o)]
    if not allowed and state.pending is not None and state.pending.code == "H2":
        return [TileDecision(state.pending.casino, (("use", 0),))]
    return allowed


def _allowed(state: GameState, decision: TileDecision) -> bool:
    try:
        decide(state, decision)
    except IllegalMove:
        return False
    return True


def _all_decisions(state: GameState) -> list[TileDecision]:
    pending = state.pending
    if pending is None or pending.code in ("A2", "B1", "G1") or pending.ask == "extra dice":
        return []  # chance or hidden: the extra dice are thrown, the piles are face down
    if pending.code == "E2":
        tile = state.tile_at(pending.casino)
        assert tile is not None
        choosers = _knockout_choosers(state, tile, pending.seat)
        subsets = [
            tuple(s for i, s in enumerate(choosers) if mask >> i & 1)
            for mask in range(1 << len(choosers))
        ]
        return [TileDecision(pending.casino, (("biggy_from", s),)) for s in subsets]
    if pending.code == "F1":
        tile = state.tile_at(pending.casino)
        assert tile is not None
        return [
            TileDecision(pending.casino, (("casino", c), ("cluster", size)))
            for size in sorted(set(tile.spaces))
            for c in range(1, 7)
        ]
    if pending.code == "F2":
        return _handicap_choices(state, pending)
    if pending.code == "H1":
        return _nice_dice_choices(state, pending)
    if pending.code == "E1":
        tile = state.tile_at(pending.casino)
        assert tile is not None
        keep = [(("close", False),)] if tile.holder is not None else []
        closes = [(("close", c),) for c in range(1, 7) if c != pending.casino]
        return [TileDecision(pending.casino, o) for o in keep + closes]
    if pending.code == "B2":
        bets = (
            [(("bet", bet),) for bet in BETS] if pending.context[0] < len(FIFTY_FIFTY_TRACK) else []
        )
        return [TileDecision(pending.casino, o) for o in [(("take", True),), *bets]]
    if pending.code == "H2":
        return _my_choice_choices(state, pending)
    if pending.code == "A1":
        options: list[tuple[tuple[str, object], ...]] = [(("guessed", True),)]
        options += [(("guessed", False), ("reward", r)) for r in LUCKY_PUNCH_REWARDS]
        return [TileDecision(pending.casino, o) for o in options]
    own = [d for d in state.casino(pending.casino).dice if d.owner == pending.seat]
    regular = sum(1 for d in own if not d.big)
    bigs = (False, True) if any(d.big for d in own) else (False,)
    return [
        TileDecision(pending.casino, (("biggy", b), ("regular", n)))
        for n in range(regular + 1)
        for b in bigs
    ]


def _nice_dice_choices(state: GameState, pending: Pending) -> list[TileDecision]:
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


def _my_choice_choices(state: GameState, pending: Pending) -> list[TileDecision]:
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
            options += [
                (("big", big), ("number", n), ("reward", "rotate"), ("use", 5))
                for big in kinds
                for n in range(1, 7)
            ]
            own = {
                (c.number, d.big)
                for c in state.casinos
                for d in c.dice
                if d.owner == seat and not d.extra
            }
            options += [
                (("big", big), ("from", c), ("reward", "return"), ("use", 5))
                for c, big in sorted(own)
            ]
        else:
            options += [(("big", big), ("use", 6)) for big in kinds]
    if not options:  # nothing either face allows can be done: the throw is lost
        options = [(("use", 0),)]
    return [TileDecision(pending.casino, o) for o in options]


def _handicap_choices(state: GameState, pending: Pending) -> list[TileDecision]:
    tile = state.tile_at(pending.casino)
    assert tile is not None
    seat = pending.seat
    sources = sorted({c.number for c in state.casinos if any(d.owner == GREY for d in c.dice)})
    options: list[tuple[tuple[str, object], ...]] = [(("take", False),)]
    held = state.supplies[seat]
    for source in sources:
        if tile.spaces[0]:
            options.append((("reward", "chip"), ("take", source)))
        if tile.spaces[1]:
            options.append((("reward", "money"), ("take", source)))
        if tile.spaces[2]:
            for big in (False, True):
                if held.holds(big):
                    options += [
                        (("big", big), ("number", n), ("reward", "rotate"), ("take", source))
                        for n in range(1, 7)
                    ]
            own = {
                (c.number, d.big)
                for c in state.casinos
                for d in c.dice
                if d.owner == seat and not d.extra
            }
            options += [
                (("big", big), ("from", number), ("reward", "return"), ("take", source))
                for number, big in sorted(own)
            ]
    return [TileDecision(pending.casino, o) for o in options]


def before_payout(state: GameState) -> tuple[tuple[int, int], ...]:
    """Bad Luck: (casino, player) for the fewest dice at its casino, seen before ties are removed."""
    fined: list[tuple[int, int]] = []
    for tile in state.tiles:
        if tile.code == "C2":
            counted = state.casino(tile.casino).counted()
            counts = [counted.get(seat, 0) for seat in range(len(state.players))]
            fined += [(tile.casino, seat) for seat, n in enumerate(counts) if n == min(counts)]
    return tuple(fined)


def _double_down_ranking(tile: Tile) -> list[int]:
    counts: dict[int, int] = {}
    for die in tile.dice:
        counts[die.owner] = counts.get(die.owner, 0) + (2 if die.big else 1)
    by_count: dict[int, list[int]] = {}
    for owner, n in counts.items():
        by_count.setdefault(n, []).append(owner)
    return [owners[0] for n, owners in sorted(by_count.items(), reverse=True) if len(owners) == 1]


def after_payout(
    state: GameState, fined: tuple[tuple[int, int], ...]
) -> tuple[GameState, tuple[TileEffect, ...]]:
    """Tile rewards and fines at round end, with a line for each."""
    effects: list[TileEffect] = []
    for tile in state.tiles:
        if tile.code == "C1" and tile.holder is not None:
            state = _gain(state, tile.holder, money=HIGH_FIVE_REWARD)
            effects.append(
                TileEffect(
                    tile.casino, tile.code, tile.holder, HIGH_FIVE_REWARD, 0, "fifth die placed"
                )
            )
        if tile.code == "H1":
            for die in sorted(tile.dice, key=lambda d: d.value):
                if die.owner >= 0:
                    money, chips = NICE_DICE_REWARDS[die.value]
                    state = _gain(state, die.owner, money=money, chips=chips)
                    effects.append(
                        TileEffect(
                            tile.casino,
                            tile.code,
                            die.owner,
                            money,
                            chips,
                            f"die on space {die.value}",
                        )
                    )
        if tile.code == "H2":
            for die in tile.dice:
                state = _gain(state, die.owner, money=GOLD_SPACE)
                effects.append(
                    TileEffect(
                        tile.casino, tile.code, die.owner, GOLD_SPACE, 0, "die on the gold space"
                    )
                )
        if tile.code == "G2":
            for rank, owner in enumerate(_double_down_ranking(tile)[: len(DOUBLE_DOWN_NOTES)]):
                if owner >= 0:
                    state = _gain(state, owner, money=DOUBLE_DOWN_NOTES[rank])
                    effects.append(
                        TileEffect(
                            tile.casino,
                            tile.code,
                            owner,
                            DOUBLE_DOWN_NOTES[rank],
                            0,
                            f"rank {rank + 1} on the tile",
                        )
                    )
    for casino, seat in fined:
        cash = sum(state.winnings[seat]) + state.bank[seat]
        pay = min(BAD_LUCK_FINE, cash)
        chips = 0
        if pay < BAD_LUCK_FINE:  # not enough money: chips go too, at $10,000 each
            chips = state.skip_tokens[seat]
        state = _gain(state, seat, money=-pay, chips=-chips)
        effects.append(TileEffect(casino, "C2", seat, -pay, -chips, "fewest dice at Bad Luck"))
    return state, tuple(effects)
