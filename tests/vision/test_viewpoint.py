"""Where the camera stands: which way is down in each die's crop, and the reader's choice."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from models.devdata import Score, turned
from models.yolo_folders import load_split
from vision.crops import crop_dice
from vision.reader import ReaderConfig, read_dice
from vision.viewpoint import CAMERA_PLACES, downs

FRAME = (480, 640, 3)


@pytest.mark.parametrize(
    ("place", "down"), [("bottom", (0, 1)), ("top", (0, -1)), ("left", (-1, 0)), ("right", (1, 0))]
)
def test_a_camera_at_an_edge_gives_every_die_the_same_down(place, down) -> None:
    boxes = np.array([[10, 10, 50, 50], [500, 400, 540, 440]], np.float32)
    assert np.allclose(downs(place, FRAME, boxes), [down, down])


def test_a_camera_above_points_each_die_down_toward_the_frame_centre() -> None:
    boxes = np.array(
        [
            [600, 220, 640, 260],  # right edge: the centre is to its left
            [300, 0, 340, 40],  # top edge: the centre is below it
            [300, 220, 340, 260],
        ],  # under the camera: the frame's own down
        np.float32,
    )
    assert np.allclose(downs("above", FRAME, boxes), [(-1, 0), (0, 1), (0, 1)], atol=1e-6)
    corner = downs("above", FRAME, np.array([[0, 0, 40, 40]], np.float32))[0]
    assert np.isclose(np.linalg.norm(corner), 1) and corner[0] > 0 and corner[1] > 0


def test_an_unknown_camera_place_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="bottom"):
        downs("ceiling", FRAME, np.zeros((1, 4), np.float32))


def _patterned_frame() -> np.ndarray:
    """Smooth ramps and a few discs: plain under a turn, without pixel-sized detail."""
    ys, xs = np.mgrid[0 : FRAME[0], 0 : FRAME[1]]
    frame = np.stack([xs * 255 // FRAME[1], ys * 255 // FRAME[0], np.full_like(xs, 90)], 2)
    frame = frame.astype(np.uint8)
    for x, y, r in ((220, 170, 12), (260, 200, 8), (150, 100, 60), (330, 300, 40)):
        cv2.circle(frame, (x, y), r, (20, 250, 240), -1)
    return cv2.GaussianBlur(frame, (0, 0), 1.5)


def test_crops_turn_about_the_box_centre() -> None:
    frame = _patterned_frame()
    boxes = np.array([[200, 150, 280, 230]], np.float32)
    upright = crop_dice(frame, boxes)
    assert np.array_equal(upright, crop_dice(frame, boxes, down=np.array([[0.0, 1.0]])))
    turned = crop_dice(frame, boxes, down=np.array([[0.0, -1.0]]))
    half_turn = np.rot90(upright, 2, axes=(2, 3))
    assert np.abs(turned - half_turn).mean() < 0.2 * np.abs(turned - upright).mean()
    # A camera at the left: what is left in the frame is down in the crop.
    left = crop_dice(frame, boxes, down=np.array([[-1.0, 0.0]]))
    quarter = np.rot90(upright, 1, axes=(2, 3))  # counter-clockwise: left goes down
    assert np.abs(left - quarter).mean() < 0.2 * np.abs(left - upright).mean()


def test_heavily_shrunk_crops_turn_too() -> None:
    # Boxes many times the crop size take the pre-blurred path, with its own offsets.
    frame = _patterned_frame()
    boxes = np.array([[100, 60, 400, 360]], np.float32)
    turned = crop_dice(frame, boxes, down=np.array([[0.0, -1.0]]))
    upright = crop_dice(frame, boxes)
    half_turn = np.rot90(upright, 2, axes=(2, 3))
    assert np.abs(turned - half_turn).mean() < 0.2 * np.abs(turned - upright).mean()


def _turned_photos(dev_photos, turns: int):
    """Every third Valid photo turned by `turns` quarter turns, with its labels."""
    for item in load_split("Valid", dev_photos)[::3]:
        yield turned(item, cv2.imread(str(item.image)), turns)


@pytest.mark.parametrize("turns", [1, 2])
def test_a_webcam_at_another_edge_of_the_table_reads_as_well(dev_photos, turns) -> None:
    # The real photos are oblique from one edge; turned, they are what a webcam at another
    # edge sees. Read with the frame's own down, a half turn lost 4 points of right pips.
    score, fixed = Score(), Score()
    for item, frame in _turned_photos(dev_photos, turns):
        score.add(item, read_dice(frame))
        fixed.add(item, read_dice(frame, ReaderConfig(camera_place="bottom")))
    s, f = score.summary(), fixed.summary()
    assert s["found_pct"] >= 96.0 and s["pips_pct"] >= 97.0, s
    assert s["pips_pct"] >= f["pips_pct"], (s, f)


def test_every_camera_place_can_be_set(dev_photos) -> None:
    item = load_split("Valid", dev_photos)[0]
    frame = cv2.imread(str(item.image))
    for place in CAMERA_PLACES:
        det = read_dice(frame, ReaderConfig(camera_place=place))
        assert len(det.pips) == len(det.boxes)


def _surest_places(frames) -> list[str]:
    from vision import locate, pips
    from vision.onnx_models import LOCATOR_FILE, PIPS_FILES, model_path, open_session

    locator = open_session(str(model_path(LOCATOR_FILE)), 1)
    reader = open_session(str(model_path(PIPS_FILES[0])), 1)
    places = []
    for frame in frames:
        boxes, scores = locate.locate(locator, frame, 0.2)
        places.append(pips.surest_camera_place(reader, frame, boxes, scores))
    return places


@pytest.mark.parametrize(("turns", "place"), [(0, "bottom"), (1, "right"), (2, "top"), (3, "left")])
def test_an_oblique_camera_is_placed_at_the_edge_it_looks_from(turns, place) -> None:
    # Rendered at 40 degrees from the bottom edge, then turned counter-clockwise: a half
    # turn puts the camera's foot at the top, a quarter turn at the right.
    from models.render import render_scene

    rng = np.random.default_rng(21)
    frames = [
        np.ascontiguousarray(np.rot90(render_scene(rng, n_dice=8, elevation_deg=40.0)[0], turns))
        for _ in range(3)
    ]
    assert _surest_places(frames) == [place] * 3


def test_a_camera_straight_above_is_placed_above() -> None:
    from models.render import render_scene

    rng = np.random.default_rng(21)
    frames = [
        render_scene(rng, n_dice=10, elevation_deg=90.0, camera_height=0.5)[0] for _ in range(6)
    ]
    assert _surest_places(frames).count("above") >= 4
