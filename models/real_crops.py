"""Cut pip-reader training crops from labelled real photos, around the boxes the locator finds.

The crops are cut exactly as the reader cuts them at run time (the shipped locator's box, not the
label's), so the pip reader learns the crops it will really see. Each labelled die gives several
crops with the box moved and rescaled a little. Photos stay outside the project: the output is a
temporary .npz file for `train.py --real`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.make_data import _jitter_boxes  # noqa: E402
from vision import locate  # noqa: E402
from vision.crops import crop_dice  # noqa: E402
from vision.devdata import OBLIQUE_WHITE, load_split, matched_boxes  # noqa: E402
from vision.onnx_models import LOCATOR_FILE, model_path, open_session  # noqa: E402


def real_crops(splits: list[str], copies: int, seed: int, root: Path = OBLIQUE_WHITE
               ) -> dict[str, np.ndarray]:
    """Crops (n, 3, 40, 40) uint8 and pip labels (n,) from every found labelled die."""
    rng = np.random.default_rng(seed)
    session = open_session(str(model_path(LOCATOR_FILE)), 2)
    crops, labels = [], []
    for split in splits:
        for item in load_split(split, root):
            frame = cv2.imread(str(item.image))
            boxes, _scores = locate.locate(session, frame, 0.2)
            for j, p in zip(matched_boxes(boxes, item.centres), item.pips, strict=True):
                if j is None:
                    continue
                box = np.repeat(boxes[j:j + 1], copies, 0)
                box[1:] = _jitter_boxes(rng, box[1:], 0.08)
                crops.append(crop_dice(frame, box))
                labels.append(np.full(copies, p))
    return {"crops": np.concatenate(crops).astype(np.uint8),
            "labels": np.concatenate(labels).astype(np.int64)}


def main() -> None:
    """Command line: write the crops of the chosen splits to an .npz file."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--splits", nargs="+", default=["Train"])
    ap.add_argument("--copies", type=int, default=8, help="crops per labelled die")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "lv_real.npz")
    a = ap.parse_args()
    data = real_crops(a.splits, a.copies, a.seed)
    np.savez(a.out, **data)
    print(a.out, len(data["labels"]), "crops,", np.bincount(data["labels"], minlength=9))


if __name__ == "__main__":
    main()
