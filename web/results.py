"""Results across games: who won each stored game and with how much money, every player's
statistics, and the roster of players with the colours they usually play (`web.roster`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, jsonify

from companion.session import GameStore, GameSummary, SessionError
from companion.standings import standings, winners
from companion.state import GameState, Phase
from web.hub import abandoned_key
from web.resources import hub
from web.roster import current

if TYPE_CHECKING:
    pass

bp = Blueprint("results", __name__, url_prefix="/api")

NEWEST = 200
"""Games read for results: enough for a club's season, few enough to answer at once."""


@dataclass(frozen=True)
class GameResult:
    """One stored game's outcome: money per player (in seat order) and the winners."""

    game_id: int
    players: tuple[str, ...]
    money: tuple[int, ...]
    winners: tuple[str, ...]
    finished: bool
    round: int
    notes_by_casino: tuple[dict[int, int], ...] = field(default_factory=tuple)


_CACHE: dict[tuple[str, int, str, int], GameResult | None] = {}
"""Results by game file, game id, start time and number of steps: a stored game only changes
by gaining steps (another game file, or one made anew, numbers its games from 1 again)."""


def game_result(store: GameStore, summary: GameSummary) -> GameResult | None:
    """A stored game's result, or None where its log cannot be read."""
    key = (str(store.path.resolve()), summary.game_id, summary.created, summary.events)
    if key not in _CACHE:
        try:
            state = store.open(summary.game_id).state
        except SessionError:
            _CACHE[key] = None
        else:
            _CACHE[key] = _result(summary, state)
    return _CACHE[key]


def _result(summary: GameSummary, state: GameState) -> GameResult:
    money = {row.player: row.money for row in standings(state)}
    notes: list[Counter[int]] = [Counter() for _ in state.players]
    for payout in state.payouts:
        for casino in payout.casinos:
            for award in casino.awards:
                if award.owner >= 0:
                    notes[award.owner][casino.casino] += 1
    return GameResult(
        game_id=summary.game_id,
        players=state.players,
        money=tuple(money[name] for name in state.players),
        winners=winners(state) if state.phase is Phase.OVER else (),
        finished=state.phase is Phase.OVER,
        round=state.round,
        notes_by_casino=tuple(dict(c) for c in notes),
    )


def player_stats(results: list[GameResult]) -> list[dict[str, Any]]:
    """Per player over finished games: games, wins, average and best money, notes per casino."""
    stats: dict[str, dict[str, Any]] = {}
    for result in results:
        if not result.finished:
            continue
        for seat, name in enumerate(result.players):
            row = stats.setdefault(
                name, {"name": name, "games": 0, "wins": 0, "total": 0, "best": 0, "notes": {}}
            )
            row["games"] += 1
            row["wins"] += name in result.winners
            row["total"] += result.money[seat]
            row["best"] = max(row["best"], result.money[seat])
            for casino, count in result.notes_by_casino[seat].items():
                row["notes"][str(casino)] = row["notes"].get(str(casino), 0) + count
    rows = []
    for row in stats.values():
        total = row.pop("total")
        rows.append(row | {"average": round(total / row["games"])})
    return sorted(rows, key=lambda r: (-r["wins"], -r["average"], r["name"]))


@bp.get("/results")
def results() -> Response:
    """Each stored game's winners and money, players' statistics, and the roster."""
    table = hub()
    with table.lock:
        summaries = table.store.games()[:NEWEST]
        found = [game_result(table.store, s) for s in summaries]
        listed = [r for r in found if r is not None]
        players = [p.as_json() for p in current(table.store, table.store.games())]
    return jsonify(
        {
            "games": [
                {
                    "game_id": r.game_id,
                    "players": list(r.players),
                    "money": list(r.money),
                    "winners": list(r.winners),
                    "finished": r.finished,
                    "abandoned": bool(table.store.setting(abandoned_key(r.game_id), False)),
                    "round": r.round,
                }
                for r in listed
            ],
            "players": player_stats(listed),
            "roster": players,
        }
    )
