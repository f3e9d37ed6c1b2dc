"""Render training sets for the locator (scaled frames + boxes) and the pip reader (crops)."""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.clutter import Placed  # noqa: E402
from models.render import RenderedDie, render_scene  # noqa: E402
from vision.crops import crop_dice  # noqa: E402
from vision.viewpoint import downs  # noqa: E402

if TYPE_CHECKING:
    from vision.simtable import SimulatedTable

NOT_A_DIE = 8
LOCATOR_SCALE = 0.5  # the locator sees frames at half of 640x480


def _jitter_boxes(rng: np.random.Generator, boxes: np.ndarray, amount: float) -> np.ndarray:
    """Boxes moved and rescaled by up to `amount` of their size, as a detector would err."""
    wh = boxes[:, 2:] - boxes[:, :2]
    c = (boxes[:, :2] + boxes[:, 2:]) / 2 + rng.uniform(-amount, amount, (len(boxes), 2)) * wh
    wh = wh * rng.uniform(1 - amount, 1 + amount, (len(boxes), 1))
    return np.concatenate([c - wh / 2, c + wh / 2], 1)


CROWDED_DICE = (15, 41)  # a crowded scene: a tray full of dice, most of them touching
FULL_TRAY_DICE = (60, 121)  # a full tray: dice side by side wherever they fit
WINDOW_DIE = 56  # px: a full tray's dice at most this large may be learnt at full scale
CAMERA_HEIGHTS = (0.5, 1.4)  # a photo from above: a phone or webcam 0.5-1.4 frame widths up


def _dice_count(rng: np.random.Generator, crowded: float, full_trays: float) -> int | None:
    """How many dice a scene holds: crowded or a full tray by their shares, else the
    renderer's own choice (None)."""
    if not (crowded or full_trays):
        return None
    pick = rng.random()
    if pick < crowded:
        return int(rng.integers(*CROWDED_DICE))
    if pick < crowded + full_trays:
        return int(rng.integers(*FULL_TRAY_DICE))
    return None


def _locator_view(
    rng: np.random.Generator, img: np.ndarray, boxes: np.ndarray, full: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The frame as the locator learns it, and the boxes in it: the frame at LOCATOR_SCALE, or
    for half of the full trays a window of that size at full scale (dice as large as the
    reader's enlarged looks at a tray see them, where they are no larger than WINDOW_DIE),
    boxes clipped to it."""
    h, w = img.shape[:2]
    th, tw = int(round(h * LOCATOR_SCALE)), int(round(w * LOCATOR_SCALE))
    small_dice = len(boxes) and np.median(boxes[:, 2] - boxes[:, 0]) <= WINDOW_DIE
    if not (full and small_dice) or rng.random() < 0.5:
        small = cv2.resize(img, (tw, th), interpolation=cv2.INTER_AREA)
        return small, boxes * LOCATOR_SCALE
    x, y = int(rng.integers(0, w - tw + 1)), int(rng.integers(0, h - th + 1))
    shifted = boxes - np.array([x, y, x, y], np.float32)
    clipped = np.concatenate(
        [np.maximum(shifted[:, :2], 0), np.minimum(shifted[:, 2:], [tw - 1, th - 1])], 1
    )
    inside = np.all(clipped[:, 2:] > clipped[:, :2], axis=1)
    return img[y : y + th, x : x + tw].copy(), clipped[inside]


@dataclass(frozen=True)
class SceneMix:
    """What a set's scenes hold: the shares `crowded` (15-40 dice) and `full_trays` (60-120) of
    scenes, the share `from_above` seen by a camera straight above, `finish`, the shares of
    dice `render_scene` draws otherwise (camouflage, glossy, marbled, speckled, pip_styles),
    the share `clutter` of scenes that also hold things which are not dice (no boxes), and the
    share `speckled_tables` of scenes on a speckled granite table, half of them with the dice
    in felt trays on it (`render_scene`'s granite_table and felt_trays). A share `round_trays`
    of scenes is instead 4-14 dice from above on a light grey tray (or granite) among round
    grey and metal things (screw heads, magnets, lenses, caps), and each such thing is also
    cut out as not a die; a share `simulated_tables` is a frame of the companion's own
    simulated table (`vision.simtable`), thrown with 3-12 dice of which many are grey and
    blank."""

    crowded: float = 0.0
    full_trays: float = 0.0
    from_above: float = 0.0
    finish: dict[str, float] = field(default_factory=dict)
    clutter: float = 0.0
    speckled_tables: float = 0.0
    round_trays: float = 0.0
    simulated_tables: float = 0.0


ROUND_TRAY_DICE = (4, 15)
THING_COPIES = 2  # crops of each round thing on a tray, each moved and rescaled a little


def _round_tray_scene(
    rng: np.random.Generator, mix: SceneMix
) -> tuple[np.ndarray, list[RenderedDie], Placed, bool] | None:
    """A scene of `mix.round_trays`' kind, drawn by that share (None otherwise): the frame,
    its dice, the round things drawn (centre, size), and whether a camera above the frame's
    centre saw it (else an orthographic one from straight above)."""
    if not mix.round_trays or rng.random() >= mix.round_trays:
        return None
    camera: dict[str, float] = {"elevation_deg": 90.0}
    if rng.random() < 0.5:
        camera["camera_height"] = float(rng.uniform(*CAMERA_HEIGHTS))
    scene: dict[str, Any] = {**mix.finish, **camera}
    things: Placed = []
    img, truths = render_scene(
        rng,
        n_dice=int(rng.integers(*ROUND_TRAY_DICE)),
        clutter=1.0,
        round_clutter_on_a_tray=True,
        things_drawn=things,
        **scene,
    )
    return img, truths, things, "camera_height" in camera


SIM_DICE = (3, 13)
SIM_BLANK_SHARE = 0.4  # of a simulated table's dice, the grey blank ones
SIM_BIG_SHARE = 0.15


def _simulated_table_scene(
    rng: np.random.Generator, mix: SceneMix
) -> tuple[np.ndarray, list[RenderedDie]] | None:
    """A frame of the simulated table, drawn by `mix.simulated_tables`' share (None
    otherwise), and its dice as rendered dice: dice of every colour, 30-70 px, under a lamp
    of a random tint, a share of them grey and blank."""
    if not mix.simulated_tables or rng.random() >= mix.simulated_tables:
        return None
    from vision.colour import DEFAULT_COLOURS_BGR
    from vision.simtable import SimDie

    colours = [c for c in DEFAULT_COLOURS_BGR if c != "grey"]
    dice = []
    for _ in range(int(rng.integers(*SIM_DICE))):
        big = bool(rng.random() < SIM_BIG_SHARE)
        if rng.random() < SIM_BLANK_SHARE:
            dice.append(SimDie("grey", 0, big))
        else:
            colour = colours[int(rng.integers(len(colours)))]
            dice.append(SimDie(colour, int(rng.integers(1, 7)), big))
    table = simulated_table_laid(rng, dice)
    truths = [RenderedDie(d.box, d.die.pips, d.die.big, d.die.colour) for d in table.lying]
    return table.read(), truths


def simulated_table_laid(rng: np.random.Generator, dice: list) -> SimulatedTable:
    """A simulated table with dice of 30-70 px under a lamp of a random tint, `dice` laid on
    it at rest (half of them where there is no room for all)."""
    from vision.simtable import SimulatedTable

    table = SimulatedTable(
        seed=int(rng.integers(1 << 30)),
        die_side=float(rng.uniform(30, 70)),
        lamp_bgr=tuple(rng.uniform(0.8, 1.2, 3)),
    )
    try:
        table.lay(dice)
    except ValueError:  # no room for so many large dice: half of them
        table.lay(dice[: len(dice) // 2])
    return table


def _thing_boxes(rng: np.random.Generator, things: Placed, shape: tuple[int, ...]) -> np.ndarray:
    """Boxes around the round things whose centre lies in the frame, `THING_COPIES` each,
    moved and rescaled by up to a tenth, as the locator would box them."""
    h, w = shape[:2]
    inside = [(c, size) for c, size in things if 0 <= c[0] < w and 0 <= c[1] < h]
    if not inside:
        return np.zeros((0, 4), np.float32)
    boxes = np.array(
        [[c[0] - s / 2, c[1] - s / 2, c[0] + s / 2, c[1] + s / 2] for c, s in inside], np.float32
    )
    return np.concatenate([_jitter_boxes(rng, boxes, 0.1) for _ in range(THING_COPIES)])


def _one_chunk(job: tuple[int, int, SceneMix]) -> dict[str, np.ndarray]:
    """Render `count` scenes from `seed` as `mix` asks; return frames, boxes and crops.

    The crops of a scene seen from above are turned as the reader turns them for a camera
    there (toward the frame's centre is down)."""
    seed, count, mix = job
    rng = np.random.default_rng(seed)
    frames, boxes, crops, labels = [], [], [], []
    for _ in range(count):
        tray = _round_tray_scene(rng, mix)
        simulated = None if tray is not None else _simulated_table_scene(rng, mix)
        things: Placed = []  # round things to cut out as not a die
        if tray is not None:
            img, truths, things, above = tray
            n_dice = None
        elif simulated is not None:
            (img, truths), n_dice, above = simulated, None, False
        else:
            n_dice = _dice_count(rng, mix.crowded, mix.full_trays)
            above = bool(mix.from_above) and rng.random() < mix.from_above
            camera = (
                {"elevation_deg": 90.0, "camera_height": float(rng.uniform(*CAMERA_HEIGHTS))}
                if above
                else {}
            )
            scene: dict[str, Any] = {**mix.finish, **camera}
            if mix.speckled_tables and rng.random() < mix.speckled_tables:
                scene["felt_trays" if rng.random() < 0.5 else "granite_table"] = True
            img, truths = render_scene(rng, n_dice=n_dice, clutter=mix.clutter, **scene)

        def cut(b: np.ndarray, img: np.ndarray = img, above: bool = above) -> np.ndarray:
            return crop_dice(img, b, down=downs("above", img.shape, b) if above else None)

        thing_boxes = _thing_boxes(rng, things, img.shape)
        if len(thing_boxes):
            crops.append(cut(thing_boxes))
            labels.append(np.full(len(thing_boxes), NOT_A_DIE))

        b = np.array([t.box for t in truths], np.float32).reshape(-1, 4)
        full = n_dice is not None and n_dice >= FULL_TRAY_DICE[0]
        small, seen = _locator_view(rng, img, b, full)
        frames.append(small)
        boxes.append(np.concatenate([seen, np.full((len(seen), 1), len(frames) - 1)], 1))
        if len(truths):
            lab = np.array([t.label for t in truths])
            for _rep in range(2):
                crops.append(cut(_jitter_boxes(rng, b, 0.1)))
                labels.append(lab)
            far = _jitter_boxes(rng, b, 0.0)
            shift = rng.choice([-1, 1], (len(b), 2)) * rng.uniform(0.45, 0.7, (len(b), 2))
            far[:, :2] += shift * (b[:, 2:] - b[:, :2])
            far[:, 2:] += shift * (b[:, 2:] - b[:, :2])
            crops.append(cut(far))
            labels.append(np.full(len(b), NOT_A_DIE))
        side = float(np.median(b[:, 2] - b[:, 0])) if len(b) else rng.uniform(20, 80)
        rnd = rng.uniform([0, 0], [640, 480], (3, 2))
        ok = [
            r
            for r in rnd
            if not len(b) or np.min(np.abs(((b[:, :2] + b[:, 2:]) / 2) - r).max(1)) > side
        ]
        if ok:
            r = np.array(ok)
            crops.append(cut(np.concatenate([r - side / 2, r + side / 2], 1)))
            labels.append(np.full(len(r), NOT_A_DIE))
    return {
        "frames": np.stack(frames),
        "boxes": np.concatenate(boxes),
        "crops": np.concatenate(crops).astype(np.uint8),
        "labels": np.concatenate(labels).astype(np.int64),
    }


def make(out: Path, scenes: int, seed: int, workers: int, mix: SceneMix) -> Path:
    """Render `scenes` scenes as `mix` asks, in parallel, and save them as one .npz file."""
    chunk = 100
    jobs = [
        (seed * 100003 + i, min(chunk, scenes - i * chunk), mix)
        for i in range((scenes + chunk - 1) // chunk)
    ]
    with Pool(workers) as pool:
        parts = pool.map(_one_chunk, jobs)
    frames, boxes = _frames_joined(parts)
    out.parent.mkdir(parents=True, exist_ok=True)
    save_arrays(
        out,
        {
            "frames": frames,
            "boxes": boxes,
            **{k: np.concatenate([p[k] for p in parts]) for k in ("crops", "labels")},
        },
    )
    return out


def save_arrays(path: Path, arrays: Mapping[str, np.ndarray]) -> None:
    """Save named arrays as one .npz file."""
    named: dict[str, Any] = dict(arrays)
    np.savez(path, **named)


def joined(parts: list[Path], frames: bool = False) -> dict[str, np.ndarray]:
    """The crops and labels of one or more saved sets as one set for the pip reader, or with
    `frames` their locator frames and boxes as one set for the locator; only those arrays are
    read from the files."""
    sets = [np.load(p) for p in parts]
    if frames:
        joined_frames, boxes = _frames_joined(sets)
        return {"frames": joined_frames, "boxes": boxes}
    return {
        "crops": np.concatenate([s["crops"] for s in sets]),
        "labels": np.concatenate([s["labels"] for s in sets]),
    }


def join(out: Path, parts: list[Path], frames: bool = False) -> Path:
    """Save several rendered sets as one (`joined`)."""
    save_arrays(out, joined(parts, frames))
    return out


def _frames_joined(sets: list) -> tuple[np.ndarray, np.ndarray]:
    """The locator frames of several sets one after another, and their boxes with the index of
    their frame (the boxes' last column) counted over all of them."""
    boxes, offset = [], 0
    for part in sets:
        renumbered = part["boxes"].copy()
        renumbered[:, 4] += offset
        boxes.append(renumbered)
        offset += len(part["frames"])
    return np.concatenate([part["frames"] for part in sets]), np.concatenate(boxes)


def main() -> None:
    """Command line: render a data set file."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--scenes", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "lv_dice.npz")
    ap.add_argument(
        "--crowded", type=float, default=0.0, help="share of scenes crowded with 15-40 dice"
    )
    ap.add_argument(
        "--full-trays",
        type=float,
        default=0.0,
        help="share of scenes with 60-120 dice, a full tray",
    )
    ap.add_argument(
        "--camouflage",
        type=float,
        default=0.0,
        help="share of dice coloured as the table under them",
    )
    ap.add_argument(
        "--from-above",
        type=float,
        default=0.0,
        help="share of scenes seen by a camera straight above (a photo of a tray)",
    )
    ap.add_argument(
        "--glossy",
        type=float,
        default=0.0,
        help="share of dice with a shiny finish that reflects the light",
    )
    ap.add_argument(
        "--marbled",
        type=float,
        default=0.0,
        help="share of dice whose body is swirled with veins of another colour",
    )
    ap.add_argument(
        "--speckled",
        type=float,
        default=0.0,
        help="share of dice dotted with flecks of another colour",
    )
    ap.add_argument(
        "--pip-styles",
        type=float,
        default=0.0,
        help="share of dice whose pips are placed, sized or coloured otherwise "
        "(a large 1, red 1s and 4s, hollow pits)",
    )
    ap.add_argument(
        "--clutter",
        type=float,
        default=0.0,
        help="share of scenes that also hold things which are not dice and get no box "
        "(coins, chips, screws, notes, keys; some on granite or with salt-and-pepper noise)",
    )
    ap.add_argument(
        "--speckled-tables",
        type=float,
        default=0.0,
        help="share of scenes on a speckled granite table, half of them with the dice in felt "
        "trays on it",
    )
    ap.add_argument(
        "--round-trays",
        type=float,
        default=0.0,
        help="share of scenes with 4-14 dice from above on a light grey tray among round grey "
        "and metal things (screw heads, magnets, lenses, caps), each thing also cut out as "
        "not a die",
    )
    ap.add_argument(
        "--simulated-tables",
        type=float,
        default=0.0,
        help="share of scenes that are frames of the companion's simulated table, thrown with "
        "3-12 dice, many of them grey and blank",
    )
    ap.add_argument(
        "--join",
        nargs="+",
        type=Path,
        default=None,
        metavar="SET",
        help="instead of rendering, join these sets' crops and labels into --out",
    )
    ap.add_argument(
        "--frames",
        action="store_true",
        help="with --join: join the locator frames and boxes instead",
    )
    a = ap.parse_args()
    for name in ("clutter", "speckled_tables", "round_trays", "simulated_tables"):
        if not 0.0 <= getattr(a, name) <= 1.0:
            flag = "--" + name.replace("_", "-")
            ap.error(f"{flag} is a share of scenes from 0 to 1, got {getattr(a, name)}")
    if a.join:
        print(join(a.out, a.join, a.frames))
        return
    finish = {
        name: share
        for name in ("camouflage", "glossy", "marbled", "speckled", "pip_styles")
        if (share := getattr(a, name))
    }
    mix = SceneMix(
        a.crowded,
        a.full_trays,
        a.from_above,
        finish,
        a.clutter,
        a.speckled_tables,
        a.round_trays,
        a.simulated_tables,
    )
    print(make(a.out, a.scenes, a.seed, a.workers, mix))


if __name__ == "__main__":
    main()
