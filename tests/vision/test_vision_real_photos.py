"""The reader on real webcam photos of white dice (skipped where the photos are missing)."""

from __future__ import annotations

import cv2
import pytest

from models.devdata import Score, close_up
from models.yolo_folders import load_split
from vision.reader import read_dice


def test_valid_photos_sample(dev_photos) -> None:
    # A quick sample keeps the suite fast; benchmarks/vision_eval.py scores every photo.
    score = Score()
    for item in load_split("Valid", dev_photos)[::3]:
        score.add(item, read_dice(cv2.imread(str(item.image))))
    s = score.summary()
    # Valid is never trained on. Over all of it: found 99.6 %, pips 99.2 %; this third of it
    # (86 dice) gives 98.8 % and 97.6 %, so a one-die slip does not fail the suite.
    assert s["found_pct"] >= 96.0, s
    assert s["pips_pct"] >= 95.0, s
    assert s["pips_pct_of_sure"] >= 97.0, s


def test_real_locator_frames_hold_a_box_for_the_labelled_dice(dev_photos) -> None:
    import numpy as np

    from models.real_crops import real_frames

    items = load_split("Valid", dev_photos)
    data = real_frames(["Valid"], dev_photos)
    assert data["frames"].shape == (len(items), 240, 320, 3)
    boxes = data["boxes"]
    assert set(np.unique(boxes[:, 4]).astype(int)) <= set(range(len(items)))
    # Every found labelled die gives one box; the locator finds nearly all of them.
    labelled = sum(len(item.centres) for item in items)
    assert 0.95 * labelled <= len(boxes) <= labelled
    assert np.all(boxes[:, 2:4] > boxes[:, :2]) and boxes[:, 2].max() <= 320


def test_a_real_die_cut_by_the_frame_is_reported_unsure(dev_photos) -> None:
    # valid_23: one labelled die mid-frame, and a second at the right edge that the frame cuts
    # through its top face (not labelled: its pips cannot all be seen).
    det = read_dice(cv2.imread(str(dev_photos / "Valid" / "valid_23.jpg")))
    at_edge = det.boxes[:, 2] >= 637
    assert at_edge.sum() == 1 and det.unsure[at_edge].all()
    assert (~at_edge).sum() == 1 and det.pips[~at_edge].tolist() == [4]


@pytest.mark.parametrize(
    "dice_high",
    [
        2.0,  # the die fills half the frame's height: too large for the usual look
        1.5,  # two thirds of it, its neighbours cut by the frame
    ],
)
def test_a_close_up_of_a_real_die_is_read(dev_photos, dice_high) -> None:
    # Every fourth labelled die of Valid, cut out and enlarged: the usual look boxes such a
    # die's pips as small dice (37 % and 3 % found before the look for large dice).
    score = Score()
    for item in load_split("Valid", dev_photos)[::4]:
        frame = cv2.imread(str(item.image))
        for die in range(len(item.centres)):
            one, cut = close_up(item, frame, die, dice_high)
            score.add(one, read_dice(cut))
    s = score.summary()
    # Over all 255 dice: 98.8 / 98.4 % found (2 and 1.5 dice high), pips of those 98.4 / 98.8 %.
    assert s["labelled"] >= 50
    assert s["found_pct"] >= 94.0, s
    assert s["pips_pct"] >= 94.0, s


def test_painted_locator_frames_keep_each_photo_s_boxes(dev_photos, tmp_path) -> None:
    import numpy as np

    from models.real_crops import real_frames

    # Three photos of Valid, each followed by two copies with its dice painted.
    (tmp_path / "Valid").mkdir()
    for name in ("valid_1", "valid_28", "valid_63"):
        for suffix in (".jpg", ".txt"):
            (tmp_path / "Valid" / f"{name}{suffix}").symlink_to(
                dev_photos / "Valid" / f"{name}{suffix}"
            )
    data = real_frames(["Valid"], tmp_path, paintings=2, seed=3)
    frames, boxes = data["frames"], data["boxes"]
    assert frames.shape == (9, 240, 320, 3)
    for photo in range(3):
        white = boxes[boxes[:, 4] == 3 * photo][:, :4]
        assert len(white) >= 1
        for copy in (1, 2):
            np.testing.assert_array_equal(boxes[boxes[:, 4] == 3 * photo + copy][:, :4], white)
            changed = np.abs(frames[3 * photo + copy].astype(int) - frames[3 * photo]).max(2) > 40
            # The paint lies on the dice: within their boxes, grown by half a die.
            near = np.zeros(changed.shape, bool)
            for x0, y0, x1, y1 in white:
                w, h = (x1 - x0) / 2, (y1 - y0) / 2
                near[max(int(y0 - h), 0) : int(y1 + h), max(int(x0 - w), 0) : int(x1 + w)] = True
            assert changed.any() and not (changed & ~near).any()


def test_painted_crops_follow_their_photo_s_dice(dev_photos, tmp_path) -> None:
    import numpy as np

    from models.real_crops import real_crops

    # valid_63 holds five labelled dice; two painted copies follow the photo as taken.
    (tmp_path / "Valid").mkdir()
    for suffix in (".jpg", ".txt"):
        (tmp_path / "Valid" / f"valid_63{suffix}").symlink_to(
            dev_photos / "Valid" / f"valid_63{suffix}"
        )
    white = real_crops(["Valid"], 3, seed=5, root=tmp_path)
    both = real_crops(["Valid"], 3, seed=5, root=tmp_path, paintings=2)
    block = len(white["labels"])
    assert block >= 12 and len(both["labels"]) == 3 * block
    # The photo as taken comes first, cut as without paintings.
    np.testing.assert_array_equal(both["crops"][:block], white["crops"])

    def saturation(crops: np.ndarray) -> np.ndarray:
        """Mean HSV saturation of each crop's middle (the die's top face)."""
        return np.array(
            [
                cv2.cvtColor(c.transpose(1, 2, 0)[12:28, 12:28], cv2.COLOR_BGR2HSV)[..., 1].mean()
                for c in crops
            ]
        )

    white_saturation = np.median(saturation(white["crops"]))
    for copy in (1, 2):
        labels = both["labels"][copy * block : (copy + 1) * block]
        # A painted die keeps its pips, or is a blank grey one.
        assert ((labels == white["labels"]) | (labels == 0)).all()
        painted = saturation(both["crops"][copy * block : (copy + 1) * block])
        # Coloured dice are saturated, white ones (and blank grey ones) are not.
        assert np.median(painted[labels != 0]) > white_saturation + 40


def test_grey_blank_dice_in_a_blue_light_are_kept_grey_and_in_doubt(
    dev_photos, monkeypatch
) -> None:
    import numpy as np

    from models import paint_dice
    from models.devdata import matched_boxes
    from vision import reader

    # Every die of five Valid photos painted the grey of Royale's blank dice, then the whole
    # photo lit blue: the default palette names some of these dice blue or dark blue, and a
    # blank face on a blue die would be no die at all (a cap, a printed disc).
    items = {item.image.stem: item for item in load_split("Valid", dev_photos)}
    photos = []
    for name in ("valid_18", "valid_50", "valid_59", "valid_72", "valid_83"):
        item = items[name]
        frame = cv2.imread(str(item.image))
        for mask in paint_dice.die_masks(frame, item):
            frame = paint_dice.paint_die(frame, mask, (140, 140, 138), None)
        blue = np.clip(frame * np.float32([1.35, 1.0, 0.8]), 0, 255).astype(np.uint8)
        photos.append((item, blue))

    def grey_dice() -> tuple[int, int]:
        """How many labelled dice are read as blank grey dice, and how many of those unsure."""
        kept = unsure = 0
        for item, blue in photos:
            det = read_dice(blue)
            for j in matched_boxes(det.boxes, item.centres):
                if j is not None:
                    assert det.pips[j] == 0 and det.colour[j] == "grey"
                    kept += 1
                    unsure += bool(det.unsure[j])
        return kept, unsure

    kept, unsure = grey_dice()
    # 19 of the 21 dice are kept, most of them flagged unsure; without the rule for tinted
    # grey dice only those named grey outright are (11, their body measured on the top face).
    assert kept >= 17 and unsure >= 10
    monkeypatch.setattr(reader, "TINTED_GREY", 0.0)
    assert grey_dice()[0] <= kept - 6
