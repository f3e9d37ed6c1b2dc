"""A coloured die in doubt whose colour's Biggy is read for sure elsewhere on the row, read for
sure as one regular die of its colour where its box shows one (`row_sure.coloured_dice_read`):
each owner has one Biggy, so it is a regular die with a neighbour's corner or a note's edge in its
box."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from casino_cards import BLUE, COLOURED, NO_ZONES, RED, SIDE, WHITE, card, row_dice

from vision import casino_row, row_sure
from vision import pips as pips_mod
from vision.detections import Detections

BIGGY_BOX = (20, 20, 65, 65)  # the red Biggy, read for sure: 1.5 regular sides
BLUE_BOX = (20, 100, 50, 130)  # a blue die read for sure
WHITE_BOX = (80, 100, 110, 130)  # a white die read for sure
DOUBT_BOX = (100, 20, 139, 59)  # the red die in doubt: 1.3 regular sides
STRIP = 17  # px: half a regular die's side, on the rendered row
DOUBT_RED = (100, 20, 130, 50)  # one red die in its corner, the rest of the box card
ONE_FACE = [0.01, 0.01, 0.01, 0.9, 0.01, 0.01, 0.01, 0.02, 0.02]  # three pips
NO_DIE = [0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.26, 0.6]
# four pips at 0.85 (or 0.75), the rest spread: the readers together give that to one number
FOUR_AT = {0.85: [0.01, 0.02, 0.02, 0.02, 0.85, 0.02, 0.02, 0.03, 0.01]}
FOUR_AT[0.75] = [0.02, 0.03, 0.03, 0.03, 0.75, 0.03, 0.04, 0.05, 0.02]


def dice(rows, zone="casino2") -> Detections:
    """Dice read: rows of (box, colour, pips, size, unsure), each read with 0.5."""
    return row_dice(rows, zone, confidence=0.5)


def row(*fills, biggy_unsure=False, doubt_size="regular", doubt_colour="red", zone="casino2"):
    """The red Biggy, a blue and a white die read for sure, and DOUBT_BOX in `doubt_colour`,
    in doubt, read 2; drawn with `fills` (box, BGR) over the die in doubt's place (DOUBT_RED
    where none are given)."""
    frame = card(
        (BIGGY_BOX, RED), (BLUE_BOX, BLUE), (WHITE_BOX, WHITE), *(fills or ((DOUBT_RED, RED),))
    )
    det = dice(
        [
            (BIGGY_BOX, "red", 5, "big", biggy_unsure),
            (BLUE_BOX, "blue", 1, "regular", False),
            (WHITE_BOX, "white", 2, "regular", False),
            (DOUBT_BOX, doubt_colour, 2, doubt_size, True),
        ],
        zone,
    )
    return frame, det


def reader_gives(monkeypatch, chances: list[float]) -> None:
    """Every pip reader gives these chances (blank, 1-6 pips, cocked, no die) to every crop."""
    chance = np.array(chances, np.float32)
    assert chance.shape == (9,) and abs(chance.sum() - 1.0) < 1e-6
    monkeypatch.setattr(pips_mod, "infer", lambda session, crops: np.tile(chance, (len(crops), 1)))


def coloured_read(frame, det, zones=NO_ZONES, patches=None):
    return row_sure.coloured_dice_read(
        frame, zones, det, patches or Detections.empty(), SIDE, COLOURED
    )


@pytest.mark.parametrize("doubt_size", ["regular", "big"])
def test_a_coloured_die_in_doubt_beside_its_colours_biggy_read_shows_one_regular_die(
    monkeypatch, doubt_size
):
    reader_gives(monkeypatch, ONE_FACE)
    frame, det = row(doubt_size=doubt_size)  # judged big: the weaker of two red Biggies
    read = coloured_read(frame, det)
    assert list(read.unsure) == [False, False, False, False]
    assert list(read.size) == ["big", "regular", "regular", "regular"]
    assert int(read.pips[3]) == 2  # on casinos 1-6 its pips do not count


def test_a_coloured_die_in_doubt_stays_in_doubt_where_its_colours_biggy_is_not_read(monkeypatch):
    reader_gives(monkeypatch, ONE_FACE)
    frame, det = row(biggy_unsure=True)  # it may be the red Biggy itself
    assert bool(coloured_read(frame, det).unsure[3])
    frame, det = row(doubt_colour="blue")  # no blue Biggy is read: it may be blue's
    assert bool(coloured_read(frame, det).unsure[3])


@pytest.mark.parametrize(
    "fills",
    [
        ((DOUBT_BOX, RED),),  # 1.7 dice's areas of red: two red dice boxed as one
        ((DOUBT_RED, WHITE), ((100, 20, 108, 28), RED)),  # a white die, a speck of red
        ((DOUBT_RED, RED), ((110, 30, 139, 59), BLUE)),  # a blue die's most in the box too
    ],
)
def test_a_coloured_die_in_doubt_stays_in_doubt_where_its_box_shows_no_one_die_of_its_colour(
    monkeypatch, fills
):
    reader_gives(monkeypatch, ONE_FACE)
    frame, det = row(*fills)
    assert bool(coloured_read(frame, det).unsure[3])


def test_a_coloured_die_in_doubt_stays_in_doubt_where_no_die_is_seen_or_a_box_shares_it(
    monkeypatch,
):
    reader_gives(monkeypatch, NO_DIE)
    frame, det = row()
    assert bool(coloured_read(frame, det).unsure[3])
    reader_gives(monkeypatch, ONE_FACE)
    patch = dice([((104, 24, 134, 54), "red", 0, "regular", True)])  # a patch of colour left
    assert bool(coloured_read(frame, det, patches=patch).unsure[3])
    # Its colour a guess (between two colours), it may be another owner's die.
    guessed = replace(det, colour_doubt=np.array([False, False, False, True]))
    assert bool(coloured_read(frame, guessed).unsure[3])


def test_a_coloured_die_in_doubt_covering_too_little_or_too_much_stays_in_doubt(monkeypatch):
    reader_gives(monkeypatch, ONE_FACE)
    for box in ((100, 20, 118, 38), (100, 20, 160, 80)):  # 0.6 and 2 regular sides
        frame, det = row((box, RED))
        det = replace(det, boxes=det.boxes.copy())
        det.boxes[3] = box
        assert bool(coloured_read(frame, det).unsure[3])


@pytest.mark.parametrize("best, sure", [(0.85, True), (0.75, False)])
def test_a_coloured_die_in_doubt_on_the_slot_machine_is_one_die_its_pips_sure_or_likely(
    monkeypatch, best, sure
):
    reader_gives(monkeypatch, FOUR_AT[best])
    frame, det = row(doubt_size="big", zone="slot")
    read = coloured_read(frame, det)
    assert bool(read.unsure[3]) is not sure
    assert str(read.size[3]) == "regular"
    assert int(read.pips[3]) == (4 if sure else 2)
    likely = casino_row._pips_of(int(read.likely_pips[3]))
    assert likely == (() if sure else (4, 5, 6))


# --- on the simulated row, through read_casino_row --------------------------------------------


@pytest.fixture(scope="module")
def scene():
    from vision.sim_casinos import row_scene
    from vision.simtable import SimDie

    laid = {
        1: [SimDie("red", 1, big=True), SimDie("blue", 1)],
        4: [SimDie("blue", 4), SimDie("white", 4), SimDie("red", 4)],
    }
    return row_scene(laid, {n: (50_000,) for n in range(1, 8)}, seed=3)


def test_the_row_reads_a_red_die_in_doubt_with_a_neighbours_side_in_its_box_as_one_red_die(
    scene, monkeypatch
):
    from vision.zones import detect_zones

    zones = detect_zones(scene.frame)
    first = casino_row.read_casino_row(scene.frame, zones, COLOURED)
    (red,) = (d for d in first.on(4) if d.colour == "red")
    x0, y0, x1, y1 = (int(round(v)) for v in red.box)
    # A white die's side pressed against the red die's right, STRIP px of it, which the red
    # die's box, read in doubt, takes in: about 1.3 regular sides covered. Red's Biggy lies on
    # casino 1, read for sure: the red die is a regular one.
    frame = scene.frame.copy()
    frame[y0:y1, x1 : x1 + STRIP] = WHITE
    real = casino_row.read_dice

    def red_in_doubt(crop, cfg):
        found = real(crop, cfg)
        if cfg.zones.names[0] != "casino4":
            return found
        (i,) = np.flatnonzero(found.colour == "red")
        boxes = found.boxes.copy()
        boxes[i, 2] += STRIP
        middles = (boxes[:, :2] + boxes[:, 2:]) / 2
        # The white strip itself, boxed as a die, is no die of its own.
        strip = (middles[:, 0] > found.boxes[i, 2]) & (middles[:, 0] < boxes[i, 2])
        strip &= (middles[:, 1] > boxes[i, 1]) & (middles[:, 1] < boxes[i, 3])
        unsure = found.unsure.copy()
        unsure[i] = True
        return replace(found, boxes=boxes, unsure=unsure).select(~strip)

    monkeypatch.setattr(casino_row, "read_dice", red_in_doubt)
    read = casino_row.read_casino_row(frame, zones, COLOURED)
    assert sorted((d.colour, d.big, d.unsure) for d in read.on(4)) == [
        ("blue", False, False),
        ("red", False, False),
        ("white", False, False),
    ]
