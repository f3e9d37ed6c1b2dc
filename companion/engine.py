"""`apply(state, event)`: the rules of play, one small function per event."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from companion.cardplay import play_cards
from companion.correction import correct_casino
from companion.deal import check_values as _check_values
from companion.deal import deal as _deal
from companion.dice import DIE_KINDS, DieKind
from companion.errors import IllegalMove
from companion.events import (
    EVENT_TYPES,
    ROLL_KINDS,
    SLOT_MACHINE,
    CorrectCasino,
    DealRound,
    Event,
    Kick,
    Place,
    PlayCards,
    PowerPlay,
    ReplaceRainbows,
    ResolvePayout,
    Roll,
    Skip,
    TileDecision,
)
from companion.money import draw_notes, pile_exhausted
from companion.payout import RoundPayout, pay_casino
from companion.rules import RAINBOW
from companion.state import SUPPLY_KINDS, WHITE, Casino, GameState, Phase, PlacedDie, Supply
from companion.steps import expect_phase, replace_at
from companion.tiles import (
    activate,
    after_payout,
    before_payout,
    check_open,
    closed_casino,
    decide,
    power_play_rolled,
    return_power_play,
    round_end,
    use_power_play,
)

# --- roll and place -------------------------------------------------------


def _roll(state: GameState, event: Roll) -> GameState:
    expect_phase(state, Phase.ROLL, event)
    supply = state.supplies[state.current]
    name = state.to_move()
    for kind in ROLL_KINDS:
        values, held = getattr(event, kind), getattr(supply, kind)  # a kind names both fields
        if len(values) != held:
            raise IllegalMove(
                "roll all your dice",
                f"{name} holds {held} {kind.label} {'die' if held == 1 else 'dice'} "
                f"but the roll shows {len(values)}",
                why={
                    "key": "roll_count",
                    "player": name,
                    "count": held,
                    "kind": kind.value,
                    "got": len(values),
                },
            )
        _check_values(values, f"{name}'s {kind.label} dice")
    if state.tiles:
        state = power_play_rolled(state)
    return replace(state, phase=Phase.CHOOSE, pending_roll=event)


def _next_turn(state: GameState) -> GameState:
    """Pass the turn clockwise to the next player with dice, or end the round."""
    players = len(state.players)
    for offset in range(1, players + 1):
        seat = (state.current + offset) % players
        if state.supplies[seat].total():
            return replace(
                state, phase=Phase.ROLL, current=seat, turn=state.turn + 1, pending_roll=None
            )
    has_rainbow = any(RAINBOW in casino.notes for casino in state.casinos)
    state = replace(
        state,
        phase=Phase.RAINBOW if has_rainbow else Phase.PAYOUT,
        turn=state.turn + 1,
        pending_roll=None,
    )
    return round_end(state) if state.tiles else state


def _kick(state: GameState, casino: Casino, kick: Kick, kickable: Callable[[PlacedDie], bool]):
    for index, die in enumerate(casino.dice):
        if kickable(die) and die.owner == kick.owner and die.big == kick.big:
            dice = casino.dice[:index] + casino.dice[index + 1 :]
            return replace(casino, dice=dice), die
    size = "Biggy" if kick.big else "die"
    owner = (
        state.owner_name(kick.owner)
        if WHITE <= kick.owner < len(state.players)
        else repr(kick.owner)
    )
    where = (
        "placed this turn on the slot machine"
        if casino.number == SLOT_MACHINE
        else f"on casino {casino.number}"
    )
    raise IllegalMove("kicker", f"there is no {size} of {owner} {where} to kick")


def _place_target(state: GameState, event: Place, roll: Roll) -> int:
    """The casino the dice go to, once the number was rolled and the casino may take them."""
    name, number = state.to_move(), event.number
    if number not in roll.values():
        rolled = ", ".join(map(str, sorted(roll.values())))
        raise IllegalMove("place a rolled number", f"{name} rolled {rolled}, not a {number!r}")
    target = SLOT_MACHINE if event.slot else number
    if state.tiles:
        check_open(state, target, "No Entry")
    if event.slot:
        if not state.rules.slot_machine:
            raise IllegalMove("slot machine", "this game is played without the slot machine")
        taken = sorted({d.value for d in state.casino(SLOT_MACHINE).dice})
        if number in taken:
            raise IllegalMove(
                "slot machine",
                f"{number}s already lie on the slot machine (taken: {taken}); each number once a round",
            )
    return target


def _kick_off(
    state: GameState,
    casino: Casino,
    supplies: tuple[Supply, ...],
    event: Place,
    kickers: int,
) -> tuple[Casino, tuple[Supply, ...], int]:
    """Each kicker knocks off a named die, back to its owner's hand (a white die leaves play).

    Returns the casino, the supplies and the white dice out of play. On the slot machine
    only dice placed this turn can be kicked.
    """
    name = state.to_move()
    if len(event.kicks) > kickers:
        raise IllegalMove(
            "kicker", f"{name} placed {kickers} kickers but named {len(event.kicks)} dice to kick"
        )
    if casino.number == SLOT_MACHINE:

        def kickable(die: PlacedDie) -> bool:
            return die.turn == state.turn
    else:

        def kickable(die: PlacedDie) -> bool:
            return True

    white_out = state.white_out
    for kick in event.kicks:
        casino, die = _kick(state, casino, kick, kickable)
        if die.owner == WHITE:
            white_out += 1
        else:
            supplies = replace_at(supplies, die.owner, supplies[die.owner].moved(die.big, 1))
    unused = kickers - len(event.kicks)
    if unused and any(kickable(d) for d in casino.dice):
        raise IllegalMove(
            "kicker",
            f"each kicker must knock off a die while any is there: {kickers} placed, "
            f"{len(event.kicks)} named",
        )
    return casino, supplies, white_out


def _take_chip_card(
    state: GameState, casino: Casino, chip: str, counted: int
) -> tuple[GameState, Casino]:
    """The player to move takes a chip card from the casino where they placed `counted` dice."""
    if not state.rules.chip_cards or casino.number == SLOT_MACHINE:
        raise IllegalMove("chip cards", "no chip card can be taken here")
    if counted < 2:
        raise IllegalMove(
            "chip cards",
            f"a chip card needs at least 2 dice placed at once, {state.to_move()} placed {counted}",
        )
    if chip not in casino.chip_cards:
        raise IllegalMove(
            "chip cards",
            f"casino {casino.number} has no {chip!r} chip card (has {list(casino.chip_cards)})",
        )
    chips = list(casino.chip_cards)
    chips.remove(chip)
    seat = state.current
    taken = replace_at(state.chip_cards, seat, tuple(sorted(state.chip_cards[seat] + (chip,))))
    return replace(state, chip_cards=taken), replace(casino, chip_cards=tuple(chips))


def _place(state: GameState, event: Place) -> GameState:
    expect_phase(state, Phase.CHOOSE, event)
    roll = state.pending_roll
    assert roll is not None
    target = _place_target(state, event, roll)
    number, seat = event.number, state.current
    placed = {kind: getattr(roll, kind).count(number) for kind in DIE_KINDS}
    new_dice = (
        (PlacedDie(seat, number, False, state.turn),) * placed[DieKind.REGULAR]
        + (PlacedDie(seat, number, True, state.turn),) * placed[DieKind.BIGGY]
        + (PlacedDie(WHITE, number, False, state.turn),) * placed[DieKind.NEUTRAL]
    )
    casino = state.casino(target)
    casino = replace(casino, dice=casino.dice + new_dice)
    supply = state.supplies[seat]
    supplies = replace_at(
        state.supplies,
        seat,
        Supply(*[held - placed[kind] for held, kind in zip(supply, SUPPLY_KINDS, strict=True)]),
    )
    casino, supplies, white_out = _kick_off(state, casino, supplies, event, placed[DieKind.KICKERS])
    if event.chip is not None:
        counted = roll.counted(number)
        state, casino = _take_chip_card(state, casino, event.chip, counted)
    state = replace(
        state,
        casinos=replace_at(state.casinos, target - 1, casino),
        supplies=supplies,
        white_out=white_out,
    )
    if state.tiles and target != SLOT_MACHINE:
        state = activate(state, target, seat)
        if state.phase is Phase.TILE:
            return state
    return _next_turn(state)


def _skip(state: GameState, event: Skip) -> GameState:
    expect_phase(state, Phase.CHOOSE, event)
    rules = state.rules
    seat = state.current
    name = state.to_move()
    roll = state.pending_roll
    if roll is not None and state.tiles and set(roll.values()) == {closed_casino(state)}:
        return _next_turn(state)  # every die shows the closed casino: the turn passes for free
    if rules.skip_rule == "none":
        raise IllegalMove("skip", "this game is played without the skip house rule")
    token = "chip" if rules.skip_rule == "chips" else "skip card"
    if state.skip_tokens[seat] <= 0:
        raise IllegalMove("skip", f"{name} has no {token} left to pay for a skip")
    if rules.skip_limit and state.skips_used[seat] >= rules.skip_limit:
        raise IllegalMove("skip", f"{name} already skipped {rules.skip_limit} times this round")
    state = replace(
        state,
        skip_tokens=replace_at(state.skip_tokens, seat, state.skip_tokens[seat] - 1),
        skips_used=replace_at(state.skips_used, seat, state.skips_used[seat] + 1),
    )
    return _next_turn(state)


# --- round end ------------------------------------------------------------


def _replace_rainbows(state: GameState, event: ReplaceRainbows) -> GameState:
    expect_phase(state, Phase.RAINBOW, event)
    rules = state.rules
    if len(event.draws) != len(state.casinos):
        raise IllegalMove(
            "rainbow", f"draws for {len(state.casinos)} casinos expected, got {len(event.draws)}"
        )
    pile, discards = state.pile, state.discards
    casinos = []
    for casino, draws in zip(state.casinos, event.draws, strict=True):
        needed = casino.notes.count(RAINBOW)
        kept = tuple(n for n in casino.notes if n != RAINBOW)
        discards = discards + (RAINBOW,) * needed
        got: list[int] = []
        for note in draws:
            if len(got) == needed:
                raise IllegalMove(
                    "rainbow",
                    f"casino {casino.number}: {len(draws)} cards drawn, more than needed",
                    why={"key": "rainbow_more", "casino": casino.number},
                )
            pile, discards = draw_notes(pile, discards, (note,), rules.reshuffle)
            if note == RAINBOW:
                discards = discards + (RAINBOW,)
            else:
                got.append(note)
        if len(got) < needed and not pile_exhausted(pile, discards, rules.reshuffle):
            raise IllegalMove(
                "rainbow",
                f"casino {casino.number} had {needed} Rainbow cards but only {len(got)} were replaced",
                why={
                    "key": "rainbow_short",
                    "casino": casino.number,
                    "count": needed,
                    "got": len(got),
                },
            )
        casinos.append(replace(casino, notes=kept + tuple(got)))
    return replace(state, phase=Phase.PAYOUT, casinos=tuple(casinos), pile=pile, discards=discards)


def next_start_player(state: GameState, payout: RoundPayout) -> int:
    """The start player of the next round, by the edition's rule."""
    if state.rules.start_player_rule == "royale":
        for casino in reversed(payout.casinos[:6]):
            first = next((a for a in casino.awards if a.rank == 1), None)
            if first and first.owner >= 0:
                return first.owner
        return (state.start_player + 1) % len(state.players)
    if state.rules.start_player_rule == "casino6_winner":
        six = payout.casinos[5]
        first = next((a for a in six.awards if a.rank == 1), None)
        return first.owner if first and first.owner >= 0 else state.start_player
    return (state.start_player + 1) % len(state.players)


def _payout(state: GameState, event: ResolvePayout) -> GameState:
    expect_phase(state, Phase.PAYOUT, event)
    rules = state.rules
    pile, discards = state.pile, state.discards
    winnings = [list(w) for w in state.winnings]
    fined = before_payout(state)
    results = []
    for casino in state.casinos:
        choices = event.slot_choices if casino.number == SLOT_MACHINE else ()
        result = pay_casino(casino, rules.leftovers, choices)
        under: list[int] = []
        for award in result.awards:
            if award.owner >= 0:
                winnings[award.owner].append(award.note)
            else:
                under.append(award.note)
        if rules.leftovers == "pile":
            under.extend(result.leftover)
        else:
            discards = discards + result.leftover
        pile = pile.put_under(under)
        results.append(result)
    if event.slot_choices and not rules.slot_machine:
        raise IllegalMove("slot machine choice", "this game is played without the slot machine")
    state = replace(state, winnings=tuple(tuple(sorted(w, reverse=True)) for w in winnings))
    state, effects = after_payout(state, fined)
    payout = RoundPayout(state.round, tuple(results), effects)
    state = replace(
        state,
        pile=pile,
        discards=discards,
        payouts=state.payouts + (payout,),
        casinos=tuple(Casino(c.number, chip_cards=c.chip_cards) for c in state.casinos),
        supplies=tuple(Supply() for _ in state.players),
    )
    if state.round == rules.rounds:
        return replace(state, phase=Phase.OVER)
    start = next_start_player(state, payout)
    return replace(
        state, phase=Phase.DEAL, round=state.round + 1, start_player=start, current=start, turn=0
    )


def _power_play(state: GameState, event: PowerPlay) -> GameState:
    expect_phase(state, Phase.ROLL, event)
    state, number = use_power_play(state, event.number, event.big)
    state = activate(state, number, state.current)
    return state if state.phase is Phase.TILE else _next_turn(state)


def _tile_decision(state: GameState, event: TileDecision) -> GameState:
    state = decide(state, event)
    if state.phase is Phase.CHOOSE:  # a decision during a turn: the turn is over
        return _next_turn(state)
    if state.phase is Phase.PAYOUT:  # a decision before payout: maybe another tile asks
        return round_end(state)
    return state  # the decision led to another one


_EVENT_CLASSES = tuple(EVENT_TYPES.values())


def _dispatch(state: GameState, event: Event) -> GameState:
    """Hand the event to the rule that plays it."""
    match event:
        case DealRound():
            return _deal(state, event)
        case Roll():
            return _roll(state, event)
        case Place():
            return _place(state, event)
        case Skip():
            return _skip(state, event)
        case PlayCards():
            return play_cards(state, event)
        case TileDecision():
            return _tile_decision(state, event)
        case PowerPlay():
            return _power_play(state, event)
        case ReplaceRainbows():
            return _replace_rainbows(state, event)
        case ResolvePayout():
            return _payout(state, event)
        case CorrectCasino():
            return correct_casino(state, event)
    raise IllegalMove("unknown event", f"{event!r} is not a game event")


def apply(state: GameState, event: Event) -> GameState:
    """The state after `event`, or IllegalMove naming the rule it breaks."""
    if not isinstance(event, _EVENT_CLASSES):
        raise IllegalMove("unknown event", f"{event!r} is not a game event")
    if state.phase is Phase.OVER:
        raise IllegalMove("game over", "the game has ended; no further events")
    state = _dispatch(state, event)
    return return_power_play(state) if state.tiles else state
