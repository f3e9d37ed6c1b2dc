"""Find and open the shipped ONNX models with a chosen thread count."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import onnxruntime as ort

LOCATOR_FILE = "locator_int8.onnx"  # what the reader runs: made by models/quantize.py
LOCATOR_FLOAT_FILE = "locator.onnx"  # the trained float network it is made from
# The locator fine-tuned with speckled granite tables and felt trays on them, which a speckled
# frame is looked at with (`reader.ReaderConfig.speckled_locator`), in 8 bits and in float.
SPECKLED_LOCATOR_FILE = "locator_speckled_int8.onnx"
SPECKLED_LOCATOR_FLOAT_FILE = "locator_speckled.onnx"
# Three pip readers, per-class median: what the reader runs, made by `models/quantize.py --pips`
# from the trained float networks below.
PIPS_FILES = (
    "pips_int8.onnx",
    "pips_alt_int8.onnx",
    "pips_small_int8.onnx",
)
PIPS_FLOAT_FILES = (
    "pips.onnx",
    "pips_alt.onnx",
    "pips_small.onnx",
)


def model_path(name: str) -> Path:
    """Path of a shipped model: the repository's models/ folder, else next to this package."""
    here = Path(__file__).resolve().parent
    for folder in (here.parent / "models", here):
        if (folder / name).is_file():
            return folder / name
    raise FileNotFoundError(f"model file {name} not found in models/ or vision/")


@lru_cache(maxsize=8)
def open_session(path: str, threads: int = 1) -> ort.InferenceSession:
    """A CPU inference session limited to `threads` threads, opened once."""
    return new_session(path, threads)


def new_session(path: str, threads: int = 1, exact: bool = False) -> ort.InferenceSession:
    """A new CPU inference session limited to `threads` threads. With `exact`, the graph is run
    as written: an 8-bit network's quantize and dequantize steps then run in float, with none
    of the CPU's 8-bit kernels (slower; for checking those kernels)."""
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = (
        ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        if exact
        else ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    )
    # A memory plan kept per input shape grows with every window size the closer look and the
    # larger looks use.
    opts.enable_mem_pattern = False
    # The runtime's arena keeps the largest run's memory for good.
    opts.enable_cpu_mem_arena = False
    # Idle worker threads would spin between the small inferences and steal the cores that
    # the camera thread and the web server need.
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
