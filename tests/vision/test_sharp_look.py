"""A small photo enlarged for its small dice is also looked at sharper, and the dice only that
look finds join where the die checker backs them (`reader._with_sharp_look`)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from vision_synth import white_dice

from models import real_sets
from models.devdata import Labelled, matched_boxes
from vision import die_check, reader
from vision.detections import Detections
from vision.reader import ReaderConfig, read_dice


def _square(x: float, y: float, side: float) -> list[float]:
    return [x, y, x + side, y + side]


@pytest.fixture
def sharp_look_of(monkeypatch):
    """`_with_sharp_look` on a 640 px frame whose first look, at `long_side`, read `found`,
    where the sharper look locates `dice` and the checker gives them `likely`; the boxes that
    look was asked to read are kept."""

    def run(
        found: Detections, long_side: int, dice: Detections, likely: list[float]
    ) -> tuple[Detections, list]:
        asked: list[np.ndarray] = []

        def sharp(loc, readers, frame, cfg, side, only, palette):
            assert side == round(reader.SHARP_LOOK * 640)
            chosen = only(dice.boxes)
            asked.append(chosen)
            return reader._Look(dice.select(chosen), side, "front", palette, np.zeros((0, 4)))

        def checker(session, crops):
            assert len(crops) == asked[0].sum()
            return np.asarray(likely, np.float32)[asked[0]]

        monkeypatch.setattr(reader, "_read_look", sharp)
        monkeypatch.setattr(reader.die_check, "die_probability", checker)
        first = reader._Look(found, long_side, "front", None, np.zeros((0, 4)))  # type: ignore[arg-type]
        joined = reader._with_sharp_look(
            None, [], np.zeros((640, 640, 3), np.uint8), ReaderConfig(), first
        )  # type: ignore[arg-type]
        return joined.found, asked

    return run


def test_the_sharp_look_adds_only_new_dice_the_checker_backs(sharp_look_of) -> None:
    found = white_dice([_square(100, 100, 20), _square(300, 100, 20)], [3, 5])
    sharp = white_dice(
        [
            _square(100, 300, 20),  # a new die the checker backs: joins, unsure as it was read
            _square(102, 102, 20),  # the first die again: not even read
            _square(300, 300, 20),  # a new box the checker calls a speck
            _square(500, 500, 20),  # a new die for sure, backed just enough
        ],
        [4, 3, 2, 6],
        unsure=[True, False, False, False],
    )
    bar = die_check.SHARP_DIE_FROM
    joined, asked = sharp_look_of(found, 900, sharp, [0.9, 0.9, bar - 0.01, bar])
    assert asked[0].tolist() == [True, False, True, True]
    assert joined.pips.tolist() == [3, 5, 4, 6]
    assert joined.unsure.tolist() == [False, False, True, False]


def test_no_sharp_look_where_the_frame_was_not_enlarged(sharp_look_of) -> None:
    found = white_dice([_square(100, 100, 40)], [3])
    joined, asked = sharp_look_of(found, 640, white_dice([_square(0, 0, 40)], [2]), [1.0])
    assert asked == [] and len(joined) == 1


def test_the_sharp_look_is_off_at_zero_and_where_pips_are_not_needed(monkeypatch) -> None:
    def looked(*_args):
        raise AssertionError("the sharper look was taken")

    monkeypatch.setattr(reader, "_with_sharp_look", looked)
    # Two white squares on a grey table: the reader runs its looks whatever it finds.
    frame = np.full((240, 320, 3), 200, np.uint8)
    frame[40:54, 40:54] = frame[120:134, 200:214] = 250
    read_dice(frame, ReaderConfig(sharp_die_from=0.0))
    read_dice(frame, ReaderConfig(pips_needed=False))
    with pytest.raises(AssertionError, match="sharper look"):
        read_dice(frame, ReaderConfig())


def _coloured_photo(part: str, stem_start: str) -> Labelled:
    sets = {name: s for name, s in real_sets.real_sets().items() if s.available()}
    if "dice-photos-oblique-coloured" not in sets:
        pytest.skip("the coloured phone photos are not in ../shared/data")
    for item in sets["dice-photos-oblique-coloured"].photos(part):
        if item.image.name.startswith(stem_start + "_"):
            return item
    pytest.skip(f"photo {stem_start} is not in the set")


@pytest.mark.parametrize("part, stem", [("fit", "dice_242"), ("tune", "dice_336")])
def test_small_dice_on_a_board_in_a_small_photo_are_found(part: str, stem: str) -> None:
    # 640 px phone photos of a Catan board with two dice of 20-27 px on it: the first look
    # enlarges the photo to about 800 px and misses a die, the sharper look at 512 boxes it
    # (so, on the second photo, do the look with its noise smoothed out and the locator that
    # learnt speckled tables: both off here, and on by default).
    item = _coloured_photo(part, stem)
    frame = cv2.imread(str(item.image))

    def found(cfg: ReaderConfig) -> int:
        dice = read_dice(frame, cfg)
        return sum(m is not None for m in matched_boxes(dice.boxes, item.centres, item.die_boxes))

    usual = ReaderConfig(smooth_die_from=0.0, speckled_locator=False)
    assert found(replace(usual, sharp_die_from=0.0)) < len(item.centres)
    assert found(usual) == len(item.centres)
    assert found(ReaderConfig()) == len(item.centres)
