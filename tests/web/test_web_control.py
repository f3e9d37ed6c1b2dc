"""One controlling tablet with a PIN; every other page is a read-only viewer."""

from __future__ import annotations

import pytest

from web import create_app

PLAYERS = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]


@pytest.fixture
def pin_app(tmp_path):
    return create_app({"DB": str(tmp_path / "t.sqlite3"), "PIN": "2468", "SEED": 3})


def new_game(client):
    base = client.get("/api/state").get_json()["version"]
    return client.post(
        "/api/action",
        json={"action": "new_game", "base": base, "edition": "classic", "players": PLAYERS},
    )


def test_a_viewer_cannot_act(pin_app):
    viewer = pin_app.test_client()
    response = new_game(viewer)
    assert response.status_code == 403
    assert "this tablet is a viewer; enter the PIN" in response.get_json()["error"]
    assert response.get_json()["why"] == {"key": "viewer"}
    assert viewer.get("/api/state").get_json()["you_control"] is False


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"pin": "1111"}, 403, "wrong PIN"),  # a wrong PIN
        ({"pin": 2468}, 400, "pin must be text"),  # the PIN as a number, not text
        ({}, 403, "wrong PIN"),  # no PIN at all
        (["2468"], 400, 'send {"pin": "1234"}'),  # not an object
    ],
)
def test_wrong_pins(pin_app, body, status, message):
    response = pin_app.test_client().post("/api/control", json=body)
    assert response.status_code == status and message in response.get_json()["error"]


def test_control_moves_to_the_last_device_with_the_pin(pin_app):
    first, second = pin_app.test_client(), pin_app.test_client()
    answer = first.post("/api/control", json={"pin": "2468"})
    assert answer.status_code == 200
    assert first.get("/api/state").get_json()["controller"] == answer.get_json()["control_id"]
    assert new_game(first).status_code == 200
    assert second.post("/api/control", json={"pin": "2468"}).status_code == 200
    response = new_game(first)  # the first tablet is now a viewer
    assert response.status_code == 403
    assert new_game(second).status_code == 200


def test_import_needs_control(pin_app):
    response = pin_app.test_client().post("/api/games/import", json={"format": 1})
    assert response.status_code == 403


def test_without_a_pin_every_page_controls(client):
    assert client.get("/api/state").get_json()["pin_required"] is False
    assert new_game(client).status_code == 200
