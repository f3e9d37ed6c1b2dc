"""Table set-up that the camera needs: the dice colours of this table and where the zones lie."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from companion.dice import KICKER_COLOUR, NEUTRAL_COLOUR
from companion.session import GameStore
from vision import calibrate
from vision.colour import DEFAULT_COLOURS_BGR, Palette, default_palette, palette_from_json
from vision.reader import BLANK_DICE_COLOUR, ReaderConfig
from vision.viewpoint import place_setting
from vision.zones import (
    LARGEST_FRAME,
    ZONE_NAMES,
    CornerError,
    Zones,
    checked_corners,
    detect_zones,
    zones_from_corners,
    zones_from_json,
    zones_to_json,
)
from web.errors import ActionError

if TYPE_CHECKING:
    from companion.rules import Rules
    from companion.state import GameState

COLOURS = tuple(DEFAULT_COLOURS_BGR)
"""Dice colours a player can choose; the reader's palette knows each of them."""


@dataclass(frozen=True)
class CameraSetup:
    """How the camera reads this table: its colours, where its zones lie (None: nowhere
    marked), how many threads the reader uses and where the camera hangs."""

    palette: Palette
    zones: Zones | None = None
    threads: int = 1
    camera_place: str = "auto"


def own_dice_colours(rules: Rules) -> dict[str, tuple[str, str]]:
    """The colours of the game's own dice, which no player may take: for each, what those dice
    are and the key of the refusal's words (white neutral dice, purple kickers, Royale's grey
    blank dice)."""
    own = {}
    if rules.neutral_dice:
        own[NEUTRAL_COLOUR] = ("the neutral dice", "neutral_colour")
    if rules.kickers:
        own[KICKER_COLOUR] = ("the kickers", "kicker_colour")
    if rules.edition == "royale":
        own[BLANK_DICE_COLOUR] = ("the blank dice", "blank_colour")
    return own


def calibration_names(game: GameState | None, colours: tuple[str, ...]) -> list[str]:
    """The colours whose dice are rolled in a game: players', then white and purple if used."""
    if game is None:
        return []
    own = own_dice_colours(game.rules)
    return list(colours) + [colour for colour in own if colour != BLANK_DICE_COLOUR]


def learn_palette(frame: np.ndarray | None, names: list[str], config: ReaderConfig) -> Palette:
    """This table's palette, learnt from one die of each colour of `names` lying in the arena
    of `frame` (see `vision.calibrate`); an ActionError says what to lay out when the dice are
    not as asked."""
    if not names:
        raise ActionError(
            409,
            "start a game first: calibration learns the colours of its dice",
            why={"key": "calibrate_first"},
        )
    if len(names) > 8:
        raise ActionError(400, f"calibrate at most 8 colours at once, this game has {len(names)}")
    if frame is None:
        raise ActionError(
            409, "the camera shows no picture; calibration needs one", why={"key": "no_picture"}
        )
    try:
        return calibrate.learn_palette(frame, names, config)
    except calibrate.CalibrationError as error:
        raise ActionError(
            409, str(error), why={"key": "calibrate_count", "colours": names, "seen": error.seen}
        ) from None


def zones_asked(mode: object, corners: object, frame: np.ndarray | None) -> Zones | None:
    """Zones from the marker sheet in the current picture (`mode` "markers"), from `corners`
    tapped on it ("corners"), or none ("clear"); an ActionError says why they cannot be had."""
    zones: Zones | None
    if mode == "clear":
        zones = None
    elif mode == "markers":
        if frame is None:
            raise ActionError(
                409,
                "the camera shows no picture; the marker sheet cannot be found",
                why={"key": "no_picture_sheet"},
            )
        zones = detect_zones(frame)
        if not zones.names:
            raise ActionError(
                409,
                "no marker sheet found in the picture; check it is in view and flat",
                why={"key": "no_sheet"},
            )
    elif mode == "corners":
        size = LARGEST_FRAME if frame is None else (frame.shape[1], frame.shape[0])
        try:
            checked = checked_corners(corners, size)
        except CornerError as error:
            raise ActionError(400, str(error)) from None
        try:
            zones = zones_from_corners(checked)
        except (ValueError, TypeError) as error:
            raise ActionError(400, f"corners: {error}") from None
    else:
        raise ActionError(400, f"mode must be markers, corners or clear, got {mode!r}")
    return zones


def load_camera_setup(
    store: GameStore, threads: int = 1, camera_place: str = "auto"
) -> CameraSetup:
    """The palette and zones saved in the game file (the built-in palette where none, or
    none readable, was saved), with the reader's threads and the camera's place."""
    saved = store.setting("palette")
    try:
        palette = palette_from_json(saved) if saved else default_palette()
    except (KeyError, TypeError, ValueError):
        palette = default_palette()
    zones = zones_from_json(store.setting("zones"))
    return CameraSetup(palette, zones, threads, camera_place)


def reader_config(
    setup: CameraSetup, game: GameState | None, colours: tuple[str, ...]
) -> ReaderConfig:
    """The reader settings for this table: threads, camera place, palette, zones.

    Until the table is calibrated, a die is named by the nearest colour of this game's dice
    where that lies close (a white die in a dim room, nearer the built-in grey, is white); a
    die of a colour far from every one in play keeps its own name, and the page flags it.
    In Royale a die showing pips is never named grey: only the blank dice are grey.
    """
    place = place_setting(setup.camera_place)
    blank = blank_colours(game, colours)
    palette = setup.palette
    in_play: Sequence[str] = palette.in_play
    if palette.reference_bgr is None:  # not calibrated: name dice by the colours in play
        in_play = calibration_names(game, colours) + blank
    palette = palette.in_play_only(in_play, blank_only=blank)
    return ReaderConfig(
        threads=setup.threads, camera_place=place, palette=palette, zones=setup.zones
    )


def blank_colours(game: GameState | None, colours: tuple[str, ...]) -> list[str]:
    """The colours whose dice in a game are all blank: Royale's grey, where no player has
    grey dice (a game begun before grey was kept for the blank dice may have)."""
    if game is None or BLANK_DICE_COLOUR in colours:
        return []
    own = own_dice_colours(game.rules)
    return [BLANK_DICE_COLOUR] if BLANK_DICE_COLOUR in own else []


__all__ = [
    "COLOURS",
    "ZONE_NAMES",
    "calibration_names",
    "reader_config",
    "zones_asked",
    "zones_from_json",
    "zones_to_json",
]
