"""The reader's settings as command-line options, shared by the benchmarks that read photos."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.reader import ReaderConfig  # noqa: E402

DEFAULTS = ReaderConfig()


def add_reader_options(ap: argparse.ArgumentParser) -> None:
    """Options for each network and setting of the reader that a benchmark may change."""
    ap.add_argument("--locator", default=None, help="locator .onnx instead of the shipped one")
    ap.add_argument(
        "--speckled-locator",
        default=None,
        help="locator .onnx that speckled frames are looked at with, instead of the shipped one",
    )
    ap.add_argument(
        "--no-speckled-locator",
        action="store_true",
        help="look at speckled frames with the usual locator (--locator) too",
    )
    ap.add_argument(
        "--speckled-locator-from",
        type=float,
        default=DEFAULTS.speckled_locator_from,
        help="frames with at least this many flecks (locate.flecks) are looked at with the "
        "speckled-frame locator",
    )
    ap.add_argument(
        "--pips", nargs=3, default=None, help="three pip reader .onnx files instead of the shipped"
    )
    ap.add_argument("--die-check", default=None, help="die checker .onnx instead of the shipped")
    ap.add_argument(
        "--locator-threshold",
        type=float,
        default=DEFAULTS.locator_threshold,
        help="the locator's score a box needs",
    )
    ap.add_argument(
        "--sure-reading",
        type=float,
        default=DEFAULTS.sure_reading,
        help="dice read with less confidence are flagged unsure",
    )
    ap.add_argument(
        "--sure-alone",
        type=float,
        default=DEFAULTS.sure_alone,
        help="dice read with less confidence are sure only by the pip readers' vote "
        "(at --sure-reading or below: no vote asked)",
    )
    ap.add_argument(
        "--sure-vote",
        type=float,
        default=DEFAULTS.sure_vote,
        help="the vote on a die's pips that makes a die under --sure-alone sure",
    )
    ap.add_argument(
        "--no-die-below",
        type=float,
        default=DEFAULTS.no_die_below,
        help="unsure boxes read weakly that the die checker gives less than this probability "
        "of a die are dropped (0: the checker is not asked)",
    )
    ap.add_argument(
        "--read-no-die-below",
        type=float,
        default=DEFAULTS.read_no_die_below,
        help="unsure boxes read better than that are dropped under this die checker "
        "probability (0: not asked)",
    )
    ap.add_argument(
        "--blank-no-die-below",
        type=float,
        default=DEFAULTS.blank_no_die_below,
        help="unsure boxes read better than that as a blank are dropped under this die "
        "checker probability (0: not asked)",
    )
    ap.add_argument(
        "--doubt-sure-below",
        type=float,
        default=DEFAULTS.doubt_sure_below,
        help="dice read for sure that the die checker gives less than this are flagged unsure "
        "(0: not asked)",
    )
    ap.add_argument(
        "--round-doubt-below",
        type=float,
        default=DEFAULTS.round_doubt_below,
        help="dice read for sure as a 1 whose outline is round (a coin, a cap) are flagged "
        "unsure under this die checker probability, and round blanks whatever it says (0: "
        "neither)",
    )
    ap.add_argument(
        "--round-no-die-below",
        type=float,
        default=DEFAULTS.round_no_die_below,
        help="unsure boxes whose outline is round are dropped under this die checker "
        "probability (0: not asked)",
    )
    ap.add_argument(
        "--sharp-die-from",
        type=float,
        default=DEFAULTS.sharp_die_from,
        help="a die that only the sharper look at an enlarged frame finds joins at this die "
        "checker probability or more (0: no sharper look)",
    )
    ap.add_argument(
        "--finer-die-from",
        type=float,
        default=DEFAULTS.finer_die_from,
        help="a die that the finer look at a frame shrunk for its large dice reads for sure, "
        "of another size than the frame's sure dice or on a weak box, joins at this die checker "
        "probability or more (0: never)",
    )
    ap.add_argument(
        "--finer-seen-from",
        type=float,
        default=DEFAULTS.finer_seen_from,
        help="a die that the finer look sees but reads weakly, on no die of the first look, "
        "joins flagged unsure at this die checker probability or more (0: never)",
    )
    ap.add_argument(
        "--smooth-die-from",
        type=float,
        default=DEFAULTS.smooth_die_from,
        help="a die that only a look at the frame with its flecks smoothed out finds joins at "
        "this die checker probability or more (0: no such look)",
    )


def reader_config(args: argparse.Namespace, **fixed: Any) -> ReaderConfig:
    """The reader's config from the options `add_reader_options` added, with `fixed` settings
    (threads, say) on top."""
    return ReaderConfig(
        locator_model=args.locator,
        speckled_locator=not args.no_speckled_locator,
        speckled_locator_model=args.speckled_locator,
        speckled_locator_from=args.speckled_locator_from,
        pips_models=tuple(args.pips) if args.pips else None,
        die_check_model=args.die_check,
        locator_threshold=args.locator_threshold,
        sure_reading=args.sure_reading,
        sure_alone=args.sure_alone,
        sure_vote=args.sure_vote,
        no_die_below=args.no_die_below,
        read_no_die_below=args.read_no_die_below,
        blank_no_die_below=args.blank_no_die_below,
        doubt_sure_below=args.doubt_sure_below,
        round_doubt_below=args.round_doubt_below,
        round_no_die_below=args.round_no_die_below,
        sharp_die_from=args.sharp_die_from,
        finer_die_from=args.finer_die_from,
        finer_seen_from=args.finer_seen_from,
        smooth_die_from=args.smooth_die_from,
        **fixed,
    )
