"""Kill the server mid-game (SIGKILL, no clean shutdown) and start it again: the same game."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import urllib.request

from browser import free_port, serve_command


def start(db, port):
    command = serve_command(port, db, "--seed", "3")
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            return server, get(port, "/api/state")
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise AssertionError(f"the server did not start: {server.stderr.read().decode()[-2000:]}")


def get(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
        return json.load(response)


def post(port, body):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/action",
        json.dumps(body).encode(),
        {"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def test_killed_server_comes_back_to_the_same_game(tmp_path):
    db, port = tmp_path / "table.sqlite3", free_port()
    server, state = start(db, port)
    try:
        post(
            port,
            {
                "action": "new_game",
                "base": state["version"],
                "edition": "classic",
                "players": [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}],
            },
        )
        for action in ({"action": "simulate"}, {"action": "roll", "dice": [{"pips": 3}] * 8}):
            post(port, action | {"base": get(port, "/api/state")["version"]})
        before = get(port, "/api/state")
        assert before["game"]["phase"] == "choose"
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
    server, after = start(db, port)
    try:
        assert after["version"] == before["version"]
        assert after["game"] == before["game"]
        place = {
            "action": "event",
            "base": after["version"],
            "event": {"type": "place", "number": 3},
        }
        assert post(port, place)["ok"]
    finally:
        server.terminate()
        server.wait(10)
