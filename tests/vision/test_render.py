"""The renderer of training scenes: what its options change and what they leave alone."""

from __future__ import annotations

import numpy as np

from models.render import render_scene
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
