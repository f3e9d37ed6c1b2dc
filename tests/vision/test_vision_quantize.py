"""The 8-bit locator the reader runs finds the same dice as the float network it is made from."""

from __future__ import annotations

import numpy as np
import pytest

from models.quantize import rendered_dice_crops
from models.render import render_scene
from vision import locate
from vision.onnx_models import LOCATOR_FILE, LOCATOR_FLOAT_FILE, model_path, open_session


def _frames(seed: int, count: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [render_scene(rng, n_dice=8, elevation_deg=90.0)[0] for _ in range(count)]


def _boxes(session, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One locator pass at the reader's scale: boxes and scores."""
    return locate.locate_at(session, frame, locate.LOCATOR_LONG_SIDE, 0.3)


def _same_dice(reference, other, tolerance_px: float) -> bool:
    """Whether every clear die (score 0.4 or more) of `reference` is in `other`, at most
    `tolerance_px` away, and `other` has no more than one box more or less."""
    (a, score), (b, _) = reference, other
    if abs(len(a) - len(b)) > 1 or len(b) == 0:
        return len(a) == len(b)
    ca, cb = (a[:, :2] + a[:, 2:]) / 2, (b[:, :2] + b[:, 2:]) / 2
    nearest = np.linalg.norm(ca[:, None] - cb[None], axis=2).min(1)
    return bool(np.all(nearest[score >= 0.4] <= tolerance_px))


# One locator cell at 640x480 (stride 4 at 384 px): 8-bit rounding moves a peak by a few pixels
# now and then, on some frame of a dozen for every locator shipped so far.
ONE_CELL_PX = 4 * 640 / locate.LOCATOR_LONG_SIDE


def _centre_shifts(reference, other) -> np.ndarray:
    """How far each clear die (score 0.4 or more) of `reference` lies from `other`'s nearest."""
    (a, score), (b, _) = reference, other
    ca, cb = (a[:, :2] + a[:, 2:]) / 2, (b[:, :2] + b[:, 2:]) / 2
    return np.linalg.norm(ca[:, None] - cb[None], axis=2).min(1)[score >= 0.4]


def test_shipped_int8_locator_agrees_with_the_float_one() -> None:
    as_float = open_session(str(model_path(LOCATOR_FLOAT_FILE)), 1)
    as_int8 = open_session(str(model_path(LOCATOR_FILE)), 1)
    shifts = []
    for frame in _frames(11, 12):
        reference, other = _boxes(as_float, frame), _boxes(as_int8, frame)
        assert _same_dice(reference, other, ONE_CELL_PX)
        shifts.append(_centre_shifts(reference, other))
    # Most dice do not move at all: a twentieth of a pixel is rounding, a pixel would not be.
    assert np.median(np.concatenate(shifts)) < 0.5


def test_quantizing_the_float_locator(tmp_path) -> None:
    pytest.importorskip("onnx")
    from models.quantize import calibration_frames, quantize_locator

    out = quantize_locator(
        model_path(LOCATOR_FLOAT_FILE),
        tmp_path / "q.onnx",
        calibration_frames(rendered=3, real_every=0),
    )
    assert out.stat().st_size < model_path(LOCATOR_FLOAT_FILE).stat().st_size / 2
    frame = _frames(12, 1)[0]
    as_float = _boxes(open_session(str(model_path(LOCATOR_FLOAT_FILE)), 1), frame)
    assert len(as_float[0]) >= 6
    assert _same_dice(as_float, _boxes(open_session(str(out), 1), frame), 3.0)


def test_quantizing_refuses_a_locator_without_the_layers_kept_in_float(
    tmp_path, monkeypatch
) -> None:
    pytest.importorskip("onnx")
    from models import quantize

    monkeypatch.setattr(quantize, "KEEP_FLOAT", ("/s4/s4.0/s4.0.0/Conv", "/renamed/Conv"))
    with pytest.raises(ValueError, match="/renamed/Conv"):
        quantize.quantize_locator(model_path(LOCATOR_FLOAT_FILE), tmp_path / "q.onnx", iter([]))
    assert not (tmp_path / "q.onnx").exists()


def test_shipped_int8_pip_readers_read_as_the_float_ones() -> None:
    from vision.onnx_models import PIPS_FILES, PIPS_FLOAT_FILES
    from vision.pips import infer

    crops = rendered_dice_crops(21, 12)
    for float_name, int8_name in zip(PIPS_FLOAT_FILES, PIPS_FILES, strict=True):
        as_float = infer(open_session(str(model_path(float_name)), 1), crops)
        as_int8 = infer(open_session(str(model_path(int8_name)), 1), crops)
        sure = as_float.max(1) >= 0.9  # faces the float reader is sure of
        assert sure.sum() >= len(crops) // 2
        same = as_float.argmax(1) == as_int8.argmax(1)
        assert same[sure].mean() >= 0.98, int8_name
        assert np.median(np.abs(as_float - as_int8).max(1)) < 0.02, int8_name


def test_quantizing_a_float_pip_reader(tmp_path) -> None:
    pytest.importorskip("onnx")
    from models.quantize import quantize_pip_reader
    from vision.onnx_models import PIPS_FLOAT_FILES
    from vision.pips import infer

    source = model_path(PIPS_FLOAT_FILES[0])
    out = quantize_pip_reader(source, tmp_path / "q.onnx", rendered_dice_crops(3, 4))
    assert out.stat().st_size < source.stat().st_size / 2
    crops = rendered_dice_crops(22, 3)
    as_float = infer(open_session(str(source), 1), crops)
    as_int8 = infer(open_session(str(out), 1), crops)
    assert (as_float.argmax(1) == as_int8.argmax(1)).mean() >= 0.9
    # Its weights leave room for CPUs whose 8-bit kernels sum in 16 bits.
    from vision import int8_check

    assert int8_check.moved_by_kernels(str(out), crops) < int8_check.MOST_MOVED
    with pytest.raises(ValueError, match="no calibration crops"):
        quantize_pip_reader(source, tmp_path / "none.onnx", np.zeros((0, 3, 40, 40), np.float32))
