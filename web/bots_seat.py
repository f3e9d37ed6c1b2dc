"""Computer seats and the hint switch of a game, stored with it, and the bot's own action.

A game's seats are chosen on the new-game form: which players are computers (and how
strong), and whether hints are on, since the players agree to them or not. They are kept in
the game file beside the game's dice colours (`game:ID:seats`), so they survive a restart;
the game record is not changed by them. When a computer seat is to act, the page sends the
`bot` action: the server throws its dice at random (the page may instead ask someone to throw
them for the camera) or makes its decision, and applies it as one step of the game, undone
like a person's.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from companion.bots import PLAYERS, Player, search_player
from companion.choices import legal_choices
from companion.events import Event
from companion.hints import hint_supported, later_rounds
from companion.session import GameStore
from companion.simulate import chance_event, random_roll
from companion.state import GameState, Phase
from web.errors import ActionError

if TYPE_CHECKING:
    from web.hub import TableHub

LEVELS = ("greedy", "rules", "search")
"""The computer players a seat may have, weakest first (see docs/hints.md)."""

SEARCH_PLAYOUTS = 2000
"""The search seat's playouts a decision at most (about 0.16 s median, docs/hints.md)."""

SEARCH_SECONDS = 0.2
"""The search seat's clock: it decides within this however busy the machine is."""


@dataclass(frozen=True)
class Seats:
    """Whether hints are on for a game, and each seat's computer level (None: a person)."""

    hints: bool
    bots: tuple[str | None, ...]

    @classmethod
    def people(cls, players: int) -> Seats:
        """People in every seat, hints off: a game started without seats, or imported."""
        return cls(False, (None,) * players)

    def to_json(self) -> dict[str, Any]:
        """As stored in the game file and pushed to the pages: {"hints": .., "bots": [..]}."""
        return {"hints": self.hints, "bots": list(self.bots)}


def seats_key(game_id: int) -> str:
    """The game file's setting that holds a game's seats and hint switch."""
    return f"game:{game_id}:seats"


def read_seats(payload: dict[str, Any], players: int) -> Seats:
    """The new-game form's `hints` (true or false) and `bots` (one entry per player: a level
    of `LEVELS`, or null for a person), checked; a 400 that says what is wrong otherwise."""
    hints = payload.get("hints", False)
    bots = payload.get("bots")
    if bots is None:
        bots = [None] * players
    if not isinstance(bots, list) or len(bots) != players:
        raise ActionError(
            400, f"bots must list one entry per player ({players}), null for a person"
        )
    for level in bots:
        if level is not None and level not in LEVELS:
            raise ActionError(
                400, f"a bot's level must be one of {', '.join(LEVELS)} or null, got {level!r}"
            )
    if all(level is not None for level in bots):
        raise ActionError(400, "at least one seat must be a person; the bots play for the table")
    return Seats(bool(hints), tuple(bots))


def warm_up(state: GameState, seats: Seats) -> None:
    """Build the hint's table of later rounds for this game in the background, where hints or
    a search seat will need it: the first decision then takes its usual time, not the
    table's (about 0.3 s, seconds on a busy machine with many variants)."""
    if (seats.hints or "search" in seats.bots) and hint_supported(state):
        threading.Thread(
            target=later_rounds,
            args=(state.rules, len(state.players)),
            name="later-rounds",
            daemon=True,
        ).start()


def stored_seats(store: GameStore, game_id: int, players: int) -> Seats:
    """A game's seats as stored; a game without them (older, or imported) has people only."""
    stored = store.setting(seats_key(game_id))
    if not isinstance(stored, dict):
        return Seats.people(players)
    bots = stored.get("bots")
    if not isinstance(bots, list) or len(bots) != players:
        bots = [None] * players
    return Seats(stored.get("hints") is True, tuple(b if b in LEVELS else None for b in bots))


def seats_view(hub: TableHub) -> dict[str, Any] | None:
    """The seats of the game on the table as the page draws them, or None without a game."""
    session = hub.session
    if session is None:
        return None
    return stored_seats(hub.store, session.game_id, len(session.state.players)).to_json()


def switch_hints(hub: TableHub, on: bool) -> int:
    """Switch hints on or off for the game on the table, in the game file; its id."""
    session = hub.require_session()
    seats = stored_seats(hub.store, session.game_id, len(session.state.players))
    hub.store.set_setting(seats_key(session.game_id), replace(seats, hints=on).to_json())
    return session.game_id


def deciding_seat(state: GameState) -> int | None:
    """The seat the game waits for (to throw, place, lay out cards or settle a tile), or None
    while it waits for a deal, a payout or nobody."""
    if state.phase in (Phase.ROLL, Phase.CHOOSE, Phase.CARDS):
        return state.current
    if state.phase is Phase.TILE and state.pending is not None:
        return state.pending.seat
    return None


def seat_player(level: str) -> Player:
    """The computer player of a seat's level; the search seat has a clock."""
    if level == "search":
        return search_player(SEARCH_PLAYOUTS, seconds=SEARCH_SECONDS)
    return PLAYERS[level]()


def bot_event(state: GameState, level: str, rng: random.Random) -> Event:
    """What a computer seat does now: throw its dice, or decide (a placement, a tile's
    decision, its cards); a tile's extra dice are thrown by chance."""
    if state.phase is Phase.ROLL:
        return random_roll(state, rng)
    if legal_choices(state):
        return seat_player(level)(state, rng)
    event = chance_event(state, rng)
    if event is None:
        raise ActionError(409, f"the game waits for {state.phase}, not for a player")
    return event


def bot_action(hub: TableHub, payload: dict[str, Any]) -> dict[str, Any]:
    """The computer seat to act throws or decides, as one step of the game."""
    session = hub.require_session()
    state = session.state
    seat = deciding_seat(state)
    seats = stored_seats(hub.store, session.game_id, len(state.players))
    level = None if seat is None else seats.bots[seat]
    if seat is None or level is None:
        who = "nobody" if seat is None else state.players[seat]
        raise ActionError(409, f"no computer seat is to act now ({who} is)")
    # Seeded by the game and its step: the same position gets the same decision.
    rng = random.Random(f"{session.game_id}:{len(session.events)}")
    event = bot_event(state, level, rng)
    hub.apply_event(event, "bot")
    return {"bot": state.players[seat], "step": len(session.events)}
