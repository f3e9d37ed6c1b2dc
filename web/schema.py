"""The API's edge: request bodies read as JSON and checked field by field before any handler.

Each action's fields are described once, in `ACTION_FIELDS`; a body that does not fit is
refused with a 400 that names the field, so that no handler meets a list where it expects
text, or a number too large for the game file.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.rules import EDITIONS
from web.errors import ActionError

MAX_DEPTH = 32
"""Deepest nesting of lists and objects a body may have: a game record needs about 8."""

GAME_ID_MAX = 2**63 - 1
"""The game file numbers games with SQLite integers, which end here."""


@dataclass(frozen=True)
class Field:
    """What one field of a body may hold: a JSON kind, whether it must be there, its range
    (numbers), its choices (text) and its longest length (text and lists)."""

    kind: str
    required: bool = False
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    most: int | None = None


KINDS: dict[str, tuple[type, ...]] = {
    "text": (str,),
    "whole number": (int,),
    "true or false": (bool,),
    "object": (dict,),
    "list": (list,),
}
"""The JSON kind each field names, as the Python types `json` reads it into."""

ACTION = Field("text", required=True, most=40)
BASE = Field("text", most=80)

ACTION_FIELDS: dict[str, dict[str, Field]] = {
    "new_game": {
        "edition": Field("text", required=True, choices=tuple(EDITIONS)),
        "options": Field("object"),
        "players": Field("list", required=True, most=12),
        "start_player": Field("whole number", low=0, high=11),
        "hints": Field("true or false"),
        "bots": Field("list", most=12),
    },
    "open_game": {"game_id": Field("whole number", required=True, low=1, high=GAME_ID_MAX)},
    "event": {"event": Field("object", required=True)},
    "roll": {
        "dice": Field("list", required=True, most=64),
        "place": Field("list", most=64),
        "kept": Field("list", most=64),
    },
    "simulate": {},
    "sim_throw": {},
    "sim_take": {"pips": Field("whole number", required=True, low=1, high=6)},
    "sim_clear": {},
    "sim_lay_colours": {},
    "sim_misplace": {"on": Field("true or false", required=True)},
    "sim_fix_casinos": {},
    "check_table": {},
    "placement_check": {"on": Field("true or false", required=True)},
    "undo": {"steps": Field("whole number", low=1, high=100_000)},
    "redo": {},
    "abandon": {},
    "bot": {},
    "calibrate": {},
    "zones": {
        "mode": Field("text", required=True, choices=("markers", "corners", "clear")),
        "corners": Field("object"),
    },
}
"""Every action a page can send and the fields it reads; other fields are ignored."""

CONTROL_FIELDS = {"pin": Field("text", most=64)}
"""The body of a request for control; a missing PIN is a wrong one."""


def read_json(raw: bytes) -> Any:
    """A body's JSON, or a 400: not UTF-8, not JSON, or nested deeper than `MAX_DEPTH`.

    NaN and Infinity, which Python's reader takes but JSON does not know, are refused too.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ActionError(400, "the body is not UTF-8 text") from None
    if text.count("[") + text.count("{") > MAX_DEPTH and _nesting(text) > MAX_DEPTH:
        raise ActionError(400, f"the body is nested deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except ValueError as error:
        if isinstance(error, _NotJson):
            raise ActionError(400, str(error)) from None
        raise ActionError(400, "the body is not valid JSON") from None


class _NotJson(ValueError):
    """A value Python's reader takes but JSON forbids."""


def _no_constant(name: str) -> Any:
    raise _NotJson(f"{name} is not a JSON number; send a finite number")


def _nesting(text: str) -> int:
    """How deep lists and objects nest in JSON text (brackets inside strings not counted)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def check_fields(body: Mapping[str, Any], fields: Mapping[str, Field], where: str = "") -> None:
    """Refuse with a 400 naming the first field of `body` that does not fit its description."""
    for name, spec in fields.items():
        label = f"{where}{name}"
        if name not in body:
            if spec.required:
                raise ActionError(400, f"{label} is missing")
            continue
        value = body[name]
        if not _is_kind(value, spec.kind):
            raise ActionError(400, f"{label} must be {_a(spec.kind)}, got {_short(value)}")
        if spec.choices and value not in spec.choices:
            raise ActionError(
                400, f"{label} must be one of {', '.join(spec.choices)}, got {_short(value)}"
            )
        if spec.low is not None and value < spec.low or spec.high is not None and value > spec.high:
            raise ActionError(400, f"{label} must be {spec.low}-{spec.high}, got {value}")
        if spec.most is not None and len(value) > spec.most:
            raise ActionError(400, f"{label} is longer than {spec.most}")


def check_action(body: Any) -> None:
    """Refuse a body that is not an action object with fields as `ACTION_FIELDS` describes."""
    if not isinstance(body, dict):
        raise ActionError(400, 'an action is a JSON object like {"action": "undo", ...}')
    check_fields(body, {"action": ACTION, "base": BASE})
    fields = ACTION_FIELDS.get(body["action"])
    if fields is None:
        known = ", ".join(sorted(ACTION_FIELDS))
        raise ActionError(400, f"unknown action {_short(body['action'])}; known actions: {known}")
    check_fields(body, fields)


def is_number(value: Any) -> bool:
    """Whether a JSON value is a finite number (true and false are not numbers)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _is_kind(value: Any, kind: str) -> bool:
    if isinstance(value, bool) and kind != "true or false":
        return False
    return isinstance(value, KINDS[kind])


def _a(kind: str) -> str:
    """A kind as a refusal says it: "text", "true or false", "a list", "an object"."""
    if kind in ("text", "true or false"):
        return kind
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}"


def _short(value: Any) -> str:
    """A value as a refusal quotes it: never longer than a line."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
