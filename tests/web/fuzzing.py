"""Malformed and random requests to every route of the app, for the fuzz test and its script.

The routes come from `app.url_map`, so a route added later is fuzzed without a change here.
"""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from flask import Flask
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from companion.events import EVENT_TYPES
from web import create_app
from web.schema import ACTION_FIELDS

METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")

RECORD_KEYS = ("format", "players", "rounds", "turns", "player", "roll", "place", "kick", "record")

FIELDS = sorted(
    {name for fields in ACTION_FIELDS.values() for name in fields}
    | {name for event in EVENT_TYPES.values() for name in event.__slots__}
    | {"action", "base", "pin", "type", "owner", "name", "colour", "arena", *RECORD_KEYS}
)
"""Keys the API, the events and the records know: random bodies use them to reach past the
first check."""


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.integers(-3, 10),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["ü", "١٢٣٤", "2468", "", "no", "0", "red", "classic", "royale", "x" * 300]),
    st.sampled_from(sorted(ACTION_FIELDS) + sorted(EVENT_TYPES)),
)

json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.one_of(st.sampled_from(FIELDS), st.text(max_size=6)), inner, max_size=4),
    ),
    max_leaves=10,
)


@st.composite
def shaped_bodies(draw: st.DrawFn) -> Any:
    """An object shaped like an action, an event, a record or a PIN, with random values."""
    kind = draw(st.sampled_from(["action", "event", "record", "pin"]))
    if kind == "event":
        return {"action": "event", "event": draw(shaped_events())}
    if kind == "pin":
        return {"pin": draw(json_values)}
    body = draw(st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=4))
    if kind == "action":
        body["action"] = draw(st.one_of(st.sampled_from(sorted(ACTION_FIELDS)), json_values))
    return body


@st.composite
def shaped_events(draw: st.DrawFn) -> Any:
    """An engine event with its type named and random fields."""
    event = draw(st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=4))
    event["type"] = draw(st.one_of(st.sampled_from(sorted(EVENT_TYPES)), json_values))
    return event


def deep(depth: int) -> str:
    """JSON nested `depth` lists deep."""
    return "[" * depth + "]" * depth


raw_bodies = st.one_of(
    st.binary(max_size=40),
    st.sampled_from(
        [
            deep(5000),
            '{"action":' + deep(3000) + "}",
            '{"a": NaN, "b": Infinity, "c": -Infinity}',
            '{"pin": "\\ud800"}',
            "\xff\xfe",
            "",
            "null",
        ]
    ),
    st.integers(-(2**80), 2**80).map(str),
)


@dataclass
class Request:
    """One request to send through the test client."""

    method: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    body: dict[str, Any] = field(default_factory=dict)


path_values = st.one_of(
    st.integers(-5, 5),
    st.integers(2**62, 2**80),
    st.sampled_from(["abc", "%00", "1.5", "-1", "9" * 40, "", "app.js", "../../etc/passwd"]),
)

hosts = st.sampled_from(
    ["localhost", "127.0.0.1:8000", "evil.example", "[::1]:8000", "", "a" * 300, "x:y:z"]
)
origins = st.sampled_from(
    ["http://localhost", "http://evil.example", "null", "::::", "http://127.0.0.1:8000"]
)


def routes(app: Flask) -> list[tuple[str, tuple[str, ...]]]:
    """Each route's rule (with `<...>` placeholders) and the methods it answers, sorted."""
    methods: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        methods.setdefault(rule.rule, set()).update((rule.methods or set()) - {"HEAD", "OPTIONS"})
    return sorted((rule, tuple(sorted(known))) for rule, known in methods.items())


@st.composite
def requests(draw: st.DrawFn, rule: str, known: tuple[str, ...]) -> Request:
    """A request to `rule`: mostly one of its `known` methods, random headers, body and path
    values."""
    path = re.sub(r"<[^>]+>", lambda _: str(draw(path_values)), rule)
    method = draw(st.sampled_from(known if draw(st.integers(0, 4)) else METHODS))
    headers: dict[str, str] = {}
    if draw(st.integers(0, 4)) == 0:
        headers["Host"] = draw(hosts)
    if draw(st.integers(0, 4)) == 0:
        headers["Origin"] = draw(origins)
    if draw(st.integers(0, 6)) == 0:
        headers["Referer"] = draw(origins) + "/"
    body: dict[str, Any] = {}
    shape = draw(st.integers(0, 5))
    if shape <= 2:
        body["json"] = draw(st.one_of(shaped_bodies(), json_values))
    elif shape == 3:
        body["data"] = draw(raw_bodies)
        body["content_type"] = draw(
            st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded"])
        )
    elif shape == 4:
        content = draw(st.one_of(raw_bodies, shaped_bodies().map(json.dumps)))
        data = content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content
        body["data"] = {"record": (io.BytesIO(data), "game.json")}
        body["content_type"] = "multipart/form-data"
    return Request(method, path, headers, body)


def send(client: Any, request: Request) -> int:
    """Send one request and return its status; of a streamed answer (the live updates and
    the camera preview never end) only the first chunk is read."""
    response = client.open(
        request.path,
        method=request.method,
        headers=request.headers,
        buffered=False,
        **request.body,
    )
    try:
        if response.is_streamed:
            next(iter(response.response), None)
        else:
            response.get_data()
        return response.status_code
    finally:
        response.close()


def table_now(app: Flask) -> str:
    """The table's state and game list as text, to see whether a request changed something.

    The count of wrong PINs is left out: telling the pages about a refused guess is its point.
    """
    hub = app.extensions["hub"]
    with hub.lock:
        state = hub.snapshot()
        games = [(g.game_id, g.events, g.finished) for g in hub.store.games()]
    state.pop("pin_alert", None)
    return json.dumps([state, games], sort_keys=True, default=str)


def tally(statuses: list[int]) -> str:
    """Requests sent and how many got each status."""
    counts = Counter(statuses)
    return f"{len(statuses)} requests: " + ", ".join(f"{s}: {n}" for s, n in sorted(counts.items()))


PIN = "2468"
PLAYERS = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]


def fuzz(db: str, rounds: int) -> tuple[list[int], list[str]]:
    """Send `rounds` rounds of one random request to every route, from the controlling tablet
    of a game in progress; the statuses, and what went wrong (a 500, or a refusal that
    changed the table)."""
    app = create_app({"DB": db, "PIN": PIN, "SEED": 1})
    client = app.test_client()
    assert client.post("/api/control", json={"pin": PIN}).status_code == 200
    base = client.get("/api/state").get_json()["version"]
    started = {"action": "new_game", "base": base, "edition": "classic", "players": PLAYERS}
    assert client.post("/api/action", json=started).status_code == 200
    every_route = routes(app)
    sent: list[int] = []
    failures: list[str] = []

    # Generation only: a failure is reported as it was met, not shrunk (which takes minutes).
    @settings(
        max_examples=rounds,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def one_round(data: st.DataObject) -> None:
        for rule, known in every_route:
            request: Request = data.draw(requests(rule, known))
            body = request.body.get("json")
            if isinstance(body, dict) and "action" in body and data.draw(st.booleans()):
                body["base"] = app.extensions["hub"].version()
            before = table_now(app)
            status = send(client, request)
            sent.append(status)
            if status >= 500:
                failures.append(f"{status} {request.method} {request.path} {request.body!r:.300}")
            elif status >= 400 and table_now(app) != before:
                failures.append(f"refused but changed: {request.method} {request.path}")

    one_round()
    return sent, failures
