"""The table hub: one game session, the camera's proposals, control by PIN, and pushes to pages.

Everything that changes the table goes through `TableHub.act` (from a page) or
`TableHub.on_camera_event` (from the camera thread), under one lock, so two
tablets acting at once are applied one after the other, and an action made on
a state that has changed since is refused instead of applied twice.
"""

from __future__ import annotations

import hashlib
import math
import queue
import random
import secrets
import threading
from typing import Any

from companion.errors import IllegalMove
from companion.session import GameSession, GameStore, SessionError
from vision.video import DiceLeft, RollSettled
from web import actions, setup
from web.errors import ActionError, refused_file, refused_move
from web.pin_guard import PinGuard
from web.reading import dice_from_detections, extra_dice_throw, propose_throw
from web.view import game_view, log_view

SUBSCRIBER_QUEUE = 64
"""Pushes held for a slow page before it is dropped (it reconnects and gets a full state)."""


def control_id(token: str) -> str:
    """A short public name of a control token, so a page can tell whether it holds control."""
    return hashlib.sha256(token.encode()).hexdigest()[:12]


class TableHub:
    """The state of the table that every page sees, and the one way to change it."""

    def __init__(
        self,
        store: GameStore,
        pin: str = "",
        seed: int | None = None,
        language: str = "en",
        threads: int = 1,
        camera_place: str = "auto",
    ) -> None:
        self.store = store
        self.threads = threads
        self.camera_place = camera_place
        self.palette: Any = None
        self.zones: Any = None
        setup.load_table_settings(self)
        self.pin = pin
        self.language = language
        self.lock = threading.RLock()
        self.rng = random.Random(seed)
        self.session: GameSession | None = None
        self.colours: tuple[str, ...] = ()
        self.reading: dict[str, Any] | None = None
        self.notice: dict[str, Any] | None = None
        self.camera: Any = None
        self.camera_status: dict[str, Any] = {"state": "off", "source": None, "message": ""}
        self.controller: str | None = None
        self.pin_guard = PinGuard()
        self.pin_alert: dict[str, Any] | None = None
        self.seq = 0
        self._subscribers: set[queue.Queue[dict[str, Any]]] = set()
        self._last: dict[str, Any] = {}
        game_id = store.table_game()
        if game_id is not None and not store.setting(actions.abandoned_key(game_id), False):
            # A game that fails its checks stops the start (SessionError): the person
            # starting the server learns which file and why, and the file stays as it is.
            self.show(store.open(game_id))

    # --- the game -----------------------------------------------------------------

    def open_game(self, game_id: int) -> None:
        """Make a stored game the one on the table (its log is checked on opening), and
        remember it there for the next start."""
        try:
            session = self.store.open(game_id)
            self.store.put_on_table(game_id)
        except SessionError as error:
            raise refused_file(error) from None
        self.show(session)

    def show(self, session: GameSession) -> None:
        """Put an opened game on the table, with its dice colours."""
        self.session = session
        self.colours = tuple(self.store.setting(f"game:{session.game_id}:colours", ()) or ())
        self.reading = None
        self.apply_reader_config()  # the colours in play name the dice until calibration

    def version(self) -> str:
        """Names the exact game state a page was drawn from: game id and log checksum."""
        if self.session is None:
            return "none"
        return f"{self.session.game_id}:{len(self.session.events)}:{self.session.head[:16]}"

    def require_session(self) -> GameSession:
        """The game on the table, or a 409 that says to start one."""
        if self.session is None:
            raise ActionError(
                409, "no game is on the table; start a new game first", why={"key": "no_game"}
            )
        return self.session

    def apply_event(self, event: Any, source: str) -> None:
        """Apply one engine event to the game on the table; IllegalMove becomes a 409."""
        session = self.require_session()
        try:
            session.apply(event)
        except IllegalMove as error:
            raise refused_move(error, 409) from None
        except SessionError as error:
            raise refused_file(error) from None
        self.notice = {"source": source, "event": event.kind}
        if event.kind != "roll":
            self.reading = None

    # --- control ------------------------------------------------------------------

    def take_control(self, pin: Any, client: str = "") -> str:
        """Give control to the device that knows the PIN; the previous controller becomes a viewer.

        `client` is the device's address: `PinGuard` slows its guessing, and every page is
        told how many wrong PINs were entered, until the right one is.
        """
        with self.lock:
            if self.pin:
                self._check_pin(pin, client)
            token = secrets.token_urlsafe(18)
            self.controller = token
            self.publish()
            return token

    def _check_pin(self, pin: Any, client: str) -> None:
        """Refuse a PIN while its client must wait, or when it is wrong (counting it)."""
        wait = math.ceil(self.pin_guard.wait_s(client))
        if wait > 0:
            raise ActionError(
                429,
                f"too many wrong PINs; wait {wait} s and try again",
                why={"key": "pin_wait", "seconds": wait},
            )
        given = pin.encode("utf-8", "surrogatepass") if isinstance(pin, str) else b""
        if not secrets.compare_digest(given, self.pin.encode()):
            self.pin_guard.wrong(client)
            wrong = 1 + (self.pin_alert or {}).get("wrong", 0)
            self.pin_alert = {"wrong": wrong, "client": client}
            self.publish()
            raise ActionError(
                403, "wrong PIN; this tablet stays a viewer", why={"key": "wrong_pin"}
            )
        self.pin_guard.right(client)
        self.pin_alert = None

    def controls(self, token: str | None) -> bool:
        """Whether a device may change the table: no PIN is set, or it holds the control token."""
        return not self.pin or (token is not None and token == self.controller)

    # --- actions ------------------------------------------------------------------

    def act(self, payload: Any, token: str | None) -> dict[str, Any]:
        """Carry out one action from a page, or raise ActionError and change nothing."""
        if not isinstance(payload, dict):
            raise ActionError(400, 'an action is a JSON object like {"action": "undo", ...}')
        name = payload.get("action")
        handler = actions.HANDLERS.get(name) if isinstance(name, str) else None
        if handler is None:
            known = ", ".join(sorted(actions.HANDLERS))
            raise ActionError(400, f"unknown action {name!r}; known actions: {known}")
        with self.lock:
            if not self.controls(token):
                raise ActionError(
                    403,
                    "this tablet is a viewer; enter the PIN to control the game",
                    why={"key": "viewer"},
                )
            if name in actions.NEEDS_BASE and payload.get("base") != self.version():
                raise ActionError(
                    409,
                    "the table changed since this page was drawn (another tablet or the "
                    "camera acted first); nothing was applied, the page now shows the table",
                    why={"key": "stale"},
                )
            try:
                result = handler(self, payload)
            except SessionError as error:
                # The game was read back from the file; pages see what the file holds.
                self.publish()
                raise refused_file(error) from None
            self.publish()
            return {"ok": True, "version": self.version()} | (result or {})

    # --- camera -------------------------------------------------------------------

    def on_camera_event(self, event: Any) -> None:
        """A settled roll or dice leaving the arena, from the camera thread."""
        with self.lock:
            try:
                if isinstance(event, RollSettled):
                    self._camera_roll(event.dice.to_dicts(), event.thrown().tolist())
                elif isinstance(event, DiceLeft):
                    self._camera_left(event.dice.to_dicts())
            except ActionError as error:
                self.notice = {"source": "camera", "problem": error.message}
            self.publish()

    def _camera_roll(self, dice: list[dict[str, Any]], thrown: list[bool]) -> None:
        """Propose the settled dice as the current roll (those `thrown` alone where only they
        fit); apply it when every die fits."""
        session = self.session
        if session is not None and str(session.state.phase) == "tile":
            throw = extra_dice_throw(session.state, dice_from_detections(dice), thrown)
            if throw is not None:  # a tile's two extra dice
                actions.apply_dict(self, throw, "camera")
            return
        if session is None or str(session.state.phase) != "roll":
            return  # dice settling while nobody rolls (bumped, or laid for calibration)
        proposal = propose_throw(session.state, self.colours, dice_from_detections(dice), thrown)
        proposal["version"] = self.version()
        self.reading = proposal
        if proposal["roll"] is not None:
            actions.apply_dict(self, proposal["roll"], "camera")
            self.reading = proposal | {"applied": True}

    def _camera_left(self, dice: list[dict[str, Any]]) -> None:
        """Dice that left the arena after a roll: if they are all one number, that is the choice."""
        session = self.session
        if self.notice is not None and "problem" in self.notice:
            self.notice = None  # the dice it was about are gone
        if session is not None and str(session.state.phase) == "roll" and self.reading is not None:
            if not self.reading.get("applied"):
                self.reading = None  # the flagged throw was swept away: wait for the next one
            return
        if session is None or str(session.state.phase) != "choose":
            return
        numbers = {int(d["pips"]) for d in dice}
        if len(numbers) != 1:
            return  # the player picked up the rest, or several numbers at once: not a choice
        number = numbers.pop()
        place = actions.unique_place(session.state, number, len(dice))
        if place is None:
            self.notice = {"source": "camera", "took": number}
            return
        self.apply_event(place, "camera")

    def attach_camera(self, camera: Any) -> None:
        """Use a live camera (vision.live.LiveCamera or alike) with this table's reader settings."""
        self.camera = camera
        self.apply_reader_config()

    def apply_reader_config(self) -> None:
        """Hand the current palette and zones to the camera's reader."""
        if self.camera is not None:
            self.camera.set_config(setup.reader_config(self))

    def set_camera_status(self, status: dict[str, Any]) -> None:
        """Record the camera's state (ok, lost, ...) and tell the pages when it, or the light
        the camera has judged, changes."""
        with self.lock:
            changed = any(status.get(k) != self.camera_status.get(k) for k in ("state", "light"))
            self.camera_status = status
            if changed:
                self.publish()

    # --- what the pages see --------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The whole table as the pages draw it."""
        session = self.session
        game = None if session is None else game_view(session.state, self.colours)
        if session is not None and game is not None:
            game["log"] = log_view(session.game_id, session.head, session.initial, session.events)
        reading = self.reading
        if (
            reading is not None
            and not reading.get("applied")
            and reading.get("version") != self.version()
        ):
            reading = None  # read for a state that has moved on
        return {
            "version": self.version(),
            "game_id": None if session is None else session.game_id,
            "game": game,
            "colours": list(self.colours),
            "can_undo": session is not None and session.can_undo(),
            "can_redo": session is not None and session.can_redo(),
            "reading": reading,
            "notice": self.notice,
            "camera": self.camera_status,
            "sim": self.camera is not None and getattr(self.camera, "sim_table", None) is not None,
            "pin_required": bool(self.pin),
            "controller": None if self.controller is None else control_id(self.controller),
            "pin_alert": self.pin_alert,
            "language": self.language,
            "zones": [] if self.zones is None else list(self.zones.names),
            "calibrated": getattr(self.palette, "reference_bgr", None) is not None,
        }

    def publish(self) -> None:
        """Push what changed since the last push to every open page."""
        with self.lock:
            snap = self.snapshot()
            changes = {k: v for k, v in snap.items() if self._last.get(k) != v}
            if not changes:
                return
            self.seq += 1
            self._last = snap
            message = {"type": "patch", "seq": self.seq, "changes": changes}
            for q in list(self._subscribers):
                try:
                    q.put_nowait(message)
                except queue.Full:
                    # A page that stopped reading; its stream ends and it reconnects for a full state.
                    self._subscribers.discard(q)

    def subscribe(self) -> tuple[queue.Queue[dict[str, Any]], dict[str, Any]]:
        """A queue of pushes for one page and the full state it starts from."""
        with self.lock:
            q: queue.Queue[dict[str, Any]] = queue.Queue(SUBSCRIBER_QUEUE)
            self._subscribers.add(q)
            snap = self.snapshot()
            self._last = self._last or snap
            return q, {"type": "full", "seq": self.seq, "state": snap}

    def unsubscribe(self, q: queue.Queue[dict[str, Any]]) -> None:
        """Forget a page that went away."""
        with self.lock:
            self._subscribers.discard(q)

    def is_subscribed(self, q: queue.Queue[dict[str, Any]]) -> bool:
        """Whether pushes still go to this queue (a page too slow to read is dropped)."""
        return q in self._subscribers
