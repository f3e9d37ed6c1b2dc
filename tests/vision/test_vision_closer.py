"""The closer look: locate again around boxes the pip readers doubt, and keep only sure faces."""

from __future__ import annotations

import numpy as np
import pytest
from vision_synth import dice_frame

from models.render import render_scene
from vision import closer, pips
from vision.onnx_models import LOCATOR_FILE, PIPS_FILES, model_path, open_session


class CountingSession:
    """Wraps an ONNX session and counts its runs."""

    def __init__(self, session) -> None:
        self.session, self.runs = session, 0

    def get_inputs(self):
        return self.session.get_inputs()

    def run(self, outputs, feeds):
        self.runs += 1
        return self.session.run(outputs, feeds)


@pytest.fixture(scope="module")
def models():
    locator = open_session(str(model_path(LOCATOR_FILE)), 1)
    readers = [open_session(str(model_path(f)), 1) for f in PIPS_FILES]
    return locator, readers


def _reading(*verdicts: tuple[int, float, bool, bool]) -> pips.Reading:
    """A pip reading from (pips, probability, unsure, is a die) per box."""
    pip, prob, unsure, is_die = zip(*verdicts, strict=True)
    return (np.array(pip, np.int8), np.array(prob, np.float32), np.array(unsure), np.array(is_die))


def _one_die(seed: int) -> tuple[np.ndarray, np.ndarray, int]:
    """A rendered top-down frame with one die, its true box and its pips."""
    frame, truths = render_scene(np.random.default_rng(seed), n_dice=1, elevation_deg=90.0)
    return frame, np.array(truths[0].box, np.float32), truths[0].label


@pytest.mark.parametrize(
    "seed",
    [
        2,  # a grey 2, 42 px
        6,  # a white 4, 76 px
        10,  # a purple 2, 25 px
        11,  # a dark blue 6, 80 px
    ],
)
def test_a_box_off_the_die_is_replaced_by_the_die(models, seed) -> None:
    frame, truth, label = _one_die(seed)
    # The first look's box covers the die and as much table to its right and below.
    side = truth[2] - truth[0]
    off = (truth + np.array([0, 0, side, side], np.float32))[None]
    reading = pips.read_pips(models[1], frame, off)
    assert not reading[3][0]  # the readers call this box "not a die"
    boxes, scores, (pip, prob, unsure, is_die) = closer.look_closer(
        *models, frame, off, np.array([0.5], np.float32), reading, 0.08
    )
    assert is_die[0] and not unsure[0] and pip[0] == label
    assert np.abs(boxes[0] - truth).max() < 0.15 * side
    assert scores[0] >= 0.5


def test_a_closer_look_at_a_die_already_kept_changes_nothing(models) -> None:
    frame, truth, _ = _one_die(2)
    # Two boxes on one die: the kept one, and a doubtful one shifted half a die to the left.
    shifted = truth - np.array([21, 0, 21, 0], np.float32)
    boxes = np.stack([truth, shifted])
    reading = _reading((2, 0.95, False, True), (0, 0.5, True, False))
    new_boxes, _, (_, _, _, is_die) = closer.look_closer(
        *models, frame, boxes, np.array([0.9, 0.5], np.float32), reading, 0.08
    )
    assert list(is_die) == [True, False]
    assert np.array_equal(new_boxes, boxes)


@pytest.mark.parametrize(
    "score, verdict",
    [
        (0.9, (4, 0.95, False, True)),  # a sure face needs no closer look
        (0.25, (0, 0.9, False, False)),  # too weak a locator box to look at again
    ],
)
def test_only_doubtful_strong_boxes_get_a_closer_look(models, score, verdict) -> None:
    locator, readers = models
    counting = CountingSession(locator)
    frame, truth, _ = _one_die(2)
    closer.look_closer(
        counting,
        readers,
        frame,
        truth[None],
        np.array([score], np.float32),
        _reading(verdict),
        0.08,
    )
    assert counting.runs == 0


def test_a_kept_unsure_die_gets_a_better_box_and_a_sure_reading(models) -> None:
    frame, truth, label = _one_die(6)
    # Kept (0.9 x 0.3 >= 0.08) but unsure: a box a third too big, with the die in one corner.
    side = truth[2] - truth[0]
    loose = (truth + np.array([0, 0, side / 3, side / 3], np.float32))[None]
    boxes, _, (pip, _, unsure, is_die) = closer.look_closer(
        *models, frame, loose, np.array([0.9], np.float32), _reading((label, 0.3, True, True)), 0.08
    )
    assert is_die[0] and not unsure[0] and pip[0] == label
    assert np.abs(boxes[0] - truth).max() < 0.15 * side


def test_a_kept_die_is_not_swapped_for_its_neighbour(models) -> None:
    frame, truth, _ = _one_die(2)
    # A kept, unsure box on bare table right of the die: the closer look finds the die, whose
    # centre lies outside this box, so the box stays as it was.
    side = truth[2] - truth[0]
    beside = (truth + np.array([side * 0.9, 0, side * 0.9, 0], np.float32))[None]
    boxes, _, (_, _, unsure, _) = closer.look_closer(
        *models, frame, beside, np.array([0.9], np.float32), _reading((3, 0.3, True, True)), 0.08
    )
    assert unsure[0] and np.array_equal(boxes, beside)


def test_a_closer_look_at_bare_table_keeps_the_box_doubtful(models) -> None:
    frame, _ = dice_frame([], np.random.default_rng(6))
    box = np.array([[300, 220, 344, 264]], np.float32)
    boxes, scores, (_, _, _, is_die) = closer.look_closer(
        *models, frame, box, np.array([0.4], np.float32), _reading((0, 0.9, False, False)), 0.08
    )
    assert not is_die[0]
    assert np.array_equal(boxes, box) and scores[0] == pytest.approx(0.4)


@pytest.mark.parametrize(
    "seed",
    [
        2,  # a grey 2, 43 px
        7,  # a 3 of 99 px
        10,  # a purple 2, 25 px
        11,  # a dark blue 6, 81 px
        4,  # cocked on an edge (label 7): no face to read, so it stays doubtful
    ],
)
def test_a_box_grown_onto_the_table_is_narrowed_to_its_die(models, seed) -> None:
    frame, truth, label = _one_die(seed)
    # The first look's box has grown by over half a die to the right and below (as onto a
    # neighbour in a crowded tray), and the window look finds nothing (threshold over 1).
    side = truth[2] - truth[0]
    grown = (truth + np.array([0, 0, 0.55 * side, 0.55 * side], np.float32))[None]
    reading = pips.read_pips(models[1], frame, grown)
    assert not reading[3][0]  # the readers call the grown box "not a die"
    boxes, _, (pip, _, unsure, is_die) = closer.look_closer(
        *models, frame, grown, np.array([0.5], np.float32), reading, 0.08, threshold=1.1
    )
    if label == pips.CLASS_UNSURE:
        assert not is_die[0]
        return
    assert is_die[0] and not unsure[0] and pip[0] == label
    # The square read surest may be the larger of the two tried (0.85 of the grown box, a
    # quarter of a side too big): still half the growth off, and on the die.
    assert np.abs(boxes[0] - truth).max() < 0.25 * side


def test_a_box_grown_a_little_is_read_as_a_weak_die_and_narrowed_by_the_window_look(
    models,
) -> None:
    frame, truth, label = _one_die(2)
    # Grown by under half a die, the box still reads as a die, weakly and unsure; the window
    # look then finds the die itself and reads it for sure.
    side = truth[2] - truth[0]
    grown = (truth + np.array([0, 0, 0.45 * side, 0.45 * side], np.float32))[None]
    reading = pips.read_pips(models[1], frame, grown)
    assert reading[3][0] and reading[2][0]
    boxes, _, (pip, _, unsure, is_die) = closer.look_closer(
        *models, frame, grown, np.array([0.5], np.float32), reading, 0.08
    )
    assert is_die[0] and not unsure[0] and pip[0] == label
    assert np.abs(boxes[0] - truth).max() < 0.15 * side


def test_a_cocked_die_in_a_dropped_box_is_kept_unsure(models) -> None:
    frame, truth, label = _one_die(25)
    assert label == pips.CLASS_UNSURE  # cocked on an edge: no face to read
    # A box grown onto the table, read as no die; the window look finds the die in it.
    side = truth[2] - truth[0]
    grown = (truth + np.array([0, 0, 0.55 * side, 0.55 * side], np.float32))[None]
    reading = pips.read_pips(models[1], frame, grown)
    assert not reading[3][0]
    boxes, _, (_, _, unsure, is_die) = closer.look_closer(
        *models, frame, grown, np.array([0.5], np.float32), reading, 0.08
    )
    assert is_die[0] and unsure[0]
    assert np.abs(boxes[0] - truth).max() < 0.35 * side


@pytest.mark.parametrize(
    "window_box, face, kept",
    [
        ([10, 10, 30, 30], 3, True),  # centred in the dropped box: the die it was meant to be
        ([38, 10, 58, 30], 3, False),  # centred beside it: a neighbour, not this box's die
        ([10, 10, 30, 30], 0, False),  # blank and unsure: more often a label than a grey die
        ([0, 0, 60, 60], 3, False),  # half as large again as the box: print or table around it
    ],
)
def test_a_die_seen_but_not_read_in_a_dropped_box(monkeypatch, window_box, face, kept) -> None:
    dropped = np.array([[0, 0, 40, 40]], np.float32)
    seen = np.array([window_box], np.float32)
    monkeypatch.setattr(closer, "_boxes_nearby", lambda *_: (seen, np.array([0.6], np.float32)))
    monkeypatch.setattr(closer, "_die_inside", lambda *_: None)  # no sure square inside
    monkeypatch.setattr(closer.pips, "read_pips", lambda *_: _reading((face, 0.4, True, True)))
    boxes, _, (pip, _, unsure, is_die) = closer.look_closer(
        None,
        [],
        np.zeros((100, 100, 3), np.uint8),
        dropped,
        np.array([0.5], np.float32),
        _reading((0, 0.9, False, False)),
        0.08,
    )
    if kept:
        assert is_die[0] and unsure[0] and pip[0] == face
        assert np.array_equal(boxes, seen)
    else:
        assert not is_die[0] and np.array_equal(boxes, dropped)


@pytest.mark.parametrize(
    "box, squares",
    [
        ([0, 0, 40, 40], 18),  # a square box: two sizes at nine places each
        ([0, 0, 40, 50], 18),  # a little taller than wide: still a die seen from above
        ([0, 0, 20, 40], 0),  # twice as tall as wide (a key, a label): never a die from above
    ],
)
def test_inner_squares_lie_in_the_box(box, squares) -> None:
    inner = closer._inner_boxes(np.array(box, np.float32))
    assert inner.shape == (squares, 4)
    assert np.all(inner[:, :2] >= np.array(box[:2]) - 1e-3)
    assert np.all(inner[:, 2:] <= np.array(box[2:]) + 1e-3)
    sides = inner[:, 2:] - inner[:, :2]
    assert np.allclose(sides[:, 0], sides[:, 1])


@pytest.mark.parametrize(
    "inner, kept, covered",
    [
        ([[0, 0, 10, 10]], [], 0.0),  # no die kept: nothing covers it
        ([[0, 0, 10, 10]], [[5, 0, 30, 10], [0, 8, 10, 30]], 0.5),  # the larger share counts
        ([[0, 0, 10, 10]], [[-5, -5, 20, 20]], 1.0),  # wholly on a kept die
    ],
)
def test_share_of_an_inner_square_on_kept_dice(inner, kept, covered) -> None:
    share = closer._covered(np.array(inner, np.float32), np.array(kept, np.float32).reshape(-1, 4))
    assert share == pytest.approx([covered])


def test_boxes_read_ahead_read_as_when_read_alone(models) -> None:
    _locator, readers = models
    frame, truth, _label = _one_die(6)
    boxes = np.stack([truth, truth + np.float32(3), truth - np.float32(2)])
    counted = [CountingSession(r) for r in readers]
    read = closer._Readers(counted, frame, 0.6, True, "bottom")
    read.read_ahead(boxes)
    runs = [c.runs for c in counted]
    for box in boxes:
        alone = pips.read_pips(readers, frame, box[None])
        for a, b in zip(alone, read.read(box[None]), strict=True):
            assert np.array_equal(a, b)
    assert [c.runs for c in counted] == runs  # each box was read once, all at once
    read.read(boxes[:1] + np.float32(1))  # a box not read ahead is read when asked
    assert counted[0].runs == runs[0] + 1


def test_a_closer_look_reads_the_same_with_boxes_read_ahead(models, monkeypatch) -> None:
    locator, readers = models
    dice = [(100 + 70 * k, 200, 44, (40, 40, 200), 1 + k) for k in range(6)]
    frame, boxes = dice_frame(dice, np.random.default_rng(5))
    # Boxes off their dice, read as doubtful: each gets a window look.
    off = boxes + np.array([0, 0, 30, 30], np.float32)
    scores = np.full(len(off), 0.6, np.float32)
    reading = _reading(*[(0, 0.3, True, False)] * len(off))
    ahead = closer.look_closer(locator, readers, frame, off, scores, reading, 0.08)
    monkeypatch.setattr(closer._Readers, "read_ahead", lambda self, boxes: None)
    alone = closer.look_closer(locator, readers, frame, off, scores, reading, 0.08)
    for a, b in zip((ahead[0], ahead[1], *ahead[2]), (alone[0], alone[1], *alone[2]), strict=True):
        assert np.array_equal(a, b)
    assert (ahead[2][3]).sum() >= 4  # the closer look found most dice
