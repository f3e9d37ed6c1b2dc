"""Dice in doubt on the casino row read for sure, or dropped, by what the row itself shows: the
slot machine's pips where the readers agree, white dice (never Biggies), grey boxes, a Biggy
alone in its colour whose box shows a Biggy's area of it, and pale dice showing one white die."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from casino_cards import NO_ZONES, RED, SIDE, WHITE, card, row_dice

from vision import casino_row, row_doubt, row_sizes, row_sure, row_zones
from vision import pips as pips_mod
from vision.colour import default_palette
from vision.detections import Detections
from vision.reader import ReaderConfig
from vision.zones import Zones

GREY = (150, 150, 150)


def config(*in_play: str) -> ReaderConfig:
    return ReaderConfig(
        threads=1, camera_place="above", palette=default_palette().in_play_only(in_play)
    )


COLOURED = config("red", "blue", "white")


def dice(rows, zone="casino2") -> Detections:
    """Dice read: rows of (box, colour, pips, size, unsure), each read with 0.5."""
    return row_dice(rows, zone, confidence=0.5)


def reader_gives(monkeypatch, chances: list[float]) -> None:
    """Every pip reader gives these chances (blank, 1-6 pips, cocked, no die) to every crop."""
    row = np.array(chances, np.float32)
    assert row.shape == (9,) and abs(row.sum() - 1.0) < 1e-6

    def infer(session, crops):
        return np.tile(row, (len(crops), 1))

    monkeypatch.setattr(pips_mod, "infer", infer)


RED_BOX = (20, 20, 50, 50)
WHITE_BOX = (100, 20, 130, 50)
# four pips at 0.85 (or 0.75), the rest spread: the readers together give that to one number
FOUR_AT = {0.85: [0.01, 0.02, 0.02, 0.02, 0.85, 0.02, 0.02, 0.03, 0.01]}
FOUR_AT[0.75] = [0.02, 0.03, 0.03, 0.03, 0.75, 0.03, 0.04, 0.05, 0.02]
# a die, cocked more likely than any face: 0.45 to a face, 0.05 to no die
COCKED = [0.05, 0.05, 0.05, 0.2, 0.05, 0.03, 0.02, 0.5, 0.05]
ONE_FACE = [0.01, 0.01, 0.01, 0.9, 0.01, 0.01, 0.01, 0.02, 0.02]
NO_FACE = [0.05, 0.05, 0.05, 0.05, 0.05, 0.02, 0.03, 0.5, 0.2]


@pytest.mark.parametrize("best, sure", [(0.85, True), (0.75, False)])
def test_a_slot_machine_die_in_doubt_is_read_where_the_readers_agree_on_four_fifths(
    monkeypatch, best, sure
):
    reader_gives(monkeypatch, FOUR_AT[best])
    frame = card((RED_BOX, RED))
    det = dice([(RED_BOX, "red", 2, "regular", True)], zone="slot")
    read = row_sure.faces_read_for_sure(frame, det, np.array([SIDE]), SIDE, COLOURED)
    assert bool(read.unsure[0]) is not sure
    # on rendered rows a die under a note's edge, two of its four pips hidden, read 2 at up to 0.79
    assert int(read.pips[0]) == (4 if sure else 2)


def test_a_white_die_in_doubt_for_its_pips_is_read_for_sure_as_a_die_without_a_clear_face(
    monkeypatch,
):
    reader_gives(monkeypatch, COCKED)
    frame = card((RED_BOX, RED), (WHITE_BOX, WHITE))
    det = dice([(RED_BOX, "red", 2, "regular", False), (WHITE_BOX, "white", 3, "regular", True)])
    read = row_sure.faces_read_for_sure(frame, det, np.array([SIDE, SIDE]), SIDE, COLOURED)
    assert list(read.unsure) == [False, False]


@pytest.mark.parametrize(
    "colour, share, sure", [("white", 1.22, True), ("red", 1.22, False), ("white", 1.3, False)]
)
def test_a_white_die_in_doubt_may_cover_up_to_where_a_die_is_judged_regular(
    monkeypatch, colour, share, sure
):
    reader_gives(monkeypatch, COCKED)
    frame = card((RED_BOX, RED), (WHITE_BOX, WHITE if colour == "white" else RED))
    det = dice([(RED_BOX, "red", 2, "regular", False), (WHITE_BOX, colour, 3, "regular", True)])
    sides = np.array([SIDE, share * SIDE])
    read = row_sure.faces_read_for_sure(frame, det, sides, SIDE, COLOURED)
    assert bool(read.unsure[1]) is not sure


@pytest.mark.parametrize("chances, regular", [(ONE_FACE, True), (NO_FACE, False)])
def test_a_white_die_between_sizes_showing_one_face_is_regular(monkeypatch, chances, regular):
    reader_gives(monkeypatch, chances)
    other_white, other_red = (160, 20, 190, 50), (220, 20, 250, 50)
    frame = card((RED_BOX, RED), (WHITE_BOX, WHITE), (other_white, WHITE), (other_red, RED))
    det = dice(
        [
            (RED_BOX, "red", 2, "regular", False),
            (WHITE_BOX, "white", 3, "big", False),  # between sizes, read for sure
            (other_white, "white", 3, "big", True),  # between sizes, in doubt
            (other_red, "red", 3, "big", False),  # between sizes: it may be red's Biggy
        ]
    )
    sizes, judged = det.size.copy(), np.array([True, False, False, False])
    sizes, judged = row_doubt.neutral_dice_regular(frame, det, sizes, judged, SIDE, COLOURED)
    assert list(sizes) == ["regular", "regular" if regular else "big", "big", "big"]
    assert list(judged) == [True, regular, False, False]


@pytest.mark.parametrize(
    "chances, cfg, named",
    [(ONE_FACE, COLOURED, "white"), (NO_FACE, COLOURED, "grey"), (ONE_FACE, config("red"), "grey")],
)
def test_a_grey_die_showing_pips_is_a_white_die_in_a_shadow(monkeypatch, chances, cfg, named):
    reader_gives(monkeypatch, chances)
    blank = (160, 20, 190, 50)
    frame = card((RED_BOX, RED), (WHITE_BOX, GREY), (blank, GREY))
    det = dice(
        [
            (RED_BOX, "red", 2, "regular", False),
            (WHITE_BOX, "grey", 4, "regular", True),
            (blank, "grey", 0, "regular", True),  # blank: a grey die, or no die
        ]
    )
    read = row_doubt.shaded_whites(frame, det, SIDE, cfg)
    assert list(read.colour) == ["red", named, "grey"]
    assert list(read.unsure) == [False, True, True]  # the reader's doubt stays


@pytest.mark.parametrize(
    "cfg, left",
    [
        (COLOURED, 4),  # no grey dice in play: the grey blank piece is no die
        (config("red", "grey"), 5),  # Royale's grey dice are blank
        (ReaderConfig(threads=1), 5),  # the colours in play not named
    ],
)
def test_a_grey_blank_box_smaller_than_a_die_is_dropped_where_no_grey_dice_are_in_play(cfg, left):
    boxes = [(x, 20, x + 30, 50) for x in (20, 60, 100, 140, 180)]
    det = dice(
        [
            (boxes[0], "grey", 0, "regular", True),  # a piece: dropped
            (boxes[1], "grey", 0, "regular", False),  # a whole die's side
            (boxes[2], "grey", 3, "regular", True),  # it shows pips
            (boxes[3], "red", 0, "regular", True),  # no grey
            (boxes[4], "grey", 0, "regular", True),  # not measured
        ]
    )
    sides = np.array([0.7 * SIDE, SIDE, 0.7 * SIDE, 0.7 * SIDE, np.nan])
    kept, kept_sides = row_doubt.blank_pieces_dropped(det, sides, SIDE, cfg)
    assert len(kept) == len(kept_sides) == left
    if left == 4:
        assert [tuple(b) for b in kept.boxes.tolist()] == [tuple(map(float, b)) for b in boxes[1:]]


# --- on the simulated row, through read_casino_row --------------------------------------------


@pytest.fixture(scope="module")
def scene():
    from vision.sim_casinos import row_scene
    from vision.simtable import SimDie

    laid = {
        1: [SimDie("red", 1), SimDie("blue", 1)],
        4: [SimDie("blue", 4), SimDie("white", 4), SimDie("red", 4)],
    }
    return row_scene(laid, {n: (50_000,) for n in range(1, 8)}, seed=3)


def test_the_row_drops_a_grey_piece_and_names_a_grey_die_with_pips_white(scene, monkeypatch):
    from dataclasses import replace

    from vision.zones import detect_zones

    zones = detect_zones(scene.frame)
    # On casino 2, where no die lies, a grey piece two thirds of a die wide (a note's edge).
    cx, cy = (int(v) for v in row_zones.casino_zones(zones)[2].mean(0))
    frame = scene.frame.copy()
    frame[cy - 10 : cy + 10, cx - 10 : cx + 10] = GREY
    real = casino_row.read_dice

    def grey_read(crop, cfg):
        # Casino 4's white die read grey (as in a shadow), and the piece read as a grey die.
        found = real(crop, cfg)
        zone = cfg.zones.names[0]
        if zone == "casino4":
            grey = np.where(found.colour == "white", "grey", found.colour).astype(object)
            return replace(found, colour=grey)
        if zone == "casino2":
            x, y = cfg.zones.polygons[0].mean(0)
            piece = dice([((x - 10, y - 10, x + 10, y + 10), "grey", 0, "regular", True)], zone)
            return found.joined(piece)
        return found

    monkeypatch.setattr(casino_row, "read_dice", grey_read)
    cfg = config("red", "blue", "white")
    row = casino_row.read_casino_row(frame, zones, cfg, colour_left_unread=False)
    assert not row.on(2)
    assert sorted((d.colour, d.unsure) for d in row.on(4)) == [
        ("blue", False),
        ("red", False),
        ("white", False),
    ]
    # Where grey dice are in play (Royale's are blank), the piece may be one of them.
    cfg = config("red", "blue", "white", "grey")
    row = casino_row.read_casino_row(frame, zones, cfg, colour_left_unread=False)
    assert [d.colour for d in row.on(2)] == ["grey"]


def test_the_row_reads_a_white_die_between_sizes_as_regular(scene):
    from dataclasses import replace

    from vision.zones import detect_zones

    zones = detect_zones(scene.frame)
    cfg = config("red", "blue", "white")
    (white,) = (
        d for d in casino_row.read_casino_row(scene.frame, zones, cfg).on(4) if d.colour == "white"
    )
    (side,) = row_sizes.covered_sides(scene.frame, np.array([white.box], np.float32))
    # A regular die's side given so that the white die covers 1.31 of it: between a regular
    # die's size and a Biggy's. The neutral dice have no Biggy, and its box shows one face.
    cfg = replace(cfg, regular_side_px=float(side) / 1.31)
    row = casino_row.read_casino_row(scene.frame, zones, cfg, colour_left_unread=False)
    (white,) = (d for d in row.on(4) if d.colour == "white")
    assert (white.big, white.unsure) == (False, False)


# --- printed markers hidden in part, and one Biggy a colour -----------------------------------


def marker_at(x: float, y: float, side: float = 20.0) -> np.ndarray:
    """A printed marker's quad (4, 2) centred at (x, y)."""
    h = side / 2
    return np.array([(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)], np.float32)


CASINO_TWO = np.array([(100, 20), (180, 20), (180, 180), (100, 180)], np.float32)


def card_zones(*hidden_corners: int) -> Zones:
    """Casino 2's zone through its four corners, the markers at all but `hidden_corners` seen."""
    seen = tuple(marker_at(*c) for k, c in enumerate(CASINO_TWO) if k not in hidden_corners)
    return Zones(("casino2",), (CASINO_TWO,), seen)


def test_a_card_corner_without_a_marker_seen_holds_a_hidden_marker():
    assert row_zones.hidden_markers(card_zones()) == ()
    (hidden,) = row_zones.hidden_markers(card_zones(2))
    assert np.allclose(hidden.mean(0), CASINO_TWO[2])
    assert np.allclose(np.ptp(hidden, 0), (20, 20))  # the size of the markers seen


@pytest.mark.parametrize(
    "cfg, colour, left, unsure",
    [
        (COLOURED, "black", 1, [False]),  # no one plays black: the marker's part that shows
        (COLOURED, "red", 2, [False, True]),  # a die may lie on the marker
        (ReaderConfig(threads=1), "black", 2, [False, True]),  # the colours in play not named
    ],
)
def test_a_box_on_a_hidden_marker_is_dropped_in_a_colour_no_one_plays_else_in_doubt(
    cfg, colour, left, unsure
):
    corner = CASINO_TWO[2]
    det = dice(
        [
            ((120, 60, 150, 90), "red", 2, "regular", False),
            (
                (corner[0] - 14, corner[1] - 14, corner[0] + 14, corner[1] + 14),
                colour,
                3,
                "regular",
                False,
            ),
        ]
    )
    read = row_doubt.on_hidden_markers(det, card_zones(2), cfg)
    assert len(read) == left
    assert list(read.unsure) == unsure
    # with the marker seen, the reader has dropped such a box: those left are kept as read
    assert list(row_doubt.on_hidden_markers(det, card_zones(), cfg).unsure) == [False, False]


def test_of_two_dice_of_a_colour_read_as_biggies_for_sure_the_weaker_is_in_doubt():
    det = dice(
        [
            ((20, 20, 65, 65), "red", 4, "big", False),
            ((70, 20, 115, 65), "red", 4, "big", False),  # weaker: no Biggy, or not alone
            ((120, 20, 165, 65), "blue", 4, "big", False),  # blue's only Biggy
            ((170, 20, 215, 65), "blue", 4, "big", True),  # already in doubt
            ((220, 20, 250, 50), "red", 4, "regular", False),
        ]
    )
    det = replace(det, confidence=np.array([0.8, 0.5, 0.6, 0.9, 0.9], np.float32))
    read = row_doubt.second_biggies_in_doubt(det)
    assert list(read.unsure) == [False, True, False, True, False]


# the readers give 0.55 to the likeliest number and 0.3 to another, 0.02 to each other face
FIVE_OR_SIX = [0.01, 0.02, 0.02, 0.02, 0.02, 0.55, 0.3, 0.04, 0.02]
THREE_OR_ONE = [0.01, 0.3, 0.02, 0.55, 0.02, 0.02, 0.02, 0.04, 0.02]
TWO_OR_FOUR = [0.01, 0.02, 0.55, 0.02, 0.3, 0.02, 0.02, 0.04, 0.02]


@pytest.mark.parametrize(
    "chances, likely",
    [
        (FIVE_OR_SIX, (5, 6)),  # no face holds a 5's pips
        (THREE_OR_ONE, (1, 3, 5, 6)),  # a 5, or a 6's line of three, under a note shows a 3
        (TWO_OR_FOUR, (2, 3, 4, 5, 6)),  # every larger face holds a 2's pips
    ],
)
def test_a_slot_machine_die_in_doubt_for_its_pips_alone_keeps_its_likely_numbers(
    monkeypatch, chances, likely
):
    reader_gives(monkeypatch, chances)
    frame = card((RED_BOX, RED), (WHITE_BOX, RED))
    det = dice(
        [(RED_BOX, "red", 2, "regular", True), (WHITE_BOX, "red", 2, "regular", True)], zone="slot"
    )
    sides = np.array([SIDE, 1.4 * SIDE])  # the second covers more than a die: in doubt for more
    read = row_sure.faces_read_for_sure(frame, det, sides, SIDE, COLOURED)
    assert list(read.unsure) == [True, True]
    # of the faces' 0.93 the two numbers get 0.59 and 0.32, the others 0.02 each (under 0.05)
    assert casino_row._pips_of(int(read.likely_pips[0])) == likely
    assert int(read.likely_pips[1]) == 0
    # on casinos 1-6 the pips do not count: the same die is read for sure
    on_two = replace(det, zone=np.array(["casino2"] * 2, object))
    on_two = row_sure.faces_read_for_sure(frame, on_two, sides, SIDE, COLOURED)
    assert list(on_two.unsure) == [False, True] and int(on_two.likely_pips.max()) == 0


def test_a_die_in_doubt_for_more_than_its_pips_keeps_no_likely_numbers():
    box = (20, 20, 50, 50)
    det = dice([(box, "red", 2, "regular", True), (box, "red", 2, "regular", True)], zone="slot")
    det = replace(det, likely_pips=np.array([0b10100, 0], np.uint8))
    # one die boxed twice: the first is in doubt for that too
    read = row_doubt.boxed_twice_in_doubt(det)
    assert list(read.likely_pips) == [0, 0] and list(read.unsure) == [True, True]
    # a die whose size cannot be judged, or whose colour is a guess, likewise
    judged = np.array([False, True])
    read = row_doubt.sizes_doubted(det, np.array(["regular", "regular"], object), judged)
    assert list(read.likely_pips) == [0, 0]
    kept = row_doubt.sizes_doubted(det, np.array(["regular", "regular"], object), ~judged | judged)
    assert casino_row._pips_of(int(kept.likely_pips[0])) == (2, 4)


# --- a Biggy in doubt read for sure by what its box shows --------------------------------------

BIG_BOX = (100, 20, 142, 62)  # 1.4 regular sides
BLUE_BOX = (160, 20, 190, 50)


def lone_biggy_row(big_fill=BIG_BOX, big_colour="red", blue_size="regular", zone="casino2"):
    """A card with a red regular die read for sure (the row's red), a blue die read for sure
    of `blue_size`, and a box judged big and in doubt in `big_colour`, read 2, filled red over
    `big_fill` (the rest of it the card); and the covered sides of the three."""
    frame = card((RED_BOX, RED), (BLUE_BOX, (200, 60, 30)), (big_fill, RED))
    det = dice(
        [
            (RED_BOX, "red", 2, "regular", False),
            (BLUE_BOX, "blue", 3, blue_size, False),
            (BIG_BOX, big_colour, 2, "big", True),
        ],
        zone,
    )
    return frame, det, np.array([SIDE, SIDE, 1.4 * SIDE])


@pytest.mark.parametrize("blue_size", ["regular", "big"])
def test_a_die_in_doubt_judged_big_alone_in_its_colour_showing_a_biggys_colour_is_read(
    monkeypatch, blue_size
):
    reader_gives(monkeypatch, ONE_FACE)
    frame, det, sides = lone_biggy_row(blue_size=blue_size)  # blue's Biggy says nothing of red's
    read = row_sure.lone_biggies_read(frame, det, sides, SIDE, COLOURED)
    assert list(read.unsure) == [False, False, False]
    assert list(read.size) == ["regular", blue_size, "big"]


@pytest.mark.parametrize(
    "fill, colour, covered",
    [
        ((100, 20, 130, 50), "red", 1.4),  # a regular die's area of red: a die and a note's edge
        (BIG_BOX, "white", 1.4),  # a pale die: any owner's die, or two
        (BIG_BOX, "red", 1.9),  # more than any Biggy covers
    ],
)
def test_a_die_in_doubt_judged_big_stays_in_doubt_where_its_box_shows_no_biggy(
    monkeypatch, fill, colour, covered
):
    reader_gives(monkeypatch, ONE_FACE)
    frame, det, sides = lone_biggy_row(fill, colour)
    sides[2] = covered * SIDE
    read = row_sure.lone_biggies_read(frame, det, sides, SIDE, COLOURED)
    assert list(read.unsure) == [False, False, True]


def test_a_die_in_doubt_judged_big_stays_in_doubt_beside_another_die_of_its_colour_judged_big(
    monkeypatch,
):
    reader_gives(monkeypatch, ONE_FACE)
    frame, det, sides = lone_biggy_row()
    det = replace(det, colour=np.array(["red", "red", "red"], object))  # the blue one read red
    det = replace(det, size=np.array(["regular", "big", "big"], object))
    read = row_sure.lone_biggies_read(frame, det, sides, SIDE, COLOURED)
    assert bool(read.unsure[2])


def test_a_die_in_doubt_judged_big_that_the_pip_reader_sees_as_no_die_stays_in_doubt(
    monkeypatch,
):
    reader_gives(monkeypatch, [0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.26, 0.6])
    frame, det, sides = lone_biggy_row()
    read = row_sure.lone_biggies_read(frame, det, sides, SIDE, COLOURED)
    assert bool(read.unsure[2])


@pytest.mark.parametrize("best, sure", [(0.85, True), (0.75, False)])
def test_a_lone_biggy_on_the_slot_machine_is_read_only_where_its_pips_are_sure(
    monkeypatch, best, sure
):
    reader_gives(monkeypatch, FOUR_AT[best])
    frame, det, sides = lone_biggy_row(zone="slot")
    read = row_sure.lone_biggies_read(frame, det, sides, SIDE, COLOURED)
    assert bool(read.unsure[2]) is not sure
    assert int(read.pips[2]) == (4 if sure else 2)


# --- a white box judged big read as one white die by what it shows ----------------------------

WHITE_SURE_BOX = (220, 20, 250, 50)
WHITE_DIE = (100, 20, 128, 48)  # a white die in the corner of BIG_BOX, the rest of it card


def white_big_row(*fills, zone="casino2"):
    """A card with a red and a white die read for sure (the row's red and white), and BIG_BOX
    read white, judged big and in doubt, read 2, drawn as `fills` (box, BGR) in turn; and the
    covered sides of the three."""
    frame = card((RED_BOX, RED), (WHITE_SURE_BOX, WHITE), *fills)
    det = dice(
        [
            (RED_BOX, "red", 2, "regular", False),
            (WHITE_SURE_BOX, "white", 3, "regular", False),
            (BIG_BOX, "white", 2, "big", True),
        ],
        zone,
    )
    return frame, det, np.array([SIDE, SIDE, 1.4 * SIDE])


@pytest.mark.parametrize("unsure", [True, False])
def test_a_white_box_judged_big_showing_one_white_die_and_no_other_colour_is_one_white_die(
    monkeypatch, unsure
):
    reader_gives(monkeypatch, NO_FACE)  # a die, with no clear face
    frame, det, sides = white_big_row((WHITE_DIE, WHITE))
    det = replace(det, unsure=np.array([False, False, unsure]))  # read big for sure, or not
    read = row_sure.white_boxes_one_die(frame, det, sides, SIDE, COLOURED)
    assert list(read.unsure) == [False, False, False]
    assert list(read.size) == ["regular", "regular", "regular"]


@pytest.mark.parametrize(
    "fills",
    [
        ((BIG_BOX, WHITE),),  # white over more than a die's area: two white dice may lie there
        ((BIG_BOX, RED), (WHITE_DIE, WHITE)),  # a white die and most of a red one
        (((100, 20, 110, 30), WHITE),),  # hardly any white: a die paled by a note's paper
    ],
)
def test_a_white_box_judged_big_stays_in_doubt_where_it_shows_more_or_less_than_one_white_die(
    monkeypatch, fills
):
    reader_gives(monkeypatch, ONE_FACE)
    frame, det, sides = white_big_row(*fills)
    read = row_sure.white_boxes_one_die(frame, det, sides, SIDE, COLOURED)
    assert bool(read.unsure[2]) and read.size[2] == "big"


def test_a_white_box_judged_big_stays_in_doubt_where_its_colour_or_its_being_a_die_is(
    monkeypatch,
):
    frame, det, sides = white_big_row((WHITE_DIE, WHITE))
    reader_gives(monkeypatch, ONE_FACE)
    doubted = replace(det, colour_doubt=np.array([False, False, True]))
    assert bool(row_sure.white_boxes_one_die(frame, doubted, sides, SIDE, COLOURED).unsure[2])
    reader_gives(monkeypatch, [0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.26, 0.6])
    assert bool(row_sure.white_boxes_one_die(frame, det, sides, SIDE, COLOURED).unsure[2])


@pytest.mark.parametrize("best, sure", [(0.85, True), (0.75, False)])
def test_a_white_box_judged_big_on_the_slot_machine_is_one_white_die_its_pips_sure_or_likely(
    monkeypatch, best, sure
):
    reader_gives(monkeypatch, FOUR_AT[best])
    frame, det, sides = white_big_row((WHITE_DIE, WHITE), zone="slot")
    read = row_sure.white_boxes_one_die(frame, det, sides, SIDE, COLOURED)
    assert read.size[2] == "regular" and bool(read.unsure[2]) is not sure
    assert int(read.pips[2]) == (4 if sure else 2)
    likely = casino_row._pips_of(int(read.likely_pips[2]))
    assert likely == (() if sure else (4, 5, 6))


# --- a pale die named by a patch of colour inside it read for sure ----------------------------

NAMED_BOX = (100, 20, 130, 50)


def named_row(*fills, zone="casino2", boxes=(NAMED_BOX,)):
    """A card with a red die read for sure (the row's red) and boxes read white and in doubt,
    then named red by a patch of red inside them, drawn as `fills` (box, BGR); and which dice
    the patch named."""
    frame = card((RED_BOX, RED), *fills)
    det = dice(
        [(RED_BOX, "red", 2, "regular", False)]
        + [(box, "red", 2, "regular", True) for box in boxes],
        zone,
    )
    return frame, det, np.array([False] + [True] * len(boxes))


def test_a_pale_die_named_by_a_patch_and_showing_one_regular_die_is_read_for_sure(monkeypatch):
    reader_gives(monkeypatch, NO_FACE)  # a die, with no clear face: a note's paper over it
    frame, det, named = named_row((NAMED_BOX, RED))
    read = row_sure.named_dice_read(frame, NO_ZONES, det, named, SIDE, COLOURED)
    assert list(read.unsure) == [False, False]
    # a die in doubt that no patch named stays in doubt
    kept = row_sure.named_dice_read(frame, NO_ZONES, det, ~named & named, SIDE, COLOURED)
    assert list(kept.unsure) == [False, True]


@pytest.mark.parametrize(
    "fill, chances",
    [
        (((100, 20, 142, 62), RED), NO_FACE),  # covers 1.4 regular sides: more than one die
        (((100, 20, 118, 38), RED), NO_FACE),  # covers 0.6: a piece of a die, or a note's edge
        ((NAMED_BOX, RED), [0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.26, 0.6]),  # no die
    ],
)
def test_a_pale_die_named_by_a_patch_stays_in_doubt_where_it_shows_no_regular_die(
    monkeypatch, fill, chances
):
    reader_gives(monkeypatch, chances)
    frame, det, named = named_row(fill)
    det = replace(det, boxes=np.array([RED_BOX, fill[0]], np.float32))
    read = row_sure.named_dice_read(frame, NO_ZONES, det, named, SIDE, COLOURED)
    assert list(read.unsure) == [False, True]


def test_a_pale_die_named_by_a_patch_stays_in_doubt_where_another_box_shares_it(monkeypatch):
    reader_gives(monkeypatch, ONE_FACE)
    frame, det, named = named_row((NAMED_BOX, RED), boxes=(NAMED_BOX, (104, 22, 132, 50)))
    read = row_sure.named_dice_read(frame, NO_ZONES, det, named, SIDE, COLOURED)
    assert list(read.unsure) == [False, True, True]


@pytest.mark.parametrize("best, sure", [(0.85, True), (0.75, False)])
def test_a_pale_die_named_by_a_patch_on_the_slot_machine_is_one_die_its_pips_sure_or_likely(
    monkeypatch, best, sure
):
    reader_gives(monkeypatch, FOUR_AT[best])
    frame, det, named = named_row((NAMED_BOX, RED), zone="slot")
    read = row_sure.named_dice_read(frame, NO_ZONES, det, named, SIDE, COLOURED)
    assert bool(read.unsure[1]) is not sure
    assert int(read.pips[1]) == (4 if sure else 2)
    likely = casino_row._pips_of(int(read.likely_pips[1]))
    assert likely == (() if sure else (4, 5, 6))


# --- a pale die in doubt that no patch named, read as one white die by what it shows -----------

PALE_BOX = (100, 20, 130, 50)


def pale_row(*fills, colour="grey", doubt=False, zone="casino2"):
    """A card with a red and a white die read for sure (the row's red and white) and the first
    fill's box read in `colour` and in doubt (its colour a guess where `doubt`), drawn as `fills`
    (box, BGR) in turn."""
    box = fills[0][0]
    frame = card((RED_BOX, RED), (WHITE_SURE_BOX, WHITE), *fills)
    det = dice(
        [
            (RED_BOX, "red", 2, "regular", False),
            (WHITE_SURE_BOX, "white", 3, "regular", False),
            (box, colour, 2, "regular", True),
        ],
        zone,
    )
    return frame, replace(det, colour_doubt=np.array([False, False, doubt]))


def pale_read(frame, det, zones=NO_ZONES, patches=None, unnamed=(True, True, True)):
    patches = Detections.empty() if patches is None else patches
    unnamed = np.array(unnamed)
    return row_sure.pale_dice_read(frame, zones, det, patches, unnamed, SIDE, COLOURED)


@pytest.mark.parametrize(
    "colour, doubt", [("grey", False), ("white", False), ("white", True), ("red", True)]
)
def test_a_pale_die_in_doubt_showing_one_white_die_is_read_for_sure_as_one(
    monkeypatch, colour, doubt
):
    reader_gives(monkeypatch, NO_FACE)  # a die, with no clear face
    frame, det = pale_row((PALE_BOX, WHITE), colour=colour, doubt=doubt)
    read = pale_read(frame, det)
    assert list(read.unsure) == [False, False, False]
    assert (read.colour[2], read.size[2], bool(read.colour_doubt[2])) == ("white", "regular", False)


def test_a_die_in_doubt_in_a_colour_no_pale_one_and_not_a_guess_is_left_as_it_is(monkeypatch):
    reader_gives(monkeypatch, ONE_FACE)
    frame, det = pale_row((PALE_BOX, WHITE), colour="red")
    assert list(pale_read(frame, det).unsure) == [False, False, True]


@pytest.mark.parametrize(
    "fills",
    [
        ((PALE_BOX, RED),),  # a coloured die read pale: hardly any white
        (((100, 20, 130, 50), GREY),),  # a note's paper or a shadow: no white
        (((100, 20, 136, 56), RED), ((100, 20, 118, 56), WHITE)),  # half white, half red
        (((100, 20, 112, 32), WHITE),),  # a piece of a die: less than a regular die's side
    ],
)
def test_a_pale_die_in_doubt_stays_in_doubt_where_its_box_shows_no_one_white_die(
    monkeypatch, fills
):
    reader_gives(monkeypatch, ONE_FACE)
    frame, det = pale_row(*fills)
    read = pale_read(frame, det)
    assert bool(read.unsure[2]) and read.colour[2] == "grey"


def test_a_pale_die_in_doubt_stays_in_doubt_where_no_die_is_seen_or_a_patch_named_it(
    monkeypatch,
):
    frame, det = pale_row((PALE_BOX, WHITE))
    reader_gives(monkeypatch, [0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.26, 0.6])
    assert bool(pale_read(frame, det).unsure[2])
    reader_gives(monkeypatch, ONE_FACE)
    assert bool(pale_read(frame, det, unnamed=(True, True, False)).unsure[2])


def test_a_pale_die_in_doubt_stays_in_doubt_on_a_hidden_marker_or_sharing_a_box(monkeypatch):
    reader_gives(monkeypatch, ONE_FACE)
    # a die on casino 2's corner at (100, 20), where the marker is hidden
    frame, det = pale_row(((86, 6, 116, 36), WHITE))
    assert bool(pale_read(frame, det, zones=card_zones(0)).unsure[2])
    assert not pale_read(frame, det, zones=card_zones()).unsure[2]
    frame, det = pale_row((PALE_BOX, WHITE))
    patch = dice([((104, 22, 132, 50), "red", 0, "regular", True)])
    assert bool(pale_read(frame, det, patches=patch).unsure[2])


@pytest.mark.parametrize("chances, read_for_sure", [(ONE_FACE, True), (NO_FACE, False)])
def test_a_pale_box_larger_than_a_regular_die_is_one_white_die_only_showing_one_face(
    monkeypatch, chances, read_for_sure
):
    reader_gives(monkeypatch, chances)
    larger = (100, 20, 141, 61)  # covers 1.37 regular sides: a white die and a note's edge
    frame, det = pale_row((larger, GREY), (PALE_BOX, WHITE), colour="white")
    det = replace(det, size=np.array(["regular", "regular", "big"], object))
    read = pale_read(frame, det)
    assert bool(read.unsure[2]) is not read_for_sure
    assert read.size[2] == ("regular" if read_for_sure else "big")


@pytest.mark.parametrize("best, sure", [(0.85, True), (0.75, False)])
def test_a_pale_die_on_the_slot_machine_is_one_white_die_its_pips_sure_or_likely(
    monkeypatch, best, sure
):
    reader_gives(monkeypatch, FOUR_AT[best])
    frame, det = pale_row((PALE_BOX, WHITE), zone="slot")
    read = pale_read(frame, det)
    assert read.colour[2] == "white" and bool(read.unsure[2]) is not sure
    assert int(read.pips[2]) == (4 if sure else 2)
    likely = casino_row._pips_of(int(read.likely_pips[2]))
    assert likely == (() if sure else (4, 5, 6))


@pytest.fixture(scope="module")
def two_whites():
    from vision.sim_casinos import row_scene
    from vision.simtable import SimDie

    laid = {
        1: [SimDie("red", 1), SimDie("white", 1), SimDie("blue", 1)],
        4: [SimDie("blue", 4), SimDie("white", 4), SimDie("red", 4)],
    }
    return row_scene(laid, {n: (50_000,) for n in range(1, 8)}, seed=3)


def test_the_row_reads_a_white_die_whose_colour_was_a_guess_as_one_white_die(
    two_whites, monkeypatch
):
    from vision.zones import detect_zones

    scene = two_whites
    zones = detect_zones(scene.frame)
    real = casino_row.read_dice

    def guessed(crop, cfg):
        # Casino 4's white die read grey, its colour a guess (between white and grey).
        found = real(crop, cfg)
        if cfg.zones.names[0] != "casino4":
            return found
        white = found.colour == "white"
        return replace(
            found, colour=np.where(white, "grey", found.colour).astype(object), colour_doubt=white
        )

    monkeypatch.setattr(casino_row, "read_dice", guessed)
    row = casino_row.read_casino_row(scene.frame, zones, config("red", "blue", "white"))
    assert sorted((d.colour, d.big, d.unsure) for d in row.on(4)) == [
        ("blue", False, False),
        ("red", False, False),
        ("white", False, False),
    ]
