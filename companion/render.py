"""Plain-text pictures of the table and of payouts, for the terminal and for tests."""

from __future__ import annotations

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
    Roll,
    Skip,
    TileDecision,
)
from companion.money import money_label, note_label
from companion.payout import CasinoPayout, RoundPayout
from companion.standings import WinReason, standings, victory
from companion.state import GameState, Phase, Tile
from companion.tile_codes import TileCode
from companion.tiles import tile_name


def plural(count: int, word: str, words: str | None = None) -> str:
    """'1 note', '3 notes'; `words` where the plural is not the word plus 's'."""
    return f"{count} {word if count == 1 else words or word + 's'}"


def _casino_name(number: int) -> str:
    return "slot" if number == SLOT_MACHINE else f"  {number} "


def _short(note: int) -> str:
    label = note_label(note)
    return label[:-4] + "k" if label.endswith(",000") else label


def render_table(state: GameState) -> str:
    """The casinos with their notes and each owner's dice, plus whose turn it is."""
    lines = []
    status = {
        Phase.DEAL: "waiting for the notes to be dealt",
        Phase.ROLL: f"{state.to_move()} to roll",
        Phase.CHOOSE: f"{state.to_move()} to choose",
        Phase.TILE: f"{state.to_move()} decides a tile",
        Phase.CARDS: f"turn {state.turn}/{state.rules.max_turns}, {state.to_move()} to lay out cards",
        Phase.RAINBOW: "Rainbow cards to replace",
        Phase.PAYOUT: "ready for payout",
        Phase.OVER: "game over",
    }[state.phase]
    lines.append(f"Round {state.round}/{state.rules.rounds} - {status}")
    for casino in state.casinos:
        notes = " ".join(_short(n) for n in sorted(casino.notes, reverse=True)) or "-"
        counted = sorted(casino.counted().items(), key=lambda item: -item[1])
        dice = "  ".join(f"{state.owner_name(o)} {'#' * n}" for o, n in counted)
        chips = f"  chips: {', '.join(casino.chip_cards)}" if casino.chip_cards else ""
        if casino.number == SLOT_MACHINE and casino.dice:
            taken = sorted({d.value for d in casino.dice})
            chips += f"  numbers taken: {taken}"
        lines.append(f"{_casino_name(casino.number)} | {notes:<22} | {dice}{chips}".rstrip())
    if state.tiles:
        lines.append("tiles: " + "; ".join(_tile_status(state, tile) for tile in state.tiles))
    if any(state.bank):
        bank = ", ".join(
            f"{name} {money_label(state.bank[seat])}" for seat, name in enumerate(state.players)
        )
        lines.append(f"from the bank: {bank}")
    if state.phase in (Phase.ROLL, Phase.CHOOSE):
        held = ", ".join(
            f"{name} {state.supplies[seat].total()}" for seat, name in enumerate(state.players)
        )
        lines.append(f"dice in hand: {held}")
    if state.phase is Phase.CARDS:
        laid = ", ".join(
            f"{name} {sum(1 for c in state.casinos for d in c.dice if d.owner == seat)}"
            for seat, name in enumerate(state.players)
        )
        lines.append(f"cards laid out: {laid}")
    if state.pending_roll is not None and state.phase is Phase.CHOOSE:
        lines.append(f"{state.to_move()} rolled: {_roll_words(state.pending_roll)}")
    return "\n".join(lines)


def _roll_words(roll: Roll) -> str:
    """'1 3 3 6 | white 2 | Biggy 5': the values by kind of die."""
    parts = [" ".join(map(str, sorted(roll.regular)))]
    for kind in SPECIAL_KINDS:
        if roll.of(kind):
            parts.append(f"{kind.label} {' '.join(map(str, sorted(roll.of(kind))))}")
    return " | ".join(parts)


def step_line(before: GameState, event: Event, after: GameState) -> str | None:
    """One line telling what a step did, for a game told turn by turn; None for a roll
    (told with the choice that follows it) and for the payout (explained on its own)."""
    player = before.to_move()
    rolled = f"rolls {_roll_words(before.pending_roll)} and " if before.pending_roll else ""
    match event:
        case DealRound():
            notes = "  ".join(
                f"{'slot' if c.number == SLOT_MACHINE else c.number}: {' '.join(_short(n) for n in sorted(c.notes, reverse=True))}"
                for c in after.casinos
                if c.notes
            )
            return f"Round {after.round} dealt - {notes}"
        case Place():
            where = "the slot machine" if event.slot else f"casino {event.number}"
            extra = "".join(
                f", kicks a {'Biggy' if kick.big else 'die'} of {before.owner_name(kick.owner)}"
                for kick in event.kicks
            )
            if event.chip:
                extra += f", takes the {event.chip} chip card"
            return f"{player} {rolled}places the {event.number}s on {where}{extra}."
        case Skip():
            return f"{player} {rolled}skips."
        case PowerPlay():
            size = "the Biggy" if event.big else "a die"
            return f"{player} turns {size} to {event.number} with the Power Play and places it."
        case PlayCards():
            laid = " ".join(f"{n}x{d}" if d == 2 else str(n) for n, d in event.cards)
            return f"{player} lays out {laid}."
        case TileDecision():
            pending = before.pending
            name = tile_name(pending.code) if pending else "tile"
            who = f"{before.players[pending.seat]}: " if pending else ""
            chosen = ", ".join(
                f"{k} {' '.join(map(str, v)) if isinstance(v, tuple) else v}"
                for k, v in event.choice
            )
            return f"{who}{name} (casino {event.casino}): {chosen}."
        case ReplaceRainbows():
            return "Rainbow cards replaced."
        case CorrectCasino():
            where = "The slot machine" if event.casino == SLOT_MACHINE else f"Casino {event.casino}"
            counts = after.casino(event.casino).counted()
            held = ", ".join(f"{after.owner_name(o)} {n}" for o, n in counts.items()) or "no dice"
            return f"{where} corrected to what lies on the table: {held}."
    return None


def _tile_status(state: GameState, tile: Tile) -> str:
    """'1 Jackpot $40k', '2 Power Play held by Ben', '3 No Entry closes 5' ..."""
    text = f"{tile.casino} {tile_name(tile.code)}"
    if tile.code is TileCode.JACKPOT:
        text += f" {_short(tile.level)}"
    if tile.holder is not None and tile.code is TileCode.NO_ENTRY:
        text += f" closes {tile.holder}"
    elif tile.holder is not None and tile.code in (TileCode.HIGH_FIVE, TileCode.POWER_PLAY):
        text += f" held by {state.owner_name(tile.holder)}"
    if tile.dice:
        text += f" ({plural(len(tile.dice), 'die', 'dice')} on it)"
    return text


def explain_casino(payout: CasinoPayout, name) -> list[str]:
    """A few sentences telling how one casino paid out."""
    title = "Slot machine" if payout.casino == SLOT_MACHINE else f"Casino {payout.casino}"
    notes = ", ".join(_short(n) for n in payout.notes) or "no notes"
    counts = (
        ", ".join(
            f"{name(c.owner)} {c.dice}"
            + (f" (sum {c.pip_sum}: {' '.join(map(str, c.values))})" if c.values else "")
            for c in payout.counts
        )
        or "no dice"
    )
    lines = [f"{title} ({notes}): {counts}"]
    for group in payout.tied:
        owners = ", ".join(name(o) for o in group.owners)
        lines.append(f"  tied at {group.dice} and removed: {owners}")
    for award in payout.awards:
        gone = "" if award.owner >= 0 else " (it leaves play, under the pile)"
        lines.append(f"  {award.rank}. {name(award.owner)} takes {_short(award.note)}{gone}")
    if payout.empty_handed:
        lines.append(f"  no note left for: {', '.join(name(o) for o in payout.empty_handed)}")
    if payout.leftover:
        where = "under the pile" if payout.leftover_to == "pile" else "out of the game"
        lines.append(f"  {', '.join(_short(n) for n in payout.leftover)} go {where}")
    return lines


def explain_round(payout: RoundPayout, state: GameState) -> str:
    """The whole round's payout, casino by casino."""
    lines = [f"Payout of round {payout.round}"]
    for casino in payout.casinos:
        lines += explain_casino(casino, state.owner_name)
    for effect in payout.tile_effects:
        gains = []
        if effect.money:
            gains.append(("gets " if effect.money > 0 else "pays ") + _short(abs(effect.money)))
        if effect.chips:
            gains.append(
                f"{'gets' if effect.chips > 0 else 'pays'} {plural(abs(effect.chips), 'chip')}"
            )
        what = " and ".join(gains) or "gets nothing"
        lines.append(
            f"{tile_name(effect.code)} (casino {effect.casino}): "
            f"{state.owner_name(effect.owner)} {what} ({effect.reason})"
        )
    return "\n".join(lines)


_WIN_REASON_WORDS = {
    WinReason.MONEY: "",
    WinReason.NOTES: " (most notes breaks the tie on money)",
    WinReason.SHARED: " (equal money and notes: a shared win)",
}


def render_standings(state: GameState) -> str:
    """Money and notes per player, and the winners once the game is over."""
    lines = ["Standings"]
    for row in standings(state):
        extra = ""
        if row.chip_bonus:
            extra += f" (chip cards {_short(row.chip_bonus)})"
        if row.token_money:
            extra += f" (chips and skip cards {money_label(row.token_money)})"
        if state.rules.tokens_break_ties:
            counted = plural(row.notes, "card or chip", "cards and chips")
        else:
            counted = plural(row.notes, "note")
        if row.bank_money:
            extra += f" (from the bank {money_label(row.bank_money)})"
        lines.append(f"  {row.player:<12} {money_label(row.money):>10}  {counted}{extra}")
    if state.phase is Phase.OVER:
        won = victory(state)
        how = _WIN_REASON_WORDS[won.reason]
        lines.append(f"Winner: {' and '.join(won.winners)}{how}")
    return "\n".join(lines)
