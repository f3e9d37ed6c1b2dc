"""Fixtures for the page's tests: an app on a temporary game file, its client, an action helper."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from web import create_app


@pytest.fixture
def app(tmp_path):
    """The app on a fresh game file, no camera, no PIN, a fixed seed."""
    return create_app({"DB": str(tmp_path / "table.sqlite3"), "SEED": 7, "TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def act(client) -> Callable[..., Any]:
    """Send one action made on the current state; returns the response."""

    def send(action: str, **fields: Any) -> Any:
        base = client.get("/api/state").get_json()["version"]
        return client.post("/api/action", json={"action": action, "base": base} | fields)

    return send


@pytest.fixture
def two_player_game(act) -> Callable[..., Any]:
    """Start a classic game for Anna (red) and Ben (blue) and return the action helper."""
    response = act(
        "new_game",
        edition="classic",
        options={},
        players=[{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}],
    )
    assert response.status_code == 200, response.get_json()
    return act
