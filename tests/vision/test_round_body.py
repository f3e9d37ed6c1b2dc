"""A die read blank whose outline is round is doubted, and one read 1 is asked to the die checker
(`vision/round_body.py`, `reader._round_bars`)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from vision_synth import white_dice

from models.die_check_data import _on_die
from models.yolo_folders import load_split
from vision import die_check, reader, round_body
from vision.reader import ReaderConfig, read_dice

TABLE_BGR = (60, 110, 40)
SIDE = 60  # px: a thing's width in the drawn frames
NOT_ASKED = ReaderConfig(threads=1, round_doubt_below=0.0, round_no_die_below=0.0)


def frame_with(draw) -> tuple[np.ndarray, np.ndarray]:
    """A 200x200 frame of a green table with one thing drawn in its middle by `draw(frame)`,
    and a box SIDE wide around the middle."""
    frame = np.zeros((200, 200, 3), np.uint8)
    frame[:] = TABLE_BGR
    draw(frame)
    half = SIDE / 2
    return frame, np.array([[100 - half, 100 - half, 100 + half, 100 + half]], np.float32)


def polygon(points: list[tuple[float, float]], colour=(170, 170, 168)):
    """A drawer of a filled polygon given as offsets from the frame's middle."""
    pts = np.round(np.array(points) * 16 + 100 * 16).astype(np.int32)
    return lambda frame: cv2.fillPoly(frame, [pts], colour, cv2.LINE_AA, shift=4)


def turned_square(side: float, degrees: float) -> list[tuple[float, float]]:
    """The corners of a square of `side` px turned by `degrees` about the middle."""
    a = math.radians(degrees)
    half = side / 2
    return [
        (half * (math.cos(a + k * math.pi / 2) - math.sin(a + k * math.pi / 2)),
         half * (math.sin(a + k * math.pi / 2) + math.cos(a + k * math.pi / 2)))
        for k in range(4)
    ]  # fmt: skip


def rounded_square(side: float, corner: float) -> list[tuple[float, float]]:
    """A square of `side` px with corners rounded to `corner` px, as a polygon."""
    half, inner = side / 2, side / 2 - corner
    points = []
    for cx, cy, start in ((inner, inner, 0), (-inner, inner, 90), (-inner, -inner, 180),
                          (inner, -inner, 270)):  # fmt: skip
        for k in range(9):
            a = math.radians(start + k * 90 / 8)
            points.append((cx + corner * math.cos(a), cy + corner * math.sin(a)))
    assert half > inner
    return points


def hexagon(radius: float, squash: float = 1.0) -> list[tuple[float, float]]:
    """A cube seen across a corner: a regular hexagon, its height times `squash`."""
    return [
        (radius * math.cos(math.radians(30 + 60 * k)),
         squash * radius * math.sin(math.radians(30 + 60 * k)))
        for k in range(6)
    ]  # fmt: skip


def ellipse(width: float, height: float, degrees: float, colour=(170, 170, 168)):
    """A drawer of a filled ellipse in the frame's middle."""
    return lambda frame: cv2.ellipse(
        frame, ((100.0, 100.0), (width, height), degrees), colour, -1, cv2.LINE_AA
    )


def lens(frame: np.ndarray) -> None:
    """A dark lens in a lighter rim, its glint off the middle: the rim is its outline."""
    cv2.circle(frame, (100, 100), SIDE // 2, (120, 120, 125), -1, cv2.LINE_AA)
    cv2.circle(frame, (100, 100), SIDE // 4, (15, 15, 20), -1, cv2.LINE_AA)
    cv2.circle(frame, (106, 94), 3, (240, 240, 240), -1, cv2.LINE_AA)


def washer(frame: np.ndarray) -> None:
    """A light ring with the table showing through its hole."""
    cv2.circle(frame, (100, 100), SIDE // 2, (200, 200, 200), -1, cv2.LINE_AA)
    cv2.circle(frame, (100, 100), SIDE // 5, TABLE_BGR, -1, cv2.LINE_AA)


ROUND = {
    "a coin": ellipse(SIDE, SIDE, 0),
    "a coin seen at a slant": ellipse(SIDE, SIDE * 0.6, 30),
    "a dark lens": ellipse(SIDE, SIDE, 0, colour=(20, 20, 25)),
    "a lens in its rim": lens,
    "a washer": washer,
}
NOT_ROUND = {
    "a die from above": polygon(turned_square(SIDE, 0)),
    "a die from above, turned": polygon(turned_square(SIDE, 20)),
    "a die with rounded corners": polygon(rounded_square(SIDE, SIDE * 0.15)),
    "a die across a corner": polygon(hexagon(SIDE / 2)),
    "a die across a corner, at a slant": polygon(hexagon(SIDE / 2, squash=0.75)),
    "bare table": lambda frame: None,
}


@pytest.mark.parametrize("name", ROUND)
def test_round_things_are_round(name: str) -> None:
    frame, box = frame_with(ROUND[name])
    assert round_body.round_bodies(frame, box).tolist() == [True]


@pytest.mark.parametrize("name", NOT_ROUND)
def test_dice_and_bare_table_are_not_round(name: str) -> None:
    frame, box = frame_with(NOT_ROUND[name])
    assert round_body.round_bodies(frame, box).tolist() == [False]


def cap_with_shadow(frame: np.ndarray) -> None:
    """A grey cap lit from one side, its shadow falling beside it: an egg, no ellipse."""
    cv2.circle(frame, (110, 110), SIDE // 2, (30, 60, 20), -1, cv2.LINE_AA)
    cv2.circle(frame, (100, 100), SIDE // 2, (170, 170, 168), -1, cv2.LINE_AA)


@pytest.mark.parametrize("name", NOT_ROUND)
def test_dice_read_blank_are_not_round_either(name: str) -> None:
    frame, box = frame_with(NOT_ROUND[name])
    assert round_body.round_bodies(frame, box, np.array([True])).tolist() == [False]


def test_a_cap_with_its_shadow_is_round_where_it_is_read_blank() -> None:
    # No ellipse, so no round thing in general; but with no corners, no blank die's face.
    frame, box = frame_with(cap_with_shadow)
    assert round_body.round_bodies(frame, box).tolist() == [False]
    assert round_body.round_bodies(frame, box, np.array([True])).tolist() == [True]
    boxes = np.repeat(box, 2, axis=0)
    read, unsure = np.array([0, 1]), np.zeros(2, bool)
    assert round_body.round_blanks(frame, boxes, read, unsure).tolist() == [True, False]


def test_a_thing_against_a_neighbour_is_judged_by_its_own_outline() -> None:
    # A coin touching a die of its own grey: the rays from the coin's middle find its edge all
    # around but where the die is; from the die's middle, the die's corners.
    def coin_and_die(frame: np.ndarray) -> None:
        ellipse(SIDE, SIDE, 0)(frame)
        cv2.rectangle(frame, (128, 70), (188, 130), (170, 170, 168), -1)

    frame, coin_box = frame_with(coin_and_die)
    die_box = np.array([[128, 70, 188, 130]], np.float32)
    assert round_body.round_bodies(frame, coin_box).tolist() == [True]
    assert round_body.round_bodies(frame, die_box).tolist() == [False]


def test_each_box_is_judged_on_its_own_and_no_box_gives_nothing() -> None:
    frame = np.zeros((200, 400, 3), np.uint8)
    frame[:] = TABLE_BGR
    cv2.circle(frame, (100, 100), 30, (170, 170, 168), -1, cv2.LINE_AA)
    cv2.rectangle(frame, (270, 70), (330, 130), (170, 170, 168), -1)
    boxes = np.array([[70, 70, 130, 130], [270, 70, 330, 130]], np.float32)
    assert round_body.round_bodies(frame, boxes).tolist() == [True, False]
    assert round_body.round_bodies(frame, np.zeros((0, 4), np.float32)).shape == (0,)


def test_a_round_blank_is_doubted_whatever_its_reading_and_only_sure_blanks_are_asked() -> None:
    frame, box = frame_with(ROUND["a coin"])
    boxes = np.repeat(box, 4, axis=0)
    read = np.array([0, 0, 1, 3])
    unsure = np.array([False, True, False, False])
    assert round_body.round_blanks(frame, boxes, read, unsure).tolist() == [
        True,
        False,
        False,
        False,
    ]
    square, _ = frame_with(NOT_ROUND["a die from above"])
    assert not round_body.round_blanks(square, boxes, read, unsure).any()
    empty = np.zeros((0, 4), np.float32)
    assert round_body.round_blanks(frame, empty, np.zeros(0, int), np.zeros(0, bool)).shape == (0,)


def test_a_round_1_is_flagged_only_where_the_checker_doubts_it_too(monkeypatch) -> None:
    # Every box is round here; the checker calls every box it is asked about no die, or none.
    monkeypatch.setattr(
        round_body, "round_bodies", lambda frame, boxes, blank: np.ones(len(boxes), bool)
    )
    found = white_dice(
        [[0, 0, 20, 20], [40, 0, 60, 20], [80, 0, 100, 20], [120, 0, 140, 20]],
        [1, 3, 1, 1],
        unsure=[False, False, True, False],
        confidence=[0.95, 0.95, 0.5, 0.95],
    )
    frame = np.zeros((50, 150, 3), np.uint8)
    asked: list[int] = []

    def no_die(session, crops, below):
        asked.append(len(crops))
        return np.ones(len(crops), bool)

    monkeypatch.setattr(die_check, "under", no_die)
    checked = reader._checked(frame, found, ReaderConfig())
    # The sure 1s are flagged, kept; the sure 3 is not asked; the unsure 1 (read fairly well,
    # showing pips) is dropped by the rule for such boxes, as before.
    assert checked.pips.tolist() == [1, 3, 1] and checked.unsure.tolist() == [True, False, True]
    monkeypatch.setattr(die_check, "under", lambda s, crops, below: np.zeros(len(crops), bool))
    assert not reader._checked(frame, found, ReaderConfig()).unsure[[0, 1, 3]].any()
    asked.clear()
    monkeypatch.setattr(die_check, "under", no_die)
    off = reader._checked(frame, found, ReaderConfig(round_doubt_below=0.0))
    assert not off.unsure[[0, 1, 2]].any() and asked == [1]  # only the unsure 1 was asked


def test_an_unsure_round_box_is_dropped_under_its_own_bar(monkeypatch) -> None:
    # An unsure blank read fairly well is dropped by the checker alone only under a low bar
    # (`blank_no_die_below`: it doubts flat grey faces more than others); where its outline is
    # round, under `round_no_die_below`.
    found = white_dice(
        [[0, 0, 20, 20], [40, 0, 60, 20]], [0, 0], unsure=[True, True], confidence=[0.5, 0.5]
    )
    frame = np.zeros((50, 150, 3), np.uint8)
    bars_asked: list[list[float]] = []

    def checker_gives(p: float):
        def under(session, crops, below):
            bars_asked.append(np.broadcast_to(below, (len(crops),)).tolist())
            return p < np.broadcast_to(below, (len(crops),))

        return under

    judged_as_blank: list[list[bool]] = []

    def round_where_left(frame, boxes, read_blank):
        judged_as_blank.append(read_blank.tolist())
        return (boxes[:, 0] == 0).astype(bool)

    monkeypatch.setattr(round_body, "round_bodies", round_where_left)
    monkeypatch.setattr(die_check, "under", checker_gives(0.15))
    checked = reader._checked(frame, found, ReaderConfig())
    assert checked.boxes[:, 0].tolist() == [40]  # the round one went, the square one stayed
    assert judged_as_blank == [[True, True]]  # both read blank: judged as a blank face
    round_bar, blank_bar = die_check.ROUND_NO_DIE_BELOW, die_check.BLANK_NO_DIE_BELOW
    assert bars_asked == [[pytest.approx(round_bar), pytest.approx(blank_bar)]]
    monkeypatch.setattr(die_check, "under", checker_gives(0.25))
    assert len(reader._checked(frame, found, ReaderConfig())) == 2
    off = reader._checked(frame, found, ReaderConfig(round_no_die_below=0.0))
    assert len(off) == 2


def test_no_die_of_real_photos_is_round(dev_photos) -> None:
    # Real webcam photos of white dice on a wooden table (never trained on): every die boxed.
    boxes_seen = 0
    for item in load_split("Valid", dev_photos)[::3]:
        frame = cv2.imread(str(item.image))
        det = read_dice(frame, NOT_ASKED)
        assert not round_body.round_bodies(frame, det.boxes).any(), item.image.name
        boxes_seen += len(det)
    assert boxes_seen >= 80


def test_round_things_are_doubted_or_dropped_and_dice_are_not() -> None:
    # Rendered tables with coins, chips, caps, lenses and keys among the dice
    # (models/clutter.py): some round things are read as a blank or a 1 for sure.
    from models.render import render_scene

    rng = np.random.default_rng(779)
    sure_on_none = {"without": 0, "with": 0}
    dropped = 0
    for _ in range(24):
        frame, truths = render_scene(rng, n_dice=int(rng.integers(2, 9)), clutter=1.0)
        dice = np.array([t.box for t in truths], np.float32).reshape(-1, 4)
        without = read_dice(frame, NOT_ASKED)
        checked = read_dice(frame, ReaderConfig(threads=1))
        # Some unsure boxes and round blanks are dropped, none on a die; the rest are read
        # the same, and only some sure blanks and 1s, none on a die, are flagged unsure.
        on, none = _on_die(without.boxes, dice)
        kept = np.array([any(np.array_equal(b, c) for c in checked.boxes) for b in without.boxes])
        assert len(checked) == int(kept.sum())
        assert not (~kept & ~without.unsure & (without.pips != 0)).any()
        assert not (~kept & on).any()
        assert np.array_equal(without.pips[kept], checked.pips)
        flagged = checked.unsure & ~without.unsure[kept]
        assert not (without.unsure[kept] & ~checked.unsure).any()
        assert (checked.pips[flagged] <= 1).all()
        assert not (flagged & on[kept]).any()
        sure_on_none["without"] += int((none & ~without.unsure).sum())
        sure_on_none["with"] += int((none[kept] & ~checked.unsure).sum())
        dropped += int((~kept).sum())
    assert sure_on_none["with"] < sure_on_none["without"]
    assert dropped > 0


def test_the_simulated_tables_grey_blanks_and_single_pips_stay_sure() -> None:
    # The die checker doubts flat grey faces and black 1s (that is why a die read for sure is
    # asked only when round): the companion's simulated table shows them, and none may be
    # flagged by the outline.
    from vision.simtable import SimDie, SimulatedTable

    table = SimulatedTable(seed=3)
    asked = 0
    for roll in range(6):
        table.clear()
        colour = ("black", "purple", "red", "blue", "grey", "white")[roll]
        table.throw([SimDie("grey", 0), SimDie("grey", 0), SimDie(colour, 1), SimDie("black", 1)])
        while not table.settled:
            table.read()
        frame = table.read()
        without = read_dice(frame, NOT_ASKED)
        checked = read_dice(frame, ReaderConfig(threads=1))
        assert np.array_equal(without.unsure, checked.unsure)
        sure_faces = ~without.unsure & (without.pips <= 1)
        assert not round_body.round_bodies(frame, without.boxes[sure_faces]).any()
        asked += int(sure_faces.sum())
    assert asked >= 12


def test_noise_flat_frames_and_boxes_off_the_frame_are_not_round() -> None:
    rng = np.random.default_rng(0)
    frames = [
        rng.integers(0, 256, (120, 160, 3), dtype=np.uint8),  # noise
        np.full((120, 160, 3), 128, np.uint8),  # a flat frame
        np.repeat(np.repeat(np.eye(2, dtype=np.uint8) * 255, 60, 0), 80, 1)[..., None].repeat(3, 2),
    ]
    boxes = np.array(
        [[40, 30, 80, 70], [-30, -30, 10, 10], [150, 110, 400, 300], [60, 50, 61, 51]],
        np.float32,
    )
    for frame in frames:
        assert not round_body.round_bodies(frame, boxes).any()
