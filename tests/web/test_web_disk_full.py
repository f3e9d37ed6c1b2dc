"""The page on a full disk: each write is refused with 507 and changes nothing; play goes on."""

from __future__ import annotations

import json
import os
import signal
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from browser import free_port
from helpers_play import full_random_game
from playing import play_to
from test_disk_full import file_rows
from test_web_restart import get, post, start

from companion.record import record_from_events
from companion.session import GameStore
from web import create_app

ANNA_BEN = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
CORNERS = {"arena": [[0, 0], [200, 0], [200, 150], [0, 150]]}


@pytest.fixture
def app(small_disk):
    """The app with its game file on a small disk of its own."""
    return create_app({"DB": str(small_disk.path / "table.sqlite3"), "SEED": 7, "TESTING": True})


def _record() -> dict[str, Any]:
    initial, events, _ = full_random_game(seed=5)
    return record_from_events(initial, events[:25])


def _step(client: Any, act: Callable[..., Any]) -> Any:
    """The next step of the game: the first choice offered, or chance where it waits for that."""
    game = client.get("/api/state").get_json()["game"]
    if game["choices"] and game["phase"] != "roll":
        return act("event", event=game["choices"][0]["event"])
    return act("simulate")


def _open_other(client: Any, act: Callable[..., Any]) -> Any:
    on_table = client.get("/api/state").get_json()["game_id"]
    other = next(g for g in client.get("/api/games").get_json() if g["game_id"] != on_table)
    return act("open_game", game_id=other["game_id"])


WRITES = [
    pytest.param(_step, id="step"),
    pytest.param(lambda client, act: act("undo"), id="undo"),
    pytest.param(lambda client, act: act("undo", steps=3), id="undo-several"),
    pytest.param(lambda client, act: act("redo"), id="redo"),
    pytest.param(lambda client, act: act("zones", mode="corners", corners=CORNERS), id="zones"),
    pytest.param(
        lambda client, act: act("new_game", edition="classic", players=ANNA_BEN), id="new-game"
    ),
    pytest.param(_open_other, id="open-game"),
    pytest.param(lambda client, act: client.post("/api/games/import", json=_record()), id="import"),
]


def _seen(client: Any) -> tuple[Any, Any]:
    """Everything a page sees: the table and the list of games."""
    return client.get("/api/state").get_json(), client.get("/api/games").get_json()


@pytest.mark.parametrize("write", WRITES)
def test_a_full_disk_is_refused_with_507_and_play_goes_on(
    app, client, two_player_game, small_disk, write
):
    act = two_player_game
    play_to(client, act, "choose")
    for _ in range(4):
        assert _step(client, act).status_code == 200
    assert act("undo", steps=2).status_code == 200
    assert client.post("/api/games/import", json=_record()).status_code == 201
    path = small_disk.path / "table.sqlite3"
    before_file, before_seen = file_rows(path), _seen(client)
    small_disk.fill()

    refused = write(client, act)

    assert refused.status_code == 507, refused.get_json()
    body = refused.get_json()
    assert "the disk is full. Nothing was changed" in body["error"]
    assert body["why"] == {"key": "disk_full"}
    assert _seen(client) == before_seen
    assert file_rows(path) == before_file

    small_disk.free()
    assert write(client, act).status_code in (200, 201)
    assert _step(client, act).status_code == 200
    table = client.get("/api/state").get_json()
    store = GameStore(path)  # what a restart would read
    try:
        session = store.open(store.table_game() or 0)
        assert table["version"] == f"{session.game_id}:{len(session.events)}:{session.head[:16]}"
    finally:
        store.close()


def _refusal(port: int, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The status and body of an action the server refuses."""
    with pytest.raises(urllib.error.HTTPError) as refused:
        post(port, body)
    return refused.value.code, json.load(refused.value)


def _game_seen(state: dict[str, Any]) -> dict[str, Any]:
    """What a page sees of the game, leaving out the camera's status and whether the simulated
    table is attached, which the camera thread changes on its own (it may start between two
    reads)."""
    return {key: value for key, value in state.items() if key not in ("camera", "sim")}


def test_a_served_game_survives_a_full_disk_and_a_kill(small_disk):
    db, port = small_disk.path / "table.sqlite3", free_port()
    server, state = start(db, port)
    try:
        new_game = {"action": "new_game", "edition": "classic", "players": ANNA_BEN}
        post(port, new_game | {"base": state["version"]})
        for _ in range(2):  # the deal, and Anna's roll
            post(port, {"action": "simulate", "base": get(port, "/api/state")["version"]})
        acknowledged = get(port, "/api/state")
        place = {"action": "event", "event": acknowledged["game"]["choices"][0]["event"]}
        small_disk.fill()
        for action in ({"action": "undo"}, place):
            status, body = _refusal(port, action | {"base": acknowledged["version"]})
            assert (status, body["why"]) == (507, {"key": "disk_full"})
            assert _game_seen(get(port, "/api/state")) == _game_seen(acknowledged)
        small_disk.free()
        post(port, place | {"base": acknowledged["version"]})
        acknowledged = get(port, "/api/state")
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
    server, after = start(db, port)
    try:
        assert after["version"] == acknowledged["version"]
        assert after["game"] == acknowledged["game"]
        assert post(port, {"action": "undo", "base": after["version"]})["ok"]
    finally:
        server.terminate()
        server.wait(10)


def test_a_game_file_refusing_writes_is_a_507_too(tmp_path):
    """Not full but refusing (here: a connection made read-only): the same refusal, its own key."""
    app = create_app({"DB": str(tmp_path / "table.sqlite3"), "SEED": 7, "TESTING": True})
    client = app.test_client()

    def act(action: str, **fields: Any) -> Any:
        base = client.get("/api/state").get_json()["version"]
        return client.post("/api/action", json={"action": action, "base": base} | fields)

    assert act("new_game", edition="classic", players=ANNA_BEN).status_code == 200
    assert act("simulate").status_code == 200
    before = _seen(client)
    app.extensions["hub"].store.db.execute("PRAGMA query_only = ON")

    for refused in (act("undo"), act("simulate"), act("zones", mode="corners", corners=CORNERS)):
        assert refused.status_code == 507
        assert refused.get_json()["why"] == {"key": "write_failed"}
        assert "nothing was changed" in refused.get_json()["error"]
        assert _seen(client) == before
