"""The real photo sets the reader is developed and measured on, and their fixed split.

Each set in `../shared/data` is split by photo into a part that training and tuning may use
and a held-out part that only measurement reads. The split is fixed in `real_sets.json`: the
oblique white set keeps its publisher's `Valid` folder as the held-out part; the others hold
out every photo whose name's SHA-256 is divisible by 3 (about a third). Photos of one source
shot appear once, so no held-out photo has a copy in training.

The training part of a whole-die set is split once more, by the same kind of rule: a fifth of
it is the tuning part (`tune`), on which training runs and thresholds are compared, and the
rest is what networks are fitted on (`fit`). The oblique white set's `Train` folder is all `fit`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from models.devdata import Labelled
from models.yolo_folders import load_split, photos_in

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
SPLIT_FILE = Path(__file__).with_name("real_sets.json")
PARTS = ("train", "fit", "tune", "holdout", "all")


@dataclass(frozen=True)
class RealSet:
    """One folder of labelled real photos: its name, how its labels box a die, and its split."""

    name: str
    boxes: str  # "whole die" (images/ + labels/) or "top face" (Train/ and Valid/ folders)
    holdout: frozenset[str]

    @property
    def folder(self) -> Path:
        return DATA / self.name

    def available(self) -> bool:
        """Whether the photos are on this machine."""
        return self.folder.is_dir()

    def photos(self, part: str = "holdout") -> list[Labelled]:
        """The labelled photos of one part: "train" (= "fit" + "tune"), "fit", "tune",
        "holdout" or "all"."""
        if part not in PARTS:
            raise ValueError(f"part must be one of {', '.join(PARTS)}, not {part!r}")
        if self.boxes == "top face":
            splits = {
                "train": ["Train"],
                "fit": ["Train"],
                "tune": [],
                "holdout": ["Valid"],
                "all": ["Train", "Valid"],
            }
            return [item for split in splits[part] for item in load_split(split, self.folder)]
        if part == "all":
            return photos_in(self.folder)
        stems = {p.stem for p in (self.folder / "images").glob("*.jpg")}
        held = stems & self.holdout
        train = stems - held
        tune = {stem for stem in train if tuning(stem)}
        chosen = {"holdout": held, "train": train, "tune": tune, "fit": train - tune}[part]
        return photos_in(self.folder, chosen)


def real_sets() -> dict[str, RealSet]:
    """Every real set, by name, as the split file fixes it."""
    data = json.loads(SPLIT_FILE.read_text())
    return {
        name: RealSet(name, entry["boxes"], frozenset(entry.get("holdout", ())))
        for name, entry in data["sets"].items()
    }


def held_out(stem: str) -> bool:
    """The rule that made the split of the whole-die sets: a third of the photos, by name."""
    return int(hashlib.sha256(stem.encode()).hexdigest(), 16) % 3 == 0


def tuning(stem: str) -> bool:
    """The rule that picks the tuning part out of a training part: a fifth of the photos, by a
    hash of the name that is independent of the held-out rule's."""
    return int(hashlib.sha256(f"tune/{stem}".encode()).hexdigest(), 16) % 5 == 0


def write_split(path: Path = SPLIT_FILE) -> None:
    """Write the split file anew from the photos in ../shared/data (the same rule gives the same
    file)."""
    sets: dict[str, dict] = {
        "dice-photos-oblique-white": {"boxes": "top face", "holdout_folder": "Valid"}
    }
    for name in ("dice-photos-oblique-coloured", "dice-photos-topdown-grey"):
        stems = sorted(p.stem for p in (DATA / name / "images").glob("*.jpg"))
        sets[name] = {"boxes": "whole die", "holdout": [s for s in stems if held_out(s)]}
    about = (
        "Held-out photos of each real set: never trained or tuned on, only measured. "
        "See models/real_sets.py."
    )
    path.write_text(json.dumps({"about": about, "sets": sets}, indent=1) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--write", action="store_true", help="write real_sets.json from the photos")
    args = ap.parse_args()
    if args.write:
        write_split()
    for real in real_sets().values():
        if real.available():
            counts = {part: len(real.photos(part)) for part in ("fit", "tune", "holdout")}
            print(
                f"{real.name}: {counts['fit']} photos to fit on, {counts['tune']} to tune on, "
                f"{counts['holdout']} held out"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
