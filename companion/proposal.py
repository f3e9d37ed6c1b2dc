"""What the camera read, proposed as the current roll: each die with its kind or its problem,
the problems of the whole roll, and the `Roll` event when nothing is wrong.

The camera proposes; the players decide. A proposal with no problem is applied as it is; one
with problems waits for a person to correct it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.choices import legal_choices
from companion.dice import DIE_KINDS, DieKind, kind_colour
from companion.events import Place, Roll, TileDecision
from companion.state import GameState, Phase
from companion.tile_codes import TileCode

PROBLEM_TEXTS = {
    "not_rolling": "the game does not wait for a roll now",
    "other_colour": "{colour} is {owner}'s colour; it is {player}'s turn",
    "no_such_colour": "no dice of this game are {colour}",
    "too_many": "{player} has only {count} {kind} to roll",
    "blank": "a blank die is never rolled",
    "unsure": "could not be read for sure: cocked, half out of view or blurred",
    "colour_doubt": "its colour lies between two; read as {colour}, calibrate the colours",
    "missing": "read {seen} of {player}'s {count} {kind}",
}
"""English text of each problem; the page words them in its own language from the key."""

KIND_NAMES = {
    DieKind.REGULAR: ("die", "dice"),
    DieKind.BIGGY: ("Biggy", "Biggies"),
    DieKind.NEUTRAL: ("white die", "white dice"),
    DieKind.KICKERS: ("kicker", "kickers"),
}
"""English names of each kind of die, one and many."""

ProblemValue = str | int
"""A value a problem's text needs: a count, a name, a colour or a `DieKind`."""


@dataclass(frozen=True)
class Problem:
    """Why a read die or a whole roll does not fit: a key of `PROBLEM_TEXTS` and the values
    its text needs, in order.

    A value named `kind` is a `DieKind`, worded as one or many after the value `count`;
    `colour` is a colour's name.
    """

    key: str
    values: tuple[tuple[str, ProblemValue], ...] = ()

    @classmethod
    def of(cls, key: str, **values: ProblemValue) -> Problem:
        """A problem from its key and named values."""
        return cls(key, tuple(values.items()))

    def text(self) -> str:
        """The problem in English."""
        values = dict(self.values)
        kind = values.get("kind")
        if isinstance(kind, DieKind):
            one, many = KIND_NAMES[kind]
            values["kind"] = one if values.get("count") == 1 else many
        return PROBLEM_TEXTS[self.key].format(**values)


@dataclass(frozen=True)
class ReadDie:
    """One die as read: pips (0 for blank), colour, size, sureness, box (x0, y0, x1, y1 in
    pixels, or None), the reader's confidence (0-1) in it, and whether its colour is a guess
    (it lay between two colours before calibration)."""

    pips: int
    colour: str
    big: bool = False
    unsure: bool = False
    box: tuple[float, float, float, float] | None = None
    confidence: float = 1.0
    colour_doubt: bool = False


@dataclass(frozen=True)
class ProposedDie:
    """A read die with the kind it would be in the roll, or None and its problem."""

    die: ReadDie
    kind: DieKind | None
    problem: Problem | None = None


@dataclass(frozen=True)
class Proposal:
    """The dice read, each with its problem or None; the problems of the whole roll; the
    `Roll` to apply when nothing is wrong; and how many dice, lying in the arena before the
    throw, were left out."""

    dice: tuple[ProposedDie, ...]
    problems: tuple[Problem, ...]
    roll: Roll | None
    left_out: int = 0

    def problem_count(self) -> int:
        """How many problems the proposal has: its dice's and the whole roll's."""
        return sum(d.problem is not None for d in self.dice) + len(self.problems)


def _kind_of(die: ReadDie, state: GameState, colours: Sequence[str]) -> ProposedDie:
    """The kind a die would be in the current player's roll, or None and why it does not fit."""
    seat = state.current
    supply = state.supplies[seat]
    mine = colours[seat] if seat < len(colours) else None
    if die.colour == mine:
        return ProposedDie(die, DieKind.BIGGY if die.big else DieKind.REGULAR)
    for kind in (DieKind.NEUTRAL, DieKind.KICKERS):
        if die.colour == kind_colour(kind, mine) and getattr(supply, kind.value):
            return ProposedDie(die, kind)
    owners = [state.players[s] for s, c in enumerate(colours) if c == die.colour]
    if owners:
        why = Problem.of("other_colour", colour=die.colour, owner=owners[0], player=state.to_move())
        return ProposedDie(die, None, why)
    return ProposedDie(die, None, Problem.of("no_such_colour", colour=die.colour))


def propose_roll(state: GameState, colours: Sequence[str], dice: Sequence[ReadDie]) -> Proposal:
    """The dice with their kind and any problem, the problems of the whole roll, and the roll.

    `roll` is the Roll event only when every die fits: the player's or the neutral colours,
    read for sure, and exactly the dice the player holds. Where more dice of a kind are read
    than the player holds, the dice read least surely are the ones too many (a die read twice,
    or a stray one, is more often read weakly).
    """
    if state.phase is not Phase.ROLL:
        return Proposal((), (Problem.of("not_rolling"),), None)
    supply = state.supplies[state.current]
    held = {kind: getattr(supply, kind.value) for kind in DieKind}
    seen = dict.fromkeys(DieKind, 0)
    fits: dict[int, ProposedDie] = {}
    for i in sorted(range(len(dice)), key=lambda i: -dice[i].confidence):
        fit = _kind_of(dice[i], state, colours)
        if fit.kind is not None and seen[fit.kind] >= held[fit.kind]:
            count, kind = held[fit.kind], fit.kind
            fit = ProposedDie(
                dice[i],
                None,
                Problem.of("too_many", player=state.to_move(), count=count, kind=kind),
            )
        if fit.kind is not None:
            seen[fit.kind] += 1
        fits[i] = fit
    proposed = tuple(_die_problem(fits[i]) for i in range(len(dice)))
    problems = tuple(
        Problem.of("missing", seen=seen[k], player=state.to_move(), count=held[k], kind=k)
        for k in DieKind
        if seen[k] < held[k]
    )
    roll = None
    if not problems and all(d.problem is None for d in proposed):
        values = {
            k.value: tuple(sorted(d.die.pips for d in proposed if d.kind is k)) for k in DieKind
        }
        roll = Roll(**values)
    return Proposal(proposed, problems, roll)


def roll_colours(state: GameState, colours: Sequence[str], roll: Roll) -> dict[str, int]:
    """How many dice of each colour the roll of the player to move in `state` holds: their own
    (regular and Biggy), white (neutral) and purple (kickers); none of a colour not rolled."""
    seat = state.current
    own = colours[seat] if seat < len(colours) else None
    counted: dict[str, int] = {}
    for kind in DIE_KINDS:
        colour, dice = kind_colour(kind, own), getattr(roll, kind.value)
        if colour is not None and dice:
            counted[colour] = counted.get(colour, 0) + len(dice)
    return counted


def _die_problem(fit: ProposedDie) -> ProposedDie:
    """A die that fits its kind, flagged still when it is blank, was not read for sure, or
    its colour is a guess."""
    if fit.problem is None and fit.die.pips == 0:
        return ProposedDie(fit.die, fit.kind, Problem.of("blank"))
    if fit.problem is None and fit.die.unsure:
        return ProposedDie(fit.die, fit.kind, Problem.of("unsure"))
    if fit.problem is None and fit.die.colour_doubt:
        return ProposedDie(fit.die, fit.kind, Problem.of("colour_doubt", colour=fit.die.colour))
    return fit


def propose_throw(
    state: GameState, colours: Sequence[str], dice: Sequence[ReadDie], thrown: Sequence[bool]
) -> Proposal:
    """`propose_roll` for the dice of a settled throw, with how many of them it left out.

    Where the dice do not fit but those `thrown` alone do (the others lay there, with the
    same pips, before the throw: a die left in the arena, a printed pattern read as a die),
    those are the proposal. Where only all of them fit (a cocked die set flat again, the
    others lying still), all count. Where neither fits, the one with fewer problems is shown
    (all dice where both have as many), for a person to correct.
    """
    proposal = propose_roll(state, colours, dice)
    if proposal.roll is None and not all(thrown):
        fresh = [die for die, new in zip(dice, thrown, strict=True) if new]
        alone = propose_roll(state, colours, fresh)
        if alone.roll is not None or alone.problem_count() < proposal.problem_count():
            return Proposal(alone.dice, alone.problems, alone.roll, len(dice) - len(fresh))
    return proposal


def extra_dice_throw(
    state: GameState, dice: Sequence[ReadDie], thrown: Sequence[bool]
) -> TileDecision | None:
    """The tile decision for the two extra dice a tile throws, as the camera read them.

    Only the dice of this throw count (not those that lay there before). None unless the
    game waits for such a throw and exactly two dice were read for sure; Prime Time is
    left to the player, who also says which of them they place.
    """
    pending = state.pending
    if state.phase is not Phase.TILE or pending is None or pending.ask != "extra dice":
        return None
    fresh = [die for die, new in zip(dice, thrown, strict=True) if new]
    if pending.code is TileCode.PRIME_TIME or len(fresh) != 2:
        return None
    if any(die.unsure or not 1 <= die.pips <= 6 for die in fresh):
        return None
    return TileDecision(pending.casino, (("dice", tuple(d.pips for d in fresh)),))


def unique_place(state: GameState, number: int, count: int) -> Place | None:
    """The one plain placement of `number` when `count` dice of it were rolled (the player took
    all of them out of the arena), else None."""
    roll = state.pending_roll
    if roll is None or roll.values().count(number) != count:
        return None
    options = [c for c in legal_choices(state) if isinstance(c, Place) and c.number == number]
    return options[0] if len(options) == 1 else None
