"""The die checker: whether a box the reader flags unsure holds a die, from a wider crop."""

from __future__ import annotations

import numpy as np
import pytest
from vision_synth import dice_frame

from models.die_check_data import _on_die
from vision import die_check
from vision.onnx_models import model_path, open_session
from vision.reader import ReaderConfig, read_dice


def _checker():
    return open_session(str(model_path(die_check.CHECK_FILE)), 1)


def test_a_context_crop_holds_the_box_in_its_middle_half() -> None:
    frame = np.zeros((200, 200, 3), np.uint8)
    frame[80:120, 80:120] = 255  # a white square, boxed exactly
    crop = die_check.context_crops(frame, np.array([[80, 80, 120, 120]], np.float32))
    assert crop.shape == (1, 3, die_check.CONTEXT_SIZE, die_check.CONTEXT_SIZE)
    side = die_check.CONTEXT_SIZE
    assert crop[0, :, side // 2, side // 2].min() > 250  # the box fills the middle
    assert crop[0, :, 2, 2].max() < 5 and crop[0, :, side - 3, side - 3].max() < 5
    bright = np.flatnonzero(crop[0, 0, side // 2] > 127)
    # The box is half the crop's side: a margin of a quarter of the crop on each side.
    assert abs(len(bright) - side / die_check.CONTEXT_MARGIN) <= 2


def test_rendered_dice_are_dice_and_bare_table_is_not(rendered_scenes) -> None:
    session = _checker()
    on_dice, on_table = [], []
    for frame, truths in rendered_scenes[:10]:
        dice = np.array([t.box for t in truths], np.float32)
        on_dice.extend(die_check.die_probability(session, die_check.context_crops(frame, dice)))
        # The same boxes moved to the frame's bare corners (where no rendered die lies).
        for corner in ((4, 4), (frame.shape[1] - 4, frame.shape[0] - 4)):
            side = dice[:, 2:] - dice[:, :2]
            moved = np.hstack([np.array(corner) - side / 2, np.array(corner) + side / 2])
            clear = ~_on_die(moved, dice)[0] & _on_die(moved, dice)[1]
            crops = die_check.context_crops(frame, moved[clear])
            on_table.extend(die_check.die_probability(session, crops))
    assert np.median(on_dice) > 0.9
    assert np.mean(np.array(on_dice) >= die_check.NO_DIE_BELOW) > 0.97
    assert np.median(on_table) < die_check.NO_DIE_BELOW


# Body colours of drawn dice (BGR): the game's colours and grey.
DRAWN_COLOURS = (
    (40, 40, 200),
    (160, 60, 40),
    (60, 160, 60),
    (40, 200, 220),
    (220, 220, 220),
    (30, 30, 30),
    (140, 40, 110),
    (30, 120, 240),
    (180, 130, 240),
    (128, 128, 128),
)


@pytest.mark.parametrize("side", [20, 30, 45, 70])
def test_plain_drawn_dice_of_every_colour_and_face_are_dice(side) -> None:
    # Read at one turn only, small dark dice showing 2 fell under the threshold: two dots on a
    # small square look like the salt-and-pepper dots the checker learnt as no die.
    session = _checker()
    probs = []
    for k, colour in enumerate(DRAWN_COLOURS):
        for pips in range(1, 7):
            dice = [(160, 120, side, colour, pips), (480, 360, side, colour, 7 - pips)]
            frame, _ = dice_frame(dice, np.random.default_rng(100 * side + 10 * k + pips))
            half = side / 2
            boxes = np.array([[x - half, y - half, x + half, y + half] for x, y, *_ in dice])
            probs.extend(die_check.die_probability(session, die_check.context_crops(frame, boxes)))
    assert min(probs) >= die_check.NO_DIE_BELOW


def test_a_crop_is_read_at_its_four_quarter_turns() -> None:
    class Recorded:
        def get_inputs(self):
            return [type("Input", (), {"name": "image"})()]

        def run(self, _outputs, feeds):
            self.crops = feeds["image"]
            # A logit of +4 for the crop as cut, -4 for its three turns.
            return [np.array([[4.0], [-4.0], [-4.0], [-4.0]])]

    crop = np.arange(3 * 40 * 40, dtype=np.float32).reshape(1, 3, 40, 40)
    session = Recorded()
    prob = die_check.die_probability(session, crop)  # type: ignore[arg-type]
    assert session.crops.shape == (4, 3, 40, 40)
    assert np.array_equal(session.crops[1], np.rot90(crop[0], 1, (1, 2)))
    expected = (1 / (1 + np.exp(-4.0)) + 3 / (1 + np.exp(4.0))) / 4
    assert prob == pytest.approx([expected])


def test_only_the_boxes_asked_about_are_read() -> None:
    class Unread:
        def get_inputs(self):
            raise AssertionError("the checker was run with no box asked about")

    frame = np.zeros((100, 100, 3), np.uint8)
    boxes = np.array([[10, 10, 30, 30], [50, 50, 70, 70]], np.float32)
    out = die_check.no_die(Unread(), frame, boxes, np.zeros(2, bool))  # type: ignore[arg-type]
    assert out.tolist() == [False, False]
    # Asked about one box, the checker's answer lands on that box alone.
    flat = die_check.no_die(_checker(), frame, boxes, np.array([False, True]))
    assert flat[0] == False  # noqa: E712


def test_only_weak_unsure_boxes_can_be_dropped_by_the_checker(rendered_scenes) -> None:
    cfg = ReaderConfig(threads=1)
    asked_in_all = 0
    for frame, _truths in rendered_scenes[:6]:
        without = read_dice(frame, ReaderConfig(threads=1, no_die_below=0.0))
        # Even a checker that called every box no die keeps every die read for sure, and every
        # unsure die read fairly well.
        every_asked_dropped = read_dice(frame, ReaderConfig(threads=1, no_die_below=1.01))
        asked = die_check.weak_unsure(without.unsure, without.confidence)
        assert np.array_equal(every_asked_dropped.boxes, without.boxes[~asked])
        kept = read_dice(frame, cfg)
        assert len(without.boxes[~asked]) <= len(kept) <= len(without)
        asked_in_all += int(asked.sum())
    assert asked_in_all > 0  # the scenes hold boxes the checker is asked about


def test_the_checker_is_asked_about_unsure_boxes_read_weakly_alone() -> None:
    unsure = np.array([True, True, False, False])
    confidence = np.array([0.1, die_check.WEAK_READING, 0.1, 0.9])
    assert die_check.weak_unsure(unsure, confidence).tolist() == [True, False, False, False]


def test_boxes_on_a_die_on_none_and_between() -> None:
    dice = np.array([[0, 0, 20, 20]], np.float32)
    found = np.array(
        [
            [2, 2, 22, 22],  # on the die: each holds the other's centre
            [50, 50, 70, 70],  # on nothing
            [12, 12, 26, 26],  # its centre in the die, the die's centre not in it
        ],
        np.float32,
    )
    on, none = _on_die(found, dice)
    assert on.tolist() == [True, False, False]
    assert none.tolist() == [False, True, False]


def test_crop_weights_give_dice_their_share_and_real_unsure_boxes_most() -> None:
    pytest.importorskip("torch")
    from models.die_check_data import LABEL_BOX, READER_BOX, RENDERED
    from models.train_die_check import crop_weights

    labels = np.array([1, 1, 1, 1, 0, 0], np.uint8)
    kinds = np.array([READER_BOX, READER_BOX, LABEL_BOX + RENDERED, LABEL_BOX, READER_BOX, 2])
    unsure = np.array([True, False, False, False, True, False])
    w = crop_weights(labels, kinds, unsure, dice_share=0.6)
    assert w[labels == 1].sum() == pytest.approx(1.5 * w[labels == 0].sum())
    assert w.mean() == pytest.approx(1.0)
    assert w[0] > w[1] > w[2]


def test_a_checker_trains_and_exports(tmp_path) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from models.train import export
    from models.train_die_check import train

    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    n = 300
    crops = rng.integers(0, 255, (n, 3, 40, 40)).astype(np.uint8)
    labels = (np.arange(n) % 2).astype(np.uint8)
    crops[labels == 1, :, 10:30, 10:30] = 250  # a bright square in the middle: a "die"
    data = {
        "crops": crops,
        "labels": labels,
        "kinds": np.zeros(n, np.uint8),
        "unsure": np.zeros(n, bool),
    }
    net = train(data, 2, 0, log=lambda msg: None)
    export(net, tmp_path / "c.onnx", (1, 3, 40, 40), {"image": {0: "n"}, "out": {0: "n"}})
    probs = die_check.die_probability(
        open_session(str(tmp_path / "c.onnx"), 1), crops[:40].astype(np.float32)
    )
    assert probs.shape == (40,)
    assert ((probs >= 0.5) == labels[:40].astype(bool)).mean() > 0.8
