"""The casinos as the table shows them against the game: counts per owner, the differences in
words, and what each difference changes at the payout (found by paying out both)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.check_sentences import Owner, Sentence, SentenceValue, Size, joined_text
from companion.events import SLOT_MACHINE, TableDie
from companion.payout import CasinoPayout, pay_casino
from companion.state import GREY, NEUTRAL_SET, WHITE, Casino, GameState, PlacedDie

NEUTRAL_KEY = "neutral"
"""The key of the neutral dice (Las Vegas 2012's white dice, Royale's neutral set)."""


@dataclass(frozen=True, slots=True)
class UnsureDie:
    """What a die the camera saw but could not read for sure may be: no die at all, or a die
    (regular or a Biggy, any value on the slot machine) of `owner` where its colour tells the
    owner (None: of any owner), or, where it `may_be_two` (its box covers more than a die),
    two such dice. Where `values` are given (a die on the slot machine in doubt for its pips
    alone), it is surely one regular die of `owner`, showing one of those values. A die
    `biggy_unseen` was read regular for sure, but may be `owner`'s Biggy: the camera read it
    nowhere, and the game holds it here (`biggies_unseen_in_doubt`)."""

    owner: int | None = None
    may_be_two: bool = False
    values: tuple[int, ...] = ()
    biggy_unseen: bool = False


@dataclass(frozen=True, slots=True)
class SeenCasino:
    """What the camera read on one casino: each die it is sure of (owner, size and, on the slot
    machine, value), the dice it saw but could not read for sure, and the colours of dice that
    belong to no one in this game. `unsure_dice` says what each of the `unsure` dice may be
    where the camera can tell (fewer given: the others may be any owner's die)."""

    casino: int
    dice: tuple[TableDie, ...] = ()
    unsure: int = 0
    strangers: tuple[str, ...] = ()
    unsure_dice: tuple[UnsureDie, ...] = ()

    def unsure_readings(self) -> tuple[UnsureDie, ...]:
        """What each die not read for sure may be, one entry a die."""
        given = self.unsure_dice[: self.unsure]
        return given + (UnsureDie(),) * (self.unsure - len(given))

    def unsure_room(self) -> int:
        """How many dice the dice not read for sure may be at most."""
        return sum(2 if d.may_be_two else 1 for d in self.unsure_readings())


@dataclass(frozen=True, slots=True)
class CasinoCheck:
    """One casino checked: counted dice per owner on the table and in the game (a Biggy counts
    two), the dice not read for sure, the differences and their effect at payout as sentences
    (keys with values; `differences` and `payout_changes` give them in English). `table` is None
    for a casino the camera does not see. `biggy_doubts` names the owners (as the counts key
    them) whose Biggy the camera read nowhere and may be among their dice here: one of the
    `unsure` dice each. `doubt_owners` names the owners that a die not read for sure may
    belong to, all owners where `doubt_any_owner` (a die whose colour tells no owner)."""

    casino: int
    table: tuple[tuple[str, int], ...] | None
    game: tuple[tuple[str, int], ...]
    unsure: int
    difference_sentences: tuple[Sentence, ...]
    payout_sentences: tuple[Sentence, ...]
    biggy_doubts: tuple[str, ...] = ()
    doubt_owners: tuple[str, ...] = ()
    doubt_any_owner: bool = False

    @property
    def differences(self) -> tuple[str, ...]:
        """Each difference in English."""
        return tuple(s.text() for s in self.difference_sentences)

    @property
    def payout_changes(self) -> str:
        """What the differences change at payout, in English ('' where nothing is to say)."""
        return joined_text(self.payout_sentences)

    @property
    def agrees(self) -> bool:
        """Whether the table shows what the game holds, every die read for sure."""
        return not self.differences and not self.unsure and self.table is not None

    @property
    def doubt_changes_nothing(self) -> bool:
        """Whether the casino's only doubt is dice not read for sure that change nothing at
        payout whatever each of them is (no die, a die or Biggy of any owner it may belong to,
        any value on the slot machine): no difference, and every reading pays as the game."""
        return (
            self.table is not None
            and self.unsure > 0
            and not self.difference_sentences
            and self.payout_sentences == (Sentence.of("no_change"),)
        )

    @property
    def payout_may_go_on(self) -> bool:
        """Whether this casino lets the payout go on by itself: it agrees, or its dice not read
        for sure change nothing at payout."""
        return self.agrees or self.doubt_changes_nothing

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, the counts keyed by owner; `biggy_in_doubt` only where a Biggy is."""
        out: dict[str, Any] = {
            "casino": "slot" if self.casino == SLOT_MACHINE else self.casino,
            "table": None if self.table is None else dict(self.table),
            "game": dict(self.game),
            "unsure": self.unsure,
            "differences": list(self.differences),
            "payout_changes": self.payout_changes,
        }
        if self.biggy_doubts:
            out["biggy_in_doubt"] = list(self.biggy_doubts)
        return out


@dataclass(frozen=True, slots=True)
class TableCheck:
    """Every casino of the game checked against the table."""

    casinos: tuple[CasinoCheck, ...]

    @property
    def agrees(self) -> bool:
        """Whether every casino agrees, every die read for sure."""
        return all(c.agrees for c in self.casinos)

    @property
    def payout_may_go_on(self) -> bool:
        """Whether the payout may go on by itself: no casino shows a difference, and the dice
        not read for sure, where there are any, change nothing at payout whatever they are."""
        return all(c.payout_may_go_on for c in self.casinos)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: `{"casinos": [...], "agrees": ..., "payout_may_go_on": ...}`."""
        return {
            "casinos": [c.to_dict() for c in self.casinos],
            "agrees": self.agrees,
            "payout_may_go_on": self.payout_may_go_on,
        }


def owner_key(state: GameState, owner: int) -> str:
    """How a check names an owner: the player's name, "neutral" or "grey"."""
    if owner in (WHITE, NEUTRAL_SET):
        return NEUTRAL_KEY
    return "grey" if owner == GREY else state.players[owner]


def _counted(state: GameState, dice: Sequence[PlacedDie]) -> tuple[tuple[str, int], ...]:
    """Counted dice per owner key, most first, then by key."""
    counts: Counter[str] = Counter()
    for die in dice:
        counts[owner_key(state, die.owner)] += 2 if die.big else 1
    return tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def _table_casino(game: Casino, seen: SeenCasino) -> Casino:
    """The casino with the game's notes and the table's dice."""
    dice = tuple(
        PlacedDie(d.owner, d.value if d.value is not None else game.number, d.big, 0)
        for d in seen.dice
    )
    return Casino(game.number, game.notes, dice, game.chip_cards)


class _Names:
    """Owners as sentences name them: key and colour where the colours are known."""

    def __init__(self, state: GameState, colours: Mapping[int, str]) -> None:
        self.state, self.colours = state, colours

    def __call__(self, owner: int) -> Owner:
        return Owner(owner_key(self.state, owner), self.colours.get(owner), owner >= 0)

    def order(self, owner: int) -> str:
        """Owners are told in the order of their English names."""
        return self(owner).words()


def _dice_size(dice: Counter[tuple[int, int, bool]]) -> tuple[int, Size | None]:
    """An owner's counted dice, and (Biggies, regular dice) where a Biggy is among them."""
    mine = [big for (_, _, big), n in dice.items() for _ in range(n)]
    counted = sum(2 if big else 1 for big in mine)
    biggies = sum(mine)
    return counted, ((biggies, len(mine) - biggies) if biggies else None)


def _differences(
    number: int, table: Casino, game: Casino, name: _Names, seen: SeenCasino
) -> list[Sentence]:
    """Each owner whose dice differ, as a sentence; on the slot machine their values too. Dice the
    game holds and the camera did not see are no difference where the dice it saw but could
    not read for sure may be they: those are never guessed either way."""
    slot = number == SLOT_MACHINE
    on_table = Counter((d.owner, d.value if slot else 0, d.big) for d in table.dice)
    in_game = Counter((d.owner, d.value if slot else 0, d.big) for d in game.dice)
    owners = sorted({o for o, _, _ in on_table} | {o for o, _, _ in in_game}, key=name.order)
    mine = {
        owner: (
            Counter({k: n for k, n in on_table.items() if k[0] == owner}),
            Counter({k: n for k, n in in_game.items() if k[0] == owner}),
        )
        for owner in owners
    }
    short = {o for o, (shown, held) in mine.items() if shown != held and not shown - held}
    unseen = sum((mine[o][1] - mine[o][0]).total() for o in short)
    maybe_unsure = short if 0 < unseen <= seen.unsure_room() else set()
    out = []
    for owner in owners:
        shown, held = mine[owner]
        if shown == held or owner in maybe_unsure:
            continue
        (table_count, table_size), (game_count, game_size) = _dice_size(shown), _dice_size(held)
        table_values = game_values = None
        if slot and (table_count, table_size) == (game_count, game_size):
            table_size = game_size = None
            table_values, game_values = _slot_values(shown), _slot_values(held)
        elif table_count and game_count and (table_size is None) != (game_size is None):
            # a Biggy on one side only: say the size on both
            table_size = table_size or (0, table_count)
            game_size = game_size or (0, game_count)
        out.append(
            Sentence.of(
                "differs",
                owner=name(owner),
                where=number,
                table=table_count,
                game=game_count,
                table_size=table_size,
                game_size=game_size,
                table_values=table_values,
                game_values=game_values,
            )
        )
    for colour, count in sorted(Counter(seen.strangers).items()):
        out.append(Sentence.of("stranger", count=count, colour=colour, where=number))
    return out


def _slot_values(dice: Counter[tuple[int, int, bool]]) -> tuple[int, ...]:
    """The values of an owner's dice on the slot machine, highest first, a Biggy's twice."""
    return tuple(
        sorted(
            (v for (_, v, b), n in dice.items() for _ in range(n * (2 if b else 1))), reverse=True
        )
    )


def _paid(payout: CasinoPayout) -> dict[int, tuple[int, ...]]:
    got: dict[int, list[int]] = {}
    for award in payout.awards:
        got.setdefault(award.owner, []).append(award.note)
    return {o: tuple(sorted(n, reverse=True)) for o, n in got.items()}


def _seated(owners: Sequence[int]) -> list[int]:
    """Owners in seat order, the neutral and grey dice last: the same words whatever order the
    dice were laid in."""
    return sorted(owners, key=lambda o: (o < 0, abs(o)))


def payout_change(table: CasinoPayout, game: CasinoPayout, name: _Names) -> tuple[Sentence, ...]:
    """What paying out the table's dice changes against paying out the game's: ties made or
    broken, and who gets which notes instead."""
    parts: list[Sentence] = []
    game_ties = {frozenset(g.owners): g for g in game.tied}
    table_ties = {frozenset(g.owners): g for g in table.tied}
    for owners, group in table_ties.items():
        if owners not in game_ties or game_ties[owners].dice != group.dice:
            who = tuple(name(o) for o in _seated(group.owners))
            key = "tie_made" if len(who) == 2 else "tie_made_all"
            parts.append(Sentence.of(key, dice=group.dice, owners=who))
    for owners, group in game_ties.items():
        if owners not in table_ties:
            who = tuple(name(o) for o in _seated(group.owners))
            parts.append(Sentence.of("tie_broken", owners=who))
    table_paid, game_paid = _paid(table), _paid(game)
    for owner in sorted(set(table_paid) | set(game_paid), key=name.order):
        now, before = table_paid.get(owner, ()), game_paid.get(owner, ())
        if now != before:
            parts.append(Sentence.of("gets", owner=name(owner), now=now, before=before))
    return tuple(parts) if parts else (Sentence.of("no_change"),)


def _unsure_as_unseen(table: Casino, game: Casino, unsure: int) -> Casino | None:
    """The table's casino with its dice not read for sure taken as the game's dice the camera
    did not see, where they are exactly as many (None where they are not: an unsure die may
    then be a die the game does not hold, and what the table shows is not known).

    The differences told are those no unsure die can explain, so their effect at payout is
    found with the unsure dice standing for the game's unseen ones: a die left out, added or
    moved is still named rightly while a die elsewhere on the casino is half hidden."""
    if not unsure:
        return table
    slot = table.number == SLOT_MACHINE
    on_table = Counter((d.owner, d.value if slot else 0, d.big) for d in table.dice)
    in_game = Counter((d.owner, d.value if slot else 0, d.big) for d in game.dice)
    unseen = in_game - on_table
    if unseen.total() != unsure:
        return None
    taken = list(unseen.elements())
    dice = table.dice + tuple(
        PlacedDie(owner, value if slot else game.number, big, 0) for owner, value, big in taken
    )
    return Casino(game.number, game.notes, dice, game.chip_cards)


MOST_READINGS = 5000
"""At most this many ways of reading a casino's dice not read for sure are paid out; where there
are more, what the table changes at payout is not known."""


MOST_TOLD = 4
"""The change at payout is told reading by reading where the readings of a die not read for sure
give at most this many different changes; with more, it is not known (a die of any colour
among six players gave up to 8, 2,500 characters)."""


def has_biggy(owner: int) -> bool:
    """Whether an owner's dice may hold a Biggy: a player's, or Royale's neutral set; never
    the white neutral dice of Las Vegas 2012 or Royale's grey blank dice."""
    return owner >= 0 or owner == NEUTRAL_SET


def _owners_in_play(state: GameState) -> tuple[int, ...]:
    """Every owner whose dice may lie on a casino: the players, the neutral dice where they are
    played, Royale's grey dice, and any owner with a die on a casino."""
    owners = set(range(len(state.players)))
    if state.rules.neutral_dice:
        owners.add(WHITE)
    if state.rules.edition == "royale":
        owners.add(GREY)
    owners.update(d.owner for c in state.casinos for d in c.dice)
    return tuple(sorted(owners))


def _unsure_options(
    reading: UnsureDie, owners: Sequence[int], number: int, biggies: bool
) -> list[tuple[PlacedDie, ...]]:
    """Each thing one die not read for sure may be: nothing, one die (each owner it may belong
    to, regular or, for an owner with a Biggy (`has_biggy`) where Biggies are played, a Biggy;
    on the slot machine any value), or two such dice where it may be two. A die in doubt for
    its pips alone (`UnsureDie.values`) is one regular die showing one of its values."""
    who = owners if reading.owner is None else (reading.owner,)
    if reading.values and number == SLOT_MACHINE:
        return [(PlacedDie(owner, value, False, 0),) for owner in who for value in reading.values]
    values = range(1, 7) if number == SLOT_MACHINE else (number,)
    one = [
        PlacedDie(owner, value, big, 0)
        for owner in who
        for value in values
        for big in ((False, True) if biggies and has_biggy(owner) else (False,))
    ]
    options: list[tuple[PlacedDie, ...]] = [()] + [(die,) for die in one]
    if reading.may_be_two:
        options.extend(itertools.combinations_with_replacement(one, 2))
    return options


def _possible_tables(
    table: Casino, options: Sequence[Sequence[tuple[PlacedDie, ...]]]
) -> Iterator[tuple[tuple[PlacedDie, ...], Casino]]:
    """The casino as it may truly lie: the dice read for sure with each way of reading the
    dice not read for sure, one choice of `options` a die (the same dice once only), each
    with the dice it adds."""
    done: set[tuple[PlacedDie, ...]] = set()
    for choice in itertools.product(*options):
        added = tuple(sorted(die for dice in choice for die in dice))
        if added not in done:
            done.add(added)
            yield added, Casino(table.number, table.notes, table.dice + added, table.chip_cards)


def _change_by_reading(
    state: GameState, table: Casino, game: Casino, seen: SeenCasino, name: _Names
) -> tuple[Sentence, ...] | None:
    """What the table changes at payout, whatever its dice not read for sure are: the change
    where every way of reading them (`_unsure_options`) changes the same; else, for one die
    not read for sure that may be one die at most, the change each reading of it gives (no
    die, a die or Biggy of whom, or, for a slot machine die in doubt for its pips alone, which
    of its likely values; `_by_reading`), where they give at most MOST_TOLD changes. None where
    neither can be said (the change hangs on the value of a die on the slot machine that may
    show any value, on two dice, or on more readings), or the ways are more than
    MOST_READINGS."""
    owners = _owners_in_play(state)
    readings = seen.unsure_readings()
    if not _unsure_may_be_unseen(table, game, readings):
        return None
    options = [_unsure_options(r, owners, table.number, state.rules.biggies) for r in readings]
    if math.prod(len(o) for o in options) > MOST_READINGS:
        return None
    leftovers = state.rules.leftovers
    paid_game = pay_casino(game, leftovers)
    one_die = len(readings) == 1 and not readings[0].may_be_two
    changes: dict[tuple[PlacedDie, ...], tuple[Sentence, ...]] = {}
    for added, possible in _possible_tables(table, options):
        changes[added] = payout_change(pay_casino(possible, leftovers), paid_game, name)
        if not one_die and changes[added] != next(iter(changes.values())):
            return None  # the change hangs on how the dice are read: not known
    if len(set(changes.values())) == 1:
        return next(iter(changes.values()))
    if len(set(changes.values())) > MOST_TOLD:
        return None
    by_value = one_die and bool(readings[0].values) and table.number == SLOT_MACHINE
    return _by_reading(changes, name, by_value)


def _unsure_may_be_unseen(table: Casino, game: Casino, readings: Sequence[UnsureDie]) -> bool:
    """Whether the dice not read for sure may be all the game's dice the camera did not see
    and no difference was claimed for, by the owners they may belong to. Where they may not,
    a die lies there that the camera did not see at all (no difference is claimed while
    unsure dice may be the ones missing), and no reading of the unsure dice gives what the
    table truly shows."""
    held, shown = Counter(d.owner for d in game.dice), Counter(d.owner for d in table.dice)
    unseen = Counter({o: held[o] - shown[o] for o in held if held[o] > shown[o]})
    room = sum(2 if r.may_be_two else 1 for r in readings)
    if not 0 < unseen.total() <= room:
        return True  # nothing missing, or the shortfalls are told as differences
    for reading in readings:
        if reading.owner is not None and unseen[reading.owner] > 0:
            unseen[reading.owner] -= min(unseen[reading.owner], 2 if reading.may_be_two else 1)
    return unseen.total() <= sum(2 if r.may_be_two else 1 for r in readings if r.owner is None)


def _by_reading(
    changes: Mapping[tuple[PlacedDie, ...], tuple[Sentence, ...]],
    name: _Names,
    by_value: bool = False,
) -> tuple[Sentence, ...] | None:
    """For one die not read for sure, the change each reading of it gives: `unsure`, then
    an `if_reading` sentence for each change, with the readings that give it; None where one
    owner's die (or Biggy) gives different changes by its value on the slot machine. With
    `by_value` (a slot machine die in doubt among its likely values alone) each reading is a
    value of its owner's die, and each sentence names the values that give its change."""
    by_die: dict[tuple[int, bool, int] | None, set[tuple[Sentence, ...]]] = {}
    for added, change in changes.items():
        key = (added[0].owner, added[0].big, added[0].value if by_value else 0) if added else None
        by_die.setdefault(key, set()).add(change)
    if any(len(c) > 1 for c in by_die.values()):
        return None
    groups: dict[tuple[Sentence, ...], list[tuple[int, bool, int] | None]] = {}
    for key, (change,) in by_die.items():
        groups.setdefault(change, []).append(key)

    def first(keys: list[tuple[int, bool, int] | None]) -> tuple[int, ...]:
        dice = [k[0] for k in keys if k is not None]
        values = sorted(k[2] for k in keys if k is not None)
        return (0,) if None in keys else (1, *_seated(dice)[:1], *values[:1])

    out = [Sentence.of("unsure", count=1)]
    for change, keys in sorted(groups.items(), key=lambda item: first(item[1])):
        dice = [k for k in keys if k is not None]
        regular = _seated(list(dict.fromkeys(o for o, big, _ in dice if not big)))
        biggy = _seated(list(dict.fromkeys(o for o, big, _ in dice if big)))
        told: dict[str, SentenceValue] = {
            "no_die": int(None in keys),
            "regular": tuple(name(o) for o in regular),
            "biggy": tuple(name(o) for o in biggy),
        }
        if by_value:
            told["values"] = tuple(sorted(v for _, _, v in dice))
        out.append(Sentence.of("if_reading", **told, effect=change))
    return tuple(out)


def check_casino(
    state: GameState, seen: SeenCasino | None, number: int, colours: Mapping[int, str]
) -> CasinoCheck:
    """One casino of the game against what the camera read on it (None: not seen)."""
    game = state.casino(number)
    game_counts = _counted(state, game.dice)
    if seen is None:
        return CasinoCheck(
            number,
            None,
            game_counts,
            0,
            (Sentence.of("not_seen", where=number),),
            (Sentence.of("unseen"),),
        )
    name = _Names(state, colours)
    table = _table_casino(game, seen)
    differences = tuple(_differences(number, table, game, name, seen))
    change: tuple[Sentence, ...] = ()
    leftovers = state.rules.leftovers
    filled = _unsure_as_unseen(table, game, seen.unsure)
    if differences and filled is not None:
        change = payout_change(pay_casino(filled, leftovers), pay_casino(game, leftovers), name)
    elif seen.unsure:
        change = _change_by_reading(state, table, game, seen, name) or (
            Sentence.of("unsure", count=seen.unsure),
        )
    readings = seen.unsure_readings()
    told = [(d.owner, d.biggy_unseen) for d in readings if d.owner is not None]
    return CasinoCheck(
        number,
        _counted(state, table.dice),
        game_counts,
        seen.unsure,
        differences,
        change,
        biggy_doubts=tuple(sorted({owner_key(state, owner) for owner, big in told if big})),
        doubt_owners=tuple(sorted({owner_key(state, owner) for owner, _ in told})),
        doubt_any_owner=len(told) < len(readings),
    )


def _biggy_read_regular(casino: SeenCasino, owner: int) -> SeenCasino:
    """The casino with one of `owner`'s dice read regular for sure taken as not read for sure
    instead (no die, a regular die or a Biggy of `owner`)."""
    i = next(k for k, d in enumerate(casino.dice) if d.owner == owner and not d.big)
    given = casino.unsure_readings()
    return replace(
        casino,
        dice=casino.dice[:i] + casino.dice[i + 1 :],
        unsure=casino.unsure + 1,
        unsure_dice=(*given, UnsureDie(owner, biggy_unseen=True)),
    )


def biggies_unseen_in_doubt(state: GameState, seen: Sequence[SeenCasino]) -> list[SeenCasino]:
    """What the camera read, where a player's Biggy lies on a casino in the game but the
    camera read no Biggy of theirs on any casino, and that casino shows as many of their dice
    as the game holds there (the Biggy counted as one die), every one read regular: one of them
    in doubt (a Biggy under a note's edge, or pressed among dice, may cover no more than a
    regular die), not a difference. At a round's end every die is on a casino, so a Biggy read
    nowhere was read as a regular die or not seen; a Biggy moved, knocked off or added changes
    the count of dice on a casino or shows a Biggy elsewhere, and stays a difference."""
    if not state.rules.biggies:
        return list(seen)
    out = {s.casino: s for s in seen}
    read_big = {d.owner for s in seen for d in s.dice if d.big}
    for casino in state.casinos:
        for die in casino.dice:
            here = out.get(casino.number)
            if not die.big or die.owner in read_big or here is None:
                continue
            held = sum(d.owner == die.owner for d in casino.dice)
            shown = [d for d in here.dice if d.owner == die.owner]
            if len(shown) == held and not any(d.big for d in shown):
                out[casino.number] = _biggy_read_regular(here, die.owner)
    return [out[s.casino] for s in seen]


def check_table(
    state: GameState, seen: Sequence[SeenCasino], colours: Mapping[int, str] | None = None
) -> TableCheck:
    """Every casino of the game (1-6, and the slot machine where it is played) against what the
    camera read, a Biggy read as a regular die taken as in doubt (`biggies_unseen_in_doubt`);
    `colours` (owner to colour word) names owners in the sentences."""
    by_number = {s.casino: s for s in biggies_unseen_in_doubt(state, seen)}
    numbers = range(1, state.rules.casino_count() + 1)
    return TableCheck(
        tuple(check_casino(state, by_number.get(n), n, colours or {}) for n in numbers)
    )
