"""Cut pip-reader training crops (and locator training frames) from labelled real photos,
around the boxes the locator finds.

The crops are cut exactly as the reader cuts them at run time (the shipped locator's box, not the
label's), so the pip reader learns the crops it will really see. Each labelled die gives several
crops with the box moved and rescaled a little. Photos stay outside the project: the output is a
temporary .npz file for `train.py --real`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models import paint_dice  # noqa: E402
from models.devdata import OBLIQUE_WHITE, Labelled, matched_boxes, read_photo  # noqa: E402
from models.make_data import LOCATOR_SCALE, _jitter_boxes, save_arrays  # noqa: E402
from models.yolo_folders import load_split  # noqa: E402
from vision import locate  # noqa: E402
from vision.crops import crop_dice  # noqa: E402
from vision.onnx_models import LOCATOR_FILE, model_path, open_session  # noqa: E402


def _located(splits: list[str], root: Path, locator: Path | None = None):
    """Each labelled photo of the splits with the locator's boxes (the shipped one unless
    given): (frame, boxes, labels) per photo, where boxes[k] is the box that holds label k's
    centre (None if no box does)."""
    session = open_session(str(locator or model_path(LOCATOR_FILE)), 2)
    for split in splits:
        for item in load_split(split, root):
            frame = read_photo(item.image)
            found, _scores = locate.locate(session, frame, 0.2)
            matched = matched_boxes(found, item.centres)
            yield frame, [None if j is None else found[j] for j in matched], item


def _with_paintings(
    item: Labelled, frame: np.ndarray, paintings: int, rng: np.random.Generator
) -> Iterator[tuple[Labelled, np.ndarray]]:
    """The photo as taken with its labels, then `paintings` copies with its dice painted
    (`paint_dice.painted`), each with its own labels: (labels, frame) pairs, drawn lazily."""
    yield item, frame
    for _ in range(paintings):
        yield paint_dice.painted(item, frame, rng)


def real_crops(
    splits: list[str],
    copies: int,
    seed: int,
    root: Path = OBLIQUE_WHITE,
    locator: Path | None = None,
    paintings: int = 0,
) -> dict[str, np.ndarray]:
    """Crops (n, 3, 40, 40) uint8 and pip labels (n,) from every found labelled die, and as
    many from each of `paintings` copies of its photo with the dice painted other colours
    (`paint_dice.py`: a grey die's label becomes blank), cut around the same boxes."""
    rng = np.random.default_rng(seed)
    crops, labels = [], []
    for frame, boxes, item in _located(splits, root, locator):
        for shown_item, shown in _with_paintings(item, frame, paintings, rng):
            for found, p in zip(boxes, shown_item.pips, strict=True):
                if found is None:
                    continue
                box = np.repeat(found[None], copies, 0)
                box[1:] = _jitter_boxes(rng, box[1:], 0.08)
                crops.append(crop_dice(shown, box))
                labels.append(np.full(copies, p))
    return {
        "crops": np.concatenate(crops).astype(np.uint8),
        "labels": np.concatenate(labels).astype(np.int64),
    }


def real_frames(
    splits: list[str],
    root: Path = OBLIQUE_WHITE,
    locator: Path | None = None,
    paintings: int = 0,
    seed: int = 0,
) -> dict[str, np.ndarray]:
    """Locator training frames from labelled real photos: each photo at the locator's training
    scale, with the shipped locator's box around every labelled die it finds, and after it
    `paintings` copies with the dice painted other colours (`paint_dice.py`: grey ones blank),
    boxed as they were white.

    What the photos show besides the labelled dice (keyboards, plugs, ferrites, labels) is
    background here, so the locator learns that these are not dice.
    """
    rng = np.random.default_rng(seed)
    frames: list[np.ndarray] = []
    boxes: list[np.ndarray] = []
    for frame, found, item in _located(splits, root, locator):
        if frame.shape[:2] != (480, 640):
            continue  # the locator trains on 640x480 frames at half size
        # One box per die, even where two labels fall in the same box.
        unique = {tuple(b) for b in found if b is not None}
        b = np.array(sorted(unique), np.float32).reshape(-1, 4) * LOCATOR_SCALE
        for _labels, shown in _with_paintings(item, frame, paintings, rng):
            boxes.append(np.concatenate([b, np.full((len(b), 1), len(frames))], 1))
            frames.append(
                cv2.resize(
                    shown, None, fx=LOCATOR_SCALE, fy=LOCATOR_SCALE, interpolation=cv2.INTER_AREA
                )
            )
    return {"frames": np.stack(frames), "boxes": np.concatenate(boxes).astype(np.float32)}


def main() -> None:
    """Command line: write the crops (or, with --frames, the locator frames) of the chosen
    splits to an .npz file."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--splits", nargs="+", default=["Train"])
    ap.add_argument("--copies", type=int, default=8, help="crops per labelled die")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "lv_real.npz")
    ap.add_argument(
        "--frames",
        action="store_true",
        help="locator frames and boxes (train.py --real-frames) instead of crops",
    )
    ap.add_argument(
        "--paintings",
        type=int,
        default=0,
        help="also each photo this many times with its dice painted",
    )
    ap.add_argument(
        "--locator",
        type=Path,
        default=None,
        help="locator .onnx whose boxes to cut around (default: the shipped one)",
    )
    a = ap.parse_args()
    if a.frames:
        data = real_frames(a.splits, locator=a.locator, paintings=a.paintings, seed=a.seed)
        save_arrays(a.out, data)
        print(a.out, len(data["frames"]), "frames,", len(data["boxes"]), "dice")
        return
    data = real_crops(a.splits, a.copies, a.seed, locator=a.locator, paintings=a.paintings)
    save_arrays(a.out, data)
    print(a.out, len(data["labels"]), "crops,", np.bincount(data["labels"], minlength=9))


if __name__ == "__main__":
    main()
