"""The round-end table check on the page: the casino row read from the camera's frame and
compared with the game, the corrections that would make the game match the table, and the
photo of the row (dice boxed) kept as evidence. Also how the simulated table's casino row
follows the game, die by die, as players lay their dice.

Pure functions of values: `web.hub.TableHub` calls them under its lock and keeps the result.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence

import cv2
import numpy as np

from companion.cli_check import seen_casinos
from companion.dice import NEUTRAL_COLOUR
from companion.engine import apply
from companion.errors import IllegalMove
from companion.events import CorrectCasino, Event, Place, TableDie
from companion.state import GREY, NEUTRAL_SET, WHITE, GameState, Phase
from companion.table_check import SeenCasino, TableCheck, check_table, owner_key
from vision.casino_row import RowReading, draw_row, read_casino_row
from vision.reader import ReaderConfig
from vision.row_zones import CASINO_NUMBERS, casino_zones
from vision.sim_row import SimCasinoRow
from vision.simtable import SimDie
from vision.zones import Zones, detect_zones
from web.table import CasinoCrop, RoundCheck
from web.view import neutral_set_colour

PHOTO_MOST_BYTES = 60_000
"""The round-end photo is made this small or smaller (JPEG) before it is stored."""
PHOTO_WIDTH = 960
"""The photo's width in px at most: dice of 30 px in a 1280 px frame stay over 20 px."""
CROP_MARGIN = 0.04
"""Around the casinos' zones, this share of the frame's width is kept in the photo."""


def owner_colours(state: GameState, colours: Sequence[str]) -> dict[int, str]:
    """Each owner's dice colour: the players' own, white neutral dice, Royale's grey blank
    dice and its neutral set in the first box colour nobody took."""
    out = {seat: colour for seat, colour in enumerate(colours) if seat < len(state.players)}
    if state.rules.neutral_dice:
        out[WHITE] = NEUTRAL_COLOUR
    if state.rules.edition == "royale":
        out[GREY] = "grey"
        out[NEUTRAL_SET] = neutral_set_colour(tuple(colours))
    return out


def game_row(state: GameState, colours: Sequence[str]) -> dict[int, list[SimDie]]:
    """The dice the game holds on each casino, as the simulated table lays them."""
    look = owner_colours(state, colours)
    return {
        casino.number: [
            SimDie(look.get(d.owner, "grey"), 0 if d.owner == GREY else d.value, d.big)
            for d in casino.dice
        ]
        for casino in state.casinos
    }


def game_notes(state: GameState) -> dict[int, tuple[int, ...]]:
    """The notes lying under each casino."""
    return {c.number: tuple(sorted(c.notes, reverse=True)) for c in state.casinos}


def follow_game(
    row: SimCasinoRow,
    before: GameState | None,
    after: GameState | None,
    event: Event | None,
    colours: Sequence[str],
) -> None:
    """Make the simulated casino row follow a step of the game: the dice a placement (or a
    tile, a kick) laid or took are laid or taken on the row too; a new round, an undo or
    another game lays the row as the game holds it. A correction changes the game, not the
    table. When the last die of a round is down and the misplacement mode is on, one die is
    misplaced; so it is at the next placement where the row is told to."""
    if after is None:
        row.lay({}, {})
        return
    if isinstance(event, CorrectCasino):
        return
    now = game_row(after, colours)
    if before is None or event is None or before.round != after.round:
        row.lay(now, game_notes(after))
    else:
        was = game_row(before, colours)
        added = {n: list((Counter(now[n]) - Counter(was[n])).elements()) for n in now}
        removed = {n: list((Counter(was[n]) - Counter(now[n])).elements()) for n in now}
        row.change(added, removed, game_notes(after))
    round_end = after.phase is Phase.PAYOUT and (before is None or before.phase is not Phase.PAYOUT)
    placing = row.misplace_next_placement and isinstance(event, Place)
    if placing or (row.misplacing and event is not None and round_end):
        row.misplace_next_placement = False
        in_play = sorted(set(owner_colours(after, colours).values()))
        row.misplace(in_play, range(1, after.rules.casino_count() + 1))


def row_zones(frame: np.ndarray, configured: Zones | None) -> Zones | None:
    """The casinos' zones: those set for this table where they name a casino, else the
    markers seen in the frame; None where no casino's zone is known."""
    for zones in (configured, None):
        if zones is None:
            zones = detect_zones(frame)
        if any(name in CASINO_NUMBERS for name in zones.names):
            return zones
    return None


def corrections(
    state: GameState, check: TableCheck, seen: Sequence[SeenCasino]
) -> dict[int, CorrectCasino]:
    """For each casino that differs and whose every die was read for sure and belongs to
    someone: the correction that sets the game's dice there to the table's, where the rules
    take it (a ninth red die on the table is put right on the table, not in the game)."""
    by_number = {s.casino: s for s in seen}
    out = {}
    for casino in check.casinos:
        table = by_number.get(casino.casino)
        if casino.differences and table is not None and not table.unsure and not table.strangers:
            dice = tuple(TableDie(d.owner, d.big, d.value) for d in table.dice)
            correction = CorrectCasino(casino.casino, dice)
            try:
                apply(state, correction)
            except IllegalMove:
                continue
            out[casino.casino] = correction
    return out


def biggies_in_doubt(
    state: GameState, check: TableCheck, colours: Mapping[int, str]
) -> set[tuple[int, str]]:
    """(casino, colour) for each owner whose Biggy the check takes to be among their dice read
    regular on that casino (`CasinoCheck.biggy_doubts`)."""
    colour_of = {owner_key(state, owner): colour for owner, colour in colours.items()}
    return {
        (casino.casino, colour_of[key])
        for casino in check.casinos
        for key in casino.biggy_doubts
        if key in colour_of
    }


def photo(
    frame: np.ndarray,
    reading: RowReading,
    zones: Zones,
    maybe_big: Collection[tuple[int, str]] = (),
) -> tuple[bytes, dict[int, tuple[float, float, float, float]], tuple[int, int]]:
    """The casino row cut from the frame, each die boxed and named (`draw_row`: the dice of a
    (casino, colour) in `maybe_big` marked as maybe a Biggy), as a JPEG of at most
    PHOTO_MOST_BYTES; each casino's zone as shares (x0, y0, x1, y1) of the photo; and the
    photo's width and height."""
    h, w = frame.shape[:2]
    polygons = casino_zones(zones)
    points = np.concatenate(list(polygons.values()))
    margin = CROP_MARGIN * w
    x0, y0 = (int(max(v - margin, 0)) for v in points.min(0))
    x1, y1 = int(min(points[:, 0].max() + margin, w)), int(min(points[:, 1].max() + margin, h))
    cut = draw_row(frame, reading, maybe_big)[y0:y1, x0:x1]
    scale = min(1.0, PHOTO_WIDTH / max(1, x1 - x0))
    if scale < 1.0:
        size = (round((x1 - x0) * scale), round((y1 - y0) * scale))
        cut = cv2.resize(cut, size, interpolation=cv2.INTER_AREA)
    jpeg = b""
    for quality in (80, 70, 60, 50, 40, 30, 20):
        ok, data = cv2.imencode(".jpg", cut, [cv2.IMWRITE_JPEG_QUALITY, quality])
        jpeg = data.tobytes() if ok else b""
        if len(jpeg) <= PHOTO_MOST_BYTES:
            break
    cw, ch = max(1, x1 - x0), max(1, y1 - y0)
    boxes = {
        number: (
            float((poly[:, 0].min() - x0) / cw),
            float((poly[:, 1].min() - y0) / ch),
            float((poly[:, 0].max() - x0) / cw),
            float((poly[:, 1].max() - y0) / ch),
        )
        for number, poly in polygons.items()
    }
    return jpeg, boxes, (int(cut.shape[1]), int(cut.shape[0]))


def check_frame(
    state: GameState,
    colours: Sequence[str],
    frame: np.ndarray,
    zones: Zones,
    config: ReaderConfig,
) -> tuple[RoundCheck, bytes]:
    """The casino row of `frame` read and checked against the game: the check (without its
    version, source and whether its photo was stored) and the photo."""
    reading = read_casino_row(frame, zones, config)
    owners = owner_colours(state, colours)
    seen = seen_casinos(state, reading, owners)
    check = check_table(state, seen, owners)
    jpeg, boxes, size = photo(frame, reading, zones, biggies_in_doubt(state, check, owners))
    fixes = corrections(state, check, seen)
    crops = tuple(
        CasinoCrop(c.casino, boxes.get(c.casino), fixes.get(c.casino)) for c in check.casinos
    )
    made = RoundCheck("", state.round, check, crops, photo_size=size)
    return made, jpeg
