"""Hints and computer seats over the JSON API: a per-game switch, the hint, the bot's move.

Hints are switched on per game, since the players agree to them or not: on the new-game
form or here; the switch is stored with the game in the game file (`web.bots_seat`). The
bot's move comes as an engine event the page sends back with the `event` action, so undo
works as for people (the page's computer seats use the `bot` action instead).
"""

from __future__ import annotations

import random
from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.bots import search_player
from companion.events import Place, event_to_dict
from companion.hints import choice_keys, hint, hint_supported, hint_to_dict
from companion.state import GameState, Phase
from web.bots_seat import stored_seats, switch_hints
from web.errors import ActionError
from web.resources import hub
from web.schema import read_json

bp = Blueprint("hints", __name__, url_prefix="/api")

BOT_PLAYOUTS = 2000
"""The bot's playouts a decision at most: about 0.16 s median (docs/hints.md)."""


def _position() -> tuple[int, GameState]:
    """The game on the table and its state, read under the hub's lock."""
    game_id, state, _, _ = _position_and_switch()
    return game_id, state


def _position_and_switch() -> tuple[int, GameState, str, bool]:
    """The game on the table, its state, the version a page names it by, and whether its
    hints are on: read together under the hub's lock."""
    table = hub()
    with table.lock:
        session = table.require_session()
        seats = stored_seats(table.store, session.game_id, len(session.state.players))
        return session.game_id, session.state, table.version(), seats.hints


def _decidable(state: GameState) -> None:
    if not hint_supported(state):
        raise ActionError(
            409,
            "hints and bots do not cover this game's variants yet",
            why={"key": "hint_variants"},
        )
    if state.phase not in (Phase.ROLL, Phase.CHOOSE):
        raise ActionError(
            409,
            f"nobody decides now ({state.phase.value})",
            why={"key": "nobody_decides"},
        )


def bot_words(state: GameState, keys: dict[str, Any]) -> str:
    """'Bot places 3 × 5 on casino 5' for the table to mirror."""
    name = state.to_move()
    if keys.get("skip"):
        return f"{name} skips this turn"
    roll = state.pending_roll
    number = keys["place"]
    count = roll.values().count(number) if roll else 0
    where = "the slot machine" if keys.get("slot") else f"casino {number}"
    words = f"{name} places {count} × {number} on {where}"
    for kick in keys.get("kick", []):
        words += f", kicking a {'Biggy' if kick['big'] else 'die'} of {kick['owner']}"
    if keys.get("chip"):
        words += f", taking the {keys['chip']} chip card"
    return words


@bp.post("/hints")
def switch() -> Response:
    """Switch hints on or off for the game on the table: {"on": true}."""
    table = hub()
    if not table.controls(request.cookies.get("lv_control")):
        raise ActionError(
            403, "this tablet is a viewer; enter the PIN to switch hints", why={"key": "viewer"}
        )
    data = read_json(request.get_data(cache=True))
    if not isinstance(data, dict) or not isinstance(data.get("on"), bool):
        raise ActionError(400, 'send {"on": true} or {"on": false}')
    with table.lock:
        game_id = switch_hints(table, data["on"])
        table.publish()
    return jsonify({"game_id": game_id, "hints": data["on"]})


@bp.get("/hint")
def hint_now() -> Response:
    """The hint for the player to move, when hints are on for this game: each choice also
    carries its engine `event` (as the state's choices list it) and the answer the state's
    `version`, so that a page can put each figure beside its choice and drop a late answer."""
    game_id, state, version, on = _position_and_switch()
    if not on:
        raise ActionError(
            409,
            "hints are off for this game; the players may switch them on",
            why={"key": "hints_off"},
        )
    _decidable(state)
    # Computed outside the lock: the table stays free for the 0.2 s a hint takes.
    result = hint(state, random.Random(len(state.payouts) * 1000 + state.turn))
    answer = hint_to_dict(state, result)
    for entry, choice in zip(answer["choices"], result.choices, strict=True):
        if choice.choice is not None:
            entry["event"] = event_to_dict(choice.choice)
    return jsonify(answer | {"game_id": game_id, "version": version})


@bp.get("/bot")
def bot_move() -> Response:
    """The computer's decision for the player to move: before a throw, a request to throw
    its dice (by the page or for the camera); after one, where it puts them, as words and
    as the event to send with the `event` action."""
    game_id, state = _position()
    _decidable(state)
    name = state.to_move()
    if state.phase is Phase.ROLL:
        return jsonify(
            {"game_id": game_id, "player": name, "throw": True, "words": f"Throw {name}'s dice"}
        )
    event = search_player(BOT_PLAYOUTS)(state, random.Random(state.turn))
    keys = choice_keys(state, event)
    assert isinstance(event, Place) or keys.get("skip")
    return jsonify(
        {
            "game_id": game_id,
            "player": name,
            "choice": keys,
            "event": event_to_dict(event),
            "words": bot_words(state, keys),
        }
    )
