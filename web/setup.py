"""Table set-up that the camera needs: the dice colours of this table and where the zones lie."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from companion.dice import KICKER_COLOUR, NEUTRAL_COLOUR
from companion.session import GameStore
from vision.colour import (
    DEFAULT_COLOURS_BGR,
    Palette,
    calibrate_from_frame,
    default_palette,
    palette_from_json,
)
from vision.reader import BLANK_DICE_COLOUR, ReaderConfig, read_dice
from vision.viewpoint import place_setting
from vision.zones import ZONE_NAMES, Zones, detect_zones, zones_from_corners
from web.errors import ActionError
from web.schema import is_number

if TYPE_CHECKING:
    from companion.rules import Rules
    from companion.state import GameState

COLOURS = tuple(DEFAULT_COLOURS_BGR)
"""Dice colours a player can choose; the reader's palette knows each of them."""

SEPARATE_LAB = 30.0
"""Lab distance below which a built-in colour is dropped beside a calibrated one."""

CALIBRATION_SPREAD = (36.0, 16.0, 16.0)
"""Lab variance added to each calibrated colour (L, a, b): shading the samples did not show."""


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


def merged_palette(calibrated: Palette) -> Palette:
    """The calibrated colours, plus the built-in ones that no calibrated colour resembles.

    A built-in colour close to a calibrated one (dark blue beside this table's blue) would
    only steal that colour's shaded dice; a colour of this game is calibrated if it is near.
    Each calibrated colour is widened a little, as one die per colour shows few shades.
    """
    near = np.linalg.norm(default_palette().means[:, None] - calibrated.means[None], axis=2)
    rest = [
        n
        for n, d in zip(COLOURS, near.min(1), strict=True)
        if n not in calibrated.names and d > SEPARATE_LAB
    ]
    base = default_palette(rest)
    widened = np.array(
        [np.linalg.inv(np.linalg.inv(m) + np.diag(CALIBRATION_SPREAD)) for m in calibrated.inv_cov],
        np.float32,
    )
    return Palette(
        calibrated.names + base.names,
        np.concatenate([calibrated.means, base.means]),
        np.concatenate([widened, base.inv_cov]),
        calibrated.reference_bgr,
    )


def _match_names(bgr_boxes: np.ndarray, names: list[str]) -> list[str]:
    """Name each measured die colour so that the total distance to the named colours is least."""
    from vision.colour import to_lab

    measured = to_lab(bgr_boxes)
    targets = to_lab(np.array([DEFAULT_COLOURS_BGR[n] for n in names], np.float32))
    cost = np.linalg.norm(measured[:, None] - targets[None], axis=2)
    best = min(
        itertools.permutations(range(len(names))),
        key=lambda p: sum(cost[i, j] for i, j in enumerate(p)),
    )
    return [names[j] for j in best]


def learn_palette(frame: np.ndarray | None, names: list[str], config: ReaderConfig) -> Palette:
    """This table's palette, learnt from one die of each colour of `names` lying in the arena
    of `frame`; an ActionError says what to lay out when the dice are not as asked."""
    from vision.colour import body_colours

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
    # Calibration reads with the default palette: the table's own is what it is learning.
    det = read_dice(frame, replace(config, palette=default_palette()))
    if len(det) != len(names):
        raise ActionError(
            409,
            f"put exactly one die of each colour ({', '.join(names)}) in the arena; "
            f"dice the camera sees: {len(det)}",
            why={"key": "calibrate_count", "colours": names, "seen": len(det)},
        )
    matched = _match_names(body_colours(frame, det.boxes), names)
    return merged_palette(calibrate_from_frame(frame, det.boxes, matched))


ZonesJson = dict[str, list[str] | list[list[list[float]]]]
"""Zones as the game file keeps them: names, and the polygons, markers and printed names seen."""


def zones_to_json(zones: Zones) -> ZonesJson:
    """A JSON-ready dict of zones (markers and printed names seen included)."""
    return {
        "names": list(zones.names),
        "polygons": [p.tolist() for p in zones.polygons],
        "markers": [m.tolist() for m in zones.markers],
        "labels": [q.tolist() for q in zones.labels],
    }


def zones_from_json(data: object) -> Zones | None:
    """Zones saved by zones_to_json; None when nothing (or something unreadable) was saved."""
    if not isinstance(data, dict):
        return None
    try:
        return Zones(
            tuple(data["names"]),
            tuple(np.array(p, np.float32) for p in data["polygons"]),
            tuple(np.array(m, np.float32) for m in data.get("markers", [])),
            tuple(np.array(q, np.float32) for q in data.get("labels", [])),
        )
    except (KeyError, TypeError, ValueError):
        return None


LARGEST_FRAME = (8192, 8192)
"""Width and height that tapped corners must lie within when there is no picture to measure."""

CORNERS_EXAMPLE = '{"arena": [[x, y], [x, y], [x, y], [x, y]]}'


def checked_corners(raw: object, size: tuple[int, int]) -> dict[str, list[list[float]]]:
    """Zone corners from the page, each [x, y] a finite number inside a frame of `size`
    (width, height); an ActionError names the first one that is not."""
    if not isinstance(raw, dict) or not raw:
        raise ActionError(400, f"corners must be like {CORNERS_EXAMPLE}")
    width, height = size
    for zone, points in raw.items():
        if not isinstance(points, list) or not 3 <= len(points) <= 16:
            raise ActionError(400, f"corners of {zone}: 3-16 points like {CORNERS_EXAMPLE}")
        for point in points:
            if (
                not isinstance(point, list)
                or len(point) != 2
                or not all(is_number(v) for v in point)
                or not (0 <= point[0] <= width and 0 <= point[1] <= height)
            ):
                raise ActionError(
                    400,
                    f"corners of {zone}: each point is [x, y] inside the {width}x{height} "
                    f"picture, got {point!r:.60}",
                )
    return raw


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
            zones = zones_from_corners(checked_corners(corners, size))
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


__all__ = ["COLOURS", "ZONE_NAMES", "calibration_names", "reader_config", "zones_asked"]
