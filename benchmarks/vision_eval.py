"""Score the dice reader on the real development photos: per-die found rate and pips accuracy."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.devdata import OBLIQUE_WHITE, Score, load_split  # noqa: E402
from vision.draw import draw_detections  # noqa: E402
from vision.reader import ReaderConfig, read_dice  # noqa: E402


def evaluate(split: str, cfg: ReaderConfig, draw_misses: Path | None = None) -> dict:
    """Read every photo of a split and return its score summary."""
    score = Score()
    for item in load_split(split):
        frame = cv2.imread(str(item.image))
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
                cv2.putText(img, str(p), (int(c[0]) + 5, int(c[1]) + 15),
                            cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 0, 255), 1)
            cv2.imwrite(str(draw_misses / f"{split}_{item.image.stem}.png"), img)
    return score.summary()


def main() -> int:
    """Print the per-split scores as JSON lines."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--splits", nargs="+", default=["Train", "Valid"])
    ap.add_argument("--draw-misses", type=Path, default=None)
    ap.add_argument("--locator", default=None, help="locator .onnx to use instead of the shipped")
    ap.add_argument("--pips", nargs="+", default=None,
                    help="pip reader .onnx files to use instead of the shipped ones")
    a = ap.parse_args()
    if not OBLIQUE_WHITE.is_dir():
        print(f"development photos not found at {OBLIQUE_WHITE}; nothing to score")
        return 0
    cfg = ReaderConfig(threads=1, locator_model=a.locator,
                       pips_models=tuple(a.pips) if a.pips else None)
    for split in a.splits:
        s = evaluate(split, cfg, a.draw_misses)
        print(json.dumps({"split": split, **{k: round(v, 2) for k, v in s.items()}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
