"""`lasvegas play`: a whole game at the terminal, with typed or simulated rolls."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from companion.choices import legal_choices
from companion.errors import IllegalMove
from companion.events import (
    DealRound,
    Event,
    Place,
    PlayCards,
    PowerPlay,
    ReplaceRainbows,
    Roll,
    Skip,
    TileDecision,
)
from companion.hints import hint, hint_lines, hint_supported
from companion.render import explain_round, plural, render_standings, render_table, step_line
from companion.rules import RAINBOW
from companion.session import GameSession, WriteFailed
from companion.simulate import chance_event, random_choice, random_roll
from companion.state import GameState, Phase
from companion.tile_codes import TileCode
from companion.tiles import decision_choices, tile_name

HELP = (
    "Commands: 'undo', 'redo', 'table', 'hint', 'quit'. Rolls: values like '3 3 5 1 6 2 2 4', with "
    "w3 for a white die, b5 for a Biggy, k2 for a kicker; 'r' rolls at random."
)


class Quit(Exception):
    """The player asked to stop; the game stays as it is."""


@dataclass
class Terminal:
    """The dialogue of one terminal game, reading with `ask` and writing with `say`."""

    session: GameSession
    ask: Callable[[str], str]
    say: Callable[[str], None]
    rng: random.Random
    simulate_chance: bool
    auto: bool
    verbose: bool = True  # the table after every step; else one line a step

    @property
    def state(self) -> GameState:
        return self.session.state

    def run(self) -> GameState:
        """Play until the game ends or the players quit (the caller says where it is kept)."""
        if self.verbose:
            self.say(render_table(self.state))
        while self.state.phase is not Phase.OVER:
            try:
                event = self.next_event()
            except Quit:
                return self.state
            except IllegalMove as error:  # a typed roll or deal that cannot be read
                self.say(f"Not allowed - {error}")
                continue
            if event is None:
                continue
            try:
                before = self.state
                self.session.apply(event)
            except IllegalMove as error:
                self.say(f"Not allowed - {error}")
                continue
            except WriteFailed as error:
                self.say(f"Not saved - {error}")
                if self.auto:  # nobody at the keyboard to free space and go on
                    self.say("Stopped; the game is saved as it was before this step.")
                    return self.state
                continue
            self.report(before, event)
        return self.state

    def report(self, before: GameState, event: Event) -> None:
        """Tell what the step did: the table after it, or one line when not verbose; then
        the payout when the step ended a round."""
        state = self.state
        if not self.verbose:
            line = step_line(before, event, state)
            if line is not None:
                self.say(line)
        elif isinstance(event, Roll):
            self.say(render_table(state))
        elif isinstance(event, PlayCards):
            laid = " ".join(f"{n}x{d}" if d == 2 else str(n) for n, d in event.cards)
            self.say(f"{before.to_move()} lays out {laid}.")
            self.say(render_table(state))
        elif isinstance(event, Place | Skip):
            what = "skips" if isinstance(event, Skip) else f"places the {event.number}s"
            if isinstance(event, Place) and event.slot:
                what += " on the slot machine"
            self.say(f"{before.to_move()} {what}.")
            self.say(render_table(state))
        elif isinstance(event, TileDecision | PowerPlay):
            self.say(render_table(state))
        elif isinstance(event, DealRound):
            self.say(f"Round {state.round} dealt.")
            self.say(render_table(state))
        if len(state.payouts) > len(before.payouts):
            self.say(explain_round(state.payouts[-1], state))
            self.say(render_standings(state))

    # --- reading input -----------------------------------------------------

    def read(self, prompt: str) -> str:
        try:
            text = self.ask(prompt).strip()
        except EOFError:
            raise Quit from None
        command = text.lower()
        if command in ("quit", "q", "exit"):
            raise Quit
        return text

    def command(self, text: str) -> bool:
        """Handle undo/redo/help/table; True when the text was such a command."""
        command = text.lower()
        try:
            if command == "undo":
                self.session.undo()
                self.say(render_table(self.state))
            elif command == "redo":
                self.session.redo()
                self.say(render_table(self.state))
            elif command in ("help", "?"):
                self.say(HELP)
            elif command == "table":
                self.say(render_table(self.state))
            elif command == "hint":
                self.show_hint()
            else:
                return False
        except IllegalMove as error:
            self.say(f"Not possible - {error}")
        except WriteFailed as error:
            self.say(f"Not saved - {error}")
        return True

    def show_hint(self) -> None:
        """Each choice's chance to win and money this round, for the player to move."""
        state = self.state
        if not hint_supported(state):
            self.say("No hint: hints do not cover this game's variants yet.")
            return
        if state.phase not in (Phase.DEAL, Phase.ROLL, Phase.CHOOSE):
            self.say("No hint: nobody decides now.")
            return
        # A separate generator: asking for a hint leaves the seeded throws as they were.
        result = hint(state, random.Random(len(self.session.events)))
        for line in hint_lines(state, result):
            self.say(line)

    def next_event(self) -> Event | None:
        state = self.state
        if state.phase is Phase.PAYOUT:
            return legal_choices(state)[0]
        if state.phase is Phase.TILE:
            if self.auto or self.simulate_chance and is_chance(state):
                return chance_event(state, self.rng) or random_choice(state, self.rng)
            return self.tile_decision()
        if state.phase is Phase.CARDS:
            if self.auto:
                return random_choice(state, self.rng)
            text = self.read(
                f"{state.to_move()} lays out cards ('5 5 5', '6x2' for a double card, "
                "'c6:pink' takes a chip card): "
            )
            return None if self.command(text) else parse_cards(text)
        if state.phase is Phase.CHOOSE:
            if self.auto:
                return random_choice(state, self.rng)
            return self.choose()
        if state.phase is Phase.ROLL and legal_choices(state):  # the Power Play token
            if self.auto:
                return chance_event(state, self.rng) or random_choice(state, self.rng)
            text = self.read(
                f"{state.to_move()} holds the Power Play token: 'pp 3' turns a die to 3 and "
                "places it ('pp 3b' the Biggy), Enter rolls: "
            )
            if self.command(text):
                return None
            if text.lower().startswith("pp"):
                return parse_power_play(text)
        if self.simulate_chance:
            return chance_event(state, self.rng) or random_roll(state, self.rng)
        return self.typed_chance()

    def typed_chance(self) -> Event | None:
        state = self.state
        if state.phase is Phase.ROLL:
            held = state.supplies[state.current]
            text = self.read(
                f"{state.to_move()} rolls {plural(held.total(), 'die', 'dice')} (values, or 'r'): "
            )
            if self.command(text):
                return None
            if text.lower() == "r":
                return chance_event(state, self.rng)
            return parse_roll(text)
        what = "deal" if state.phase is Phase.DEAL else "Rainbow replacement"
        text = self.read(
            f"{what}: notes per casino in thousands, casinos separated by '|' "
            "(e.g. '60 | 20 40 | 50 | 30 30 | 90 | 10 40'), or 'r' to draw at random: "
        )
        if self.command(text):
            return None
        if text.lower() == "r":
            return chance_event(state, self.rng)
        deck = {value for value, _ in state.rules.deck}
        notes = parse_notes(text, state.rules.casino_count(), deck)
        if state.phase is Phase.RAINBOW:
            return ReplaceRainbows(notes)
        chips: tuple[str, ...] = ()
        if state.rules.chip_cards:
            chips = tuple(self.read("chip card colours for casinos 1-6: ").split())
        neutral: tuple[int, ...] = ()
        count = state.rules.neutral_at_round_start(len(state.players))
        if count:
            neutral = parse_roll(
                self.read(f"the {count} neutral dice rolled at round start: ")
            ).regular
            if state.rules.edition == "royale":
                big = parse_roll(self.read("... and the neutral Biggy: ")).regular
                neutral = neutral + big
        tiles: tuple[str, ...] = ()
        if state.rules.tiles:
            codes = self.read(
                f"tiles beside casinos 1-{state.rules.tiles} (codes such as A2 C1 D1): "
            )
            tiles = tuple(code.upper() for code in codes.split())
        return DealRound(notes, chips, neutral, tiles)

    def tile_decision(self) -> Event | None:
        """Ask for the outcome of the pending tile."""
        pending = self.state.pending
        assert pending is not None
        name = f"{tile_name(pending.code)} (casino {pending.casino})"
        if pending.ask == "extra dice" and pending.code is not TileCode.PRIME_TIME:
            text = self.read(f"{name}: the two extra dice ('3 4', or 'r'): ")
            if self.command(text):
                return None
            if text.lower() == "r":
                return chance_event(self.state, self.rng)
            return TileDecision(pending.casino, (("dice", parse_roll(text).regular),))
        if pending.code is TileCode.PRIME_TIME:
            text = self.read(
                f"{name}: {self.state.players[pending.seat]}'s two extra dice and the ones placed, "
                "e.g. '3 5 | 5' ('r' for random): "
            )
            if self.command(text):
                return None
            if text.lower() == "r":
                return chance_event(self.state, self.rng)
            thrown, _, placed = text.partition("|")
            return TileDecision(
                pending.casino,
                (
                    ("dice", parse_roll(thrown).regular),
                    ("place", parse_roll(placed).regular if placed.strip() else ()),
                ),
            )
        if pending.code is TileCode.BLACK_BOX:
            text = self.read(
                f"{name}: tokens in the pile {self.state.players[pending.seat]} chose, in thousands "
                "(0 for an empty token), e.g. '60 0', or 'r': "
            )
            if self.command(text):
                return None
            if text.lower() == "r":
                return chance_event(self.state, self.rng)
            tokens = text.replace(",", " ").split()
            if not all(t.isdigit() for t in tokens):
                raise IllegalMove("typed pile", f"type token values in thousands, got {text!r}")
            pile = tuple(int(t) * 1000 for t in tokens)
            return TileDecision(pending.casino, (("pile", pile),))
        options = decision_choices(self.state)
        for index, option in enumerate(options, start=1):
            described = ", ".join(
                f"{k} {list(v) if isinstance(v, tuple) else v}" for k, v in option.choice
            )
            self.say(f"  {index}. {described}")
        pick = self.read(f"{name}: which one [1-{len(options)}]: ")
        if self.command(pick):
            return None
        if pick.isdigit() and 1 <= int(pick) <= len(options):
            return options[int(pick) - 1]
        raise IllegalMove("typed decision", f"type a number from 1 to {len(options)}")

    def choose(self) -> Event | None:
        state = self.state
        choices = legal_choices(state)
        numbers = sorted({c.number for c in choices if isinstance(c, Place)})
        hint = "number to place"
        if state.rules.slot_machine:
            hint += ", '3s' for the slot machine"
        if any(isinstance(c, Skip) for c in choices):
            hint += ", 'skip'"
        text = self.read(f"{state.to_move()}: {hint} {numbers}: ")
        if self.command(text):
            return None
        if text.lower() == "skip":
            return Skip()
        slot = text.lower().endswith("s")
        digits = text[:-1] if slot else text
        if not digits.isdigit():
            self.say(f"Type one of {numbers}, or 'help'.")
            return None
        options = [
            c
            for c in choices
            if isinstance(c, Place) and c.number == int(digits) and c.slot == slot
        ]
        if not options:
            return Place(int(digits), slot)  # the engine explains why it is not allowed
        if len(options) == 1:
            return options[0]
        for index, option in enumerate(options, start=1):
            self.say(f"  {index}. {describe_place(state, option)}")
        pick = self.read(f"which one [1-{len(options)}]: ")
        if pick.isdigit() and 1 <= int(pick) <= len(options):
            return options[int(pick) - 1]
        return None


def is_chance(state: GameState) -> bool:
    """Whether the pending tile waits for chance: thrown extra dice or a face-down pile."""
    pending = state.pending
    return pending is not None and (
        pending.ask == "extra dice" or pending.code is TileCode.BLACK_BOX
    )


def describe_place(state: GameState, place: Place) -> str:
    """One line telling what a placement does beyond placing the dice."""
    where = "the slot machine" if place.slot else f"casino {place.number}"
    parts = [f"place the {place.number}s on {where}"]
    for kick in place.kicks:
        size = "Biggy" if kick.big else "die"
        parts.append(f"kick a {size} of {state.owner_name(kick.owner)}")
    if place.chip:
        parts.append(f"take the {place.chip} chip card")
    return ", ".join(parts)


def parse_roll(text: str) -> Roll:
    """'3 3 5 w6 b2 k4' (or '3356') into a Roll; IllegalMove on anything else."""
    kinds: dict[str, list[int]] = {"": [], "w": [], "b": [], "k": []}
    tokens = text.replace(",", " ").split()
    if len(tokens) == 1 and tokens[0].isdigit():
        tokens = list(tokens[0])
    for token in tokens:
        prefix = token[0].lower() if token[0].isalpha() else ""
        value = token[len(prefix) :]
        if prefix not in kinds or not value.isdigit():
            raise IllegalMove("typed roll", f"cannot read {token!r}; {HELP}")
        kinds[prefix].append(int(value))
    return Roll(tuple(kinds[""]), tuple(kinds["w"]), tuple(kinds["b"]), tuple(kinds["k"]))


def parse_power_play(text: str) -> PowerPlay:
    """'pp 3' or 'pp 3b' into a Power Play move."""
    move = text[2:].strip().lower()
    big = move.endswith("b")
    digits = move.rstrip("b").strip()
    if not digits.isdigit():
        raise IllegalMove("typed Power Play", "type 'pp 3' (or 'pp 3b' for the Biggy)")
    return PowerPlay(int(digits), big)


def parse_cards(text: str) -> PlayCards:
    """'5 5 6x2 c6:pink' into dice cards (number, dice) and chip cards taken."""
    cards: list[tuple[int, int]] = []
    chips: list[tuple[int, str]] = []
    for token in text.replace(",", " ").split():
        card = re.fullmatch(r"(\d)(x2|d)?", token.lower())
        chip = re.fullmatch(r"c(\d):(\w+)", token.lower())
        if card:
            cards.append((int(card[1]), 2 if card[2] else 1))
        elif chip:
            chips.append((int(chip[1]), chip[2]))
        else:
            raise IllegalMove("typed cards", f"cannot read {token!r}; e.g. '5 5 6x2'")
    return PlayCards(tuple(cards), tuple(chips))


def parse_notes(text: str, casinos: int, deck: set[int]) -> tuple[tuple[int, ...], ...]:
    """'60 | 20 40 | ...' (thousands, 'R' for a Rainbow card) into notes per casino.

    A number that is itself a value of the edition's deck (the Custom edition's
    card ranks) is taken as it is; any other is read in thousands.
    """
    groups = [g.split() for g in text.split("|")]
    if len(groups) != casinos:
        raise IllegalMove("typed deal", f"notes for {casinos} casinos expected, got {len(groups)}")
    result = []
    for group in groups:
        notes = []
        for token in group:
            if token.lower() in ("r", "rainbow"):
                notes.append(RAINBOW)
            elif token.isdigit():
                value = int(token)
                notes.append(value if value in deck else value * 1000)
            else:
                raise IllegalMove("typed deal", f"cannot read note {token!r}")
        result.append(tuple(notes))
    return tuple(result)
