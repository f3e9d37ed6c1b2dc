"""The JSON API: the table's state, actions, control by PIN, and the game history."""

from __future__ import annotations

import json

from flask import Blueprint, Response, jsonify, request

from companion.record import RecordError
from companion.rules import EDITIONS, option_specs
from companion.session import GameNotFound, SessionError
from web.actions import act
from web.errors import ActionError, refused_file
from web.hub import control_id
from web.resources import hub
from web.schema import CONTROL_FIELDS, GAME_ID_MAX, check_action, check_fields, read_json
from web.setup import COLOURS
from web.view import PATTERNS

bp = Blueprint("api", __name__, url_prefix="/api")

CONTROL_COOKIE = "lv_control"


def _token() -> str | None:
    return request.cookies.get(CONTROL_COOKIE)


def _json_body() -> object:
    """The request's JSON body, or a 400 that says what was wrong with it."""
    if not request.is_json:
        raise ActionError(400, "send JSON with Content-Type: application/json")
    return read_json(request.get_data(cache=True))


@bp.get("/state")
def state() -> Response:
    """The whole table, as the live stream's first message."""
    table = hub()
    with table.lock:
        snap = table.snapshot()
    return jsonify(snap | {"you_control": table.controls(_token())})


@bp.post("/action")
def action() -> Response:
    """Carry out one action; 4xx with a message when it is refused (nothing changes then)."""
    body = _json_body()
    check_action(body)
    return jsonify(act(hub(), body, _token()))


@bp.post("/control")
def control() -> Response:
    """Make this device the controlling one with the PIN (any device when no PIN is set)."""
    data = _json_body()
    if not isinstance(data, dict):
        raise ActionError(400, 'send {"pin": "1234"}')
    check_fields(data, CONTROL_FIELDS)
    token = hub().take_control(data.get("pin"), request.remote_addr or "")
    response = jsonify({"control_id": control_id(token)})
    response.set_cookie(CONTROL_COOKIE, token, httponly=True, samesite="Strict")
    return response


@bp.get("/setup")
def setup() -> Response:
    """What the new-game form offers: editions with their options, dice colours, patterns."""
    return jsonify(
        {
            "editions": {name: option_specs(name) for name in EDITIONS},
            "colours": list(COLOURS),
            "patterns": list(PATTERNS),
        }
    )


@bp.get("/games")
def games() -> Response:
    """Every game in the game file, newest first."""
    return jsonify(
        [
            {
                "game_id": g.game_id,
                "created": g.created,
                "players": list(g.players),
                "edition": g.edition,
                "finished": g.finished,
                "events": g.events,
            }
            for g in hub().store.games()
        ]
    )


@bp.get("/games/<int:game_id>/record")
def record(game_id: int) -> Response:
    """A stored game as a JSON record, downloaded as a file."""
    table = hub()
    if game_id > GAME_ID_MAX:  # the game file cannot even look such a number up
        raise ActionError(404, f"the game file holds no game {game_id}")
    try:
        with table.lock:
            data = table.store.open(game_id).record()
    except GameNotFound as error:
        raise ActionError(404, str(error)) from None
    except SessionError as error:
        raise ActionError(409, str(error)) from None
    return Response(
        json.dumps(data, indent=1),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="lasvegas-game-{game_id}.json"'},
    )


@bp.get("/games/<int:game_id>/photos/<int:round_number>")
def round_photo(game_id: int, round_number: int) -> Response:
    """A round's photo of the casinos (JPEG), kept by the round-end check."""
    table = hub()
    if game_id > GAME_ID_MAX or round_number > GAME_ID_MAX:
        raise ActionError(404, f"the game file holds no game {game_id}")
    with table.lock:
        jpeg = table.store.photo(game_id, round_number)
    if jpeg is None:
        raise ActionError(404, f"no photo of round {round_number} of game {game_id} is kept")
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-cache"})


@bp.post("/games/import")
def import_record() -> tuple[Response, int]:
    """Store a JSON record as a new game, checked step by step (refused whole if a step fails)."""
    table = hub()
    if not table.controls(_token()):
        raise ActionError(403, "this tablet is a viewer; enter the PIN to import a game")
    upload = request.files.get("record")
    if upload is not None:
        try:
            data = read_json(upload.read())
        except ActionError:
            raise ActionError(400, "the file is not a JSON game record") from None
    else:
        data = _json_body()
    try:
        with table.lock:
            session = table.store.import_record(data)
    except RecordError as error:
        raise ActionError(400, f"the record was refused: {error}") from None
    except SessionError as error:
        raise refused_file(error) from None
    return jsonify({"game_id": session.game_id, "events": len(session.events)}), 201
