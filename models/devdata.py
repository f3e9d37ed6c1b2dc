"""The real development photos in ../shared/data: where they are, their labels, and scoring."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from vision.detections import Detections

REPO_ROOT = Path(__file__).resolve().parents[1]
UNKNOWN_PIPS = -1  # a label that boxes a die without saying its pips (0 is a blank face)
OBLIQUE_WHITE = REPO_ROOT.parent / "shared" / "data" / "dice-photos-oblique-white"


@dataclass(frozen=True)
class Labelled:
    """One photo and its labels: pip-pattern centres (k, 2) in pixels and pips (k,),
    UNKNOWN_PIPS where a label does not say them; where known, the longer side of each
    pip-pattern box in pixels (k,), each die's colour, and the labelled boxes (k, 4) where they
    go around the whole die (a reader's box must then lie centred in one to match it)."""

    image: Path
    centres: np.ndarray
    pips: np.ndarray
    spans: np.ndarray | None = None
    colours: tuple[str | None, ...] | None = None
    die_boxes: np.ndarray | None = None


def read_photo(path: Path) -> np.ndarray:
    """A development photo as a BGR frame; ValueError where it cannot be read."""
    import cv2

    image = cv2.imread(str(path))
    if image is None:
        raise ValueError(f"{path} is not a readable image")
    return np.asarray(image)


def image_size(path: Path) -> tuple[int, int]:
    """Height and width of a photo."""
    height, width = read_photo(path).shape[:2]
    return height, width


def turned(item: Labelled, frame: np.ndarray, turns: int) -> tuple[Labelled, np.ndarray]:
    """The photo turned by `turns` quarter turns counter-clockwise, with its labels turned
    alike: what a webcam at another edge of the table would see."""
    centres = item.centres.copy()
    for _ in range(turns % 4):
        w = frame.shape[1]
        frame = np.ascontiguousarray(np.rot90(frame))
        centres = np.stack([centres[:, 1], w - 1 - centres[:, 0]], 1).reshape(-1, 2)
    return replace(item, centres=centres), frame


# The whole dice of these photos are about this many pixels across (the reader's median box).
DIE_SIDE_PX = 90


def close_up(
    item: Labelled,
    frame: np.ndarray,
    die: int,
    dice_high: float,
    size: tuple[int, int] = (640, 480),
    die_side: float = DIE_SIDE_PX,
) -> tuple[Labelled, np.ndarray]:
    """A close-up of one labelled die (`die_side` px across): the photo cut around it,
    `dice_high` dice high and 4:3 wide (less where the photo ends), and resized to `size`, as a
    camera close to a few dice sees them; labelled with that die alone (its neighbours may be
    cut)."""
    import cv2

    h, w = frame.shape[:2]
    centre = item.centres[die]
    half = np.array([4 / 3, 1.0]) * dice_high * die_side / 2
    x0, y0 = np.maximum(centre - half, 0).astype(int)
    x1, y1 = np.minimum(centre + half, [w, h]).astype(int)
    scale = np.array(size) / [x1 - x0, y1 - y0]
    cut = cv2.resize(frame[y0:y1, x0:x1], size, interpolation=cv2.INTER_LINEAR)
    return Labelled(item.image, ((centre - [x0, y0]) * scale)[None], item.pips[die : die + 1]), cut


def matched_boxes(
    boxes: np.ndarray, centres: np.ndarray, die_boxes: np.ndarray | None = None
) -> list[int | None]:
    """For each label centre, the index of the nearest box that contains it (None if none);
    with the labels' `die_boxes`, only a box whose own centre lies in the label's box."""
    out: list[int | None] = []
    box_centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    for k, c in enumerate(centres):
        inside = np.all((boxes[:, :2] <= c) & (c <= boxes[:, 2:]), axis=1)
        if die_boxes is not None:
            inside &= np.all(
                (die_boxes[k, :2] <= box_centres) & (box_centres <= die_boxes[k, 2:]), axis=1
            )
        idx = np.nonzero(inside)[0]
        out.append(
            int(idx[np.argmin(np.linalg.norm(box_centres[idx] - c, axis=1))]) if len(idx) else None
        )
    return out


def found_and_right(
    dice: int, found: int, right: int, found_with_pips: int | None = None
) -> dict[str, float]:
    """A group of labelled dice's row: its dice, the share found and the share of those read
    with the right pips (of those found whose pips are labelled, where that is given), in %."""
    read = found if found_with_pips is None else found_with_pips
    return {
        "dice": dice,
        "found_pct": round(100.0 * found / max(dice, 1), 2),
        "pips_pct": round(100.0 * right / max(read, 1), 2),
    }


def share_interval(count: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """Where the true share may lie, in %, when `count` of `total` dice are counted: the Wilson
    score interval at about 95 % (`z` 1.96). On a set of 150 dice, 148 found is 95.3-99.6 %."""
    if total <= 0:
        return 0.0, 100.0
    share, spread = count / total, z * z / total
    centre = (share + spread / 2) / (1 + spread)
    half = z * math.sqrt(share * (1 - share) / total + spread / (4 * total)) / (1 + spread)
    return 100.0 * max(0.0, centre - half), 100.0 * min(1.0, centre + half)


@dataclass
class Score:
    """Running per-die counts for one split. Dice labelled with no pips (UNKNOWN_PIPS) count
    as found or not, and unsure or not, but not in the pips' figures."""

    labelled: int = 0
    photos: int = 0
    found: int = 0
    unsure: int = 0
    # labelled dice whose pips the labels give, and of those found: flagged unsure, read right
    # and sure
    with_pips: int = 0
    unsure_with_pips: int = 0
    right_sure: int = 0
    predicted: int = 0
    unmatched_predictions: int = 0
    # of those, boxes read for sure: a die the table would add unseen
    sure_unmatched_predictions: int = 0
    # photos labelled with no die at all, and the boxes read on them (all on no labelled die)
    unlabelled_photos: int = 0
    boxes_on_unlabelled_photos: int = 0
    right_by_pips: dict[int, list[int]] = field(default_factory=dict)  # pips: [right, found]
    # colour: [labelled, found, right pips, named right, named wrong and not in doubt, named in
    # doubt, found with labelled pips], where the labels give colours
    by_colour: dict[str, list[int]] = field(default_factory=dict)

    def add(self, truth: Labelled, det: Detections) -> None:
        """Match labels to predicted dice (label centre inside the box) and count."""
        self.labelled += len(truth.centres)
        self.photos += 1
        self.predicted += len(det)
        used = np.zeros(len(det), bool)
        colours = truth.colours or (None,) * len(truth.pips)
        for j, p, colour in zip(
            matched_boxes(det.boxes, truth.centres, truth.die_boxes),
            truth.pips,
            colours,
            strict=True,
        ):
            known = p != UNKNOWN_PIPS
            self.with_pips += int(known)
            right = j is not None and known and det.pips[j] == p
            if colour is not None:
                named = j is not None and det.colour[j] == colour
                doubt = j is not None and bool(det.colour_doubt[j])
                sure_wrong = j is not None and not named and not doubt
                counts = self.by_colour.setdefault(colour, [0] * 7)
                found_with_pips = j is not None and known
                hits = (True, j is not None, right, named, sure_wrong, doubt, found_with_pips)
                for k, hit in enumerate(hits):
                    counts[k] += int(hit)
            if j is None:
                continue
            used[j] = True
            self.found += 1
            self.unsure += int(det.unsure[j])
            if not known:
                continue
            tally = self.right_by_pips.setdefault(int(p), [0, 0])
            tally[0] += int(right)
            tally[1] += 1
            self.unsure_with_pips += int(det.unsure[j])
            self.right_sure += int(right and not det.unsure[j])
        self.unmatched_predictions += int((~used).sum())
        self.sure_unmatched_predictions += int((~used & ~np.asarray(det.unsure, bool)).sum())
        if not len(truth.centres):
            self.unlabelled_photos += 1
            self.boxes_on_unlabelled_photos += len(det)

    @property
    def sure_wrong(self) -> int:
        """Found dice read for sure with the wrong pips: applied at the table unseen."""
        return self.found_with_pips - self.unsure_with_pips - self.right_sure

    @property
    def found_with_pips(self) -> int:
        """Found dice whose pips the labels give."""
        return sum(found for _right, found in self.right_by_pips.values())

    @property
    def right_pips(self) -> int:
        """Found dice read with the right pips."""
        return sum(right for right, _found in self.right_by_pips.values())

    def intervals(self) -> dict[str, tuple[int, int, float, float]]:
        """For found, right pips (of found dice whose pips are labelled) and read for sure but
        wrong (of dice whose pips are labelled): the count, what it is counted of, and the
        share's 95 % interval in % (`share_interval`)."""
        counts = {
            "found": (self.found, self.labelled),
            "right pips": (self.right_pips, self.found_with_pips),
            "sure but wrong": (self.sure_wrong, self.with_pips),
        }
        return {name: (k, n, *share_interval(k, n)) for name, (k, n) in counts.items()}

    def pips_by_value(self) -> dict[int, float]:
        """Right pips in % of found dice, for each true pip value."""
        return {p: round(100.0 * r / n, 2) for p, (r, n) in sorted(self.right_by_pips.items())}

    def by_colour_table(self) -> dict[str, dict[str, float]]:
        """For each true colour (where the labels give colours): its dice, the share found,
        and of those the shares with the right pips and the right colour name, in %."""
        return {
            colour: {
                **found_and_right(n, found, pips, with_pips),
                "colour_pct": round(100.0 * named / max(found, 1), 2),
            }
            for colour, (n, found, pips, named, _sure_wrong, _doubt, with_pips) in sorted(
                self.by_colour.items()
            )
        }

    def summary(self) -> dict[str, float]:
        """Found rate, pips accuracy among found dice, and the raw counts (with the shares of
        found dice whose colour is named right, named wrong without doubt, and named in doubt,
        where the labels give colours)."""
        found, named, sure_wrong, doubt = (
            sum(c[i] for c in self.by_colour.values()) for i in (1, 3, 4, 5)
        )
        colour = (
            {
                "colour_pct": 100.0 * named / found,
                "colour_sure_wrong_pct": 100.0 * sure_wrong / found,
                "colour_doubt_pct": 100.0 * doubt / found,
            }
            if found
            else {}
        )
        return {
            "labelled": self.labelled,
            "found_pct": 100.0 * self.found / max(self.labelled, 1),
            "pips_pct": 100.0 * self.right_pips / max(self.found_with_pips, 1),
            "unsure_pct": 100.0 * self.unsure / max(self.found, 1),
            "pips_pct_of_sure": (
                100.0 * self.right_sure / max(self.found_with_pips - self.unsure_with_pips, 1)
            ),
            "sure_wrong_pct": 100.0 * self.sure_wrong / max(self.with_pips, 1),
            "labelled_with_pips": self.with_pips,
            "unmatched_predictions": self.unmatched_predictions,
            "no_die_per_100_photos": 100.0 * self.unmatched_predictions / max(self.photos, 1),
            "sure_no_die_per_100_photos": (
                100.0 * self.sure_unmatched_predictions / max(self.photos, 1)
            ),
            "unlabelled_photos": self.unlabelled_photos,
            "boxes_on_unlabelled_photos": self.boxes_on_unlabelled_photos,
            **colour,
        }
