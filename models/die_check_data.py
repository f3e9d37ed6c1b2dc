"""Training crops for the die checker (`vision/die_check.py`): wide crops around boxes, each
labelled die or no die.

Where the crops come from:
- the reader's own boxes on the `fit` part of each real set (boxes on a labelled die are dice,
  boxes on no labelled die are not); photos whose labels name no die are skipped, since some
  of them hold dice nobody labelled;
- the labelled dice of the whole-die sets again, their boxes moved and rescaled a little;
- the shipped locator's boxes on no labelled die, up to `strays` a photo;
- the same three from rendered scenes with clutter (`models.clutter`), whose truth is known;
- with `--plain-faces`, dice showing a blank or a 1 alone (`plain_face_crops`), rendered and on
  the simulated table: the dice most like the round things the checker refuses.

The held-out and tuning parts are never read here. Photos stay outside the project; the output
is a temporary .npz file for `train_die_check.py`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.make_data import _jitter_boxes, save_arrays, simulated_table_laid  # noqa: E402
from models.real_sets import real_sets  # noqa: E402
from models.whole_die_sets import _holds_no_die  # noqa: E402
from vision import locate  # noqa: E402
from vision.die_check import context_crops  # noqa: E402
from vision.onnx_models import LOCATOR_FILE, model_path, open_session  # noqa: E402
from vision.reader import ReaderConfig, read_dice  # noqa: E402

# Where each crop came from, kept beside it so that training can weigh the kinds.
READER_BOX, LABEL_BOX, STRAY_BOX = 0, 1, 2
RENDERED = 3  # added to the kind for crops of rendered scenes
PLAIN_FACE = 6  # a rendered or simulated die showing a blank or a 1 (`plain_face_crops`)
# Dice whose face shows a blank or a single pip look most like the round things the checker
# learns to refuse (coins, caps, lenses): `plain_face_crops` draws them in these shares.
GREY_BLANK_SHARE, ONE_SHARE = 0.4, 0.35
JITTER = 0.1  # labelled boxes are moved and rescaled by up to this share of their side
# Rendered scenes: a few dice, a crowded tray or a full tray, by these shares, as the reader
# meets them (a die among touching neighbours must stay a die).
SCENE_DICE = ((0.45, (2, 16)), (0.35, (15, 41)), (0.2, (60, 121)))
MOST_DICE_A_SCENE = 25  # crops of dice kept a rendered scene (of each of its two kinds)
# The reader whose boxes are cut: every use of the die checker off (its bars, and the sharper
# and smoothed looks it backs), so that the checker learns from boxes it has not already judged.
WITHOUT_CHECKER = ReaderConfig(
    no_die_below=0.0,
    read_no_die_below=0.0,
    blank_no_die_below=0.0,
    doubt_sure_below=0.0,
    sharp_die_from=0.0,
    smooth_die_from=0.0,
)


class _Crops:
    """Crops, labels, kinds and unsure flags gathered one photo at a time."""

    def __init__(self) -> None:
        self.parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []

    def add(
        self,
        frame: np.ndarray,
        boxes: np.ndarray,
        die: bool | np.ndarray,
        kind: int,
        unsure: np.ndarray | None = None,
    ) -> None:
        boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
        if not len(boxes):
            return
        n = len(boxes)
        crops = np.clip(context_crops(frame, boxes), 0, 255).astype(np.uint8)
        labels = np.broadcast_to(np.asarray(die, np.uint8), (n,)).copy()
        flags = np.zeros(n, bool) if unsure is None else np.asarray(unsure, bool)
        self.parts.append((crops, labels, np.full(n, kind, np.uint8), flags))

    def arrays(self) -> dict[str, np.ndarray]:
        if not self.parts:
            raise SystemExit("die_check_data: no crops were cut")
        crops, labels, kinds, unsure = (np.concatenate(p) for p in zip(*self.parts, strict=True))
        return {"crops": crops, "labels": labels, "kinds": kinds, "unsure": unsure}


def _on_die(found: np.ndarray, die_boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which found boxes lie on a die (each holds the other's centre) and which on none (neither
    holds any die's centre); boxes that are neither are left out of both."""
    if not len(found):
        return np.zeros(0, bool), np.zeros(0, bool)
    none = _holds_no_die(found, die_boxes)
    if not len(die_boxes):
        return np.zeros(len(found), bool), none
    dc = (die_boxes[:, :2] + die_boxes[:, 2:]) / 2
    die_in_box = locate.centred_in(found, dc)  # (found, dice)
    box_in_die = locate.centred_in(die_boxes, (found[:, :2] + found[:, 2:]) / 2).T
    return np.asarray((die_in_box & box_in_die).any(1), bool), none


def _top_face_boxes(item) -> np.ndarray:
    """Boxes around the labelled pip patterns of a top-face set, one pattern side wide."""
    half = np.asarray(item.spans, np.float32).reshape(-1, 1) / 2
    centres = np.asarray(item.centres, np.float32).reshape(-1, 2)
    return np.hstack([centres - half, centres + half])


def real_crops(out: _Crops, rng: np.random.Generator, strays: int, part: str = "fit") -> None:
    """Crops from one training part of every real set present."""
    session = open_session(str(model_path(LOCATOR_FILE)), 2)
    for real in real_sets().values():
        if not real.available():
            print(f"die_check_data: {real.folder} is missing, skipped", file=sys.stderr)
            continue
        for item in real.photos(part):
            if not len(item.centres):
                continue
            frame = cv2.imread(str(item.image))
            if frame is None:
                raise SystemExit(f"die_check_data: {item.image} is not a readable image")
            whole = item.die_boxes is not None
            dice = (
                np.asarray(item.die_boxes, np.float32).reshape(-1, 4)
                if whole
                else _top_face_boxes(item)
            )
            det = read_dice(frame, WITHOUT_CHECKER)
            on, none = _on_die(det.boxes, dice)
            out.add(frame, det.boxes[on], True, READER_BOX, det.unsure[on])
            out.add(frame, det.boxes[none], False, READER_BOX, det.unsure[none])
            if whole:
                out.add(frame, _jitter_boxes(rng, dice, JITTER), True, LABEL_BOX)
            _add_strays(out, rng, frame, session, dice, strays, 0)


def _add_strays(out: _Crops, rng, frame, session, dice: np.ndarray, most: int, kind: int) -> None:
    """Up to `most` of the locator's boxes on no die of a frame, as no die."""
    found, _ = locate.locate(session, frame, 0.2)
    found = np.asarray(found, np.float32).reshape(-1, 4)
    _on, none = _on_die(found, dice)
    stray = found[none]
    if len(stray) > most:
        stray = stray[rng.choice(len(stray), most, replace=False)]
    out.add(frame, stray, False, STRAY_BOX + kind)


def rendered_crops(
    out: _Crops,
    rng: np.random.Generator,
    scenes: int,
    strays: int,
    speckled_tables: float = 0.0,
    round_trays: float = 0.0,
) -> None:
    """Crops from rendered scenes with clutter, of every finish and camera the renderer has;
    `speckled_tables` of them (a share) with the dice on a granite table or in felt trays on one,
    from above, and `round_trays` of them with 4-14 dice on a light grey tray (or granite) among
    round grey and metal things (caps, magnets, screws, lenses), from above."""
    from models.render import render_scene

    session = open_session(str(model_path(LOCATOR_FILE)), 2)
    shares = np.array([share for share, _ in SCENE_DICE])
    for _ in range(scenes):
        low, high = SCENE_DICE[int(rng.choice(len(shares), p=shares))][1]
        glossy, marbled, speckled = (float(rng.random() < 0.3) for _ in range(3))
        on_speckle = bool(speckled_tables) and rng.random() < speckled_tables
        in_trays = on_speckle and rng.random() < 0.5
        on_round_tray = bool(round_trays) and rng.random() < round_trays
        if on_round_tray:
            low, high = 4, 15
        if on_speckle:
            low, high = 2, 16  # a tray holds a game's dice
        frame, truths = render_scene(
            rng,
            n_dice=int(rng.integers(low, max(high, low + 1))),
            camera_height=float(rng.uniform(0.5, 1.4)) if rng.random() < 0.5 else None,
            pip_styles=0.3,
            translucent=0.1,
            clutter=1.0 if on_round_tray else (0.9 if high <= 16 else 0.4),
            round_clutter_on_a_tray=on_round_tray,
            glossy=glossy,
            marbled=marbled,
            speckled=speckled,
            elevation_deg=90.0 if on_speckle or on_round_tray else None,
            granite_table=on_speckle and not in_trays,
            felt_trays=in_trays,
        )
        dice = np.array([t.box for t in truths], np.float32).reshape(-1, 4)
        det = read_dice(frame, WITHOUT_CHECKER)
        on, none = _on_die(det.boxes, dice)
        on = _at_most(rng, on, MOST_DICE_A_SCENE)
        out.add(frame, det.boxes[on], True, READER_BOX + RENDERED, det.unsure[on])
        out.add(frame, det.boxes[none], False, READER_BOX + RENDERED, det.unsure[none])
        some = _at_most(rng, np.ones(len(dice), bool), MOST_DICE_A_SCENE)
        out.add(frame, _jitter_boxes(rng, dice[some], JITTER), True, LABEL_BOX + RENDERED)
        _add_strays(out, rng, frame, session, dice, strays, RENDERED)


def plain_face_crops(out: _Crops, rng: np.random.Generator, scenes: int) -> None:
    """Dice showing a blank face or a single pip, as dice: the labelled boxes, moved a little,
    of such dice in rendered scenes (with clutter around them), and the reader's boxes (the
    checker off) on simulated tables (`vision.simtable`) thrown with many grey blank dice and
    dice of every colour showing 1. Each source gets `scenes` scenes."""
    from models.render import render_scene
    from vision.colour import DEFAULT_COLOURS_BGR
    from vision.simtable import SimDie

    for _ in range(scenes):
        frame, truths = render_scene(
            rng, n_dice=int(rng.integers(4, 16)), clutter=0.6, pip_styles=0.2, glossy=0.2
        )
        plain = np.array([t.box for t in truths if t.label in (0, 1)], np.float32).reshape(-1, 4)
        out.add(frame, _jitter_boxes(rng, plain, JITTER), True, PLAIN_FACE)
    colours = [c for c in DEFAULT_COLOURS_BGR if c != "grey"]
    for _ in range(scenes):
        dice = []
        for _die in range(int(rng.integers(3, 13))):
            draw = rng.random()
            if draw < GREY_BLANK_SHARE:
                dice.append(SimDie("grey", 0, bool(rng.random() < 0.15)))
                continue
            pips = 1 if draw < GREY_BLANK_SHARE + ONE_SHARE else int(rng.integers(2, 7))
            colour = colours[int(rng.integers(len(colours)))]
            dice.append(SimDie(colour, pips, bool(rng.random() < 0.15)))
        table = simulated_table_laid(rng, dice)
        frame = table.read()
        boxes = np.array([d.box for d in table.lying], np.float32).reshape(-1, 4)
        det = read_dice(frame, WITHOUT_CHECKER)
        on, none = _on_die(det.boxes, boxes)
        out.add(frame, det.boxes[on], True, PLAIN_FACE, det.unsure[on])
        out.add(frame, det.boxes[none], False, PLAIN_FACE, det.unsure[none])


def _at_most(rng: np.random.Generator, chosen: np.ndarray, most: int) -> np.ndarray:
    """`chosen` (n,) bool with all but `most` of its True entries, drawn at random, made False."""
    idx = np.flatnonzero(chosen)
    if len(idx) <= most:
        return chosen
    out = np.zeros_like(chosen)
    out[rng.choice(idx, most, replace=False)] = True
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "die_check.npz")
    ap.add_argument("--scenes", type=int, default=1500, help="rendered scenes")
    ap.add_argument("--strays", type=int, default=6, help="locator boxes on no die a photo")
    ap.add_argument("--part", default="fit", choices=("fit",), help="the real part read")
    ap.add_argument("--no-real", action="store_true", help="rendered scenes alone")
    ap.add_argument(
        "--plain-faces",
        type=int,
        default=0,
        help="rendered and simulated scenes of dice showing a blank or a 1, this many of each "
        "(alone, without the real and rendered crops above)",
    )
    ap.add_argument(
        "--speckled-tables",
        type=float,
        default=0.0,
        help="share of rendered scenes on a granite table or in felt trays on one, from above",
    )
    ap.add_argument(
        "--round-trays",
        type=float,
        default=0.0,
        help="share of rendered scenes on a light grey tray among round grey and metal things "
        "(caps, magnets, screws, lenses), from above",
    )
    ap.add_argument("--seed", type=int, default=31)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    out = _Crops()
    if args.plain_faces:
        plain_face_crops(out, rng, args.plain_faces)
    else:
        if not args.no_real:
            real_crops(out, rng, args.strays, args.part)
        rendered_crops(out, rng, args.scenes, args.strays, args.speckled_tables, args.round_trays)
    arrays = out.arrays()
    save_arrays(args.out, arrays)
    kinds = arrays["kinds"]
    for kind in np.unique(kinds):
        sel = kinds == kind
        print(
            f"kind {int(kind)}: {int(sel.sum())} crops, {int(arrays['labels'][sel].sum())} dice, "
            f"{int(arrays['unsure'][sel].sum())} read unsure"
        )
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
