"""Colour left unread on a casino: a die the reader did not find still shows its colour, and
is counted as a die not read for sure, not as a die missing."""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest

from vision import casino_row, row_zones
from vision.colour import body_colours
from vision.colour_left import PATCH_SHARE, colour_left, row_colours
from vision.detections import Detections
from vision.sim_casinos import NOTE_BGR, RowDie, card_layout, render_row, zone_polygon
from vision.simtable import SimDie
from vision.zones import detect_zones

SIDE = 30.0
MARKER_PX = 27  # the simulated row's markers at 1280 px


def _laid() -> list[RowDie]:
    """Casino 3: red, blue and white dice apart, one red die pressed against another, and a
    blue one that a note's edge will cross; the red die at the foot shows its three pips
    across it."""
    card = card_layout(1280, 720, MARKER_PX)[3]
    x, y = float(card[:, 0].mean()), float(card[:, 1].mean())
    return [
        RowDie(3, SimDie("red", 3), (x - 25, y - 120), SIDE, 0.2),
        RowDie(3, SimDie("red", 3), (x - 25 + SIDE * 1.02, y - 120), SIDE, 0.2),
        RowDie(3, SimDie("blue", 3), (x + 20, y - 40), SIDE, 0.5),
        RowDie(3, SimDie("white", 3), (x - 20, y + 40), SIDE, 0.0),
        RowDie(3, SimDie("blue", 3), (x + 15, y + 120), SIDE, 0.1),
        RowDie(3, SimDie("red", 3), (x - 25, y + 180), SIDE, 0.7),
        RowDie(3, SimDie("white", 3), (x + 30, y + 60), SIDE, 0.3),
    ]


def _box(d: RowDie) -> list[float]:
    r = 0.5 * d.side * (abs(np.cos(d.angle)) + abs(np.sin(d.angle)))
    return [d.centre[0] - r, d.centre[1] - r, d.centre[0] + r, d.centre[1] + r]


def _read(laid: list[RowDie], keep: list[int]) -> Detections:
    """The dice as a reader that found only those at `keep` would give them, read for sure."""
    boxes = np.array([_box(laid[i]) for i in keep], np.float32).reshape(-1, 4)
    n = len(keep)
    return Detections(
        boxes,
        [3] * n,
        [laid[i].die.colour for i in keep],
        ["regular"] * n,
        [1.0] * n,
        [False] * n,
        ["casino3"] * n,
    )


@pytest.fixture(scope="module")
def row():
    laid = _laid()
    frame, _ = render_row(laid, {}, np.random.default_rng(4))
    # A note's edge across the middle of the last blue die, as on a crowded card.
    cx, cy = laid[4].centre
    strip = np.array([[cx - 30, cy - 6], [cx + 30, cy - 14], [cx + 30, cy - 2], [cx - 30, cy + 6]])
    cv2.fillPoly(frame, [strip.astype(np.int32)], NOTE_BGR)
    polygon = zone_polygon(card_layout(1280, 720, MARKER_PX)[3], MARKER_PX)
    return laid, frame, polygon, detect_zones(frame).markers


def test_dice_all_read_leave_no_colour(row):
    laid, frame, polygon, markers = row
    det = _read(laid, list(range(len(laid))))
    assert colour_left(frame, polygon, det, row_colours(frame, det), SIDE, markers) == []


@pytest.mark.parametrize(
    ("missing", "colour"),
    [(1, "red"), (3, "white"), (4, "blue")],
    ids=["pressed against a die of its colour", "white", "crossed by a note's edge"],
)
def test_a_die_not_found_leaves_a_patch_of_its_colour_where_it_lies(row, missing, colour):
    laid, frame, polygon, markers = row
    det = _read(laid, [i for i in range(len(laid)) if i != missing])
    left = colour_left(frame, polygon, det, row_colours(frame, det), SIDE, markers)
    assert [name for name, _, _ in left] == [colour]
    x0, y0, x1, y1 = left[0][1]
    cx, cy = laid[missing].centre
    assert x0 - SIDE / 2 <= cx <= x1 + SIDE / 2 and y0 - SIDE / 2 <= cy <= y1 + SIDE / 2
    assert PATCH_SHARE <= left[0][2] <= 1.2


def test_the_white_pips_of_a_coloured_die_are_no_white_die(row):
    laid, frame, polygon, markers = row
    # The white die found, a red die (white pips) found: no white is left over.
    det = _read(laid, list(range(len(laid))))
    colours = row_colours(frame, det)
    assert "white" in colours
    assert all(
        name != "white" for name, _, _ in colour_left(frame, polygon, det, colours, SIDE, markers)
    )


def test_only_colours_read_for_sure_on_the_row_are_looked_for(row):
    laid, frame, polygon, markers = row
    det = _read(laid, [0, 1, 2, 3, 4, 6])  # the red die at the foot not found
    unsure = Detections(
        det.boxes, det.pips, det.colour, det.size, det.confidence, np.ones(len(det), bool)
    )
    assert row_colours(frame, unsure) == {}
    assert colour_left(frame, polygon, det, {}, SIDE, markers) == []
    only_blue = row_colours(frame, det, in_play=("blue", "white"))
    assert sorted(only_blue) == ["blue", "white"]
    assert colour_left(frame, polygon, det, only_blue, SIDE, markers) == []


def test_a_patch_smaller_than_a_share_of_a_die_is_no_die(row):
    laid, frame, polygon, markers = row
    det = _read(laid, list(range(len(laid))))
    speck = frame.copy()
    x, y = (int(v) for v in polygon.mean(0))
    red = frame[int(laid[0].centre[1]), int(laid[0].centre[0] + 8)].tolist()
    side = int(np.sqrt(0.5 * PATCH_SHARE) * SIDE)
    cv2.rectangle(speck, (x + 40, y), (x + 40 + side, y + side), red, -1)
    assert colour_left(speck, polygon, det, row_colours(frame, det), SIDE, markers) == []


def test_the_row_counts_a_die_left_unread_as_not_read_for_sure(monkeypatch):
    # A reader that misses one die: the row reports a red die not read for sure on casino 3,
    # and without the colour check the die is simply missing.
    laid = _laid()
    frame, _ = render_row(laid, {}, np.random.default_rng(4))
    zones = detect_zones(frame)
    monkeypatch.setattr(
        casino_row, "_read_row", lambda *args: _read(laid, [i for i in range(len(laid)) if i != 5])
    )
    row = casino_row.read_casino_row(frame, zones)
    assert [(d.casino, d.colour, d.unsure) for d in row.dice if d.unsure] == [(3, "red", True)]
    assert Counter(d.colour for d in row.dice) == Counter(d.die.colour for d in laid)
    plain = casino_row.read_casino_row(frame, zones, colour_left_unread=False)
    assert not any(d.unsure for d in plain.dice) and len(plain.dice) == len(laid) - 1


def test_a_printed_marker_is_no_white_die():
    laid = _laid()
    frame, _ = render_row(laid, {}, np.random.default_rng(4))
    zones = detect_zones(frame)
    polygon = row_zones.casino_zones(zones)[3]
    det = _read(laid, list(range(len(laid))))
    colours = row_colours(frame, det)
    assert colour_left(frame, polygon, det, colours, SIDE, zones.markers) == []
    # Without the markers left out, their white squares at the zone's corners are patches.
    assert colour_left(frame, polygon, det, colours, SIDE) != []


def test_a_zone_outside_the_frame_or_no_regular_side_gives_nothing(row):
    laid, frame, polygon, markers = row
    det = _read(laid, [0])
    colours = row_colours(frame, det)
    assert colour_left(frame, polygon + 5000, det, colours, SIDE, markers) == []
    assert colour_left(frame, polygon, det, colours, 0.0, markers) == []


def test_a_strip_of_a_die_showing_its_pips_is_a_patch_of_its_colour(row):
    # Of a blue die half under a note only a strip shows, its white pips down the middle: each
    # side of them narrower than the opening (a fifth of a die), together 0.4 of a die.
    laid, frame, polygon, markers = row
    det = _read(laid, list(range(len(laid))))
    colours = row_colours(frame, det)
    bodies = body_colours(frame, det.boxes)
    # in the row's colours: the median body colour of its dice of each colour
    blue = np.median(bodies[[2, 4]], 0).tolist()
    white = np.median(bodies[[3, 6]], 0).tolist()
    strip = frame.copy()
    x, y = (int(v) for v in polygon.mean(0))
    x += 40
    width, height = int(0.4 * SIDE), int(SIDE)
    cv2.rectangle(strip, (x, y), (x + width - 1, y + height - 1), blue, -1)
    for top in range(y + 2, y + height - 4, 8):
        cv2.rectangle(strip, (x + 4, top), (x + 7, top + 3), white, -1)
    left = colour_left(strip, polygon, det, colours, SIDE, markers)
    assert [name for name, _, _ in left] == ["blue"]
    assert left[0][2] >= 0.3
