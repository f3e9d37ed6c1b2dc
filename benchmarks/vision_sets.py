"""Score the dice reader on folders of labelled real photos, one table row per set.

Reads the real sets of ../shared/data (by default their held-out part, fixed in
models/real_sets.json) and any other folder of YOLO-labelled photos (`--folders`): every set in
it, `images/` beside `labels/` or photos beside their `.txt` labels, with what each class means
read from its name in the nearest data.yaml, classes.txt or obj.names ("1", "six", "dice-4",
"red_2"; with no names, class k is k + 1 pips). For each set it prints: dice, found, right pips of
found, flagged unsure, read for sure but wrong (of all dice), boxes on no labelled die per 100
photos and how many of those were read for sure (a die the table would add unseen; an unsure
box only holds the roll up), colour named right, named wrong with no doubt and named in doubt
(of found dice, where colours are labelled), and the median, slowest tenth (90th percentile)
and worst time a photo.
A reader box matches a labelled die when each holds the other's centre (for the oblique white
set, whose labels box only the pip pattern, when the box holds the label's centre).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reader_options import add_reader_options, reader_config  # noqa: E402

from models.devdata import (  # noqa: E402
    UNKNOWN_PIPS,
    Labelled,
    Score,
    found_and_right,
    matched_boxes,
)
from models.real_sets import PARTS, real_sets  # noqa: E402
from models.yolo_folders import FolderError, LabelledFolder, labelled_folders, load  # noqa: E402
from vision import viewpoint  # noqa: E402
from vision.colour import (  # noqa: E402
    DEFAULT_COLOURS_BGR,
    Palette,
    body_colours,
    calibrate,
    calibrate_from_frame,
)
from vision.detections import Detections  # noqa: E402
from vision.locate import box_sides  # noqa: E402
from vision.reader import ReaderConfig, read_dice  # noqa: E402

SURE_WRONG_MARGIN = 1.6  # a die read for sure but wrong is written with this much around its box
SURE_WRONG_PX = 200  # ... enlarged to this many pixels square
COLOUR_FILE = Path(__file__).resolve().parents[1] / "models" / "real_colours.json"
# `--by-size` groups the dice by the side of their labelled box with the photo scaled to
# SIZE_LONG_SIDE px on its long side (a webcam's 640x480), at these edges.
SIZE_LONG_SIDE = 640
SIZE_EDGES = (18, 25, 35, 50, 80)


def with_colours(items: list[Labelled], colours: dict[str, list[str]]) -> list[Labelled]:
    """The photos with each die's labelled body colour where it is one of the game's colours
    (others, such as maroon or translucent dice, are left unscored)."""
    out = []
    for item in items:
        names = colours.get(item.image.stem)
        if names is None or len(names) != len(item.pips):
            out.append(item)
            continue
        game = tuple(n if n in DEFAULT_COLOURS_BGR else None for n in names)
        out.append(replace(item, colours=game))
    return out


def colours_in_play(item: Labelled) -> list[str]:
    """The game colours labelled on a photo: the colours a game of those dice would play."""
    return sorted({c for c in item.colours or () if c is not None})


def label_bodies(frame: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The body colours (n, 3) of the labelled dice in `boxes`, measured as the reader measures
    those of its own dice: on the top face, seen from the camera place it judges for the photo
    (the table calibrates from the reader's own measures, `Detections.body`)."""
    heard: list[str] = []
    read_dice(frame, ReaderConfig(place_heard=heard.append))
    downs = viewpoint.downs(heard[-1], frame.shape, boxes) if heard else None
    return body_colours(frame, boxes, downs)


def palette_learnt_from(items: list[Labelled]) -> Palette | None:
    """A palette calibrated from the labelled dice of other photos: each game colour's body
    colours measured inside the label boxes (None where no die has a labelled colour)."""
    samples: dict[str, list[np.ndarray]] = {}
    for item in items:
        if not item.colours or item.die_boxes is None:
            continue
        frame = cv2.imread(str(item.image))
        if frame is None:
            continue
        for name, bgr in zip(item.colours, label_bodies(frame, item.die_boxes), strict=True):
            if name is not None:
                samples.setdefault(name, []).append(bgr)
    if not samples:
        return None
    return calibrate({name: np.array(found) for name, found in samples.items()})


def palette_of_photo(frame: np.ndarray, item: Labelled) -> Palette | None:
    """A palette calibrated on the photo itself, as a table is calibrated on a frame of its
    own dice: from the labelled dice whose colour is known (None where none is)."""
    if not item.colours or item.die_boxes is None:
        return None
    known = [k for k, name in enumerate(item.colours) if name is not None]
    names = [name for name in item.colours if name is not None]
    if not names:
        return None
    boxes = item.die_boxes[known]
    palette = calibrate_from_frame(frame, boxes, names, label_bodies(frame, boxes))
    return replace(palette, in_play=tuple(dict.fromkeys(names)))


def write_sure_wrong(folder: Path, item: Labelled, frame: np.ndarray, det: Detections) -> int:
    """Write a PNG of each labelled die of the photo read for sure but wrong (the box with a
    margin around it, enlarged, its name giving the pips read and true, and the confidence)
    into `folder`; how many."""
    written = 0
    for k, j in enumerate(matched_boxes(det.boxes, item.centres, item.die_boxes)):
        if j is None or det.unsure[j] or det.pips[j] == item.pips[k]:
            continue
        x0, y0, x1, y1 = det.boxes[j]
        half = SURE_WRONG_MARGIN * max(x1 - x0, y1 - y0) / 2
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        cut = frame[
            max(int(cy - half), 0) : max(int(cy + half), 1),
            max(int(cx - half), 0) : max(int(cx + half), 1),
        ]
        name = f"{item.image.stem}_{k}_read{det.pips[j]}_true{item.pips[k]}"
        name += f"_conf{det.confidence[j]:.2f}.png"
        cv2.imwrite(str(folder / name), cv2.resize(cut, (SURE_WRONG_PX, SURE_WRONG_PX)))
        written += 1
    return written


def size_group(side: float) -> str:
    """The name of the size group a die of `side` px (at SIZE_LONG_SIDE) falls in."""
    lower = [edge for edge in SIZE_EDGES if edge <= side]
    upper = [edge for edge in SIZE_EDGES if edge > side]
    if not lower:
        return f"under {upper[0]} px"
    return f"{lower[-1]} px and more" if not upper else f"{lower[-1]}-{upper[0]} px"


def tally_sizes(
    tally: dict[str, list[int]], item: Labelled, det: Detections, frame_shape: tuple[int, ...]
) -> None:
    """Add one photo's dice to `tally`, per size group: [dice, found, right pips, flagged
    unsure, read for sure but wrong, found with labelled pips]. Only labels that box whole dice
    have a size; a die labelled without pips (UNKNOWN_PIPS) counts in found and unsure alone,
    as in `Score`."""
    if item.die_boxes is None or not len(item.pips):
        return
    sides = box_sides(np.asarray(item.die_boxes, np.float32)) * SIZE_LONG_SIDE / max(frame_shape)
    matched = matched_boxes(det.boxes, item.centres, item.die_boxes)
    for j, pips, side in zip(matched, item.pips, sides, strict=True):
        counts = tally.setdefault(size_group(float(side)), [0] * 6)
        found = j is not None
        read = found and pips != UNKNOWN_PIPS
        right = read and det.pips[j] == pips
        unsure = found and bool(det.unsure[j])
        hits = (True, found, right, unsure, read and not unsure and not right, read)
        for k, hit in enumerate(hits):
            counts[k] += int(hit)


def size_table(tally: dict[str, list[int]]) -> dict[str, dict[str, float]]:
    """Per size group, smallest first: dice, found %, right pips of found %, flagged unsure of
    found %, and the dice read for sure but wrong."""
    order = [size_group(edge - 0.5) for edge in SIZE_EDGES] + [size_group(SIZE_EDGES[-1])]
    return {
        group: {
            **found_and_right(n, found, right, read),
            "unsure_pct": round(100.0 * unsure / max(found, 1), 2),
            "sure_wrong": sure_wrong,
        }
        for group in order
        if group in tally
        for n, found, right, unsure, sure_wrong, read in [tally[group]]
    }


def score_photos(
    items: list[Labelled],
    cfg: ReaderConfig,
    per_photo: bool = False,
    sure_wrong_to: Path | None = None,
    in_play: bool = False,
) -> dict:
    """Read every photo and return the score summary with the time figures; with `per_photo`,
    each photo's colours are named with a palette calibrated on that photo; with `in_play`,
    uncalibrated, among the game colours labelled on that photo, as a game names its dice
    among its players' colours; with `sure_wrong_to`, the dice read for sure but wrong are
    written there (`write_sure_wrong`)."""
    score = Score()
    times = []
    sizes: dict[str, list[int]] = {}
    for item in items:
        frame = cv2.imread(str(item.image))
        if frame is None:
            continue
        photo_cfg, played = cfg, []
        if per_photo and (palette := palette_of_photo(frame, item)) is not None:
            photo_cfg = replace(cfg, palette=palette)
        elif in_play and (played := colours_in_play(item)):
            photo_cfg = replace(cfg, palette=cfg.palette.in_play_only(played))
        start = time.perf_counter()
        det = read_dice(frame, photo_cfg)
        times.append(time.perf_counter() - start)
        if played:
            # A die named a colour no one plays is flagged at the table ("no dice of this game
            # are grey"), not applied: it counts as in doubt.
            outside = ~np.isin(det.colour, played)
            det = replace(det, colour_doubt=det.colour_doubt | outside)
        score.add(item, det)
        tally_sizes(sizes, item, det, frame.shape)
        if sure_wrong_to is not None:
            write_sure_wrong(sure_wrong_to, item, frame, det)
    summary: dict = {**score.summary()}
    summary["photos"] = score.photos
    summary["median_ms"] = 1000 * float(np.median(times)) if times else 0.0
    # The slowest tenth of the photos: where a table's busy frames fall.
    summary["p90_ms"] = 1000 * float(np.percentile(times, 90)) if times else 0.0
    summary["worst_ms"] = 1000 * max(times, default=0.0)
    summary["by_colour"] = score.by_colour_table()
    summary["by_size"] = size_table(sizes)
    summary["intervals"] = score.intervals()
    return summary


ROW = "{:<30} {:>6} {:>5} {:>7} {:>6} {:>7} {:>10} {:>9} {:>9} {:>7} {:>9} {:>9} {:>7} {:>7} {:>8}"


def print_table(results: dict[str, dict]) -> None:
    """One row a set."""
    print(
        ROW.format(
            "set",
            "photos",
            "dice",
            "found%",
            "pips%",
            "unsure%",
            "surewrong%",
            "nodie/100",
            "sure/100",
            "colour%",
            "col.wrong",
            "col.doubt",
            "med ms",
            "p90 ms",
            "worst ms",
        )
    )
    for name, r in results.items():
        colour = f"{r['colour_pct']:.1f}" if "colour_pct" in r else "-"
        colour_wrong = f"{r['colour_sure_wrong_pct']:.1f}" if "colour_pct" in r else "-"
        colour_doubt = f"{r['colour_doubt_pct']:.1f}" if "colour_pct" in r else "-"
        print(
            ROW.format(
                name[:30],
                r["photos"],
                r["labelled"],
                f"{r['found_pct']:.2f}",
                f"{r['pips_pct']:.2f}" if r["labelled_with_pips"] else "-",
                f"{r['unsure_pct']:.2f}",
                f"{r['sure_wrong_pct']:.2f}" if r["labelled_with_pips"] else "-",
                f"{r['no_die_per_100_photos']:.0f}",
                f"{r['sure_no_die_per_100_photos']:.0f}",
                colour,
                colour_wrong,
                colour_doubt,
                f"{r['median_ms']:.0f}",
                f"{r['p90_ms']:.0f}",
                f"{r['worst_ms']:.0f}",
            )
        )
    for name, r in results.items():
        if r.get("intervals") and r["labelled"]:
            print(f"{name}: {interval_line(r['intervals'])}")
        if r["labelled"] > r["labelled_with_pips"]:
            print(
                f"{name}: {r['labelled'] - r['labelled_with_pips']} dice labelled without their "
                "pips count in found and unsure, not in pips or sure but wrong"
            )
        if r.get("unlabelled_photos"):
            print(
                f"{name}: {r['boxes_on_unlabelled_photos']} of the boxes on no die lie on "
                f"{r['unlabelled_photos']} photos with no labelled die (dice left unlabelled "
                "count as boxes on no die)"
            )


def interval_line(intervals: dict[str, tuple[int, int, float, float]]) -> str:
    """The counts behind a set's figures, each with its 95 % interval: a change of a die or two
    on a set of a hundred or so moves a figure well inside it."""
    parts = [
        f"{name} {k} of {n} ({low:.1f}-{high:.1f} %)"
        for name, (k, n, low, high) in intervals.items()
        if n
    ]
    return "counted, with 95 % intervals: " + ", ".join(parts)


def print_sizes(results: dict[str, dict]) -> None:
    """One table a set whose labels box whole dice: its dice by size."""
    for name, r in results.items():
        if not r.get("by_size"):
            continue
        print(f"\n{name}, by die side at {SIZE_LONG_SIDE} px on the photo's long side:")
        print(
            f"{'side':<16} {'dice':>5} {'found%':>7} {'pips%':>6} {'unsure%':>7} {'surewrong':>9}"
        )
        for group, g in r["by_size"].items():
            print(
                f"{group:<16} {g['dice']:>5} {g['found_pct']:>7.2f} {g['pips_pct']:>6.2f} "
                f"{g['unsure_pct']:>7.2f} {g['sure_wrong']:>9}"
            )


def load_folder(
    name: str, labelled: LabelledFolder, class_names: list[str] | None, whole_die: bool
) -> list[Labelled]:
    """A found set's photos with their labels, saying on stderr what each class was scored as
    and what could not be read."""
    classes = labelled.classes(class_names)
    source = "given" if class_names else labelled.names_from.name if labelled.names_from else None
    items, notes = load(labelled, classes, whole_die)
    say = sys.stderr
    if classes is None:
        print(f"{name}: no class names found; class k is scored as a die of k + 1 pips", file=say)
    else:
        meanings = ", ".join(f"{k} {c.name!r}: {c.describe()}" for k, c in enumerate(classes))
        print(f"{name}: classes ({source}): {meanings}", file=say)
    if notes.unknown_classes:
        listed = ", ".join(str(k) for k in sorted(notes.unknown_classes))
        print(f"{name}: classes {listed} are not named; scored as dice of unknown pips", file=say)
    if notes.unreadable_photos:
        print(f"{name}: {len(notes.unreadable_photos)} photos could not be read", file=say)
    if notes.bad_label_lines:
        print(f"{name}: {notes.bad_label_lines} label lines are not boxes; left out", file=say)
    if notes.left_out_labels:
        print(f"{name}: {notes.left_out_labels} labels of classes named '-' left out", file=say)
    return items


def score_folders(
    folders: list[Path],
    cfg: ReaderConfig,
    class_names: list[str] | None,
    whole_die: bool,
    per_photo: bool = False,
    crops_root: Path | None = None,
    in_play: bool = False,
) -> dict[str, dict]:
    """Each labelled set found in each folder, scored (`score_photos`, with `per_photo` and
    `in_play` as there, and each die read for sure but wrong written into a folder of
    `crops_root` named after the set), by name: the folder's name, and the set's place in it
    where it holds several. FolderError for a folder that is none or holds no labelled
    photos, and OSError where the crops cannot be written."""
    results = {}
    for folder in folders:
        if not folder.is_dir():
            raise FolderError(f"{folder} is not a folder")
        found = labelled_folders(folder.resolve())
        if not found:
            raise FolderError(
                f"no labelled photos in {folder} (photos with YOLO .txt labels, beside them or "
                "in a labels/ folder beside images/)"
            )
        for labelled in found:
            name = (
                labelled.name if labelled.name == folder.name else f"{folder.name}/{labelled.name}"
            )
            items = load_folder(name, labelled, class_names, whole_die)
            results[name] = score_photos(
                items, cfg, per_photo, crops_folder(crops_root, name), in_play
            )
    return results


def crops_folder(crops_root: Path | None, name: str) -> Path | None:
    """The folder, made where missing, that a set's dice read for sure but wrong are written
    into: `name` in `crops_root` (None: none are written). OSError where it cannot be made."""
    if crops_root is None:
        return None
    folder = crops_root / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def add_folder_options(ap: argparse.ArgumentParser) -> None:
    """The options that name other folders of labelled photos and how to read their labels."""
    ap.add_argument(
        "--folders",
        nargs="*",
        type=Path,
        default=[],
        help="other folders of YOLO-labelled photos: each set in them is scored on its own",
    )
    ap.add_argument(
        "--classes",
        nargs="+",
        default=None,
        help="the --folders' class names in class order, instead of their names file ('-': a "
        "class that boxes no die, left out)",
    )
    ap.add_argument(
        "--top-face",
        action="store_true",
        help="the --folders' labels box the top face alone, not the whole die: a reader's box "
        "matches a label when it holds the label's centre",
    )


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--sets",
        nargs="*",
        default=None,
        help="real sets of ../shared/data to read (default: every one present)",
    )
    ap.add_argument(
        "--part",
        choices=PARTS,
        default="holdout",
        help="which part of the real sets (default: the held-out part)",
    )
    add_folder_options(ap)
    ap.add_argument(
        "--colours",
        type=Path,
        default=COLOUR_FILE,
        help="body colour labels, as models/real_colours.json",
    )
    add_reader_options(ap)
    ap.add_argument(
        "--calibrated",
        choices=["fit", "photo"],
        default=None,
        help="name colours with a palette calibrated from each set's fit part (labelled "
        "colours), or on each photo's own labelled dice, not the default palette",
    )
    ap.add_argument(
        "--in-play",
        action="store_true",
        help="name colours uncalibrated among the game colours labelled on each photo, as a "
        "game names its dice among its players' colours before any calibration",
    )
    ap.add_argument(
        "--sure-wrong-crops",
        type=Path,
        default=None,
        help="write a PNG of each die read for sure but wrong into this folder (one a set)",
    )
    ap.add_argument(
        "--by-size",
        action="store_true",
        help=f"also a table a set of its dice by size (side at {SIZE_LONG_SIDE} px on the "
        "photo's long side), where the labels box whole dice",
    )
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()

    cfg = reader_config(args)
    per_photo = args.calibrated == "photo"
    colour_labels = json.loads(args.colours.read_text()) if args.colours.is_file() else {}
    chosen = real_sets()
    names = args.sets if args.sets is not None else list(chosen)
    results: dict[str, dict] = {}
    for name in names:
        real = chosen.get(name)
        if real is None:
            print(f"vision_sets: no real set {name!r}; known: {', '.join(chosen)}", file=sys.stderr)
            return 2
        if not real.available():
            print(f"vision_sets: {real.folder} is missing; {name} skipped", file=sys.stderr)
            continue
        labels = colour_labels.get(name, {})
        try:
            items = with_colours(real.photos(args.part), labels)
            fit = with_colours(real.photos("fit"), labels) if args.calibrated == "fit" else []
        except FolderError as err:
            print(f"vision_sets: {err}", file=sys.stderr)
            return 2
        set_cfg = cfg
        if args.calibrated == "fit":
            palette = palette_learnt_from(fit)
            set_cfg = cfg if palette is None else replace(cfg, palette=palette)
        try:
            crops_to = crops_folder(args.sure_wrong_crops, name)
        except OSError as err:
            print(f"vision_sets: cannot write crops for {name}: {err}", file=sys.stderr)
            return 2
        results[f"{name} ({args.part})"] = score_photos(
            items, set_cfg, per_photo, crops_to, args.in_play
        )
    try:
        results.update(
            score_folders(
                args.folders,
                cfg,
                args.classes,
                not args.top_face,
                per_photo,
                args.sure_wrong_crops,
                args.in_play,
            )
        )
    except (FolderError, OSError) as err:
        print(f"vision_sets: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        print_table(results)
        if args.by_size:
            print_sizes(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
