"""A Royale game with all 16 tiles, every chance outcome entered by hand: on the page and at the terminal.

The game is first written down as the events a real table would report (deals laid out,
rolls read off the dice, the extra dice as they fell, the Black Box pile turned up). The
same game is then entered through the page's API and typed at the terminal; neither
ever lets chance decide, and both must end exactly where the engine does.
"""

from __future__ import annotations

import random

from companion.choices import legal_choices
from companion.engine import apply
from companion.events import (
    DealRound,
    Event,
    Place,
    PowerPlay,
    ResolvePayout,
    Roll,
    Skip,
    TileDecision,
)
from companion.record import result_summary
from companion.rules import make_rules
from companion.session import GameStore
from companion.simulate import random_deal, random_roll
from companion.state import GameState, Phase, new_game
from companion.terminal import Terminal
from companion.tiles import TILE_NAMES, decision_choices

PLAYERS = ["Anna", "Ben", "Carla"]
# Six tiles a round; both faces of all eight tiles lie out once in the three rounds.
ROUNDS = (
    ("A1", "B1", "C1", "D1", "E1", "F1"),
    ("A2", "B2", "C2", "D2", "G1", "H1"),
    ("E2", "F2", "G2", "H2", "A1", "B1"),
)
# Tiles that ask the table for an outcome or a choice (the others act by themselves).
ASKING = {"A1", "A2", "B1", "B2", "E1", "E2", "F1", "F2", "G1", "G2", "H1", "H2"}
SEED = 3


def start() -> GameState:
    return new_game(make_rules("royale", {"tiles": 6}), PLAYERS)


def table_game(seed: int) -> tuple[list[Event], GameState, set[str]]:
    """The events of one table game (chance read off the table, decisions taken by players)."""
    rng = random.Random(seed)
    state, events, asked = start(), [], set()
    while state.phase is not Phase.OVER:
        if state.phase is Phase.DEAL:
            dealt = random_deal(state, rng)
            event: Event = DealRound(dealt.casinos, tiles=ROUNDS[state.round - 1])
        elif state.phase is Phase.ROLL:
            plays = legal_choices(state)
            event = rng.choice(plays) if plays and rng.random() < 0.5 else random_roll(state, rng)
        elif state.phase is Phase.PAYOUT:
            event = ResolvePayout()
        else:
            if state.phase is Phase.TILE:
                assert state.pending is not None
                asked.add(state.pending.code)
            choices = legal_choices(state)
            assert choices, f"nothing can be entered for {state.phase} {state.pending}"
            event = rng.choice(choices)
        state = apply(state, event)
        events.append(event)
    return events, state, asked


def test_the_table_game_uses_all_16_tiles_and_asks_each_asking_tile():
    events, _final, asked = table_game(SEED)
    dealt = {code for e in events if isinstance(e, DealRound) for code in e.tiles}
    assert dealt == set(TILE_NAMES)
    assert asked == ASKING


# --- the terminal -----------------------------------------------------------------------------


def typed(state: GameState, event: Event) -> list[str]:
    """What a person types at the terminal for `event`."""
    if isinstance(event, DealRound):
        notes = " | ".join(" ".join(str(n // 1000) for n in casino) for casino in event.casinos)
        return [notes, " ".join(event.tiles)]
    if isinstance(event, Roll):
        return [" ".join([*map(str, event.regular), *(f"b{v}" for v in event.biggy)])]
    if isinstance(event, PowerPlay):
        return [f"pp {event.number}{'b' if event.big else ''}"]
    if isinstance(event, Skip):
        return ["skip"]
    if isinstance(event, Place):
        options = [
            c for c in legal_choices(state) if isinstance(c, Place) and c.number == event.number
        ]
        return [str(event.number)] + ([str(options.index(event) + 1)] if len(options) > 1 else [])
    assert isinstance(event, TileDecision) and state.pending is not None
    if state.pending.ask == "extra dice":
        thrown = " ".join(map(str, event.get("dice")))
        if state.pending.code == "B1":
            return [f"{thrown} | {' '.join(map(str, event.get('place')))}"]
        return [thrown]
    if state.pending.code == "G1":
        return [" ".join(str(t // 1000) for t in event.get("pile"))]
    return [str(decision_choices(state).index(event) + 1)]


def test_the_terminal_types_every_outcome_by_hand(tmp_path):
    events, final, _asked = table_game(SEED)
    session = GameStore(tmp_path / "games.sqlite3").new_game(start())
    script = iter(events)
    queue: list[str] = []
    said: list[str] = []

    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if not queue:
            state = session.state
            event = next(script)
            while isinstance(event, ResolvePayout):  # the terminal pays out by itself
                event = next(script)
            queue.extend(typed(state, event))
        return queue.pop(0)

    def fail_rng(*_args):
        raise AssertionError("chance was asked for, but every outcome is typed")

    rng = random.Random(0)
    rng.random = rng.randint = rng.randrange = fail_rng  # type: ignore[method-assign]
    terminal = Terminal(session, ask, said.append, rng, simulate_chance=False, auto=False)
    state = terminal.run()
    assert not [line for line in said if line.startswith("Not allowed")]
    assert state.phase is Phase.OVER
    assert result_summary(state) == result_summary(final)
    # Fifty Fifty and My Choice used to list no choices and ask "which one [1-0]"
    assert not [p for p in prompts if "[1-0]" in p]
    for tile in ("Fifty Fifty", "My Choice", "Jackpot", "Prime Time", "Black Box"):
        assert any(p.startswith(tile) and "'r'" in p for p in prompts), tile
