"""How surely the live camera tells which die of an applied roll is which colour, on real photos.

A roll applied at the table tells the camera how many dice of each colour it held
(`vision.live_learning.ColoursFromPlay`). This takes each photo of a colour-labelled real set
with two or more game colours as one such roll: the dice the reader found on labelled dice of
its two most common colours, with the labelled count of each. It prints how many of those dice
each way of sharing them out gives the right colour: grouped by their bodies and counts
(`assigned_by_counts`, shipped), each to its nearest colour as the counts allow, and each to
its nearest colour alone; under white light and under the light judged from the dice.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from vision_sets import COLOUR_FILE, with_colours  # noqa: E402

from models.devdata import Labelled, matched_boxes  # noqa: E402
from models.real_sets import PARTS, real_sets  # noqa: E402
from vision.colour import Palette, background_colour, bodies_of, default_palette, to_lab  # noqa: E402
from vision.light import judged_light  # noqa: E402
from vision.live_learning import _nearest_by_counts, assigned_by_counts  # noqa: E402
from vision.reader import ReaderConfig, read_dice  # noqa: E402

WAYS = ("grouped by counts", "nearest by counts", "nearest alone")


def roll_of(item: Labelled) -> tuple[np.ndarray, np.ndarray, list[str], list[str]] | None:
    """A photo as one applied roll: the body colours (n, 3) of the dice found on labelled dice
    of its two most common colours, the table's colour, their labelled colours and the two
    colours; None where the photo has fewer than two colours or a box lies on two dice."""
    labelled = [c for c in item.colours or () if c is not None]
    two = [c for c, _ in collections.Counter(labelled).most_common(2)]
    if len(two) < 2 or item.colours is None:
        return None
    frame = cv2.imread(str(item.image))
    if frame is None:
        return None
    det = read_dice(frame, ReaderConfig(palette=default_palette().in_play_only(two)))
    on = matched_boxes(det.boxes, item.centres, item.die_boxes)
    pairs = [(i, c) for i, c in zip(on, item.colours, strict=True) if i is not None and c in two]
    if len(pairs) < 2 or len({i for i, _ in pairs}) != len(pairs):
        return None
    bodies = bodies_of(frame, det)[[i for i, _ in pairs]]
    measured = np.isfinite(bodies).all(1)
    truth = [c for (_, c), ok in zip(pairs, measured, strict=True) if ok]
    return bodies[measured], background_colour(frame, det.boxes), truth, two


def shared_out(palette: Palette, bodies, table, two: list[str], counts: list[int]) -> dict:
    """Each way's colour index (n,) for the dice."""
    distances = palette.distances(bodies, table)[:, [palette.names.index(c) for c in two]]
    finite = np.where(np.isfinite(distances), distances, 1e6)
    return {
        WAYS[0]: assigned_by_counts(to_lab(bodies), distances, counts),
        WAYS[1]: _nearest_by_counts(finite, counts),
        WAYS[2]: finite.argmin(1),
    }


def main() -> int:
    """Print, per part and light, the dice each way gives the right colour."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--part", choices=PARTS, default="holdout")
    ap.add_argument("--set", default="dice-photos-oblique-coloured")
    a = ap.parse_args()
    real = real_sets()[a.set]
    if not real.available():
        print(f"vision_play_colours: {real.folder} is missing", file=sys.stderr)
        return 2
    labels = json.loads(COLOUR_FILE.read_text()).get(a.set, {})
    right: collections.Counter[tuple[str, str]] = collections.Counter()
    dice = rolls = 0
    for item in with_colours(real.photos(a.part), labels):
        roll = roll_of(item)
        if roll is None:
            continue
        bodies, table, truth, two = roll
        counts = [truth.count(c) for c in two]
        plain = default_palette().in_play_only(two)
        lights = {"white light": plain, "judged light": judged_light(plain, bodies, thorough=True)}
        for light, palette in lights.items():
            for way, chosen in shared_out(palette, bodies, table, two, counts).items():
                right[light, way] += sum(two[k] == c for k, c in zip(chosen, truth, strict=True))
        dice, rolls = dice + len(truth), rolls + 1
    print(f"{a.set} ({a.part}): {rolls} photos as rolls of two colours, {dice} dice")
    for light in ("white light", "judged light"):
        for way in WAYS:
            share = 100 * right[light, way] / max(dice, 1)
            print(f"  {light:12} {way:18} {right[light, way]:4} right ({share:.1f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
