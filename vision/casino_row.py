"""Reading the casino row: the dice lying in each casino's zone (casinos 1-6 and the slot
machine), each named by colour and size, and the dice not read for sure counted apart.

Each casino is read from its own crop, at the frame's scale: the whole 1280x720 frame shrunk
for one look would make its dice too small, and so would one look at the whole row (see
docs/table-check.md). The size of a regular die is judged over the whole row, so
a Biggy alone on a card is still big. The pips are read with all the reader's care on the slot
machine alone, where they break ties; on casinos 1-6 one pip reader tells a die from no die.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision import locate, viewpoint
from vision import pips as pips_mod
from vision import size as size_mod
from vision.colour_left import COLOUR_REACH, colour_left, row_colours, weighted_lab
from vision.crops import crop_dice
from vision.detections import Detections
from vision.onnx_models import PIPS_FILES, model_path, open_session
from vision.pips import CLASS_BLANK
from vision.reader import BLANK_DICE_COLOUR, SURE_READING, ReaderConfig, read_dice
from vision.row_sizes import covered_sides, judged_sizes, row_regular_side
from vision.zones import Zones

SLOT_MACHINE = 7
CASINO_NUMBERS = {f"casino{n}": n for n in range(1, 7)} | {"slot": SLOT_MACHINE}
"""The zone names of the casinos and the casino number each stands for (7: the slot machine)."""
PALE_COLOURS = ("white", "grey")
"""Colours a die of any colour may be read as when it is not read for sure: a note's paper over
it or a shadow pales it. On rendered hardest rows (seeds 0 and 1, 95 dice not read for sure on
casinos 1-6) every one of the 20 read in the wrong colour was read white or grey; none of the
52 read in another colour was wrong."""
FACE_SURE = 0.8
"""The first pip reader gives at least this much to a box showing one face (any number of pips,
not cocked, not cut off, not no die) where a white die's count hangs on it: a white die between
a regular die's size and a Biggy's is one white die (`_neutral_dice_regular`), and a die read
grey with pips is a white die in a shadow (`_shaded_whites`). On rendered hardest rows of seeds
0-5 (rounds 0-24, both tables of each round), of 21 white dice read for sure in between, 13
passed: 11 were one white die, 2 a white die and a die of another colour in one box (the white
count right); the one box on two white dice, kept in doubt, got 0.26. Of 45 dice read grey with
pips, the 10 named white were each a white die; the 35 kept grey lay on 24 coloured dice, 10
white dice and once on no die."""
DIE_SURE = 0.5
"""A die in doubt for its pips alone, read white or in a colour that is no pale one, is read for
sure where the first pip reader gives at least this much to its being a die at all (a face or
cocked: a cocked die on a card counts as much as a flat one), and it covers a regular die's side
(REGULAR_SIDES, NEUTRAL_SIDES), its colour not in doubt; a white one must also show no other die
colours in its box (PALED_SHARE), as a coloured die paled by a note's paper would. On rendered
hardest rows of seeds 0-5 (rounds 0-24), 54 coloured dice in doubt passed the other terms; each
was one die of the colour read, given 0.38-0.99 to being a die. White dice, which asked 0.8 for
a face before, now go by this too: 22 more white dice read for sure there, each one white die
(and 14 more with NEUTRAL_SIDES)."""
SLOT_PIPS_SURE = 0.8
"""On the slot machine, where pips break ties, a die in doubt for its pips alone is read for
sure where the pip readers together (the mean of their chances) give at least this much to one
number of pips, and it passes the terms of a die read for sure by DIE_SURE. With the pip readers
fine-tuned on real photos, on rendered hardest rows of seeds 100-117 (rounds 0-24, both tables
of each round), 683 of the slot machine's dice in doubt passed the other terms: 645 were one
die read with its right number, 38 not, read up to 0.89 (most often a 4 read as 2; those
looked at were dice with a note's edge over some of their pips): 10 reached 0.65 (490 right
ones did), 2 reach this (323 right ones do; one of the 2 is a box on two dice). At 0.65, as
derived with the readers before, seeds 100-111 gave 4 false alarms in 288 rounds, each such a
die; at this, 1, with 13 more tables that agree asking a person."""
SLOT_PIPS_LIKELY = 0.05
"""On the slot machine, a die in doubt for its pips alone (it passes every term of SLOT_PIPS_SURE
but the readers' surety of one number) is surely a regular die of its colour, in doubt among
the numbers of pips likely for it only: each to which the pip readers together give at least
this share of what they give the six faces, and each whose face holds the likeliest number's
pips (PIPS_WITHIN). On rendered hardest rows of seeds 100-111 (rounds 0-24, both tables of
each round), the 252 such dice each showed one of those numbers (3.7 numbers a die; the
likeliest alone was right for 230); by this share alone one die was left out, a 5 read 2 by
all three readers (0.016 of the faces' share to 5), and of the true numbers not the likeliest
nor held by its face, the least share given was 0.11."""
PIPS_WITHIN = {1: (3, 5), 2: (3, 4, 5, 6), 3: (5, 6), 4: (5, 6)}
"""For a number of pips, the larger numbers whose face holds its pattern (a 6's line of three
pips for a 3): a note's edge over some of their pips shows the smaller number. On rendered
hardest rows of seeds 100-111 (rounds 0-24, both tables of each round), of 252 slot machine
dice in doubt for their pips alone, 22 were read likeliest as another number: 19 as fewer pips
than they show, each a number whose pips their face holds (a 4 read 2 twelve times), 3 as more
(a 2 or a 1 read 3)."""
WEAK_BIGGY = SURE_READING
"""A die judged a Biggy counts two at payout: read with less confidence than this (the locator's
score times the first pip reader's probability), it is in doubt, as any die read so weakly is
where pips count. On rendered hardest rows of seeds 0-5 (rounds 0-24, both tables of each
round), of 1,630 dice read as Biggies for sure, 2 were no Biggy (one at 0.44, one at 0.52) and
11 of the true ones read under 0.5."""
REGULAR_SIDES = (0.8, 1.2)
"""Such a die covers between these shares of a regular die's side: neither a piece of a die
nor two dice of one colour boxed as one."""
WHITE = "white"
NEUTRAL_SIDES = (REGULAR_SIDES[0], size_mod.BIG_RATIO)
"""A white die in doubt for its pips alone covers a regular die's side between these shares of
it: the neutral dice have no Biggy, and up to size.BIG_RATIO the row's sizes judge a die
regular anyway. On rendered hardest rows of seeds 0-5 (rounds 0-24, both tables of each round)
14 white dice covering 1.2-1.25 then read for sure (DIE_SURE), each one white die."""
BLANK_PIECE = 0.8
"""Where no grey dice are in play (every die of the game shows pips), a box read grey and blank
covering less than this share of a regular die's side is no die but a note's edge or a printed
mark, and is dropped: a die partly under it still shows its colour, which `colour_left` finds
unexplained. On rendered hardest rows of seeds 0-5 (rounds 0-24, both tables of each round),
43 such boxes lay on no die and 1 on a green die half hidden, whose colour was then found; the
boxes read grey and blank covering a regular die's side lay on 5 dice and 9 times on none."""
PALED_SHARE = 0.25
"""A die read white whose box shows at least this share of a regular die's area in the colours
of the row's other dice may be a coloured die paled by a note. On the rows above, the white
dice not read for sure showed 0-0.17 (a neighbour's corner), the coloured dice read white
0.38-0.62."""
PATCH_INSIDE = 0.6
"""A patch of die colour left unexplained with at least this share of its box inside the box of
a die in doubt read white or grey is that die's own colour: a coloured die paled by a note's
paper. On rendered hardest rows of seeds 0-5 (rounds 0-24), 8 patches lay inside such a box and
each was the one coloured die the box held: two dice in doubt where one lay."""
BOXED_TWICE = 0.5
"""A die with at least this share of its box inside the box of another die of its colour on the
same casino is one die boxed twice, not read for sure. On rendered hardest rows of seeds 0-5
and 12-17 (rounds 0-24, 3,990 casinos seen), dice of one colour touching each other shared at
most 0.39 of a box; two boxes on one die shared 0.62 and 0.76, each counting a die too many."""
LONE_BIGGY_AREA = 1.0
"""A die judged big but in doubt, in a colour that is no pale one, is its owner's Biggy, read for
sure, where it is the only die of its colour judged big on the row (each owner has one Biggy),
it covers at most MOST_BIGGY of a regular die's side, and its box shows at least this many
regular dice's areas in its own colour (as `vision.colour_left` sorts pixels): more than one
regular die shows, pips and all, so it is no regular die whose box took in a note's edge or a
neighbour's corner. On rendered hardest rows of seeds 100-111 (rounds 0-24, both tables of each
round), of 3,316 Biggies judged big for sure, 2 showed less than this (0.97 at least); the
regular dice judged big and in doubt showed 0.33-0.95, but one pressed between two dice of its
colour (1.24), one of them judged big. Of the dice judged big and in doubt that were alone in
their colour on the row, 140 passed, each one Biggy of its colour; kept in doubt were 2 Biggies
showing less, a Biggy whose box held an orange die too (covering 2.09 sides), and a regular die
with a note's edge in its box (0.46; its colour's Biggy lay wholly under a note)."""
MOST_BIGGY = 1.82
"""The largest side, in regular dice's sides, that a Biggy read for sure covered on rendered
hardest rows (seeds 100-117): a box covering more holds more than a Biggy."""
ONE_WHITE_AREA = (0.3, 1.0)
"""A die read white and judged big (not read for sure: the neutral dice have no Biggy) is one
regular white die whose box took in a neighbour's corner or a note's edge where, besides the
terms of `_white_boxes_one_die`, its box shows between these many regular dice's areas in white
(as `vision.colour_left` sorts pixels): at least a good part of one white die, and less than
two would show. On rendered hardest rows of seeds 100-111 (rounds 0-24, the tables as the game
holds them), the 23 boxes read white and big, their colour not in doubt, that held one white
die and a neighbour's corner or a note's edge showed 0.41-0.92 in white and 0-0.44 in the other
colours (18 under PALED_SHARE, each read so); those on coloured dice read white 0.04-0.09 in
white and 0.67-0.99 in the others; the one on a white die and half a red one 0.66 and 0.28."""
PATCH_AREA = (0.2, 1.0)
"""A patch of die colour left unexplained on a casino (`_lone_patches_read`) shows one regular
die of its colour where its box shows between these many regular dice's areas in that colour
(as `vision.colour_left` sorts pixels): a good part of one die, too little for a Biggy or two
dice. On rendered hardest rows of seeds 100-111 (rounds 0-24, both tables of each round), of
146 patches left on their own, 135 lay on one die of their colour that no die read counted
(0.05-0.75 of a die's area, 9 under this; their boxes up to 1.16 regular sides long); of the
11 others, 10 showed 0.05-0.16 (white patches on printed markers in part hidden or on a
coloured die's pips, pieces of dice counted) and one, a Biggy half under a note, 1.33 (its
box 1.44 regular sides long; its colour's Biggy was read on no other die)."""
PATCH_IN_BOX = 0.5
"""A patch of die colour with at least this share of its box inside another die's box may be
that die's own colour, read wrong: it stays in doubt. On the rows above, 2 patches passing the
other terms lay so, each on one die that no die read counted."""
PATCH_CROP = 1.1
"""A patch of colour is read as a die in a square this many regular dice's sides wide about the
patch's middle: a die half under a note shows its visible part there, the rest of the square
being the note's paper. On the rows above, 123 patches passed the other terms, each one die of
its colour; the first pip reader saw a die (DIE_SURE) in 88 of those squares: 70 on casinos
1-6 (3 read blank, which the check keeps in doubt), and 18 of the 29 on the slot machine, 1
read sure of its pips (rightly) and 17 in doubt for their pips alone, each showing one of its
likely numbers."""
PALE_WHITE_AREA = (0.3, 1.0)
"""A pale die in doubt (read white or grey, or its colour a guess) that no patch of colour named
is one white die only where its box shows between these many regular dice's areas in white
(as `vision.colour_left` sorts pixels): a good part of one white die, less than two would show.
On rendered hardest rows of seeds 100-111 (rounds 0-24, both tables of each round; 154 such
boxes, matched to the dice drawn), of the boxes covering a regular die's side (NEUTRAL_SIDES)
the 97 on one white die showed 0.24-0.75 (6 under 0.3, each read grey or its colour a guess),
the 10 on no die, a piece of a white die or a coloured die 0-0.23; of those covering more, the
23 on one white die 0.33-0.68, the 11 on a coloured die 0-0.37, the 10 on a white die and half
or more of another die, or on two coloured dice, 0.04-0.69 (FACE_SURE tells those)."""
PALE_OTHER_MOST = 0.5
"""Such a box shows less than this many regular dice's areas in the row's other die colours: no
coloured die beside the white one. On the rows above the boxes on one white die showed 0-0.46
(the white ones in doubt for showing PALED_SHARE or more); of the other boxes showing
PALE_WHITE_AREA in white, 3 showed 0.56-0.64, each a white die and half or more of a coloured
die, and 4 showed 0-0.44, each covering more than a regular die's side and given 0.06-0.37 to
one face by the first pip reader."""
COLOURED_SIDES = (0.65, MOST_BIGGY)
"""A coloured die in doubt whose colour's Biggy is read for sure elsewhere on the row
(`_coloured_dice_read`) is read as one regular die where it covers between these shares of a
regular die's side: from a die with a note's edge over a third of it to the largest Biggy read
for sure. On rendered hardest rows of seeds 100-111 (rounds 0-24, both tables of each round)
the 91 such dice (82 judged regular, 9 judged big: the weaker of two of a colour) covered
0.67-1.67; on no casino did the dice of that colour read for sure with it outnumber those
drawn (a box holding a second die's middle held one that a box of its own counted too)."""
COLOURED_AREA = (0.25, 1.1)
"""Such a die shows one regular die of its colour where its box shows between these many
regular dice's areas in that colour (as `vision.colour_left` sorts pixels): a good part of one
die, less than two. On the rows above the boxes on one die showed 0.29-1.08."""
COLOURED_OTHER_MOST = 0.5
"""Such a box shows less than this many regular dice's areas in the row's die colours other
than its own and white: no other coloured die's most. On the rows above the boxes on one die
showed 0-0.43 (a neighbour's corner), the one on an orange die and a yellow Biggy 0.88."""
CROP_MARGIN = 0.08
"""Around a zone's box, this share of its larger side is cropped too: a die lying on the zone's
edge is read whole (only a die centred in the zone counts)."""
MARKER_SEEN = 0.5
"""A card zone's corner is a marker seen where a marker found lies this many of its sides from
it or nearer; else the marker printed there is hidden (a note's edge or a die over it) and the
zone was completed from the markers seen (`vision.zones.detect_zones`)."""


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


def casino_zones(zones: Zones) -> dict[int, np.ndarray]:
    """Each casino's polygon (k, 2) by number, from zones that may hold the arena too."""
    return {
        CASINO_NUMBERS[name]: np.asarray(poly, np.float32)
        for name, poly in zip(zones.names, zones.polygons, strict=True)
        if name in CASINO_NUMBERS
    }


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


def _one_biggy_a_colour(
    det: Detections, sizes: np.ndarray, judged: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The sizes and whether each was judged, with a die between a regular die's size and a
    Biggy's (judged big, not for sure: SURE_BIG) taken as regular where another die of its
    colour on the row is a Biggy for sure (judged big, read for sure): each owner has one
    Biggy at most."""
    band = np.flatnonzero((sizes == "big") & ~judged)
    if not len(band):
        return sizes, judged
    sure_big = (sizes == "big") & judged & ~det.unsure & ~det.colour_doubt
    sizes, judged = sizes.copy(), judged.copy()
    for i in band:
        others = sure_big & (det.colour == det.colour[i])
        others[i] = False
        if others.any():
            sizes[i], judged[i] = "regular", True
    return sizes, judged


def _reader_chances(
    frame: np.ndarray, boxes: np.ndarray, cfg: ReaderConfig, readers: int = 1
) -> list[np.ndarray]:
    """What each of the first `readers` pip readers gives to each class for each box (boxes
    (n, 4)), crops cut turned from the camera's place: a list of (n, classes) arrays."""
    paths = cfg.pips_models or [str(model_path(f)) for f in PIPS_FILES]
    place = cfg.camera_place or cfg.likely_place or viewpoint.CAMERA_PLACES[0]
    crops = crop_dice(frame, boxes, down=viewpoint.downs(place, frame.shape, boxes))
    return [
        pips_mod.infer(open_session(path, cfg.threads), crops).reshape(len(boxes), -1)
        for path in paths[:readers]
    ]


def _one_white_face(
    frame: np.ndarray, det: Detections, chosen: np.ndarray, regular_side: float, cfg: ReaderConfig
) -> np.ndarray:
    """Those of the `chosen` dice (indices) whose box shows no other die colours (PALED_SHARE)
    and to which the first pip reader gives at least FACE_SURE of showing one face (any number
    of pips, blank included; not cocked, not cut off, and a die): one white die, seen plainly."""
    if len(chosen):
        chosen = chosen[_white_not_paled(frame, det, chosen, regular_side, cfg)]
    if not len(chosen):
        return chosen
    faces = _reader_chances(frame, det.boxes[chosen], cfg)[0][:, : pips_mod.CLASS_UNSURE].sum(1)
    return chosen[faces >= FACE_SURE]


def _neutral_dice_regular(
    frame: np.ndarray,
    det: Detections,
    sizes: np.ndarray,
    judged: np.ndarray,
    regular_side: float,
    cfg: ReaderConfig,
) -> tuple[np.ndarray, np.ndarray]:
    """The sizes and whether each was judged, with a white die between a regular die's size and
    a Biggy's taken as regular where the first pip reader sees one face in its box (FACE_SURE)
    and it shows no other die colours (PALED_SHARE): the neutral dice have no Biggy, so it is
    one white die whose box took in a neighbour's corner, not two white dice boxed as one."""
    band = np.flatnonzero(
        (det.colour == WHITE) & (sizes == "big") & ~judged & ~det.unsure & ~det.colour_doubt
    )
    one_face = _one_white_face(frame, det, band, regular_side, cfg)
    if not len(one_face):
        return sizes, judged
    sizes, judged = sizes.copy(), judged.copy()
    sizes[one_face], judged[one_face] = "regular", True
    return sizes, judged


def _doubted(det: Detections, sizes: np.ndarray, judged: np.ndarray) -> Detections:
    """The row's dice with their sizes judged over the row, flagged unsure where they are not
    read for sure: a die whose size cannot be judged (a Biggy counts two), one whose colour is
    a guess (it lies between two colours), a grey die showing pips (grey dice are blank:
    it is a white die in a shadow, or under a note's tint), and a Biggy read weakly
    (WEAK_BIGGY)."""
    grey_with_pips = (det.colour == BLANK_DICE_COLOUR) & (det.pips != CLASS_BLANK)
    weak_biggy = (sizes == "big") & (det.confidence < WEAK_BIGGY)
    flag = ~judged | det.colour_doubt | grey_with_pips | weak_biggy
    return _flagged(replace(det, size=sizes), flag)


def _second_biggies_in_doubt(det: Detections) -> Detections:
    """The row's dice with each die read as a Biggy for sure flagged unsure where another die of
    its colour is read as a Biggy for sure with more confidence: each owner has one Biggy at
    most, so one of them is no Biggy (two dice of that colour boxed as one, a Biggy's box taking
    in a touching die)."""
    sure_big = np.flatnonzero((det.size == "big") & ~det.unsure & ~det.colour_doubt)
    flag = np.zeros(len(det), bool)
    for colour in {str(c) for c in det.colour[sure_big]}:
        mine = sure_big[det.colour[sure_big] == colour]
        surest = mine[int(np.argmax(det.confidence[mine]))]
        flag[mine[mine != surest]] = True
    return _flagged(det, flag)


def _own_colour_areas(
    frame: np.ndarray, det: Detections, chosen: np.ndarray, regular_side: float, cfg: ReaderConfig
) -> np.ndarray:
    """For the dice `chosen` (indices), the area of their box in their own colour, in regular
    dice's areas: the pixels nearer their colour than any other colour read for sure on the row
    (as `vision.colour_left` sorts them), within its reach. 0 where their colour is not read for
    sure on the row."""
    out = np.zeros(len(chosen), np.float32)
    colours = row_colours(frame, det, cfg.palette.in_play)
    if not len(chosen) or not colours:
        return out
    names = list(colours)
    points = np.array([colours[name] for name in names], np.float32)
    h, w = frame.shape[:2]
    for k, i in enumerate(chosen):
        colour = str(det.colour[i])
        x0, y0, x1, y1 = det.boxes[i]
        part = frame[max(int(y0), 0) : min(int(y1), h), max(int(x0), 0) : min(int(x1), w)]
        if colour not in colours or not part.size:
            continue
        spread = ((weighted_lab(part.reshape(-1, 3))[:, None, :] - points[None]) ** 2).sum(2)
        own = names.index(colour)
        mine = (spread.argmin(1) == own) & (spread[:, own] <= COLOUR_REACH**2)
        out[k] = float(mine.sum()) / regular_side**2
    return out


def _lone_biggies_read(
    frame: np.ndarray, det: Detections, sides: np.ndarray, regular_side: float, cfg: ReaderConfig
) -> Detections:
    """The row's dice with each die judged big but in doubt read for sure as its owner's Biggy
    where the box shows it is one (LONE_BIGGY_AREA): its colour no pale one and not in doubt, no
    other die of its colour judged big on the row, covering at most MOST_BIGGY of a regular
    die's side, at least LONE_BIGGY_AREA of a die's area in its colour, and seen as a die by the
    first pip reader (DIE_SURE). On the slot machine, where pips count, the pip readers together
    must also be sure of its pips (SLOT_PIPS_SURE), which it is then read as."""
    big = det.size == "big"
    same_colour = det.colour[:, None] == det.colour[None]
    np.fill_diagonal(same_colour, False)
    alone = ~(same_colour & big[None]).any(1)
    measured = np.nan_to_num(sides, nan=np.inf) / regular_side
    chosen = np.flatnonzero(
        det.unsure
        & big
        & alone
        & ~det.colour_doubt
        & ~np.isin(det.colour, PALE_COLOURS)
        & (measured <= MOST_BIGGY)
    )
    if len(chosen):
        chosen = chosen[_own_colour_areas(frame, det, chosen, regular_side, cfg) >= LONE_BIGGY_AREA]
    # A Biggy left in doubt for its pips gets no likely numbers: those are told of regular dice.
    return _read_for_sure(frame, det, chosen, cfg, likely=False) if len(chosen) else det


def _white_boxes_one_die(
    frame: np.ndarray, det: Detections, sides: np.ndarray, regular_side: float, cfg: ReaderConfig
) -> Detections:
    """The row's dice with each die read white and judged big read as one regular white die where
    its box shows one: its colour not in doubt, covering at most MOST_BIGGY of a regular die's
    side, showing ONE_WHITE_AREA of a die's area in white and less than PALED_SHARE in the row's
    other die colours, and seen as a die by the first pip reader (DIE_SURE). A white die is no
    Biggy, so such a box is a white die with a neighbour's corner or a note's edge in it, not
    two dice nor a coloured die under a note's paper. It is read for sure on casinos 1-6; on
    the slot machine where the pip readers together are sure of its pips (SLOT_PIPS_SURE), else
    it stays in doubt for its pips alone, with the numbers it likely shows (SLOT_PIPS_LIKELY)."""
    measured = np.nan_to_num(sides, nan=np.inf) / regular_side
    chosen = np.flatnonzero(
        (det.colour == WHITE) & (det.size == "big") & ~det.colour_doubt & (measured <= MOST_BIGGY)
    )
    if len(chosen):
        white = _own_colour_areas(frame, det, chosen, regular_side, cfg)
        chosen = chosen[(white >= ONE_WHITE_AREA[0]) & (white <= ONE_WHITE_AREA[1])]
    if len(chosen):
        chosen = chosen[_white_not_paled(frame, det, chosen, regular_side, cfg)]
    if not len(chosen):
        return det
    slot = det.zone[chosen] == "slot"
    every = _reader_chances(frame, det.boxes[chosen], cfg, len(PIPS_FILES) if slot.any() else 1)
    a_die = 1.0 - every[0][:, pips_mod.CLASS_NOT_A_DIE] >= DIE_SURE
    chosen, slot = chosen[a_die], slot[a_die]
    together = np.mean(every, 0)[a_die, : pips_mod.CLASS_UNSURE]
    value = together.argmax(1)
    pips_sure = (together.max(1) >= SLOT_PIPS_SURE) & (value != pips_mod.CLASS_BLANK)
    size, unsure = det.size.copy(), det.unsure.copy()
    pips, likely = det.pips.copy(), det.likely_pips.copy()
    size[chosen] = "regular"
    unsure[chosen] = slot & ~pips_sure
    pips[chosen[slot & pips_sure]] = value[slot & pips_sure]
    likely[chosen] = np.where(slot & ~pips_sure, _likely_pips(together), 0)
    return replace(det, size=size, unsure=unsure, pips=pips, likely_pips=likely)


def _faces_read_for_sure(
    frame: np.ndarray, det: Detections, sides: np.ndarray, regular_side: float, cfg: ReaderConfig
) -> Detections:
    """The row's dice with those that the reader flagged unsure for their pips alone read for
    sure: a die covering a regular die's side (`sides`, px, against `regular_side`: REGULAR_SIDES,
    or NEUTRAL_SIDES for a white die), its colour not in doubt and no pale one but white, that
    the first pip reader sees as a die (DIE_SURE), a white one not paled (PALED_SHARE). On
    casinos 1-6 its pips do not count; on the slot machine the pip readers together must also
    be sure of its pips (SLOT_PIPS_SURE), which it is then read as; else it stays in doubt for
    its pips alone, with the numbers it likely shows (SLOT_PIPS_LIKELY)."""
    measured = np.nan_to_num(sides, nan=0.0) / regular_side
    white_die = det.colour == WHITE
    least = np.where(white_die, NEUTRAL_SIDES[0], REGULAR_SIDES[0])
    most = np.where(white_die, NEUTRAL_SIDES[1], REGULAR_SIDES[1])
    regular = (measured >= least) & (measured <= most)
    candidates = det.unsure & regular & ~det.colour_doubt
    candidates &= ~np.isin(det.colour, [c for c in PALE_COLOURS if c != WHITE])
    white = np.flatnonzero(candidates & (det.colour == WHITE))
    candidates[white] = _white_not_paled(frame, det, white, regular_side, cfg)
    chosen = np.flatnonzero(candidates)
    return _read_for_sure(frame, det, chosen, cfg) if len(chosen) else det


def _read_for_sure(
    frame: np.ndarray, det: Detections, chosen: np.ndarray, cfg: ReaderConfig, likely: bool = True
) -> Detections:
    """The dice `chosen` (indices into `det`) read for sure where the first pip reader sees a
    die in each (DIE_SURE); on the slot machine only where the readers are sure of its pips too
    (SLOT_PIPS_SURE), which then give its number. A slot machine die seen as a die whose pips
    are not sure stays in doubt, with its likely numbers (`_likely_pips`) where `likely`."""
    slot = det.zone[chosen] == "slot"
    every = _reader_chances(frame, det.boxes[chosen], cfg, len(PIPS_FILES) if slot.any() else 1)
    probs = every[0]
    sure = 1.0 - probs[:, pips_mod.CLASS_NOT_A_DIE] >= DIE_SURE
    together = np.mean(every, 0)[:, : pips_mod.CLASS_UNSURE]
    value = together.argmax(1)
    pips_sure = (together.max(1) >= SLOT_PIPS_SURE) & (value != pips_mod.CLASS_BLANK)
    unsure, pips, likely_pips = det.unsure.copy(), det.pips.copy(), det.likely_pips.copy()
    if likely:
        in_doubt = sure & slot & ~pips_sure
        likely_pips[chosen[in_doubt]] = _likely_pips(together[in_doubt])
    sure &= ~slot | pips_sure
    unsure[chosen[sure]] = False
    pips[chosen[sure & slot]] = value[sure & slot]
    return replace(det, unsure=unsure, pips=pips, likely_pips=likely_pips)


def _likely_pips(together: np.ndarray) -> np.ndarray:
    """For each die (the pip readers' mean chances, (n, classes from blank)), the numbers of
    pips given SLOT_PIPS_LIKELY or more of the six faces' share, and those whose face holds
    the likeliest number's pips (PIPS_WITHIN), as bits (bit k: k pips)."""
    faces = together[:, 1 : pips_mod.CLASS_UNSURE]
    shares = faces / np.maximum(faces.sum(1, keepdims=True), 1e-9)
    bits = (1 << np.arange(1, pips_mod.CLASS_UNSURE)).astype(np.uint8)
    likely = np.where(shares >= SLOT_PIPS_LIKELY, bits, 0).sum(1).astype(np.uint8)
    within = np.array([sum(1 << k for k in PIPS_WITHIN.get(v, ())) for v in range(1, 7)], np.uint8)
    return likely | within[shares.argmax(1)]


def _flagged(det: Detections, flag: np.ndarray) -> Detections:
    """The row's dice with those where `flag` is set not read for sure: in doubt for more than
    their pips, so they keep no likely numbers of pips."""
    likely = np.where(flag, 0, det.likely_pips).astype(np.uint8)
    return replace(det, unsure=det.unsure | flag, likely_pips=likely)


def _shaded_whites(
    frame: np.ndarray, det: Detections, regular_side: float, cfg: ReaderConfig
) -> Detections:
    """The row's dice with each die read grey but showing pips named white where white dice
    are in play, the first pip reader sees a face in its box (FACE_SURE) and the box shows no
    other die colours (PALED_SHARE): a white die in a shadow, grey dice being blank. It keeps
    the reader's doubt, if any, and is then read like any white die."""
    if WHITE not in cfg.palette.in_play:
        return det
    grey = np.flatnonzero(
        (det.colour == BLANK_DICE_COLOUR) & (det.pips != CLASS_BLANK) & ~det.colour_doubt
    )
    shaded = _one_white_face(frame, det, grey, regular_side, cfg)
    if not len(shaded):
        return det
    colour = det.colour.copy()
    colour[shaded] = WHITE
    return replace(det, colour=colour)


def _blank_pieces_dropped(
    det: Detections, sides: np.ndarray, regular_side: float, cfg: ReaderConfig
) -> tuple[Detections, np.ndarray]:
    """The row's dice and their covered sides (`sides`, px) without the boxes read grey and
    blank covering less than BLANK_PIECE of `regular_side`, where the palette names the colours
    in play and grey is none of them: pieces of a note or a printed mark, no die."""
    if not cfg.palette.in_play or BLANK_DICE_COLOUR in cfg.palette.in_play:
        return det, sides
    small = np.nan_to_num(sides, nan=np.inf) < BLANK_PIECE * regular_side
    drop = (det.colour == BLANK_DICE_COLOUR) & (det.pips == CLASS_BLANK) & small
    return det.select(~drop), sides[~drop]


def _paled_whites_in_doubt(
    frame: np.ndarray, det: Detections, regular_side: float, cfg: ReaderConfig
) -> Detections:
    """The row's dice with those read white for sure but showing PALED_SHARE or more of the
    row's other die colours in their box flagged unsure: a coloured die under a note's paper,
    read white (on rendered hardest rows each such die left a patch of its colour inside the
    white box: a die of that colour not read for sure beside a white die too many, a false
    alarm)."""
    white = np.flatnonzero(~det.unsure & (det.colour == WHITE))
    paled = ~_white_not_paled(frame, det, white, regular_side, cfg, unknown=True)
    if not paled.any():
        return det
    flag = np.zeros(len(det), bool)
    flag[white[paled]] = True
    return _flagged(det, flag)


def _white_not_paled(
    frame: np.ndarray,
    det: Detections,
    chosen: np.ndarray,
    regular_side: float,
    cfg: ReaderConfig,
    unknown: bool = False,
) -> np.ndarray:
    """For the dice `chosen` (indices, read white), whether their box shows less than
    PALED_SHARE of a regular die's area in the colours of the row's other dice (as
    `vision.colour_left` sorts pixels): a white die, not a coloured one paled by a note.
    Where no other colour is read for sure on the row, none can be told: `unknown`."""
    out = np.full(len(chosen), unknown, bool)
    if not len(chosen):
        return out
    others = {k: v for k, v in row_colours(frame, det, cfg.palette.in_play).items() if k != WHITE}
    if not others:
        return out
    points = np.array(list(others.values()), np.float32)
    h, w = frame.shape[:2]
    for k, i in enumerate(chosen):
        x0, y0, x1, y1 = det.boxes[i]
        part = frame[max(int(y0), 0) : min(int(y1), h), max(int(x0), 0) : min(int(x1), w)]
        if not part.size:
            continue
        lab = weighted_lab(part.reshape(-1, 3))
        near = ((lab[:, None, :] - points[None]) ** 2).sum(2).min(1) <= COLOUR_REACH**2
        out[k] = float(near.sum()) < PALED_SHARE * regular_side**2
    return out


def _colour_left_unread(
    frame: np.ndarray,
    zones: Zones,
    polygons: dict[int, np.ndarray],
    det: Detections,
    regular_side: float,
    cfg: ReaderConfig,
) -> Detections:
    """A die not read for sure for each patch of a die colour on a casino that the dice read
    do not explain (`vision.colour_left`): a die the reader did not find (about one per die's
    area of the patch)."""
    colours = row_colours(frame, det, cfg.palette.in_play)
    names = {number: name for name, number in CASINO_NUMBERS.items()}
    boxes, colour, zone = [], [], []
    for number in sorted(polygons):
        for name, box, share in colour_left(
            frame, polygons[number], det, colours, regular_side, zones.markers
        ):
            for _ in range(max(1, round(share))):
                boxes.append(box)
                colour.append(name)
                zone.append(names[number])
    n = len(boxes)
    if not n:
        return Detections.empty()
    return Detections(
        np.array(boxes, np.float32),
        np.zeros(n, np.int8),
        np.array(colour, object),
        np.full(n, "regular", object),
        np.zeros(n, np.float32),
        np.ones(n, bool),
        np.array(zone, object),
        np.zeros(n, bool),
    )


def hidden_markers(zones: Zones) -> tuple[np.ndarray, ...]:
    """A quad (4, 2) where each casino zone's corner lies with no marker seen there (MARKER_SEEN),
    of the size and turn of the marker seen nearest: the printed marker, hidden in part."""
    if not zones.markers:
        return ()
    centres = np.array([quad.mean(0) for quad in zones.markers], np.float32)
    sides = np.array(
        [np.linalg.norm(quad - np.roll(quad, 1, 0), axis=1).mean() for quad in zones.markers]
    )
    hidden = []
    for polygon in casino_zones(zones).values():
        for corner in polygon:
            far = np.linalg.norm(centres - corner, axis=1)
            nearest = int(np.argmin(far))
            if far[nearest] > MARKER_SEEN * sides[nearest]:
                quad = zones.markers[nearest]
                hidden.append((quad - quad.mean(0) + corner).astype(np.float32))
    return tuple(hidden)


def _on_hidden_markers(det: Detections, zones: Zones, cfg: ReaderConfig) -> Detections:
    """The row's dice without those centred on a hidden marker (`hidden_markers`) read in a
    colour no one plays (the marker's part that shows, taken for a die), and with those read in
    a colour in play there flagged unsure: the marker's part, or a die lying on the marker.
    Where the colours in play are not named, each is flagged unsure."""
    hidden = hidden_markers(zones)
    if not hidden or not len(det):
        return det
    on_marker = Zones((), (), hidden).on_marker(det.boxes)
    in_play = cfg.palette.in_play
    stranger = (
        on_marker & ~np.isin(det.colour, list(in_play)) if in_play else np.zeros_like(on_marker)
    )
    return _flagged(det, on_marker).select(~stranger)


def _inside_shares(boxes: np.ndarray, others: np.ndarray) -> np.ndarray:
    """The share of each box's area (boxes (n, 4)) that lies inside each of `others` (m, 4):
    an array (n, m); 0 for a box with no area."""
    areas = np.prod(boxes[:, 2:] - boxes[:, :2], 1)
    return locate.shared_areas(boxes, others) / np.maximum(areas, 1e-9)[:, None]


def _boxed_twice_in_doubt(det: Detections) -> Detections:
    """The row's dice with each die whose box lies for BOXED_TWICE or more inside the box of
    another die of its colour on its casino flagged unsure: one die boxed twice."""
    alike = (det.zone[:, None] == det.zone[None]) & (det.colour[:, None] == det.colour[None])
    np.fill_diagonal(alike, False)
    twice = ((_inside_shares(det.boxes, det.boxes) >= BOXED_TWICE) & alike).any(1)
    return _flagged(det, twice)


def _paled_dice_coloured(det: Detections, patches: Detections) -> tuple[Detections, Detections]:
    """The row's dice and the patches of colour left unexplained, each patch that lies within
    a die in doubt read white or grey (PATCH_INSIDE) taken as that die's colour: a regular die
    is named in the patch's colour (still in doubt), and the patch no longer counts as a die of
    its own. Inside a die read big the patch is dropped and the die keeps its pale colour: it
    may be two dice of any colours. A die named so is in doubt for its colour, not its pips
    alone."""
    if not len(patches):
        return det, patches
    pale = det.unsure & np.isin(det.colour, PALE_COLOURS)
    inside = _inside_shares(patches.boxes, det.boxes)
    colour = det.colour.copy()
    named = np.zeros(len(det), bool)
    kept = np.ones(len(patches), bool)
    for k in range(len(patches)):
        shares = np.where(pale & (det.zone == patches.zone[k]), inside[k], 0.0)
        i = int(np.argmax(shares)) if len(shares) else 0
        if not len(shares) or shares[i] < PATCH_INSIDE:
            continue
        kept[k] = False
        if det.size[i] != "big":
            colour[i], named[i] = patches.colour[k], True
            pale[i] = False  # a second patch inside it is a die of its own
    return _flagged(replace(det, colour=colour), named), patches.select(kept)


def _named_dice_read(
    frame: np.ndarray,
    zones: Zones,
    det: Detections,
    named: np.ndarray,
    regular_side: float,
    cfg: ReaderConfig,
) -> Detections:
    """The row's dice with each die that a patch of colour named (`named`: a pale die in doubt
    with a patch of a die colour inside its box, `_paled_dice_coloured`) read for sure as one
    regular die of that colour where its box shows one: it covers a regular die's side
    (REGULAR_SIDES), the first pip reader sees a die in it (DIE_SURE), it lies on no hidden
    marker and shares no box with another die (BOXED_TWICE either way). On the slot machine,
    where pips count, the pip readers together must also be sure of its pips (SLOT_PIPS_SURE),
    which it is then read as; else it stays in doubt for its pips alone, with the numbers it
    likely shows (SLOT_PIPS_LIKELY). On rendered hardest rows of
    seeds 100-111 (rounds 0-24), each die named so on a table that agreed but asked a person
    (56) was one regular die of the colour its patch named, covering 0.92-1.2 of a regular die's
    side; of the 100 this reads there (both tables of each round), 99 held one regular die of
    their colour, one the centres of two purple dice; of the 22 on the slot machine left in
    doubt for their pips alone, each showed one of its likely numbers."""
    chosen = np.flatnonzero(named & det.unsure & (det.size != "big"))
    if not len(chosen):
        return det
    measured = covered_sides(frame, det.boxes[chosen]) / regular_side
    regular = (measured >= REGULAR_SIDES[0]) & (measured <= REGULAR_SIDES[1])
    hidden = hidden_markers(zones)
    if hidden:
        regular &= ~Zones((), (), hidden).on_marker(det.boxes[chosen])
    shares = _inside_shares(det.boxes[chosen], det.boxes)
    shares[np.arange(len(chosen)), chosen] = 0.0
    back = _inside_shares(det.boxes, det.boxes[chosen]).T
    back[np.arange(len(chosen)), chosen] = 0.0
    same_casino = det.zone[chosen][:, None] == det.zone[None]
    regular &= ~(((shares >= BOXED_TWICE) | (back >= BOXED_TWICE)) & same_casino).any(1)
    chosen = chosen[regular]
    return _read_for_sure(frame, det, chosen, cfg) if len(chosen) else det


def _lone_patches_read(
    frame: np.ndarray,
    zones: Zones,
    det: Detections,
    patches: Detections,
    regular_side: float,
    cfg: ReaderConfig,
) -> Detections:
    """The patches of colour left unexplained (`_colour_left_unread`, dice not read for sure),
    each read for sure as one regular die of its colour where it shows one: counted as one
    die, its box no longer than a regular die's side (REGULAR_SIDES), showing PATCH_AREA of a
    die's area in its colour, less than PATCH_IN_BOX of it inside another die's box, on no
    hidden marker, in a colour whose Biggy is read for sure on the row (or white: the neutral
    dice have no Biggy), and seen as a die by the first pip reader (DIE_SURE) in a square of
    PATCH_CROP regular sides about its middle. That square becomes its box, and its pips the
    face the reader finds likeliest there (read blank, the check keeps it in doubt: no die of
    the game is blank on a casino). On the slot machine, where pips count, the pip readers
    together must also be sure of its pips (SLOT_PIPS_SURE), which it is then read as; else it
    stays in doubt for its pips alone, with the numbers it likely shows (SLOT_PIPS_LIKELY).
    Such a patch is mostly a die half under a note's paper that the reader did not box. A
    white patch in doubt lying within a die so read (PATCH_INSIDE) is its pips, which a die's
    box explains: it is dropped."""
    if not len(patches):
        return patches
    boxes = patches.boxes
    _, first, counts = np.unique(boxes, axis=0, return_index=True, return_counts=True)
    once = np.zeros(len(patches), bool)
    once[first[counts == 1]] = True
    longest = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]) / regular_side
    in_box = _inside_shares(boxes, det.boxes).max(1) if len(det) else np.zeros(len(patches))
    biggy_read = (det.size == "big") & ~det.unsure
    no_biggy_left = {WHITE, *(str(c) for c in det.colour[biggy_read])}
    one_die = once & (longest <= REGULAR_SIDES[1]) & (in_box < PATCH_IN_BOX)
    hidden = hidden_markers(zones)
    if hidden:
        one_die &= ~Zones((), (), hidden).on_marker(boxes)
    chosen = np.flatnonzero(one_die & np.isin(patches.colour, list(no_biggy_left)))
    if len(chosen):
        # The row's colours are measured on its dice read for sure; the patches are in doubt.
        areas = _own_colour_areas(frame, det.joined(patches), len(det) + chosen, regular_side, cfg)
        chosen = chosen[(areas >= PATCH_AREA[0]) & (areas <= PATCH_AREA[1])]
    if not len(chosen):
        return patches
    middles = (boxes[chosen, :2] + boxes[chosen, 2:]) / 2
    half = PATCH_CROP * regular_side / 2
    squares = boxes.copy()
    squares[chosen] = np.concatenate([middles - half, middles + half], 1)
    # On casinos 1-6 pips do not count, but a face read blank is no die of the game's there.
    faces = _reader_chances(frame, squares[chosen], cfg)[0][:, : pips_mod.CLASS_UNSURE]
    pips = patches.pips.copy()
    pips[chosen] = faces.argmax(1)
    read = _read_for_sure(frame, replace(patches, boxes=squares, pips=pips), chosen, cfg)
    # A patch not seen as a die stays as it was found.
    unseen = read.unsure & (read.likely_pips == 0)
    read = replace(
        read,
        boxes=np.where(unseen[:, None], boxes, read.boxes),
        pips=np.where(unseen, patches.pips, read.pips),
    )
    # A white patch within a die so read is its pips, as any die's box explains white.
    same_casino = read.zone[:, None] == read.zone[None]
    within = (_inside_shares(boxes, read.boxes) >= PATCH_INSIDE) & same_casino & ~unseen[None]
    pips_of_die = unseen & (read.colour == WHITE) & within.any(1)
    return read.select(~pips_of_die)


def _pale_dice_read(
    frame: np.ndarray,
    zones: Zones,
    det: Detections,
    patches: Detections,
    unnamed: np.ndarray,
    regular_side: float,
    cfg: ReaderConfig,
) -> Detections:
    """The row's dice with each pale die in doubt (read white or grey, or its colour a guess)
    that no patch of colour named (`unnamed`) read for sure as one regular white die where its
    box shows one: PALE_WHITE_AREA of a die's area in white and less than PALE_OTHER_MOST in the
    row's other die colours, the first pip reader seeing a die in it (DIE_SURE), on no hidden
    marker and sharing no box with another die or a patch of colour left (BOXED_TWICE either
    way). It covers a regular die's side (NEUTRAL_SIDES), or up to MOST_BIGGY where the first
    pip reader sees one face in it (FACE_SURE): the neutral dice have no Biggy. On the slot
    machine the pip readers together must also be sure of its pips (SLOT_PIPS_SURE), else it is
    one white die in doubt for its pips alone, with its likely numbers (SLOT_PIPS_LIKELY). On
    rendered hardest rows of seeds 100-111 (rounds 0-24, both tables of each round) the single
    white dice covering more than a regular die's side were given 0.53-0.96 to one face; this
    read 101 boxes, 10 of them covering more (16 on the slot machine, 10 left in doubt for their
    pips alone), each one white die, the pips right or among the likely ones; on seeds 112-123,
    82 (16 covering more; 4 with under half of a neighbour in the box, each boxed apart too)."""
    pale = np.isin(det.colour, PALE_COLOURS) | det.colour_doubt
    chosen = np.flatnonzero(unnamed & pale & det.unsure & (det.likely_pips == 0))
    if not len(chosen):
        return det
    sides = np.nan_to_num(covered_sides(frame, det.boxes[chosen]), nan=0.0) / regular_side
    keep = (sides >= NEUTRAL_SIDES[0]) & (sides <= MOST_BIGGY)
    if hidden := hidden_markers(zones):
        keep &= ~Zones((), (), hidden).on_marker(det.boxes[chosen])
    keep &= _shares_no_box(det.joined(patches), chosen)
    chosen, sides = chosen[keep], sides[keep]
    white, other = _white_and_other_areas(frame, det, chosen, regular_side, cfg)
    keep = (white >= PALE_WHITE_AREA[0]) & (white <= PALE_WHITE_AREA[1]) & (other < PALE_OTHER_MOST)
    chosen, sides = chosen[keep], sides[keep]
    larger = sides > NEUTRAL_SIDES[1]
    if larger.any():
        chances = _reader_chances(frame, det.boxes[chosen[larger]], cfg)[0]
        keep = np.ones(len(chosen), bool)
        keep[larger] = chances[:, : pips_mod.CLASS_UNSURE].sum(1) >= FACE_SURE
        chosen = chosen[keep]
    if not len(chosen):
        return det
    read = _read_for_sure(frame, det, chosen, cfg)
    white_die = chosen[~read.unsure[chosen] | (read.likely_pips[chosen] != 0)]
    colour, size, doubt = det.colour.copy(), det.size.copy(), det.colour_doubt.copy()
    colour[white_die], size[white_die], doubt[white_die] = WHITE, "regular", False
    return replace(read, colour=colour, size=size, colour_doubt=doubt)


def _coloured_dice_read(
    frame: np.ndarray,
    zones: Zones,
    det: Detections,
    patches: Detections,
    regular_side: float,
    cfg: ReaderConfig,
) -> Detections:
    """The row's dice with each coloured die in doubt (its colour no pale one and not a guess, not
    in doubt for its pips alone) whose colour's Biggy is read for sure elsewhere on the row read
    for sure as one regular die of its colour where its box shows one: each owner has one Biggy,
    so it is a regular die whose box took in a neighbour's corner or lost a part to a note's
    edge, not its owner's Biggy. It covers COLOURED_SIDES of a regular die's side, shows
    COLOURED_AREA of a die's area in its colour and less than COLOURED_OTHER_MOST in the row's
    other die colours but white, lies on no hidden marker, shares no box with another die or a
    patch of colour left (BOXED_TWICE either way), and the first pip reader sees a die in it
    (DIE_SURE). On the slot machine the pip readers together must also be sure of its pips
    (SLOT_PIPS_SURE), else it is one regular die of its colour in doubt for its pips alone, with
    the numbers it likely shows (SLOT_PIPS_LIKELY)."""
    sure_big = (det.size == "big") & ~det.unsure & ~det.colour_doubt
    biggy_read = [str(c) for c in det.colour[sure_big] if c not in PALE_COLOURS]
    chosen = np.flatnonzero(
        det.unsure & (det.likely_pips == 0) & ~det.colour_doubt & np.isin(det.colour, biggy_read)
    )
    if not len(chosen):
        return det
    sides = np.nan_to_num(covered_sides(frame, det.boxes[chosen]), nan=0.0) / regular_side
    keep = (sides >= COLOURED_SIDES[0]) & (sides <= COLOURED_SIDES[1])
    if hidden := hidden_markers(zones):
        keep &= ~Zones((), (), hidden).on_marker(det.boxes[chosen])
    keep &= _shares_no_box(det.joined(patches), chosen)
    chosen = chosen[keep]
    own, other = _own_and_other_areas(frame, det, chosen, regular_side, cfg)
    keep = (own >= COLOURED_AREA[0]) & (own <= COLOURED_AREA[1]) & (other < COLOURED_OTHER_MOST)
    chosen = chosen[keep]
    if not len(chosen):
        return det
    read = _read_for_sure(frame, det, chosen, cfg)
    one_die = chosen[~read.unsure[chosen] | (read.likely_pips[chosen] != 0)]
    size = read.size.copy()
    size[one_die] = "regular"
    return replace(read, size=size)


def _own_and_other_areas(
    frame: np.ndarray, det: Detections, chosen: np.ndarray, regular_side: float, cfg: ReaderConfig
) -> tuple[np.ndarray, np.ndarray]:
    """For the dice `chosen` (indices, each of a colour read for sure on the row), the area of
    their box in their own colour and in the row's other die colours but white, in regular
    dice's areas, each pixel given to the colour read for sure on the row that it lies nearest
    (as `vision.colour_left` sorts them) where within that colour's reach."""
    own = np.zeros(len(chosen), np.float32)
    other = np.zeros(len(chosen), np.float32)
    colours = row_colours(frame, det, cfg.palette.in_play)
    names = list(colours)
    if not len(chosen) or not names:
        return own, other
    points = np.array([colours[name] for name in names], np.float32)
    h, w = frame.shape[:2]
    for k, i in enumerate(chosen):
        x0, y0, x1, y1 = det.boxes[i]
        part = frame[max(int(y0), 0) : min(int(y1), h), max(int(x0), 0) : min(int(x1), w)]
        if str(det.colour[i]) not in colours or not part.size:
            continue
        spread = ((weighted_lab(part.reshape(-1, 3))[:, None, :] - points[None]) ** 2).sum(2)
        nearest = spread.argmin(1)
        near = spread[np.arange(len(spread)), nearest] <= COLOUR_REACH**2
        mine = names.index(str(det.colour[i]))
        others = ~np.isin(nearest, [mine] + ([names.index(WHITE)] if WHITE in names else []))
        own[k] = float((near & (nearest == mine)).sum()) / regular_side**2
        other[k] = float((near & others).sum()) / regular_side**2
    return own, other


def _shares_no_box(det: Detections, chosen: np.ndarray) -> np.ndarray:
    """For the dice `chosen` (indices), whether their box lies less than BOXED_TWICE inside the
    box of any other die on their casino, and no such box lies BOXED_TWICE inside theirs."""
    rows = np.arange(len(chosen))
    inside = _inside_shares(det.boxes[chosen], det.boxes)
    holds = _inside_shares(det.boxes, det.boxes[chosen]).T
    inside[rows, chosen] = holds[rows, chosen] = 0.0
    same_casino = det.zone[chosen][:, None] == det.zone[None]
    return ~(((inside >= BOXED_TWICE) | (holds >= BOXED_TWICE)) & same_casino).any(1)


def _white_and_other_areas(
    frame: np.ndarray, det: Detections, chosen: np.ndarray, regular_side: float, cfg: ReaderConfig
) -> tuple[np.ndarray, np.ndarray]:
    """For the dice `chosen` (indices), the area of their box in white and in the row's other die
    colours, in regular dice's areas, its pixels sorted as `vision.colour_left` sorts them into
    the colours read for sure on the row: white where nearer white than any other and within its
    reach, another colour where within that one's reach. Where white or no other colour is read
    for sure on the row, the white is 0 and the other colours infinite: nothing can be told."""
    white = np.zeros(len(chosen), np.float32)
    other = np.full(len(chosen), np.inf, np.float32)
    colours = row_colours(frame, det, cfg.palette.in_play)
    if WHITE not in colours or len(colours) < 2:
        return white, other
    names = list(colours)
    points = np.array([colours[name] for name in names], np.float32)
    own = names.index(WHITE)
    h, w = frame.shape[:2]
    for k, i in enumerate(chosen):
        x0, y0, x1, y1 = det.boxes[i]
        part = frame[max(int(y0), 0) : min(int(y1), h), max(int(x0), 0) : min(int(x1), w)]
        if not part.size:
            continue
        spread = ((weighted_lab(part.reshape(-1, 3))[:, None, :] - points[None]) ** 2).sum(2)
        near = spread <= COLOUR_REACH**2
        white[k] = float(((spread.argmin(1) == own) & near[:, own]).sum()) / regular_side**2
        other[k] = float(np.delete(near, own, axis=1).any(1).sum()) / regular_side**2
    return white, other


def read_casino_row(
    frame: np.ndarray,
    zones: Zones,
    config: ReaderConfig | None = None,
    colour_left_unread: bool = True,
) -> RowReading:
    """Every die lying in a casino's zone, read by the reader, its size judged over the row;
    with `colour_left_unread`, a die not read for sure for each patch of a die colour that no
    die read explains (`vision.colour_left`), but where the patch shows one regular die of its
    colour (`_lone_patches_read`: a die half under a note that the reader missed), read for
    sure as that die; a pale die in doubt with such a patch inside it named in the patch's
    colour (`_paled_dice_coloured`, `_named_dice_read`), and one that no patch named read as
    one white die where its box shows one (`_pale_dice_read`)."""
    cfg = config or ReaderConfig()
    if frame is None or frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError(f"frame must have shape (h, w, 3), got {getattr(frame, 'shape', None)}")
    polygons = casino_zones(zones)
    det = _read_row(frame, zones, polygons, cfg) if polygons else Detections.empty()
    if len(det):
        sides = covered_sides(frame, det.boxes)
        regular = cfg.regular_side_px or row_regular_side(sides, det)
        if regular is not None:
            det, sides = _blank_pieces_dropped(det, sides, regular, cfg)
            det = _shaded_whites(frame, det, regular, cfg)
            det = _faces_read_for_sure(frame, det, sides, regular, cfg)
            det = _paled_whites_in_doubt(frame, det, regular, cfg)
        sizes, judged = _one_biggy_a_colour(det, *judged_sizes(sides, regular))
        if regular is not None:
            sizes, judged = _neutral_dice_regular(frame, det, sizes, judged, regular, cfg)
        det = _second_biggies_in_doubt(_doubted(det, sizes, judged))
        if regular is not None:
            det = _lone_biggies_read(frame, det, sides, regular, cfg)
            det = _white_boxes_one_die(frame, det, sides, regular, cfg)
        det = _boxed_twice_in_doubt(det)
        det = _on_hidden_markers(det, zones, cfg)
        if regular is not None and colour_left_unread:
            patches = _colour_left_unread(frame, zones, polygons, det, regular, cfg)
            pale = det.colour
            det, patches = _paled_dice_coloured(det, patches)
            det = _named_dice_read(frame, zones, det, det.colour != pale, regular, cfg)
            det = _pale_dice_read(frame, zones, det, patches, det.colour == pale, regular, cfg)
            det = _coloured_dice_read(frame, zones, det, patches, regular, cfg)
            det = det.joined(_lone_patches_read(frame, zones, det, patches, regular, cfg))
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


def draw_row(frame: np.ndarray, reading: RowReading) -> np.ndarray:
    """The frame with each die read on a casino boxed and named (unsure ones in orange)."""
    out = frame.copy()
    for die in reading.dice:
        x0, y0, x1, y1 = (int(round(v)) for v in die.box)
        colour = (0, 140, 255) if die.unsure else (40, 220, 40)
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, 2)
        label = f"{die.colour}{' big' if die.big else ''}{' ?' if die.unsure else ''}"
        cv2.putText(out, label, (x0, max(10, y0 - 3)), cv2.FONT_HERSHEY_SIMPLEX, 0.35, colour, 1)
    return out
