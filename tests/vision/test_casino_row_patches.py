"""Patches of a die colour that no die read explains, each counted as a die not read for sure,
read for sure as one regular die of their colour where the picture shows one
(`row_patches.lone_patches_read`): a die half under a note's paper that the reader missed."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from casino_cards import COLOURED, NO_ZONES, RED, SIDE, WHITE, card, row_dice

from vision import casino_row, row_patches
from vision import pips as pips_mod
from vision.colour import default_palette
from vision.detections import Detections
from vision.reader import ReaderConfig
from vision.sim_casinos import NOTE_BGR, RowDie, card_layout, render_row
from vision.simtable import SimDie
from vision.zones import Zones, detect_zones

BIGGY_BOX = (20, 20, 65, 65)  # the red Biggy, read for sure: 1.5 regular sides
WHITE_BOX = (20, 100, 50, 130)  # a white die read for sure
PATCH_BOX = (100, 20, 130, 40)  # what a note's paper leaves of a red die: two thirds of it
ONE_FACE = [0.01, 0.01, 0.01, 0.9, 0.01, 0.01, 0.01, 0.02, 0.02]  # three pips
NO_DIE = [0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.26, 0.6]
BLANK = [0.9, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.02, 0.02]
# four pips at 0.85 (or 0.75), the rest spread: the readers together give that to one number
FOUR_AT = {0.85: [0.01, 0.02, 0.02, 0.02, 0.85, 0.02, 0.02, 0.03, 0.01]}
FOUR_AT[0.75] = [0.02, 0.03, 0.03, 0.03, 0.75, 0.03, 0.04, 0.05, 0.02]


def row_read(biggy_unsure: bool = False, zone: str = "casino2") -> Detections:
    """The dice read on the row: the red Biggy and a white die."""
    return row_dice(
        [
            (BIGGY_BOX, "red", 5, "big", biggy_unsure),
            (WHITE_BOX, "white", 2, "regular", False),
        ],
        zone,
    )


def patches(*boxes, colour="red", zone="casino2") -> Detections:
    """Patches of colour left unexplained, as `patches_left_unread` gives them: in doubt."""
    out = row_dice([(box, colour, 0, "regular", True) for box in boxes], zone)
    return Detections(
        out.boxes,
        out.pips,
        out.colour,
        out.size,
        np.zeros(len(boxes), np.float32),
        out.unsure,
        out.zone,
        out.colour_doubt,
    )


def reader_gives(monkeypatch, chances: list[float]) -> None:
    """Every pip reader gives these chances (blank, 1-6 pips, cocked, no die) to every crop."""
    row = np.array(chances, np.float32)
    assert row.shape == (9,) and abs(row.sum() - 1.0) < 1e-6
    monkeypatch.setattr(pips_mod, "infer", lambda session, crops: np.tile(row, (len(crops), 1)))


def test_a_patch_showing_part_of_one_die_of_its_colour_is_read_for_sure_as_that_die(monkeypatch):
    reader_gives(monkeypatch, ONE_FACE)
    frame = card((BIGGY_BOX, RED), (WHITE_BOX, WHITE), (PATCH_BOX, RED))
    read = row_patches.lone_patches_read(
        frame, NO_ZONES, row_read(), patches(PATCH_BOX), SIDE, COLOURED
    )
    assert (str(read.colour[0]), str(read.size[0]), bool(read.unsure[0])) == (
        "red",
        "regular",
        False,
    )
    assert int(read.pips[0]) == 3
    # Its box: a regular die's square (PATCH_CROP sides) about the patch's middle.
    half = row_patches.PATCH_CROP * SIDE / 2
    assert np.allclose(read.boxes[0], (115 - half, 30 - half, 115 + half, 30 + half))


@pytest.mark.parametrize(
    "fill, box, biggy_unsure, chances",
    [
        # the red Biggy is in doubt: the patch may be that Biggy, half under a note
        (PATCH_BOX, PATCH_BOX, True, ONE_FACE),
        # a sixth of a die: a note's edge, a piece of a die counted, pips
        ((100, 20, 130, 25), (100, 20, 130, 25), False, ONE_FACE),
        # more than a die's area in red: two dice, or a Biggy
        ((100, 20, 135, 55), (100, 20, 135, 55), False, ONE_FACE),
        # a box longer than a regular die's side
        ((100, 20, 140, 32), (100, 20, 140, 32), False, ONE_FACE),
        # the first pip reader sees no die there
        (PATCH_BOX, PATCH_BOX, False, NO_DIE),
    ],
)
def test_a_patch_stays_in_doubt_where_it_shows_no_regular_die_of_its_colour(
    monkeypatch, fill, box, biggy_unsure, chances
):
    reader_gives(monkeypatch, chances)
    frame = card((BIGGY_BOX, RED), (WHITE_BOX, WHITE), (fill, RED))
    read = row_patches.lone_patches_read(
        frame, NO_ZONES, row_read(biggy_unsure), patches(box), SIDE, COLOURED
    )
    assert list(read.unsure) == [True]
    assert np.allclose(read.boxes[0], box)


def test_a_patch_counted_as_two_dice_or_inside_another_dice_box_stays_in_doubt(monkeypatch):
    reader_gives(monkeypatch, ONE_FACE)
    frame = card((BIGGY_BOX, RED), (WHITE_BOX, WHITE), (PATCH_BOX, RED))
    twice = row_patches.lone_patches_read(
        frame, NO_ZONES, row_read(), patches(PATCH_BOX, PATCH_BOX), SIDE, COLOURED
    )
    assert list(twice.unsure) == [True, True]
    # a blue die in doubt whose box holds the patch: the patch may be its own colour, read wrong
    det = row_read().joined(row_dice([((96, 16, 134, 44), "blue", 2, "regular", True)]))
    inside = row_patches.lone_patches_read(frame, NO_ZONES, det, patches(PATCH_BOX), SIDE, COLOURED)
    assert list(inside.unsure) == [True]


def test_a_white_patch_is_read_without_a_biggy_read_the_neutral_dice_have_none(monkeypatch):
    reader_gives(monkeypatch, ONE_FACE)
    frame = card((BIGGY_BOX, RED), (WHITE_BOX, WHITE), (PATCH_BOX, WHITE))
    det = row_read(biggy_unsure=True)
    read = row_patches.lone_patches_read(
        frame, NO_ZONES, det, patches(PATCH_BOX, colour="white"), SIDE, COLOURED
    )
    assert list(read.unsure) == [False]


def test_a_patch_read_blank_keeps_its_blank_face(monkeypatch):
    # On casinos 1-6 pips do not count, but a blank face is no die of the game's: the check
    # keeps such a die in doubt.
    reader_gives(monkeypatch, BLANK)
    frame = card((BIGGY_BOX, RED), (WHITE_BOX, WHITE), (PATCH_BOX, RED))
    read = row_patches.lone_patches_read(
        frame, NO_ZONES, row_read(), patches(PATCH_BOX), SIDE, COLOURED
    )
    assert int(read.pips[0]) == 0


@pytest.mark.parametrize("best, sure", [(0.85, True), (0.75, False)])
def test_a_patch_on_the_slot_machine_is_one_die_its_pips_sure_or_likely(monkeypatch, best, sure):
    reader_gives(monkeypatch, FOUR_AT[best])
    frame = card((BIGGY_BOX, RED), (WHITE_BOX, WHITE), (PATCH_BOX, RED))
    read = row_patches.lone_patches_read(
        frame, NO_ZONES, row_read(zone="slot"), patches(PATCH_BOX, zone="slot"), SIDE, COLOURED
    )
    assert bool(read.unsure[0]) is not sure
    assert int(read.pips[0]) == 4
    assert casino_row._pips_of(int(read.likely_pips[0])) == (() if sure else (4, 5, 6))


# --- the whole row -------------------------------------------------------------------------

MARKER_PX = 27  # the simulated row's markers at 1280 px


def _laid() -> list[RowDie]:
    """Casino 3: the red Biggy, red, blue and white dice apart; the last red die is the one
    the reader misses, a note's paper over a third of it."""
    card_ = card_layout(1280, 720, MARKER_PX)[3]
    x, y = float(card_[:, 0].mean()), float(card_[:, 1].mean())
    return [
        RowDie(3, SimDie("red", 5, big=True), (x - 30, y - 120), SIDE * 1.5, 0.2),
        RowDie(3, SimDie("red", 3), (x + 30, y - 40), SIDE, 0.2),
        RowDie(3, SimDie("blue", 3), (x - 30, y + 40), SIDE, 0.5),
        RowDie(3, SimDie("white", 4), (x + 30, y + 60), SIDE, 0.0),
        RowDie(3, SimDie("blue", 2), (x - 30, y + 140), SIDE, 0.1),
        RowDie(3, SimDie("red", 6), (x + 30, y + 160), SIDE, 0.0),
    ]


def _read(laid: list[RowDie], keep: list[int]) -> Detections:
    """The dice as a reader that found only those at `keep` would give them, read for sure."""
    rows = []
    for i in keep:
        d = laid[i]
        r = 0.5 * d.side * (abs(np.cos(d.angle)) + abs(np.sin(d.angle)))
        box = (d.centre[0] - r, d.centre[1] - r, d.centre[0] + r, d.centre[1] + r)
        rows.append((box, d.die.colour, d.die.pips, "regular", False))
    return row_dice(rows, "casino3")


def test_the_row_reads_a_die_half_under_a_note_that_the_reader_missed(monkeypatch):
    laid = _laid()
    frame, _ = render_row(laid, {}, np.random.default_rng(4))
    # A note's paper over the missed red die's right third.
    cx, cy = (int(v) for v in laid[-1].centre)
    frame[cy - 25 : cy + 25, cx + 5 : cx + 40] = NOTE_BGR
    zones = detect_zones(frame)
    found = _read(laid, list(range(len(laid) - 1)))
    monkeypatch.setattr(casino_row, "_read_row", lambda *args: found)
    cfg = ReaderConfig(
        threads=1,
        camera_place="above",
        palette=default_palette().in_play_only(("red", "blue", "white")),
    )
    row = casino_row.read_casino_row(frame, zones, cfg)
    assert not any(d.unsure for d in row.dice)
    assert sorted((d.colour, d.big) for d in row.on(3)) == sorted(
        (d.die.colour, d.die.big) for d in laid
    )
    # Where the red Biggy is not read for sure (its colour a guess), the patch may be it.
    doubt = np.arange(len(found)) == 0
    monkeypatch.setattr(casino_row, "_read_row", lambda *args: replace(found, colour_doubt=doubt))
    row = casino_row.read_casino_row(frame, zones, cfg)
    doubted = [(d.colour, d.big) for d in row.on(3) if d.unsure]
    assert ("red", True) in doubted and ("red", False) in doubted
    assert len([d for d in row.on(3) if (d.colour, d.big, d.unsure) == ("red", False, False)]) == 1


def test_a_patch_on_a_hidden_printed_marker_stays_in_doubt(monkeypatch):
    # A card corner with no marker seen: the printed marker there, in part hidden, shows white
    # and black, and a patch on it may be the marker's part.
    reader_gives(monkeypatch, ONE_FACE)
    frame = card((BIGGY_BOX, RED), (WHITE_BOX, WHITE), (PATCH_BOX, WHITE))
    corners = np.array([(115, 30), (300, 30), (300, 180), (115, 180)], np.float32)
    h = 10.0
    seen = tuple(
        np.array([(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)], np.float32)
        for x, y in corners[1:]
    )
    zones = Zones(("casino2",), (corners,), seen)
    det = row_read()
    white = patches(PATCH_BOX, colour="white")
    read = row_patches.lone_patches_read(frame, zones, det, white, SIDE, COLOURED)
    assert list(read.unsure) == [True]
    read = row_patches.lone_patches_read(frame, NO_ZONES, det, white, SIDE, COLOURED)
    assert list(read.unsure) == [False]
