"""Game records: a whole game as readable JSON, exported from events and replayed into them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.engine import apply
from companion.errors import IllegalMove
from companion.events import (
    SLOT_MACHINE,
    SPECIAL_KINDS,
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
    TableDie,
    TileDecision,
    tile_decision,
)
from companion.payout import payout_to_dict
from companion.rules import RAINBOW, make_rules
from companion.standings import standings, winners
from companion.state import IMAGINARY_OWNERS, GameState, Phase, new_game
from companion.tiles import TILES

FORMAT = "lasvegas-record/1"


class RecordError(ValueError):
    """A record that cannot be replayed: malformed, or breaking a rule at a numbered step."""

    def __init__(self, message: str, step: int | None = None, rule: str | None = None) -> None:
        super().__init__(message)
        self.step = step
        self.rule = rule


@dataclass(frozen=True, slots=True)
class Replay:
    """A replayed record: the setup state, every event, and the state after the last one."""

    initial: GameState
    events: tuple[Event, ...]
    final: GameState


# --- writing --------------------------------------------------------------


def _note_out(note: int) -> int | str:
    return "rainbow" if note == RAINBOW else note


def _casino_key(number: int) -> str:
    return "slot" if number == SLOT_MACHINE else str(number)


def _owner_out(state: GameState, owner: int) -> str:
    return state.owner_name(owner)


def _round_entry(event: DealRound) -> dict[str, Any]:
    """A round as the record starts it: the notes dealt, chip cards, start dice and tiles."""
    entry: dict[str, Any] = {
        "casinos": {
            _casino_key(n): [_note_out(v) for v in notes]
            for n, notes in enumerate(event.casinos, start=1)
        },
        "turns": [],
    }
    if event.chip_cards:
        entry["chip_cards"] = {str(n): c for n, c in enumerate(event.chip_cards, start=1)}
    if event.neutral_start:
        entry["neutral_start"] = list(event.neutral_start)
    if event.tiles:
        entry["tiles"] = list(event.tiles)
    return entry


def _roll_turn(state: GameState, event: Roll) -> dict[str, Any]:
    """A turn as the record starts it with a roll: the regular dice, then the other kinds rolled."""
    turn: dict[str, Any] = {"player": state.to_move(), "roll": list(event.regular)}
    for kind in SPECIAL_KINDS:
        if event.of(kind):
            turn[kind.value] = list(event.of(kind))
    return turn


def _add_place(turn: dict[str, Any], state: GameState, event: Place) -> None:
    """The placement that ends a rolled turn: number, slot machine, kicks and chip card."""
    turn["place"] = event.number
    if event.slot:
        turn["slot"] = True
    if event.kicks:
        turn["kick"] = [{"owner": _owner_out(state, k.owner), "big": k.big} for k in event.kicks]
    if event.chip is not None:
        turn["chip"] = event.chip


def _add_tile_choice(
    current_round: dict[str, Any] | None,
    turn: dict[str, Any] | None,
    state: GameState,
    event: TileDecision,
) -> None:
    """A tile decision: kept with the round when taken at round end, else with the turn."""
    choice = {k: list(v) if isinstance(v, tuple) else v for k, v in event.choice}
    key = TILES[state.pending.code].record_key if state.pending is not None else ""
    if key:  # a decision taken at round end, before payout
        assert current_round is not None
        current_round[key] = choice
        return
    assert turn is not None
    if "tile" in turn:  # a second decision in the same turn (My Choice)
        earlier = turn["tile"] if isinstance(turn["tile"], list) else [turn["tile"]]
        turn["tile"] = earlier + [choice]
    else:
        turn["tile"] = choice


def _cards_turn(state: GameState, event: PlayCards) -> dict[str, Any]:
    """A card game turn: the cards laid out and the chip cards taken."""
    turn: dict[str, Any] = {"player": state.to_move(), "cards": [list(c) for c in event.cards]}
    if event.chips:
        turn["chips"] = [list(c) for c in event.chips]
    return turn


def record_from_events(initial: GameState, events: Iterable[Event]) -> dict[str, Any]:
    """The JSON record of a game (finished or running) from its setup and events."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "edition": initial.rules.edition,
        "options": initial.rules.options(),
        "players": list(initial.players),
        "start_player": initial.players[initial.start_player],
        "rounds": [],
    }
    state = initial
    current_round: dict[str, Any] | None = None
    turn: dict[str, Any] | None = None
    for event in events:
        match event:
            case DealRound():
                current_round = _round_entry(event)
                record["rounds"].append(current_round)
            case Roll() | PowerPlay() | PlayCards():
                assert current_round is not None
                turn = _turn_entry(state, event)
                current_round["turns"].append(turn)
            case TileDecision():
                _add_tile_choice(current_round, turn, state, event)
            case Place():
                assert turn is not None
                _add_place(turn, state, event)
            case Skip():
                assert turn is not None
                turn["skip"] = True
            case ReplaceRainbows():
                assert current_round is not None
                current_round["rainbow"] = {
                    _casino_key(n): [_note_out(v) for v in draws]
                    for n, draws in enumerate(event.draws, start=1)
                    if draws
                }
            case CorrectCasino():
                assert current_round is not None
                current_round.setdefault("corrections", []).append(
                    _correction_out(state, event, len(current_round["turns"]))
                )
            case ResolvePayout() if event.slot_choices:
                assert current_round is not None
                current_round["slot_choices"] = list(event.slot_choices)
        state = apply(state, event)
    if state.phase is Phase.OVER:
        record["result"] = result_summary(state)
    return record


def _turn_entry(state: GameState, event: Roll | PowerPlay | PlayCards) -> dict[str, Any]:
    """The record's entry for the event that starts a turn."""
    match event:
        case Roll():
            return _roll_turn(state, event)
        case PowerPlay():
            power_play = {"number": event.number, "big": event.big}
            return {"player": state.to_move(), "power_play": power_play}
        case PlayCards():
            return _cards_turn(state, event)


def _correction_out(state: GameState, event: CorrectCasino, turns: int) -> dict[str, Any]:
    """A correction as the record lists it: after which turn (none: before the payout), the
    casino, and each die lying there by owner's name."""
    entry: dict[str, Any] = {} if state.phase is Phase.PAYOUT else {"after_turn": turns}
    dice = []
    for die in event.dice:
        out: dict[str, Any] = {"owner": _owner_out(state, die.owner), "big": die.big}
        dice.append(out if die.value is None else out | {"value": die.value})
    casino = "slot" if event.casino == SLOT_MACHINE else event.casino
    return entry | {"casino": casino, "dice": dice}


def result_summary(state: GameState) -> dict[str, Any]:
    """Standings, winners and every round's payout explanation, JSON-ready."""
    return {
        "standings": [
            {
                "player": row.player,
                "money": row.money,
                "notes": row.notes,
                "note_money": row.note_money,
                "chip_bonus": row.chip_bonus,
                "token_money": row.token_money,
            }
            for row in standings(state)
        ],
        "winners": list(winners(state)) if state.phase is Phase.OVER else [],
        "finished": state.phase is Phase.OVER,
        "rounds": [payout_to_dict(p, state.owner_name) for p in state.payouts],
    }


# --- reading --------------------------------------------------------------


def _need(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise RecordError(f"{where}: missing {key!r}")
    if not isinstance(data[key], kind) or isinstance(data[key], bool) and kind is not bool:
        raise RecordError(f"{where}: {key!r} has the wrong type ({type(data[key]).__name__})")
    return data[key]


def _flag(data: dict[str, Any], key: str, where: str) -> bool:
    """A true/false entry (false when absent); text such as "no" is refused, not taken as true."""
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise RecordError(f"{where}: {key!r} must be true or false, got {value!r:.40}")
    return value


def _need_list(data: dict[str, Any], key: str, where: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise RecordError(f"{where}: {key!r} must be a list")
    return value


def _note_in(value: Any, where: str) -> int:
    if value == "rainbow":
        return RAINBOW
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    raise RecordError(f"{where}: {value!r} is not a note value")


def _values(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise RecordError(f"{where}: expected a list of die values, got {value!r}")
    return tuple(value)


def _per_casino(data: Any, count: int, where: str) -> tuple[tuple[int, ...], ...]:
    if not isinstance(data, dict):
        raise RecordError(f"{where}: expected an object keyed by casino")
    keys = {_casino_key(n) for n in range(1, count + 1)}
    unknown = set(data) - keys
    if unknown:
        raise RecordError(f"{where}: unknown casinos {sorted(unknown)}")
    result = []
    for number in range(1, count + 1):
        notes = data.get(_casino_key(number), [])
        if not isinstance(notes, list):
            raise RecordError(f"{where}: casino {_casino_key(number)} must list notes")
        result.append(tuple(_note_in(v, f"{where}, casino {number}") for v in notes))
    return tuple(result)


def _chip_in(value: Any, where: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise RecordError(f"{where}: 'chip' must be a chip colour, got {value!r:.40}")
    return value


def _owner_in(state: GameState, name: Any, where: str) -> int:
    for owner, label in IMAGINARY_OWNERS.items():
        if name == label:
            return owner
    if name in state.players:
        return state.players.index(name)
    raise RecordError(f"{where}: {name!r} is neither a player nor 'white'")


def _corrections_in(
    data: dict[str, Any], turns: int, where: str
) -> dict[int | None, list[dict[str, Any]]]:
    """A round's corrections, checked for shape, by the turn they follow (None: the payout)."""
    listed = _need_list(data, "corrections", where)
    grouped: dict[int | None, list[dict[str, Any]]] = {}
    for index, entry in enumerate(listed, start=1):
        cw = f"{where}, correction {index}"
        if not isinstance(entry, dict):
            raise RecordError(f"{cw}: expected an object with casino and dice")
        after = entry.get("after_turn")
        if after is not None and (
            not isinstance(after, int) or isinstance(after, bool) or not 0 <= after <= turns
        ):
            raise RecordError(
                f"{cw}: 'after_turn' must be a turn of this round, 0-{turns}, got {after!r:.40}"
            )
        grouped.setdefault(after, []).append(entry)
    return grouped


def _correction_in(state: GameState, entry: dict[str, Any], where: str) -> CorrectCasino:
    """A CorrectCasino event from a record's correction entry."""
    casino = entry.get("casino")
    if casino == "slot":
        casino = SLOT_MACHINE
    elif not isinstance(casino, int) or isinstance(casino, bool):
        raise RecordError(f"{where}: 'casino' must be 1-6 or \"slot\", got {casino!r:.40}")
    raw = _need(entry, "dice", list, where)
    dice = []
    for die in raw:
        if not isinstance(die, dict):
            raise RecordError(f"{where}: each die is an object with an owner, got {die!r:.40}")
        value = die.get("value")
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise RecordError(f"{where}: a die's 'value' must be 1-6, got {value!r:.40}")
        dice.append(
            TableDie(_owner_in(state, die.get("owner"), where), _flag(die, "big", where), value)
        )
    return CorrectCasino(casino, tuple(dice))


def _setup(record: Any) -> GameState:
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    if record.get("format", FORMAT) != FORMAT:
        shown = repr(record["format"])[:60]
        raise RecordError(f"record: format {shown} is not one this companion reads ({FORMAT!r})")
    edition = _need(record, "edition", str, "record")
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("record: 'options' must be an object")
    players = _need(record, "players", list, "record")
    if not all(isinstance(p, str) for p in players):
        raise RecordError("record: players must be names")
    start = record.get("start_player", players[0] if players else None)
    try:
        rules = make_rules(edition, options)
        if start not in players:
            raise RecordError(f"record: start player {start!r} is not among the players")
        return new_game(rules, players, players.index(start))
    except IllegalMove as error:
        raise RecordError(f"record setup: {error}", rule=error.rule) from None


class _Replayer:
    """Plays a record's steps in order, keeping the state, the events and the step number."""

    def __init__(self, initial: GameState) -> None:
        self.state = initial
        self.events: list[Event] = []
        self.step = 0

    def play(self, event: Event, where: str) -> None:
        """Apply one event; RecordError names the step and the rule it breaks."""
        self.step += 1
        try:
            self.state = apply(self.state, event)
        except IllegalMove as error:
            raise RecordError(
                f"step {self.step} ({where}): {error}", self.step, error.rule
            ) from None
        self.events.append(event)

    def decide(self, choice: Any, where: str, what: str) -> None:
        """Play the decision the record gives for the tile that waits."""
        assert self.state.pending is not None
        try:
            decision = tile_decision(self.state.pending.casino, choice)
        except IllegalMove as error:
            raise RecordError(f"{where}: {error}") from None
        self.play(decision, what)

    def tile_step(self, turn: dict[str, Any], where: str) -> None:
        """The decision of the tile a placement activated, when the record gives it."""
        given = turn.get("tile", [])
        for choice in given if isinstance(given, list) else [given]:
            if self.state.phase is not Phase.TILE or self.state.pending is None:
                raise RecordError(f"{where}: a tile decision is given but no tile waits for one")
            self.decide(choice, where, f"{where}, tile")

    def correct(
        self, corrections: dict[int | None, list[dict[str, Any]]], after: int | None, where: str
    ) -> None:
        """Play a round's corrections listed after this turn (None: before the payout)."""
        for entry in corrections.pop(after, []):
            cw = f"{where}, correction" + (f" after turn {after}" if after is not None else "")
            self.play(_correction_in(self.state, entry, cw), cw)

    def round(self, data: Any, where: str, count: int) -> bool:
        """Deal a round, play its turns and the decisions at its end; True once paid out."""
        if not isinstance(data, dict):
            raise RecordError(f"{where}: expected an object")
        self.play(_deal_from(data, where, count), f"{where}, deal")
        turns = data.get("turns", [])
        if not isinstance(turns, list):
            raise RecordError(f"{where}: turns must be a list")
        corrections = _corrections_in(data, len(turns), where)

        for turn_no, turn in enumerate(turns, start=1):
            self.correct(corrections, turn_no - 1, where)
            if not self.turn(turn, f"{where}, turn {turn_no}"):
                break  # the record ends mid-turn: rolled, not yet placed
        else:
            self.correct(corrections, len(turns), where)
        return self.round_end(data, where, count, corrections)

    def turn(self, turn: Any, tw: str) -> bool:
        """Play one turn; False when the record stops after the roll."""
        if not isinstance(turn, dict):
            raise RecordError(f"{tw}: expected an object")
        self.check_turn_order(turn, tw)
        if self.state.phase is Phase.CARDS:
            self.play(_cards_from(turn, tw), f"{tw}, cards")
            return True
        if "power_play" in turn:
            move = turn["power_play"]
            if not isinstance(move, dict):
                raise RecordError(f"{tw}: power_play is an object with number and big")
            number = _need(move, "number", int, tw)
            self.play(PowerPlay(number, _flag(move, "big", tw)), f"{tw}, Power Play")
            self.tile_step(turn, tw)
            return True
        roll = Roll(
            _values(_need(turn, "roll", list, tw), tw),
            **{kind.value: _values(turn.get(kind.value, []), tw) for kind in SPECIAL_KINDS},
        )
        self.play(roll, f"{tw}, roll")
        if _flag(turn, "skip", tw):
            self.play(Skip(), f"{tw}, skip")
            return True
        if "place" not in turn:
            return False
        self.play(self.place_from(turn, tw), f"{tw}, place")
        self.tile_step(turn, tw)
        return True

    def check_turn_order(self, turn: dict[str, Any], tw: str) -> None:
        """Refuse a turn when no turn is possible or another player is to move."""
        if self.state.phase not in (Phase.ROLL, Phase.CARDS):
            raise RecordError(
                f"step {self.step + 1} ({tw}): no turn is possible now; every die is placed",
                self.step + 1,
                "turn order",
            )
        player = _need(turn, "player", str, tw)
        if player != self.state.to_move():
            raise RecordError(
                f"step {self.step + 1} ({tw}): it is {self.state.to_move()}'s turn, not {player}'s",
                self.step + 1,
                "turn order",
            )

    def place_from(self, turn: dict[str, Any], tw: str) -> Place:
        """The placement a turn records, kicks named by their owners."""
        number = _need(turn, "place", int, tw)
        kicks = turn.get("kick", [])
        if not isinstance(kicks, list) or not all(isinstance(k, dict) for k in kicks):
            raise RecordError(f"{tw}: 'kick' must list objects with an owner")
        return Place(
            number=number,
            slot=_flag(turn, "slot", tw),
            kicks=tuple(
                Kick(_owner_in(self.state, k.get("owner"), tw), _flag(k, "big", tw)) for k in kicks
            ),
            chip=_chip_in(turn.get("chip"), tw),
        )

    def round_end(
        self,
        data: dict[str, Any],
        where: str,
        count: int,
        corrections: dict[int | None, list[dict[str, Any]]],
    ) -> bool:
        """Round-end tile decisions, Rainbow replacements, the corrections left and the payout;
        True once paid out."""
        while self.state.phase is Phase.TILE and self.state.pending is not None:
            key = TILES[self.state.pending.code].record_key
            if not key or key not in data:
                break
            self.decide(data[key], where, f"{where}, {key}")
        if self.state.phase is Phase.RAINBOW and "rainbow" in data:
            draws = _per_casino(data["rainbow"], count, f"{where}, rainbow")
            self.play(ReplaceRainbows(draws), f"{where}, rainbow replacement")
        if None in corrections and self.state.phase is not Phase.PAYOUT:
            raise RecordError(
                f"{where}: a correction without 'after_turn' comes just before the payout, but "
                f"the round has not come to it ({self.state.phase.value} pending)"
            )
        self.correct(corrections, None, where)
        if corrections:
            after = min(k for k in corrections if k is not None)
            raise RecordError(
                f"{where}: a correction follows turn {after}, but the record ends before it"
            )
        if self.state.phase is Phase.PAYOUT:
            raw_choices = data.get("slot_choices", [])
            if not isinstance(raw_choices, list):
                raise RecordError(f"{where}: slot_choices must be a list of notes")
            choices = tuple(_note_in(v, where) for v in raw_choices)
            self.play(ResolvePayout(choices), f"{where}, payout")
            return True
        return False


def _deal_from(data: dict[str, Any], where: str, count: int) -> DealRound:
    """The deal a round records."""
    chips = data.get("chip_cards", {})
    if not isinstance(chips, dict):
        raise RecordError(f"{where}: chip_cards must be an object keyed by casino")
    return DealRound(
        casinos=_per_casino(_need(data, "casinos", dict, where), count, where),
        chip_cards=tuple(str(chips[k]) for k in sorted(chips, key=str)),
        neutral_start=_values(data.get("neutral_start", []), where),
        tiles=tuple(str(t) for t in _need_list(data, "tiles", where)),
    )


def _cards_from(turn: dict[str, Any], tw: str) -> PlayCards:
    """The cards and chip cards a card game turn records."""
    raw_cards = _need(turn, "cards", list, tw)
    raw_chips = turn.get("chips", [])
    if not isinstance(raw_chips, list) or not all(
        isinstance(c, list) and len(c) == 2 for c in raw_cards + raw_chips
    ):
        raise RecordError(f"{tw}: cards are [number, dice] and chips [casino, colour]")
    cards = tuple(_values(c, tw) for c in raw_cards)
    chips_taken = tuple((_values(c[:1], tw)[0], str(c[1])) for c in raw_chips)
    return PlayCards(cards, chips_taken)  # type: ignore[arg-type]


def _check_result(record: dict[str, Any], final: GameState) -> None:
    """Refuse a record whose stored standings or winners differ from the replay."""
    expected = record.get("result")
    if expected is not None and not isinstance(expected, dict):
        raise RecordError("record: 'result' must be an object")
    if expected is None or final.phase is not Phase.OVER:
        return
    got = result_summary(final)
    stored = expected.get("standings")
    if isinstance(stored, list):
        replayed = [
            {key: row.get(key) for key in want} if isinstance(want, dict) else row
            for row, want in zip(got["standings"], stored, strict=False)
        ]
        if replayed != stored:
            raise RecordError(
                f"record: the stored standings {stored} differ from the replay {replayed}",
                rule="result",
            )
    if "winners" in expected and expected["winners"] != got["winners"]:
        raise RecordError(
            f"record: the stored winners {expected['winners']} differ from the replay "
            f"{got['winners']}",
            rule="result",
        )


def replay_record(record: Any) -> Replay:
    """Check every step of a record against the rules; RecordError names the first bad step."""
    initial = _setup(record)
    rounds = _need(record, "rounds", list, "record")
    replayer = _Replayer(initial)
    count = initial.rules.casino_count()
    for round_no, data in enumerate(rounds, start=1):
        where = f"round {round_no}"
        if not replayer.round(data, where, count) and round_no < len(rounds):
            raise RecordError(
                f"{where}: the round is not finished ({replayer.state.phase.value} pending) "
                "but later rounds follow"
            )
    _check_result(record, replayer.state)
    return Replay(initial, tuple(replayer.events), replayer.state)
