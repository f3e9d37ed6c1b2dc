"""A die's side face boxed as a die of its own is found, and the die read once."""

from __future__ import annotations

import numpy as np
import pytest

from vision import side_faces as side_faces_mod
from vision.locate import centred_in
from vision.reader import read_dice
from vision.side_faces import _alike_in_colour, _placed_as_side_faces, side_faces

FRAME = (480, 640, 3)


@pytest.mark.parametrize(
    ("place", "first", "second", "pairs"),
    [
        # A webcam beyond the bottom edge sees the side faces below the top face.
        ("bottom", [100, 100, 160, 160], [105, 125, 155, 185], [(0, 1)]),
        ("bottom", [105, 125, 155, 185], [100, 100, 160, 160], [(1, 0)]),
        ("bottom", [100, 100, 160, 160], [130, 125, 180, 185], []),  # below but aside
        ("bottom", [100, 100, 160, 160], [105, 150, 155, 210], []),  # hardly overlapping
        ("bottom", [100, 100, 160, 160], [110, 105, 150, 150], []),  # centred on the die
        # A camera straight above sees the side faces toward the frame's middle (320, 240).
        ("above", [560, 200, 620, 260], [535, 205, 585, 255], [(0, 1)]),  # right edge: left
        ("above", [20, 400, 80, 460], [50, 388, 100, 438], [(0, 1)]),  # low left: up and right
        ("above", [20, 400, 80, 460], [40, 375, 90, 425], []),  # too far aside of that way
    ],
)
def test_a_box_toward_the_camera_from_a_die_overlapping_it_is_placed_as_its_side_face(
    place: str, first: list[int], second: list[int], pairs: list[tuple[int, int]]
) -> None:
    boxes = np.array([first, second], np.float32)
    both = np.array([True, True])
    assert _placed_as_side_faces(FRAME, boxes, both, both, place) == pairs


def test_only_a_die_read_for_sure_has_side_faces() -> None:
    boxes = np.array([[100, 100, 160, 160], [105, 125, 155, 185]], np.float32)
    kept = np.array([True, True])
    doubtful_die = np.array([False, True])
    assert _placed_as_side_faces(FRAME, boxes, doubtful_die, kept, "bottom") == []
    assert _placed_as_side_faces(FRAME, boxes, kept, np.array([True, False]), "bottom") == []


@pytest.mark.parametrize(
    ("union_pips", "union_prob", "union_unsure", "dropped"),
    [
        (5, 0.95, False, True),  # the two boxes read as the die: the other is its side face
        (3, 0.95, False, False),  # read as the other's pips: two dice
        (5, 0.7, False, False),  # not sure enough
        (5, 0.95, True, False),  # doubtful
    ],
)
def test_a_box_placed_as_a_side_face_is_one_only_where_both_boxes_read_as_the_die(
    monkeypatch, union_pips: int, union_prob: float, union_unsure: bool, dropped: bool
) -> None:
    asked: list[np.ndarray] = []

    def read_pips(readers, frame, boxes, *args):
        asked.append(boxes)
        n = len(boxes)
        return (
            np.full(n, union_pips),
            np.full(n, union_prob),
            np.full(n, union_unsure),
            np.ones(n, bool),
        )

    monkeypatch.setattr(side_faces_mod.pips, "read_pips", read_pips)
    boxes = np.array([[100, 100, 160, 160], [105, 125, 155, 185]], np.float32)
    frame = np.zeros(FRAME, np.uint8)
    found = side_faces(
        [],
        frame,
        boxes,
        np.array([5, 3]),
        np.array([False, False]),
        np.array([True, True]),
        "bottom",
    )
    assert found.tolist() == [False, dropped]
    assert np.allclose(asked[0], [[100, 100, 160, 185]])  # the box around both


@pytest.mark.parametrize(
    ("die_bgr", "side_bgr", "alike"),
    [
        ((45, 40, 195), (30, 27, 130), True),  # a red die's side face in its shadow
        ((230, 230, 228), (140, 140, 138), True),  # a white die's side face looks grey
        ((30, 120, 240), (230, 230, 228), False),  # an orange die beside a white one
        ((30, 120, 240), (40, 205, 235), False),  # orange beside yellow
        ((175, 90, 30), (45, 40, 195), False),  # blue beside red
    ],
)
def test_a_side_face_shows_its_die_colour_darker_not_another_hue(
    die_bgr: tuple[int, int, int], side_bgr: tuple[int, int, int], alike: bool
) -> None:
    frame = np.full(FRAME, 90, np.uint8)
    frame[100:160, 100:160] = die_bgr
    frame[100:160, 300:360] = side_bgr
    boxes = np.array([[100, 100, 160, 160], [300, 100, 360, 160]], np.float32)
    assert _alike_in_colour(frame, boxes, [(0, 1)]) == [alike]


@pytest.mark.parametrize("pip", [[0, 3], [5, 0]])
def test_a_blank_box_is_neither_a_die_with_side_faces_nor_a_side_face(monkeypatch, pip) -> None:
    def read_pips(*args):
        raise AssertionError("no pair should be read")

    monkeypatch.setattr(side_faces_mod.pips, "read_pips", read_pips)
    boxes = np.array([[100, 100, 160, 160], [105, 125, 155, 185]], np.float32)
    frame = np.zeros(FRAME, np.uint8)
    found = side_faces(
        [], frame, boxes, np.array(pip), np.array([False, False]), np.array([True, True]), "bottom"
    )
    assert found.tolist() == [False, False]


def test_a_die_seen_from_above_near_the_edge_is_read_once_not_also_its_side_face(
    monkeypatch,
) -> None:
    from models.render import render_scene

    frame, truths = render_scene(
        np.random.default_rng(27), n_dice=8, elevation_deg=90.0, camera_height=0.65
    )
    dice_boxes = np.array([t.box for t in truths], np.float32)
    det = read_dice(frame)
    assert centred_in(dice_boxes, det.centres).sum(1).tolist() == [1] * len(truths)
    assert sorted(det.pips.tolist()) == sorted(t.label for t in truths)
    # Without the check, the red 4 on the left is read again on its side face.
    monkeypatch.setattr(
        "vision.reader.side_faces", lambda readers, frame, boxes, *a: np.zeros(len(boxes), bool)
    )
    twice = read_dice(frame)
    assert len(twice) == len(truths) + 1
