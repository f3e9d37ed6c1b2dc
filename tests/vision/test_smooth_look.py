"""A speckled frame is also looked at with its flecks smoothed out, and the dice only that look
finds join where the die checker backs them (`locate.locate_smoothed`, `reader._with_smooth_look`).

The look was made for the usual locator, and these tests read with it alone; the locator that
learnt speckled tables, which a speckled frame is looked at with by default, is tested in
test_speckled_locator.py."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from vision_synth import granite_top, sim_table_frame, white_dice

from models import real_sets
from models.devdata import matched_boxes
from models.render import render_scene
from vision import die_check, locate, reader
from vision.detections import Detections
from vision.reader import ReaderConfig, read_dice

SMOOTHED = ReaderConfig(speckled_locator=False)
NOT_SMOOTHED = replace(SMOOTHED, smooth_die_from=0.0)


def _square(x: float, y: float, side: float) -> list[float]:
    return [x, y, x + side, y + side]


@pytest.mark.parametrize("width, height", [(640, 480), (1280, 720)])
def test_the_simulated_felt_table_is_no_speckled_frame(width: int, height: int) -> None:
    frame = sim_table_frame(width, height)
    assert locate.flecks(frame, locate.LOCATOR_LONG_SIDE) < locate.FLECKS / 1.5


def test_a_granite_top_is_a_speckled_frame() -> None:
    frame = granite_top(5)
    assert locate.flecks(frame, locate.LOCATOR_LONG_SIDE) >= locate.FLECKS


def test_a_plain_frame_is_not_looked_at_smoothed(monkeypatch) -> None:
    def located(*_args):
        raise AssertionError("the locator looked")

    monkeypatch.setattr(locate, "infer_in_strips", located)
    boxes, scores = locate.locate_smoothed(None, sim_table_frame(640, 480), 384)  # type: ignore[arg-type]
    assert boxes.shape == (0, 4) and scores.shape == (0,)


def test_the_smoothed_look_boxes_in_frame_pixels(monkeypatch) -> None:
    # A granite frame of 1280 px looked at 320 px long: a map cell of the look is 4 px there,
    # 16 px in the frame.
    frame = granite_top(1, 720, 1280)
    seen: list[tuple[int, ...]] = []

    def maps(_session, tensor):
        seen.append(tensor.shape)
        out = np.full((5, tensor.shape[2] // 4, tensor.shape[3] // 4), -9.0, np.float32)
        out[0, 10, 20] = 9.0  # one sure die
        out[1:3, 10, 20] = np.log(2.0)  # 2 cells wide and high: 8 look px
        out[3:5, 10, 20] = 0.5
        return out

    monkeypatch.setattr(locate, "infer_in_strips", maps)
    boxes, scores = locate.locate_smoothed(None, frame, 320, 0.5)  # type: ignore[arg-type]
    assert seen == [(1, 3, 192, 320)]  # 180 rows padded to a multiple of 16
    assert scores.tolist() == pytest.approx([1.0], abs=1e-3)
    # Centre (20.5, 10.5) cells = (82, 42) look px = (328, 168) frame px; 32 frame px wide.
    np.testing.assert_allclose(boxes, [[312, 152, 344, 184]], atol=0.01)


@pytest.fixture
def smooth_look_of(monkeypatch):
    """`_with_smooth_look` on a frame whose first look read `found`, where the smoothed look
    locates `dice` and the checker gives them `likely`; the boxes it was asked to read are
    kept."""

    def run(found: Detections, dice: Detections, likely: list[float]) -> tuple[Detections, list]:
        asked: list[np.ndarray] = []

        def smoothed(_loc, _frame, long_side, _threshold):
            assert long_side == 512
            return dice.boxes, dice.confidence

        def read(_loc, _readers, _frame, cfg, boxes, _scores, long_side, _palette):
            assert not cfg.look_closer  # read as boxed
            assert cfg.place_heard is None  # the first look's dice tell the camera's place
            chosen = np.array([any((b == boxes).all(1)) for b in dice.boxes])
            asked.append(chosen)
            return reader._Look(dice.select(chosen), long_side, "front", None, np.zeros((0, 4)))

        def checker(_session, crops):
            assert len(crops) == asked[0].sum()
            return np.asarray(likely, np.float32)[asked[0]]

        monkeypatch.setattr(reader.locate, "locate_smoothed", smoothed)
        monkeypatch.setattr(reader, "_read_boxes", read)
        monkeypatch.setattr(reader.die_check, "die_probability", checker)
        first = reader._Look(found, 512, "front", None, np.zeros((0, 4)))  # type: ignore[arg-type]
        heard = ReaderConfig(place_heard=lambda place: None)
        joined = reader._with_smooth_look(None, [], np.zeros((480, 640, 3), np.uint8), heard, first)  # type: ignore[arg-type]
        return joined.found, asked

    return run


def test_the_smoothed_look_adds_only_new_dice_the_checker_backs(smooth_look_of) -> None:
    found = white_dice([_square(100, 100, 30), _square(300, 100, 30)], [3, 5])
    smoothed = white_dice(
        [
            _square(100, 300, 30),  # a new die the checker backs: joins, unsure as it was read
            _square(103, 102, 30),  # the first die again: not even read
            _square(300, 300, 30),  # a new box the checker calls a fleck
            _square(500, 400, 30),  # a new die for sure, backed just enough
        ],
        [4, 3, 2, 6],
        unsure=[True, False, False, False],
    )
    bar = die_check.SMOOTH_DIE_FROM
    joined, asked = smooth_look_of(found, smoothed, [0.9, 0.9, bar - 0.01, bar])
    assert asked[0].tolist() == [True, False, True, True]
    assert joined.pips.tolist() == [3, 5, 4, 6]
    assert joined.unsure.tolist() == [False, False, True, False]


def test_nothing_joins_where_the_smoothed_look_boxes_only_known_dice(smooth_look_of) -> None:
    found = white_dice([_square(100, 100, 30)], [3])
    joined, asked = smooth_look_of(found, white_dice([_square(104, 98, 30)], [3]), [1.0])
    assert asked == [] and len(joined) == 1


def test_the_smoothed_look_reads_only_its_surest_new_boxes(smooth_look_of) -> None:
    found = white_dice([_square(10, 10, 30)], [3])
    n = reader.MOST_SMOOTHED_BOXES + 10
    boxes = [_square(60 + 40 * (k % 14), 60 + 40 * (k // 14), 30) for k in range(n)]
    smoothed = white_dice(boxes, [2] * n)
    # The locator's scores rise with k: the last MOST_SMOOTHED_BOXES are the surest.
    smoothed = replace(smoothed, confidence=np.linspace(0.2, 0.9, n).astype(np.float32))
    joined, asked = smooth_look_of(found, smoothed, [1.0] * n)
    assert asked[0].tolist() == [False] * 10 + [True] * reader.MOST_SMOOTHED_BOXES
    assert len(joined) == 1 + reader.MOST_SMOOTHED_BOXES


def test_the_smoothed_look_is_off_at_zero_and_where_pips_are_not_needed(monkeypatch) -> None:
    def looked(*_args):
        raise AssertionError("the smoothed look was taken")

    monkeypatch.setattr(reader, "_with_smooth_look", looked)
    frame = sim_table_frame(640, 480)
    read_dice(frame, NOT_SMOOTHED)
    read_dice(frame, ReaderConfig(pips_needed=False))
    with pytest.raises(AssertionError, match="smoothed look"):
        read_dice(frame, ReaderConfig())


def _found(frame: np.ndarray, boxes: np.ndarray, cfg: ReaderConfig) -> tuple[list[int], int]:
    """Which labelled dice (their boxes (n, 4)) the reader finds, and how many boxes it gives."""
    dice = read_dice(frame, cfg)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    matched = matched_boxes(dice.boxes, centres, boxes)
    return [k for k, m in enumerate(matched) if m is not None], len(dice)


@pytest.mark.parametrize("seed", [30, 33, 37])
def test_dice_on_a_rendered_granite_table_are_found(seed: int) -> None:
    # Six dice from above on speckled granite: the locator misses a die (all of them, with seed
    # 30) until the flecks are smoothed out.
    frame, truths = render_scene(
        np.random.default_rng(seed), n_dice=6, elevation_deg=90.0, granite_table=True
    )
    boxes = np.array([t.box for t in truths], np.float32)
    before, _ = _found(frame, boxes, NOT_SMOOTHED)
    after, given = _found(frame, boxes, SMOOTHED)
    assert set(before) < set(after)
    assert given == len(after)  # no box on no die
    dice = read_dice(frame, SMOOTHED)
    labels = np.array([t.label for t in truths])
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    for k, m in enumerate(matched_boxes(dice.boxes, centres, boxes)):
        if m is not None and labels[k] not in (0, 7) and not dice.unsure[m]:
            assert dice.pips[m] == labels[k]  # a die read for sure is read right


def test_a_plain_tray_reads_the_same_with_the_smoothed_look_on() -> None:
    frame, _truths = render_scene(np.random.default_rng(3), n_dice=8, elevation_deg=90.0)
    if locate.flecks(frame, locate.LOCATOR_LONG_SIDE) >= locate.FLECKS:
        pytest.skip("this scene's table is speckled")
    off, on = read_dice(frame, NOT_SMOOTHED), read_dice(frame, SMOOTHED)
    assert on.boxes.tolist() == off.boxes.tolist() and on.pips.tolist() == off.pips.tolist()


def _coloured_photo(stem_start: str):
    sets = {name: s for name, s in real_sets.real_sets().items() if s.available()}
    if "dice-photos-oblique-coloured" not in sets:
        pytest.skip("the coloured phone photos are not in ../shared/data")
    for item in sets["dice-photos-oblique-coloured"].photos("fit"):
        if item.image.name.startswith(stem_start + "_"):
            return item
    pytest.skip(f"photo {stem_start} is not in the set")


@pytest.mark.parametrize("stem", ["dice_332", "dice_89"])
def test_a_die_in_a_noisy_phone_photo_is_found(stem: str) -> None:
    # The publisher's phone photos carry salt-and-pepper noise: a die on them that the locator
    # scores under its bar is boxed once the noise is smoothed out.
    item = _coloured_photo(stem)
    frame = cv2.imread(str(item.image))
    before, _ = _found(frame, item.die_boxes, NOT_SMOOTHED)
    after, _ = _found(frame, item.die_boxes, SMOOTHED)
    assert len(before) < len(after) == len(item.centres)


def test_the_white_photos_are_never_looked_at_smoothed() -> None:
    sets = {name: s for name, s in real_sets.real_sets().items() if s.available()}
    if "dice-photos-oblique-white" not in sets:
        pytest.skip("the white dice photos are not in ../shared/data")
    items = sets["dice-photos-oblique-white"].photos("holdout")
    levels = [locate.flecks(cv2.imread(str(i.image)), locate.LOCATOR_LONG_SIDE) for i in items]
    assert max(levels) < locate.FLECKS
