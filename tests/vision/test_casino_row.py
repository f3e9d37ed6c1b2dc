"""Reading the casino row: dice per casino zone by colour and size, on the simulated row."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import row_sure
from vision.casino_row import read_casino_row
from vision.colour import default_palette
from vision.detections import Detections
from vision.reader import ReaderConfig
from vision.row_sizes import row_sizes
from vision.row_zones import casino_zones
from vision.sim_casinos import (
    HARDEST,
    RowDie,
    card_layout,
    misplace,
    render_row,
    row_scene,
)
from vision.simtable import SimDie
from vision.zones import Zones, detect_zones

COLOURS = ("red", "blue", "green", "white")
CONFIG = ReaderConfig(
    threads=1, camera_place="above", palette=default_palette().in_play_only(COLOURS)
)
DICE = {
    1: [SimDie("red", 1), SimDie("blue", 1)],
    3: [SimDie("green", 3), SimDie("green", 3), SimDie("red", 3, big=True)],
    4: [SimDie("blue", 4), SimDie("white", 4)],
    7: [SimDie("red", 5), SimDie("blue", 2)],
}


def truth(dice) -> Counter:
    return Counter((n, d.colour, d.big) for n, ds in dice.items() for d in ds)


@pytest.fixture(scope="module")
def scene():
    return row_scene(DICE, {n: (50_000,) for n in range(1, 8)}, seed=3)


def test_the_markers_give_every_casino_and_the_slot_machine(scene):
    zones = detect_zones(scene.frame)
    assert sorted(casino_zones(zones)) == [1, 2, 3, 4, 5, 6, 7]
    for got, drawn in zip(
        (casino_zones(zones)[n] for n in range(1, 8)), scene.zones.polygons, strict=True
    ):
        assert np.abs(got - drawn).max() < 2  # the zone runs through the markers' centres


@pytest.mark.parametrize("zones_from", ["markers", "corners"])
def test_each_die_is_read_on_its_casino_by_colour_and_size(scene, zones_from):
    if zones_from == "markers":
        zones = detect_zones(scene.frame)
    else:  # corners tapped by hand, a little inside the printed markers
        zones = Zones(
            scene.zones.names,
            tuple(p + np.sign(p.mean(0) - p) * 6 for p in scene.zones.polygons),
        )
    row = read_casino_row(scene.frame, zones, CONFIG)
    assert row.casinos == (1, 2, 3, 4, 5, 6, 7)
    assert not any(d.unsure for d in row.dice)
    assert Counter((d.casino, d.colour, d.big) for d in row.dice) == truth(DICE)
    slot = sorted(d.pips for d in row.on(7))
    assert slot == [2, 5]  # the slot machine's values are read too


def test_a_casino_without_a_zone_is_not_looked_at(scene):
    zones = Zones(
        tuple(n for n in scene.zones.names if n != "casino3"),
        tuple(
            p
            for n, p in zip(scene.zones.names, scene.zones.polygons, strict=True)
            if n != "casino3"
        ),
    )
    row = read_casino_row(scene.frame, zones, CONFIG)
    assert 3 not in row.casinos and not row.on(3)


def test_a_frame_of_the_wrong_shape_is_refused():
    with pytest.raises(ValueError, match=r"frame must have 1, 3 or 4 channels"):
        read_casino_row(np.zeros((10, 10, 2), np.uint8), Zones((), ()), CONFIG)


def test_a_die_turned_against_a_neighbour_is_not_taken_for_a_biggy():
    rng = np.random.default_rng(0)
    card = card_layout(1280, 720, 27)[2]
    x, y = float(card[:, 0].mean()), float(card[:, 1].mean())
    side = 32.0
    # Two dice turned 45 degrees, touching along an edge, and a Biggy apart; three regular
    # dice apart set the regular side (a row holds dozens).
    step = side * 1.02 / np.sqrt(2)
    laid = [
        RowDie(2, SimDie("red", 2), (x, y), side, np.pi / 4),
        RowDie(2, SimDie("red", 2), (x + step, y + step), side, np.pi / 4),
        RowDie(2, SimDie("red", 2), (x - 20, y - 110), side * 1.5, 0.1),
        RowDie(2, SimDie("red", 2), (x + 10, y + 110), side, 0.0),
        RowDie(2, SimDie("red", 2), (x - 40, y + 170), side, 0.0),
        RowDie(2, SimDie("red", 2), (x + 40, y + 170), side, 0.0),
    ]
    frame, _ = render_row(laid, {}, rng)
    boxes = np.array(
        [
            [d.centre[0] - r, d.centre[1] - r, d.centre[0] + r, d.centre[1] + r]
            for d in laid
            for r in [0.5 * d.side * (abs(np.cos(d.angle)) + abs(np.sin(d.angle)))]
        ],
        np.float32,
    )
    n = len(boxes)
    det = Detections(boxes, [2] * n, ["red"] * n, ["regular"] * n, [1.0] * n, [False] * n)
    sizes, judged = row_sizes(frame, det)
    assert list(sizes) == ["regular", "regular", "big", "regular", "regular", "regular"]
    assert judged.all()


def test_a_die_between_a_regular_die_and_a_biggy_in_size_is_not_judged():
    # A die whose box took in a touching neighbour's corner covers about 1.3 regular sides:
    # neither plainly regular nor plainly a Biggy, so its size is not judged.
    rng = np.random.default_rng(1)
    card = card_layout(1280, 720, 27)[2]
    x, y = float(card[:, 0].mean()), float(card[:, 1].mean())
    side = 32.0
    # Five regular dice (they set the regular side), one of 1.3 sides and a Biggy, apart.
    laid = [RowDie(2, SimDie("blue", 2), (x - 40, y - 180 + 60 * k), side, 0.0) for k in range(5)]
    laid += [
        RowDie(2, SimDie("blue", 2), (x + 35, y - 120), side * 1.3, 0.0),
        RowDie(2, SimDie("blue", 2), (x + 35, y), side * 1.5, 0.0),
    ]
    frame, _ = render_row(laid, {}, rng)
    boxes = np.array(
        [
            [
                d.centre[0] - d.side / 2,
                d.centre[1] - d.side / 2,
                d.centre[0] + d.side / 2,
                d.centre[1] + d.side / 2,
            ]
            for d in laid
        ],
        np.float32,
    )
    n = len(boxes)
    det = Detections(boxes, [2] * n, ["blue"] * n, ["regular"] * n, [1.0] * n, [False] * n)
    sizes, judged = row_sizes(frame, det)
    assert list(sizes[[0, 1, 2, 3, 4, 6]]) == ["regular"] * 5 + ["big"]
    assert list(judged) == [True] * 5 + [False, True]


def test_a_grey_die_showing_pips_and_a_colour_in_doubt_are_not_read_for_sure(scene, monkeypatch):
    import vision.casino_row as casino_row

    def read_as(crop, cfg):
        # Two dice in the middle of the crop's zone: one named grey with pips, one whose
        # colour lies between two.
        zone = cfg.zones.names[0]
        cx, cy = cfg.zones.polygons[0].mean(0)
        boxes = [[cx - 16, cy - 60, cx + 16, cy - 28], [cx - 16, cy + 28, cx + 16, cy + 60]]
        return Detections(
            boxes,
            [4, 3],
            ["grey", "red"],
            ["regular"] * 2,
            [0.9] * 2,
            [False] * 2,
            [zone] * 2,
            [False, True],
        )

    monkeypatch.setattr(casino_row, "read_dice", read_as)
    zones = detect_zones(scene.frame)
    row = read_casino_row(scene.frame, zones, CONFIG)
    assert row.dice and all(d.unsure for d in row.dice)


def test_a_die_in_doubt_only_for_its_pips_is_read_for_sure_where_they_do_not_count_or_are_clear(
    scene, monkeypatch
):
    import vision.casino_row as casino_row

    real = casino_row.read_dice

    def pips_in_doubt(crop, cfg):
        # The reader as it is, but every die flagged unsure, as where its pips are in doubt.
        found = real(crop, cfg)
        return replace(found, unsure=np.ones(len(found), bool))

    monkeypatch.setattr(casino_row, "read_dice", pips_in_doubt)
    # No die read for sure to measure a regular die's side by: the drawn side is given.
    config = replace(CONFIG, regular_side_px=30.0)
    row = read_casino_row(scene.frame, detect_zones(scene.frame), config, colour_left_unread=False)
    assert Counter((d.casino, d.colour, d.big) for d in row.dice) == truth(DICE)
    doubted = sorted((d.casino, d.colour, d.big) for d in row.dice if d.unsure)
    # White may be any die paled by a note: it stays not read for sure. The red Biggy is red's
    # only die judged big and its box shows more red than a regular die: it is read for sure.
    # The slot machine's dice, whose pips count, are read for sure where the pip readers
    # together are sure of their pips.
    assert doubted == [(4, "white", False)]
    assert sorted((d.colour, d.pips) for d in row.dice if d.casino == 7) == [
        ("blue", 2),
        ("red", 5),
    ]
    monkeypatch.setattr(row_sure, "SLOT_PIPS_SURE", 1.01)  # no reading is that sure
    monkeypatch.setattr(row_sure, "LONE_BIGGY_AREA", 9.0)  # no box shows that much red
    row = read_casino_row(scene.frame, detect_zones(scene.frame), config, colour_left_unread=False)
    doubted = sorted((d.casino, d.colour, d.big) for d in row.dice if d.unsure)
    assert doubted == [(3, "red", True), (4, "white", False), (7, "blue", False), (7, "red", False)]
    # Coloured and white dice alike go by their being a die at all.
    monkeypatch.setattr(row_sure, "DIE_SURE", 1.01)  # no reading is that sure
    row = read_casino_row(scene.frame, detect_zones(scene.frame), config, colour_left_unread=False)
    assert all(d.unsure for d in row.dice)


def test_a_white_die_in_doubt_for_its_pips_is_read_for_sure_unless_it_shows_another_colour(
    scene, monkeypatch
):
    import vision.casino_row as casino_row

    real = casino_row.read_dice

    def whites_in_doubt(crop, cfg):
        # Casino 4's white die flagged unsure, and its blue die read as a white one in doubt
        # (as a blue die under a note's paper may be).
        found = real(crop, cfg)
        if cfg.zones.names[0] != "casino4":
            return found
        blue = found.colour == "blue"
        colour = np.where(blue, "white", found.colour).astype(object)
        return replace(found, colour=colour, unsure=found.colour == found.colour)

    monkeypatch.setattr(casino_row, "read_dice", whites_in_doubt)
    row = read_casino_row(scene.frame, detect_zones(scene.frame), CONFIG, colour_left_unread=False)

    def read_on(colour):
        drawn = next(d for d in scene.dice if d.casino == 4 and d.die.colour == colour)
        (x, y) = drawn.centre
        (die,) = (d for d in row.on(4) if d.box[0] <= x <= d.box[2] and d.box[1] <= y <= d.box[3])
        return die.colour, die.unsure

    assert read_on("white") == ("white", False)  # a white die: its pips do not count
    assert read_on("blue") == ("white", True)  # its box shows blue: it may be a paled die

    def blue_read_white(crop, cfg):
        # The same, read for sure: a die read white showing blue is still not read for sure.
        found = whites_in_doubt(crop, cfg)
        return replace(found, unsure=np.zeros(len(found), bool))

    monkeypatch.setattr(casino_row, "read_dice", blue_read_white)
    row = read_casino_row(scene.frame, detect_zones(scene.frame), CONFIG, colour_left_unread=False)
    assert read_on("white") == ("white", False)
    assert read_on("blue") == ("white", True)


# --- the simulated row ------------------------------------------------------------------------


def test_the_same_seed_draws_the_same_row():
    a = row_scene(DICE, {}, seed=5, settings=HARDEST)
    b = row_scene(DICE, {}, seed=5, settings=HARDEST)
    assert np.array_equal(a.frame, b.frame) and a.dice == b.dice


def test_every_die_lies_inside_its_casino_zone():
    scene = row_scene(DICE, {}, seed=2, settings=HARDEST)
    polygons = casino_zones(scene.zones)
    for die in scene.dice:
        assert cv2.pointPolygonTest(polygons[die.casino], die.centre, False) > 0


@pytest.mark.parametrize("kind", ["moved", "left out", "added"])
def test_a_misplacement_changes_what_it_says(kind):
    rng = np.random.default_rng(1)
    wrong, what = misplace(DICE, rng, COLOURS, kind)
    assert what.kind == kind
    before, after = truth(DICE), truth(wrong)
    if kind in ("moved", "left out"):
        key = (what.source, what.die.colour, what.die.big)
        assert after[key] == before[key] - 1
        assert what.source != what.target
    if kind in ("moved", "added"):
        key = (what.target, what.die.colour, what.die.big)
        assert after[key] == before[key] + 1
    assert (
        sum(after.values()) - sum(before.values()) == {"moved": 0, "left out": -1, "added": 1}[kind]
    )


def test_misplace_picks_at_random_and_refuses_an_unknown_kind():
    rng = np.random.default_rng(7)
    kinds = {misplace(DICE, rng, COLOURS)[1].kind for _ in range(30)}
    assert kinds == {"moved", "left out", "added"}
    with pytest.raises(ValueError, match="kind must be one of"):
        misplace(DICE, rng, COLOURS, "stacked")


def test_only_the_slot_machine_has_its_pips_read_and_the_row_judges_the_sizes(scene, monkeypatch):
    from vision import casino_row

    asked: dict[str, ReaderConfig] = {}
    real_read = casino_row.read_dice

    def recorded(crop, cfg):
        asked[cfg.zones.names[0]] = cfg
        return real_read(crop, cfg)

    monkeypatch.setattr(casino_row, "read_dice", recorded)
    read_casino_row(scene.frame, detect_zones(scene.frame), CONFIG)
    assert sorted(name for name, cfg in asked.items() if cfg.pips_needed) == ["slot"]
    assert len(asked) == 7 and not any(cfg.judge_sizes for cfg in asked.values())


def row_dice(boxes, colours, sizes, unsure, zone="casino2") -> Detections:
    """Dice read on one casino, as the row's reader gives them."""
    n = len(boxes)
    return Detections(
        np.array(boxes, np.float32),
        np.full(n, 2, np.int8),
        np.array(colours, object),
        np.array(sizes, object),
        np.full(n, 0.5, np.float32),
        np.array(unsure, bool),
        np.array([zone] * n, object),
        np.zeros(n, bool),
    )


def test_one_die_boxed_twice_is_not_read_for_sure():
    from vision.row_doubt import boxed_twice_in_doubt

    det = row_dice(
        # a red die boxed twice (the small box three quarters inside the other), a red die
        # touching it, and a blue die in the other's place on another casino
        [[955, 116, 986, 147], [949, 120, 974, 145], [955, 148, 986, 179], [949, 120, 974, 145]],
        ["red", "red", "red", "blue"],
        ["regular"] * 4,
        [False] * 4,
    )
    det = replace(det, zone=np.array(["casino2"] * 3 + ["casino3"], object))
    assert list(boxed_twice_in_doubt(det).unsure) == [False, True, False, False]


def test_a_colour_patch_inside_a_pale_die_in_doubt_is_that_die_s_colour():
    from vision.row_patches import paled_dice_coloured

    dice = row_dice(
        [[100, 100, 130, 130], [200, 100, 240, 140], [300, 100, 330, 130]],
        ["white", "white", "red"],
        ["regular", "big", "regular"],
        [True, True, False],
    )
    patches = row_dice(
        # inside the white die in doubt, inside the white Biggy in doubt, and beside a die
        [[105, 110, 128, 128], [210, 105, 235, 130], [340, 100, 365, 125]],
        ["red", "blue", "green"],
        ["regular"] * 3,
        [True] * 3,
    )
    coloured, left = paled_dice_coloured(dice, patches)
    # The paled regular die takes its patch's colour; the pale big box may be two dice of any
    # colours: it stays white. Neither patch is a die of its own; the one outside is.
    assert list(coloured.colour) == ["red", "white", "red"]
    assert list(coloured.unsure) == [True, True, False]
    assert list(left.colour) == ["green"]
    # A die read for sure is no paled die: a patch inside it stays a die of its own.
    sure = replace(dice, unsure=np.zeros(3, bool))
    assert len(paled_dice_coloured(sure, patches)[1]) == 3


def test_a_die_between_sizes_is_regular_where_its_colour_s_biggy_lies_elsewhere():
    from vision.row_doubt import one_biggy_a_colour

    det = row_dice(
        [[0, 0, 45, 45], [100, 0, 140, 40], [200, 0, 240, 40], [300, 0, 345, 45]],
        ["red", "red", "blue", "green"],
        ["big"] * 4,
        [False, False, False, True],
    )
    # Red's Biggy is judged for sure; the second red die, the blue one and the green one lie
    # between a regular die's size and a Biggy's; green's other big die is in doubt.
    judged = np.array([True, False, False, False])
    det = det.joined(row_dice([[400, 0, 445, 45]], ["green"], ["big"], [True]))
    sizes, judged = one_biggy_a_colour(det, det.size.copy(), np.append(judged, True))
    assert list(sizes) == ["big", "regular", "big", "big", "big"]
    assert list(judged) == [True, True, False, False, True]


def test_a_biggy_read_weakly_is_in_doubt_and_a_regular_die_read_so_is_not():
    from dataclasses import replace

    from vision.row_doubt import WEAK_BIGGY, sizes_doubted

    det = row_dice(
        [[0, 0, 45, 45], [100, 0, 145, 45], [200, 0, 232, 32]],
        ["red", "blue", "green"],
        ["big", "big", "regular"],
        [False] * 3,
    )
    det = replace(det, confidence=np.array([WEAK_BIGGY - 0.05, WEAK_BIGGY + 0.05, 0.3], np.float32))
    judged = np.ones(3, bool)
    assert list(sizes_doubted(det, det.size, judged).unsure) == [True, False, False]


def test_dice_that_may_be_a_biggy_are_boxed_as_in_doubt():
    from vision.casino_row import CasinoDie, RowReading, draw_row

    frame = np.full((120, 200, 3), 90, np.uint8)
    red = CasinoDie(6, "red", False, 3, False, (20.0, 30.0, 60.0, 70.0), 0.9)
    blue = CasinoDie(6, "blue", False, 4, False, (120.0, 30.0, 160.0, 70.0), 0.9)
    reading = RowReading((red, blue), (6,), Detections.empty())
    orange, green = (0, 140, 255), (40, 220, 40)
    plain = draw_row(frame, reading)
    assert tuple(plain[50, 20]) == green and tuple(plain[50, 120]) == green
    marked = draw_row(frame, reading, {(6, "red")})
    assert tuple(marked[50, 20]) == orange and tuple(marked[50, 120]) == green
    # Another casino's red dice are not the ones in doubt.
    assert tuple(draw_row(frame, reading, {(5, "red")})[50, 20]) == green
