"""Score the dice reader on the real development photos: per-die found rate and pips accuracy.

With `--folders DIR ...`, it scores any folders of YOLO-labelled photos instead, set by set, as
`vision_sets.py --sets --folders DIR ...` does (see there): one JSON line a set."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reader_options import add_reader_options, reader_config  # noqa: E402
from vision_sets import add_folder_options, score_folders  # noqa: E402

from models import paint_dice  # noqa: E402
from models.devdata import OBLIQUE_WHITE, Labelled, Score, close_up, turned  # noqa: E402
from models.yolo_folders import FolderError, load_split  # noqa: E402
from vision.draw import draw_detections  # noqa: E402
from vision.locate import centred_in, clear_of_edge  # noqa: E402
from vision.reader import ReaderConfig, read_dice  # noqa: E402


def evaluate(
    split: str,
    cfg: ReaderConfig,
    draw_misses: Path | None = None,
    scale: float = 1.0,
    turns: int = 0,
    stretch: float = 1.0,
    damage: str | None = None,
    painted: tuple[str, ...] = (),
) -> dict:
    """Read every photo of a split (with `painted`, each die painted one of these colours of
    `models/paint_dice.py`; resized by `scale`, as another camera would give it, its
    height by `stretch` more, as a photo resized to another shape, turned by `turns` quarter
    turns, as a webcam at another edge of the table sees it, and spoilt by one of DAMAGES)
    and return its score summary."""
    score = Score()
    for number, item in enumerate(load_split(split)):
        frame = cv2.imread(str(item.image))
        if painted:
            item, frame = paint_dice.painted(item, frame, np.random.default_rng(number), painted)
        item, frame = turned(item, frame, turns)
        if damage is not None:
            frame = DAMAGES[damage](frame, np.random.default_rng(number))
        if (scale, stretch) != (1.0, 1.0):
            frame = _resized(frame, scale, scale * stretch)
            item = replace(item, centres=item.centres * [scale, scale * stretch])
        det = read_dice(frame, cfg)
        before = (score.found, score.right_pips)
        score.add(item, det)
        missed = score.found - before[0] < len(item.centres)
        wrong = score.right_pips - before[1] < score.found - before[0]
        if draw_misses is not None and (missed or wrong):
            draw_misses.mkdir(parents=True, exist_ok=True)
            img = draw_detections(frame, det)
            for c, p in zip(item.centres, item.pips, strict=True):
                cv2.circle(img, (int(c[0]), int(c[1])), 4, (255, 0, 255), -1)
                cv2.putText(
                    img,
                    str(p),
                    (int(c[0]) + 5, int(c[1]) + 15),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    0.5,
                    (255, 0, 255),
                    1,
                )
            kind = "painted_" if painted else ""
            cv2.imwrite(str(draw_misses / f"{split}_{kind}{item.image.stem}.png"), img)
    by_colour = {"by_colour": score.by_colour_table()} if painted else {}
    return {**score.summary(), "pips_pct_by_value": score.pips_by_value(), **by_colour}


def _jpeg(frame: np.ndarray, quality: int) -> np.ndarray:
    """The frame saved as a JPEG of this quality and read back."""
    return cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], 1)


def _scaled(frame: np.ndarray, gain) -> np.ndarray:
    """The frame's values times a gain (one, or one per channel), clipped to 0-255."""
    return np.clip(frame * np.asarray(gain, np.float32), 0, 255).astype(np.uint8)


# What cheaper cameras, other lights and careless saving do to a photo. Each takes the frame and
# a random generator (for noise), and returns the spoilt frame.
DAMAGES = {
    "jpeg20": lambda f, rng: _jpeg(f, 20),
    "noise12": lambda f, rng: np.clip(f + rng.normal(0, 12, f.shape), 0, 255).astype(np.uint8),
    "blur2": lambda f, rng: cv2.GaussianBlur(f, (0, 0), 2.0),
    "dim0.45": lambda f, rng: _scaled(f, 0.45),
    "bright1.3": lambda f, rng: _scaled(f, 1.3),
    "overexposed1.6": lambda f, rng: _scaled(f, 1.6),
    "warm": lambda f, rng: _scaled(f, (0.75, 1.0, 1.2)),
    "low_contrast": lambda f, rng: (128 + (f.astype(np.float32) - 128) * 0.5).astype(np.uint8),
}


def _resized(frame, fx: float, fy: float):
    """The frame resized by fx across and fy down (area averaging where it shrinks)."""
    shrink = fx * fy < 1
    return cv2.resize(
        frame, None, fx=fx, fy=fy, interpolation=cv2.INTER_AREA if shrink else cv2.INTER_CUBIC
    )


def evaluate_tiled(split: str, cfg: ReaderConfig, scale: float = 0.5, side: int = 3) -> dict:
    """Score summary of the split's photos shrunk by `scale` and tiled side x side into one
    frame (3x3 at half size: about 26 real dice in 960x720), a crowded tray of real dice, which
    the reader looks at more than once."""
    items = load_split(split)
    per_frame = side * side
    score = Score()
    for start in range(0, len(items) - per_frame + 1, per_frame):
        group = items[start : start + per_frame]
        tiles = [
            cv2.resize(
                cv2.imread(str(item.image)), None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA
            )
            for item in group
        ]
        h, w = tiles[0].shape[:2]
        tiles = [cv2.resize(t, (w, h)) for t in tiles]  # photos of another size fit the grid
        frame = np.vstack([np.hstack(tiles[r * side : (r + 1) * side]) for r in range(side)])
        centres = np.concatenate(
            [
                item.centres * scale + [(i % side) * w, (i // side) * h]
                for i, item in enumerate(group)
            ]
        )
        pips = np.concatenate([item.pips for item in group])
        score.add(replace(group[0], centres=centres, pips=pips), read_dice(frame, cfg))
    return score.summary()


def evaluate_close_ups(split: str, cfg: ReaderConfig, dice_high: float) -> dict:
    """Score summary of close-ups of every labelled die of the split: the photo cut around the
    die to `dice_high` dice high and resized to 640x480 (a camera close to a few dice, or a
    phone's photo of them). Only the die in the middle is labelled; its cut neighbours are not
    scored, so boxes on no labelled die mean little here."""
    score = Score()
    for item in load_split(split):
        frame = cv2.imread(str(item.image))
        for die in range(len(item.centres)):
            one, cut = close_up(item, frame, die, dice_high)
            score.add(one, read_dice(cut, cfg))
    return score.summary()


RENDERED_SEED = 987654  # the rendered rows' scenes: a seed never used in training
CLOSE_UP_SIDE = 45  # px: the smallest rendered die cut out for a close-up (enlarged up to 5x)


def evaluate_rendered_close_ups(cfg: ReaderConfig, scenes: int, dice_high: float) -> dict:
    """Score summary of close-ups of rendered dice: each whole die showing pips of `scenes`
    top-down scenes of a few dice (a seed of its own, never trained on), cut out `dice_high`
    dice high and resized to 640x480, as `evaluate_close_ups` does with the photos. Only dice
    of CLOSE_UP_SIDE px or more: a smaller one enlarged so blurs as no close photo would."""
    from models.render import render_scene

    rng = np.random.default_rng(24680)
    score = Score()
    for _ in range(scenes):
        frame, truths = render_scene(rng, n_dice=int(rng.integers(*FEW)), elevation_deg=90.0)
        for t in truths:
            box = np.array(t.box, np.float32)
            side = float(np.mean(box[2:] - box[:2]))
            if (
                t.label in (0, 7)
                or side < CLOSE_UP_SIDE
                or not clear_of_edge(box[None], frame.shape)[0]
            ):
                continue
            item = Labelled(Path("rendered"), ((box[:2] + box[2:]) / 2)[None], np.array([t.label]))
            one, cut = close_up(item, frame, 0, dice_high, die_side=side)
            score.add(one, read_dice(cut, cfg))
    return score.summary()


def evaluate_rendered(
    cfg: ReaderConfig,
    scenes: int,
    elevation: float | None,
    dice: tuple[int, int] = (4, 15),
    camera_heights: tuple[float, float] | None = None,
    stretch: float = 1.0,
    seed: int = RENDERED_SEED,
    **finish: float | bool,
) -> dict:
    """Found and pips rates, and boxes on no die, on rendered scenes from a seed never used in
    training, each with dice[0] to dice[1] - 1 dice; with `camera_heights`, seen by a camera
    straight above the frame's centre at a height (in frame widths) drawn from that range;
    with `stretch`, each frame's height resized by that factor (pixels taller than wide);
    `finish`, the shares of dice with each finish or pip style (`render_scene`'s glossy,
    marbled, speckled, translucent, pip_styles); `seed`, the scenes drawn (the model card's
    figures use RENDERED_SEED; another seed tells a real change from the draw of scenes)."""

    from models.render import render_scene

    rng = np.random.default_rng(seed)
    total = found = right = unsure = right_sure = on_no_die = read_twice = 0
    sure_on_no_die = sure_wrong = 0  # what the table would apply unseen
    # Dice wholly in the frame that show pips, as a photo of a tray, taken to show its dice,
    # holds them: how many, how many found, how many of those read right.
    whole = whole_found = whole_right = 0
    blank = 0  # the game's grey dice without pips (Royale), each showing its blank face
    missed = {"blank": 0, "at_edge": 0}  # other dice not found (whole ones: whole - whole_found)
    for _ in range(scenes):
        n_dice = int(rng.integers(*dice))
        height = None if camera_heights is None else float(rng.uniform(*camera_heights))
        frame, truths = render_scene(
            rng, n_dice=n_dice, elevation_deg=elevation, camera_height=height, **finish
        )
        dice_boxes = np.array([t.box for t in truths], np.float32).reshape(-1, 4)
        if stretch != 1.0:
            frame = _resized(frame, 1.0, stretch)
            dice_boxes *= np.array([1, stretch, 1, stretch], np.float32)
        det = read_dice(frame, cfg)
        no_die = ~centred_in(dice_boxes, det.centres).any(0)
        on_no_die += int(np.sum(no_die))
        sure_on_no_die += int(np.sum(no_die & ~det.unsure))
        read_twice += _read_twice(dice_boxes, det.centres)
        for t, die_box in zip(truths, dice_boxes, strict=True):
            if t.label == 7:
                continue  # cut off by the frame or cocked: no right answer
            total += 1
            blank += t.label == 0
            box = die_box[None]
            c = (die_box[:2] + die_box[2:]) / 2
            inside = centred_in(box, det.centres)[0]
            is_whole = t.label != 0 and bool(clear_of_edge(box, frame.shape)[0])
            whole += is_whole
            whole_found += is_whole and bool(inside.any())
            if not inside.any():
                if not is_whole:
                    missed["blank" if t.label == 0 else "at_edge"] += 1
                continue
            idx = np.nonzero(inside)[0]
            j = idx[np.argmin(np.linalg.norm(det.centres[idx] - c, axis=1))]
            found += 1
            right += int(det.pips[j] == t.label)
            whole_right += is_whole and int(det.pips[j] == t.label)
            unsure += int(det.unsure[j])
            right_sure += int(det.pips[j] == t.label and not det.unsure[j])
            sure_wrong += int(det.pips[j] != t.label and not det.unsure[j])
    return {
        "labelled": total,
        "found_pct": 100.0 * found / max(total, 1),
        "pips_pct": 100.0 * right / max(found, 1),
        "unsure_pct": 100.0 * unsure / max(found, 1),
        "pips_pct_of_sure": 100.0 * right_sure / max(found - unsure, 1),
        "whole_with_pips_found_pct": 100.0 * whole_found / max(whole, 1),
        "pips_pct_of_whole_found": 100.0 * whole_right / max(whole_found, 1),
        "blank_found_pct": 100.0 * (blank - missed["blank"]) / max(blank, 1),
        "blank_dice": blank,
        "boxes_on_no_die": on_no_die,
        "sure_boxes_on_no_die": sure_on_no_die,
        "sure_wrong": sure_wrong,
        "dice_read_twice": read_twice,
        "missed_by_kind": {**missed, "whole": whole - whole_found},
    }


def _read_twice(dice_boxes: np.ndarray, centres: np.ndarray) -> int:
    """How many rendered dice (cocked and cut ones too) more than one die read is given to:
    each die read goes to the die, among those its centre lies on, whose centre is nearest."""
    if not len(centres) or not len(dice_boxes):
        return 0
    on = centred_in(dice_boxes, centres)
    middles = (dice_boxes[:, :2] + dice_boxes[:, 2:]) / 2
    far = np.linalg.norm(middles[:, None] - centres[None], axis=2)
    owner = np.where(on, far, np.inf).argmin(0)[on.any(0)]
    return int(np.sum(np.bincount(owner, minlength=len(dice_boxes)) > 1))


ABOVE = (0.6, 1.2)  # a camera straight above at 0.6-1.2 frame widths
FEW, CROWDED, FULL = (4, 15), (25, 41), (60, 121)
# name, camera elevation (None: any), dice per scene, camera heights above, the dice's finish
RENDERED_ROWS: tuple[
    tuple[str, float | None, tuple[int, int], tuple[float, float] | None, dict[str, float | bool]],
    ...,
] = (
    ("rendered top-down", 90.0, FEW, None, {}),
    ("rendered any angle", None, FEW, None, {}),
    ("rendered crowded top-down", 90.0, CROWDED, None, {}),
    ("rendered full tray top-down", 90.0, FULL, None, {}),
    ("rendered photo from above", 90.0, FEW, ABOVE, {}),
    ("rendered crowded photo from above", 90.0, CROWDED, ABOVE, {}),
    ("rendered shiny dice, photo from above", 90.0, FEW, ABOVE, {"glossy": 1.0}),
    ("rendered shiny dice, crowded, from above", 90.0, CROWDED, ABOVE, {"glossy": 1.0}),
    ("rendered marbled dice, photo from above", 90.0, FEW, ABOVE, {"marbled": 1.0}),
    (
        "rendered marbled shiny dice, crowded, from above",
        90.0,
        CROWDED,
        ABOVE,
        {"glossy": 0.5, "marbled": 1.0},
    ),
    # Speckled dice are in the pip readers' training set, not in the locator's.
    ("rendered speckled dice, photo from above", 90.0, FEW, ABOVE, {"speckled": 1.0}),
    (
        "rendered speckled shiny dice, crowded, from above",
        90.0,
        CROWDED,
        ABOVE,
        {"glossy": 0.5, "speckled": 1.0},
    ),
    # Translucent dice are in no training set: how the reader fares on dice unlike its own.
    (
        "rendered translucent dice, photo from above (finish never trained on)",
        90.0,
        FEW,
        ABOVE,
        {"translucent": 1.0},
    ),
    (
        "rendered translucent dice, crowded, from above (finish never trained on)",
        90.0,
        CROWDED,
        ABOVE,
        {"translucent": 1.0, "glossy": 0.3},
    ),
    # Pips placed, sized and coloured otherwise (a large 1, red 1s and 4s, hollow pits).
    ("rendered dice with other pips, photo from above", 90.0, FEW, ABOVE, {"pip_styles": 1.0}),
    (
        "rendered dice with other pips, crowded, from above",
        90.0,
        CROWDED,
        ABOVE,
        {"pip_styles": 1.0, "glossy": 0.3},
    ),
    # Things that are not dice lie about: coins, chips, screws, caps, lenses, keys, notes and
    # cards, some on a speckled granite top or with salt-and-pepper noise (models/clutter.py).
    ("rendered dice among clutter (coins, chips, keys, notes)", None, FEW, None, {"clutter": 1.0}),
    # A light grey tray seen from above with its magnets and screws, caps and lenses among the
    # dice: the round things a blank or a 1 is read on (vision/round_body.py).
    (
        "rendered light grey tray from above, round things among the dice",
        90.0,
        FEW,
        None,
        {"clutter": 1.0, "round_clutter_on_a_tray": True},
    ),
    # Dice alone on a speckled granite table, seen from above: the locator never learnt one.
    ("rendered speckled granite table from above", 90.0, FEW, None, {"granite_table": True}),
    # Dice in felt trays (a rim, the felt's nap, a stitched seam) on a speckled table, from above.
    ("rendered felt trays on a speckled table, from above", 90.0, FEW, None, {"felt_trays": True}),
)


def _rounded(summary: dict) -> dict:
    """The summary's figures to two decimals (per-value tables as they are)."""
    return {k: v if isinstance(v, dict) else round(v, 2) for k, v in summary.items()}


def main() -> int:
    """Print the per-split scores as JSON lines."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--splits", nargs="*", default=["Train", "Valid"])
    ap.add_argument("--draw-misses", type=Path, default=None)
    ap.add_argument(
        "--rendered",
        type=int,
        default=100,
        help="also score this many rendered scenes a row, every row of RENDERED_ROWS (0: skip)",
    )
    ap.add_argument(
        "--seed",
        type=int,
        default=RENDERED_SEED,
        help="draw the rendered rows' scenes from this seed (the model card's: the "
        "default; the close-ups keep their own)",
    )
    ap.add_argument(
        "--only-rows",
        nargs="*",
        default=[],
        help="score only the rendered rows whose name holds one of these words",
    )
    ap.add_argument(
        "--scales",
        nargs="*",
        type=float,
        default=[1.0],
        help="also read the photos resized by these factors (other cameras)",
    )
    ap.add_argument(
        "--tiled",
        nargs="*",
        type=float,
        default=[0.5],
        help="also read Valid shrunk by these factors and tiled 3x3 (a tray of real dice)",
    )
    ap.add_argument(
        "--turns",
        nargs="*",
        type=int,
        default=[],
        help="also read Valid turned by these quarter turns (a webcam at another edge)",
    )
    ap.add_argument(
        "--close-ups",
        nargs="*",
        type=float,
        default=[],
        help="also read each Valid die (and with --rendered, rendered dice) in a "
        "close-up this many dice high (2: the die fills half the frame's height)",
    )
    ap.add_argument(
        "--stretch",
        type=float,
        default=1.0,
        help="resize the rendered frames' and the photos' height (not the tiled or "
        "turned ones') by this much more than their width: a photo resized "
        "to another shape, as some data sets export them",
    )
    ap.add_argument(
        "--damage",
        nargs="*",
        choices=sorted(DAMAGES),
        default=[],
        help="also read Valid spoilt so: JPEG at quality 20, noise, blur, dim or "
        "bright light, overexposed (clipped), a warm light, low contrast",
    )
    ap.add_argument(
        "--painted",
        nargs="*",
        choices=sorted(paint_dice.PAINTS),
        default=None,
        help="also read the splits' photos with each die painted one of these "
        "colours (white or dark pips; grey: a blank face), or of all of them",
    )
    add_folder_options(ap)
    add_reader_options(ap)
    a = ap.parse_args()
    cfg = reader_config(a, threads=1)
    if a.folders:
        try:
            scored = score_folders(a.folders, cfg, a.classes, not a.top_face)
        except FolderError as err:
            print(f"vision_eval: {err}", file=sys.stderr)
            return 2
        for name, s in scored.items():
            print(json.dumps({"folder": name, **_rounded(s)}))
        return 0
    stretched = {} if a.stretch == 1.0 else {"stretch": a.stretch}
    seeded = {} if a.seed == RENDERED_SEED else {"seed": a.seed}
    if a.rendered:
        for name, elev, dice, heights, finish in RENDERED_ROWS:
            if a.only_rows and not any(part in name for part in a.only_rows):
                continue
            s = evaluate_rendered(cfg, a.rendered, elev, dice, heights, a.stretch, a.seed, **finish)
            print(json.dumps({"split": name, **seeded, **stretched, **_rounded(s)}))
    for dice_high in a.close_ups if a.rendered else []:
        s = evaluate_rendered_close_ups(cfg, a.rendered, dice_high)
        print(
            json.dumps(
                {"split": "rendered close-ups", "close_up_dice_high": dice_high, **_rounded(s)}
            )
        )
    if not OBLIQUE_WHITE.is_dir():
        print(f"development photos not found at {OBLIQUE_WHITE}; skipped the real photos")
        return 0
    for scale in a.scales:
        for split in a.splits:
            s = evaluate(split, cfg, a.draw_misses, scale, stretch=a.stretch)
            print(json.dumps({"split": split, "scale": scale, **stretched, **_rounded(s)}))
    for scale in a.tiled if "Valid" in a.splits else []:
        s = evaluate_tiled("Valid", cfg, scale)
        print(json.dumps({"split": "Valid", "tiled_3x3_at": scale, **_rounded(s)}))
    for turns in a.turns:
        s = evaluate("Valid", cfg, turns=turns)
        print(json.dumps({"split": "Valid", "quarter_turns": turns, **_rounded(s)}))
    for dice_high in a.close_ups:
        s = evaluate_close_ups("Valid", cfg, dice_high)
        print(json.dumps({"split": "Valid", "close_up_dice_high": dice_high, **_rounded(s)}))
    for damage in a.damage:
        s = evaluate("Valid", cfg, damage=damage)
        print(json.dumps({"split": "Valid", "damage": damage, **_rounded(s)}))
    paints = tuple(a.painted or paint_dice.PAINTS)
    for split in a.splits if a.painted is not None else []:
        s = evaluate(split, cfg, a.draw_misses, painted=paints)
        print(json.dumps({"split": split, "painted": list(paints), **_rounded(s)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
