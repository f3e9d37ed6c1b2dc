"""The roster: the players this table knows, each with their usual dice colour, edited on the
page and kept in the game file.

Until it is first edited, the roster is derived from the stored games: everyone who played,
with the colour they chose most often. An edit stores the roster as it then stands (the
`roster` setting of the game file) together with the newest game it had seen. A player of a
later game who is not on it yet joins it with the colour they played, so a removed player
comes back only by playing again. Renaming a player changes the roster only: the stored games
keep the names they were played with.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.errors import IllegalMove
from companion.session import GameStore, GameSummary
from companion.state import check_name
from web.api import CONTROL_COOKIE
from web.errors import ActionError, refused_move
from web.resources import hub
from web.schema import Field, check_fields, read_json
from web.setup import COLOURS

bp = Blueprint("roster", __name__, url_prefix="/api/roster")

ROSTER_KEY = "roster"
"""The game file's setting that holds the edited roster."""

MOST_PLAYERS = 200
"""The longest roster: a club's members, few enough to show on one sheet."""


@dataclass(frozen=True)
class RosterPlayer:
    """One player of the roster: name, usual dice colour and the stored games under that name."""

    name: str
    colour: str
    games: int = 0

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "colour": self.colour, "games": self.games}


@dataclass(frozen=True)
class StoredRoster:
    """The roster as last edited, and the newest game id it had seen then."""

    players: tuple[RosterPlayer, ...]
    through: int


def _colours_played(store: GameStore, summaries: Iterable[GameSummary]) -> dict[str, Counter[str]]:
    """How often each name played with each colour, over `summaries`."""
    played: dict[str, Counter[str]] = {}
    for summary in summaries:
        chosen = store.setting(f"game:{summary.game_id}:colours", ()) or ()
        for name, colour in zip(summary.players, chosen, strict=False):
            played.setdefault(name, Counter())[str(colour)] += 1
    return played


def _stored(store: GameStore) -> StoredRoster | None:
    """The edited roster, or None where it was never edited (a damaged one counts as none)."""
    data = store.setting(ROSTER_KEY)
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        return None
    through = data.get("through")
    players = tuple(
        RosterPlayer(entry["name"], entry["colour"])
        for entry in data["players"]
        if isinstance(entry, dict)
        and isinstance(entry.get("name"), str)
        and entry.get("colour") in COLOURS
    )
    return StoredRoster(players, through if isinstance(through, int) else 0)


def _usual(used: Counter[str]) -> str:
    return used.most_common(1)[0][0]


def current(store: GameStore, summaries: list[GameSummary]) -> list[RosterPlayer]:
    """The roster now, most games first: as edited, and anyone who played a game since."""
    played = _colours_played(store, summaries)
    edited = _stored(store)
    if edited is None:
        names = [(name, _usual(used)) for name, used in played.items()]
    else:
        names = [(p.name, p.colour) for p in edited.players]
        known = {name.casefold() for name, _ in names}
        for summary in sorted(summaries, key=lambda s: s.game_id):
            if summary.game_id <= edited.through:
                continue
            for name in summary.players:
                if name.casefold() not in known and name in played:
                    known.add(name.casefold())
                    names.append((name, _usual(played[name])))
    players = [
        RosterPlayer(name, colour, sum(played[name].values()) if name in played else 0)
        for name, colour in names
    ]
    return sorted(players, key=lambda p: (-p.games, p.name.casefold()))


def _save(store: GameStore, players: list[RosterPlayer], summaries: list[GameSummary]) -> None:
    through = max((s.game_id for s in summaries), default=0)
    store.set_setting(
        ROSTER_KEY,
        {"players": [{"name": p.name, "colour": p.colour} for p in players], "through": through},
    )


def _find(players: list[RosterPlayer], name: str) -> int:
    """The place of `name` on the roster (case aside); 404 where nobody has that name."""
    for place, player in enumerate(players):
        if player.name.casefold() == name.casefold():
            return place
    raise ActionError(
        404, f"{name!r} is not on the roster", why={"key": "roster_unknown", "name": name}
    )


def _free_name(players: list[RosterPlayer], raw: Any, but: int | None = None) -> str:
    """A checked name that no other roster player has (the rule of game names: `check_name`)."""
    try:
        name = check_name(raw)
    except IllegalMove as error:
        raise refused_move(error, 400) from None
    for place, player in enumerate(players):
        if place != but and player.name.casefold() == name.casefold():
            raise ActionError(
                409,
                f"{player.name} is on the roster already",
                why={"key": "roster_taken", "name": player.name},
            )
    return name


def add(players: list[RosterPlayer], body: dict[str, Any]) -> list[RosterPlayer]:
    """The roster with a new player: a free name and a dice colour."""
    if len(players) >= MOST_PLAYERS:
        raise ActionError(
            400,
            f"the roster holds at most {MOST_PLAYERS} players; remove one first",
            why={"key": "roster_full", "most": MOST_PLAYERS},
        )
    name = _free_name(players, body.get("name"))
    return [*players, RosterPlayer(name, body["colour"])]


def edit(players: list[RosterPlayer], body: dict[str, Any]) -> list[RosterPlayer]:
    """The roster with one player renamed, given another usual colour, or both."""
    if "new_name" not in body and "colour" not in body:
        raise ActionError(400, "say what changes: new_name, colour or both")
    place = _find(players, body["name"])
    player = players[place]
    if "new_name" in body:
        player = replace(player, name=_free_name(players, body["new_name"], but=place))
    if "colour" in body:
        player = replace(player, colour=body["colour"])
    return [*players[:place], player, *players[place + 1 :]]


def remove(players: list[RosterPlayer], body: dict[str, Any]) -> list[RosterPlayer]:
    """The roster without one player (their stored games stay as they are)."""
    place = _find(players, body["name"])
    return [*players[:place], *players[place + 1 :]]


NAME = Field("text", required=True, most=200)
COLOUR = Field("text", choices=tuple(COLOURS))
CHANGES = {
    "add": (add, {"name": NAME, "colour": replace(COLOUR, required=True)}),
    "edit": (edit, {"name": NAME, "new_name": Field("text", most=200), "colour": COLOUR}),
    "remove": (remove, {"name": NAME}),
}
"""Each change to the roster: what it does and the fields of its body."""


def _listing(players: list[RosterPlayer]) -> Response:
    return jsonify({"roster": [p.as_json() for p in players], "colours": list(COLOURS)})


@bp.get("")
def listing() -> Response:
    """The roster: every player's name, usual colour and games played; the colours to pick."""
    table = hub()
    with table.lock:
        summaries = table.store.games()
        return _listing(current(table.store, summaries))


@bp.post("/<change>")
def change(change: str) -> Response:
    """Add, edit (rename, recolour) or remove a roster player; answers the roster as it is now."""
    if change not in CHANGES:
        raise ActionError(404, f"no roster change {change!r}; known: {', '.join(CHANGES)}")
    table = hub()
    if not table.controls(request.cookies.get(CONTROL_COOKIE)):
        raise ActionError(
            403,
            "this tablet is a viewer; enter the PIN to control the game",
            why={"key": "viewer"},
        )
    if not request.is_json:
        raise ActionError(400, "send JSON with Content-Type: application/json")
    body = read_json(request.get_data(cache=True))
    if not isinstance(body, dict):
        raise ActionError(400, 'send an object like {"name": "Anna", "colour": "red"}')
    apply, fields = CHANGES[change]
    check_fields(body, fields)
    with table.lock:
        summaries = table.store.games()
        players = apply(current(table.store, summaries), body)
        _save(table.store, players, summaries)
        return _listing(current(table.store, summaries))
