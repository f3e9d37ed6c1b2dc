"""What `lasvegas detect` and `lasvegas calibrate` do (loaded only when one of them runs)."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.colour import calibrate_from_frame, palette_from_json, palette_to_json
from vision.draw import draw_detections
from vision.images import ImageError, load_image
from vision.reader import ReaderConfig, read_dice
from vision.viewpoint import place_setting
from vision.zones import detect_zones, zones_from_corners


class OptionError(ValueError):
    """A command-line option's file cannot be used; the message names the option and the file."""


def _read_one(
    path: str, cfg: ReaderConfig, draw_dir: Path | None, markers: bool = False
) -> dict[str, Any]:
    """The JSON object for one image file, or one with an error message."""
    try:
        frame = load_image(path)
    except ImageError as exc:
        return {"image": path, "error": str(exc)}
    if markers:
        cfg = replace(cfg, zones=detect_zones(frame))
    det = read_dice(frame, cfg)
    h, w = frame.shape[:2]
    result = {"image": path, "width": w, "height": h, "dice": det.to_dicts()}
    if draw_dir is not None:
        drawn = draw_dir / (Path(path).stem + ".png")
        try:
            draw_dir.mkdir(parents=True, exist_ok=True)
            written = cv2.imwrite(str(drawn), draw_detections(frame, det))
        except (OSError, cv2.error) as exc:
            written, why = False, getattr(exc, "strerror", None) or str(exc)
        else:
            why = "OpenCV could not write it"
        if not written:
            result["error"] = f"--draw {drawn}: cannot be written ({why})"
    return result


def _option_json(option: str, path: Path) -> Any:
    """The JSON in an option's file, or OptionError naming the option and the file."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise OptionError(f"{option} {path}: no such file") from None
    except IsADirectoryError:
        raise OptionError(f"{option} {path}: a folder, not a JSON file") from None
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or exc
        raise OptionError(f"{option} {path}: cannot be read ({why})") from None
    except json.JSONDecodeError as exc:
        raise OptionError(f"{option} {path}: not JSON ({exc})") from None


def _config(args: argparse.Namespace) -> ReaderConfig:
    """Reader settings from the command line's options."""
    cfg = ReaderConfig(
        threads=args.threads, camera_place=place_setting(args.camera_place, "--camera-place")
    )
    if args.palette is not None:
        data = _option_json("--palette", args.palette)
        try:
            if not isinstance(data, dict):
                raise TypeError(f"it holds a JSON {type(data).__name__}, not an object")
            cfg = replace(cfg, palette=palette_from_json(data))
        except KeyError as exc:
            raise OptionError(
                f"--palette {args.palette}: not a palette written by `lasvegas "
                f"calibrate` (it has no {exc})"
            ) from None
        except (ValueError, TypeError, AttributeError) as exc:
            raise OptionError(
                f"--palette {args.palette}: not a palette written by `lasvegas calibrate` ({exc})"
            ) from None
    if args.colours:
        unknown = [name for name in args.colours if name not in cfg.palette.names]
        if unknown:
            raise ValueError(
                f"--colours: the palette has no colour {unknown[0]!r}; it has "
                f"{', '.join(cfg.palette.names)}"
            )
        cfg = replace(cfg, palette=cfg.palette.in_play_only(args.colours))
    if args.zones is not None and str(args.zones) != "markers":
        data = _option_json("--zones", args.zones)
        try:
            if not isinstance(data, dict):
                raise TypeError(f"it holds a JSON {type(data).__name__}, not an object")
            cfg = replace(cfg, zones=zones_from_corners(data))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise OptionError(
                f"--zones {args.zones}: {exc} (zones are "
                '{"arena": [[x, y], ...], "casino1": ...})'
            ) from None
    if args.draw is not None and args.draw.exists() and not args.draw.is_dir():
        raise OptionError(f"--draw {args.draw}: a file; name a folder to write the pictures in")
    return cfg


def run_detect(args: argparse.Namespace) -> int:
    """Read every image; return 1 if any file could not be read, else 0."""
    try:
        cfg = _config(args)
    except (OSError, ValueError, KeyError) as exc:
        print(f"lasvegas detect: {exc}", file=sys.stderr)
        return 2
    markers = args.zones is not None and str(args.zones) == "markers"
    results = [_read_one(p, cfg, args.draw, markers) for p in args.images]
    for r in results:
        if "error" in r:
            print(f"error: {r['error']}", file=sys.stderr)
    if args.json:
        print(json.dumps(results, indent=None))
    else:
        for r in results:
            if "dice" in r:
                print(summary_line(r))
    return 1 if any("error" in r for r in results) else 0


def summary_line(result: dict) -> str:
    """One image's reading for a person: how many dice, then each as its colour, pips (or
    blank), "big" for a Biggy and "?" where it is unsure."""
    dice = result["dice"]
    if not dice:
        return f"{result['image']}: no dice"
    each = ", ".join(
        f"{d['colour']} {d['pips'] or 'blank'}{' big' if d['size'] == 'big' else ''}"
        f"{' ?' if d['unsure'] else ''}"
        for d in dice
    )
    count = "1 die" if len(dice) == 1 else f"{len(dice)} dice"
    return f"{result['image']}: {count}: {each}"


def run_calibrate(args: argparse.Namespace) -> int:
    """Learn the palette from named dice in one photo and write it as JSON."""
    if args.out.is_dir() or not args.out.parent.is_dir():
        why = "a folder" if args.out.is_dir() else f"there is no folder {args.out.parent}"
        print(f"lasvegas calibrate: --out {args.out}: {why}; name a JSON file", file=sys.stderr)
        return 2
    try:
        frame = load_image(args.image)
    except ImageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    det = read_dice(frame, ReaderConfig())
    if len(det) != len(args.colours):
        print(
            f"error: found {len(det)} dice but got {len(args.colours)} colour names",
            file=sys.stderr,
        )
        return 1
    order = np.lexsort((det.centres[:, 1], np.round(det.centres[:, 0] / 20)))
    palette = calibrate_from_frame(frame, det.boxes[order], args.colours)
    try:
        args.out.write_text(json.dumps(palette_to_json(palette)))
    except OSError as exc:
        print(
            f"lasvegas calibrate: cannot write {args.out} ({exc.strerror or exc})", file=sys.stderr
        )
        return 1
    print(f"palette of {len(palette.names)} colours written to {args.out}")
    return 0
