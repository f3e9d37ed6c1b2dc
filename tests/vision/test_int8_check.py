"""The reader runs the shipped 8-bit pip readers only where this CPU computes them exactly."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from vision import int8_check, onnx_models
from vision.onnx_models import PIPS_FILES, PIPS_FLOAT_FILES, model_path, open_session
from vision.reader import ReaderConfig, pip_readers


@pytest.fixture
def checked_anew():
    """The check's answer forgotten before and after the test."""
    int8_check.pip_reader_files.cache_clear()
    yield
    int8_check.pip_reader_files.cache_clear()


def test_the_shipped_readers_run_where_this_cpu_computes_them_exactly(checked_anew) -> None:
    assert int8_check.pip_reader_files() == tuple(str(model_path(name)) for name in PIPS_FILES)
    cfg = ReaderConfig()
    assert pip_readers(cfg) == [
        open_session(path, cfg.threads) for path in int8_check.pip_reader_files()
    ]


def test_a_reader_this_cpu_computes_otherwise_gives_way_to_its_float_network(
    checked_anew, monkeypatch, caplog
) -> None:
    # Kernels that read `pips_alt` as its float network does, not as its 8-bit arithmetic says.
    altered = str(model_path(PIPS_FILES[1]))

    def session(path: str, threads: int = 1, exact: bool = False):
        if path == altered and not exact:
            path = str(model_path(PIPS_FLOAT_FILES[1]))
        return onnx_models.new_session(path, threads, exact)

    monkeypatch.setattr(int8_check, "new_session", session)
    with caplog.at_level(logging.WARNING, logger="vision.int8_check"):
        chosen = int8_check.pip_reader_files()
    assert chosen == (
        str(model_path(PIPS_FILES[0])),
        str(model_path(PIPS_FLOAT_FILES[1])),
        str(model_path(PIPS_FILES[2])),
    )
    assert "pips_alt_int8.onnx reads otherwise on this CPU" in caplog.text


def test_the_float_network_moves_past_the_bar_and_the_8_bit_kernels_do_not() -> None:
    # On x86 CPUs without VNNI the runtime's 8-bit kernels sum products in 16 bits; readers
    # whose weights use all 8 bits overflow there and read otherwise than on other CPUs.
    crops = np.load(model_path(int8_check.PROBE_FILE)).astype(np.float32)
    for int8_name, float_name in zip(PIPS_FILES, PIPS_FLOAT_FILES, strict=True):
        path = str(model_path(int8_name))
        assert int8_check.moved_by_kernels(path, crops) < int8_check.MOST_MOVED
        fast = int8_check.pips.infer(open_session(path, 1), crops)
        exact = int8_check.pips.infer(onnx_models.new_session(path, exact=True), crops)
        assert (fast.argmax(1) == exact.argmax(1)).mean() >= 0.99, int8_name
        as_float = int8_check.pips.infer(
            onnx_models.new_session(str(model_path(float_name))), crops
        )
        # Float against 8-bit arithmetic differs by rounding alone, and the bar still sees it.
        assert np.median(np.abs(as_float - exact).max(1)) > int8_check.MOST_MOVED


def test_without_its_probe_the_check_keeps_the_shipped_readers_and_says_so(
    checked_anew, monkeypatch, caplog
) -> None:
    monkeypatch.setattr(int8_check, "PROBE_FILE", "no_such_probe.npy")
    with caplog.at_level(logging.WARNING, logger="vision.int8_check"):
        chosen = int8_check.pip_reader_files()
    assert chosen == tuple(str(model_path(name)) for name in PIPS_FILES)
    assert "not checked" in caplog.text


def test_a_reader_that_cannot_be_checked_is_kept_and_the_log_says_so(
    checked_anew, monkeypatch, caplog
) -> None:
    def session(path: str, threads: int = 1, exact: bool = False):
        if exact:
            raise RuntimeError("no such optimization level here")
        return onnx_models.new_session(path, threads)

    monkeypatch.setattr(int8_check, "new_session", session)
    with caplog.at_level(logging.WARNING, logger="vision.int8_check"):
        chosen = int8_check.pip_reader_files()
    assert chosen == tuple(str(model_path(name)) for name in PIPS_FILES)
    assert caplog.text.count("was not checked on this CPU (no such optimization level") == 3


def test_the_shipped_probe_is_crops_of_rendered_dice() -> None:
    probe = np.load(model_path(int8_check.PROBE_FILE))
    assert probe.dtype == np.uint8 and probe.shape[1:] == (3, 40, 40) and len(probe) >= 16
    from models.quantize import PROBE_SCENES, pip_probe_crops

    made = pip_probe_crops(scenes=1)
    assert made.dtype == np.uint8 and made.shape == (8, 3, 40, 40)
    assert len(probe) == 8 * PROBE_SCENES
