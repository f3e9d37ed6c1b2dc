"""A game session: the event log in one SQLite file, with resume, undo and redo."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.engine import apply
from companion.errors import IllegalMove
from companion.events import Event, event_from_dict, event_to_dict
from companion.record import record_from_events, replay_record
from companion.rules import make_rules
from companion.state import GameState, Phase, new_game

SCHEMA_VERSION = "1"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL,
    setup TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    payload TEXT NOT NULL,
    digest TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS photos (
    game_id INTEGER NOT NULL REFERENCES games(id),
    round INTEGER NOT NULL,
    jpeg BLOB NOT NULL,
    info TEXT NOT NULL,
    PRIMARY KEY (game_id, round)
);
CREATE TABLE IF NOT EXISTS redo (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


TABLE_GAME = "table_game"
"""The setting that names the game on the table, so that a restart resumes that one."""


class SessionError(RuntimeError):
    """The game file cannot be used as it is; the message says why and what was kept."""


class GameNotFound(SessionError):
    """The game file holds no game of the number asked for."""


class WriteFailed(SessionError):
    """The game file could not be written (read-only, locked, a disk error); nothing was
    changed."""


class GameFileFull(WriteFailed):
    """The disk holding the game file is full; nothing was changed."""


def write_failed(path: Path, error: sqlite3.Error) -> WriteFailed:
    """The error to raise for a write that SQLite refused, its message saying what to do."""
    if getattr(error, "sqlite_errorname", "") == "SQLITE_FULL":
        return GameFileFull(
            f"the game file {path} could not be written: the disk is full. Nothing was "
            "changed; free some space and try again"
        )
    return WriteFailed(f"the game file {path} could not be written ({error}); nothing was changed")


_WRITE_ERRORS = ("SQLITE_FULL", "SQLITE_READONLY")
"""SQLite's names (and prefixes of names) for a file that could not be written, as opposed
to one that is damaged."""


def _digest(previous: str, payload: str) -> str:
    return hashlib.sha256((previous + "\n" + payload).encode()).hexdigest()


def _dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One stored game, for a history list."""

    game_id: int
    created: str
    players: tuple[str, ...]
    edition: str
    finished: bool
    events: int


def _setup_of(state: GameState) -> dict[str, Any]:
    return {
        "edition": state.rules.edition,
        "options": state.rules.options(),
        "players": list(state.players),
        "start_player": state.start_player,
    }


def _state_from_setup(setup: dict[str, Any]) -> GameState:
    rules = make_rules(setup["edition"], setup.get("options", {}))
    return new_game(rules, setup["players"], setup.get("start_player", 0), stored=True)


class GameStore:
    """The SQLite file holding every game played on this table."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.lock = threading.RLock()
        self._transaction_open = False
        if self.path.is_file() and self.path.stat().st_size == 0:
            # SQLite would take it for a new file; a game file emptied by accident stays as
            # it is, for the person who knows where its games went.
            raise SessionError(
                f"{self.path} is empty (0 bytes), not a game file; it was left untouched. "
                "Remove it, or name another file, to start a new one"
            )
        try:
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            check = self.db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise SessionError(f"{self.path} is damaged ({check}); it was left untouched")
            self._check_format()
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.executescript(_SCHEMA)
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
        except sqlite3.DatabaseError as error:
            if getattr(error, "sqlite_errorname", "").startswith(_WRITE_ERRORS):
                raise write_failed(self.path, error) from None
            raise SessionError(
                f"{self.path} is not a readable game file ({error}); it was left untouched"
            ) from None

    def _check_format(self) -> None:
        """Refuse, before writing anything, a file of another format or another program."""
        tables = {
            row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        if not tables:
            return  # a new, empty file
        if "meta" not in tables:
            raise SessionError(
                f"{self.path} is an SQLite file of another program (tables: "
                f"{', '.join(sorted(tables))}); it was left untouched"
            )
        row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None or row[0] != SCHEMA_VERSION:
            found = row[0] if row else "unknown"
            raise SessionError(
                f"{self.path} uses game file format {found}, this companion reads "
                f"{SCHEMA_VERSION}; it was left untouched"
            )

    def close(self) -> None:
        """Close the file; every stored event is already on disk."""
        self.db.close()

    def games(self) -> list[GameSummary]:
        """Every stored game, newest first."""
        rows = self.db.execute(
            "SELECT g.id, g.created, g.setup, g.finished, COUNT(e.seq) FROM games g "
            "LEFT JOIN events e ON e.game_id = g.id GROUP BY g.id ORDER BY g.id DESC"
        ).fetchall()
        result = []
        for game_id, created, setup, finished, count in rows:
            try:
                data = json.loads(setup)
                players, edition = tuple(map(str, data["players"])), str(data["edition"])
            except (ValueError, KeyError, TypeError):
                players, edition = (), "(damaged)"  # listed, but opening it reports why
            result.append(GameSummary(game_id, created, players, edition, bool(finished), count))
        return result

    def setting(self, key: str, default: Any = None) -> Any:
        """A stored table setting (player colours, colour palette, zones), JSON-decoded."""
        row = self.db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        if row is None:
            return default
        try:
            return json.loads(row[0])
        except ValueError:
            return default  # a damaged setting is as good as none; the game log is unaffected

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One atomic write: committed whole, or rolled back whole on any failure.

        A write SQLite refuses raises WriteFailed (GameFileFull for a full disk). Inside
        another transaction this one is part of it: the outer one commits or rolls back.
        """
        with self.lock:
            if self._transaction_open:
                yield
                return
            self._transaction_open = True
            try:
                self.db.execute("BEGIN IMMEDIATE")
                yield
                self.db.execute("COMMIT")
            except BaseException as error:
                # SQLite has already rolled back by itself after some failures (a full disk);
                # a ROLLBACK then would only raise and hide the first error.
                if self.db.in_transaction:
                    with suppress(sqlite3.Error):
                        self.db.execute("ROLLBACK")
                if isinstance(error, sqlite3.Error):
                    raise write_failed(self.path, error) from None
                raise
            finally:
                self._transaction_open = False

    def set_setting(self, key: str, value: Any) -> None:
        """Store a table setting as JSON, replacing the old value."""
        with self.transaction():
            self.db.execute(
                "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, _dumps(value))
            )

    def put_photo(self, game_id: int, round_number: int, jpeg: bytes, info: Any) -> None:
        """Keep a round's photo of the casinos (JPEG) with what was read on it (JSON), in
        place of an earlier one of that round: the evidence of the round-end check."""
        with self.transaction():
            self.db.execute(
                "INSERT OR REPLACE INTO photos (game_id, round, jpeg, info) VALUES (?, ?, ?, ?)",
                (game_id, round_number, jpeg, _dumps(info)),
            )

    def photo(self, game_id: int, round_number: int) -> bytes | None:
        """A round's photo of the casinos (JPEG), or None."""
        row = self.db.execute(
            "SELECT jpeg FROM photos WHERE game_id = ? AND round = ?", (game_id, round_number)
        ).fetchone()
        return None if row is None else bytes(row[0])

    def photo_rounds(self, game_id: int) -> list[int]:
        """The rounds of a game whose casinos were photographed, in order."""
        rows = self.db.execute(
            "SELECT round FROM photos WHERE game_id = ? ORDER BY round", (game_id,)
        ).fetchall()
        return [r[0] for r in rows]

    def latest_unfinished(self) -> int | None:
        """The id of the newest game that has not ended, if any."""
        row = self.db.execute(
            "SELECT id FROM games WHERE finished = 0 ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return row[0] if row else None

    def table_game(self) -> int | None:
        """The game to resume on the table: the one last put there while it is stored, else
        the newest unfinished one."""
        game_id = self.setting(TABLE_GAME)
        if isinstance(game_id, int) and not isinstance(game_id, bool):
            stored = self.db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone()
            if stored is not None:
                return game_id
        return self.latest_unfinished()

    def put_on_table(self, game_id: int) -> None:
        """Remember `game_id` as the game on the table, for the next start."""
        self.set_setting(TABLE_GAME, game_id)

    def new_game(self, state: GameState) -> GameSession:
        """Store a new game from its setup state and open it."""
        with self.transaction():
            created = datetime.now(UTC).isoformat(timespec="seconds")
            cursor = self.db.execute(
                "INSERT INTO games (created, setup) VALUES (?, ?)",
                (created, _dumps(_setup_of(state))),
            )
            return GameSession(self, int(cursor.lastrowid or 0))

    def import_record(self, record: Any) -> GameSession:
        """Replay a JSON record and store it as a new game (refused whole if any step fails)."""
        replay = replay_record(record)
        with self.transaction():
            session = self.new_game(replay.initial)
            session.write_events(replay.events)
        session.reload()
        return session

    def open(self, game_id: int) -> GameSession:
        """Open a stored game, checking its whole log first."""
        return GameSession(self, game_id)


class GameSession:
    """One game's log: apply events, undo, redo; every change is committed at once."""

    def __init__(self, store: GameStore, game_id: int) -> None:
        self.store = store
        self.game_id = game_id
        self.reload()

    @property
    def db(self) -> sqlite3.Connection:
        return self.store.db

    def reload(self) -> None:
        """Read and check the whole log; SessionError if any part fails its checks."""
        with self.store.lock:
            row = self.db.execute(
                "SELECT setup FROM games WHERE id = ?", (self.game_id,)
            ).fetchone()
            if row is None:
                raise GameNotFound(f"{self.store.path} holds no game {self.game_id}")
            where = f"game {self.game_id} in {self.store.path}"
            try:
                initial = _state_from_setup(json.loads(row[0]))
            except (ValueError, KeyError, TypeError, IllegalMove) as error:
                raise SessionError(f"{where}: its setup cannot be read ({error})") from None
            previous = _digest("", row[0])
            state = initial
            events: list[Event] = []
            for seq, payload, digest in self.db.execute(
                "SELECT seq, payload, digest FROM events WHERE game_id = ? ORDER BY seq",
                (self.game_id,),
            ):
                if seq != len(events) + 1:
                    raise SessionError(f"{where}: event {len(events) + 1} is missing from the log")
                previous = _digest(previous, payload)
                if digest != previous:
                    raise SessionError(
                        f"{where}: event {seq} does not match its checksum; the log was altered"
                    )
                try:
                    event = event_from_dict(json.loads(payload))
                    state = apply(state, event)
                except (ValueError, IllegalMove) as error:
                    raise SessionError(f"{where}: event {seq} fails the rules ({error})") from None
                events.append(event)
            self.initial = initial
            self.events = events
            self.state = state
            self._last_digest = previous

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """One atomic change of this game's log; on any failure the log is read back from
        the file, so that what is held here is always what the file holds."""
        try:
            with self.store.transaction():
                yield
        except BaseException:
            if not self.store._transaction_open:  # part of a larger write, which fails whole
                self.reload()
            raise

    def write_events(self, events: Iterable[Event], redo: bool = False) -> GameState:
        """Check and store events after the last one, all or none; then hold them.

        `redo` takes each from the front of the redo list; otherwise the redo list is cleared.
        IllegalMove leaves the game and its file unchanged.
        """
        with self.store.lock:
            state, digest, added, rows = self.state, self._last_digest, list(events), []
            for seq, event in enumerate(added, start=len(self.events) + 1):
                state = apply(state, event)  # IllegalMove here: nothing is written
                payload = _dumps(event_to_dict(event))
                digest = _digest(digest, payload)
                rows.append((self.game_id, seq, payload, digest))
            with self._writing():
                self.db.executemany(
                    "INSERT INTO events (game_id, seq, payload, digest) VALUES (?, ?, ?, ?)", rows
                )
                # Redone events leave the redo list; a new event ends every redo.
                last = len(self.events) + len(added) if redo else None
                self.db.execute(
                    "DELETE FROM redo WHERE game_id = ? AND (? IS NULL OR seq <= ?)",
                    (self.game_id, last, last),
                )
                self.db.execute(
                    "UPDATE games SET finished = ? WHERE id = ?",
                    (int(state.phase is Phase.OVER), self.game_id),
                )
            self.events.extend(added)
            self.state = state
            self._last_digest = digest
            return state

    def apply(self, event: Event) -> GameState:
        """Apply and store one event (IllegalMove leaves the game unchanged); clears redo."""
        return self.write_events([event])

    @property
    def head(self) -> str:
        """The checksum of the last event (of the setup when none): names this exact state."""
        return self._last_digest

    def can_undo(self) -> bool:
        """Whether there is a step to take back."""
        return bool(self.events)

    def can_redo(self) -> bool:
        """Whether an undone step can be played again."""
        row = self.db.execute(
            "SELECT COUNT(*) FROM redo WHERE game_id = ?", (self.game_id,)
        ).fetchone()
        return bool(row[0])

    def undo(self, steps: int = 1) -> GameState:
        """Take back the last `steps` events; they can be redone until a new event is applied."""
        with self.store.lock:
            if steps < 1:
                raise IllegalMove("undo", f"undo takes back at least 1 step, not {steps}")
            if steps > len(self.events):
                raise IllegalMove(
                    "undo",
                    f"only {len(self.events)} steps can be undone, not {steps}",
                    why={"key": "undo_none", "count": len(self.events)},
                )
            first = len(self.events) - steps + 1
            with self._writing():
                self.db.execute(
                    "INSERT OR REPLACE INTO redo (game_id, seq, payload) "
                    "SELECT game_id, seq, payload FROM events WHERE game_id = ? AND seq >= ?",
                    (self.game_id, first),
                )
                self.db.execute(
                    "DELETE FROM events WHERE game_id = ? AND seq >= ?", (self.game_id, first)
                )
                self.db.execute("UPDATE games SET finished = 0 WHERE id = ?", (self.game_id,))
            self.reload()
            return self.state

    def redo(self, steps: int = 1) -> GameState:
        """Play again the first `steps` undone events, all in one write."""
        if steps < 1:
            raise IllegalMove("redo", f"redo plays at least 1 step, not {steps}")
        with self.store.lock:
            rows = self.db.execute(
                "SELECT seq, payload FROM redo WHERE game_id = ? AND seq > ? ORDER BY seq",
                (self.game_id, len(self.events)),
            ).fetchall()
            if not rows:
                raise IllegalMove("redo", "there is nothing to redo", why={"key": "redo_none"})
            if steps > len(rows):
                raise IllegalMove("redo", f"only {len(rows)} steps can be redone, not {steps}")
            return self.write_events(
                [event_from_dict(json.loads(payload)) for _, payload in rows[:steps]], redo=True
            )

    def record(self) -> dict[str, Any]:
        """The game as a JSON record (see docs/record-format.md)."""
        return record_from_events(self.initial, self.events)


def open_or_create(path: str | Path, state: GameState | None = None) -> GameSession:
    """Resume the newest unfinished game in the file, or start `state` as a new one."""
    store = GameStore(path)
    game_id = store.latest_unfinished()
    if game_id is not None:
        return store.open(game_id)
    if state is None:
        raise SessionError(f"{path} holds no unfinished game to resume")
    return store.new_game(state)
