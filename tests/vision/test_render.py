"""The renderer of training scenes: what its options change and what they leave alone."""

from __future__ import annotations

import numpy as np
import pytest

from models.render import _glare, _marbling, _pattern_face, render_scene
from vision.colour import body_colours


def _die_table_contrast(camouflage: float) -> float:
    """Mean BGR distance between each die's body and the table around it, over a few scenes."""
    rng = np.random.default_rng(11)
    gaps = []
    for _ in range(4):
        frame, truths = render_scene(rng, n_dice=6, elevation_deg=90.0, camouflage=camouflage)
        boxes = np.array([t.box for t in truths], np.float32)
        bodies = body_colours(frame, boxes)
        for box, body in zip(boxes, bodies, strict=True):
            side = box[2] - box[0]
            x, y = int(box[0] - 0.3 * side), int((box[1] + box[3]) / 2)
            if 0 <= x < frame.shape[1] and 0 <= y < frame.shape[0]:
                gaps.append(np.linalg.norm(body - frame[y, x].astype(np.float32)))
    return float(np.mean(gaps))


def test_camouflaged_dice_take_the_colour_of_the_table() -> None:
    assert _die_table_contrast(1.0) < 0.5 * _die_table_contrast(0.0)


def test_without_camouflage_the_scenes_are_drawn_as_before() -> None:
    # The evaluation sets are seeded: the option must not change the random stream when off.
    a, truths_a = render_scene(np.random.default_rng(5))
    b, truths_b = render_scene(np.random.default_rng(5), camouflage=0.0)
    assert np.array_equal(a, b) and truths_a == truths_b


def test_a_camera_above_sees_the_side_faces_of_dice_away_from_the_centre() -> None:
    # Same seed, same dice: seen from straight above at half a frame width, a die left or
    # right of the centre shows the side face toward it, so its box is wider than from
    # infinitely far above; a die near the centre looks the same.
    ortho, flat = render_scene(np.random.default_rng(8), n_dice=14, elevation_deg=90.0)
    photo, above = render_scene(np.random.default_rng(8), n_dice=14, elevation_deg=90.0,
                                camera_height=0.5)
    assert not np.array_equal(ortho, photo)
    wider = []
    for a in flat:
        # The same die: same colour and face, the nearest box (a die may leave the frame).
        same = [b for b in above if (b.colour, b.label, b.big) == (a.colour, a.label, a.big)]
        b = min(same, key=lambda b: abs(b.box[0] - a.box[0]) + abs(b.box[1] - a.box[1]))
        cx, cy = (a.box[0] + a.box[2]) / 2, (a.box[1] + a.box[3]) / 2
        w_flat, w_above = a.box[2] - a.box[0], b.box[2] - b.box[0]
        inside = a.box[0] > 0 and a.box[2] < 639 and b.box[0] > 0 and b.box[2] < 639
        if inside and abs(cx - 320) > 160:
            wider.append(w_above / w_flat)
        elif abs(cx - 320) < 40 and abs(cy - 240) < 40:
            assert abs(w_above - w_flat) < 0.1 * w_flat
    assert len(wider) >= 3 and min(wider) > 1.1, wider


@pytest.mark.parametrize(
    "option", [{"camera_height": None}, {"glossy": 0.0}, {"marbled": 0.0}, {"speckled": 0.0}]
)
def test_an_option_left_off_draws_the_scenes_as_before(option: dict) -> None:
    a, truths_a = render_scene(np.random.default_rng(6), elevation_deg=90.0)
    b, truths_b = render_scene(np.random.default_rng(6), elevation_deg=90.0, **option)
    assert np.array_equal(a, b) and truths_a == truths_b


def test_glare_brightens_the_face_only_and_most_on_its_side_toward_the_light() -> None:
    face = np.array([[100, 100], [160, 100], [160, 160], [100, 160]], np.float64)
    gain_lit = gain_dark = 0.0
    for seed in range(10):
        img = np.full((240, 320, 3), 90, np.uint8)
        _glare(img, np.random.default_rng(seed), face, 60.0, np.array([1.0, 0.0]), 1.0)
        gain = img.astype(np.float64) - 90
        assert gain.min() >= 0
        outside = np.ones(img.shape[:2], bool)
        outside[98:163, 98:163] = False
        assert not gain[outside].any()
        assert gain[100:160, 100:160].max() > 60
        gain_lit += gain[100:160, 130:160].sum()
        gain_dark += gain[100:160, 100:130].sum()
    assert gain_lit > 1.5 * gain_dark


def test_glossy_dice_shine_where_plain_ones_do_not() -> None:
    # A glossy die's brightest pixels stand out further above its body than a plain die's.
    def highlight(glossy: float) -> float:
        rng = np.random.default_rng(12)
        rises = []
        for _ in range(8):
            frame, truths = render_scene(rng, n_dice=8, elevation_deg=90.0, glossy=glossy)
            grey = frame.mean(2)
            for t in truths:
                x0, y0, x1, y1 = (int(v) for v in t.box)
                if x1 - x0 > 8 and y1 - y0 > 8:
                    patch = grey[y0:y1, x0:x1]
                    rises.append(np.percentile(patch, 99) - np.median(patch))
        return float(np.median(rises))

    assert highlight(1.0) > highlight(0.0) + 10


def test_marbling_veins_the_face_only() -> None:
    face = np.array([[100, 100], [160, 100], [160, 160], [100, 160]], np.float64)
    for seed in range(5):
        img = np.full((240, 320, 3), 90, np.uint8)
        marbling = _marbling(np.random.default_rng(seed), face, 60.0)
        _pattern_face(img, face, marbling, np.array([240.0, 240.0, 240.0]))
        outside = np.ones(img.shape[:2], bool)
        outside[98:163, 98:163] = False
        assert (img[outside] == 90).all()
        inner = img[102:158, 102:158, 0].astype(np.float64)
        # Bands of vein and plain body: bright in some places, the body's own grey in others.
        assert inner.max() > 130 and np.percentile(inner, 10) < 100
