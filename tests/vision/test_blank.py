"""A die read blank stays sure only where its box shows no pip (`vision/blank.py`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import blank
from vision.reader import ReaderConfig, read_dice

TABLE_BGR = (60, 110, 40)
DIE_SIDE = 80


def die_frame(face: int, pips: list[tuple[int, int]], pip: int) -> tuple[np.ndarray, np.ndarray]:
    """A 240x240 frame of a table with one square die of grey level `face` in the middle, its
    pips (offsets from the die's middle, in px) painted at grey level `pip`; and its box."""
    frame = np.zeros((240, 240, 3), np.uint8)
    frame[:] = TABLE_BGR
    x0 = y0 = (240 - DIE_SIDE) // 2
    cv2.rectangle(frame, (x0, y0), (x0 + DIE_SIDE, y0 + DIE_SIDE), (face,) * 3, -1)
    for dx, dy in pips:
        cv2.circle(frame, (120 + dx, 120 + dy), 7, (pip,) * 3, -1)
    box = np.array([[x0, y0, x0 + DIE_SIDE, y0 + DIE_SIDE]], np.float32)
    return frame, box


THREE = [(-20, -20), (0, 0), (20, 20)]


def test_a_plain_grey_face_shows_no_pip() -> None:
    frame, box = die_frame(150, [], 0)
    assert blank.strongest_pip(frame, box)[0] < blank.PIP_CONTRAST


@pytest.mark.parametrize(
    ("face", "pip"),
    [(150, 125), (200, 30), (30, 200)],
    ids=["faint dark pips", "dark pips", "light pips on a dark die"],
)
def test_pips_darker_or_lighter_than_the_face_are_seen(face: int, pip: int) -> None:
    frame, box = die_frame(face, THREE, pip)
    assert blank.strongest_pip(frame, box)[0] >= blank.PIP_CONTRAST


def test_pips_fainter_than_the_contrast_bar_are_not_seen() -> None:
    frame, box = die_frame(150, THREE, 150 - blank.PIP_CONTRAST + 5)
    assert blank.strongest_pip(frame, box)[0] < blank.PIP_CONTRAST


def test_specks_and_noise_on_a_blank_face_are_no_pips() -> None:
    frame, box = die_frame(150, [], 0)
    rng = np.random.default_rng(7)
    specks = rng.random(frame.shape[:2]) < 0.05
    frame[specks] = rng.choice([0, 255], size=(int(specks.sum()), 1))
    assert blank.strongest_pip(frame, box)[0] < blank.PIP_CONTRAST


def test_a_long_stripe_on_the_face_is_no_pip() -> None:
    frame, box = die_frame(150, [], 0)
    cv2.line(frame, (95, 120), (145, 120), (60, 60, 60), 5)
    assert blank.strongest_pip(frame, box)[0] < blank.PIP_CONTRAST


def test_only_dice_read_blank_and_sure_are_doubted() -> None:
    frame, box = die_frame(150, THREE, 110)
    boxes = np.repeat(box, 3, axis=0)
    read = np.array([0, 0, 3])
    unsure = np.array([False, True, False])
    assert blank.pips_on_blank(frame, boxes, read, unsure).tolist() == [True, False, False]
    plain, _ = die_frame(150, [], 0)
    assert not blank.pips_on_blank(plain, boxes, read, unsure).any()


def test_no_dice_no_doubt() -> None:
    frame, _ = die_frame(150, [], 0)
    empty = np.zeros((0, 4), np.float32)
    assert blank.strongest_pip(frame, empty).shape == (0,)
    assert blank.pips_on_blank(frame, empty, np.zeros(0, int), np.zeros(0, bool)).shape == (0,)


@pytest.fixture(scope="module")
def scenes_with_blank_dice():
    """Six rendered scenes (fixed seed) that each hold at least one of the game's grey blank
    dice, with their ground truth."""
    from models.render import render_scene

    rng = np.random.default_rng(2468)
    scenes = []
    while len(scenes) < 6:
        frame, truths = render_scene(rng, n_dice=int(rng.integers(4, 13)))
        if any(t.label == 0 for t in truths):
            scenes.append((frame, truths))
    return scenes


def test_rendered_blank_dice_read_sure_stay_sure(scenes_with_blank_dice, monkeypatch) -> None:
    """The game's grey blank dice, rendered, show no pip: every one the reader reads blank for
    sure without the check stays sure with it."""
    cfg = ReaderConfig(camera_place="bottom")
    with_check = [read_dice(frame, cfg) for frame, _ in scenes_with_blank_dice]
    monkeypatch.setattr(blank, "pips_on_blank", lambda f, boxes, *_: np.zeros(len(boxes), bool))
    without = [read_dice(frame, cfg) for frame, _ in scenes_with_blank_dice]
    checked = 0
    for (_, truths), det, plain in zip(scenes_with_blank_dice, with_check, without, strict=True):
        np.testing.assert_array_equal(det.boxes, plain.boxes)  # the check only flags dice
        for t in truths:
            middle = (np.asarray(t.box[:2]) + np.asarray(t.box[2:])) / 2
            on = np.all((plain.boxes[:, :2] <= middle) & (middle <= plain.boxes[:, 2:]), 1)
            sure_blank = np.flatnonzero(on & (plain.pips == 0) & ~plain.unsure)
            if t.label == 0 and len(sure_blank):
                checked += 1
                assert not det.unsure[sure_blank].any()
    assert checked >= 3
