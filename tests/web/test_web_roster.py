"""The roster of players with their usual colours (/api/roster): added, renamed, recoloured
and removed on the page, kept in the game file, and offered on the new-game form."""

from __future__ import annotations

import sqlite3

from companion.state import MAX_NAME
from web import create_app

PLAYERS = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]


def _roster(client) -> list[tuple[str, str, int]]:
    data = client.get("/api/roster").get_json()
    return [(p["name"], p["colour"], p["games"]) for p in data["roster"]]


def _start(act, players=PLAYERS) -> None:
    assert act("new_game", edition="classic", options={}, players=players).status_code == 200


def test_the_roster_starts_from_the_games_played(client, act):
    assert _roster(client) == []
    _start(act)
    _start(act, [PLAYERS[0] | {"colour": "green"}, PLAYERS[1]])
    _start(act, [PLAYERS[0], {"name": "Cleo", "colour": "pink"}])
    # Most games first; Anna played red twice and green once.
    assert _roster(client) == [("Anna", "red", 3), ("Ben", "blue", 2), ("Cleo", "pink", 1)]
    assert client.get("/api/results").get_json()["roster"][0] == {
        "name": "Anna",
        "colour": "red",
        "games": 3,
    }


def test_add_rename_recolour_and_remove(client, act):
    _start(act)
    added = client.post("/api/roster/add", json={"name": "  Dora ", "colour": "orange"})
    assert added.status_code == 200, added.get_json()
    assert [p["name"] for p in added.get_json()["roster"]] == ["Anna", "Ben", "Dora"]
    assert (
        client.post("/api/roster/edit", json={"name": "ben", "new_name": "Benno"}).status_code
        == 200
    )
    assert (
        client.post("/api/roster/edit", json={"name": "Dora", "colour": "black"}).status_code == 200
    )
    assert client.post("/api/roster/remove", json={"name": "Anna"}).status_code == 200
    # Benno keeps Ben's colour; the games stay with the name they were played under.
    assert _roster(client) == [("Benno", "blue", 0), ("Dora", "black", 0)]
    assert client.get("/api/results").get_json()["roster"] == [
        {"name": "Benno", "colour": "blue", "games": 0},
        {"name": "Dora", "colour": "black", "games": 0},
    ]
    assert client.get("/api/games").get_json()[0]["players"] == ["Anna", "Ben"]


def test_a_player_of_a_later_game_joins_and_a_removed_one_comes_back_by_playing(client, act):
    _start(act)
    assert client.post("/api/roster/remove", json={"name": "Ben"}).status_code == 200
    assert _roster(client) == [("Anna", "red", 1)]
    _start(act, [PLAYERS[0], {"name": "Cleo", "colour": "green"}])
    assert _roster(client) == [("Anna", "red", 2), ("Cleo", "green", 1)]
    _start(act, [PLAYERS[1], {"name": "Cleo", "colour": "green"}])
    assert _roster(client) == [("Anna", "red", 2), ("Ben", "blue", 2), ("Cleo", "green", 2)]


def test_the_roster_is_kept_in_the_game_file(tmp_path):
    db = tmp_path / "table.sqlite3"
    first = create_app({"DB": str(db), "TESTING": True}).test_client()
    assert (
        first.post("/api/roster/add", json={"name": "Emil", "colour": "yellow"}).status_code == 200
    )
    with sqlite3.connect(db) as raw:
        (value,) = raw.execute("SELECT value FROM settings WHERE key = 'roster'").fetchone()
    assert "Emil" in value and "yellow" in value
    again = create_app({"DB": str(db), "TESTING": True}).test_client()
    assert _roster(again) == [("Emil", "yellow", 0)]


def test_bad_roster_changes_say_why_and_change_nothing(client, act):
    _start(act)
    before = _roster(client)
    refusals = [
        ("add", {"name": "", "colour": "red"}, 400, "name_length"),
        ("add", {"name": "x" * (MAX_NAME + 1), "colour": "red"}, 400, "name_length"),
        ("add", {"name": "ANNA", "colour": "green"}, 409, "roster_taken"),
        ("add", {"name": "Tab\there", "colour": "green"}, 400, None),
        ("add", {"name": "Dora", "colour": "gold"}, 400, None),
        ("add", {"name": "Dora"}, 400, None),
        ("add", {"name": 7, "colour": "red"}, 400, None),
        ("edit", {"name": "Zed", "colour": "red"}, 404, "roster_unknown"),
        ("edit", {"name": "Ben", "new_name": "anna"}, 409, "roster_taken"),
        ("edit", {"name": "Ben", "new_name": " "}, 400, "name_length"),
        ("edit", {"name": "Ben"}, 400, None),
        ("remove", {"name": "Zed"}, 404, "roster_unknown"),
        ("remove", {}, 400, None),
        ("rename", {"name": "Ben"}, 404, None),
    ]
    for change, body, status, key in refusals:
        response = client.post(f"/api/roster/{change}", json=body)
        assert response.status_code == status, (change, body, response.get_json())
        data = response.get_json()
        assert data["error"], data
        assert (data.get("why") or {}).get("key") == key, (change, body, data)
    assert (
        client.post("/api/roster/add", data="{", content_type="application/json").status_code == 400
    )
    assert client.post("/api/roster/add", data="name=Dora").status_code == 400
    assert client.post("/api/roster/add", json=["Dora"]).status_code == 400
    assert _roster(client) == before
    # Renaming to the same name in other letters is no clash with oneself.
    assert (
        client.post("/api/roster/edit", json={"name": "ben", "new_name": "BEN"}).status_code == 200
    )


def test_a_viewer_cannot_change_the_roster(tmp_path):
    app = create_app({"DB": str(tmp_path / "t.sqlite3"), "TESTING": True, "PIN": "2468"})
    client = app.test_client()
    refused = client.post("/api/roster/add", json={"name": "Dora", "colour": "red"})
    assert refused.status_code == 403 and refused.get_json()["why"]["key"] == "viewer"
    assert client.post("/api/control", json={"pin": "2468"}).status_code == 200
    assert client.post("/api/roster/add", json={"name": "Dora", "colour": "red"}).status_code == 200
    assert _roster(client) == [("Dora", "red", 0)]
