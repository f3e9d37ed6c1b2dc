"""Reading the casino row: the dice lying in each casino's zone (casinos 1-6 and the slot
machine), each named by colour and size, and the dice not read for sure counted apart.

Each casino is read from its own crop, at the frame's scale: the whole 1280x720 frame shrunk
for one look would make its dice too small, and so would one look at the whole row (see
docs/table-check.md). The size of a regular die is judged over the whole row, so
a Biggy alone on a card is still big. The pips are read with all the reader's care on the slot
machine alone, where they break ties; on casinos 1-6 one pip reader tells a die from no die.
The sizes are judged in `vision.row_sizes`; the rules that put dice in doubt, and those that
read dice in doubt for sure where the picture shows one, live in `vision.row_doubt`,
`vision.row_sure` and `vision.row_patches`, applied here in turn by `read_casino_row`.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.detections import Detections
from vision.images import as_bgr_frame
from vision.reader import ReaderConfig, read_dice
from vision.row_doubt import (
    blank_pieces_dropped,
    boxed_twice_in_doubt,
    neutral_dice_regular,
    on_hidden_markers,
    one_biggy_a_colour,
    paled_whites_in_doubt,
    second_biggies_in_doubt,
    shaded_whites,
    sizes_doubted,
)
from vision.row_patches import lone_patches_read, paled_dice_coloured, patches_left_unread
from vision.row_sizes import covered_sides, judged_sizes, row_regular_side
from vision.row_sure import (
    coloured_dice_read,
    faces_read_for_sure,
    lone_biggies_read,
    named_dice_read,
    pale_dice_read,
    white_boxes_one_die,
)
from vision.row_zones import CASINO_NUMBERS, SLOT_MACHINE, casino_zones
from vision.zones import Zones

CROP_MARGIN = 0.08
"""Around a zone's box, this share of its larger side is cropped too: a die lying on the zone's
edge is read whole (only a die centred in the zone counts)."""


@dataclass(frozen=True)
class CasinoDie:
    """A die read on a casino: the casino (7: the slot machine), its colour, whether it is a
    Biggy, its pips (0 blank), whether it was read for sure, and its box in frame pixels. A
    die in doubt for its pips alone (on the slot machine, surely a die of its colour and size)
    names the numbers of pips it likely shows in `likely_pips`; () where it may be anything."""

    casino: int
    colour: str
    big: bool
    pips: int
    unsure: bool
    box: tuple[float, float, float, float]
    confidence: float
    likely_pips: tuple[int, ...] = ()


@dataclass(frozen=True)
class RowReading:
    """The casino row read from one frame: every die on a casino, the casinos whose zone was
    found (those missing were not looked at), and the dice as one Detections for drawing."""

    dice: tuple[CasinoDie, ...]
    casinos: tuple[int, ...]
    detections: Detections

    def on(self, casino: int) -> tuple[CasinoDie, ...]:
        """The dice read on one casino."""
        return tuple(d for d in self.dice if d.casino == casino)


def _crop_box(polygon: np.ndarray, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The crop (x0, y0, x1, y1) around a zone, with CROP_MARGIN, inside the frame."""
    h, w = shape[:2]
    lo, hi = polygon.min(0), polygon.max(0)
    margin = CROP_MARGIN * float(max(hi - lo))
    x0, y0 = (int(max(v - margin, 0)) for v in lo)
    x1, y1 = int(min(hi[0] + margin, w)), int(min(hi[1] + margin, h))
    return x0, y0, x1, y1


def _shifted(quads: tuple[np.ndarray, ...], dx: int, dy: int) -> tuple[np.ndarray, ...]:
    return tuple(np.asarray(q, np.float32) - (dx, dy) for q in quads)


def _read_zone(
    frame: np.ndarray, zones: Zones, name: str, polygon: np.ndarray, cfg: ReaderConfig
) -> Detections:
    """The dice centred in one zone, read from its crop; boxes in frame pixels."""
    x0, y0, x1, y1 = _crop_box(polygon, frame.shape)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return Detections.empty()
    crop = np.ascontiguousarray(frame[y0:y1, x0:x1])
    # Only this zone, and the printed markers and names the crop shows, which are no dice.
    local = Zones(
        (name,),
        (polygon - (x0, y0),),
        _shifted(zones.markers, x0, y0),
        _shifted(zones.labels, x0, y0),
    )
    # Sizes are judged over the whole row (row_sizes), and only the slot machine's pips count
    # (they break its ties): on casinos 1-6 the reader need only tell whether a box is a die.
    zone_cfg = replace(
        cfg,
        zones=local,
        look_for_large_dice=False,
        judge_sizes=False,
        pips_needed=CASINO_NUMBERS[name] == SLOT_MACHINE,
    )
    det = read_dice(crop, zone_cfg)
    return _moved(det.select(det.zone == name), x0, y0)


def _moved(det: Detections, dx: int, dy: int) -> Detections:
    """The dice with their boxes moved by (dx, dy) px: from a crop's pixels to the frame's."""
    boxes = det.boxes + np.array([dx, dy, dx, dy], np.float32)
    return Detections(
        boxes,
        det.pips,
        det.colour,
        det.size,
        det.confidence,
        det.unsure,
        det.zone,
        det.colour_doubt,
    )


def _read_row(
    frame: np.ndarray, zones: Zones, polygons: dict[int, np.ndarray], cfg: ReaderConfig
) -> Detections:
    """The dice centred in any casino zone, each zone read from its own crop."""
    names = {number: name for name, number in CASINO_NUMBERS.items()}
    det = Detections.empty()
    for number in sorted(polygons):
        det = det.joined(_read_zone(frame, zones, names[number], polygons[number], cfg))
    return det


def read_casino_row(
    frame: np.ndarray,
    zones: Zones,
    config: ReaderConfig | None = None,
    colour_left_unread: bool = True,
) -> RowReading:
    """Every die lying in a casino's zone, read by the reader, its size judged over the row;
    with `colour_left_unread`, a die not read for sure for each patch of a die colour that no
    die read explains (`vision.colour_left`), but where the patch shows one regular die of its
    colour (`lone_patches_read`: a die half under a note that the reader missed), read for
    sure as that die; a pale die in doubt with such a patch inside it named in the patch's
    colour (`paled_dice_coloured`, `named_dice_read`), and one that no patch named read as
    one white die where its box shows one (`pale_dice_read`)."""
    cfg = config or ReaderConfig()
    frame = as_bgr_frame(frame)
    polygons = casino_zones(zones)
    det = _read_row(frame, zones, polygons, cfg) if polygons else Detections.empty()
    if len(det):
        sides = covered_sides(frame, det.boxes)
        regular = cfg.regular_side_px or row_regular_side(sides, det)
        if regular is not None:
            det, sides = blank_pieces_dropped(det, sides, regular, cfg)
            det = shaded_whites(frame, det, regular, cfg)
            det = faces_read_for_sure(frame, det, sides, regular, cfg)
            det = paled_whites_in_doubt(frame, det, regular, cfg)
        sizes, judged = one_biggy_a_colour(det, *judged_sizes(sides, regular))
        if regular is not None:
            sizes, judged = neutral_dice_regular(frame, det, sizes, judged, regular, cfg)
        det = second_biggies_in_doubt(sizes_doubted(det, sizes, judged))
        if regular is not None:
            det = lone_biggies_read(frame, det, sides, regular, cfg)
            det = white_boxes_one_die(frame, det, sides, regular, cfg)
        det = boxed_twice_in_doubt(det)
        det = on_hidden_markers(det, zones, cfg)
        if regular is not None and colour_left_unread:
            patches = patches_left_unread(frame, zones, polygons, det, regular, cfg)
            pale = det.colour
            det, patches = paled_dice_coloured(det, patches)
            det = named_dice_read(frame, zones, det, det.colour != pale, regular, cfg)
            det = pale_dice_read(frame, zones, det, patches, det.colour == pale, regular, cfg)
            det = coloured_dice_read(frame, zones, det, patches, regular, cfg)
            det = det.joined(lone_patches_read(frame, zones, det, patches, regular, cfg))
    dice = tuple(
        CasinoDie(
            CASINO_NUMBERS[str(det.zone[i])],
            str(det.colour[i]),
            det.size[i] == "big",
            int(det.pips[i]),
            bool(det.unsure[i]),
            (
                float(det.boxes[i, 0]),
                float(det.boxes[i, 1]),
                float(det.boxes[i, 2]),
                float(det.boxes[i, 3]),
            ),
            float(det.confidence[i]),
            _pips_of(int(det.likely_pips[i])),
        )
        for i in range(len(det))
    )
    return RowReading(dice, tuple(sorted(polygons)), det)


def _pips_of(bits: int) -> tuple[int, ...]:
    """The numbers of pips whose bits are set (bit k: k pips), fewest first."""
    return tuple(k for k in range(1, 7) if bits >> k & 1)


def draw_row(
    frame: np.ndarray, reading: RowReading, maybe_big: Collection[tuple[int, str]] = ()
) -> np.ndarray:
    """The frame with each die read on a casino boxed and named (unsure ones in orange). The
    regular dice of a colour on a casino named in `maybe_big` ((casino, colour) pairs: one of
    them may be that colour's Biggy) are in orange too, named "big ?"."""
    out = frame.copy()
    for die in reading.dice:
        x0, y0, x1, y1 = (int(round(v)) for v in die.box)
        may_be_big = not die.big and (die.casino, die.colour) in maybe_big
        colour = (0, 140, 255) if die.unsure or may_be_big else (40, 220, 40)
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, 2)
        doubt = " big ?" if may_be_big else " ?" if die.unsure else ""
        label = f"{die.colour}{' big' if die.big else ''}{doubt}"
        cv2.putText(out, label, (x0, max(10, y0 - 3)), cv2.FONT_HERSHEY_SIMPLEX, 0.35, colour, 1)
    return out
