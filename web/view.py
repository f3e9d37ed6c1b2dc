"""What the page shows, derived from the game state: plain JSON-ready dicts, nothing stored."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from random import Random

from companion.choices import legal_choices
from companion.dice import DieKind
from companion.events import SLOT_MACHINE, Event, event_to_dict
from companion.gamelog import game_log
from companion.payout import RoundPayout, payout_to_dict, rank_casino
from companion.proposal import Problem, Proposal, ProposedDie
from companion.rules import RAINBOW
from companion.simulate import chance_event
from companion.standings import WinReason, standings, victory
from companion.state import GREY, NEUTRAL_SET, WHITE, GameState, Phase
from companion.tile_codes import TileCode
from companion.tiles import tile_name
from web.table import Notice, PinAlert, Reading, RoundCheck

PATTERNS = ("solid", "stripes", "dots", "grid", "diagonal", "zigzag", "rings", "cross")
"""A pattern per seat, so players can be told apart without seeing colour."""

IMAGINARY_LOOK = {
    WHITE: {"colour": "white", "pattern": "solid"},
    GREY: {"colour": "grey", "pattern": "solid"},
}


def owner_look(state: GameState, colours: tuple[str, ...], owner: int) -> dict[str, object]:
    """Name, colour and pattern of an owner of dice (a player or an imaginary owner)."""
    if owner >= 0:
        colour = colours[owner] if owner < len(colours) else "grey"
        return {
            "owner": owner,
            "name": state.players[owner],
            "colour": colour,
            "pattern": PATTERNS[owner % len(PATTERNS)],
        }
    look = IMAGINARY_LOOK.get(owner) or {"colour": neutral_set_colour(colours), "pattern": "solid"}
    return {"owner": owner, "name": state.owner_name(owner)} | look


def neutral_set_colour(colours: tuple[str, ...]) -> str:
    """Colour of the non-player set in 2-player Royale: the first box colour nobody took."""
    for colour in ("green", "yellow", "orange", "blue", "red", "black", "pink"):
        if colour not in colours:
            return colour
    return "grey"


def casino_view(state: GameState, colours: tuple[str, ...], number: int) -> dict[str, object]:
    """A casino's notes, each owner's dice, who leads and who is tied right now."""
    casino = state.casino(number)
    counts, tied, ranking = rank_casino(casino)
    values: dict[int, list[int]] = {}
    bigs: Counter[int] = Counter()
    for die in casino.dice:
        values.setdefault(die.owner, []).append(die.value)
        bigs[die.owner] += die.big
    view: dict[str, object] = {
        "number": number,
        "slot": number == SLOT_MACHINE,
        "notes": sorted(casino.notes, reverse=True),
        "owners": [
            owner_look(state, colours, c.owner)
            | {
                "dice": c.dice,
                "biggies": bigs[c.owner],
                "values": sorted(values[c.owner]),
                "pip_sum": c.pip_sum,
            }
            for c in counts
        ],
        "tied": [list(group.owners) for group in tied],
        "ranking": list(ranking),
        "leader": ranking[0] if ranking else None,
        "chip_cards": list(casino.chip_cards),
    }
    tile = state.tile_at(number)
    if tile is not None:
        closes = tile.code is TileCode.NO_ENTRY  # its token lies on a casino, not with a player
        view["tile"] = {
            "code": tile.code,
            "name": tile_name(tile.code),
            "level": tile.level,
            "holder": None if tile.holder is None or closes else state.owner_name(tile.holder),
            "holder_seat": None if closes else tile.holder,
            "closes": tile.holder if closes else None,
            "dice": len(tile.dice),
        }
    return view


def choice_view(state: GameState, event: Event) -> dict[str, object]:
    """One legal choice: the event to send back and what the page needs to label it."""
    data = event_to_dict(event)
    label = dict(data)
    if data["type"] == "place":
        label["kicks"] = [k | {"name": state.owner_name(k["owner"])} for k in data["kicks"]]
    return {"event": data, "label": label}


def roll_view(state: GameState) -> dict[str, object] | None:
    """The dice the player to move rolled and has not yet placed, grouped by number."""
    roll = state.pending_roll
    if roll is None or state.phase is not Phase.CHOOSE:
        return None
    groups = []
    for number in range(1, 7):
        kinds = {kind.value: getattr(roll, kind.value).count(number) for kind in DieKind}
        if any(kinds.values()):
            groups.append({"number": number} | kinds)
    return {"groups": groups} | {kind.value: list(getattr(roll, kind.value)) for kind in DieKind}


def tie_break_text(state: GameState) -> dict[str, object]:
    """Who won and why: most money, then most notes; shared when both are equal. Winners by
    name (`winners`) and by seat (`seats`)."""
    won = victory(state)
    seat_of = {name: seat for seat, name in enumerate(state.players)}
    result: dict[str, object] = {
        "winners": list(won.winners),
        "seats": [seat_of[name] for name in won.winners],
        "reason": won.reason.value,
    }
    if won.reason is WinReason.MONEY:
        return result
    return result | {
        "tied_on_money": [
            {"player": r.player, "seat": seat_of[r.player], "notes": r.notes}
            for r in won.level_on_money
        ]
    }


def standings_view(state: GameState, colours: tuple[str, ...]) -> list[dict[str, object]]:
    """Every player's money and notes, best first."""
    seat_of = {name: seat for seat, name in enumerate(state.players)}
    result = []
    for row in standings(state):
        seat = seat_of[row.player]
        result.append(
            owner_look(state, colours, seat)
            | {
                "money": row.money,
                "cards": row.notes,
                "notes": sorted(state.winnings[seat], reverse=True),
                "chip_bonus": row.chip_bonus,
                "token_money": row.token_money,
                "bank_money": row.bank_money,
                "chip_cards": list(state.chip_cards[seat]),
                "skip_tokens": state.skip_tokens[seat],
            }
        )
    return result


def payout_view(state: GameState, payout: RoundPayout) -> dict[str, object]:
    """A round's payout as the record explains it, with each owner's Biggies among the counted
    dice (so "5" reads "3 dice + Biggy") and owners also by number: `seat` beside each `owner`
    name, `seats` beside a tie's `owners`, `empty_seats` beside `empty_handed`."""
    data = payout_to_dict(payout, state.owner_name)
    for casino, explained in zip(payout.casinos, data["casinos"], strict=True):
        for counted, row in zip(casino.counts, explained["counts"], strict=True):
            row["seat"] = counted.owner
            if counted.biggies:
                row["biggies"] = counted.biggies
        for group, tie in zip(casino.tied, explained["tied"], strict=True):
            tie["seats"] = list(group.owners)
        for award, row in zip(casino.awards, explained["awards"], strict=True):
            row["seat"] = award.owner
        explained["empty_seats"] = list(casino.empty_handed)
    for effect, row in zip(payout.tile_effects, data.get("tiles", []), strict=True):
        row["seat"] = effect.owner
    return data


def deck_values(state: GameState) -> list[int]:
    """The note values of the edition's deck, for the deal buttons (0 is a Rainbow card)."""
    return sorted({value for value, _count in state.rules.deck}, key=lambda v: (v != RAINBOW, v))


def game_view(state: GameState, colours: tuple[str, ...]) -> dict[str, object]:
    """Everything the page draws for one game state."""
    rules = state.rules
    # The card game's selections are built on the page; other phases list their choices.
    listed = state.phase in (Phase.CHOOSE, Phase.ROLL, Phase.TILE, Phase.PAYOUT)
    choices = [choice_view(state, e) for e in legal_choices(state)] if listed else []
    players = []
    for seat, _name in enumerate(state.players):
        supply = state.supplies[seat]
        players.append(
            owner_look(state, colours, seat)
            | {kind.value: getattr(supply, kind.value) for kind in DieKind}
            | {
                "dice": supply.total(),
                "skip_tokens": state.skip_tokens[seat],
                "chip_cards": list(state.chip_cards[seat]),
            }
        )
    view: dict[str, object] = {
        "edition": rules.edition,
        "options": rules.options(),
        "rounds": rules.rounds,
        "round": state.round,
        "phase": str(state.phase),
        "current": state.current,
        "start_player": state.start_player,
        "turn": state.turn,
        "players": players,
        "casinos": [casino_view(state, colours, c.number) for c in state.casinos],
        "roll": roll_view(state),
        "choices": choices,
        "deck": deck_values(state),
        "notes_left": len(state.pile),
        "minimum": rules.minimum_money(len(state.players)),
        "notes_per_casino": rules.notes_per_casino,
        "pairs_by_total": rules.pairs_by_total,
        "chip_cards": rules.chip_cards,
        "tiles": rules.tiles,
        "tile_faces": [code.value for code in TileCode],
        "neutral_start": rules.neutral_at_round_start(len(state.players)),
        "payouts": [payout_view(state, p) for p in state.payouts],
        "standings": standings_view(state, colours),
        "score": score_view(state),
        "owners": {
            str(o): owner_look(state, colours, o)
            for o in (*range(len(state.players)), WHITE, GREY, NEUTRAL_SET)
        },
    }
    if state.pending is not None:
        view["pending"] = {
            "casino": state.pending.casino,
            "tile": tile_name(state.pending.code),
            "code": state.pending.code,
            "ask": state.pending.ask,
            "player": state.owner_name(state.pending.seat),
            "seat": state.pending.seat,
            # Thrown dice and the Black Box's drawn tokens are chance; other asks are decisions.
            "by_chance": chance_event(state, Random(0)) is not None,
            "marks_placed": state.pending.code is TileCode.PRIME_TIME,
        }
    if state.phase is Phase.RAINBOW:
        view["rainbows"] = [c.number for c in state.casinos if RAINBOW in c.notes]
    if state.phase is Phase.OVER:
        view["result"] = tie_break_text(state)
    return view


def score_view(state: GameState) -> dict[str, object]:
    """Money per player per round (notes won and tile money), and each player's total now."""
    seats = range(len(state.players))
    rounds = []
    for payout in state.payouts:
        money = [0 for _ in seats]
        for casino in payout.casinos:
            for award in casino.awards:
                if award.owner >= 0:
                    money[award.owner] += award.note
        for effect in payout.tile_effects:
            if effect.owner >= 0:
                money[effect.owner] += effect.money
        rounds.append({"round": payout.round, "money": money})
    total = {row.player: row.money for row in standings(state)}
    return {"rounds": rounds, "total": [total[name] for name in state.players]}


_LOGS: dict[tuple[int, str], list[dict[str, object]]] = {}
"""The last few games' logs by game id and log checksum: a push must not replay a whole game."""


def log_view(
    game_id: int, head: str, initial: GameState, events: Sequence[Event]
) -> list[dict[str, object]]:
    """The game's log entries (see companion.gamelog), kept for the state they were built on."""
    key = (game_id, head)
    if key not in _LOGS:
        if len(_LOGS) >= 8:
            _LOGS.pop(next(iter(_LOGS)))
        _LOGS[key] = game_log(initial, events)
    return _LOGS[key]


def problem_view(problem: Problem) -> dict[str, object]:
    """A problem's key and values, for the page to word: {"key": "missing", "seen": 6, ...}."""
    values = {k: v.value if isinstance(v, DieKind) else v for k, v in problem.values}
    return {"key": problem.key, **values}


def proposed_die_view(proposed: ProposedDie) -> dict[str, object]:
    """One die the camera read: pips, colour, size, kind, its problem in English and as a key
    with values, and its box."""
    die, problem = proposed.die, proposed.problem
    return {
        "pips": die.pips,
        "colour": die.colour,
        "big": die.big,
        "kind": None if proposed.kind is None else proposed.kind.value,
        "problem": None if problem is None else problem.text(),
        "why": None if problem is None else problem_view(problem),
        "box": None if die.box is None else list(die.box),
    }


def proposal_view(proposal: Proposal) -> dict[str, object]:
    """The camera's proposal: the dice read, the problems of the whole roll in English
    (`problems`) and as keys with values (`whys`), the roll as an event (or None), and how
    many dice were left out."""
    roll = proposal.roll
    return {
        "dice": [proposed_die_view(d) for d in proposal.dice],
        "problems": [p.text() for p in proposal.problems],
        "whys": [problem_view(p) for p in proposal.problems],
        "roll": None
        if roll is None
        else {"type": roll.kind} | {k.value: list(getattr(roll, k.value)) for k in DieKind},
        "left_out": proposal.left_out,
    }


def reading_view(reading: Reading) -> dict[str, object]:
    """The camera's reading as the page shows it: the proposal, the version it was read for,
    and `applied` once it was."""
    view = proposal_view(reading.proposal) | {"version": reading.version}
    return view | {"applied": True} if reading.applied else view


def notice_view(notice: Notice) -> dict[str, object]:
    """The last notice: its source and what happened."""
    view: dict[str, object] = {"source": notice.source}
    if notice.event is not None:
        view["event"] = notice.event
    if notice.problem is not None:
        view["problem"] = notice.problem
    if notice.took is not None:
        view["took"] = notice.took
    return view


def pin_alert_view(alert: PinAlert) -> dict[str, object]:
    """How many wrong PINs were entered, and from which device last."""
    return {"wrong": alert.wrong, "client": alert.client}


def _owner_of_key(state: GameState, key: str) -> int:
    """The owner a table check names by `key` (a player's name, "neutral" or "grey")."""
    if key in state.players:
        return state.players.index(key)
    if key == "grey":
        return GREY
    return NEUTRAL_SET if state.rules.edition == "royale" else WHITE


def photo_url(game_id: int, round_number: int, look: int = 0) -> str:
    """Where the page finds a round's photo of the casinos (`look`: a new look, a new URL)."""
    return f"/api/games/{game_id}/photos/{round_number}" + (f"?look={look}" if look else "")


def table_check_view(
    check: RoundCheck, game_id: int, state: GameState, colours: tuple[str, ...]
) -> dict[str, object]:
    """The round-end check for the page: the photo, and per casino its crop, each owner's
    count on the table and in the game, the differences and what they change at payout (in
    English, and as sentences with keys and values for the page to word), and the correction to send as an event where the game can be put right to the table."""
    casinos = []
    crops = {c.casino: c for c in check.crops}
    for casino in check.check.casinos:
        crop = crops.get(casino.casino)
        table = dict(casino.table or {})
        game = dict(casino.game)
        rows = [
            owner_look(state, colours, _owner_of_key(state, key))
            | {
                "table": table.get(key, 0) if casino.table is not None else None,
                "game": game.get(key, 0),
                "maybe_more": casino.doubt_any_owner or key in casino.doubt_owners,
            }
            for key in sorted(set(table) | set(game), key=lambda k: (-game.get(k, 0), k))
        ]
        correction = None if crop is None or crop.correction is None else crop.correction
        casinos.append(
            {
                "casino": casino.casino,
                "slot": casino.casino == SLOT_MACHINE,
                "box": None if crop is None or crop.box is None else list(crop.box),
                "seen": casino.table is not None,
                "owners": rows,
                "unsure": casino.unsure,
                "biggy_doubts": [
                    owner_look(state, colours, _owner_of_key(state, key))
                    for key in casino.biggy_doubts
                ],
                "agrees": casino.agrees,
                "payout_may_go_on": casino.payout_may_go_on,
                "differences": list(casino.differences),
                "payout_changes": casino.payout_changes,
                "difference_sentences": [s.to_dict() for s in casino.difference_sentences],
                "payout_sentences": [s.to_dict() for s in casino.payout_sentences],
                "correction": None if correction is None else event_to_dict(correction),
            }
        )
    return {
        "round": check.round,
        "agrees": check.check.agrees,
        "payout_may_go_on": check.check.payout_may_go_on,
        "source": check.source,
        "stored": check.stored,
        "photo": photo_url(game_id, check.round, check.look) if check.stored else None,
        "photo_size": list(check.photo_size),
        "casinos": casinos,
    }
