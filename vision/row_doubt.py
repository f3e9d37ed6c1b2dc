"""Which dice of the casino row are not read for sure: sizes between a regular die and a Biggy,
colours that a note's paper or a shadow may have paled, dice boxed twice, dice on a hidden
marker; each rule measured on rendered rows, its figures beside its constant.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision import locate, viewpoint
from vision import pips as pips_mod
from vision import size as size_mod
from vision.colour_left import COLOUR_REACH, row_colours, weighted_lab
from vision.crops import crop_dice
from vision.detections import Detections
from vision.pips import CLASS_BLANK
from vision.reader import BLANK_DICE_COLOUR, SURE_READING, ReaderConfig, pip_readers
from vision.row_zones import hidden_markers
from vision.zones import Zones

PALE_COLOURS = ("white", "grey")
"""Colours a die of any colour may be read as when it is not read for sure: a note's paper over
it or a shadow pales it. On rendered hardest rows (seeds 0 and 1, 95 dice not read for sure on
casinos 1-6) every one of the 20 read in the wrong colour was read white or grey; none of the
52 read in another colour was wrong."""


FACE_SURE = 0.8
"""The first pip reader gives at least this much to a box showing one face (any number of pips,
not cocked, not cut off, not no die) where a white die's count hangs on it: a white die between
a regular die's size and a Biggy's is one white die (`neutral_dice_regular`), and a die read
grey with pips is a white die in a shadow (`shaded_whites`). On rendered hardest rows of seeds
0-5 (rounds 0-24, both tables of each round), of 21 white dice read for sure in between, 13
passed: 11 were one white die, 2 a white die and a die of another colour in one box (the white
count right); the one box on two white dice, kept in doubt, got 0.26. Of 45 dice read grey with
pips, the 10 named white were each a white die; the 35 kept grey lay on 24 coloured dice, 10
white dice and once on no die."""


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


BOXED_TWICE = 0.5
"""A die with at least this share of its box inside the box of another die of its colour on the
same casino is one die boxed twice, not read for sure. On rendered hardest rows of seeds 0-5
and 12-17 (rounds 0-24, 3,990 casinos seen), dice of one colour touching each other shared at
most 0.39 of a box; two boxes on one die shared 0.62 and 0.76, each counting a die too many."""


def one_biggy_a_colour(
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


def reader_chances(
    frame: np.ndarray, boxes: np.ndarray, cfg: ReaderConfig, readers: int = 1
) -> list[np.ndarray]:
    """What each of the first `readers` pip readers gives to each class for each box (boxes
    (n, 4)), crops cut turned from the camera's place: a list of (n, classes) arrays."""
    place = cfg.camera_place or cfg.likely_place or viewpoint.CAMERA_PLACES[0]
    crops = crop_dice(frame, boxes, down=viewpoint.downs(place, frame.shape, boxes))
    return [
        pips_mod.infer(session, crops).reshape(len(boxes), -1)
        for session in pip_readers(cfg)[:readers]
    ]


def one_white_face(
    frame: np.ndarray, det: Detections, chosen: np.ndarray, regular_side: float, cfg: ReaderConfig
) -> np.ndarray:
    """Those of the `chosen` dice (indices) whose box shows no other die colours (PALED_SHARE)
    and to which the first pip reader gives at least FACE_SURE of showing one face (any number
    of pips, blank included; not cocked, not cut off, and a die): one white die, seen plainly."""
    if len(chosen):
        chosen = chosen[white_not_paled(frame, det, chosen, regular_side, cfg)]
    if not len(chosen):
        return chosen
    faces = reader_chances(frame, det.boxes[chosen], cfg)[0][:, : pips_mod.CLASS_UNSURE].sum(1)
    return chosen[faces >= FACE_SURE]


def neutral_dice_regular(
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
    one_face = one_white_face(frame, det, band, regular_side, cfg)
    if not len(one_face):
        return sizes, judged
    sizes, judged = sizes.copy(), judged.copy()
    sizes[one_face], judged[one_face] = "regular", True
    return sizes, judged


def sizes_doubted(det: Detections, sizes: np.ndarray, judged: np.ndarray) -> Detections:
    """The row's dice with their sizes judged over the row, flagged unsure where they are not
    read for sure: a die whose size cannot be judged (a Biggy counts two), one whose colour is
    a guess (it lies between two colours), a grey die showing pips (grey dice are blank:
    it is a white die in a shadow, or under a note's tint), and a Biggy read weakly
    (WEAK_BIGGY)."""
    grey_with_pips = (det.colour == BLANK_DICE_COLOUR) & (det.pips != CLASS_BLANK)
    weak_biggy = (sizes == "big") & (det.confidence < WEAK_BIGGY)
    flag = ~judged | det.colour_doubt | grey_with_pips | weak_biggy
    return flagged_unsure(replace(det, size=sizes), flag)


def second_biggies_in_doubt(det: Detections) -> Detections:
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
    return flagged_unsure(det, flag)


def flagged_unsure(det: Detections, flag: np.ndarray) -> Detections:
    """The row's dice with those where `flag` is set not read for sure: in doubt for more than
    their pips, so they keep no likely numbers of pips."""
    likely = np.where(flag, 0, det.likely_pips).astype(np.uint8)
    return replace(det, unsure=det.unsure | flag, likely_pips=likely)


def shaded_whites(
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
    shaded = one_white_face(frame, det, grey, regular_side, cfg)
    if not len(shaded):
        return det
    colour = det.colour.copy()
    colour[shaded] = WHITE
    return replace(det, colour=colour)


def blank_pieces_dropped(
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


def paled_whites_in_doubt(
    frame: np.ndarray, det: Detections, regular_side: float, cfg: ReaderConfig
) -> Detections:
    """The row's dice with those read white for sure but showing PALED_SHARE or more of the
    row's other die colours in their box flagged unsure: a coloured die under a note's paper,
    read white (on rendered hardest rows each such die left a patch of its colour inside the
    white box: a die of that colour not read for sure beside a white die too many, a false
    alarm)."""
    white = np.flatnonzero(~det.unsure & (det.colour == WHITE))
    paled = ~white_not_paled(frame, det, white, regular_side, cfg, unknown=True)
    if not paled.any():
        return det
    flag = np.zeros(len(det), bool)
    flag[white[paled]] = True
    return flagged_unsure(det, flag)


def white_not_paled(
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
    for k, i in enumerate(chosen):
        spread = box_spread(frame, det.boxes[i], points)
        if not len(spread):
            continue
        near = spread.min(1) <= COLOUR_REACH**2
        out[k] = float(near.sum()) < PALED_SHARE * regular_side**2
    return out


def box_spread(frame: np.ndarray, box: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The squared Lab distance (n, k) from each pixel of `box` within the frame, weighted as
    `vision.colour_left` weighs them, to each of the colours `points` (k, 3); no rows where the
    box lies outside the frame."""
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = box
    part = frame[max(int(y0), 0) : min(int(y1), h), max(int(x0), 0) : min(int(x1), w)]
    if not part.size:
        return np.zeros((0, len(points)), np.float32)
    return ((weighted_lab(part.reshape(-1, 3))[:, None, :] - points[None]) ** 2).sum(2)


def on_hidden_markers(det: Detections, zones: Zones, cfg: ReaderConfig) -> Detections:
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
    return flagged_unsure(det, on_marker).select(~stranger)


def inside_shares(boxes: np.ndarray, others: np.ndarray) -> np.ndarray:
    """The share of each box's area (boxes (n, 4)) that lies inside each of `others` (m, 4):
    an array (n, m); 0 for a box with no area."""
    areas = np.prod(boxes[:, 2:] - boxes[:, :2], 1)
    return locate.shared_areas(boxes, others) / np.maximum(areas, 1e-9)[:, None]


def boxed_twice_in_doubt(det: Detections) -> Detections:
    """The row's dice with each die whose box lies for BOXED_TWICE or more inside the box of
    another die of its colour on its casino flagged unsure: one die boxed twice."""
    alike = (det.zone[:, None] == det.zone[None]) & (det.colour[:, None] == det.colour[None])
    np.fill_diagonal(alike, False)
    twice = ((inside_shares(det.boxes, det.boxes) >= BOXED_TWICE) & alike).any(1)
    return flagged_unsure(det, twice)
