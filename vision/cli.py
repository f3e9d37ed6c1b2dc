"""The `lasvegas detect` sub-command: read dice in image files, print JSON, draw results."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import cv2

from vision.draw import draw_detections
from vision.reader import ReaderConfig, read_dice


def register(subparsers: Any) -> None:
    """Add the `detect` sub-command to the main CLI's sub-parsers."""
    p = subparsers.add_parser("detect", help="read the dice in image files",
                              description="Find every die in each image and read it.")
    p.add_argument("images", nargs="+", metavar="IMAGE", help="image files to read")
    p.add_argument("--json", action="store_true", help="print one JSON array for all images")
    p.add_argument("--draw", metavar="OUT_DIR", type=Path,
                   help="write each image with what was read drawn on it")
    p.add_argument("--threads", type=int, default=1, help="CPU threads for inference")
    p.set_defaults(handler=run_detect)


def _read_one(path: str, cfg: ReaderConfig, draw_dir: Path | None) -> dict[str, Any]:
    """The JSON object for one image file, or one with an error message."""
    frame = cv2.imread(path, cv2.IMREAD_COLOR) if Path(path).is_file() else None
    if frame is None:
        why = "no such file" if not Path(path).exists() else "not a readable image"
        return {"image": path, "error": f"{path}: {why}"}
    det = read_dice(frame, cfg)
    if draw_dir is not None:
        draw_dir.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(draw_dir / (Path(path).stem + ".png")), draw_detections(frame, det))
    h, w = frame.shape[:2]
    return {"image": path, "width": w, "height": h, "dice": det.to_dicts()}


def run_detect(args: argparse.Namespace) -> int:
    """Read every image; return 1 if any file could not be read, else 0."""
    cfg = ReaderConfig(threads=args.threads)
    results = [_read_one(p, cfg, args.draw) for p in args.images]
    for r in results:
        if "error" in r:
            print(f"error: {r['error']}", file=sys.stderr)
    if args.json:
        print(json.dumps(results, indent=None))
    else:
        for r in results:
            if "error" in r:
                continue
            dice = ", ".join(
                f"{d['colour']} {d['pips'] or 'blank'}{' big' if d['size'] == 'big' else ''}"
                f"{' ?' if d['unsure'] else ''}" for d in r["dice"])
            print(f"{r['image']}: {len(r['dice'])} dice: {dice}")
    return 1 if any("error" in r for r in results) else 0
