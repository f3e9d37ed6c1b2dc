"""Whether the shipped 8-bit pip readers compute, on this CPU, what their arithmetic says.

A CPU's 8-bit kernels may take shortcuts: x86 CPUs without VNNI add each pair of products into
16 bits and clip what does not fit. The shipped readers' weights use 7 bits so that no CPU known
clips them (model card, "The pip readers' weights in 7 bits"). Should a CPU or a release of ONNX
Runtime read them otherwise all the same, the reader runs the float readers there, a little
slower, and logs why.
"""

from __future__ import annotations

import logging
from functools import lru_cache

import numpy as np

from vision import pips
from vision.onnx_models import PIPS_FILES, PIPS_FLOAT_FILES, model_path, new_session

log = logging.getLogger(__name__)

# Crops of rendered dice (uint8, (n, 3, 40, 40)) the check reads: `models/quantize.py --probe`.
PROBE_FILE = "pips_probe.npy"
# The most a reader's 8-bit kernels may move its reading from its exact arithmetic: the median,
# over the probe's crops, of the largest change in a class's probability. Clipping kernels moved
# the 8-bit readers before by 0.010-0.047; kernels that compute exactly move them by 0.0000.
MOST_MOVED = 1e-3


def moved_by_kernels(path: str, crops: np.ndarray) -> float:
    """How far this CPU's kernels move the pip reader at `path` from its exact arithmetic on
    `crops` (n, 3, 40, 40): the median over the crops of the largest change in a class's
    probability."""
    fast = pips.infer(new_session(path), crops)
    exact = pips.infer(new_session(path, exact=True), crops)
    return float(np.median(np.abs(fast - exact).max(1)))


@lru_cache(maxsize=1)
def pip_reader_files() -> tuple[str, ...]:
    """The pip readers the reader runs by default: each shipped 8-bit reader, or its float
    network where this CPU computes the 8-bit one otherwise (checked once a process)."""
    shipped = tuple(str(model_path(name)) for name in PIPS_FILES)
    try:
        crops = np.load(model_path(PROBE_FILE)).astype(np.float32)
    except (OSError, ValueError) as err:
        log.warning("the 8-bit pip readers were not checked on this CPU (%s)", err)
        return shipped
    chosen = []
    for path, float_name in zip(shipped, PIPS_FLOAT_FILES, strict=True):
        try:
            moved = moved_by_kernels(path, crops)
        except Exception as err:  # ONNX Runtime's own errors derive from Exception alone
            log.warning("%s was not checked on this CPU (%s)", path, err)
            chosen.append(path)
            continue
        if moved < MOST_MOVED:
            chosen.append(path)
            continue
        instead = str(model_path(float_name))
        log.warning(
            "%s reads otherwise on this CPU than its 8-bit arithmetic says (by %.3f); "
            "the reader runs %s instead",
            path,
            moved,
            instead,
        )
        chosen.append(instead)
    return tuple(chosen)
