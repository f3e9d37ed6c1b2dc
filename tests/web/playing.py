"""A helper for the page's API tests: play a game forward through the real API."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def play_to(client: Any, act: Callable[..., Any], phase: str, limit: int = 400) -> dict:
    """Take the first choice offered, or let chance act (a deal, a roll, Rainbow draws), until
    the game reaches `phase`; the game's state then."""
    for _ in range(limit):
        game = client.get("/api/state").get_json()["game"]
        if game["phase"] == phase:
            return game
        if game["choices"] and game["phase"] != "roll":
            response = act("event", event=game["choices"][0]["event"])
        else:
            response = act("simulate")
        assert response.status_code == 200, response.get_json()
    raise AssertionError(f"the game never reached {phase}")
