"""A game's log in words' building blocks: one entry per move, owners kept as numbers.

Each entry is a small dict with a `key` (what happened) and the values a page or the terminal
needs to say it ("Ben places 3 × 6 on casino 6"); the wording itself lives with whoever draws
it. `step` is the number of the event that made the entry, so an undo can name what it undid.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.engine import apply
from companion.events import (
    SLOT_MACHINE,
    SPECIAL_KINDS,
    CorrectCasino,
    DealRound,
    Event,
    Place,
    PlayCards,
    PowerPlay,
    ReplaceRainbows,
    ResolvePayout,
    Roll,
    Skip,
    TileDecision,
)
from companion.standings import winners
from companion.state import GameState, Phase
from companion.tiles import tile_name

Entry = dict[str, Any]


def _place(state: GameState, event: Place) -> Entry:
    roll = state.pending_roll
    n = event.number

    def count(values: Sequence[int]) -> int:
        return list(values).count(n)

    regular = count(roll.regular) if roll else 0
    biggy = count(roll.biggy) if roll else 0
    entry: Entry = {
        "what": "place",
        "seat": state.current,
        "number": n,
        "casino": SLOT_MACHINE if event.slot else n,
        "dice": regular,
        **{kind.value: count(roll.of(kind)) if roll else 0 for kind in SPECIAL_KINDS},
        "counted": regular + 2 * biggy,
    }
    if event.kicks:
        entry["kicks"] = [{"owner": k.owner, "big": k.big} for k in event.kicks]
    if event.chip:
        entry["chip"] = event.chip
    return entry


def _payout(after: GameState) -> list[Entry]:
    payout = after.payouts[-1]
    entries: list[Entry] = [{"what": "payout", "round": payout.round}]
    for casino in payout.casinos:
        for group in casino.tied:
            entries.append(
                {
                    "what": "tie",
                    "casino": casino.casino,
                    "owners": list(group.owners),
                    "dice": group.dice,
                }
            )
        for award in casino.awards:
            entries.append(
                {"what": "award", "casino": casino.casino, "owner": award.owner, "note": award.note}
            )
    for effect in payout.tile_effects:
        entries.append(
            {
                "what": "tile_effect",
                "casino": effect.casino,
                "tile": tile_name(effect.code),
                "owner": effect.owner,
                "money": effect.money,
                "chips": effect.chips,
            }
        )
    return entries


def entries_for(before: GameState, event: Event, after: GameState) -> list[Entry]:
    """The log entries of one event applied to `before` (giving `after`)."""
    seat = before.current
    entries: list[Entry]
    match event:
        case DealRound():
            entries = [{"what": "deal", "round": before.round}]
        case Roll():
            entries = [{"what": "roll", "seat": seat, "values": sorted(event.values())}]
        case Place():
            entries = [_place(before, event)]
        case Skip():
            entries = [{"what": "skip", "seat": seat}]
        case PlayCards():
            entries = [{"what": "cards", "seat": seat, "cards": [list(c) for c in event.cards]}]
        case PowerPlay():
            entries = [{"what": "power_play", "seat": seat, "number": event.number}]
        case TileDecision():
            pending = before.pending
            entries = [
                {
                    "what": "tile",
                    "seat": pending.seat if pending else seat,
                    "casino": event.casino,
                    "tile": tile_name(pending.code) if pending else "",
                    "choice": dict(event.choice),
                }
            ]
        case ReplaceRainbows():
            entries = [{"what": "rainbow", "notes": [n for d in event.draws for n in d]}]
        case ResolvePayout():
            entries = _payout(after)
        case CorrectCasino():
            entries = [{"what": "correct", "casino": event.casino, "dice": len(event.dice)}]
        case _:
            entries = []
    if after.phase is Phase.OVER and before.phase is not Phase.OVER:
        seats = {name: i for i, name in enumerate(after.players)}
        entries.append({"what": "over", "winners": [seats[w] for w in winners(after)]})
    return entries


def game_log(initial: GameState, events: Sequence[Event]) -> list[Entry]:
    """Every move of a game from its first state, in order, each with its step and round."""
    log: list[Entry] = []
    state = initial
    for step, event in enumerate(events, start=1):
        after = apply(state, event)
        for entry in entries_for(state, event, after):
            log.append({"step": step, "round": state.round} | entry)
        state = after
    return log
