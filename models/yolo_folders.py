"""Folders of YOLO-labelled dice photos as other people export them: the labelled sets a folder
holds, what each label class says of a die, and the photos with their labels.

A folder may hold one set or several, in the usual layouts:
- `images/` beside `labels/`, the label of `images/a/b.jpg` at `labels/a/b.txt` (one set for
  each folder of photos: `train/images`, `images/val`, ...);
- photos and their `.txt` labels side by side (Darknet).

What a class means comes from its name, read from the nearest `data.yaml`, `classes.txt`,
`obj.names` or `_darknet.labels` above the photos or their labels ("1", "six", "dice-4",
"red_2", "blank"); with no names, class k is a die of k + 1 pips, the usual numbering.

The project's own real sets (`models/real_sets.py`) are loaded the same way (`photos_in`,
`load_split`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from models.devdata import OBLIQUE_WHITE, UNKNOWN_PIPS, Labelled, image_size
from vision.colour import DEFAULT_COLOURS_BGR

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"})
NAME_FILES = ("data.yaml", "data.yml", "classes.txt", "obj.names", "_darknet.labels")
DEEPEST = 6  # folders deeper than this below the one given are not searched
MOST_PHOTOS = 50_000  # a search stops after this many photos
LEFT_OUT = "-"  # a class given this name (`--classes`) holds no die: its labels are left out

PIP_WORDS = {
    **{str(n): n for n in range(1, 7)},
    **dict(zip(("one", "two", "three", "four", "five", "six"), range(1, 7), strict=True)),
    **dict(zip(("eins", "zwei", "drei", "vier", "fuenf", "sechs"), range(1, 7), strict=True)),
    "fünf": 5,
    "ace": 1,
    "blank": 0,
    "empty": 0,
    "leer": 0,
}
DIE_WORDS = frozenset({"die", "dice", "dices", "wuerfel", "würfel", "cube", "d6"})
COLOUR_WORDS = {
    **{name: name for name in DEFAULT_COLOURS_BGR},
    "gray": "grey",
    "violet": "purple",
    "navy": "darkblue",
}


class FolderError(ValueError):
    """A folder to score that is no folder or holds no labelled photos; the message says
    which."""


@dataclass(frozen=True)
class ClassMeaning:
    """What one label class says of the die it boxes: its pips (UNKNOWN_PIPS where its name
    gives none, 0 for a blank face) and its body colour where the name holds one of the
    reader's colours; `die` is False for a class that boxes no die."""

    name: str
    pips: int
    colour: str | None = None
    die: bool = True

    def describe(self) -> str:
        """How the class is scored, in words."""
        if not self.die:
            return "left out"
        pips = {UNKNOWN_PIPS: "a die, pips not labelled", 0: "a blank die"}.get(
            self.pips, f"a die of {self.pips}"
        )
        return pips + (f", {self.colour}" if self.colour else "")


def meaning_of(name: str) -> ClassMeaning:
    """A class's meaning read from its name: one pip count (digit or word) and one colour of
    the reader's palette where the name holds them."""
    if name.strip() == LEFT_OUT:
        return ClassMeaning(name, UNKNOWN_PIPS, die=False)
    words: list[str] = []
    for token in re.split(r"[^\w]+|_", name.lower()):
        # "d6" names the kind of die; "dice4" and "4pips" run a word and a number together.
        words += [token] if token in DIE_WORDS else re.findall(r"\d+|[^\W\d]+", token)
    pips = {PIP_WORDS[word] for word in words if word in PIP_WORDS}
    colours = {COLOUR_WORDS[word] for word in words if word in COLOUR_WORDS}
    return ClassMeaning(
        name,
        pips.pop() if len(pips) == 1 else UNKNOWN_PIPS,
        colours.pop() if len(colours) == 1 else None,
    )


def numbered_class(k: int) -> ClassMeaning:
    """The usual numbering where no names are given: class k is a die of k + 1 pips."""
    return ClassMeaning(str(k), k + 1 if k < 6 else UNKNOWN_PIPS)


def names_in(path: Path) -> list[str]:
    """The class names a names file lists: a YAML file's `names` (a list, inline or one
    `- name` a line, or `k: name` lines), else one name a line."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix.lower() not in (".yaml", ".yml"):
        return [line.strip() for line in text.splitlines() if line.strip()]
    lines = text.splitlines()
    for at, line in enumerate(lines):
        key, _, rest = line.partition(":")
        if key.strip() != "names" or line[:1].isspace():
            continue
        rest = rest.split(" #")[0].strip()
        if rest.startswith("["):
            return [_unquoted(part) for part in rest.strip("[]").split(",") if part.strip()]
        listed: dict[int, str] = {}
        if rest.startswith("{"):
            for part in rest.strip("{}").split(","):
                number, _, value = part.partition(":")
                if number.strip().isdigit():
                    listed[int(number)] = _unquoted(value)
            return [listed.get(k, str(k)) for k in range(max(listed, default=-1) + 1)]
        for item in lines[at + 1 :]:
            if item.strip() and not item[:1].isspace() and not item.startswith("-"):
                break  # the next key
            entry = item.split(" #")[0].strip()
            if entry.startswith("-"):
                listed[len(listed)] = _unquoted(entry[1:])
            elif ":" in entry and entry.partition(":")[0].strip().isdigit():
                number, _, value = entry.partition(":")
                listed[int(number)] = _unquoted(value)
        return [listed.get(k, str(k)) for k in range(max(listed, default=-1) + 1)]
    return []


def _unquoted(text: str) -> str:
    return text.strip().strip("'\"").strip()


def names_near(folders: Sequence[Path], root: Path) -> Path | None:
    """The nearest names file in any of `folders` or the folders above them, up to `root`."""
    for folder in folders:
        for place in (folder, *folder.parents):
            for name in NAME_FILES:
                if (place / name).is_file():
                    return place / name
            if place == root or root not in place.parents:
                break
    return None


@dataclass(frozen=True)
class LabelledFolder:
    """One set of labelled photos found in a folder: its name (its place in the folder), the
    photos with their label files (None where a photo has none: a photo with no die), and the
    file its class names came from (None: the usual numbering)."""

    name: str
    photos: tuple[Path, ...]
    labels: tuple[Path | None, ...]
    names_from: Path | None

    def classes(self, given: Sequence[str] | None = None) -> tuple[ClassMeaning, ...] | None:
        """Each class's meaning: from `given` names where there are any, else from the names
        file; None where neither (the usual numbering)."""
        names = list(given) if given else names_in(self.names_from) if self.names_from else []
        if names == [str(k) for k in range(len(names))]:
            return None  # class k named "k" says nothing more than the usual numbering
        return tuple(meaning_of(name) for name in names) or None


def labelled_folders(root: Path) -> list[LabelledFolder]:
    """Every set of labelled photos in `root`, sorted by name. A folder of photos none of which
    has a label file is no set. An `images` folder given alone is read with its `labels`."""
    if root.name.lower() == "images" and (root.parent / _labels_name(root.parent)).is_dir():
        root = root.parent
    groups: dict[Path, list[tuple[Path, Path | None]]] = {}
    for photo in _photos(root):
        label, set_folder = _label_of(photo, root)
        groups.setdefault(set_folder, []).append((photo, label))
    found = []
    for set_folder, pairs in groups.items():
        if all(label is None for _photo, label in pairs):
            continue
        label_folders = sorted({label.parent for _photo, label in pairs if label is not None})
        name = set_folder.relative_to(root).as_posix() if set_folder != root else root.name
        found.append(
            LabelledFolder(
                name=name,
                photos=tuple(photo for photo, _label in pairs),
                labels=tuple(label for _photo, label in pairs),
                names_from=names_near([*label_folders, pairs[0][0].parent], root),
            )
        )
    return sorted(found, key=lambda folder: folder.name)


def _photos(root: Path) -> Iterator[Path]:
    """The photos under `root`, folder by folder in name order, at most MOST_PHOTOS."""
    count = 0
    stack = [(root, 0)]
    while stack and count < MOST_PHOTOS:
        folder, depth = stack.pop()
        try:
            entries = sorted(folder.iterdir())
        except OSError:
            continue
        for entry in entries:
            if entry.is_file() and entry.suffix.lower() in IMAGE_SUFFIXES and count < MOST_PHOTOS:
                count += 1
                yield entry
        stack += [(e, depth + 1) for e in reversed(entries) if e.is_dir() and depth < DEEPEST]


def _label_of(photo: Path, root: Path) -> tuple[Path | None, Path]:
    """A photo's label file (None where there is none) and the folder that names its set: the
    photo's folder, less an `images` step in its path."""
    parts = photo.relative_to(root).parts
    steps = [k for k, part in enumerate(parts[:-1]) if part.lower() == "images"]
    beside = photo.with_suffix(".txt")
    if not steps:
        return (beside if beside.is_file() else None), photo.parent
    k = steps[-1]
    base = root.joinpath(*parts[:k])
    label = (base / _labels_name(base)).joinpath(*parts[k + 1 :]).with_suffix(".txt")
    set_folder = base.joinpath(*parts[k + 1 : -1])
    if label.is_file():
        return label, set_folder
    return (beside if beside.is_file() else None), set_folder


def _labels_name(folder: Path) -> str:
    """The name of the labels folder beside an images folder ("labels", in any case)."""
    for name in ("labels", "Labels", "LABELS"):
        if (folder / name).is_dir():
            return name
    return "labels"


@dataclass(frozen=True)
class LabelRows:
    """One label file's boxes: class (n,) and corners (n, 4) as shares of the photo's width and
    height, or in pixels where `pixels`; and how many lines could not be read as a box."""

    classes: np.ndarray
    corners: np.ndarray
    pixels: bool
    bad_lines: int


def label_rows(text: str) -> LabelRows:
    """The boxes of a YOLO label file: `class cx cy w h` rows (a sixth number, a score, is
    left alone) or `class x1 y1 x2 y2 ...` outlines, boxed. Lines that are neither, and boxes
    of no area, are counted as bad."""
    classes, corners, bad = [], [], 0
    for line in text.splitlines():
        fields = line.split()
        if not fields or line.lstrip().startswith("#"):
            continue
        try:
            numbers = [float(field) for field in fields]
        except ValueError:
            bad += 1
            continue
        cls = numbers[0]
        coords = numbers[1:]
        if len(coords) in (4, 5):
            cx, cy, w, h = coords[:4]
            box = [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2]
        elif len(coords) >= 6 and len(coords) % 2 == 0:
            xs, ys = coords[0::2], coords[1::2]
            box = [min(xs), min(ys), max(xs), max(ys)]
        else:
            bad += 1
            continue
        if cls != int(cls) or cls < 0 or not box[0] < box[2] or not box[1] < box[3]:
            bad += 1
            continue
        classes.append(int(cls))
        corners.append(box)
    corners_array = np.array(corners, float).reshape(-1, 4)
    return LabelRows(
        np.array(classes, int),
        corners_array,
        bool(len(corners_array)) and float(corners_array.max()) > 1.5,
        bad,
    )


@dataclass
class LoadNotes:
    """What loading a set left out or could not read, for the benchmark to say."""

    unreadable_photos: list[Path] = field(default_factory=list)
    bad_label_lines: int = 0
    left_out_labels: int = 0
    unknown_classes: set[int] = field(default_factory=set)


def load(
    folder: LabelledFolder, classes: Sequence[ClassMeaning] | None, whole_die: bool = True
) -> tuple[list[Labelled], LoadNotes]:
    """The set's photos with their labels, scored by `classes` (None: the usual numbering).
    With `whole_die`, the labels box whole dice (a reader's box must lie centred in one to
    match it); else they box the top face alone."""
    notes = LoadNotes()
    items = []
    for photo, label in zip(folder.photos, folder.labels, strict=True):
        try:
            h, w = image_size(photo)
        except ValueError:
            notes.unreadable_photos.append(photo)
            continue
        rows = label_rows(label.read_text(errors="replace")) if label else label_rows("")
        notes.bad_label_lines += rows.bad_lines
        meanings = [_meaning(int(c), classes, notes) for c in rows.classes]
        dice = np.array([m.die for m in meanings], bool)
        notes.left_out_labels += int((~dice).sum())
        corners = rows.corners[dice] * ([1, 1, 1, 1] if rows.pixels else [w, h, w, h])
        centres = (corners[:, :2] + corners[:, 2:]) / 2
        kept = [m for m in meanings if m.die]
        colours = tuple(m.colour for m in kept)
        items.append(
            Labelled(
                photo,
                centres.reshape(-1, 2),
                np.array([m.pips for m in kept], int),
                (corners[:, 2:] - corners[:, :2]).max(1),
                colours if any(colours) else None,
                corners.reshape(-1, 4) if whole_die else None,
            )
        )
    return items, notes


def _meaning(cls: int, classes: Sequence[ClassMeaning] | None, notes: LoadNotes) -> ClassMeaning:
    if classes is None:
        return numbered_class(cls)
    if cls < len(classes):
        return classes[cls]
    notes.unknown_classes.add(cls)
    return ClassMeaning(str(cls), UNKNOWN_PIPS)


def photos_in(
    root: Path, stems: Collection[str] | None = None, whole_die: bool = True
) -> list[Labelled]:
    """The labelled photos of a folder that holds one set, in any usual layout, sorted by name
    and scored by its names file; with `stems`, those photos alone. FolderError where the
    folder holds no set or several, or a photo that cannot be read."""
    sets = labelled_folders(root)
    if len(sets) != 1:
        raise FolderError(f"{root} holds {len(sets)} sets of labelled photos, not one")
    (found,) = sets
    if stems is not None:
        chosen = [k for k, photo in enumerate(found.photos) if photo.stem in stems]
        found = replace(
            found,
            photos=tuple(found.photos[k] for k in chosen),
            labels=tuple(found.labels[k] for k in chosen),
        )
    items, notes = load(found, found.classes(), whole_die)
    if notes.unreadable_photos:
        names = ", ".join(photo.name for photo in notes.unreadable_photos[:3])
        raise FolderError(
            f"{len(notes.unreadable_photos)} photos in {root} cannot be read: {names}"
        )
    return items


def load_split(split: str, root: Path = OBLIQUE_WHITE) -> list[Labelled]:
    """All labelled photos of one split of the oblique white set ("Train" or "Valid"), sorted
    by name; its labels box the top face."""
    return photos_in(root / split, whole_die=False)
