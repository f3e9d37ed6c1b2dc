"""Why the winner won, said once: the terminal's line and the page's data read the same reason."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.render import render_standings
from companion.rules import make_rules
from companion.standings import WinReason, victory
from companion.state import Phase, new_game
from web.view import tie_break_text

CASES = [
    # Anna has the most money outright
    (((90_000, 20_000), (50_000,), (40_000,)), ("Anna",), WinReason.MONEY, ""),
    # Benno and Carla are level on money; Benno holds more notes
    (
        ((90_000, 10_000), (50_000, 30_000, 20_000), (60_000, 40_000)),
        ("Benno",),
        WinReason.NOTES,
        "(most notes breaks the tie on money)",
    ),
    # Benno and Carla are level on money and notes: they share the win
    (
        ((90_000, 10_000), (50_000, 30_000, 20_000), (50_000, 30_000, 20_000)),
        ("Benno", "Carla"),
        WinReason.SHARED,
        "(equal money and notes: a shared win)",
    ),
]


@pytest.mark.parametrize(("winnings", "won", "reason", "words"), CASES)
def test_the_reason_is_the_same_in_the_terminal_and_on_the_page(winnings, won, reason, words):
    state = new_game(make_rules("classic"), ["Anna", "Benno", "Carla"])
    state = replace(state, phase=Phase.OVER, winnings=winnings)
    result = victory(state)
    assert (result.winners, result.reason) == (won, reason)
    line = render_standings(state).splitlines()[-1]
    assert line == f"Winner: {' and '.join(won)} {words}".rstrip()
    page = tie_break_text(state)
    assert (page["winners"], page["reason"]) == (list(won), reason.value)
    level = [row.player for row in result.level_on_money]
    assert [t["player"] for t in page.get("tied_on_money", [])] == (level if len(level) > 1 else [])
