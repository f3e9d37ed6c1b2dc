"""The die checker: whether a box the reader flags unsure holds a die, from a wider crop."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from vision_synth import dice_frame, white_dice

from models.die_check_data import _on_die
from vision import die_check, reader
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


NOT_ASKED = ReaderConfig(
    threads=1,
    no_die_below=0.0,
    read_no_die_below=0.0,
    blank_no_die_below=0.0,
    doubt_sure_below=0.0,
    round_doubt_below=0.0,
    round_no_die_below=0.0,
)


def test_each_bar_drops_or_flags_only_its_own_boxes(rendered_scenes) -> None:
    asked_in_all = np.zeros(3, int)
    for frame, _truths in rendered_scenes[:6]:
        without = read_dice(frame, NOT_ASKED)
        weak = die_check.weak_unsure(without.unsure, without.confidence)
        read_better = without.unsure & ~weak & (without.pips > 0)  # a blank has its own bar
        fair_blank = without.unsure & ~weak & (without.pips == 0)
        # A checker bar no box can reach, one bar at a time: weak unsure boxes are dropped...
        weak_dropped = read_dice(frame, replace(NOT_ASKED, no_die_below=1.01))
        assert np.array_equal(weak_dropped.boxes, without.boxes[~weak])
        # ...unsure boxes read better, showing pips, are dropped...
        better_dropped = read_dice(frame, replace(NOT_ASKED, read_no_die_below=1.01))
        assert np.array_equal(better_dropped.boxes, without.boxes[~read_better])
        # ...unsure blanks read better are dropped under their own bar...
        blank_dropped = read_dice(frame, replace(NOT_ASKED, blank_no_die_below=1.01))
        assert np.array_equal(blank_dropped.boxes, without.boxes[~fair_blank])
        # ...and dice read for sure are all flagged unsure, none dropped.
        doubted = read_dice(frame, replace(NOT_ASKED, doubt_sure_below=1.01))
        assert np.array_equal(doubted.boxes, without.boxes) and doubted.unsure.all()
        kept = read_dice(frame, ReaderConfig(threads=1))
        assert len(without.boxes[~without.unsure]) <= len(kept) <= len(without)
        # By default no die read for sure is doubted (`die_check.DOUBT_SURE_BELOW` is 0).
        sure_boxes = {tuple(b) for b in without.boxes[~without.unsure].tolist()}
        assert sure_boxes == {tuple(b) for b in kept.boxes[~kept.unsure].tolist()}
        asked_in_all += [int(weak.sum()), int(read_better.sum()), int((~without.unsure).sum())]
    assert (asked_in_all > 0).all()  # the scenes hold boxes of each kind


def test_a_blank_read_fairly_well_is_dropped_only_under_its_own_bar(monkeypatch) -> None:
    # A checker that gives every box it is asked about the same probability, and notes the
    # bars: the unsure blank read at 0.3 or more is asked under its own bar,
    # BLANK_NO_DIE_BELOW, the fair 3 under READ_NO_DIE_BELOW, the weak blank under NO_DIE_BELOW.
    bars_asked: list[list[float]] = []

    def checker_gives(p: float):
        def under(session, crops, below):
            bars = np.broadcast_to(np.asarray(below, np.float32), (len(crops),))
            bars_asked.append(bars.tolist())
            return p < bars

        return under

    found = white_dice(
        [[0, 0, 20, 20], [40, 0, 60, 20], [80, 0, 100, 20], [120, 0, 140, 20]],
        [0, 3, 0, 5],
        unsure=[True, True, True, False],
        confidence=[0.5, 0.5, 0.2, 0.9],
    )
    frame = np.zeros((50, 150, 3), np.uint8)
    between = (die_check.BLANK_NO_DIE_BELOW + die_check.NO_DIE_BELOW) / 2
    monkeypatch.setattr(die_check, "under", checker_gives(between))
    checked = reader._checked(frame, found, ReaderConfig())
    # The weak blank goes (read under 0.3, bar 0.1); the fair blank stays over its own bar,
    # and the sure 5 stays sure: doubting dice read for sure is off by default.
    assert checked.pips.tolist() == [0, 3, 5] and checked.unsure.tolist() == [True, True, False]
    assert bars_asked[-1] == pytest.approx(
        [die_check.BLANK_NO_DIE_BELOW, die_check.READ_NO_DIE_BELOW, die_check.NO_DIE_BELOW]
    )
    # A checker that calls every box no die: the fair blank goes too, under its bar.
    monkeypatch.setattr(die_check, "under", checker_gives(0.0))
    gone = reader._checked(frame, found, ReaderConfig())
    assert gone.pips.tolist() == [5] and not gone.unsure.any()
    kept = reader._checked(frame, found, ReaderConfig(blank_no_die_below=0.0))
    assert kept.pips.tolist() == [0, 5] and kept.unsure.tolist() == [True, False]
    doubting = reader._checked(frame, found, ReaderConfig(doubt_sure_below=0.1))
    assert doubting.pips.tolist() == [5] and doubting.unsure.all()


def test_a_crop_is_under_a_bar_exactly_where_its_mean_reading_is() -> None:
    # `under` reads a crop once where its first reading keeps the mean over the bar: the
    # answers must be those of the full mean, on dice, bare table and noise alike.
    rng = np.random.default_rng(7)
    frame, dice = dice_frame(
        [(100 + 110 * i, 200, 40 + 8 * i, (200, 200, 200), i + 1) for i in range(5)], rng
    )
    table = np.array([[10, 10, 50, 50], [300, 400, 330, 430], [560, 20, 620, 80]], np.float32)
    boxes = np.concatenate([dice, table]).astype(np.float32)
    crops = np.concatenate(
        [die_check.context_crops(frame, boxes), rng.uniform(0, 255, (6, 3, 40, 40))]
    ).astype(np.float32)
    probs = die_check.die_probability(_checker(), crops)
    assert probs.min() < 0.4 < probs.max()  # crops on both sides of the bars
    for below in (0.05, 0.1, 0.3, 0.6):
        assert np.array_equal(die_check.under(_checker(), crops, below), probs < below)
    assert not die_check.under(_checker(), crops, 0.0).any()


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


def test_plain_face_crops_are_dice_of_rendered_scenes_and_simulated_tables() -> None:
    from models import die_check_data

    out = die_check_data._Crops()
    die_check_data.plain_face_crops(out, np.random.default_rng(3), 3)
    arrays = out.arrays()
    assert arrays["crops"].shape[1:] == (3, die_check.CONTEXT_SIZE, die_check.CONTEXT_SIZE)
    assert (arrays["kinds"] == die_check_data.PLAIN_FACE).all()
    # Labelled boxes moved a little, and the reader's boxes on the simulated dice: these
    # scenes' boxes all lie on dice.
    assert arrays["labels"].all() and len(arrays["labels"]) >= 10


def test_speckled_table_scenes_put_the_dice_on_granite_or_in_felt_trays(monkeypatch) -> None:
    from models import die_check_data, render

    asked: list[dict] = []
    render_before = render.render_scene

    def rendered(rng, **kwargs):
        asked.append(kwargs)
        return render_before(rng, **kwargs)

    monkeypatch.setattr(render, "render_scene", rendered)
    out = die_check_data._Crops()
    die_check_data.rendered_crops(out, np.random.default_rng(4), 4, 2, speckled_tables=1.0)
    assert len(asked) == 4
    for kwargs in asked:
        assert kwargs["elevation_deg"] == 90.0 and kwargs["n_dice"] < 16
        assert kwargs.get("felt_trays", False) != kwargs.get("granite_table", False)
    arrays = out.arrays()
    assert arrays["labels"].any() and (arrays["kinds"] >= die_check_data.RENDERED).all()


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

    # Fine-tuned from its file (`train_die_check.py --init`), it starts where it ended.
    from models.nets import DieChecker
    from models.train import from_onnx

    start = from_onnx(tmp_path / "c.onnx", DieChecker()).eval()
    with torch.no_grad():
        again = torch.sigmoid(start(torch.from_numpy(crops[:40].astype(np.float32)))).numpy()
    single = die_check._readings(
        open_session(str(tmp_path / "c.onnx"), 1), crops[:40].astype(np.float32)
    )
    np.testing.assert_allclose(again.ravel(), single, atol=1e-4)
    tuned = train(data, 1, 1, log=lambda msg: None, start=start, lr=1e-4)
    export(tuned, tmp_path / "t.onnx", (1, 3, 40, 40), {"image": {0: "n"}, "out": {0: "n"}})
    probs = die_check.die_probability(
        open_session(str(tmp_path / "t.onnx"), 1), crops[:40].astype(np.float32)
    )
    assert ((probs >= 0.5) == labels[:40].astype(bool)).mean() > 0.8


def test_with_the_doubt_bar_things_that_are_not_dice_are_not_read_as_dice_for_sure() -> None:
    # Rendered tables with coins, chips, screws, caps, lenses, keys and notes among the dice
    # (models/clutter.py): the pip readers read many of them as a blank or a 1 for sure. The
    # bar is off by default (`die_check.DOUBT_SURE_BELOW`): set, it flags them unsure.
    from models.render import render_scene

    rng = np.random.default_rng(2024)
    sure_on_none = {"without": 0, "with": 0}
    dice_found = {"without": 0, "with": 0}
    for _ in range(12):
        frame, truths = render_scene(rng, n_dice=int(rng.integers(2, 9)), clutter=1.0)
        dice = np.array([t.box for t in truths], np.float32).reshape(-1, 4)
        doubting = ReaderConfig(threads=1, doubt_sure_below=0.1)
        for name, cfg in (("without", NOT_ASKED), ("with", doubting)):
            det = read_dice(frame, cfg)
            on, none = _on_die(det.boxes, dice)
            sure_on_none[name] += int((none & ~det.unsure).sum())
            dice_found[name] += int(on.sum())
    assert sure_on_none["without"] >= 4  # the scenes hold such things
    assert sure_on_none["with"] <= sure_on_none["without"] // 4
    assert dice_found["with"] >= dice_found["without"] - 1
