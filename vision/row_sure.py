"""Dice in doubt on the casino row read for sure where the picture shows one die: its pips
alone in doubt, a lone Biggy, a white box showing one white die, a pale die named by a patch
of colour or showing one white die; on the slot machine, where pips count, their pips sure
or in doubt among the numbers likely for them.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision import pips as pips_mod
from vision.colour_left import COLOUR_REACH, row_colours
from vision.detections import Detections
from vision.onnx_models import PIPS_FILES
from vision.reader import ReaderConfig
from vision.row_doubt import (
    BOXED_TWICE,
    FACE_SURE,
    NEUTRAL_SIDES,
    PALE_COLOURS,
    REGULAR_SIDES,
    WHITE,
    box_spread,
    inside_shares,
    reader_chances,
    white_not_paled,
)
from vision.row_sizes import covered_sides
from vision.row_zones import on_hidden_marker
from vision.zones import Zones

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
terms of `white_boxes_one_die`, its box shows between these many regular dice's areas in white
(as `vision.colour_left` sorts pixels): at least a good part of one white die, and less than
two would show. On rendered hardest rows of seeds 100-111 (rounds 0-24, the tables as the game
holds them), the 23 boxes read white and big, their colour not in doubt, that held one white
die and a neighbour's corner or a note's edge showed 0.41-0.92 in white and 0-0.44 in the other
colours (18 under PALED_SHARE, each read so); those on coloured dice read white 0.04-0.09 in
white and 0.67-0.99 in the others; the one on a white die and half a red one 0.66 and 0.28."""


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
(`coloured_dice_read`) is read as one regular die where it covers between these shares of a
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


def own_colour_areas(
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
    for k, i in enumerate(chosen):
        colour = str(det.colour[i])
        spread = box_spread(frame, det.boxes[i], points) if colour in colours else points[:0]
        if not len(spread):
            continue
        own = names.index(colour)
        mine = (spread.argmin(1) == own) & (spread[:, own] <= COLOUR_REACH**2)
        out[k] = float(mine.sum()) / regular_side**2
    return out


def lone_biggies_read(
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
        chosen = chosen[own_colour_areas(frame, det, chosen, regular_side, cfg) >= LONE_BIGGY_AREA]
    # A Biggy left in doubt for its pips gets no likely numbers: those are told of regular dice.
    return read_for_sure(frame, det, chosen, cfg, likely=False) if len(chosen) else det


def white_boxes_one_die(
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
        white = own_colour_areas(frame, det, chosen, regular_side, cfg)
        chosen = chosen[(white >= ONE_WHITE_AREA[0]) & (white <= ONE_WHITE_AREA[1])]
    if len(chosen):
        chosen = chosen[white_not_paled(frame, det, chosen, regular_side, cfg)]
    if not len(chosen):
        return det
    slot = det.zone[chosen] == "slot"
    every = reader_chances(frame, det.boxes[chosen], cfg, len(PIPS_FILES) if slot.any() else 1)
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
    likely[chosen] = np.where(slot & ~pips_sure, likely_numbers(together), 0)
    return replace(det, size=size, unsure=unsure, pips=pips, likely_pips=likely)


def faces_read_for_sure(
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
    candidates[white] = white_not_paled(frame, det, white, regular_side, cfg)
    chosen = np.flatnonzero(candidates)
    return read_for_sure(frame, det, chosen, cfg) if len(chosen) else det


def read_for_sure(
    frame: np.ndarray, det: Detections, chosen: np.ndarray, cfg: ReaderConfig, likely: bool = True
) -> Detections:
    """The dice `chosen` (indices into `det`) read for sure where the first pip reader sees a
    die in each (DIE_SURE); on the slot machine only where the readers are sure of its pips too
    (SLOT_PIPS_SURE), which then give its number. A slot machine die seen as a die whose pips
    are not sure stays in doubt, with its likely numbers (`likely_numbers`) where `likely`."""
    slot = det.zone[chosen] == "slot"
    every = reader_chances(frame, det.boxes[chosen], cfg, len(PIPS_FILES) if slot.any() else 1)
    probs = every[0]
    sure = 1.0 - probs[:, pips_mod.CLASS_NOT_A_DIE] >= DIE_SURE
    together = np.mean(every, 0)[:, : pips_mod.CLASS_UNSURE]
    value = together.argmax(1)
    pips_sure = (together.max(1) >= SLOT_PIPS_SURE) & (value != pips_mod.CLASS_BLANK)
    unsure, pips, likely_pips = det.unsure.copy(), det.pips.copy(), det.likely_pips.copy()
    if likely:
        in_doubt = sure & slot & ~pips_sure
        likely_pips[chosen[in_doubt]] = likely_numbers(together[in_doubt])
    sure &= ~slot | pips_sure
    unsure[chosen[sure]] = False
    pips[chosen[sure & slot]] = value[sure & slot]
    return replace(det, unsure=unsure, pips=pips, likely_pips=likely_pips)


def likely_numbers(together: np.ndarray) -> np.ndarray:
    """For each die (the pip readers' mean chances, (n, classes from blank)), the numbers of
    pips given SLOT_PIPS_LIKELY or more of the six faces' share, and those whose face holds
    the likeliest number's pips (PIPS_WITHIN), as bits (bit k: k pips)."""
    faces = together[:, 1 : pips_mod.CLASS_UNSURE]
    shares = faces / np.maximum(faces.sum(1, keepdims=True), 1e-9)
    bits = (1 << np.arange(1, pips_mod.CLASS_UNSURE)).astype(np.uint8)
    likely = np.where(shares >= SLOT_PIPS_LIKELY, bits, 0).sum(1).astype(np.uint8)
    within = np.array([sum(1 << k for k in PIPS_WITHIN.get(v, ())) for v in range(1, 7)], np.uint8)
    return likely | within[shares.argmax(1)]


def named_dice_read(
    frame: np.ndarray,
    zones: Zones,
    det: Detections,
    named: np.ndarray,
    regular_side: float,
    cfg: ReaderConfig,
) -> Detections:
    """The row's dice with each die that a patch of colour named (`named`: a pale die in doubt
    with a patch of a die colour inside its box, `paled_dice_coloured`) read for sure as one
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
    regular &= ~on_hidden_marker(zones, det.boxes[chosen]) & shares_no_box(det, chosen)
    chosen = chosen[regular]
    return read_for_sure(frame, det, chosen, cfg) if len(chosen) else det


def pale_dice_read(
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
    keep &= ~on_hidden_marker(zones, det.boxes[chosen])
    keep &= shares_no_box(det.joined(patches), chosen)
    chosen, sides = chosen[keep], sides[keep]
    white, other = white_and_other_areas(frame, det, chosen, regular_side, cfg)
    keep = (white >= PALE_WHITE_AREA[0]) & (white <= PALE_WHITE_AREA[1]) & (other < PALE_OTHER_MOST)
    chosen, sides = chosen[keep], sides[keep]
    larger = sides > NEUTRAL_SIDES[1]
    if larger.any():
        chances = reader_chances(frame, det.boxes[chosen[larger]], cfg)[0]
        keep = np.ones(len(chosen), bool)
        keep[larger] = chances[:, : pips_mod.CLASS_UNSURE].sum(1) >= FACE_SURE
        chosen = chosen[keep]
    if not len(chosen):
        return det
    read = read_for_sure(frame, det, chosen, cfg)
    white_die = chosen[~read.unsure[chosen] | (read.likely_pips[chosen] != 0)]
    colour, size, doubt = det.colour.copy(), det.size.copy(), det.colour_doubt.copy()
    colour[white_die], size[white_die], doubt[white_die] = WHITE, "regular", False
    return replace(read, colour=colour, size=size, colour_doubt=doubt)


def coloured_dice_read(
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
    keep &= ~on_hidden_marker(zones, det.boxes[chosen])
    keep &= shares_no_box(det.joined(patches), chosen)
    chosen = chosen[keep]
    own, other = own_and_other_areas(frame, det, chosen, regular_side, cfg)
    keep = (own >= COLOURED_AREA[0]) & (own <= COLOURED_AREA[1]) & (other < COLOURED_OTHER_MOST)
    chosen = chosen[keep]
    if not len(chosen):
        return det
    read = read_for_sure(frame, det, chosen, cfg)
    one_die = chosen[~read.unsure[chosen] | (read.likely_pips[chosen] != 0)]
    size = read.size.copy()
    size[one_die] = "regular"
    return replace(read, size=size)


def own_and_other_areas(
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
    for k, i in enumerate(chosen):
        in_play = str(det.colour[i]) in colours
        spread = box_spread(frame, det.boxes[i], points) if in_play else points[:0]
        if not len(spread):
            continue
        nearest = spread.argmin(1)
        near = spread[np.arange(len(spread)), nearest] <= COLOUR_REACH**2
        mine = names.index(str(det.colour[i]))
        others = ~np.isin(nearest, [mine] + ([names.index(WHITE)] if WHITE in names else []))
        own[k] = float((near & (nearest == mine)).sum()) / regular_side**2
        other[k] = float((near & others).sum()) / regular_side**2
    return own, other


def shares_no_box(det: Detections, chosen: np.ndarray) -> np.ndarray:
    """For the dice `chosen` (indices), whether their box lies less than BOXED_TWICE inside the
    box of any other die on their casino, and no such box lies BOXED_TWICE inside theirs."""
    rows = np.arange(len(chosen))
    inside = inside_shares(det.boxes[chosen], det.boxes)
    holds = inside_shares(det.boxes, det.boxes[chosen]).T
    inside[rows, chosen] = holds[rows, chosen] = 0.0
    same_casino = det.zone[chosen][:, None] == det.zone[None]
    return ~(((inside >= BOXED_TWICE) | (holds >= BOXED_TWICE)) & same_casino).any(1)


def white_and_other_areas(
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
    for k, i in enumerate(chosen):
        spread = box_spread(frame, det.boxes[i], points)
        if not len(spread):
            continue
        near = spread <= COLOUR_REACH**2
        white[k] = float(((spread.argmin(1) == own) & near[:, own]).sum()) / regular_side**2
        other[k] = float(np.delete(near, own, axis=1).any(1).sum()) / regular_side**2
    return white, other
