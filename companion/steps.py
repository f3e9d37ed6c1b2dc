"""Small helpers shared by the rule modules."""

from __future__ import annotations

from typing import Any

from companion.errors import IllegalMove
from companion.state import GameState, Phase


def replace_at(items: tuple, index: int, value: Any) -> tuple:
    """A copy of the tuple with one item replaced."""
    return items[:index] + (value,) + items[index + 1 :]


def expect_phase(state: GameState, phase: Phase, event: Any) -> None:
    """Refuse an event the game is not waiting for."""
    if state.phase is not phase:
        raise IllegalMove(
            "turn order",
            f"a {event.kind} event is not possible now; the game waits for {state.phase.value}",
        )
