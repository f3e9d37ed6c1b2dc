"""How well the reader reads the simulated table: random Las Vegas rolls, per-die rates."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.reader import ReaderConfig, read_dice  # noqa: E402
from vision.simtable import SimDie, SimulatedTable  # noqa: E402

# Players' colours in the boxed game (purple, pink and orange stand in for the fifth colour).
PLAYER_COLOURS = ("red", "blue", "green", "yellow", "purple", "pink", "orange", "black")
NEUTRAL = "white"
COVERED = 0.977  # a rounded die's covered area is this side squared (as vision.size measures it)


def random_roll(rng: np.random.Generator) -> list[SimDie]:
    """One player's throw: 1-8 dice of their colour, at times one a Biggy, some neutral white."""
    colour = str(rng.choice(PLAYER_COLOURS))
    n = int(rng.integers(1, 9))
    big = int(rng.random() < 0.3)
    neutral = int(rng.integers(0, min(n - big, 2) + 1)) if rng.random() < 0.4 else 0
    dice = [SimDie(colour, int(rng.integers(1, 7))) for _ in range(n - big - neutral)]
    dice += [SimDie(NEUTRAL, int(rng.integers(1, 7))) for _ in range(neutral)]
    dice += [SimDie(colour, int(rng.integers(1, 7)), big=True) for _ in range(big)]
    if rng.random() < 0.1:
        dice.append(SimDie("grey", 0))  # a blank die
    return dice


def score(table: SimulatedTable, frame: np.ndarray, config: ReaderConfig) -> dict[str, int]:
    """Counts for one settled frame: dice, found, right pips, colour, size, extra boxes."""
    det = read_dice(frame, config)
    truth = table.lying
    counts = dict.fromkeys(("dice", "found", "pips", "colour", "size", "extra", "unsure"), 0)
    counts["dice"] = len(truth)
    used: set[int] = set()
    for t in truth:
        x0, y0, x1, y1 = t.box
        inside = [
            i
            for i in range(len(det))
            if i not in used and x0 <= det.centres[i, 0] <= x1 and y0 <= det.centres[i, 1] <= y1
        ]
        if not inside:
            continue
        i = min(inside, key=lambda k: float(np.hypot(*(det.centres[k] - t.centre))))
        used.add(i)
        counts["found"] += 1
        counts["pips"] += int(det.pips[i]) == t.die.pips
        counts["colour"] += str(det.colour[i]) == t.die.colour
        counts["size"] += (str(det.size[i]) == "big") == t.die.big
        counts["unsure"] += bool(det.unsure[i])
    counts["extra"] = len(det) - len(used)
    return counts


def main() -> int:
    """Throw N random rolls on the simulated table, read each settled frame, print the rates."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rolls", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    table = SimulatedTable(seed=a.seed)
    config = ReaderConfig(threads=a.threads)
    # Size is judged against the other dice in the frame: a lone die has none, so a lone Biggy
    # needs a regular die's side in the settings (vision.live.LiveCamera learns it).
    sized = ReaderConfig(threads=a.threads, regular_side_px=table.die_side * COVERED)
    total: dict[str, int] = {}
    lone = {"dice": 0, "size": 0}
    wrong: list[str] = []
    t0 = time.perf_counter()
    for roll in range(a.rolls):
        table.clear()
        table.throw(random_roll(rng))
        while not table.settled:
            table.read()
        frame = table.read()
        counts = score(table, frame, config)
        counts["size_known_side"] = score(table, frame, sized)["size"]
        if counts["dice"] == 1:
            lone["dice"] += 1
            lone["size"] += counts.pop("size")
            counts["sized"] = 0
        else:
            counts["sized"] = counts["dice"]
        for k, v in counts.items():
            total[k] = total.get(k, 0) + v
        if (
            any(counts[k] != counts["dice"] for k in ("found", "pips", "colour"))
            or (counts["sized"] and counts["size"] != counts["sized"])
            or counts["size_known_side"] != counts["dice"]
        ):
            wrong.append(f"roll {roll}: {[str(d.die) for d in table.lying]} {counts}")
    seconds = time.perf_counter() - t0
    n = max(total["dice"], 1)
    result = {
        "rolls": a.rolls,
        "dice": total["dice"],
        **{f"{k}_pct": round(100 * total[k] / n, 2) for k in ("found", "pips", "colour")},
        "size_pct": round(100 * total.get("size", 0) / max(total["sized"], 1), 2),
        "unsure_pct": round(100 * total["unsure"] / n, 2),
        "extra_boxes": total["extra"],
        "size_pct_known_side": round(100 * total["size_known_side"] / n, 2),
        "lone_dice": lone["dice"],
        "lone_size_pct": round(100 * lone["size"] / max(lone["dice"], 1), 2),
        "rolls_with_a_miss": len(wrong),
        "seconds": round(seconds, 1),
    }
    print(json.dumps(result))
    for line in wrong[:20]:
        print(line, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
