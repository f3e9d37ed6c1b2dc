"""The simulated casino row: casino cards and the slot machine with their notes and the dice lying
on them, seen from above, with ArUco markers at each card's corners (ids as the marker sheet's).

Dice lie at any turn, some touching a neighbour, some with a corner under a note. The
misplacement mode moves a die to the wrong casino, leaves one out or adds one, at random, and
says which: the ground truth for tests and the table-check benchmark.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.simtable import BIG_SCALE, FELT_BGR, LyingDie, SimDie, _fill, _outline, draw_die
from vision.zones import ARUCO_DICT, ZONE_NAMES, Zones

CARD_BGR = (62, 66, 84)  # a casino card: a dark print, apart from every die colour in lightness
NOTE_BGR = (150, 190, 160)  # a money note's green
SLOT = 7
CASINO_ZONES = {n: f"casino{n}" for n in range(1, 7)} | {SLOT: "slot"}


@dataclass(frozen=True)
class RowSettings:
    """How hard the scene is: dice size in px, how many touch a neighbour, how many have a
    corner under a note, the light's unevenness and the camera's noise."""

    die_side: float = 30.0
    touching: float = 0.0  # share of dice laid against a die already there
    hidden: float = 0.0  # share of dice with a corner under a note
    hidden_most: float = 0.15  # at most this share of a hidden die's side lies under the note
    noise: float = 2.0
    light_fall: float = 0.12


EASY = RowSettings()
HARDEST = RowSettings(touching=0.5, hidden=0.25, noise=3.0, light_fall=0.25)


@dataclass(frozen=True)
class RowDie:
    """A die lying on a casino card: which casino (7: the slot machine), the die, centre,
    side in px and turn in radians."""

    casino: int
    die: SimDie
    centre: tuple[float, float]
    side: float
    angle: float


@dataclass(frozen=True)
class Misplacement:
    """What the misplacement mode did: "moved" a die from one casino to another, "left out"
    a die (taken off `source`), or "added" one to `target`."""

    kind: str
    die: SimDie
    source: int | None = None
    target: int | None = None


@dataclass(frozen=True)
class RowScene:
    """A rendered casino row: the frame (BGR uint8), the dice as drawn and the card zones (as
    polygons through the markers' centres)."""

    frame: np.ndarray
    dice: tuple[RowDie, ...]
    zones: Zones


def card_layout(width: int, height: int, marker_px: int) -> dict[int, np.ndarray]:
    """Each card's outer rectangle (4, 2): casinos 1-6 and the slot machine in a row at the top
    of the frame; their notes lie in a band below them (`_notes_band`)."""
    gap = 0.012 * width
    card_w = (width - 8 * gap) / 7
    card_h = 0.62 * height
    return {
        n: np.array(
            [
                [gap + (n - 1) * (card_w + gap), gap],
                [gap + (n - 1) * (card_w + gap) + card_w, gap],
                [gap + (n - 1) * (card_w + gap) + card_w, gap + card_h],
                [gap + (n - 1) * (card_w + gap), gap + card_h],
            ],
            np.float32,
        )
        for n in range(1, 8)
    }


def zone_polygon(card: np.ndarray, marker_px: int) -> np.ndarray:
    """The zone through the centres of the card's corner markers, as `detect_zones` finds it."""
    inset = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], np.float32) * marker_px * 0.7
    return card + inset


def _notes_band(card: np.ndarray, marker_px: int) -> tuple[float, float]:
    """Top and bottom (y) of the band below the card where its notes lie."""
    top = float(card[2, 1]) + 0.3 * marker_px
    return top, top + 0.17 * float(card[2, 1] - card[0, 1])


def _free_spots(card: np.ndarray, marker_px: int) -> tuple[float, float, float, float]:
    """The card's area where dice are laid: inside the markers, above the notes."""
    x0, x1 = float(card[0, 0]) + 0.9 * marker_px, float(card[1, 0]) - 0.9 * marker_px
    y0 = float(card[0, 1]) + 0.9 * marker_px
    y1 = float(card[2, 1]) - 0.9 * marker_px
    return x0, y0, x1, y1


def _overlaps(a: RowDie, b: RowDie, gap: float) -> bool:
    return math.dist(a.centre, b.centre) < 0.62 * (a.side + b.side) + gap


def lay_row(
    dice: Mapping[int, Sequence[SimDie]],
    rng: np.random.Generator,
    width: int = 1280,
    height: int = 720,
    settings: RowSettings = EASY,
) -> list[RowDie]:
    """Places on the cards for the dice of each casino: touching a neighbour where the
    settings say so, otherwise clear of every die."""
    marker_px = _marker_px(width)
    cards = card_layout(width, height, marker_px)
    out: list[RowDie] = []
    for number in sorted(dice):
        x0, y0, x1, y1 = _free_spots(cards[number], marker_px)
        corners = [tuple(c) for c in zone_polygon(cards[number], marker_px)]
        here: list[RowDie] = []
        for die in dice[number]:
            side = settings.die_side * (BIG_SCALE if die.big else 1.0) * rng.uniform(0.98, 1.02)
            reach = 0.62 * side
            placed = None
            for attempt in range(1200):
                # Where a card fills up, dice are laid against others.
                crowded = attempt >= 600
                if here and (crowded or rng.random() < settings.touching and attempt < 200):
                    other = here[int(rng.integers(len(here)))]
                    angle = other.angle + float(rng.uniform(-0.04, 0.04))
                    k = int(rng.integers(4))
                    step = 0.5 * (side + other.side) * 1.02
                    direction = other.angle + k * math.pi / 2
                    slide = float(rng.uniform(-0.3, 0.3)) * min(side, other.side)
                    centre = (
                        other.centre[0] + step * math.cos(direction) - slide * math.sin(direction),
                        other.centre[1] + step * math.sin(direction) + slide * math.cos(direction),
                    )
                    candidate = RowDie(number, die, centre, side, angle)
                    clear = [d for d in here if d is not other]
                    gap = 0.02 * settings.die_side
                else:
                    centre = (
                        float(rng.uniform(x0 + reach, x1 - reach)),
                        float(rng.uniform(y0 + reach, y1 - reach)),
                    )
                    candidate = RowDie(
                        number, die, centre, side, float(rng.uniform(0, math.pi / 2))
                    )
                    clear, gap = here, 0.12 * settings.die_side
                inside = x0 + reach <= centre[0] <= x1 - reach
                inside &= y0 + reach <= centre[1] <= y1 - reach
                inside &= all(math.dist(centre, m) > 0.8 * marker_px + reach for m in corners)
                if inside and not any(_overlaps(candidate, d, gap) for d in clear):
                    placed = candidate
                    break
            if placed is None:  # a full card: the first free place on a grid, in rows
                spacing = 0.62 * 2 * settings.die_side + 0.05 * settings.die_side
                spots = [
                    (x, y)
                    for y in np.arange(y0 + reach, y1 - reach + 1e-3, spacing / 2)
                    for x in np.arange(x0 + reach, x1 - reach + 1e-3, spacing / 2)
                ]
                for x, y in spots:
                    candidate = RowDie(number, die, (float(x), float(y)), side, 0.0)
                    far = all(math.dist((x, y), m) > 0.8 * marker_px + reach for m in corners)
                    if far and not any(_overlaps(candidate, d, 0.0) for d in here):
                        placed = candidate
                        break
            if placed is None:
                raise ValueError(f"no room on casino {number} for {len(dice[number])} dice")
            here.append(placed)
        out.extend(here)
    return out


def _marker_px(width: int) -> int:
    """Marker side in px: big enough for ArUco's detector at this frame width."""
    return max(18, round(0.021 * width))


def misplace(
    dice: Mapping[int, Sequence[SimDie]],
    rng: np.random.Generator,
    colours: Sequence[str],
    kind: str | None = None,
    most_per_casino: int = 12,
) -> tuple[dict[int, list[SimDie]], Misplacement]:
    """The dice with one misplacement: a die "moved" to another casino, "left out", or one
    "added" (of a colour in `colours`); `kind` None picks one at random."""
    kinds = ("moved", "left out", "added")
    kind = kind or kinds[int(rng.integers(3))]
    if kind not in kinds:
        raise ValueError(f"kind must be one of {', '.join(kinds)}, got {kind!r}")
    out = {n: list(d) for n, d in dice.items()}
    full = [n for n, d in out.items() if d]
    room = [n for n, d in out.items() if len(d) < most_per_casino]
    if kind == "added" or not full:
        target = room[int(rng.integers(len(room)))]
        colour = colours[int(rng.integers(len(colours)))]
        die = SimDie(colour, target if target != SLOT else int(rng.integers(1, 7)))
        out[target].append(die)
        return out, Misplacement("added", die, target=target)
    source = full[int(rng.integers(len(full)))]
    die = out[source].pop(int(rng.integers(len(out[source]))))
    if kind == "left out":
        return out, Misplacement("left out", die, source=source)
    targets = [n for n in room if n != source]
    target = targets[int(rng.integers(len(targets)))]
    # A die on the wrong casino still shows the number it was placed for.
    out[target].append(die)
    return out, Misplacement("moved", die, source=source, target=target)


def render_row(
    dice: Sequence[RowDie],
    notes: Mapping[int, Sequence[int]],
    rng: np.random.Generator,
    width: int = 1280,
    height: int = 720,
    settings: RowSettings = EASY,
) -> tuple[np.ndarray, Zones]:
    """The frame (BGR uint8) of the casino row with these dice, and the cards' zones."""
    marker_px = _marker_px(width)
    cards = card_layout(width, height, marker_px)
    img = np.empty((height, width, 3), np.float32)
    img[:] = FELT_BGR
    fibres = cv2.GaussianBlur(rng.normal(0, 1, (height, width)).astype(np.float32), (0, 0), 1.2)
    img *= (1 + 0.05 * fibres)[..., None]
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    names, polygons = [], []
    for number, card in cards.items():
        _fill(img, card, CARD_BGR)
        zone = CASINO_ZONES[number]
        z = ZONE_NAMES.index(zone)
        for corner, (cx, cy) in enumerate(zone_polygon(card, marker_px)):
            marker = cv2.aruco.generateImageMarker(dictionary, 4 * z + corner, marker_px)
            x, y = round(cx - marker_px / 2), round(cy - marker_px / 2)
            img[y : y + marker_px, x : x + marker_px] = marker[..., None].astype(np.float32)
        names.append(zone)
        polygons.append(zone_polygon(card, marker_px))
    _shadows(img, dice, settings)
    for d in dice:
        draw_die(img, _lying(d))
    _notes(img, cards, notes, dice, marker_px, rng, settings)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    cx, cy = width * rng.uniform(0.3, 0.7), height * rng.uniform(0.2, 0.6)
    d2 = ((xx - cx) / width) ** 2 + ((yy - cy) / height) ** 2
    img *= (1.04 - settings.light_fall * d2)[..., None]
    img += rng.normal(0, settings.noise, img.shape).astype(np.float32)
    frame = np.clip(img, 0, 255).astype(np.uint8)
    return frame, Zones(tuple(names), tuple(polygons))


def _text(
    img: np.ndarray,
    text: str,
    org: tuple[int, int],
    scale: float,
    colour: tuple[int, int, int],
    thick: int,
) -> None:
    """Print text on the float image (OpenCV writes text on 8-bit images only); only the
    text's box is blended, the same pixels as blending the whole frame, in a fraction of the
    time."""
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.putText(mask, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, 255, thick, cv2.LINE_AA)
    x, y, w, h = cv2.boundingRect(mask)
    if not w or not h:
        return
    alpha = (mask[y : y + h, x : x + w].astype(np.float32) / 255)[..., None]
    part = img[y : y + h, x : x + w]
    part[:] = part * (1 - alpha) + np.asarray(colour, np.float32) * alpha


def _lying(d: RowDie) -> LyingDie:
    return LyingDie(d.die, d.centre, d.side, d.angle)


def _shadows(img: np.ndarray, dice: Sequence[RowDie], settings: RowSettings) -> None:
    if not dice:
        return
    mask = np.zeros(img.shape[:2], np.float32)
    for d in dice:
        c = (d.centre[0] + 0.06 * d.side, d.centre[1] + 0.08 * d.side)
        _fill(mask, _outline(c, d.side * 1.05, d.angle), (1.0,))
    shadow = cv2.GaussianBlur(mask, (0, 0), 0.08 * settings.die_side)
    img *= (1 - 0.4 * shadow)[..., None]


def _notes(
    img: np.ndarray,
    cards: Mapping[int, np.ndarray],
    notes: Mapping[int, Sequence[int]],
    dice: Sequence[RowDie],
    marker_px: int,
    rng: np.random.Generator,
    settings: RowSettings,
) -> None:
    """Each casino's notes fanned out in the band at its card's foot; and, for the share of
    dice the settings hide, a note's corner laid over part of that die."""
    for number, card in cards.items():
        top, bottom = _notes_band(card, marker_px)
        label = "slot" if number == SLOT else str(number)
        _text(img, label, (int(card[0, 0]), int(bottom + marker_px)), marker_px / 30, (200,) * 3, 2)
        left, right = float(card[0, 0]) + 0.6 * marker_px, float(card[1, 0]) - 0.6 * marker_px
        values = list(notes.get(number, ()))
        for k, value in enumerate(values):
            shift = k * (bottom - top) * 0.5 / max(1, len(values))
            rect = np.array(
                [
                    [left, top + shift],
                    [right, top + shift],
                    [right, bottom],
                    [left, bottom],
                ],
                np.float32,
            )
            _fill(img, rect, np.array(NOTE_BGR) * (0.9 + 0.04 * k))
            text = f"${value // 1000}k"
            org = (int(left + 4), int(top + shift + 0.5 * (bottom - top - shift) + 6))
            _text(img, text, org, marker_px / 40, (60, 90, 60), 1)
    for d in dice:
        if rng.random() >= settings.hidden:
            continue
        # A corner of paper over one edge of the die: at most `hidden_most` of its side.
        cover = float(rng.uniform(0.05, settings.hidden_most)) * d.side
        direction = float(rng.uniform(0, 2 * math.pi))
        ux, uy = math.cos(direction), math.sin(direction)
        edge = 0.5 * d.side - cover
        cx, cy = d.centre[0] + ux * edge, d.centre[1] + uy * edge
        # A strip of the note's edge: long along the die's edge, no die's shape.
        along, out = 0.75 * d.side, 0.35 * d.side
        paper = np.array(
            [
                [cx - uy * along, cy + ux * along],
                [cx + uy * along, cy - ux * along],
                [cx + uy * along + ux * out, cy - ux * along + uy * out],
                [cx - uy * along + ux * out, cy + ux * along + uy * out],
            ],
            np.float32,
        )
        _fill(img, paper, NOTE_BGR)


def row_scene(
    dice: Mapping[int, Sequence[SimDie]],
    notes: Mapping[int, Sequence[int]],
    seed: int,
    width: int = 1280,
    height: int = 720,
    settings: RowSettings = EASY,
) -> RowScene:
    """The casino row with these dice (by casino number) and notes, rendered."""
    rng = np.random.default_rng(seed)
    laid = lay_row(dice, rng, width, height, settings)
    frame, zones = render_row(laid, notes, rng, width, height, settings)
    return RowScene(frame, tuple(laid), zones)
