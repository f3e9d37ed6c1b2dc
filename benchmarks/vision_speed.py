"""Time the dice reader on a 640x480 frame with 12 dice (one thread), and a YOLOv8n-class net;
also on 1280x720 frames of 12 dice (the camera's shipped size: median and worst frame), and on
trays of 25-40 dice, which are looked at three times."""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision_colour import TABLE_DICE, scene  # noqa: E402

from vision.reader import ReaderConfig, read_dice  # noqa: E402


def frame_with_dice(n: int = 12, seed: int = 0) -> np.ndarray:
    """A rendered top-down 640x480 frame of n dice of the game's colours on a table."""
    names = list(TABLE_DICE)
    frame, _ = scene(seed, [names[i % len(names)] for i in range(n)], 2, (1.0, 1.0, 1.0))
    return frame


def wide_frames(n: int) -> list[np.ndarray]:
    """1280x720 frames of 12 dice at rest on the simulated table, one for each of n seeds."""
    from pi_speed import frame_with_dice as table_frame

    return [table_frame(12, seed, 1280, 720) for seed in range(n)]


def tray_frames(n: int, seed: int = 5) -> list[np.ndarray]:
    """Rendered top-down 640x480 trays of 25-40 touching dice: frames with 20 dice or more read,
    which the reader looks at more than once."""
    from models.render import render_scene

    rng = np.random.default_rng(seed)
    return [
        render_scene(rng, n_dice=int(rng.integers(25, 41)), elevation_deg=90.0)[0] for _ in range(n)
    ]


def time_ms(fn, runs: int) -> float:
    """Median wall time of fn() in milliseconds after two warm-up calls."""
    return statistics.median(times_ms(fn, runs))


def times_ms(fn, runs: int) -> list[float]:
    """Wall time of each of `runs` calls of fn() in milliseconds, after two warm-up calls."""
    fn()
    fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return times


def yolo_ms(runs: int, size: int) -> float | None:
    """Median ms of a YOLOv8n-shaped ONNX network at size x size, one thread; None without torch."""
    try:
        import torch
        from vision_yolo_like import YoloV8nLike
    except ImportError:
        return None
    from vision.onnx_models import open_session

    torch.set_num_threads(1)
    path = Path(tempfile.mkdtemp()) / "yolo_like.onnx"
    torch.onnx.export(
        YoloV8nLike().eval(),
        torch.zeros(1, 3, size, size),
        str(path),
        input_names=["image"],
        opset_version=17,
        dynamo=False,
    )
    sess = open_session(str(path), 1)
    x = np.random.rand(1, 3, size, size).astype(np.float32)
    return time_ms(lambda: sess.run(None, {"image": x}), runs)


def main() -> int:
    """Print the reader's median ms per frame, peak memory, and the YOLOv8n-class figure."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--no-yolo", action="store_true")
    ap.add_argument(
        "--frames",
        type=int,
        default=10,
        help="different rolls read in turn: one frame whose dice the readers doubt "
        "costs more (the camera's place is judged), so one frame can mislead",
    )
    ap.add_argument(
        "--pips",
        nargs="+",
        default=None,
        help="pip reader .onnx files to time instead of the shipped ones",
    )
    a = ap.parse_args()
    cv2.setNumThreads(1)
    # The renderer's own memory (tens of MB while it draws) is not the reader's: the frames are
    # drawn in another process.
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        frames = pool.starmap(frame_with_dice, [(12, seed) for seed in range(a.frames)])
        trays = pool.apply(tray_frames, (5,))
        wide = pool.apply(wide_frames, (5,))
    cfg = ReaderConfig(threads=1, pips_models=tuple(a.pips) if a.pips else None)
    found = len(read_dice(frames[0], cfg))
    first = time_ms(lambda: read_dice(frames[0], cfg), a.runs)
    rolls = itertools.cycle(frames)
    reader = time_ms(lambda: read_dice(next(rolls), cfg), a.runs * len(frames))
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    wide_rolls = itertools.cycle(wide)
    wide_times = times_ms(lambda: read_dice(next(wide_rolls), cfg), max(a.runs // 5, 3) * len(wide))
    one_look = replace(cfg, look_again_from=10**9)
    tray_rolls, tray_one_rolls = itertools.cycle(trays), itertools.cycle(trays)
    runs_tray = max(a.runs // 5, 3) * len(trays)
    tray = time_ms(lambda: read_dice(next(tray_rolls), cfg), runs_tray)
    tray_one = time_ms(lambda: read_dice(next(tray_one_rolls), one_look), runs_tray)
    tray_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out = {
        "frame": "640x480",
        "dice": 12,
        "dice_found_first_frame": found,
        "threads": 1,
        "frames": len(frames),
        "reader_median_ms": round(reader, 2),
        "first_frame_median_ms": round(first, 2),
        "reader_peak_rss_mb": round(rss_mb, 1),
        "reader_1280x720_median_ms": round(statistics.median(wide_times), 1),
        "reader_1280x720_worst_ms": round(max(wide_times), 1),
        "tray_25_40_dice_median_ms": round(tray, 1),
        "tray_one_look_median_ms": round(tray_one, 1),
        "peak_rss_with_trays_mb": round(tray_rss_mb, 1),
    }
    if not a.no_yolo:
        y = yolo_ms(max(a.runs // 5, 5), 640)
        if y is not None:
            out["yolov8n_class_640_median_ms"] = round(y, 1)
            out["reader_fraction_of_yolo"] = round(reader / y, 3)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
