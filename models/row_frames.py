"""Locator frames from rendered casino rows (`vision.sim_casinos`): crowded cards with dice of
one colour touching, dice with an edge under a money note, and the cards' print and notes all
around them, the scenes where the locator merges, splits or misses dice and boxes paper.

Each 1280x720 row is drawn with random dice and notes under settings from easy to the hardest,
scaled so that its dice come out about 14-40 px across, and cut into 320x240 windows that hold
dice. The renderer knows where every die lies, so each die's box is known exactly: the box of
its whole outline as drawn (seen from straight above, the outline is all of the die that shows),
or of its visible part where a note's edge lies over it. A die is a target where at least
KEEP_CUT of its box lies inside the window and at least VISIBLE_MOST of it shows from under the
notes; everything else (cards, notes, markers, print, mostly hidden dice) is background.

The output is an .npz file for `train.py --real-frames`: "frames" (n, 240, 320, 3) uint8 BGR
and "boxes" (k, 5) float32 rows x0, y0, x1, y1, frame index.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from functools import partial
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.make_data import save_arrays  # noqa: E402
from models.whole_die_sets import FRAME_SHAPE, KEEP_CUT  # noqa: E402
from vision.colour import DEFAULT_COLOURS_BGR  # noqa: E402
from vision.sim_casinos import (  # noqa: E402
    EASY,
    HARDEST,
    NOTE_BGR,
    SLOT,
    RowDie,
    RowSettings,
    row_scene,
)
from vision.simtable import SimDie, _outline  # noqa: E402

ROW_SHAPE = (720, 1280)  # the rendered casino row, as the camera sees it
SIDE_RANGE = (14.0, 27.0)  # a regular die's side in the training frame (a Biggy's is 1.5x)
VISIBLE_MOST = 0.6  # a die partly under a note stays a target if this share of it shows
CLEAN_LIGHT = 1.04  # the renderer's light gain where its fall-off is nought
NOTE_MATCH = 3.0  # most difference per channel of a pixel the clean render shows as a note
WINDOW_STEP = 0.75  # windows overlap by a quarter of their size
COLOURS = tuple(DEFAULT_COLOURS_BGR)
NOTE_VALUES = tuple(range(10_000, 100_000, 10_000))
SMALLER_TRIES = 4  # a row too full to lay is drawn again with dice 15 % smaller


@dataclass(frozen=True)
class SceneBox:
    """A die's box in the 1280x720 row (x0, y0, x1, y1) and whether enough of it shows from
    under the notes to be a target."""

    box: tuple[float, float, float, float]
    target: bool


def random_settings(rng: np.random.Generator) -> RowSettings:
    """Settings between easy and the hardest (every field drawn on the line between them),
    a third of them with most dice laid against another, at dice sizes from 24 to 34 px."""
    t = float(rng.uniform(0, 1))

    def between(name: str) -> float:
        return (1 - t) * getattr(EASY, name) + t * getattr(HARDEST, name)

    settings = RowSettings(
        die_side=float(rng.uniform(24, 34)),
        touching=between("touching"),
        hidden=between("hidden"),
        hidden_most=HARDEST.hidden_most,
        noise=between("noise"),
        light_fall=between("light_fall"),
    )
    if rng.random() < 1 / 3:
        settings = replace(settings, touching=float(rng.uniform(0.6, 0.9)))
    return settings


def _random_die(rng: np.random.Generator, colour: str, casino: int) -> SimDie:
    """A die of this colour for a casino: it shows the casino's number (any on the slot
    machine) and is a Biggy one time in eight."""
    pips = int(rng.integers(1, 7)) if casino == SLOT else casino
    return SimDie(colour, pips, bool(rng.random() < 0.125))


def random_dice(rng: np.random.Generator) -> dict[int, list[SimDie]]:
    """Dice for casinos 1-6 and the slot machine: 0-5 a casino of 1-4 colours, and one or two
    crowded casinos with 6-8 dice, most of them of one colour."""
    colours = list(rng.choice(COLOURS, int(rng.integers(1, 5)), replace=False))
    crowded = set(rng.choice(range(1, SLOT + 1), int(rng.integers(1, 3)), replace=False).tolist())
    out: dict[int, list[SimDie]] = {}
    for casino in range(1, SLOT + 1):
        if casino in crowded:
            main = str(rng.choice(COLOURS))
            count = int(rng.integers(6, 9))
            picks = [
                main if rng.random() < 0.75 else str(rng.choice(COLOURS)) for _ in range(count)
            ]
        else:
            picks = [str(rng.choice(colours)) for _ in range(int(rng.integers(0, 6)))]
        out[casino] = [_random_die(rng, colour, casino) for colour in picks]
    return out


def random_notes(rng: np.random.Generator) -> dict[int, list[int]]:
    """1-5 money notes a casino (the slot machine's among them), random values."""
    return {
        casino: [int(v) for v in rng.choice(NOTE_VALUES, int(rng.integers(1, 6)))]
        for casino in range(1, SLOT + 1)
    }


def die_box(die: RowDie) -> tuple[float, float, float, float]:
    """The axis-aligned box of the die's whole outline as drawn: the rounded square of `side`
    (bevel included), turned by its angle."""
    outline = _outline(die.centre, die.side, die.angle)
    x0, y0 = outline.min(0)
    x1, y1 = outline.max(0)
    return float(x0), float(y0), float(x1), float(y1)


def note_mask(clean: np.ndarray) -> np.ndarray:
    """Where a render without noise or light fall-off shows a money note's paper (bool)."""
    paper = np.asarray(NOTE_BGR, np.float32) * CLEAN_LIGHT
    near = np.abs(clean.astype(np.float32) - paper) <= NOTE_MATCH
    return np.asarray(near.all(-1), bool)


def scene_boxes(dice: tuple[RowDie, ...], covered: np.ndarray) -> list[SceneBox]:
    """Each die's box in the row and whether it is a target: the whole outline's box where no
    note covers it, else the box of its visible pixels, a target if VISIBLE_MOST of it shows."""
    out = []
    for die in dice:
        x0, y0, x1, y1 = die_box(die)
        left, top = max(0, math.floor(x0)), max(0, math.floor(y0))
        right = min(covered.shape[1], math.ceil(x1) + 1)
        bottom = min(covered.shape[0], math.ceil(y1) + 1)
        mask = np.zeros((bottom - top, right - left), np.uint8)
        outline = _outline(die.centre, die.side, die.angle) - (left, top)
        cv2.fillPoly(mask, [np.round(outline * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
        inside = mask.astype(bool)
        visible = inside & ~covered[top:bottom, left:right]
        if visible.sum() == inside.sum():
            out.append(SceneBox((x0, y0, x1, y1), True))
            continue
        shown = visible.sum() / max(1, inside.sum())
        if not visible.any():
            out.append(SceneBox((x0, y0, x1, y1), False))
            continue
        ys, xs = np.nonzero(visible)
        box = (
            float(left + xs.min()),
            float(top + ys.min()),
            float(left + xs.max() + 1),
            float(top + ys.max() + 1),
        )
        out.append(SceneBox(box, bool(shown >= VISIBLE_MOST)))
    return out


def rendered_row(seed: int) -> tuple[np.ndarray, list[SceneBox], RowSettings]:
    """One random casino row: its frame (1280x720 BGR), each die's box and target flag, and
    the settings it was drawn with. The same render without noise or light fall-off (the same
    seed lays and covers the dice alike) shows where notes lie over dice."""
    rng = np.random.default_rng(seed)
    settings = random_settings(rng)
    dice, notes = random_dice(rng), random_notes(rng)
    for _ in range(SMALLER_TRIES):
        try:
            scene = row_scene(dice, notes, seed, ROW_SHAPE[1], ROW_SHAPE[0], settings)
            break
        except ValueError:
            settings = replace(settings, die_side=settings.die_side * 0.85)
    else:
        dice = {n: d[:5] for n, d in dice.items()}
        scene = row_scene(dice, notes, seed, ROW_SHAPE[1], ROW_SHAPE[0], settings)
    flat = replace(settings, noise=0.0, light_fall=0.0)
    clean = row_scene(dice, notes, seed, ROW_SHAPE[1], ROW_SHAPE[0], flat)
    return scene.frame, scene_boxes(scene.dice, note_mask(clean.frame)), settings


def window_tops(size: int, window: int, offset: float) -> list[int]:
    """Window starts along one axis of `size` px: the near edge, then from `offset` px on a
    step of WINDOW_STEP windows apart, and the last one flush with the far edge, so that
    neighbouring windows overlap by at least a quarter of a window."""
    if size <= window:
        return [0]
    step = max(1, int(window * WINDOW_STEP))
    starts = {0, size - window, *range(int(offset) % step, size - window, step)}
    return sorted(starts)


def cut_windows(
    frame: np.ndarray, boxes: list[SceneBox], scale: float, rng: np.random.Generator
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The frame scaled by `scale` and cut into training-frame windows (a random grid offset),
    each window that holds a target with its targets' boxes, clipped to it. A die is a target
    of a window if it is a target at all and KEEP_CUT of its box lies inside the window."""
    th, tw = FRAME_SHAPE
    size = (round(frame.shape[1] * scale), round(frame.shape[0] * scale))
    small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    sx, sy = small.shape[1] / frame.shape[1], small.shape[0] / frame.shape[0]
    targets = np.array([b.box for b in boxes if b.target], np.float32).reshape(-1, 4)
    targets *= np.array([sx, sy, sx, sy], np.float32)
    area = np.prod(np.clip(targets[:, 2:] - targets[:, :2], 1e-3, None), 1)
    out = []
    ox, oy = rng.uniform(0, tw), rng.uniform(0, th)
    for top in window_tops(small.shape[0], th, oy):
        for left in window_tops(small.shape[1], tw, ox):
            shifted = targets - np.array([left, top, left, top], np.float32)
            clipped = np.concatenate(
                [np.maximum(shifted[:, :2], 0), np.minimum(shifted[:, 2:], [tw - 1, th - 1])], 1
            )
            inside = np.prod(np.clip(clipped[:, 2:] - clipped[:, :2], 0, None), 1)
            keep = inside >= KEEP_CUT * area
            if keep.any():
                out.append((small[top : top + th, left : left + tw].copy(), clipped[keep]))
    return out


def row_scale(settings: RowSettings, rng: np.random.Generator) -> float:
    """A scale for the row that makes its regular dice SIDE_RANGE px across (at random in it),
    never so small that the row gets narrower or lower than a training frame."""
    side = float(rng.uniform(*SIDE_RANGE))
    floor = max(FRAME_SHAPE[1] / ROW_SHAPE[1], FRAME_SHAPE[0] / ROW_SHAPE[0])
    return max(floor, side / settings.die_side)


def scene_frames(seed: int, most: int = 0) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The training windows of the casino row drawn from `seed` and their boxes (k, 4); with
    `most` above nought, at most that many of them, picked at random (in the row's order)."""
    frame, boxes, settings = rendered_row(seed)
    rng = np.random.default_rng([seed, 1])
    windows = cut_windows(frame, boxes, row_scale(settings, rng), rng)
    if 0 < most < len(windows):
        picked = np.sort(rng.choice(len(windows), most, replace=False))
        windows = [windows[int(i)] for i in picked]
    return [w for w, _ in windows], [b for _, b in windows]


def frames(scenes: int, seed: int, workers: int = 1, most: int = 0) -> dict[str, np.ndarray]:
    """Locator frames (n, 240, 320, 3) uint8 and boxes (k, 5): x0, y0, x1, y1, frame index,
    from `scenes` casino rows (at most `most` windows a row where above nought); scene i is
    drawn from seed * 1000003 + i, so the output does not depend on the number of workers."""
    seeds = [seed * 1_000_003 + i for i in range(scenes)]
    one_scene = partial(scene_frames, most=most)
    if workers > 1:
        with Pool(workers) as pool:
            parts = pool.map(one_scene, seeds, chunksize=max(1, scenes // (4 * workers)))
    else:
        parts = [one_scene(s) for s in seeds]
    shown: list[np.ndarray] = []
    boxes: list[np.ndarray] = []
    for windows, window_boxes in parts:
        for window, kept in zip(windows, window_boxes, strict=True):
            boxes.append(np.concatenate([kept, np.full((len(kept), 1), len(shown))], 1))
            shown.append(window)
    if not shown:
        th, tw = FRAME_SHAPE
        return {"frames": np.zeros((0, th, tw, 3), np.uint8), "boxes": np.zeros((0, 5), np.float32)}
    return {"frames": np.stack(shown), "boxes": np.concatenate(boxes).astype(np.float32)}


def main() -> None:
    """Command line: write the casino-row locator frames to an .npz file."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenes", type=int, default=300, help="casino rows to draw")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1, help="processes drawing at once")
    ap.add_argument(
        "--windows", type=int, default=0, help="most windows kept a row (0: all, about 13)"
    )
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "lv_row_frames.npz")
    a = ap.parse_args()
    if a.scenes < 1 or a.workers < 1 or a.windows < 0:
        ap.error("--scenes and --workers must be at least 1, --windows at least 0")
    start = time.perf_counter()
    data = frames(a.scenes, a.seed, a.workers, a.windows)
    save_arrays(a.out, data)
    print(
        f"{a.out}: {len(data['frames'])} frames, {len(data['boxes'])} dice from {a.scenes} "
        f"scenes in {time.perf_counter() - start:.1f} s"
    )


if __name__ == "__main__":
    main()
