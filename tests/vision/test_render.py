"""The renderer of training scenes: what its options change and what they leave alone."""

from __future__ import annotations

import numpy as np
import pytest

from models.render import PipStyle, _draw_die, _glare, _marbling, _pattern_face, render_scene
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
    photo, above = render_scene(
        np.random.default_rng(8), n_dice=14, elevation_deg=90.0, camera_height=0.5
    )
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
    "option",
    [
        {"camera_height": None},
        {"glossy": 0.0},
        {"marbled": 0.0},
        {"speckled": 0.0},
        {"pip_styles": 0.0},
        {"translucent": 0.0},
    ],
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


def _die_from_above(top: int, style: PipStyle | None, clear: float = 0.0) -> np.ndarray:
    """A white die with black pips, `top` up, seen straight from above, lit evenly: 200x200."""
    img = np.full((200, 200, 3), 90, np.uint8)
    _draw_die(
        img,
        np.random.default_rng(0),
        np.array([100.0, 100.0]),
        120.0,
        np.eye(3),
        np.pi / 2,
        np.full(3, 235.0),
        np.full(3, 20.0),
        {0: top, 1: 2, 2: 3},
        np.array([0.0, 0.0, 1.0]),
        0.09,
        flat=1.0,
        style=style,
        clear=clear,
    )
    return img


def test_a_pip_style_sizes_the_lone_pip_of_a_one_and_colours_its_accented_faces() -> None:
    def dark(img: np.ndarray) -> int:
        return int((img.max(2) < 80).sum())

    red = np.array([40.0, 40.0, 190.0])
    style = PipStyle(spread=1.0, radius=0.09, one_radius=0.2, accent=red, accented=(4,), hollow=0.0)
    assert dark(_die_from_above(1, style)) > 3 * dark(_die_from_above(1, None))
    # The 4 is accented: its pips are red, not black; the 2 keeps black pips.
    four, two = _die_from_above(4, style), _die_from_above(2, style)
    reddish = (four[..., 2] > 150) & (four[..., 0] < 90)
    assert dark(four) == 0 and reddish.sum() > 0.8 * dark(_die_from_above(4, None))
    assert dark(two) == dark(_die_from_above(2, None))


def test_a_pip_style_moves_the_pips_and_hollows_them() -> None:
    def dark_spread(img: np.ndarray) -> float:
        ys, xs = np.nonzero(img.max(2) < 80)
        return float(np.hypot(xs - 100, ys - 100).mean())

    plain = PipStyle(1.0, 0.09, 0.09, None, (), 0.0)
    wide = PipStyle(1.2, 0.09, 0.09, None, (), 0.0)
    assert dark_spread(_die_from_above(5, wide)) > 1.1 * dark_spread(_die_from_above(5, plain))
    # A hollow pip is lighter where its wall catches the light: fewer pixels as dark as a pip.
    hollow = PipStyle(1.0, 0.09, 0.09, None, (), 0.7)
    flat_dark = int((_die_from_above(6, plain).max(2) < 80).sum())
    assert int((_die_from_above(6, hollow).max(2) < 80).sum()) < 0.8 * flat_dark


def test_a_translucent_die_shows_the_table_and_its_hidden_pips_through_its_body() -> None:
    opaque, clear = _die_from_above(1, None), _die_from_above(1, None, clear=0.6)
    body = (slice(50, 150), slice(50, 150))
    assert (opaque[:35] == clear[:35]).all()  # the table around the die is untouched
    # The grey table shows through the white body ...
    assert clear[body].mean() < opaque[body].mean() - 40

    # ... and the bottom face's six pips faintly, where the opaque 1 shows one pip only.
    def faint(img: np.ndarray) -> int:  # darker than the body, lighter than a painted pip
        grey = img[body].max(2).astype(np.float64)
        return int(((grey < np.median(grey) - 15) & (grey > 80)).sum())

    assert faint(clear) > 5 * faint(opaque)
    # The top face's own pip stays as dark as it was painted.
    assert clear[95:105, 95:105].max() < 80
