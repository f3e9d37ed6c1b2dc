"""The dice reader: one BGR frame in, one Detections container out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np
import onnxruntime as ort

from vision import (
    blank,
    closer,
    die_check,
    int8_check,
    locate,
    look_again,
    pips,
    round_body,
    sure,
    viewpoint,
)
from vision import colour as colour_mod
from vision import size as size_mod
from vision.detections import Detections
from vision.images import as_bgr_frame
from vision.light import judged_light, named_by_one_frame, named_by_the_light
from vision.onnx_models import (
    LOCATOR_FILE,
    SPECKLED_LOCATOR_FILE,
    model_path,
    open_session,
)
from vision.side_faces import side_faces
from vision.stand_out import LIKE_TABLE, contrast_with_table
from vision.zones import Zones

# Why each value is what it is, with the measurements behind it: models/MODEL_CARD.md, "The
# reader's settings and the measurements behind them".
BLANK_DICE_COLOUR = "grey"  # the game's dice without pips (Royale) are grey
SHADED_BLANK = 0.3  # a blank face this sure on a body named black, light enough: a shaded grey
SURE_BLANK = 0.4  # a blank face this sure on a die named white or tinted near grey: grey, in doubt
DARK_GREY = 0.25  # share of the way from black to grey in lightness that a shaded grey die reaches
TINTED_GREY = 6.5  # squared palette distance from grey within which a tinted die may be grey
# A die read with less confidence (the locator's score times the pips' probability) is flagged
# unsure: on the real sets' training parts most dice read for sure but wrong lay below this.
SURE_READING = 0.5
# A die read with less confidence than this (but at least SURE_READING) is read for sure only
# where the three pip readers, plain and mirrored, give its pips a median probability of at
# least SURE_VOTE (vision/sure.py). With the pip readers that learnt the real sets' fit parts,
# the coloured set's tuning part read 2 dice sure but wrong at 0.64-0.66 (0.7 leaves 1 of 150);
# 0.8 against 0.7: rendered dice sure but wrong 16 to 6 of 5,856, 3.5 points more unsure.
SURE_ALONE = 0.8
SURE_VOTE = 0.9
COLOUR_SURE = 0.8  # before calibration a colour this sure or less is named in doubt, not guessed
# Touching dice of one colour can merge into one box: looks enlarged this much find them apart.
LARGER_LOOKS = (4 / 3, 5 / 3)
CROWDED = 20  # more dice than a game's roll (at most a dozen): a tray of dice
CUT_DIE_SCORE = 0.5  # a box this sure at the frame's edge, its face unreadable: a die cut off
UNREAD_DIE_SCORE = 0.7  # inside the frame nothing cuts a die: an unread one needs a surer box
SAME_DIE_CORE = 2 / 3  # a box reading alike centred in this middle share of another: one die twice
SURE_LARGE_DIE = 0.5  # a large die is kept read this surely (a shadow reads blank or weakly)
PLAIN_FACE = 0.75  # a face this sure is no large die's pip: a large box around it is no die
PIP_SHARE_MOST = 0.25  # a die of 2-6 pips this share of a large box's side is no pip of it
# A look reads at most this many boxes, the locator's surest first: a tray of dice holds fewer,
# and a speckled or printed surface boxed all over must not make one frame take seconds.
MOST_BOXES_A_LOOK = 160
# The look at a speckled frame smoothed reads at most this many of its new boxes, its surest.
MOST_SMOOTHED_BOXES = 40
LARGEST_DIE = locate.ONE_LOOK_SIDE[1]  # px at the look: larger, and pips and keys look like dice
# A frame shrunk for its large dice is looked at again FINER_LOOK times as large, at most at
# LOCATOR_LONG_SIDE, where that is at least FINER_LEAST times the first look; the dice it reads
# for sure join where their side lies within FINER_SIZES of the frame's sure dice (see
# `_with_finer_look`).
FINER_LOOK = 2.0
FINER_LEAST = 1.5
FINER_SIZES = (0.6, 1.7)
# A frame the first look enlarged past its own size is looked at once more at SHARP_LOOK of its
# own size, sharper; the new dice it finds join where the die checker backs them (see
# `_with_sharp_look`).
SHARP_LOOK = 0.8
# A weak box holding the centres of at least AROUND_DICE dice of 2-6 pips, its side at least
# AROUND_SIDES times theirs (median), is a region around dice (a tray's round opening), no die
# (see `_around_dice`).
AROUND_DICE = 2
AROUND_SIDES = 2.0
# A box too faint for a closer look (under closer.MIN_LOCATOR_SCORE) is read only where its
# middle stands out from the table around it by more than stand_out.LIKE_TABLE, and a box
# under locate.SURE_BOX only where it is no strip longer than LONG_BOX times its width (a die
# seen whole is not; of a die cut off by the frame's edge so thin a strip, too
# little shows to read). The pip readers cost about 1 ms a box, the closer look more.
LONG_BOX = 2.5
# A box longer than this many times its width shows a sliver of a die at most (one cut by the
# frame's edge), too little to tell from a table's rim: it is no die seen but not read.
SLIVER = 4.0
# A die read weakly (flagged unsure, or under the sure reading) whose middle stands out from the
# table around it by this much or less is the table's own pattern (stand_out units).
TABLE_PATTERN = LIKE_TABLE


@dataclass(frozen=True)
class ReaderConfig:
    """Settings of the reader: models, threads, thresholds, palette, regular die size, zones,
    and which frames are looked at more than once."""

    threads: int = 1
    locator_threshold: float = 0.2
    min_pip_prob: float = 0.6
    mirror_pips: bool = True
    look_closer: bool = True  # locate again around boxes the pip readers doubt
    # Where the camera stands (viewpoint.CAMERA_PLACES); None: wherever the dice read surest.
    camera_place: str | None = None
    # Where `camera_place` is None: the place the dice are read from first, in place of the
    # usual webcam's (the place an earlier frame of the same camera was read from); where they
    # read doubtfully from there, the place is searched for as usual.
    likely_place: str | None = None
    # Where `camera_place` is None and pips are needed: told the place each look read its dice
    # from (vision/live_place.py remembers it for the camera's next frame).
    place_heard: Callable[[str], None] | None = None
    min_confidence: float = 0.08  # below this a box is more likely a plug or a shadow than a die
    palette: colour_mod.Palette = field(default_factory=colour_mod.default_palette)
    # Until calibration, where some of the game's colours were learnt from the table's own dice
    # (`vision.calibrate.partly_learnt`): a second opinion on the names `palette` gives
    # (`colour.checked_by_learnt_colours`).
    learnt_colours: colour_mod.Palette | None = None
    regular_side_px: float | None = None
    zones: Zones | None = None
    locator_model: str | None = None
    # A speckled frame (`locate.flecks` at the usual look's size at `speckled_locator_from` or
    # over: a granite top, felt trays on one, a noisy phone photo) is looked at with the
    # locator that learnt speckled tables (`speckled_locator_model`, None: the shipped one)
    # where this is True; every other frame with `locator_model`.
    speckled_locator: bool = True
    speckled_locator_model: str | None = None
    speckled_locator_from: float = locate.FLECKS
    pips_models: tuple[str, ...] | None = None
    # Frames with at least this many dice read for sure at the first look are looked at again,
    # enlarged, where the first look doubts (see `_looked_again`).
    # At 0 (every frame) photos of a few dice gain little and get more boxes on no die.
    look_again_from: int = CROWDED
    # Frames with fewer dice are looked at once more, shrunk, where a quick look finds dice too
    # large for the usual look (a close-up); never with zones set (a camera over the arena).
    look_for_large_dice: bool = True
    # False where only whether a box is a die, read for sure or not, matters, not its pips (the
    # casinos 1-6 at the table check): the first pip reader alone reads each box, once, with no
    # vote of the others, no mirrored reading and no search for the camera's place.
    pips_needed: bool = True
    # False where the caller judges the dice's sizes itself (over a whole casino row): every
    # die is then named "regular" here.
    judge_sizes: bool = True
    # Where pips are needed, a die read with less confidence than this is flagged unsure.
    sure_reading: float = SURE_READING
    # Where pips are needed, a die read with less confidence than this is sure only by the
    # readers' vote (`SURE_VOTE`); at `sure_reading` or below, no vote is asked.
    sure_alone: float = SURE_ALONE
    sure_vote: float = SURE_VOTE
    # Where pips are needed, an unsure box read weakly (`die_check.weak_unsure`) that the die
    # checker gives less than this probability of a die is dropped (0: the checker is not asked).
    no_die_below: float = die_check.NO_DIE_BELOW
    # An unsure box read at `die_check.WEAK_READING` or more, showing pips, is dropped under
    # this, and a die read for sure under `doubt_sure_below` is flagged unsure (0: not asked;
    # the default, see `die_check.DOUBT_SURE_BELOW`).
    read_no_die_below: float = die_check.READ_NO_DIE_BELOW
    doubt_sure_below: float = die_check.DOUBT_SURE_BELOW
    # An unsure box read blank at `die_check.WEAK_READING` or more is dropped under this (0: not
    # asked; see `die_check.BLANK_NO_DIE_BELOW`).
    blank_no_die_below: float = die_check.BLANK_NO_DIE_BELOW
    # A die read for sure as a 1 whose outline is round (vision/round_body.py: a coin, a cap,
    # a lens) is flagged unsure where the die checker gives it less than this, and one read
    # blank whatever the checker says (0: neither; see `die_check.ROUND_DOUBT_BELOW`).
    round_doubt_below: float = die_check.ROUND_DOUBT_BELOW
    # An unsure box whose outline is round is dropped where the die checker gives it less
    # than this (0: not asked; see `die_check.ROUND_NO_DIE_BELOW`).
    round_no_die_below: float = die_check.ROUND_NO_DIE_BELOW
    die_check_model: str | None = None
    # A die found only by the sharper look at an enlarged frame (`_with_sharp_look`) joins where
    # the die checker gives it at least this probability (0: no sharper look).
    sharp_die_from: float = die_check.SHARP_DIE_FROM
    # A die that the finer look at a frame shrunk for its large dice reads for sure, of
    # another size than the frame's sure dice or on a weak box of its first look, joins where
    # the die checker gives it at least this probability (0: only dice of that size, on no
    # box, join; see `_with_finer_look`).
    finer_die_from: float = die_check.FINER_DIE_FROM
    # A die that the finer look sees but reads weakly, of the frame's dice size and on no die of
    # the first look, joins flagged unsure where the die checker gives it at least this (0: it
    # does not join; nor with finer_die_from 0).
    finer_seen_from: float = die_check.FINER_SEEN_FROM
    # A die that only a look at the frame with its flecks smoothed out finds
    # (`_with_smooth_look`) joins where the die checker gives it at least this (0: no such look).
    smooth_die_from: float = die_check.SMOOTH_DIE_FROM


def read_dice(frame_bgr: np.ndarray, config: ReaderConfig | None = None) -> Detections:
    """Find every die in a BGR frame and read its pips, colour, size and zone (a speckled frame
    located by the locator that learnt speckled tables, `locator_for`); where pips are
    needed, a die read with less confidence than `cfg.sure_reading` is flagged unsure, and so is
    one under `cfg.sure_alone` that the pip readers' vote gives less than `cfg.sure_vote`, and
    one read blank whose box shows a pip (vision/blank.py) or whose outline is round
    (vision/round_body.py). A weak box around several dice (a tray's opening boxed whole) is no
    die (`_around_dice`), and so is an unsure box that the die checker, looking at it with the
    table around it, calls no die: one read weakly, one read better that shows pips, or one
    whose outline is round, each under its own bar (`_checked`, vision/die_check.py). A frame
    enlarged past its own size for its small dice is also looked at sharper, and a speckled
    frame with its flecks smoothed out; the dice only such a look finds join where the checker
    backs them (`_with_sharp_look`, `_with_smooth_look`)."""
    cfg = config or ReaderConfig()
    frame_bgr = as_bgr_frame(frame_bgr)
    found = _read_frame(frame_bgr, cfg)
    weak = found.unsure | (found.confidence < cfg.sure_reading)
    dice = ~_around_dice(found, weak)
    found, unsure = found.select(dice), weak[dice]
    if not cfg.pips_needed:
        return found
    readers = pip_readers(cfg)
    unsure |= sure.doubted_by_vote(
        readers,
        frame_bgr,
        found.boxes,
        found.pips,
        found.confidence,
        unsure,
        cfg.sure_alone,
        cfg.sure_vote,
        cfg.camera_place,
    )
    unsure |= blank.pips_on_blank(frame_bgr, found.boxes, found.pips, unsure)
    if cfg.round_doubt_below > 0:
        unsure |= round_body.round_blanks(frame_bgr, found.boxes, found.pips, unsure)
    return _checked(frame_bgr, replace(found, unsure=unsure), cfg)


def _checked(frame_bgr: np.ndarray, found: Detections, cfg: ReaderConfig) -> Detections:
    """The dice as the die checker judges them, each box looked at with the table around it:
    an unsure box read weakly (`die_check.weak_unsure`) under `cfg.no_die_below`, one read
    better, showing pips, under `cfg.read_no_die_below`, one read better as a blank under
    `cfg.blank_no_die_below`, and an unsure box whose outline is round under
    `cfg.round_no_die_below`, are no die, dropped; a die read for sure as a 1 whose outline is
    round, under `cfg.round_doubt_below`, and any die read for sure under
    `cfg.doubt_sure_below` (0 by default), are flagged unsure.

    A blank read fairly well is dropped by the checker alone only under a low bar: the checker,
    which learnt coins and caps as no die, still doubts flat grey faces more than others (the
    grey dice of Royale in a shadow are read so). That is why a sure 1 is asked only where its
    outline is round, as a die's never is."""
    weak = die_check.weak_unsure(found.unsure, found.confidence)
    read_better = np.where(found.pips > 0, cfg.read_no_die_below, cfg.blank_no_die_below)
    bars = np.maximum(
        np.where(found.unsure, np.where(weak, cfg.no_die_below, read_better), cfg.doubt_sure_below),
        _round_bars(frame_bgr, found, cfg),
    )
    if not (bars > 0).any():
        return found
    under = die_check.no_die(_die_checker(cfg), frame_bgr, found.boxes, bars > 0, bars)
    return replace(found, unsure=found.unsure | under).select(~(under & found.unsure))


def _round_bars(frame_bgr: np.ndarray, found: Detections, cfg: ReaderConfig) -> np.ndarray:
    """The checker's bar (n,) for each box whose outline is round (`round_body.round_bodies`):
    `cfg.round_doubt_below` for a die read for sure as a 1, `cfg.round_no_die_below` for an
    unsure box; 0 for every other box. (A round blank read for sure is flagged unsure before:
    `round_body.round_blanks`.)"""
    bars = np.zeros(len(found), np.float32)
    wanted = np.where(found.unsure, cfg.round_no_die_below, 0.0)
    wanted[~found.unsure & (found.pips == 1)] = cfg.round_doubt_below
    asked = np.flatnonzero(wanted > 0)
    if len(asked):
        read_blank = found.pips[asked] == pips.CLASS_BLANK
        round_ = round_body.round_bodies(frame_bgr, found.boxes[asked], read_blank)
        bars[asked] = np.where(round_, wanted[asked], 0.0)
    return bars


def _around_dice(found: Detections, weak: np.ndarray) -> np.ndarray:
    """Which of the dice, among the `weak` ones (n,), are boxes around other dice: holding the
    centres of AROUND_DICE dice or more that show 2-6 pips and are at least PIP_SHARE_MOST of
    its side (no pip of a large die, which reads as 1 or blank, or as a small face), its side
    AROUND_SIDES times the median of theirs or more. A die's box holds no other die's centre,
    let alone several smaller ones."""
    sides = locate.box_sides(found.boxes)
    holds = locate.centred_in(found.boxes, found.centres) & (found.pips > 1)[None]
    holds &= sides[None] >= PIP_SHARE_MOST * sides[:, None]
    np.fill_diagonal(holds, False)
    around = np.zeros(len(found), bool)
    for i in np.flatnonzero(weak & (holds.sum(1) >= AROUND_DICE)):
        around[i] = sides[i] >= AROUND_SIDES * float(np.median(sides[holds[i]]))
    return around


def _die_checker(cfg: ReaderConfig) -> ort.InferenceSession:
    """The die checker the config names (the shipped one by default)."""
    return open_session(cfg.die_check_model or str(model_path(die_check.CHECK_FILE)), cfg.threads)


def _likely_dice(frame_bgr: np.ndarray, boxes: np.ndarray, cfg: ReaderConfig) -> np.ndarray:
    """The die checker's probability (n,) that each box (n, 4) holds a die, each looked at with
    the table around it."""
    return die_check.die_probability(_die_checker(cfg), die_check.context_crops(frame_bgr, boxes))


def pip_readers(cfg: ReaderConfig) -> list[ort.InferenceSession]:
    """The three pip readers the config names (the shipped ones by default), opened once."""
    return [open_session(p, cfg.threads) for p in cfg.pips_models or int8_check.pip_reader_files()]


def _read_frame(frame_bgr: np.ndarray, cfg: ReaderConfig) -> Detections:
    """Every die of a checked frame, by one look or several (see `read_dice`)."""
    loc = open_session(locator_for(frame_bgr, cfg), cfg.threads)
    readers = pip_readers(cfg)
    if not cfg.pips_needed:
        # The first reader alone, read once: is it a die, read for sure or not.
        readers = readers[:1]
        cfg = replace(cfg, mirror_pips=False)
    first = _read_look(loc, readers, frame_bgr, cfg)
    if cfg.pips_needed and cfg.sharp_die_from > 0:
        first = _with_sharp_look(loc, readers, frame_bgr, cfg, first)
    if cfg.pips_needed and cfg.smooth_die_from > 0:
        first = _with_smooth_look(loc, readers, frame_bgr, cfg, first)
    found, long_side = first.found, first.long_side
    # Only dice read for sure count: a speckled table's flecks, boxed and read unsure, are no
    # tray of dice.
    if int((~found.unsure).sum()) < cfg.look_again_from:
        found = _with_finer_look(loc, readers, frame_bgr, cfg, first)
        # Zones mean a camera fixed over the arena, which takes no close-ups; the printed
        # fields of a marker sheet would send every frame to the look for large dice.
        if not cfg.look_for_large_dice or cfg.zones is not None:
            return found
        plain = ~found.unsure & (found.pips > 0) & (found.confidence >= PLAIN_FACE)
        close_side = locate.large_dice_look(
            loc, frame_bgr, cfg.locator_threshold, found.boxes, found.boxes[plain]
        )
        if close_side is None or close_side == long_side:
            return found
        # Only that look's large boxes are read.
        long_frame_side = max(frame_bgr.shape[:2])
        close = _read_look(
            loc,
            readers,
            frame_bgr,
            cfg,
            close_side,
            only=lambda boxes: locate.too_large(boxes, long_frame_side),
        ).found
        return _with_large_dice(found, close, long_frame_side)
    return _looked_again(loc, readers, frame_bgr, cfg, first)


def locator_for(frame_bgr: np.ndarray, cfg: ReaderConfig) -> str:
    """The path of the locator that every look at this frame takes: on a speckled frame, where
    `cfg.speckled_locator` is on, the one that learnt speckled tables; else the usual one."""
    if (
        cfg.speckled_locator
        and locate.flecks(frame_bgr, locate.LOCATOR_LONG_SIDE) >= cfg.speckled_locator_from
    ):
        return cfg.speckled_locator_model or str(model_path(SPECKLED_LOCATOR_FILE))
    return cfg.locator_model or str(model_path(LOCATOR_FILE))


def _looked_again(
    loc: ort.InferenceSession,
    readers: list[ort.InferenceSession],
    frame_bgr: np.ndarray,
    cfg: ReaderConfig,
    first: _Look,
) -> Detections:
    """A tray's dice: the first look's, and where it doubts, those of the larger looks at
    windows around its doubtful boxes (vision/look_again.py), merged there as whole looks
    are (`_merged`); where it doubts a third of its dice or more, those of the larger looks
    at the whole frame, merged. The larger looks read from the camera's place the first look
    judged, in windows also in its light, and the dice's sizes are then judged anew over all
    of them."""
    found = first.found
    sides = _larger_looks(found, first.long_side, frame_bgr.shape)
    side = locate.typical_side(found.boxes, found.confidence)
    if not sides or side is None or not len(first.doubtful):
        return found
    again = replace(cfg, camera_place=first.place)
    if len(first.doubtful) >= look_again.WHOLE_FRAME_DOUBT * max(len(found), 1):
        # Doubt all over the tray: the whole frame is looked at again.
        larger = [
            _read_look(loc, readers, frame_bgr, again, long_side).found for long_side in sides
        ]
        return _merged([found, *larger])
    wins = look_again.windows(first.doubtful, side, frame_bgr.shape)
    sheet = cfg.zones if cfg.zones is not None and cfg.zones.markers else None
    larger = []
    for long_side in sides:
        boxes, scores = look_again.located_in(
            loc,
            frame_bgr,
            wins,
            long_side,
            cfg.locator_threshold,
            None if sheet is None else sheet.on_marker,
        )
        look = _read_boxes(
            loc, readers, frame_bgr, again, boxes, scores, long_side, palette=first.palette
        )
        larger.append(look.found)
    merged = look_again.merged_in_windows(found, larger, wins, _merged)
    if not cfg.judge_sizes:
        return merged
    sizes = size_mod.sizes(frame_bgr, merged.boxes, cfg.regular_side_px, ~merged.unsure)
    return replace(merged, size=sizes)


def _with_finer_look(
    loc: ort.InferenceSession,
    readers: list[ort.InferenceSession],
    frame_bgr: np.ndarray,
    cfg: ReaderConfig,
    first: _Look,
) -> Detections:
    """The dice of a first look at a frame shrunk far for its large dice, joined by the dice
    that a look FINER_LOOK times as large reads for sure, of the size of the frame's sure dice
    (FINER_SIZES), where they lie on none of its dice of that size and are none of its boxes
    again (each centred in the other); their colours named in the light the first look judged.

    Shrunk that far, a large die that lies a little apart in size or light from the others is
    often not boxed at all; at the larger look it is. Dice read for sure join as such: the
    larger look also boxes patterns and pips, read unsure.

    A die it reads for sure of another size, or on weak boxes of the first look (unsure, or
    read under `cfg.sure_reading`), also joins where it lies on none of the first look's sure
    dice, the die checker gives it at least `cfg.finer_die_from`, and no box of the first look
    is centred in it without holding its centre (it may be several dice); the weak boxes on
    the same die (each centred in the other) and those around it (AROUND_SIDES times its side)
    give way. One small thing read for sure then no longer sets the size of a frame of large
    dice, and a large die read weakly at the first look is read again, surer.

    A die the finer look reads weakly joins flagged unsure where it is seen all the same
    (`_seen_at_finer_look`): of the frame's dice size, on no die, backed by the die checker."""
    found = first.found
    finer_side = min(round(first.long_side * FINER_LOOK), locate.LOCATOR_LONG_SIDE)
    if finer_side < first.long_side * FINER_LEAST:
        return found
    sure = ~found.unsure & (found.confidence >= cfg.sure_reading)
    side = locate.typical_side(found.boxes[sure], found.confidence[sure])
    low, high = (0.0, np.inf) if side is None else (FINER_SIZES[0] * side, FINER_SIZES[1] * side)
    die_sized = found.boxes[locate.box_sides(found.boxes) <= high]

    def new_dice(boxes: np.ndarray) -> np.ndarray:
        sides = locate.box_sides(boxes)
        # A box of the first look, however large, is no region around dice where it and the
        # box are each centred in the other: the box is that die again (its top face alone),
        # and joins only as a die read again (backed by the checker, the weak box giving way).
        centres = (boxes[:, :2] + boxes[:, 2:]) / 2
        again = locate.centred_in(boxes, found.centres) & locate.centred_in(found.boxes, centres).T
        return (
            (sides >= low) & (sides <= high) & ~locate.on_one_die(boxes, die_sized) & ~again.any(1)
        )

    def off_sure_dice(boxes: np.ndarray) -> np.ndarray:
        return ~locate.on_one_die(boxes, found.boxes[sure])

    checked = cfg.finer_die_from > 0
    only = (lambda b: new_dice(b) | off_sure_dice(b)) if checked else new_dice
    # Only the boxes of new dice are read: the look costs a locator pass at a small size.
    finer = _read_look(loc, readers, frame_bgr, cfg, finer_side, only, first.palette).found
    read_sure = ~finer.unsure & (finer.confidence >= cfg.sure_reading)
    joins = read_sure & new_dice(finer.boxes)
    if checked:
        others = read_sure & ~joins & off_sure_dice(finer.boxes)
        if others.any():
            likely = _likely_dice(frame_bgr, finer.boxes[others], cfg)
            backed = others.copy()
            backed[others] = likely >= cfg.finer_die_from
            # A box of the first look centred in a backed die, the die not centred in it, is a
            # die or a pip beside or under it: such a die may be several, and does not join.
            holds = locate.centred_in(finer.boxes, found.centres)
            held = locate.centred_in(found.boxes, finer.centres).T
            backed &= ~(holds & ~held).any(1)
            if backed.any():
                # The weak boxes of the first look on the same die give way (each centred in
                # the other), and those around it (AROUND_SIDES times its side or more).
                around = (
                    locate.box_sides(found.boxes)[None]
                    >= AROUND_SIDES * (locate.box_sides(finer.boxes)[:, None])
                )
                gives_way = (holds | (held & around))[backed].any(0) & ~sure
                found = found.select(~gives_way)
                joins |= backed
    if checked and cfg.finer_seen_from > 0:
        joins |= _seen_at_finer_look(frame_bgr, cfg, found, finer, ~read_sure, joins, (low, high))
        finer = replace(finer, unsure=finer.unsure | (joins & ~read_sure))
    return found.joined(finer.select(joins)) if joins.any() else found


def _seen_at_finer_look(
    frame_bgr: np.ndarray,
    cfg: ReaderConfig,
    found: Detections,
    finer: Detections,
    read_weakly: np.ndarray,
    joins: np.ndarray,
    sizes: tuple[float, float],
) -> np.ndarray:
    """Which dice of the finer look (`finer`) that it `read_weakly` (not for sure) are seen
    there all the same, a bool array: showing pips, their side within `sizes` (px), on no die
    of the first look (`found`) nor of the finer look's dice that join (`joins`), and backed by
    the die checker at `cfg.finer_seen_from` or more. They join flagged unsure: a large die
    that the first look missed is asked about, not lost."""
    sides = locate.box_sides(finer.boxes)
    weak = (
        read_weakly
        & (finer.pips != pips.CLASS_BLANK)
        & (sides >= sizes[0])
        & (sides <= sizes[1])
        & ~locate.on_one_die(finer.boxes, found.boxes)
        & ~locate.on_one_die(finer.boxes, finer.boxes[joins])
    )
    seen = weak.copy()
    if weak.any():
        seen[weak] = _likely_dice(frame_bgr, finer.boxes[weak], cfg) >= cfg.finer_seen_from
    return seen


def _with_sharp_look(
    loc: ort.InferenceSession,
    readers: list[ort.InferenceSession],
    frame_bgr: np.ndarray,
    cfg: ReaderConfig,
    first: _Look,
) -> _Look:
    """The first look, where it enlarged the frame past its own long side, joined by the dice
    that a look at the frame shrunk to SHARP_LOOK of that side finds on none of the first
    look's boxes and the die checker gives at least `cfg.sharp_die_from` of being a die; they
    keep their readings, sure or unsure.

    Enlarged, a small photo is soft, and its small dice (18-25 px) fade into the table, where
    the sharper look still boxes them; it also boxes more specks and tokens, which the checker
    keeps out."""
    own_side = max(frame_bgr.shape[:2])
    if first.long_side <= own_side:
        return first
    sharp_side = round(SHARP_LOOK * own_side)
    seen = first.found.boxes

    def new_boxes(boxes: np.ndarray) -> np.ndarray:
        return ~locate.on_one_die(boxes, seen)

    sharp = _read_look(loc, readers, frame_bgr, cfg, sharp_side, new_boxes, first.palette).found
    if not len(sharp):
        return first
    likely = _likely_dice(frame_bgr, sharp.boxes, cfg)
    joins = (likely >= cfg.sharp_die_from) & new_boxes(sharp.boxes)
    if not joins.any():
        return first
    return replace(first, found=first.found.joined(sharp.select(joins)))


def _with_smooth_look(
    loc: ort.InferenceSession,
    readers: list[ort.InferenceSession],
    frame_bgr: np.ndarray,
    cfg: ReaderConfig,
    first: _Look,
) -> _Look:
    """The first look joined by the dice that a look at the same size, the frame's flecks
    smoothed out (`locate.locate_smoothed`), boxes on none of the first look's dice and the
    die checker gives at least `cfg.smooth_die_from` of being a die; each is read from the
    frame as it is, and keeps its reading, sure or unsure.

    On a speckled granite top the locator, which learnt plain tables, scores clear dice under
    its bar; smoothed, it boxes them. A smoothed frame is only looked at, never read: a
    median blurs a small die's pips and a grey blank die into the table."""
    sheet = cfg.zones if cfg.zones is not None and cfg.zones.markers else None
    boxes, scores = locate.locate_smoothed(loc, frame_bgr, first.long_side, cfg.locator_threshold)
    new = ~locate.on_one_die(boxes, first.found.boxes)
    if sheet is not None:
        new &= ~sheet.on_marker(boxes)
    # The surest few alone: a frame boxed all over (a camera's noise in the dark) would
    # otherwise be read twice over.
    new[np.flatnonzero(new)[np.argsort(-scores[new], kind="stable")][MOST_SMOOTHED_BOXES:]] = False
    if not new.any():
        return first
    # Read as they are boxed, with no closer look around them (it is the costly part of
    # reading, and on a speckled frame it finds flecks). The place these few boxes read best
    # from is not told as the camera's: the first look's dice told it.
    plain = replace(cfg, look_closer=False, place_heard=None)
    look = _read_boxes(
        loc, readers, frame_bgr, plain, boxes[new], scores[new], first.long_side, first.palette
    )
    smooth = look.found
    if not len(smooth):
        return first
    joins = _likely_dice(frame_bgr, smooth.boxes, cfg) >= cfg.smooth_die_from
    if not joins.any():
        return first
    return replace(first, found=first.found.joined(smooth.select(joins)))


def _merged(looks: list[Detections]) -> Detections:
    """The look whose dice read surest in all (summed confidence), joined by each die of another
    look that it lacks: centred in none of its boxes, and with none of its dice centred in the
    die's box. A die so joined keeps its unsure flag."""
    surest = max(looks, key=lambda look: float(look.confidence.sum()))
    for look in looks:
        if look is surest or not len(look):
            continue
        surest = surest.joined(look.select(~locate.on_one_die(look.boxes, surest.boxes)))
    return surest


def _with_large_dice(found: Detections, close: Detections, long_frame_side: int) -> Detections:
    """The dice of the usual look joined by the large dice of the look for them, those read
    for sure; a die of the usual look on such a large die (its pip) gives way.

    A large box holding a die of the usual look is no die, but a region around dice (a printed
    disc under them, read as a large 1; a photo of a few dice tiled into a larger one), where
    that die is read at least as surely as the large box, or shows 2-6 pips and is at least
    PIP_SHARE_MOST of the large box's side. The usual look boxes a large die's pips as dice
    showing 1 or blank, read weakly, or as small faces of several pips (0.13-0.17 of its side).
    """
    sides = locate.box_sides(close.boxes)
    sure = (
        locate.too_large(close.boxes, long_frame_side)
        & ~close.unsure
        & (close.pips > 0)
        & (close.confidence >= SURE_LARGE_DIE)
    )
    found_sides = locate.box_sides(found.boxes)
    faces = ~found.unsure & (found.pips > 0)
    holds = locate.centred_in(close.boxes, found.centres) & faces[None]
    surer = found.confidence[None] >= close.confidence[:, None]
    face_sized = (found.pips[None] > 1) & (found_sides[None] >= PIP_SHARE_MOST * sides[:, None])
    sure &= ~(holds & (surer | face_sized)).any(1)
    if not sure.any():
        return found
    large_dice = close.select(sure)
    return large_dice.joined(found.select(~locate.on_one_die(found.boxes, large_dice.boxes)))


def _larger_looks(found: Detections, long_side: int, frame_shape: tuple[int, ...]) -> list[int]:
    """Long sides (px) of the looks after a first at `long_side` that read `found`: enlarged by
    LARGER_LOOKS, but none that makes the typical die larger than the locator knows dice (a
    look at dice too large finds their pips and a laptop's keys), nor larger than the largest."""
    side = locate.typical_side(found.boxes, found.confidence)
    if side is None:
        return []
    at_look = side * long_side / max(frame_shape[:2])
    sides = {
        min(round(long_side * enlarge), locate.LARGEST_LOOK)
        for enlarge in LARGER_LOOKS
        if at_look * enlarge <= LARGEST_DIE
    }
    return sorted(sides - {long_side})


@dataclass(frozen=True)
class _Look:
    """What one look read: its dice, the long side (px) the frame was shrunk to for it, the
    camera's place it read them from, the palette in the light it judged, and its doubtful
    boxes (n, 4): dice flagged unsure or read with less confidence than the config's
    `sure_reading`, dice boxed as two (look_again.MERGED_SIDE), and boxes the locator found
    that left no die (a grey die boxed faintly, or two dice in one box, dropped)."""

    found: Detections
    long_side: int
    place: str
    palette: colour_mod.Palette
    doubtful: np.ndarray


def _read_look(
    loc: ort.InferenceSession,
    readers: list[ort.InferenceSession],
    frame_bgr: np.ndarray,
    cfg: ReaderConfig,
    long_side: int | None = None,
    only: Callable[[np.ndarray], np.ndarray] | None = None,
    palette: colour_mod.Palette | None = None,
) -> _Look:
    """The dice read from one look of the locator at the frame shrunk to `long_side` px (None:
    the size that suits its dice); with `only`, of the boxes (n, 4) it marks (a bool array
    (n,)) alone; their colours named with `palette` where given (see `_read_boxes`)."""
    sheet = cfg.zones if cfg.zones is not None and cfg.zones.markers else None
    # The locator takes a printed marker for a small die: it must neither set the size the dice
    # are looked at nor sway the readers' view.
    boxes, scores, long_side = locate.locate_sized(
        loc, frame_bgr, cfg.locator_threshold, None if sheet is None else sheet.on_marker, long_side
    )
    if only is not None:
        chosen = only(boxes)
        boxes, scores = boxes[chosen], scores[chosen]
    return _read_boxes(loc, readers, frame_bgr, cfg, boxes, scores, long_side, palette)


def _read_boxes(
    loc: ort.InferenceSession,
    readers: list[ort.InferenceSession],
    frame_bgr: np.ndarray,
    cfg: ReaderConfig,
    boxes: np.ndarray,
    scores: np.ndarray,
    long_side: int,
    palette: colour_mod.Palette | None = None,
) -> _Look:
    """The dice read from the boxes (n, 4) and scores (n,) a look at the frame shrunk to
    `long_side` px located; their colours named with `palette` as it is where given, else
    with the light judged from these dice."""
    sheet = cfg.zones if cfg.zones is not None and cfg.zones.markers else None
    kept = np.sort(np.argsort(-scores, kind="stable")[:MOST_BOXES_A_LOOK])  # in their order
    boxes, scores = boxes[kept], scores[kept]
    weak = scores < locate.SURE_BOX
    # A box sure enough for a closer look may lead it to a die beside it: only fainter boxes
    # are judged by their colour.
    faint = np.flatnonzero(scores < closer.MIN_LOCATOR_SCORE)
    like_table = np.zeros(len(boxes), bool)
    like_table[faint] = contrast_with_table(frame_bgr, boxes[faint]) <= LIKE_TABLE
    worth = ~weak | ~(_strips(boxes) | like_table)
    boxes, scores = boxes[worth], scores[worth]
    located = boxes.copy()  # the boxes read, as the locator found them
    printed = np.zeros(len(boxes), bool) if sheet is None else sheet.on_label(boxes)
    place, reading = _read_faces(readers, frame_bgr, boxes, scores, cfg, printed)
    if printed.any():
        # A printed zone name's letters read as no die are the print itself: no closer look. A
        # die lying on the name is read as any other, and kept if it is read for sure.
        pip, prob, unsure, is_die = reading
        keep = ~printed | is_die
        boxes, scores = boxes[keep], scores[keep]
        reading = pip[keep], prob[keep], unsure[keep], is_die[keep]
    if cfg.look_closer:
        boxes, scores, reading = closer.look_closer(
            loc,
            readers,
            frame_bgr,
            boxes,
            scores,
            reading,
            cfg.min_confidence,
            cfg.locator_threshold,
            cfg.min_pip_prob,
            cfg.mirror_pips,
            place,
        )
    pip, prob, unsure, is_die = reading
    confidence = np.clip(scores, 0, 1) * prob
    keep = is_die & (confidence >= cfg.min_confidence)
    seen = _seen_unread(frame_bgr.shape, boxes, scores, pip, is_die, keep)
    keep |= seen
    keep &= _once_per_die(boxes, pip, confidence, keep)
    unsure = unsure | seen
    keep &= ~side_faces(
        readers, frame_bgr, boxes, pip, unsure, keep, place, cfg.min_pip_prob, cfg.mirror_pips
    )
    if sheet is not None:
        keep &= ~sheet.on_marker(boxes) & ~sheet.holds_markers(boxes)
        keep &= ~(sheet.on_label(boxes) & unsure)
    keep &= ~_table_pattern(frame_bgr, boxes, keep & (unsure | (confidence < cfg.sure_reading)))
    boxes, pip = boxes[keep], pip[keep]
    confidence, unsure = confidence[keep], unsure[keep]
    bgr = colour_mod.body_colours(frame_bgr, boxes, viewpoint.downs(place, frame_bgr.shape, boxes))
    table = colour_mod.background_colour(frame_bgr, boxes)
    # Until calibration, the light is judged from these dice, the surer counting more.
    if palette is None:
        palette = judged_light(cfg.palette, bgr, confidence)
    shows_pips = pip != pips.CLASS_BLANK
    names, certainty = palette.classify(bgr, table, shows_pips=shows_pips)
    by_light = named_by_the_light(palette, bgr, names, table, shows_pips)
    by_light |= named_by_one_frame(cfg.palette, palette, bgr, names, COLOUR_SURE, table, shows_pips)
    if cfg.learnt_colours is not None:
        names, certainty, by_light = colour_mod.checked_by_learnt_colours(
            cfg.learnt_colours, bgr, table, shows_pips, names, certainty, by_light, COLOUR_SURE
        )
    real, names, doubtful = _blank_dice_grey(pip, names, confidence, palette, bgr, table)
    # A blank face on a die that looks white or tinted names it grey only by its pips' reading.
    in_doubt = _colour_in_doubt(palette, names, certainty, by_light, shows_pips)
    colour_doubt = (in_doubt | doubtful)[real]
    boxes, pip, names = boxes[real], pip[real], names[real]
    confidence, unsure = confidence[real], (unsure | doubtful)[real]
    no_zones = np.full(len(boxes), None, object)
    zone = cfg.zones.zone_of(boxes) if cfg.zones is not None else no_zones
    if cfg.judge_sizes:
        sizes = size_mod.sizes(frame_bgr, boxes, cfg.regular_side_px, ~unsure)
    else:
        sizes = np.full(len(boxes), "regular", object)
    found = Detections(
        boxes, pip, names, sizes, confidence, unsure, zone, colour_doubt, body=bgr[real]
    )
    weak = unsure | (cfg.pips_needed & (confidence < cfg.sure_reading))
    weak |= look_again.oversized(boxes, locate.typical_side(boxes, confidence))
    left = located[~locate.on_one_die(located, boxes)]
    return _Look(found, long_side, place, palette, np.concatenate([boxes[weak], left]))


def _table_pattern(frame_bgr: np.ndarray, boxes: np.ndarray, weak: np.ndarray) -> np.ndarray:
    """Which of the weakly read boxes (n, 4; `weak` a bool array (n,)) do not stand out from
    the table around them (stand_out.LIKE_TABLE), a bool array (n,): a speckled or printed
    top's own pattern, its flecks read as pips, not a die."""
    pattern = np.zeros(len(boxes), bool)
    chosen = np.flatnonzero(weak)
    pattern[chosen] = contrast_with_table(frame_bgr, boxes[chosen]) <= TABLE_PATTERN
    return pattern


def _strips(boxes: np.ndarray, longer_than: float = LONG_BOX) -> np.ndarray:
    """Which boxes (n, 4) are longer than `longer_than` times their width, a bool array (n,)."""
    wh = boxes[:, 2:] - boxes[:, :2]
    return wh.max(1) > longer_than * wh.min(1)


def _colour_in_doubt(
    palette: colour_mod.Palette,
    names: np.ndarray,
    certainty: np.ndarray,
    by_light: np.ndarray,
    shows_pips: np.ndarray,
) -> np.ndarray:
    """Which dice lie so near the border between two colours that their name is a guess, or
    whose name hangs on the light judged from the dice (`by_light`, a bool array: named
    otherwise under a weaker light): only before calibration (a calibrated palette knows this
    table's colours), and never a blank die named grey (grey is the only colour of a blank
    die; a die showing pips named grey, a player's colour in some games, may be in doubt)."""
    if palette.reference_bgr is not None:
        return np.zeros(len(names), bool)
    blank_grey = (names == BLANK_DICE_COLOUR) & ~np.asarray(shows_pips, bool)
    return ((certainty < COLOUR_SURE) | by_light) & ~blank_grey


def _seen_unread(
    frame_shape: tuple[int, ...],
    boxes: np.ndarray,
    scores: np.ndarray,
    pip: np.ndarray,
    is_die: np.ndarray,
    keep: np.ndarray,
) -> np.ndarray:
    """Which dropped boxes hold a die seen but not read (the frame's edge cuts it, or it is
    cocked): sure boxes of the locator (CUT_DIE_SCORE at the frame's edge, UNREAD_DIE_SCORE
    inside), a die to the readers (not blank: only grey dice are), no strip longer than
    SLIVER times its width (too little of a die shows there to tell it from a table's rim),
    on no die kept and on no surer box so kept."""
    at_edge = ~locate.clear_of_edge(boxes, frame_shape)
    sure_box = scores >= np.where(at_edge, CUT_DIE_SCORE, UNREAD_DIE_SCORE)
    seen = ~keep & is_die & sure_box & (pip != pips.CLASS_BLANK) & ~_strips(boxes, SLIVER)
    taken = keep.copy()
    for i in np.argsort(-scores, kind="stable"):
        if seen[i]:
            seen[i] = taken[i] = not locate.on_one_die(boxes[i], boxes[taken])[0]
    return seen


def _once_per_die(
    boxes: np.ndarray, pip: np.ndarray, confidence: np.ndarray, keep: np.ndarray
) -> np.ndarray:
    """Which kept boxes are not a second reading of a die: a box centred in the middle
    SAME_DIE_CORE of a surer kept box, or with that box centred so in it, that reads the same
    pips is that die again (the locator can box a large die near a close camera twice: its top
    face, and the die with its sides)."""
    once = keep.copy()
    kept = np.flatnonzero(keep)
    if len(kept) < 2:
        return once
    centres = (boxes[kept, :2] + boxes[kept, 2:]) / 2
    # twice[a, b]: kept boxes a and b read alike, one centred in the other's middle.
    twice = locate.centred_in(locate.shrunk(boxes[kept], SAME_DIE_CORE), centres)
    twice = (twice | twice.T) & (pip[kept, None] == pip[None, kept])
    taken = np.zeros(len(kept), bool)
    for a in np.argsort(-confidence[kept], kind="stable"):
        taken[a] = not (twice[a] & taken).any()
    once[kept] = taken
    return once


def _blank_dice_grey(
    pip: np.ndarray,
    names: np.ndarray,
    confidence: np.ndarray,
    palette: colour_mod.Palette,
    bgr: np.ndarray,
    table: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which dice are real, their colour names (a grey die in a shadow, under a lamp or in a
    coloured light named grey), and which of them are in doubt (a blank face on a die that
    looks white, or tinted).

    Only the grey dice have no pips: a "blank die" of another colour is a plug, a ferrite or a
    dark key, not a die, unless it is a grey die that a shadow makes look black, that a lamp
    makes look white, or that a coloured light tints. A face read blank for sure on a
    white-looking or tinted die is kept but flagged unsure: it may be such a grey die, or a die
    whose pips a glare washes out.
    """
    blank = pip == pips.CLASS_BLANK
    grey = names == BLANK_DICE_COLOUR
    if BLANK_DICE_COLOUR not in palette.names:
        return ~blank | grey, names, np.zeros_like(blank)
    if "black" in palette.names:
        shaded = (names == "black") & (confidence >= SHADED_BLANK)
        shaded &= palette.lightness_between(bgr, "black", BLANK_DICE_COLOUR, table) >= DARK_GREY
        grey |= blank & shaded
    near_grey = palette.distances(bgr, table)[:, palette.names.index(BLANK_DICE_COLOUR)]
    # A black-named body is a grey die in a shadow only by its lightness (above).
    looks_grey = (names == "white") | ((near_grey <= TINTED_GREY) & (names != "black"))
    doubtful = blank & ~grey & looks_grey & (confidence >= SURE_BLANK)
    grey |= doubtful
    return ~blank | grey, np.where(blank & grey, BLANK_DICE_COLOUR, names), doubtful


# The boxes that tell whether the camera stands where it is first looked for are read this many
# at a time, surest first, until one is in doubt: a tray's first box in doubt spares reading the
# rest twice (from there and from the place then searched for).
TELLING_AT_ONCE = 12


def _read_faces(
    readers: list,
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    scores: np.ndarray,
    cfg: ReaderConfig,
    printed: np.ndarray,
) -> tuple[str, pips.Reading]:
    """The camera's place (the configured one, else judged from the boxes not on `printed`
    zone names) and the readers' verdict on the boxes as seen from there."""
    first_place = cfg.camera_place or cfg.likely_place or viewpoint.CAMERA_PLACES[0]
    known: pips.FirstReads = {}  # no crop is read twice by the first reader
    judged = ~printed

    def read(chosen: np.ndarray, place: str) -> pips.Reading:
        return pips.read_pips(
            readers, frame_bgr, boxes[chosen], cfg.min_pip_prob, cfg.mirror_pips, place, known
        )

    everything = np.arange(len(boxes))
    if cfg.camera_place is not None or not cfg.pips_needed:
        return first_place, read(everything, first_place)
    # Whether the camera stands where it is first looked for is told by the boxes the locator
    # is sure of alone, read first, surest first, TELLING_AT_ONCE at a time until one is in
    # doubt; the others are read once the place is settled. A die the frame's edge cuts reads
    # unsure from every place: its doubt says nothing of the place.
    telling = np.flatnonzero(
        judged & locate.clear_of_edge(boxes, frame_bgr.shape) & (scores >= locate.SURE_BOX)
    )
    telling = telling[np.argsort(-scores[telling], kind="stable")]
    parts: list[tuple[np.ndarray, pips.Reading]] = []
    place = first_place
    for at in range(0, len(telling), TELLING_AT_ONCE):
        chosen = telling[at : at + TELLING_AT_ONCE]
        parts.append((chosen, read(chosen, first_place)))
        if _in_doubt(parts[-1][1], scores[chosen]):
            # Dice read plainly from the usual oblique webcam's view (or the likely place) need
            # no other; doubt may mean the camera stands elsewhere, or straight above.
            place = pips.surest_camera_place(
                readers[0], frame_bgr, boxes[judged], scores[judged], known
            )
            break
    if place == first_place:
        done = np.zeros(len(boxes), bool)
        for chosen, _reading in parts:
            done[chosen] = True
        parts.append((np.flatnonzero(~done), read(~done, place)))
        reading = _joined(len(boxes), parts)
    else:
        reading = read(everything, place)
    if cfg.place_heard is not None:
        cfg.place_heard(place)
    return place, reading


def _joined(n: int, parts: list[tuple[np.ndarray, pips.Reading]]) -> pips.Reading:
    """One reading of n boxes from the readings of parts of them, each part its boxes'
    indices and their reading in that order; together the parts hold every box once."""
    out = []
    for field_at in range(4):
        dtype = parts[0][1][field_at].dtype
        joined = np.empty(n, dtype)
        for chosen, reading in parts:
            joined[chosen] = reading[field_at]
        out.append(joined)
    return out[0], out[1], out[2], out[3]


def _in_doubt(reading: pips.Reading, scores: np.ndarray) -> bool:
    """Whether any box the locator is sure of is not read as a face for sure."""
    _pip, prob, unsure, is_die = reading
    sure_box = scores >= locate.SURE_BOX
    return bool(np.any(sure_box & (~is_die | unsure | (prob < pips.FIRST_READER_SURE))))
