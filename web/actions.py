"""The actions a page can send, each a small function of the hub and the action's JSON.

Each action's fields have been checked against `web.schema.ACTION_FIELDS` before its handler
runs; a handler checks what the game makes of them and raises `ActionError` with a message
for the player before anything changes. `act` holds the hub's lock around each one, and a
handler changes the table only through the hub's methods.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.deal import arrange_pairs
from companion.dice import DIE_KINDS, DieKind, kind_colour
from companion.errors import IllegalMove
from companion.events import Event, event_from_dict, tile_decision
from companion.rules import make_rules
from companion.session import SessionError
from companion.simulate import chance_event, random_choice, random_roll
from companion.state import GameState, Phase, check_name, new_game
from companion.tile_codes import TileCode
from web.bots_seat import bot_action, read_seats, warm_up
from web.errors import ActionError, refused_file, refused_move
from web.hub import TableHub
from web.reading import kept_from_entries, roll_from_entries
from web.setup import COLOURS, calibration_names, learn_palette, own_dice_colours, zones_asked

if TYPE_CHECKING:
    from vision.simtable import SimulatedTable

Payload = dict[str, Any]
"""An action's JSON, its fields checked against `web.schema.ACTION_FIELDS`."""

Reply = dict[str, object]
"""What an action tells the page besides "ok" and the new version."""


def act(hub: TableHub, payload: object, token: str | None) -> Reply:
    """Carry out one action from a page, or raise ActionError and change nothing."""
    if not isinstance(payload, dict):
        raise ActionError(400, 'an action is a JSON object like {"action": "undo", ...}')
    name = payload.get("action")
    handler = HANDLERS.get(name) if isinstance(name, str) else None
    if handler is None:
        known = ", ".join(sorted(HANDLERS))
        raise ActionError(400, f"unknown action {name!r}; known actions: {known}")
    with hub.lock:
        if not hub.controls(token):
            raise ActionError(
                403,
                "this tablet is a viewer; enter the PIN to control the game",
                why={"key": "viewer"},
            )
        if name in NEEDS_BASE and payload.get("base") != hub.version():
            raise ActionError(
                409,
                "the table changed since this page was drawn (another tablet or the "
                "camera acted first); nothing was applied, the page now shows the table",
                why={"key": "stale"},
            )
        try:
            result = handler(hub, payload)
        except SessionError as error:
            # The game was read back from the file; pages see what the file holds.
            hub.publish()
            raise refused_file(error) from None
        hub.publish()
        return {"ok": True, "version": hub.version()} | (result or {})


def _game(hub: TableHub) -> GameState:
    return hub.require_session().state


def apply_dict(hub: TableHub, data: object, source: str) -> None:
    """Apply an engine event given as JSON (Royale pairs are put in order by total first)."""
    state = _game(hub)
    if isinstance(data, dict) and data.get("type") == "deal" and state.rules.pairs_by_total:
        data = dict(data)
        # A malformed deal is left as it is: event_from_dict reports what is wrong with it.
        with contextlib.suppress(KeyError, TypeError, ValueError):
            data["casinos"] = [list(p) for p in arrange_pairs([tuple(p) for p in data["casinos"]])]
    try:
        event = event_from_dict(data)
    except IllegalMove as error:
        raise refused_move(error, 400) from None
    hub.apply_event(event, source)


def _players(raw: object, reserved: dict[str, tuple[str, str]]) -> tuple[list[str], list[str]]:
    """Names and dice colours from the new-game form, checked; no player may take a colour of
    `reserved` (see `web.setup.own_dice_colours`)."""
    if not isinstance(raw, list) or not raw:
        raise ActionError(400, 'players must be a list like [{"name": "Anna", "colour": "red"}]')
    names: list[str] = []
    colours: list[str] = []
    for entry in raw:
        if not isinstance(entry, dict):
            raise ActionError(
                400, f"each player is an object with a name and a colour, got {entry!r}"
            )
        colour = entry.get("colour")
        try:
            name = check_name(entry.get("name"))
        except IllegalMove as error:
            raise refused_move(error, 400) from None
        if colour not in COLOURS:
            raise ActionError(
                400, f"dice colour must be one of {', '.join(COLOURS)}, got {colour!r}"
            )
        if colour in reserved:
            what, key = reserved[colour]
            raise ActionError(
                400,
                f"{colour} dice are {what} in this game; pick another colour",
                why={"key": key},
            )
        names.append(name)
        colours.append(colour)
    if len(set(colours)) != len(colours):
        raise ActionError(
            400,
            f"each player needs their own dice colour, got {', '.join(colours)}",
            why={"key": "same_colour"},
        )
    return names, colours


def new_game_action(hub: TableHub, payload: Payload) -> Reply:
    """Start a new game: edition, options, players with colours, start player."""
    try:
        rules = make_rules(payload["edition"], payload.get("options", {}))
    except IllegalMove as error:
        raise refused_move(error, 400) from None
    names, colours = _players(payload.get("players"), own_dice_colours(rules))
    seats = read_seats(payload, len(names))
    try:
        state = new_game(rules, names, payload.get("start_player", 0))
    except IllegalMove as error:
        raise refused_move(error, 400) from None
    session = hub.start_game(state, colours, seats.to_json())
    warm_up(state, seats)
    return {"game_id": session.game_id}


def open_game_action(hub: TableHub, payload: Payload) -> None:
    """Put a stored game back on the table (resume, or look at a finished one)."""
    game_id = payload["game_id"]
    if game_id not in {g.game_id for g in hub.store.games()}:
        raise ActionError(404, f"there is no game {game_id} in this game file")
    hub.open_game(game_id)


def event_action(hub: TableHub, payload: Payload) -> None:
    """Apply one engine event built by the page (a placement, a deal, a tile decision ...)."""
    apply_dict(hub, payload["event"], "page")


def roll_action(hub: TableHub, payload: Payload) -> None:
    """A roll entered or corrected by hand, die by die; while a tile waits for its two extra
    dice, the throw of those (with Prime Time, `place` lists the values placed). Corrected from
    the camera's reading, `kept` says which of its dice the person kept (the others were no
    dice, or not of this roll), so the camera learns the colours of those alone."""
    state = _game(hub)
    try:
        roll = roll_from_entries(payload.get("dice"))
        kept = kept_from_entries(payload.get("kept"))
    except IllegalMove as error:
        raise refused_move(error, 400) from None
    pending = state.pending
    if state.phase is not Phase.TILE or pending is None or pending.ask != "extra dice":
        hub.apply_event(roll, "page", kept=kept)
        return
    choice: dict[str, object] = {"dice": list(roll.values())}
    if pending.code is TileCode.PRIME_TIME:
        choice["place"] = payload.get("place", [])
    hub.apply_event(tile_decision(pending.casino, choice), "page")


def simulate_action(hub: TableHub, payload: Payload) -> None:
    """Let chance decide what the game waits for: a deal, a roll, Rainbow draws, a tile throw."""
    state = _game(hub)
    event: Event | None = chance_event(state, hub.rng)
    if event is None and state.phase is Phase.ROLL:
        event = random_roll(state, hub.rng)
    if event is None and state.phase is Phase.CARDS:
        event = random_choice(state, hub.rng)  # a hand of cards dealt by chance, for a laptop game
    if event is None:
        raise ActionError(
            409, f"the game waits for a player's decision ({state.phase}), not for chance"
        )
    hub.apply_event(event, "simulated")


def _sim(hub: TableHub) -> SimulatedTable:
    table: SimulatedTable | None = (
        None if hub.camera is None else getattr(hub.camera, "sim_table", None)
    )
    if table is None:
        raise ActionError(409, "there is no simulated table: the camera is a real one")
    return table


def sim_throw_action(hub: TableHub, payload: Payload) -> None:
    """Throw the dice of the player to move onto the simulated table; the camera reads them."""
    from vision.simtable import SimDie

    state = _game(hub)
    if state.phase is not Phase.ROLL:
        raise ActionError(409, "the game does not wait for a roll now")
    table = _sim(hub)
    supply = state.supplies[state.current]
    own = hub.colours[state.current]
    dice = [
        SimDie(kind_colour(kind, own), hub.rng.randint(1, 6), kind is DieKind.BIGGY)
        for kind in DIE_KINDS
        for _ in range(getattr(supply, kind.value))
    ]
    table.clear()
    table.throw(dice)


def sim_take_action(hub: TableHub, payload: Payload) -> None:
    """Take the dice showing a number off the simulated table, as a player taking their choice."""
    _sim(hub).take(payload["pips"])


def sim_clear_action(hub: TableHub, payload: Payload) -> None:
    """Sweep the simulated table clear."""
    _sim(hub).clear()


def sim_lay_colours_action(hub: TableHub, payload: Payload) -> None:
    """Lay one die of each colour this game uses on the simulated table, for calibration."""
    from vision.simtable import SimDie

    _game(hub)
    table = _sim(hub)
    table.clear()
    names = calibration_names(hub.game, hub.colours)
    table.lay([SimDie(c, 1 + i % 6) for i, c in enumerate(names)])


def sim_misplace_action(hub: TableHub, payload: Payload) -> Reply:
    """Switch the simulated table's misplacement mode: at each round's end one die lies on
    the wrong casino, is left out, or is added (for demos and tests)."""
    _sim(hub)
    row = hub.sim_row()
    assert row is not None  # a simulated table has its casino row
    row.misplacing = bool(payload["on"])
    return {"misplacing": row.misplacing}


def sim_fix_casinos_action(hub: TableHub, payload: Payload) -> None:
    """Put the simulated casino row right: lay on each casino the dice the game holds."""
    from web.round_check import game_notes, game_row

    state = _game(hub)
    _sim(hub)
    row = hub.sim_row()
    assert row is not None
    row.lay(game_row(state, hub.colours), game_notes(state))


def placement_check_action(hub: TableHub, payload: Payload) -> Reply:
    """Switch the check of the casinos after every placement on or off (it is always made
    at the round's end)."""
    hub.placement_check = bool(payload["on"])
    return {"placement_check": hub.placement_check}


def check_table_action(hub: TableHub, payload: Payload) -> Reply:
    """Check the casinos on the table against the game now (after the table was put right)."""
    check = hub.check_table("page")
    return {"agrees": check.check.agrees, "payout_may_go_on": check.check.payout_may_go_on}


def undo_action(hub: TableHub, payload: Payload) -> None:
    """Take back the last step(s)."""
    hub.undo(payload.get("steps", 1))


def redo_action(hub: TableHub, payload: Payload) -> None:
    """Play an undone step again."""
    hub.redo()


def calibrate_action(hub: TableHub, payload: Payload) -> Reply:
    """Learn this table's colours from the dice now in the arena, one of each game colour."""
    names = calibration_names(hub.game, hub.colours)
    hub.set_palette(learn_palette(hub.camera_frame(), names, hub.reader_config()))
    return {"calibrated": names}


def zones_action(hub: TableHub, payload: Payload) -> Reply:
    """Set where the arena and casinos lie: from the marker sheet, from corners, or none."""
    mode = payload.get("mode")
    frame = hub.camera_frame() if mode in ("markers", "corners") else None
    zones = zones_asked(mode, payload.get("corners"), frame)
    hub.set_zones(zones)
    return {"zones": [] if zones is None else list(zones.names)}


def abandon_action(hub: TableHub, payload: Payload) -> None:
    """Set the game on the table aside for good (see `TableHub.abandon`)."""
    hub.abandon()


Handler = Callable[[TableHub, Payload], Reply | None]
"""One action: it changes the table through the hub, or raises ActionError and changes nothing."""

HANDLERS: dict[str, Handler] = {
    "new_game": new_game_action,
    "open_game": open_game_action,
    "event": event_action,
    "roll": roll_action,
    "simulate": simulate_action,
    "sim_throw": sim_throw_action,
    "sim_take": sim_take_action,
    "sim_clear": sim_clear_action,
    "sim_lay_colours": sim_lay_colours_action,
    "sim_misplace": sim_misplace_action,
    "sim_fix_casinos": sim_fix_casinos_action,
    "check_table": check_table_action,
    "placement_check": placement_check_action,
    "undo": undo_action,
    "redo": redo_action,
    "calibrate": calibrate_action,
    "zones": zones_action,
    "abandon": abandon_action,
    "bot": bot_action,
}

NEEDS_BASE = {
    "new_game",
    "open_game",
    "event",
    "roll",
    "simulate",
    "undo",
    "redo",
    "abandon",
    "bot",
}
"""Actions on the game itself: refused when the page's state is not the current one."""
