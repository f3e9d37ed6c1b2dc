"""The table hub: one game session, the camera's proposals, control by PIN, and pushes to pages.

Everything that changes the table goes through the hub's methods, under one lock: the page's
actions (`web.actions.act`) and the camera's events (`TableHub.on_camera_event`, from the
camera thread). So two tablets acting at once are applied one after the other, and an action
made on a state that has changed since is refused instead of applied twice.
"""

from __future__ import annotations

import hashlib
import logging
import math
import queue
import random
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

import numpy as np

from companion.errors import IllegalMove
from companion.events import CorrectCasino, Event, Place, ResolvePayout, Roll
from companion.proposal import (
    ReadDie,
    extra_dice_throw,
    propose_throw,
    roll_colours,
    unique_place,
)
from companion.session import GameSession, GameStore, SessionError
from companion.state import GameState, Phase
from vision.colour import Palette, default_palette, palette_to_json
from vision.detections import Detections
from vision.reader import ReaderConfig
from vision.sim_row import SimCasinoRow, casino_row_of
from vision.video import DiceLeft, RollSettled
from vision.zones import Zones
from web import round_check, setup
from web.bots_seat import seats_key, seats_view
from web.errors import ActionError, refused_file, refused_move
from web.pin_guard import PinGuard
from web.pushes import Message, Pushes, Snapshot
from web.reading import dice_read
from web.table import Notice, OnTable, PinAlert, Reading, RoundCheck
from web.view import (
    game_view,
    log_view,
    notice_view,
    pin_alert_view,
    reading_view,
    table_check_view,
)

log = logging.getLogger(__name__)

ROLLS_THAT_TEACH = frozenset({"camera", "page"})
"""Who applied a roll whose colours the camera learns from: it read it, or a person put it
right by hand; a roll drawn by chance or by a bot says nothing of the dice in the arena."""


class Camera(Protocol):
    """What the hub needs of a live camera (`vision.live.LiveCamera` or a test's stand-in)."""

    def set_config(self, config: ReaderConfig) -> None:
        """Read with these settings from now on."""

    def snapshot(self) -> np.ndarray | None:
        """The latest picture, or None when there is none."""

    def with_learnt_colours(self, config: ReaderConfig) -> ReaderConfig:
        """`config` under what the camera learnt of the dice's colours from the rolls."""

    def roll_applied(
        self, dice: Detections, used: Sequence[bool], colours: Mapping[str, int]
    ) -> bool:
        """The table applied a roll read from `dice` (those `used`), holding so many dice of
        each colour; whether the camera learnt from it."""

    def learnt_colours(self) -> dict[str, Any] | None:
        """What the camera learnt of the dice's colours from play, JSON-ready (None before)."""

    def restore_learnt_colours(self, data: object) -> None:
        """Take up colours learnt from play before a restart."""


def control_id(token: str) -> str:
    """A short public name of a control token, so a page can tell whether it holds control."""
    return hashlib.sha256(token.encode()).hexdigest()[:12]


def abandoned_key(game_id: int) -> str:
    """The table setting that marks a game as abandoned (set aside for good, never finished)."""
    return f"game:{game_id}:abandoned"


def colours_learnt_key(game_id: int) -> str:
    """The table setting that holds what the camera learnt of a game's dice colours from its
    rolls (`vision.live_learning.ColoursFromPlay`), so a restart keeps it."""
    return f"game:{game_id}:colours_learnt"


def colours_key(game_id: int) -> str:
    """The table setting that holds a game's dice colours, one per seat."""
    return f"game:{game_id}:colours"


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
        self.camera_setup = setup.load_camera_setup(store, threads, camera_place)
        self.pin = pin
        self.language = language
        self.lock = threading.RLock()
        self.rng = random.Random(seed)
        self.table = OnTable()
        self.camera: Camera | None = None
        self.camera_status: dict[str, object] = {"state": "off", "source": None, "message": ""}
        self.controller: str | None = None
        self.pin_guard = PinGuard()
        self.pin_alert: PinAlert | None = None
        self.pushes = Pushes()
        self.placement_check = (
            False  # check the casinos after every placement, not only at round end
        )
        game_id = store.table_game()
        if game_id is not None and not store.setting(abandoned_key(game_id), False):
            # A game that fails its checks stops the start (SessionError): the person
            # starting the server learns which file and why, and the file stays as it is.
            self.show(store.open(game_id))

    # --- the game -----------------------------------------------------------------

    @property
    def session(self) -> GameSession | None:
        """The game on the table, or None."""
        return self.table.session

    @property
    def colours(self) -> tuple[str, ...]:
        """The dice colours of the game on the table, one per seat."""
        return self.table.colours

    @property
    def game(self) -> GameState | None:
        """The state of the game on the table, or None."""
        return None if self.table.session is None else self.table.session.state

    def open_game(self, game_id: int) -> None:
        """Make a stored game the one on the table (its log is checked on opening), and
        remember it there for the next start."""
        try:
            session = self.store.open(game_id)
            self.store.put_on_table(game_id)
        except SessionError as error:
            raise refused_file(error) from None
        self.show(session)

    def start_game(
        self, state: GameState, colours: Sequence[str], seats: Mapping[str, object] | None = None
    ) -> GameSession:
        """Store a new game with its dice colours (and its computer seats and hint switch,
        `web.bots_seat`) and put it on the table."""
        with self.store.transaction():  # the game, its colours and its place on the table, or none
            session = self.store.new_game(state)
            self.store.set_setting(colours_key(session.game_id), list(colours))
            if seats is not None:
                self.store.set_setting(seats_key(session.game_id), dict(seats))
            self.store.put_on_table(session.game_id)
        self.show(session)
        self.clear_notice()
        return session

    def show(self, session: GameSession) -> None:
        """Put an opened game on the table, with its dice colours."""
        colours = tuple(self.store.setting(colours_key(session.game_id), ()) or ())
        photos = tuple(self.store.photo_rounds(session.game_id))
        self.table = OnTable(session, colours, None, self.table.notice, photos=photos)
        self.apply_reader_config()  # the colours in play name the dice until calibration

    def abandon(self) -> None:
        """Set the game on the table aside for good: it stays in the game file, marked
        abandoned, and the table waits for a new game."""
        session = self.require_session()
        if session.state.phase is Phase.OVER:
            raise ActionError(
                409, "a finished game cannot be abandoned", why={"key": "abandon_over"}
            )
        self.store.set_setting(abandoned_key(session.game_id), True)
        self.table = OnTable(colours=self.colours)  # the page keeps the last colours offered

    def version(self) -> str:
        """Names the exact game state a page was drawn from: game id and log checksum."""
        session = self.session
        if session is None:
            return "none"
        return f"{session.game_id}:{len(session.events)}:{session.head[:16]}"

    def require_session(self) -> GameSession:
        """The game on the table, or a 409 that says to start one."""
        if self.session is None:
            raise ActionError(
                409, "no game is on the table; start a new game first", why={"key": "no_game"}
            )
        return self.session

    def apply_event(self, event: Event, source: str, kept: Sequence[bool] | None = None) -> None:
        """Apply one engine event to the game on the table; IllegalMove becomes a 409. The
        payout waits while the table's casinos, checked for this very state, differ from the
        game's, or hold dice not read for sure that may change the payout. For a roll put
        right from the camera's reading, `kept` says which of the reading's dice the person
        kept (None: all)."""
        session = self.require_session()
        before, version = session.state, self.version()
        check = self.current_check()
        if (
            isinstance(event, ResolvePayout)
            and check is not None
            and not check.check.payout_may_go_on
        ):
            raise ActionError(
                409,
                "the casinos on the table differ from the game, or hold dice not read for sure "
                "that may change the payout: correct the game, or put the table right and "
                "check it again, before the payout",
                why={"key": "check_differs"},
            )
        try:
            session.apply(event)
        except IllegalMove as error:
            raise refused_move(error, 409) from None
        except SessionError as error:
            raise refused_file(error) from None
        reading = self.table.reading if isinstance(event, Roll) else None  # the roll it read
        self.table = replace(self.table, reading=reading, notice=Notice(source, event=event.kind))
        if isinstance(event, Roll) and source in ROLLS_THAT_TEACH:
            self._teach_camera(before, version, event, reading, kept)
        self._followed(before, event)

    def _teach_camera(
        self,
        before: GameState,
        version: str,
        roll: Roll,
        reading: Reading | None,
        kept: Sequence[bool] | None,
    ) -> None:
        """Tell the camera the colours of a roll applied in `before` (the game state `version`)
        from its reading of that state (as read, or put right by a person, who `kept` some of
        its dice): until calibration it learns the dice's colours from play."""
        if self.camera is None or reading is None or reading.read_from is None:
            return
        if reading.version != version:
            return  # read for another state: those dice are not this roll's
        used = list(reading.used)
        if kept is not None:
            proposed = [i for i, u in enumerate(used) if u]
            if len(kept) != len(proposed):
                return  # not the dice the page showed: which box is which is unknown
            for i, keep in zip(proposed, kept, strict=True):
                used[i] = keep
        colours = roll_colours(before, self.colours, roll)
        try:
            taught = self.camera.roll_applied(reading.read_from, used, colours)
            learnt = self.camera.learnt_colours() if taught else None
        except Exception:  # noqa: BLE001 - the roll stands though the camera could not learn
            log.exception("the camera could not learn the colours of the roll")
            return
        session = self.session
        if learnt is not None and session is not None:
            try:
                self.store.set_setting(colours_learnt_key(session.game_id), learnt)
            except SessionError as error:  # a full disk: the camera still knows them
                log.warning("the colours learnt were not kept in the game file: %s", error)

    def undo(self, steps: int, source: str = "page") -> None:
        """Take back the last `steps` steps; the camera's reading goes with them."""
        before = self.game
        self._step_back_or_again(lambda session: session.undo(steps))
        self.table = replace(self.table, reading=None, notice=Notice(source, event="undo"))
        self._followed(before, None)

    def redo(self, source: str = "page") -> None:
        """Play an undone step again."""
        before = self.game
        self._step_back_or_again(lambda session: session.redo(1))
        self.table = replace(self.table, notice=Notice(source, event="redo"))
        self._followed(before, None)

    def _step_back_or_again(self, step: Callable[[GameSession], object]) -> None:
        """Undo or redo on the game on the table; a refusal becomes the page's."""
        session = self.require_session()
        try:
            step(session)
        except IllegalMove as error:
            raise refused_move(error, 409) from None
        except SessionError as error:
            raise refused_file(error) from None

    def clear_notice(self) -> None:
        """Forget the last notice (a new game starts without one)."""
        self.table = replace(self.table, notice=None)

    def forget_reading(self) -> None:
        """Forget the camera's reading (its dice were taken back)."""
        self.table = replace(self.table, reading=None)

    # --- the round-end check of the casinos -------------------------------------------

    def sim_row(self) -> SimCasinoRow | None:
        """The simulated table's casino row (None with a real camera or none), laid as the
        game on the table holds it when it follows another game."""
        table = None if self.camera is None else getattr(self.camera, "sim_table", None)
        if table is None:
            return None
        row = casino_row_of(table)
        session = self.session
        following = None if session is None else session.game_id
        if row.following != following:
            row.following = following
            round_check.follow_game(row, None, self.game, None, self.colours)
        return row

    def _followed(self, before: GameState | None, event: Event | None) -> None:
        """After a step: the simulated casino row follows it, and when the game comes to a
        payout (the last die placed, or its casinos corrected) the camera checks the table;
        with the placement check on, after every placement too (a die seen landing on the
        wrong casino is flagged while it is cheapest to fix)."""
        after = self.game
        row = self.sim_row()
        if row is not None:
            round_check.follow_game(row, before, after, event, self.colours)
        if after is None or self.camera is None:
            return
        placed = isinstance(event, Place | CorrectCasino) and after.phase is Phase.ROLL
        placed = placed and self.placement_check
        if not placed and after.phase is not Phase.PAYOUT:
            return
        if before is not None and before.phase is Phase.PAYOUT and before.casinos == after.casinos:
            return
        try:
            self.check_table("camera")
        except ActionError:
            pass  # no casino in view, or no picture: the table is paid out as the game holds it
        except ValueError as error:  # the simulated row cannot lay so many dice on a card
            self.table = replace(self.table, notice=Notice("camera", problem=str(error)))

    def current_check(self) -> RoundCheck | None:
        """The last check of the casinos, while the game is in the state it was made for."""
        check = self.table.check
        return check if check is not None and check.version == self.version() else None

    def casino_frame(self) -> np.ndarray | None:
        """The picture of the casino row: the simulated table's, or the camera's latest."""
        row = self.sim_row()
        return row.frame() if row is not None else self.camera_frame()

    def _row_config(self) -> ReaderConfig:
        """The reader settings for the casino row: the table's, with what the camera learnt of
        the dice's colours from the rolls until calibration (the row lies under the same lamp:
        the colours learnt from play, else the light judged); but for the simulated row the
        built-in colours (it is drawn in them under its own light, not under the arena's lamp
        that a calibrated palette learned)."""
        if self.sim_row() is None:
            config = self.reader_config()
            return config if self.camera is None else self.camera.with_learnt_colours(config)
        built_in = replace(self.camera_setup, palette=default_palette())
        return setup.reader_config(built_in, self.game, self.colours)

    def check_table(self, source: str) -> RoundCheck:
        """Read the casino row from the camera, compare it with the game, keep the check and
        its photo (in the game file, as that round's evidence). A photo the file cannot take
        refuses a person's check (507); the camera's own check is kept without it."""
        session = self.require_session()
        state = session.state
        if state.rules.play != "dice":
            raise ActionError(
                409,
                "the card game lays cards, not dice: there is nothing to check",
                why={"key": "check_cards"},
            )
        if state.phase not in (Phase.ROLL, Phase.PAYOUT):
            raise ActionError(
                409,
                "the casinos are checked between turns or before the payout",
                why={"key": "check_when"},
            )
        frame = self.casino_frame()
        if frame is None:
            raise ActionError(
                409, "the camera shows no picture to check", why={"key": "check_no_picture"}
            )
        zones = round_check.row_zones(frame, self.camera_setup.zones)
        if zones is None:
            raise ActionError(
                409,
                "the camera sees no casino: lay the casino cards with their markers in view, "
                "or mark their corners",
                why={"key": "check_no_casinos"},
            )
        made, jpeg = round_check.check_frame(state, self.colours, frame, zones, self._row_config())
        stored = True
        try:
            self.store.put_photo(session.game_id, state.round, jpeg, made.check.to_dict())
        except SessionError as error:
            if source != "camera":
                raise refused_file(error) from None
            stored = False
        look = 1 + (0 if self.table.check is None else self.table.check.look)
        check = replace(made, version=self.version(), source=source, stored=stored, look=look)
        photos = tuple(self.store.photo_rounds(session.game_id))
        self.table = replace(self.table, check=check, photos=photos)
        return check

    # --- control ------------------------------------------------------------------

    def take_control(self, pin: object, client: str = "") -> str:
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

    def _check_pin(self, pin: object, client: str) -> None:
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
            wrong = 1 + (0 if self.pin_alert is None else self.pin_alert.wrong)
            self.pin_alert = PinAlert(wrong, client)
            self.publish()
            raise ActionError(
                403, "wrong PIN; this tablet stays a viewer", why={"key": "wrong_pin"}
            )
        self.pin_guard.right(client)
        self.pin_alert = None

    def controls(self, token: str | None) -> bool:
        """Whether a device may change the table: no PIN is set, or it holds the control token."""
        return not self.pin or (token is not None and token == self.controller)

    # --- camera -------------------------------------------------------------------

    def on_camera_event(self, event: object) -> None:
        """A settled roll or dice leaving the arena, from the camera thread."""
        with self.lock:
            try:
                if isinstance(event, RollSettled):
                    self._camera_roll(event.dice, event.thrown().tolist())
                elif isinstance(event, DiceLeft):
                    self._camera_left(dice_read(event.dice))
            except ActionError as error:
                self.table = replace(self.table, notice=Notice("camera", problem=error.message))
            self.publish()

    def _camera_roll(self, settled: Detections, thrown: Sequence[bool]) -> None:
        """Propose the settled dice as the current roll (those `thrown` alone where only they
        fit); apply it when every die fits."""
        dice = dice_read(settled)
        game = self.game
        if game is not None and game.phase is Phase.TILE:
            decision = extra_dice_throw(game, dice, thrown)
            if decision is not None:  # a tile's two extra dice
                self.apply_event(decision, "camera")
            return
        if game is None or game.phase is not Phase.ROLL:
            return  # dice settling while nobody rolls (bumped, or laid for calibration)
        proposal = propose_throw(game, self.colours, dice, thrown)
        used = tuple(thrown) if proposal.left_out else (True,) * len(dice)
        reading = Reading(proposal, self.version(), read_from=settled, used=used)
        self.table = replace(self.table, reading=reading)
        if proposal.roll is not None:
            self.apply_event(proposal.roll, "camera")
            self.table = replace(self.table, reading=replace(reading, applied=True))

    def _camera_left(self, dice: Sequence[ReadDie]) -> None:
        """Dice that left the arena after a roll: if they are all one number, that is the choice."""
        game, reading = self.game, self.table.reading
        if self.table.notice is not None and self.table.notice.problem is not None:
            self.clear_notice()  # the dice it was about are gone
        if game is not None and game.phase is Phase.ROLL and reading is not None:
            if not reading.applied:
                self.forget_reading()  # the flagged throw was swept away: wait for the next one
            return
        if game is None or game.phase is not Phase.CHOOSE:
            return
        numbers = {die.pips for die in dice}
        if len(numbers) != 1:
            return  # the player picked up the rest, or several numbers at once: not a choice
        number = numbers.pop()
        place = unique_place(game, number, len(dice))
        if place is None:
            self.table = replace(self.table, notice=Notice("camera", took=number))
            return
        self.apply_event(place, "camera")

    def attach_camera(self, camera: Camera) -> None:
        """Use a live camera (vision.live.LiveCamera or alike) with this table's reader settings."""
        self.camera = camera
        self.apply_reader_config()

    def camera_frame(self) -> np.ndarray | None:
        """The camera's latest picture, or None without a camera or a picture."""
        return None if self.camera is None else self.camera.snapshot()

    def reader_config(self) -> ReaderConfig:
        """The reader settings for this table and the game on it (see `web.setup.reader_config`)."""
        return setup.reader_config(self.camera_setup, self.game, self.colours)

    def apply_reader_config(self) -> None:
        """Hand the current palette and zones to the camera's reader, and the colours it learnt
        from this game's rolls before a restart."""
        if self.camera is None:
            return
        self.camera.set_config(self.reader_config())
        session = self.session
        if session is not None:
            learnt = self.store.setting(colours_learnt_key(session.game_id), None)
            if learnt is not None:
                self.camera.restore_learnt_colours(learnt)

    def set_palette(self, palette: Palette) -> None:
        """Keep a calibrated palette in the game file and read with it; the camera then settles
        its exposure and white balance and locks them."""
        self.store.set_setting("palette", palette_to_json(palette))
        # After the file took it: a refused write changes nothing.
        self.camera_setup = replace(self.camera_setup, palette=palette)
        self.apply_reader_config()
        settle = getattr(self.camera, "settle_and_lock", None)
        if callable(settle):
            settle()

    def set_zones(self, zones: Zones | None) -> None:
        """Keep where the zones lie (None: nowhere marked) in the game file and read with them."""
        self.store.set_setting("zones", None if zones is None else setup.zones_to_json(zones))
        # After the file took them: a refused write changes nothing.
        self.camera_setup = replace(self.camera_setup, zones=zones)
        self.apply_reader_config()

    def set_camera_status(self, status: dict[str, object]) -> None:
        """Record the camera's state (ok, lost, ...) and tell the pages when it, the light the
        camera has judged, or the colours it learnt from play, change."""
        with self.lock:
            told = ("state", "light", "colours_learnt", "every_colour_learnt")
            changed = any(status.get(k) != self.camera_status.get(k) for k in told)
            self.camera_status = status
            if changed:
                self.publish()

    # --- what the pages see --------------------------------------------------------

    def snapshot(self) -> Snapshot:
        """The whole table as the pages draw it."""
        session, reading, notice = self.session, self.table.reading, self.table.notice
        check, sim_row = self.current_check(), self.sim_row()
        game = None if session is None else game_view(session.state, self.colours)
        if session is not None and game is not None:
            game["log"] = log_view(session.game_id, session.head, session.initial, session.events)
        if reading is not None and not reading.applied and reading.version != self.version():
            reading = None  # read for a state that has moved on
        palette, zones = self.camera_setup.palette, self.camera_setup.zones
        return {
            "version": self.version(),
            "game_id": None if session is None else session.game_id,
            "game": game,
            "colours": list(self.colours),
            "seats": seats_view(self),
            "can_undo": session is not None and session.can_undo(),
            "can_redo": session is not None and session.can_redo(),
            "reading": None if reading is None else reading_view(reading),
            "table_check": (
                None
                if check is None or session is None
                else table_check_view(check, session.game_id, session.state, self.colours)
            ),
            "photos": list(self.table.photos),
            "notice": None if notice is None else notice_view(notice),
            "camera": self.camera_status,
            "sim": self.camera is not None and getattr(self.camera, "sim_table", None) is not None,
            "sim_misplacing": bool(sim_row is not None and sim_row.misplacing),
            "placement_check": self.placement_check,
            "pin_required": bool(self.pin),
            "controller": None if self.controller is None else control_id(self.controller),
            "pin_alert": None if self.pin_alert is None else pin_alert_view(self.pin_alert),
            "language": self.language,
            "zones": [] if zones is None else list(zones.names),
            "calibrated": palette.reference_bgr is not None,
        }

    def publish(self) -> None:
        """Push what changed since the last push to every open page."""
        with self.lock:
            self.pushes.publish(self.snapshot())

    def subscribe(self) -> tuple[queue.Queue[Message], Message]:
        """A queue of pushes for one page and the full state it starts from."""
        with self.lock:
            return self.pushes.subscribe(self.snapshot())

    def unsubscribe(self, q: queue.Queue[Message]) -> None:
        """Forget a page that went away."""
        self.pushes.unsubscribe(q)

    def is_subscribed(self, q: queue.Queue[Message]) -> bool:
        """Whether pushes still go to this queue (a page too slow to read is dropped)."""
        return self.pushes.is_subscribed(q)
