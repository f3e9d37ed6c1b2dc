"""Table set-up that the camera needs: the dice colours of this table and where the zones lie."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from vision.colour import (
    DEFAULT_COLOURS_BGR,
    Palette,
    calibrate_from_frame,
    default_palette,
    palette_from_json,
    palette_to_json,
)
from vision.reader import BLANK_DICE_COLOUR, ReaderConfig, read_dice
from vision.viewpoint import place_setting
from vision.zones import ZONE_NAMES, Zones, detect_zones, zones_from_corners
from web.errors import ActionError
from web.reading import KICKER_COLOUR, NEUTRAL_COLOUR
from web.schema import is_number

if TYPE_CHECKING:
    from companion.rules import Rules
    from web.hub import TableHub

COLOURS = tuple(DEFAULT_COLOURS_BGR)
"""Dice colours a player can choose; the reader's palette knows each of them."""

SEPARATE_LAB = 30.0
"""Lab distance below which a built-in colour is dropped beside a calibrated one."""

CALIBRATION_SPREAD = (36.0, 16.0, 16.0)
"""Lab variance added to each calibrated colour (L, a, b): shading the samples did not show."""


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


def calibration_names(hub: TableHub) -> list[str]:
    """The colours whose dice are rolled in this game: players', then white and purple if used."""
    if hub.session is None:
        return []
    own = own_dice_colours(hub.session.state.rules)
    return list(hub.colours) + [colour for colour in own if colour != BLANK_DICE_COLOUR]


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


def calibrate_from_camera(hub: TableHub) -> dict[str, Any]:
    """Learn each game colour from one die of it lying in the arena now."""
    from vision.colour import body_colours

    names = calibration_names(hub)
    if not names:
        raise ActionError(
            409,
            "start a game first: calibration learns the colours of its dice",
            why={"key": "calibrate_first"},
        )
    if len(names) > 8:
        raise ActionError(400, f"calibrate at most 8 colours at once, this game has {len(names)}")
    frame = None if hub.camera is None else hub.camera.snapshot()
    if frame is None:
        raise ActionError(
            409, "the camera shows no picture; calibration needs one", why={"key": "no_picture"}
        )
    # Calibration reads with the default palette: the table's own is what it is learning.
    det = read_dice(frame, replace(reader_config(hub), palette=default_palette()))
    if len(det) != len(names):
        raise ActionError(
            409,
            f"put exactly one die of each colour ({', '.join(names)}) in the arena; "
            f"dice the camera sees: {len(det)}",
            why={"key": "calibrate_count", "colours": names, "seen": len(det)},
        )
    matched = _match_names(body_colours(frame, det.boxes), names)
    palette = merged_palette(calibrate_from_frame(frame, det.boxes, matched))
    hub.store.set_setting("palette", palette_to_json(palette))
    hub.palette = palette  # after the file took it: a refused write changes nothing
    hub.apply_reader_config()
    if hasattr(hub.camera, "settle_and_lock"):
        hub.camera.settle_and_lock()
    return {"calibrated": names}


def zones_to_json(zones: Zones) -> dict[str, Any]:
    """A JSON-ready dict of zones (markers and printed names seen included)."""
    return {
        "names": list(zones.names),
        "polygons": [p.tolist() for p in zones.polygons],
        "markers": [m.tolist() for m in zones.markers],
        "labels": [q.tolist() for q in zones.labels],
    }


def zones_from_json(data: Any) -> Zones | None:
    """Zones saved by zones_to_json; None when nothing (or something unreadable) was saved."""
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


def checked_corners(raw: Any, size: tuple[int, int]) -> dict[str, list[list[float]]]:
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


def set_zones(hub: TableHub, payload: dict[str, Any]) -> dict[str, Any]:
    """Zones from the marker sheet in the current picture, from corners tapped on it, or none."""
    mode = payload.get("mode")
    if mode == "clear":
        zones = None
    elif mode == "markers":
        frame = None if hub.camera is None else hub.camera.snapshot()
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
        frame = None if hub.camera is None else hub.camera.snapshot()
        size = LARGEST_FRAME if frame is None else (frame.shape[1], frame.shape[0])
        try:
            zones = zones_from_corners(checked_corners(payload.get("corners"), size))
        except (ValueError, TypeError) as error:
            raise ActionError(400, f"corners: {error}") from None
    else:
        raise ActionError(400, f"mode must be markers, corners or clear, got {mode!r}")
    hub.store.set_setting("zones", None if zones is None else zones_to_json(zones))
    hub.zones = zones  # after the file took them: a refused write changes nothing
    hub.apply_reader_config()
    return {"zones": [] if zones is None else list(zones.names)}


def load_table_settings(hub: TableHub) -> None:
    """Read the saved palette and zones back from the game file."""
    saved = hub.store.setting("palette")
    try:
        hub.palette = palette_from_json(saved) if saved else default_palette()
    except (KeyError, TypeError, ValueError):
        hub.palette = default_palette()
    hub.zones = zones_from_json(hub.store.setting("zones"))


def reader_config(hub: TableHub) -> ReaderConfig:
    """The reader settings for this table: threads, camera place, palette, zones.

    Until the table is calibrated, a die is named by the nearest colour of this game's dice
    where that lies close (a white die in a dim room, nearer the built-in grey, is white); a
    die of a colour far from every one in play keeps its own name, and the page flags it.
    In Royale a die showing pips is never named grey: only the blank dice are grey.
    """
    place = place_setting(hub.camera_place)
    palette = hub.palette
    if palette is not None:
        in_play = colours_in_play(hub) if palette.reference_bgr is None else palette.in_play
        palette = palette.in_play_only(in_play, blank_only=blank_colours(hub))
    return ReaderConfig(threads=hub.threads, camera_place=place, palette=palette, zones=hub.zones)


def colours_in_play(hub: TableHub) -> list[str]:
    """The colours of the dice this game's camera can see: those rolled, and Royale's grey."""
    return calibration_names(hub) + blank_colours(hub)


def blank_colours(hub: TableHub) -> list[str]:
    """The colours whose dice in this game are all blank: Royale's grey, where no player has
    grey dice (a game begun before grey was kept for the blank dice may have)."""
    if hub.session is None or BLANK_DICE_COLOUR in hub.colours:
        return []
    own = own_dice_colours(hub.session.state.rules)
    return [BLANK_DICE_COLOUR] if BLANK_DICE_COLOUR in own else []


__all__ = ["COLOURS", "ZONE_NAMES", "calibration_names", "reader_config", "set_zones"]
