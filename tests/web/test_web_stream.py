"""Live updates through a real HTTP server: a full state on connect, then the changes."""

from __future__ import annotations

import http.client
import json

import pytest
from browser import LiveServer

from web import create_app


def read_messages(response, count):
    """The next `count` data messages of an event stream."""
    messages = []
    while len(messages) < count:
        line = response.readline()
        assert line, "the stream ended"
        if line.startswith(b"data:"):
            messages.append(json.loads(line[5:]))
    return messages


@pytest.fixture
def server(tmp_path):
    live = LiveServer(create_app({"DB": str(tmp_path / "t.sqlite3"), "SEED": 5}))
    yield live
    live.close()


def post(server, body):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("POST", "/api/action", json.dumps(body), {"Content-Type": "application/json"})
    response = conn.getresponse()
    return response.status, json.loads(response.read())


def test_full_state_then_changes_reach_every_page(server):
    pages = []
    for _ in range(3):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", "/api/events")
        response = conn.getresponse()
        assert response.getheader("Content-Type").startswith("text/event-stream")
        first = read_messages(response, 1)[0]
        assert first["type"] == "full" and first["state"]["game"] is None
        pages.append((first["seq"], response))
    status, _ = post(
        server,
        {
            "action": "new_game",
            "base": "none",
            "edition": "classic",
            "players": [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}],
        },
    )
    assert status == 200
    for seq, response in pages:
        patch = read_messages(response, 1)[0]
        assert patch["type"] == "patch" and patch["seq"] == seq + 1
        assert patch["changes"]["game"]["players"][0]["name"] == "Anna"
        assert "camera" not in patch["changes"]  # only what changed is sent


def test_a_reconnecting_page_gets_the_current_state(server):
    post(
        server,
        {
            "action": "new_game",
            "base": "none",
            "edition": "custom",
            "players": [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}],
        },
    )
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", "/api/events")
    first = read_messages(conn.getresponse(), 1)[0]
    assert first["state"]["game"]["edition"] == "custom"
