"""The fixed split of the real photo sets, whole-die label matching, and the reader's bounded
work on a frame boxed all over."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from vision_synth import white_dice

from models import real_sets
from models.devdata import UNKNOWN_PIPS, Labelled, Score, share_interval
from vision import closer, crops


def _one_die_labelled() -> Labelled:
    """A photo with one die showing 4, labelled around its whole body (10..50 px)."""
    return Labelled(
        Path("p.jpg"),
        np.array([[30.0, 30.0]]),
        np.array([4]),
        die_boxes=np.array([[10.0, 10.0, 50.0, 50.0]]),
    )


def test_a_whole_die_label_matches_only_a_box_centred_in_it() -> None:
    # One die labelled 10..50; the reader gives a box far larger that holds the label's centre
    # (its own centre lies outside the label's box) and a box on no labelled die.
    truth = _one_die_labelled()
    score = Score()
    score.add(truth, white_dice([[0, 0, 200, 200], [300, 300, 340, 340]], [4, 2], [False] * 2))
    assert (score.found, score.unmatched_predictions) == (0, 2)
    score.add(truth, white_dice([[12, 12, 52, 52]], [5], [False]))
    assert (score.found, score.sure_wrong, score.photos) == (1, 1, 2)
    summary = score.summary()
    assert summary["sure_wrong_pct"] == 50.0
    assert summary["no_die_per_100_photos"] == 100.0


def test_boxes_on_a_photo_with_no_labelled_die_are_counted_apart() -> None:
    # A photo whose dice were left unlabelled: every box on it is on no labelled die, and the
    # score says how many of those lie on such photos.
    score = Score()
    score.add(_one_die_labelled(), white_dice([[12, 12, 52, 52]], [4], [False]))
    bare = Labelled(Path("q.jpg"), np.zeros((0, 2)), np.zeros(0, int), die_boxes=np.zeros((0, 4)))
    score.add(bare, white_dice([[0, 0, 40, 40], [60, 0, 100, 40]], [3, 5], [False, True]))
    summary = score.summary()
    assert summary["unmatched_predictions"] == 2
    assert (summary["unlabelled_photos"], summary["boxes_on_unlabelled_photos"]) == (1, 2)


def test_boxes_on_no_die_read_for_sure_are_counted_apart() -> None:
    # Of three boxes on no labelled die, two are read for sure: dice the table would add unseen.
    score = Score()
    boxes = [[12, 12, 52, 52], [100, 0, 140, 40], [200, 0, 240, 40], [300, 0, 340, 40]]
    score.add(_one_die_labelled(), white_dice(boxes, [4, 3, 5, 1], [True, False, True, False]))
    summary = score.summary()
    assert (score.unmatched_predictions, score.sure_unmatched_predictions) == (3, 2)
    assert summary["sure_no_die_per_100_photos"] == 200.0


def test_a_wrong_reading_flagged_unsure_is_not_counted_sure_and_wrong() -> None:
    truth = _one_die_labelled()
    score = Score()
    score.add(truth, white_dice([[12, 12, 52, 52]], [5], [True]))
    assert (score.found, score.unsure, score.sure_wrong) == (1, 1, 0)


def _sets_present() -> dict[str, real_sets.RealSet]:
    sets = {name: s for name, s in real_sets.real_sets().items() if s.available()}
    if len(sets) < 3:
        pytest.skip("the real photo sets are not all in ../shared/data")
    return sets


def test_the_split_file_is_what_its_rule_makes(tmp_path: Path) -> None:
    _sets_present()
    written = tmp_path / "split.json"
    real_sets.write_split(written)
    assert json.loads(written.read_text()) == json.loads(real_sets.SPLIT_FILE.read_text())


def test_the_held_out_part_is_about_a_third_and_shares_no_photo_with_training() -> None:
    for real in _sets_present().values():
        train = {item.image.name for item in real.photos("train")}
        held = {item.image.name for item in real.photos("holdout")}
        assert train and held and not train & held
        assert len(train | held) == len(real.photos("all"))
        assert 0.2 <= len(held) / len(train | held) <= 0.4


def test_the_tuning_part_is_a_fifth_of_training_and_fit_is_the_rest() -> None:
    for real in _sets_present().values():
        train = {item.image.name for item in real.photos("train")}
        fit = {item.image.name for item in real.photos("fit")}
        tune = {item.image.name for item in real.photos("tune")}
        assert fit | tune == train and not fit & tune
        if real.boxes == "whole die":
            assert 0.1 <= len(tune) / len(train) <= 0.3
        else:
            assert not tune


def test_whole_die_labels_are_read_in_pixels_around_each_die() -> None:
    real = _sets_present()["dice-photos-topdown-grey"]
    item = real.photos("holdout")[0]
    assert item.die_boxes is not None and len(item.die_boxes) == len(item.pips)
    h, w = cv2.imread(str(item.image)).shape[:2]
    inside = (item.die_boxes[:, :2] <= item.centres) & (item.centres <= item.die_boxes[:, 2:])
    assert inside.all() and item.die_boxes.max() <= max(h, w) + 1
    assert set(item.pips) <= set(range(1, 7))


def test_a_frame_boxed_all_over_gets_a_bounded_number_of_closer_looks(monkeypatch) -> None:
    """A photo whose speckled table the locator boxes hundreds of times (487 closer searches
    and about 30 s on one core before the bounds) is looked at closer a bounded number of
    times."""
    real = _sets_present()["dice-photos-oblique-coloured"]
    photo = real.folder / "images" / "dice_164_jpg.rf.654bf6629410664e4c705a7a42031846.jpg"
    if not photo.is_file():
        pytest.skip("the speckled photo is not in the set")
    from vision.reader import read_dice

    calls = {"window": 0, "inside": 0, "looks": 0}
    for name, key in (
        ("_boxes_nearby", "window"),
        ("_die_inside", "inside"),
        ("look_closer", "looks"),
    ):
        original = getattr(closer, name)

        def counted(*args, _original=original, _key=key, **kwargs):
            calls[_key] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(closer, name, counted)
    read_dice(cv2.imread(str(photo)))
    assert calls["looks"] >= 1
    assert calls["window"] <= closer.MOST_CLOSER_LOOKS * calls["looks"]
    assert calls["inside"] <= closer.MOST_INNER_SEARCHES * calls["looks"]


def test_a_huge_box_is_shrunk_first_and_cut_where_the_blurred_frame_is_cut() -> None:
    frame = np.full((720, 1280, 3), 40, np.uint8)
    cv2.rectangle(frame, (560, 260), (720, 420), (230, 230, 230), -1)  # a bright square
    cv2.circle(frame, (600, 300), 12, (0, 0, 0), -1)  # a dark spot at its upper left
    box = np.array([[340.0, 60.0, 940.0, 660.0]])
    shrunk = crops.crop_dice(frame, box)[0]
    saved = crops.SHRINK_FIRST_BELOW
    try:
        crops.SHRINK_FIRST_BELOW = 0.0  # blur the whole region, as before
        blurred = crops.crop_dice(frame, box)[0]
    finally:
        crops.SHRINK_FIRST_BELOW = saved
    assert np.abs(shrunk - blurred).mean() < 2.0

    def bright_centre(crop: np.ndarray) -> np.ndarray:
        mask = crop.mean(0) > 120
        return np.argwhere(mask).mean(0)

    assert np.abs(bright_centre(shrunk) - bright_centre(blurred)).max() < 0.5


def test_white_dice_under_a_coloured_lamp_are_not_named_orange_for_sure() -> None:
    """A training-part phone photo under a pinkish lamp, its white dice peach and its orange
    dice little more colourful: the light judged from the dice went the wrong way and named
    six white dice orange for sure. Now a white die is named white or in doubt."""
    vision_sets = _vision_sets()

    from models.devdata import matched_boxes
    from vision.reader import ReaderConfig, read_dice

    real = _sets_present()["dice-photos-oblique-coloured"]
    colours = json.loads(vision_sets.COLOUR_FILE.read_text())[real.name]
    (item,) = [
        photo
        for photo in vision_sets.with_colours(real.photos("train"), colours)
        if photo.image.name.startswith("dice_391_")
    ]
    cfg = ReaderConfig()
    palette = cfg.palette.in_play_only(vision_sets.colours_in_play(item))
    read = read_dice(cv2.imread(str(item.image)), ReaderConfig(palette=palette))
    matched = matched_boxes(read.boxes, item.centres, item.die_boxes)
    white = [
        j
        for j, colour in zip(matched, item.colours, strict=True)
        if j is not None and colour == "white"
    ]
    assert len(white) >= 5
    assert all(read.colour[j] == "white" or read.colour_doubt[j] for j in white)


def test_a_share_of_few_dice_is_given_with_the_wide_interval_it_carries() -> None:
    # Wilson's interval: none of 10 may still be 28 %, all of 10 as little as 72 %.
    assert share_interval(0, 10) == (0.0, pytest.approx(27.754, abs=1e-3))
    assert share_interval(10, 10) == (pytest.approx(72.246, abs=1e-3), 100.0)
    low, high = share_interval(148, 150)
    assert (round(low, 1), round(high, 1)) == (95.3, 99.6)
    assert share_interval(1480, 1500)[1] - share_interval(1480, 1500)[0] < high - low
    assert share_interval(0, 0) == (0.0, 100.0)  # nothing counted: nothing known


def test_a_sets_counts_are_printed_with_their_intervals() -> None:
    vision_sets = _vision_sets()
    score = Score()
    # Three photos of one die showing 4: read right for sure, read 5 for sure, and missed.
    score.add(_one_die_labelled(), white_dice([[12, 12, 52, 52]], [4], [False]))
    score.add(_one_die_labelled(), white_dice([[12, 12, 52, 52]], [5], [False]))
    score.add(_one_die_labelled(), white_dice([], [], []))
    intervals = score.intervals()
    assert intervals["found"] == (2, 3, *share_interval(2, 3))
    assert intervals["right pips"][:2] == (1, 2)
    assert intervals["sure but wrong"][:2] == (1, 3)
    line = vision_sets.interval_line(intervals)
    assert line.startswith("counted, with 95 % intervals: found 2 of 3 (20.8-93.9 %)")
    assert "right pips 1 of 2 (" in line and "sure but wrong 1 of 3 (" in line
    # A set whose dice were never found says nothing of pips it never read.
    assert "right pips" not in vision_sets.interval_line(Score().intervals())


def _vision_sets():
    """The benchmark module `benchmarks/vision_sets.py`, imported from its folder."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import vision_sets

    return vision_sets


def test_dice_are_tallied_by_their_size_at_a_webcams_width() -> None:
    vision_sets = _vision_sets()
    # A 1280 px photo: label sides 40 and 200 px are 20 and 100 px at 640.
    truth = Labelled(
        Path("p.jpg"),
        np.array([[30.0, 30.0], [400.0, 400.0]]),
        np.array([4, 2]),
        die_boxes=np.array([[10.0, 10.0, 50.0, 50.0], [300.0, 300.0, 500.0, 500.0]]),
    )
    read = white_dice([[12, 12, 52, 52], [300, 300, 500, 500]], [4, 3], [False, False])
    tally: dict[str, list[int]] = {}
    vision_sets.tally_sizes(tally, truth, read, (960, 1280, 3))
    assert tally == {"18-25 px": [1, 1, 1, 0, 0, 1], "80 px and more": [1, 1, 0, 0, 1, 1]}
    table = vision_sets.size_table(tally)
    assert list(table) == ["18-25 px", "80 px and more"]
    assert table["80 px and more"]["pips_pct"] == 0.0
    assert [vision_sets.size_group(s) for s in (10, 18, 79.9)] == [
        "under 18 px",
        "18-25 px",
        "50-80 px",
    ]
    # Labels around the top face only (the oblique white set) give no size.
    vision_sets.tally_sizes(
        tally, Labelled(Path("q.jpg"), truth.centres, truth.pips), read, (960, 1280, 3)
    )
    assert sum(row[0] for row in tally.values()) == 2
    # A die labelled without pips is found, but neither right nor read for sure but wrong.
    vision_sets.tally_sizes(
        tally, replace(truth, pips=np.array([4, UNKNOWN_PIPS])), read, (960, 1280, 3)
    )
    assert tally["80 px and more"] == [2, 2, 0, 0, 1, 1]
    assert vision_sets.size_table(tally)["80 px and more"]["pips_pct"] == 0.0
