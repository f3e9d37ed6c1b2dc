"""Malformed bodies, numbers and ids are refused at the API's edge with a 4xx naming the field."""

from __future__ import annotations

import io
import json

import pytest

from web import create_app
from web.actions import HANDLERS
from web.schema import ACTION_FIELDS

DEEP = "[" * 5000 + "]" * 5000


def table(app) -> str:
    """The table and its game list, to check that a refusal changed nothing."""
    hub = app.extensions["hub"]
    with hub.lock:
        games = [(g.game_id, g.events) for g in hub.store.games()]
        return json.dumps([hub.snapshot(), games], sort_keys=True, default=str)


def test_every_action_has_its_fields_described():
    assert set(ACTION_FIELDS) == set(HANDLERS)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"action": ["undo"]}, "action must be text, got ['undo']"),  # a list as the name
        ({"action": {"undo": 1}}, "action must be text"),  # an object as the name
        ({"action": "new_game", "edition": ["classic"]}, "edition must be text"),
        ({"action": "new_game", "edition": {"a": 1}, "players": []}, "edition must be text"),
        ({"action": "new_game", "edition": "classic"}, "players is missing"),
        ({"action": "event", "event": {"type": ["roll"]}}, "unknown event"),
        ({"action": "event", "event": [1]}, "event must be an object"),
        ({"action": "roll", "dice": [{"pips": 3, "kind": ["regular"]}]}, "kind must be one of"),
        ({"action": "roll", "dice": [{"pips": 3, "kind": {"a": 1}}]}, "kind must be one of"),
        ({"action": "roll", "dice": [{"pips": 3}], "place": "3"}, "place must be a list"),
        ({"action": "open_game", "game_id": 2**64}, "game_id must be 1-"),  # beyond SQLite
        ({"action": "undo", "steps": 2**70}, "steps must be 1-"),
        ({"action": "undo", "base": ["1:0"]}, "base must be text"),
        ({"action": "zones", "mode": ["corners"]}, "mode must be text"),
        ({"action": "sim_take", "pips": 9.5}, "pips must be a whole number"),
        (
            {"action": "event", "event": {"type": "cards", "cards": [[1, 2]], "chips": [[1]]}},
            "chips must be",  # a short chip entry
        ),
        ({"action": "event", "event": {"type": "place", "number": 3, "slot": "no"}}, "slot must"),
    ],
)
def test_malformed_action_fields_are_named(app, client, two_player_game, fields, message):
    before = table(app)
    base = app.extensions["hub"].version()
    response = client.post("/api/action", json={"base": base} | fields)
    assert response.status_code == 400, response.get_json()
    assert message in response.get_json()["error"]
    assert table(app) == before


@pytest.mark.parametrize("route", ["/api/action", "/api/control", "/api/games/import"])
@pytest.mark.parametrize(
    ("body", "message"),
    [
        (DEEP, "nested deeper than"),  # JSON nested 5,000 deep
        ('{"action": "undo", "steps": NaN}', "NaN is not a JSON number"),
        ('{"pin": Infinity}', "Infinity is not a JSON number"),
    ],
)
def test_bodies_json_does_not_allow_are_refused_on_every_post_route(app, route, body, message):
    before = table(app)
    response = app.test_client().post(route, data=body, content_type="application/json")
    assert response.status_code == 400 and message in response.get_json()["error"]
    assert table(app) == before


def test_a_deeply_nested_record_file_is_refused(app, client):
    upload = {"record": (io.BytesIO(DEEP.encode()), "game.json")}
    response = client.post("/api/games/import", data=upload, content_type="multipart/form-data")
    assert response.status_code == 400
    assert client.get("/api/games").get_json() == []


@pytest.mark.parametrize("game_id", [2**63, 2**64, 10**40])
def test_game_ids_beyond_the_game_file_are_not_found(client, game_id):
    response = client.get(f"/api/games/{game_id}/record")
    assert response.status_code == 404 and "holds no game" in response.get_json()["error"]


@pytest.fixture
def pin_app(tmp_path):
    return create_app({"DB": str(tmp_path / "pin.sqlite3"), "PIN": "2468"})


@pytest.mark.parametrize(
    ("pin", "status", "message"),
    [
        ("ü", 403, "wrong PIN"),  # not ASCII: the comparison must not fail
        ("٢٤٦٨", 403, "wrong PIN"),  # the PIN in Arabic-Indic digits is not the PIN
        ("\ud800", 403, "wrong PIN"),  # a lone surrogate, which JSON can carry
        (["2468"], 400, "pin must be text"),
        ("9" * 65, 400, "pin is longer than 64"),
    ],
)
def test_pins_that_are_not_ascii_digits_are_wrong_not_errors(pin_app, pin, status, message):
    response = pin_app.test_client().post(
        "/api/control", data=json.dumps({"pin": pin}), content_type="application/json"
    )
    assert response.status_code == status and message in response.get_json()["error"]
    assert "lv_control" not in response.headers.get("Set-Cookie", "")


@pytest.mark.parametrize(
    ("corners", "message"),
    [
        ([[True, 1], [9, 1], [9, 9], [1, 9]], "each point is [x, y]"),  # a boolean corner
        ([[1e308, 1], [9, 1], [9, 9], [1, 9]], "inside the 8192x8192 picture"),
        ([[-1, 1], [9, 1], [9, 9], [1, 9]], "inside"),
        ([[1, 1, 1], [9, 1], [9, 9], [1, 9]], "each point is [x, y]"),
        ([[1, 1], [9, 1]], "3-16 points"),
        ([["1", 1], [9, 1], [9, 9], [1, 9]], "each point is [x, y]"),
    ],
)
def test_zone_corners_are_finite_numbers_within_the_frame(app, client, corners, message):
    before = table(app)
    response = client.post(
        "/api/action", json={"action": "zones", "mode": "corners", "corners": {"arena": corners}}
    )
    assert response.status_code == 400 and message in response.get_json()["error"]
    assert table(app) == before


def test_zone_corners_that_are_not_finite_numbers_are_refused_at_reading(app, client):
    body = (
        '{"action": "zones", "mode": "corners", "corners": {"arena": [[NaN, 1], [9, 1], [9, 9]]}}'
    )
    response = client.post("/api/action", data=body, content_type="application/json")
    assert response.status_code == 400 and "NaN" in response.get_json()["error"]
    assert client.get("/api/state").get_json()["zones"] == []
