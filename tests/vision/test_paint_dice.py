"""Painting the real photos' white dice other colours (`models/paint_dice.py`)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from models import paint_dice
from models.devdata import Labelled, Score
from models.yolo_folders import load_split
from vision.detections import Detections
from vision.reader import read_dice

TABLE_BGR = (175, 205, 215)  # pale wood
PIPS = ((110, 90), (130, 110), (150, 130))  # a three: corner, middle, corner


def white_die_on_wood(seed: int = 0) -> np.ndarray:
    """A 240x320 frame: a white 60 px die with three black pips on a noisy pale table."""
    rng = np.random.default_rng(seed)
    frame = np.clip(np.float32(TABLE_BGR) + rng.normal(0, 4, (240, 320, 3)), 0, 255)
    frame[80:140, 100:160] = (238, 240, 240)
    for x, y in PIPS:
        cv2.circle(frame, (x, y), 5, (30, 30, 30), -1)
    return cv2.GaussianBlur(frame.astype(np.uint8), (3, 3), 0.8)


def one_die_labels() -> Labelled:
    """The three's label: its pips' box centred on the middle pip, 50 px long."""
    return Labelled(
        Path("three.jpg"), np.array([[130.0, 110.0]]), np.array([3]), spans=np.array([50.0])
    )


def test_the_cut_out_covers_the_die_and_little_of_the_table() -> None:
    frame = white_die_on_wood()
    (mask,) = paint_dice.die_masks(frame, one_die_labels())
    die = np.zeros(mask.shape, bool)
    die[80:140, 100:160] = True
    cut = mask > 0
    # The pips are holes in the bright body; the cut-out holds them too.
    assert (cut & die).sum() / (cut | die).sum() > 0.9
    assert all(cut[y, x] for x, y in PIPS)


def test_the_cut_out_leaves_the_die_s_shadow_on_the_table() -> None:
    # The shadow a lamp casts beside and below the die: wood darker and more yellow.
    frame = white_die_on_wood()
    frame[95:150, 160:185] = frame[140:150, 110:185] = (115, 155, 170)
    (mask,) = paint_dice.die_masks(frame, one_die_labels())
    assert (mask[80:140, 100:160] > 0).all()
    assert not (mask[95:150, 162:185] > 0).any() and not (mask[142:150, 110:160] > 0).any()


@pytest.mark.parametrize(
    ("body", "pip", "pips_lighter"),
    [
        ((45, 40, 200), (245, 245, 245), True),  # red with white pips: the pips turn light
        ((40, 205, 235), (30, 30, 30), False),  # yellow with dark pips
    ],
)
def test_a_painted_die_takes_its_colour_and_keeps_its_pips(body, pip, pips_lighter) -> None:
    frame = white_die_on_wood()
    (mask,) = paint_dice.die_masks(frame, one_die_labels())
    out = paint_dice.paint_die(frame, mask, body, pip)
    body_patch = out[85:95, 140:155].reshape(-1, 3).mean(0)
    np.testing.assert_allclose(body_patch, body, atol=25)
    pip_centres = np.array([out[y, x] for x, y in PIPS], np.float32).mean(1)
    assert (pip_centres > body_patch.mean() + 60).all() == pips_lighter
    assert (pip_centres < body_patch.mean() - 60).all() != pips_lighter
    # The table away from the die is as it was.
    np.testing.assert_array_equal(out[:60], frame[:60])


def test_a_grey_die_is_painted_blank() -> None:
    frame = white_die_on_wood()
    (mask,) = paint_dice.die_masks(frame, one_die_labels())
    out = paint_dice.paint_die(frame, mask, (140, 140, 138), None)
    face = out[85:135, 105:155].astype(np.float32)
    assert np.abs(face - [140, 140, 138]).max() < 30  # no dark spot where the pips were


def test_painted_labels_name_each_die_s_colour_and_blank_grey_faces() -> None:
    frame = white_die_on_wood()
    rngs = [np.random.default_rng(seed) for seed in range(30)]
    labels = [paint_dice.painted(one_die_labels(), frame, rng)[0] for rng in rngs]
    colours = {label.colours[0] for label in labels}
    assert colours <= set(paint_dice.PAINTS) and len(colours) >= 6
    for label in labels:
        assert label.pips[0] == (0 if label.colours[0] == "grey" else 3)
    again, again_frame = paint_dice.painted(one_die_labels(), frame, np.random.default_rng(4))
    assert again.colours == labels[4].colours  # a seed paints alike every time
    np.testing.assert_array_equal(
        again_frame, paint_dice.painted(one_die_labels(), frame, np.random.default_rng(4))[1]
    )


def test_score_counts_found_pips_and_colour_names_per_colour() -> None:
    truth = Labelled(
        Path("p.jpg"),
        np.array([[20.0, 20.0], [80.0, 20.0], [140.0, 20.0]]),
        np.array([3, 0, 5]),
        colours=("red", "grey", "red"),
    )
    # The first red die found (named pink), the grey one found, the second red one missed.
    det = Detections(
        np.array([[0, 0, 40, 40], [60, 0, 100, 40]]),
        [3, 0],
        ["pink", "grey"],
        ["regular"] * 2,
        [0.9, 0.9],
        [False, False],
    )
    score = Score()
    score.add(truth, det)
    assert score.by_colour_table() == {
        "grey": {"dice": 1, "found_pct": 100.0, "pips_pct": 100.0, "colour_pct": 100.0},
        "red": {"dice": 2, "found_pct": 50.0, "pips_pct": 100.0, "colour_pct": 0.0},
    }
    assert score.summary()["colour_pct"] == 50.0
    assert "colour_pct" not in Score().summary()  # photos without colours: no such figure


def test_painted_real_photos_are_read_die_by_die(dev_photos) -> None:
    # Every tenth Valid photo with its dice painted: 26 dice. Over all of Valid painted so,
    # 99.6 % are found and 98.8 % read right (the wrong ones flagged unsure but one, a label's
    # mistake), every colour named right.
    score = Score()
    for number, item in enumerate(load_split("Valid", dev_photos)[::10]):
        photo = cv2.imread(str(item.image))
        painted, frame = paint_dice.painted(item, photo, np.random.default_rng(number))
        assert not np.array_equal(frame, photo)
        _again, frame_again = paint_dice.painted(item, photo, np.random.default_rng(number))
        np.testing.assert_array_equal(frame_again, frame)  # painted alike every time
        score.add(painted, read_dice(frame))
    summary = score.summary()
    assert summary["found_pct"] >= 95 and summary["pips_pct"] >= 95, summary
    assert summary["colour_pct"] >= 95, score.by_colour_table()
    assert len(score.by_colour) >= 5
