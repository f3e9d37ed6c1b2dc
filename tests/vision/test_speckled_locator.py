"""A speckled frame (a granite top, felt trays on one, a noisy phone photo) is looked at with the
locator that learnt speckled tables (`reader.locator_for`, `models/locator_speckled_int8.onnx`);
every other frame with the usual one."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from vision_synth import granite_top, sim_table_frame

from models import real_sets
from models.render import render_scene
from vision import locate
from vision.onnx_models import (
    LOCATOR_FILE,
    SPECKLED_LOCATOR_FILE,
    SPECKLED_LOCATOR_FLOAT_FILE,
    model_path,
    open_session,
)
from vision.reader import ReaderConfig, locator_for, read_dice

USUAL = ReaderConfig(speckled_locator=False)


@pytest.mark.parametrize("width, height", [(640, 480), (1280, 720)])
def test_the_simulated_table_is_looked_at_with_the_usual_locator(width: int, height: int) -> None:
    frame = sim_table_frame(width, height, "green")
    assert locator_for(frame, ReaderConfig()) == str(model_path(LOCATOR_FILE))


def test_a_granite_top_is_looked_at_with_the_speckled_table_locator() -> None:
    frame = granite_top(5)
    assert locator_for(frame, ReaderConfig()) == str(model_path(SPECKLED_LOCATOR_FILE))
    assert locator_for(frame, USUAL) == str(model_path(LOCATOR_FILE))
    chosen = ReaderConfig(locator_model="plain.onnx", speckled_locator_model="speckled.onnx")
    assert locator_for(frame, chosen) == "speckled.onnx"
    assert locator_for(sim_table_frame(640, 480, "green"), chosen) == "plain.onnx"


def test_the_fleck_bar_for_the_switch_is_a_setting() -> None:
    frame = granite_top(5)
    flecks = locate.flecks(frame, locate.LOCATOR_LONG_SIDE)
    assert flecks >= locate.FLECKS
    above = ReaderConfig(speckled_locator_from=flecks + 0.5)
    at = ReaderConfig(speckled_locator_from=flecks)
    assert locator_for(frame, above) == str(model_path(LOCATOR_FILE))
    assert locator_for(frame, at) == str(model_path(SPECKLED_LOCATOR_FILE))
    plain = sim_table_frame(640, 480, "green")
    assert locator_for(plain, ReaderConfig(speckled_locator_from=0.0)) == str(
        model_path(SPECKLED_LOCATOR_FILE)
    )


def _located(session, frame: np.ndarray, threshold: float) -> tuple[np.ndarray, np.ndarray]:
    return locate.locate(session, frame, threshold)


@pytest.mark.parametrize("seed", [3, 7])
def test_the_speckled_table_locator_in_8_bits_agrees_with_its_float(seed: int) -> None:
    frame, _truths = render_scene(
        np.random.default_rng(seed), n_dice=8, elevation_deg=90.0, felt_trays=True
    )
    as_float = _located(open_session(str(model_path(SPECKLED_LOCATOR_FLOAT_FILE)), 1), frame, 0.2)
    as_int8 = _located(open_session(str(model_path(SPECKLED_LOCATOR_FILE)), 1), frame, 0.3)
    clear = as_float[0][as_float[1] >= 0.4]
    assert len(clear) >= 6
    centres = (clear[:, :2] + clear[:, 2:]) / 2
    near = (as_int8[0][:, :2] + as_int8[0][:, 2:]) / 2
    # Every clear die of the float locator is boxed in 8 bits too, within a few pixels ...
    assert np.linalg.norm(centres[:, None] - near[None], axis=2).min(1).max() < 4
    # ... and nothing else (the usual locator boxes 4 and 19 flecks of these scenes).
    assert locate.on_one_die(as_int8[0], as_float[0]).all()


def _tally(frame: np.ndarray, truths, cfg: ReaderConfig) -> tuple[int, int]:
    """How many rendered dice the reader finds, and how many boxes it gives on no die."""
    dice = np.array([t.box for t in truths], np.float32).reshape(-1, 4)
    boxes = read_dice(frame, cfg).boxes
    if not len(boxes):
        return 0, 0
    found = sum(bool(locate.on_one_die(boxes, die[None]).any()) for die in dice)
    return found, int((~locate.on_one_die(boxes, dice)).sum())


@pytest.mark.parametrize("seed", [3, 7, 8, 11])
def test_no_box_on_the_strips_between_felt_trays(seed: int) -> None:
    # The usual locator boxes flecks of the granite between and around the trays (1-7 boxes
    # these scenes), read unsure; every one of them would hold a roll up at the table.
    frame, truths = render_scene(
        np.random.default_rng(seed), n_dice=8, elevation_deg=90.0, felt_trays=True
    )
    found_before, stray_before = _tally(frame, truths, USUAL)
    found, stray = _tally(frame, truths, ReaderConfig())
    assert stray_before > 0
    assert stray == 0
    assert found == found_before == len(truths)


def test_more_dice_are_found_on_a_granite_table() -> None:
    before = after = 0
    stray_before = stray_after = 0
    for seed in range(8, 24):
        frame, truths = render_scene(
            np.random.default_rng(seed), n_dice=8, elevation_deg=90.0, granite_table=True
        )
        found, stray = _tally(frame, truths, USUAL)
        before, stray_before = before + found, stray_before + stray
        found, stray = _tally(frame, truths, ReaderConfig())
        after, stray_after = after + found, stray_after + stray
    assert after >= before + 3
    assert stray_after < stray_before


def test_the_grey_and_white_photos_are_never_looked_at_with_it() -> None:
    # So they read die for die as with the usual locator alone.
    sets = {name: s for name, s in real_sets.real_sets().items() if s.available()}
    wanted = ("dice-photos-topdown-grey", "dice-photos-oblique-white")
    if not all(name in sets for name in wanted):
        pytest.skip("the grey and white dice photos are not in ../shared/data")
    for name in wanted:
        for item in sets[name].photos("all"):
            frame = cv2.imread(str(item.image))
            assert locator_for(frame, ReaderConfig()) == str(model_path(LOCATOR_FILE))
