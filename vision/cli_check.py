"""The reader's half of `lasvegas check-table`: the casino row read from an image file, with the
zones and palette the command line names (loaded only when the command runs)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from vision.casino_row import RowReading, read_casino_row
from vision.cli_run import OptionError, _config
from vision.images import ImageError, load_image
from vision.row_zones import CASINO_NUMBERS
from vision.zones import Zones, detect_zones

DEFAULT_CAMERA_PLACE = "auto"


class CheckInputError(ValueError):
    """An image, zones file or palette that the check cannot use; the message says why."""


def read_row_file(
    image: str,
    zones: str = "markers",
    palette: str | None = None,
    colours: Sequence[str] = (),
    camera_place: str = DEFAULT_CAMERA_PLACE,
) -> RowReading:
    """The casino row read from an image file. `zones` is "markers" (the marker sheet's or the
    casino cards' ArUco markers, found in the image) or a JSON file of corners; `colours` are
    the colours of the dice in play. CheckInputError says what cannot be used."""
    options = argparse.Namespace(
        threads=1,
        camera_place=camera_place,
        palette=None if palette is None else Path(palette),
        colours=list(colours) or None,
        zones=None if zones == "markers" else Path(zones),
        draw=None,
    )
    try:
        cfg = _config(options)
        frame = load_image(image)
    except (OptionError, ImageError, ValueError, OSError) as error:
        raise CheckInputError(str(error)) from None
    found: Zones | None = cfg.zones if zones != "markers" else detect_zones(frame)
    if found is None or not any(name in CASINO_NUMBERS for name in found.names):
        where = "no casino's markers are seen in" if zones == "markers" else "no casino zone in"
        raise CheckInputError(
            f"{where} {image if zones == 'markers' else zones} (zones are casino1..casino6 "
            "and slot)"
        )
    return read_casino_row(frame, found, cfg)
