"""Reader speed as on a Raspberry Pi: a 640x480 frame with 12 dice, at 2 threads (the Pi's
setting) and at 1 and 4 for comparison; median and 90th percentile ms per frame.

Run it on the Pi itself with the installed companion:

    /opt/lasvegas/venv/bin/python pi_speed.py [--runs 40] [--json]

Under emulation (hardware/arm64-check.sh) it runs too, but the figures then measure the
emulator, not a Pi. Needs only the installed package (no checkout).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

if __package__ in (None, "") and (Path(__file__).resolve().parents[1] / "vision").is_dir():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.reader import ReaderConfig, read_dice  # noqa: E402

THREADS = (2, 1, 4)  # the Pi's setting first (hardware/lasvegas.toml: threads = 2)
DICE = 12
COLOURS = ("red", "blue", "green", "yellow", "purple", "black")


def frame_with_dice(n: int = DICE, seed: int = 0) -> np.ndarray:
    """A 640x480 BGR frame of n dice at rest: the simulated table if present, else the renderer."""
    try:
        from vision.simtable import SimDie, SimulatedTable
    except ImportError:
        from models.render import render_scene

        frame, _ = render_scene(np.random.default_rng(seed), 480, 640, n, 90.0)
        return frame
    table = SimulatedTable(seed=seed, width=640, height=480)
    table.open()
    table.lay([SimDie(COLOURS[k % len(COLOURS)], 1 + k % 6) for k in range(n)])
    return table.read()


def time_frames(fn: Callable[[], object], runs: int) -> list[float]:
    """Wall time of each of `runs` calls of fn in ms, after two warm-up calls."""
    fn()
    fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return times


def p90(values: list[float]) -> float:
    """The 90th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def reader_rows(frame: np.ndarray, runs: int) -> list[dict[str, object]]:
    """One row per thread setting: dice found, median and p90 ms per frame."""
    rows = []
    for threads in THREADS:
        cv2.setNumThreads(threads)
        cfg = ReaderConfig(threads=threads)
        found = len(read_dice(frame, cfg))
        times = time_frames(lambda cfg=cfg: read_dice(frame, cfg), runs)
        rows.append(
            {
                "stage": "read_dice 640x480",
                "threads": threads,
                "dice_found": found,
                "median_ms": round(statistics.median(times), 1),
                "p90_ms": round(p90(times), 1),
            }
        )
    return rows


def web_rows(frame: np.ndarray, runs: int, pages: int = 8) -> list[dict[str, object]]:
    """The page's share of each frame: a settled roll through the hub to 8 pages, the preview."""
    import json as json_mod
    import tempfile

    from companion.session import GameStore
    from vision.detections import Detections
    from vision.draw import draw_detections
    from vision.video import RollSettled
    from web.hub import TableHub

    det = read_dice(frame, ReaderConfig())
    # Anna's eight dice as the camera would report them, so the roll fits and is stored.
    eight = np.resize(np.arange(len(det)), 8)
    anna = Detections(
        det.boxes[eight],
        np.clip(det.pips[eight], 1, 6),
        ["red"] * 8,
        ["regular"] * 8,
        det.confidence[eight],
        [False] * 8,
    )
    colour = "red"
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        hub = TableHub(GameStore(Path(folder) / "bench.sqlite3"), seed=1)
        other = "blue" if colour != "blue" else "red"
        hub.act(
            {
                "action": "new_game",
                "base": "none",
                "edition": "classic",
                "players": [{"name": "Anna", "colour": colour}, {"name": "Ben", "colour": other}],
            },
            None,
        )
        hub.act({"action": "simulate", "base": hub.version()}, None)
        queues = [hub.subscribe()[0] for _ in range(pages)]

        def update() -> None:
            hub.on_camera_event(RollSettled(anna))  # proposed, checked, stored, pushed
            for q in queues:
                while not q.empty():
                    json_mod.dumps(q.get_nowait())
            if hub.session is not None and str(hub.session.state.phase) == "choose":
                hub.session.undo()
                hub.reading = None
                hub.publish()
                for q in queues:
                    while not q.empty():
                        q.get_nowait()

        times = time_frames(update, runs)
        rows.append(
            {
                "stage": f"roll -> {pages} pages",
                "threads": "-",
                "dice_found": 8,
                "median_ms": round(statistics.median(times), 1),
                "p90_ms": round(p90(times), 1),
            }
        )
        for threads in THREADS:
            cv2.setNumThreads(threads)
            times = time_frames(
                lambda: cv2.imencode(
                    ".jpg", draw_detections(frame, det), [cv2.IMWRITE_JPEG_QUALITY, 80]
                ),
                runs,
            )
            rows.append(
                {
                    "stage": "preview jpeg 640x480",
                    "threads": threads,
                    "median_ms": round(statistics.median(times), 1),
                    "p90_ms": round(p90(times), 1),
                }
            )
    return rows


def print_table(rows: list[dict[str, object]]) -> None:
    """The rows as an aligned text table."""
    print(f"{'stage':<24}{'threads':>8}{'dice':>6}{'median ms':>11}{'p90 ms':>9}")
    for r in rows:
        print(
            f"{r['stage']!s:<24}{r['threads']!s:>8}{r.get('dice_found', '')!s:>6}"
            f"{r['median_ms']!s:>11}{r['p90_ms']!s:>9}"
        )


def main(argv: list[str] | None = None) -> int:
    """Time the reader at each thread setting and print a table (or JSON)."""
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--runs", type=int, default=40, help="timed frames per setting")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument(
        "--frame-out",
        type=Path,
        metavar="PNG",
        help="also write the timed frame to this file (a sample for `lasvegas detect`)",
    )
    a = ap.parse_args(argv)
    frame = frame_with_dice()
    if a.frame_out is not None:
        cv2.imwrite(str(a.frame_out), frame)
    rows = reader_rows(frame, a.runs) + web_rows(frame, a.runs)
    machine = {
        "machine": platform.machine(),
        "python": platform.python_version(),
        "cpu": _cpu_name(),
        "dice_in_frame": DICE,
        "runs": a.runs,
    }
    if a.json:
        print(json.dumps({**machine, "rows": rows}))
    else:
        print(" ".join(f"{k}={v}" for k, v in machine.items()))
        print_table(rows)
    return 0


def _cpu_name() -> str:
    """The CPU model from /proc/cpuinfo (a Pi 4 says Cortex-A72 only via its part number)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return platform.processor() or "unknown"
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("model name", "Model", "Hardware"):
            return value.strip()
    return platform.processor() or "unknown"


if __name__ == "__main__":
    sys.exit(main())
