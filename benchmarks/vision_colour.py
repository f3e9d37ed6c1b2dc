"""Colour accuracy after calibration: rendered dice of the game's colours under three lights;
and, for comparison, named from the default palette without calibration. Then, without
calibration, rolls of two games in turn (one player's dice, with white ones where the game has
them) under more lights: named as they are, with the light judged from each roll, with it
judged from the rolls before too, and with the colours learnt from the rolls applied, as the
live camera does."""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.render import _background, _draw_die, _pip_colour, _rot  # noqa: E402
from vision.colour import (  # noqa: E402
    background_colour,
    body_colours,
    calibrate_from_frame,
    default_palette,
)
from vision.light import judged_light  # noqa: E402
from vision.live_learning import LIGHT_SAMPLES, ColoursFromPlay  # noqa: E402
from vision.reader import ReaderConfig, read_dice  # noqa: E402

# The table's dice: near colours on purpose (red/purple/pink, black/grey/dark blue, white/yellow).
TABLE_DICE = {
    "red": (50, 45, 180),
    "purple": (110, 45, 120),
    "pink": (160, 120, 230),
    "black": (40, 38, 36),
    "grey": (120, 120, 115),
    "darkblue": (95, 45, 35),
    "white": (225, 228, 228),
    "yellow": (60, 200, 225),
    "blue": (170, 100, 45),
    "green": (75, 140, 50),
    "orange": (40, 115, 225),
}
LIGHTS = {"neutral": (1.0, 1.0, 1.0), "warm": (0.78, 1.0, 1.18), "cool": (1.18, 1.0, 0.85)}
MORE_LIGHTS = {
    **LIGHTS,
    "mild warm": (0.88, 1.0, 1.08),
    "strong warm": (0.65, 1.0, 1.3),
    "green": (0.97, 1.08, 0.95),
    "dim": (0.7, 0.7, 0.7),
    "dim warm": (0.6, 0.8, 0.95),
}
# Two games' players' colours, and whether they roll white dice with their own.
GAMES = {
    "red blue green yellow, white dice": (["red", "blue", "green", "yellow"], True),
    "pink black orange grey darkblue": (["pink", "black", "orange", "grey", "darkblue"], False),
    "red purple pink yellow, white dice": (["red", "purple", "pink", "yellow"], True),
    "grey red, white dice": (["grey", "red"], True),
    "grey black white": (["grey", "black", "white"], False),
}


def scene(seed: int, names: list[str], table_seed: int, gain) -> tuple[np.ndarray, np.ndarray]:
    """A top-down frame of the named dice in a grid on one table, under a light gain."""
    table = _background(np.random.default_rng(table_seed), 480, 640).astype(np.float32)
    rng = np.random.default_rng(seed)
    img = table.astype(np.uint8)
    boxes = []
    light = np.array([0.2, -0.3, 1.0]) / np.linalg.norm([0.2, -0.3, 1.0])
    for k, name in enumerate(names):
        cx, cy = 60 + (k % 8) * 74 + rng.uniform(-8, 8), 60 + (k // 8) * 90 + rng.uniform(-8, 8)
        # Dice of one colour differ a little (dye lot, wear) and each sits in its own light.
        body = np.array(TABLE_DICE[name], float) * rng.uniform(0.92, 1.06) + rng.normal(0, 4, 3)
        faces = {0: int(rng.integers(1, 7)), 1: 2, 2: 3}
        if faces[0] in (2, 3, 4, 5):
            faces = {0: faces[0], 1: 1, 2: 6 if faces[0] != 6 else 4}
        rot = _rot(np.array([0, 0, 1.0]), rng.uniform(0, 2 * math.pi))
        boxes.append(
            _draw_die(
                img,
                rng,
                np.array([cx, cy]),
                44.0,
                rot,
                math.radians(85),
                body,
                _pip_colour(rng, body),
                faces,
                light,
                0.09,
            )
        )
    out = img.astype(np.float32) * np.asarray(gain, np.float32) + rng.normal(0, 3, img.shape)
    return np.clip(out, 0, 255).astype(np.uint8), np.array(boxes, np.float32)


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two boxes."""
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def main() -> int:
    """Calibrate on three dice per colour, then score colour names over many rendered dice."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--scenes", type=int, default=10)
    ap.add_argument("--tables", type=int, default=3)
    a = ap.parse_args()
    results = {}
    for light, gain in LIGHTS.items():
        right = total = right_reader = total_reader = right_default = 0
        for table in range(a.tables):
            calib = [n for n in TABLE_DICE for _ in range(3)]
            frame, boxes = scene(1000 + table, calib, table, (1.0, 1.0, 1.0))
            palette = calibrate_from_frame(frame, boxes, calib)
            rng = np.random.default_rng(table)
            for s in range(a.scenes):
                names = list(rng.choice(list(TABLE_DICE), 40))
                frame, boxes = scene(s, names, table, gain)
                bodies, table_bgr = body_colours(frame, boxes), background_colour(frame, boxes)
                got, _ = palette.classify(bodies, table_bgr)
                right += int((got == np.array(names, object)).sum())
                guessed, _ = default_palette().classify(bodies, table_bgr)
                right_default += int((guessed == np.array(names, object)).sum())
                total += len(names)
                det = read_dice(frame, ReaderConfig(threads=1, palette=palette))
                for i, j in enumerate(_die_under(boxes, box) for box in det.boxes):
                    if j is None:
                        continue  # not on a die: a locator false alarm, not a colour error
                    right_reader += int(det.colour[i] == names[j])
                    total_reader += 1
        results[light] = {
            "true_boxes_pct": round(100 * right / total, 2),
            "reader_boxes_pct": round(100 * right_reader / max(total_reader, 1), 2),
            "uncalibrated_pct": round(100 * right_default / total, 2),
            "dice": total,
            "reader_dice": total_reader,
        }
    print(json.dumps(results))
    print(json.dumps(uncalibrated_rolls(a.tables)))
    return 0


def uncalibrated_rolls(tables: int, rolls: int = 16) -> dict:
    """Right colour names (%) of the dice of `rolls` rolls in turn on each of `tables` tables
    per game and light, without calibration: as named, with the light judged from each roll,
    and from the rolls before too (the last LIGHT_SAMPLES dice); all on the rendered dice's own
    boxes. Then as the reader names them on its own boxes (its dice on no rendered die are no
    colour error), with the light judged per frame inside the reader, without and with the
    light judged from the rolls before (the live camera)."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for game, (players, white) in GAMES.items():
        palette = default_palette().in_play_only(players + ["white"] * white)
        out[game] = {}
        for light, gain in MORE_LIGHTS.items():
            right = np.zeros(3)
            total = 0
            reader_right, reader_total = np.zeros(3), np.zeros(3)
            reader_doubt = np.zeros(3)  # of the reader's dice on rendered ones, named in doubt
            # ... and named wrong with no doubt: a die the table would give the wrong player
            reader_sure_wrong = np.zeros(3)
            for table in range(tables):
                play = ColoursFromPlay()
                seen = seen_by_reader = np.zeros((0, 3), np.float32)
                sureness = np.zeros(0, np.float32)  # the reader's confidence in each die seen
                rng = np.random.default_rng(100 + table)
                for turn in range(rolls):
                    names = [players[turn % len(players)]] * int(rng.integers(1, 9))
                    names += ["white"] * int(rng.integers(0, 3)) * white
                    frame, boxes = scene(1000 * table + turn, names, table, gain)
                    bgr = body_colours(frame, boxes)
                    judged = judged_light(palette, seen, thorough=True, exposure=True)
                    named_so = (palette, judged_light(palette, bgr), judged_light(judged, bgr))
                    for k, named in enumerate(named_so):
                        right[k] += int((named.classify(bgr)[0] == np.array(names)).sum())
                    total += len(names)
                    seen = np.concatenate([seen, bgr])[-LIGHT_SAMPLES:]
                    judged = judged_light(
                        palette, seen_by_reader, sureness, thorough=True, exposure=True
                    )
                    # The second read, with the rolls' light, is what the live camera learns from.
                    configs = [
                        ReaderConfig(threads=1, palette=named) for named in (palette, judged)
                    ]
                    configs.append(play.applied(configs[1]))
                    for k, config in enumerate(configs):
                        det = read_dice(frame, config)
                        # A die named a colour no one plays is flagged at the table ("no dice
                        # of this game are grey"), not applied: it counts as in doubt.
                        outside = ~np.isin(det.colour, palette.in_play)
                        det = replace(det, colour_doubt=det.colour_doubt | outside)
                        if k == 1:
                            learnt_from = det
                        on = [_die_under(boxes, box) for box in det.boxes]
                        reader_right[k] += sum(
                            j is not None and det.colour[i] == names[j] for i, j in enumerate(on)
                        )
                        reader_total[k] += sum(j is not None for j in on)
                        reader_doubt[k] += sum(
                            j is not None and bool(det.colour_doubt[i]) for i, j in enumerate(on)
                        )
                        reader_sure_wrong[k] += sum(
                            j is not None and not det.colour_doubt[i] and det.colour[i] != names[j]
                            for i, j in enumerate(on)
                        )
                    det = learnt_from
                    seen_by_reader = np.concatenate(
                        [seen_by_reader, body_colours(frame, det.boxes)]
                    )[-LIGHT_SAMPLES:]
                    sureness = np.concatenate([sureness, det.confidence])[-LIGHT_SAMPLES:]
                    on = sorted(
                        j for j in (_die_under(boxes, b) for b in det.boxes) if j is not None
                    )
                    if on == list(range(len(names))) and len(det) == len(names):
                        play.settled(frame, det)
                        counts = {name: names.count(name) for name in dict.fromkeys(names)}
                        play.roll_applied(det, [True] * len(det), counts, judged)
            pct = np.round(100 * right / total, 2)
            out[game][light] = {
                "as_named_pct": pct[0],
                "judged_per_roll_pct": pct[1],
                "judged_from_the_rolls_pct": pct[2],
                "dice": total,
                "reader_dice": int(reader_total[1]),
            }
            reader_pct = np.round(100 * reader_right / np.maximum(reader_total, 1), 2)
            doubt_pct = np.round(100 * reader_doubt / np.maximum(reader_total, 1), 2)
            sure_wrong_pct = np.round(100 * reader_sure_wrong / np.maximum(reader_total, 1), 2)
            out[game][light].update(
                {
                    "reader_as_named_pct": reader_pct[0],
                    "reader_judged_from_the_rolls_pct": reader_pct[1],
                    "reader_as_named_doubt_pct": doubt_pct[0],
                    "reader_judged_from_the_rolls_doubt_pct": doubt_pct[1],
                    "reader_as_named_sure_wrong_pct": sure_wrong_pct[0],
                    "reader_judged_from_the_rolls_sure_wrong_pct": sure_wrong_pct[1],
                    "reader_learnt_from_play_pct": reader_pct[2],
                    "reader_learnt_from_play_doubt_pct": doubt_pct[2],
                    "reader_learnt_from_play_sure_wrong_pct": sure_wrong_pct[2],
                }
            )
    return {"uncalibrated_rolls": out}


def _die_under(boxes: np.ndarray, box: np.ndarray) -> int | None:
    """The rendered die (index into boxes) a box read lies on: the nearest by centre, where
    their overlap is 0.4 or more of their union."""
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    j = int(np.argmin(np.linalg.norm(centres - (box[:2] + box[2:]) / 2, axis=1)))
    return j if _iou(boxes[j], box) >= 0.4 else None


if __name__ == "__main__":
    sys.exit(main())
