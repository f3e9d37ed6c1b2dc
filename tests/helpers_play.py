"""Shared helpers for the session and command-line tests: random games, file fingerprints."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

from companion.engine import apply
from companion.events import Event, event_from_dict, event_to_dict
from companion.rules import make_rules
from companion.session import _digest, _dumps
from companion.simulate import chance_event, play_random_game, random_choice
from companion.state import GameState, Phase, new_game

PLAYERS = ("Anna", "Ben", "Carla")


def fresh_game(
    options: dict[str, Any] | None = None, edition: str = "classic", players=PLAYERS
) -> GameState:
    """The setup state of a game with the given edition, options and seats."""
    return new_game(make_rules(edition, options or {}), list(players))


def next_random_event(state: GameState, rng: random.Random) -> Event:
    """The next event of a random game: chance when the game waits for it, else a random choice."""
    return chance_event(state, rng) or random_choice(state, rng)


def random_events(state: GameState, rng: random.Random, count: int) -> list[Event]:
    """Up to `count` events of a random game from `state` (fewer if the game ends)."""
    events = []
    engine_state = state
    while len(events) < count and engine_state.phase is not Phase.OVER:
        event = next_random_event(engine_state, rng)
        engine_state = apply(engine_state, event)
        events.append(event)
    return events


def full_random_game(options=None, seed: int = 0, edition: str = "classic", players=PLAYERS):
    """(setup state, every event, final state) of a whole random game."""
    initial = fresh_game(options, edition, players)
    final, events = play_random_game(initial, random.Random(seed))
    return initial, events, final


def file_hash(path: Path) -> str:
    """sha256 of a file's bytes (only meaningful once every connection to it is closed)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def events_table(path: Path) -> list[tuple]:
    """Every row of the events table, read with a fresh connection closed at once."""
    db = sqlite3.connect(path)
    try:
        return db.execute(
            "SELECT game_id, seq, payload, digest FROM events ORDER BY 1, 2"
        ).fetchall()
    finally:
        db.close()


def forge_payload(path: Path, game_id: int, seq: int, payload: dict[str, Any]) -> None:
    """Replace one event's payload and recompute the digest chain as the session would."""
    db = sqlite3.connect(path)
    try:
        with db:
            setup = db.execute("SELECT setup FROM games WHERE id = ?", (game_id,)).fetchone()[0]
            rows = db.execute(
                "SELECT seq, payload FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
            previous = _digest("", setup)
            for row_seq, row_payload in rows:
                text = _dumps(payload) if row_seq == seq else row_payload
                previous = _digest(previous, text)
                db.execute(
                    "UPDATE events SET payload = ?, digest = ? WHERE game_id = ? AND seq = ?",
                    (text, previous, game_id, row_seq),
                )
    finally:
        db.close()


def stored_payload(path: Path, game_id: int, seq: int) -> dict[str, Any]:
    """One stored event's payload as a dict."""
    db = sqlite3.connect(path)
    try:
        row = db.execute(
            "SELECT payload FROM events WHERE game_id = ? AND seq = ?", (game_id, seq)
        ).fetchone()
    finally:
        db.close()
    return json.loads(row[0])


def roundtrip(event: Event) -> Event:
    """An event through its stored form and back."""
    return event_from_dict(json.loads(json.dumps(event_to_dict(event))))
