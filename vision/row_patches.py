"""Patches of die colour on a casino that no die read explains: a die the reader did not box,
named in the patch's colour, taken as the colour of a pale die it lies in, or read for sure
where it shows one regular die.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision import pips as pips_mod
from vision.colour_left import colour_left, row_colours
from vision.detections import Detections
from vision.reader import ReaderConfig
from vision.row_doubt import (
    PALE_COLOURS,
    REGULAR_SIDES,
    WHITE,
    flagged_unsure,
    inside_shares,
    reader_chances,
)
from vision.row_sure import (
    own_colour_areas,
    read_for_sure,
)
from vision.row_zones import CASINO_NUMBERS, on_hidden_marker
from vision.zones import Zones

PATCH_INSIDE = 0.6
"""A patch of die colour left unexplained with at least this share of its box inside the box of
a die in doubt read white or grey is that die's own colour: a coloured die paled by a note's
paper. On rendered hardest rows of seeds 0-5 (rounds 0-24), 8 patches lay inside such a box and
each was the one coloured die the box held: two dice in doubt where one lay."""


PATCH_AREA = (0.2, 1.0)
"""A patch of die colour left unexplained on a casino (`lone_patches_read`) shows one regular
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


def patches_left_unread(
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


def paled_dice_coloured(det: Detections, patches: Detections) -> tuple[Detections, Detections]:
    """The row's dice and the patches of colour left unexplained, each patch that lies within
    a die in doubt read white or grey (PATCH_INSIDE) taken as that die's colour: a regular die
    is named in the patch's colour (still in doubt), and the patch no longer counts as a die of
    its own. Inside a die read big the patch is dropped and the die keeps its pale colour: it
    may be two dice of any colours. A die named so is in doubt for its colour, not its pips
    alone."""
    if not len(patches):
        return det, patches
    pale = det.unsure & np.isin(det.colour, PALE_COLOURS)
    inside = inside_shares(patches.boxes, det.boxes)
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
    return flagged_unsure(replace(det, colour=colour), named), patches.select(kept)


def lone_patches_read(
    frame: np.ndarray,
    zones: Zones,
    det: Detections,
    patches: Detections,
    regular_side: float,
    cfg: ReaderConfig,
) -> Detections:
    """The patches of colour left unexplained (`patches_left_unread`, dice not read for sure),
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
    in_box = inside_shares(boxes, det.boxes).max(1) if len(det) else np.zeros(len(patches))
    biggy_read = (det.size == "big") & ~det.unsure
    no_biggy_left = {WHITE, *(str(c) for c in det.colour[biggy_read])}
    one_die = once & (longest <= REGULAR_SIDES[1]) & (in_box < PATCH_IN_BOX)
    one_die &= ~on_hidden_marker(zones, boxes)
    chosen = np.flatnonzero(one_die & np.isin(patches.colour, list(no_biggy_left)))
    if len(chosen):
        # The row's colours are measured on its dice read for sure; the patches are in doubt.
        areas = own_colour_areas(frame, det.joined(patches), len(det) + chosen, regular_side, cfg)
        chosen = chosen[(areas >= PATCH_AREA[0]) & (areas <= PATCH_AREA[1])]
    if not len(chosen):
        return patches
    middles = (boxes[chosen, :2] + boxes[chosen, 2:]) / 2
    half = PATCH_CROP * regular_side / 2
    squares = boxes.copy()
    squares[chosen] = np.concatenate([middles - half, middles + half], 1)
    # On casinos 1-6 pips do not count, but a face read blank is no die of the game's there.
    faces = reader_chances(frame, squares[chosen], cfg)[0][:, : pips_mod.CLASS_UNSURE]
    pips = patches.pips.copy()
    pips[chosen] = faces.argmax(1)
    read = read_for_sure(frame, replace(patches, boxes=squares, pips=pips), chosen, cfg)
    # A patch not seen as a die stays as it was found.
    unseen = read.unsure & (read.likely_pips == 0)
    read = replace(
        read,
        boxes=np.where(unseen[:, None], boxes, read.boxes),
        pips=np.where(unseen, patches.pips, read.pips),
    )
    # A white patch within a die so read is its pips, as any die's box explains white.
    same_casino = read.zone[:, None] == read.zone[None]
    within = (inside_shares(boxes, read.boxes) >= PATCH_INSIDE) & same_casino & ~unseen[None]
    pips_of_die = unseen & (read.colour == WHITE) & within.any(1)
    return read.select(~pips_of_die)
