"""The new-game form follows the companion's one name rule."""

from __future__ import annotations

import pytest

BEN = {"name": "Ben", "colour": "blue"}


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("x" * 25, "1-24 characters"),  # one too long
        ("x" * 900_000, "(900000 characters)"),  # quoted cut short, not echoed whole
        ("Anna\nBen", "U+000A"),  # a line break
        ("Anna\u202e", "U+202E"),  # turns the writing direction of what follows
    ],
)
def test_a_bad_name_is_refused_and_no_game_starts(client, act, name, fragment):
    response = act("new_game", edition="classic", players=[{"name": name, "colour": "red"}, BEN])
    assert response.status_code == 400
    body = response.get_json()
    assert "player names" in body["error"] and fragment in body["error"]
    assert len(body["error"]) < 200
    assert client.get("/api/state").get_json()["game"] is None
    assert client.get("/api/games").get_json() == []


def test_a_name_of_exactly_24_characters_is_taken(client, act):
    name = "Anna-Lena Schmidt-Müller"
    assert len(name) == 24
    response = act("new_game", edition="classic", players=[{"name": name, "colour": "red"}, BEN])
    assert response.status_code == 200, response.get_json()
    assert client.get("/api/games").get_json()[0]["players"] == [name, "Ben"]
