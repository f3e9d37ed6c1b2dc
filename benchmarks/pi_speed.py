"""Reader speed as on a Raspberry Pi: frames at 640x480 and at 1280x720 (the shipped size), over
layouts that include the slow ones, at 2 threads (the Pi's setting) and at 1; median and
worst ms per frame, and the worst frame of all.

Each layout is timed twice: as a camera's first frame, where the reader may search for the
camera's place (every frame of the still photos it reads one by one is such a frame), and as
the frames that follow from the same camera, read from the place judged in its first frame as
the live camera does (vision/live_place.py; "next frames" rows). The last lines give the
worst frame of all (a first frame) and the worst of the frames that follow.

Layouts: 12 dice at rest; a crowded tray (58 dice); one large die (a die close to the lens);
a speckled table (a terrazzo or granite top: thousands of small flecks around 12 dice). The
"box" column gives the largest box the reader cropped, in % of the frame: a box over most of
the frame is the slow case of a whole-frame blur.

Run it on the Pi itself with the installed companion:

    /opt/lasvegas/venv/bin/python pi_speed.py [--runs 5] [--json]

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

from vision.detections import Detections  # noqa: E402
from vision.live_place import PlaceLearner  # noqa: E402
from vision.reader import ReaderConfig, read_dice  # noqa: E402

THREADS = (2, 1)  # the Pi's setting first (hardware/lasvegas.toml: threads = 2), then one core
SIZES = ((640, 480), (1280, 720))
DICE = 12
TRAY = 58  # a full tray, as at a game's end
COLOURS = ("red", "blue", "green", "yellow", "purple", "black")


def frame_with_dice(
    n: int = DICE, seed: int = 0, width: int = 640, height: int = 480, side: float | None = None
) -> np.ndarray:
    """A BGR frame of n dice at rest: the simulated table if present, else the renderer."""
    side = side or 50.0 * height / 480
    try:
        from vision.simtable import SimDie, SimulatedTable
    except ImportError:
        from models.render import render_scene

        frame, _ = render_scene(np.random.default_rng(seed), height, width, n, 90.0)
        return frame
    table = SimulatedTable(seed=seed, width=width, height=height, die_side=side)
    table.open()
    table.lay([SimDie(COLOURS[k % len(COLOURS)], 1 + k % 6) for k in range(n)])
    return table.read()


def speckled(width: int, height: int, seed: int = 3) -> np.ndarray:
    """12 dice on a table dotted with small flecks of every colour (about 6,500 per megapixel)."""
    frame = frame_with_dice(DICE, 0, width, height).copy()
    empty = frame_with_dice(0, 0, width, height)
    table = np.abs(frame.astype(np.int16) - empty).max(axis=2) < 8  # the flecks stay off the dice
    rng = np.random.default_rng(seed)
    flecks = frame.copy()
    for _ in range(int(6500 * width * height / 1e6)):
        centre = (int(rng.integers(0, width)), int(rng.integers(0, height)))
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        cv2.circle(flecks, centre, int(rng.integers(1, 4)), colour, -1)
    frame[table] = flecks[table]
    return frame


def layouts(width: int, height: int) -> dict[str, np.ndarray]:
    """The timed frames at one size, by name."""
    scale = height / 480
    return {
        f"{DICE} dice": frame_with_dice(DICE, 0, width, height),
        f"crowded tray ({TRAY})": frame_with_dice(TRAY, 1, width, height, 34.0 * scale),
        "one large die": frame_with_dice(1, 2, width, height, 0.42 * height),
        "speckled table": speckled(width, height),
    }


def time_frames(fn: Callable[[], object], runs: int, warm: int = 2) -> list[float]:
    """Wall time of each of `runs` calls of fn in ms, after `warm` warm-up calls."""
    for _ in range(warm):
        fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return times


def largest_box(frame: np.ndarray, cfg: ReaderConfig) -> float | None:
    """The largest box the reader crops on this frame, in % of the frame (None where unknown)."""
    try:
        from vision import pips
    except ImportError:
        return None
    largest = [0.0]
    crop = pips.crop_dice

    def measured(frame_bgr: np.ndarray, boxes: np.ndarray, *args: object, **kw: object):
        if len(boxes):
            b = np.asarray(boxes, np.float64)
            area = float(((b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])).max())
            largest[0] = max(largest[0], 100 * area / frame_bgr.shape[0] / frame_bgr.shape[1])
        return crop(frame_bgr, boxes, *args, **kw)

    pips.crop_dice = measured
    try:
        read_dice(frame, cfg)
    finally:
        pips.crop_dice = crop
    return round(largest[0], 1)


def reader_rows(runs: int, sizes=SIZES, threads_list=THREADS) -> list[dict[str, object]]:
    """Two rows per size, layout and thread setting, a camera's first frame and the frames
    that follow (`next_frames`): dice found, median and worst ms a frame."""
    rows = []
    for width, height in sizes:
        for name, frame in layouts(width, height).items():
            for threads in threads_list:
                cv2.setNumThreads(threads)
                cfg = ReaderConfig(threads=threads)
                found = len(read_dice(frame, cfg))
                box = largest_box(frame, cfg)
                times = time_frames(lambda cfg=cfg, f=frame: read_dice(f, cfg), runs, warm=0)
                row = {
                    "stage": f"read {width}x{height}: {name}",
                    "frames": "first",
                    "threads": threads,
                    "dice_found": found,
                    "largest_box_pct": box,
                    "median_ms": round(statistics.median(times), 1),
                    "worst_ms": round(max(times), 1),
                }
                rows += [row, next_frames(row, frame, cfg, runs)]
    return rows


def next_frames(
    first: dict[str, object], frame: np.ndarray, cfg: ReaderConfig, runs: int
) -> dict[str, object]:
    """The row of the frames after a camera's first (`first`'s row), read as the live camera
    reads them: from the camera's place remembered from the first frame, where it judged one."""
    learner = PlaceLearner()
    learner.learn(read_dice(frame, learner.applied(cfg)))  # the camera's first frame

    def following() -> Detections:
        det = read_dice(frame, learner.applied(cfg))
        learner.learn(det)
        return det

    found = len(following())
    times = time_frames(following, runs, warm=0)
    return {
        **first,
        "stage": f"{first['stage']}, next frames",
        "frames": "next",
        "camera_place": learner.place or "judged each frame",
        "dice_found": found,
        "median_ms": round(statistics.median(times), 1),
        "worst_ms": round(max(times), 1),
    }


def web_rows(frame: np.ndarray, runs: int, pages: int = 8) -> list[dict[str, object]]:
    """The page's share of each frame: a settled roll through the hub to 8 pages, the preview."""
    import json as json_mod
    import tempfile

    from companion.session import GameStore
    from vision.draw import draw_detections
    from vision.video import RollSettled
    from web.actions import act
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
        act(
            hub,
            {
                "action": "new_game",
                "base": "none",
                "edition": "classic",
                "players": [{"name": "Anna", "colour": colour}, {"name": "Ben", "colour": other}],
            },
            None,
        )
        act(hub, {"action": "simulate", "base": hub.version()}, None)
        queues = [hub.subscribe()[0] for _ in range(pages)]

        def update() -> None:
            hub.on_camera_event(RollSettled(anna))  # proposed, checked, stored, pushed
            for q in queues:
                while not q.empty():
                    json_mod.dumps(q.get_nowait())
            if hub.session is not None and str(hub.session.state.phase) == "choose":
                hub.session.undo()
                hub.forget_reading()
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
                "worst_ms": round(max(times), 1),
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
                    "stage": f"preview jpeg {frame.shape[1]}x{frame.shape[0]}",
                    "threads": threads,
                    "median_ms": round(statistics.median(times), 1),
                    "worst_ms": round(max(times), 1),
                }
            )
    return rows


def print_table(rows: list[dict[str, object]]) -> None:
    """The rows as an aligned text table, then the worst frame read."""
    print(f"{'stage':<52}{'threads':>8}{'dice':>6}{'box %':>7}{'median ms':>11}{'worst ms':>10}")
    for r in rows:
        print(
            f"{r['stage']!s:<52}{r['threads']!s:>8}{r.get('dice_found', '')!s:>6}"
            f"{r.get('largest_box_pct', '')!s:>7}{r['median_ms']!s:>11}{r['worst_ms']!s:>10}"
        )
    worst = worst_read(rows)
    if worst is not None:
        print(
            f"worst frame read: {worst['worst_ms']} ms, {worst['stage']} at {worst['threads']} "
            "thread(s)"
        )
    worst_next = worst_read(rows, frames="next")
    if worst_next is not None:
        print(
            f"worst of the frames after a camera's first: {worst_next['worst_ms']} ms, "
            f"{worst_next['stage']} at {worst_next['threads']} thread(s), from the camera place "
            f"{worst_next['camera_place']}"
        )


def worst_read(
    rows: list[dict[str, object]], frames: str | None = None
) -> dict[str, object] | None:
    """The reader row with the slowest single frame; with `frames` ("first" or "next"), of
    those rows alone."""
    reads = [
        r for r in rows if str(r["stage"]).startswith("read ") and frames in (None, r.get("frames"))
    ]
    return max(reads, key=lambda r: float(r["worst_ms"])) if reads else None  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    """Time the reader at each size, layout and thread setting; print a table (or JSON)."""
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--runs", type=int, default=5, help="timed frames per row")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument(
        "--threads", type=int, nargs="+", default=list(THREADS), help="thread settings to time"
    )
    ap.add_argument(
        "--size",
        choices=["640x480", "1280x720"],
        action="append",
        help="only this size (may be given twice; default both)",
    )
    ap.add_argument(
        "--frame-out",
        type=Path,
        metavar="PNG",
        help="only write a 640x480 frame of 12 dice to this file (a sample for `lasvegas "
        "detect`) and time nothing",
    )
    a = ap.parse_args(argv)
    if a.frame_out is not None:
        cv2.imwrite(str(a.frame_out), frame_with_dice())
        return 0
    sizes = [tuple(map(int, s.split("x"))) for s in a.size] if a.size else list(SIZES)
    rows = reader_rows(a.runs, sizes, a.threads)
    rows += web_rows(frame_with_dice(DICE, 0, *sizes[-1]), a.runs)
    machine = {
        "machine": platform.machine(),
        "python": platform.python_version(),
        "cpu": _cpu_name(),
        "runs": a.runs,
    }
    if a.json:
        worst = {"worst_read": worst_read(rows), "worst_next_frame": worst_read(rows, "next")}
        print(json.dumps({**machine, "rows": rows, **worst}))
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
