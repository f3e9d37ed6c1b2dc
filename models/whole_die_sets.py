"""Locator frames and pip-reader crops from the training parts of the real sets whose labels box
the whole die (`real_sets.json`: the oblique coloured and the top-down grey phone photos).

Their labels already box each die as the locator should, so no locator is needed to place the
boxes. Everything in a photo that no label boxes (paper, remotes, keyboards, boards, speckled
tables, the round opening's rim) is background for the locator: its hard negatives. For the pip
readers, the boxes the shipped locator puts on no labelled die are cut as "not a die" crops.

Only the `fit` part of each set is read (or another training part, if asked): the held-out
and tuning parts are never trained on. Photos stay
outside the project; the output is a temporary .npz file for `train.py --real-frames` or
`train.py --real`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.make_data import _jitter_boxes, save_arrays  # noqa: E402
from models.real_sets import real_sets  # noqa: E402
from vision import locate, viewpoint  # noqa: E402
from vision.crops import crop_dice  # noqa: E402
from vision.onnx_models import LOCATOR_FILE, model_path, open_session  # noqa: E402

WHOLE_DIE_SETS = ("dice-photos-oblique-coloured", "dice-photos-topdown-grey")
FRAME_SHAPE = (240, 320)  # the locator's training frames: 640x480 at LOCATOR_SCALE
NOT_A_DIE = 8  # the pip readers' class for a crop that holds no die
KEEP_CUT = 0.6  # a die cut by a window's edge stays a target if this share of it is inside
# Photos seen from above have their crops turned toward the frame's middle, as the reader does.
CAMERA_PLACE = {"dice-photos-oblique-coloured": "bottom", "dice-photos-topdown-grey": "above"}


TRAINING_PARTS = ("fit", "train", "tune")
WIDTHS = (320,)  # the photo's width in the training frames: the locator's training scale


def _training_photos(names: tuple[str, ...], part: str = "fit"):
    """(set name, labelled photo, BGR frame) for every photo of one training part of the sets."""
    if part not in TRAINING_PARTS:
        raise ValueError(f"part must be one of {', '.join(TRAINING_PARTS)}, not {part!r}")
    chosen = real_sets()
    for name in names:
        real = chosen[name]
        if not real.available():
            raise SystemExit(f"whole_die_sets: {real.folder} is missing")
        for item in real.photos(part):
            frame = cv2.imread(str(item.image))
            if frame is None:
                raise SystemExit(f"whole_die_sets: {item.image} is not a readable image")
            yield name, item, frame


def _starts(length: int, window: int) -> list[int]:
    """Where windows of `window` px start along a side of `length` px: at both ends."""
    return sorted({0, length - window}) if length > window else [0]


def _windows(
    frame: np.ndarray, boxes: np.ndarray, width: int = FRAME_SHAPE[1]
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The photo scaled to `width` px wide (at least the training frame's), cut into windows of
    the training frame's shape at its corners (two for a square photo at the frame's width,
    four when wider), each with the boxes that lie at least KEEP_CUT inside it, clipped to it.
    A die cut more than that is left out of that window's targets; another window holds it
    whole."""
    th, tw = FRAME_SHAPE
    width = max(width, tw)
    scale = width / frame.shape[1]
    small = cv2.resize(
        frame, (width, max(th, int(round(frame.shape[0] * scale)))), interpolation=cv2.INTER_AREA
    )
    scaled = boxes * scale
    out = []
    for top in _starts(small.shape[0], th):
        for left in _starts(width, tw):
            out.append(_window(small, scaled, top, left))
    return out


def _window(
    small: np.ndarray, scaled: np.ndarray, top: int, left: int
) -> tuple[np.ndarray, np.ndarray]:
    """One window of the scaled photo and the boxes kept in it (see `_windows`)."""
    th, tw = FRAME_SHAPE
    shifted = scaled - np.array([left, top, left, top], np.float32)
    clipped = np.concatenate(
        [np.maximum(shifted[:, :2], 0), np.minimum(shifted[:, 2:], [tw - 1, th - 1])], 1
    )
    area = np.prod(np.clip(shifted[:, 2:] - shifted[:, :2], 1e-3, None), 1)
    inside = np.prod(np.clip(clipped[:, 2:] - clipped[:, :2], 0, None), 1)
    keep = inside >= KEEP_CUT * area
    return small[top : top + th, left : left + tw].copy(), clipped[keep]


def frames(
    names: tuple[str, ...] = WHOLE_DIE_SETS, part: str = "fit", widths: tuple[int, ...] = WIDTHS
) -> dict[str, np.ndarray]:
    """Locator frames (n, 240, 320, 3) uint8 and boxes (k, 5): x0, y0, x1, y1, frame index;
    each photo scaled to every one of `widths` and cut into windows."""
    shown: list[np.ndarray] = []
    boxes: list[np.ndarray] = []
    for _name, item, frame in _training_photos(names, part):
        labelled = np.asarray(item.die_boxes, np.float32).reshape(-1, 4)
        windows = [w for width in widths for w in _windows(frame, labelled, width)]
        for window, kept in windows:
            boxes.append(np.concatenate([kept, np.full((len(kept), 1), len(shown))], 1))
            shown.append(window)
    return {"frames": np.stack(shown), "boxes": np.concatenate(boxes).astype(np.float32)}


def _holds_no_die(found: np.ndarray, labelled: np.ndarray) -> np.ndarray:
    """Which found boxes neither hold a labelled die's centre nor have their centre inside a
    labelled die's box."""
    if not len(labelled):
        return np.ones(len(found), bool)
    fc = (found[:, :2] + found[:, 2:]) / 2
    lc = (labelled[:, :2] + labelled[:, 2:]) / 2
    centre_in_label = (
        (fc[:, None, 0] >= labelled[None, :, 0])
        & (fc[:, None, 0] <= labelled[None, :, 2])
        & (fc[:, None, 1] >= labelled[None, :, 1])
        & (fc[:, None, 1] <= labelled[None, :, 3])
    ).any(1)
    label_in_box = (
        (lc[None, :, 0] >= found[:, None, 0])
        & (lc[None, :, 0] <= found[:, None, 2])
        & (lc[None, :, 1] >= found[:, None, 1])
        & (lc[None, :, 1] <= found[:, None, 3])
    ).any(1)
    return ~(centre_in_label | label_in_box)


def crops(
    copies: int,
    seed: int,
    negatives: int,
    names: tuple[str, ...] = WHOLE_DIE_SETS,
    part: str = "fit",
) -> dict[str, np.ndarray]:
    """Pip-reader crops (n, 3, 40, 40) uint8 and labels (n,): `copies` per labelled die (all but
    the first moved and rescaled by up to 8 %), and up to `negatives` per photo of the shipped
    locator's boxes that lie on no labelled die, labelled not a die."""
    rng = np.random.default_rng(seed)
    session = open_session(str(model_path(LOCATOR_FILE)), 2)
    cut, labels = [], []
    for name, item, frame in _training_photos(names, part):
        place = CAMERA_PLACE[name]
        labelled = np.asarray(item.die_boxes, np.float32).reshape(-1, 4)
        for box, pips in zip(labelled, item.pips, strict=True):
            many = np.repeat(box[None], copies, 0)
            many[1:] = _jitter_boxes(rng, many[1:], 0.08)
            cut.append(crop_dice(frame, many, down=viewpoint.downs(place, frame.shape, many)))
            labels.append(np.full(copies, pips))
        found, _scores = locate.locate(session, frame, 0.2)
        found = np.asarray(found, np.float32).reshape(-1, 4)
        stray = found[_holds_no_die(found, labelled)]
        if len(stray) > negatives:
            stray = stray[rng.choice(len(stray), negatives, replace=False)]
        if len(stray):
            cut.append(crop_dice(frame, stray, down=viewpoint.downs(place, frame.shape, stray)))
            labels.append(np.full(len(stray), NOT_A_DIE))
    return {
        "crops": np.concatenate(cut).astype(np.uint8),
        "labels": np.concatenate(labels).astype(np.int64),
    }


def main() -> None:
    """Command line: write the locator frames (--frames) or the pip crops to an .npz file."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--frames", action="store_true", help="locator frames instead of crops")
    ap.add_argument("--sets", nargs="+", default=list(WHOLE_DIE_SETS), choices=WHOLE_DIE_SETS)
    ap.add_argument("--copies", type=int, default=8, help="crops per labelled die")
    ap.add_argument("--negatives", type=int, default=6, help="most 'not a die' crops per photo")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--part", choices=TRAINING_PARTS, default="fit", help="which training part")
    ap.add_argument(
        "--widths",
        nargs="+",
        type=int,
        default=list(WIDTHS),
        help="frames: the widths, in px, each photo is scaled to before it is cut into windows",
    )
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "lv_whole_die.npz")
    a = ap.parse_args()
    names = tuple(a.sets)
    if a.frames:
        data = frames(names, a.part, tuple(a.widths))
        save_arrays(a.out, data)
        print(a.out, len(data["frames"]), "frames,", len(data["boxes"]), "dice")
        return
    data = crops(a.copies, a.seed, a.negatives, names, a.part)
    save_arrays(a.out, data)
    print(a.out, len(data["labels"]), "crops,", np.bincount(data["labels"], minlength=9))


if __name__ == "__main__":
    main()
