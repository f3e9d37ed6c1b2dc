"""Zones of the table (arena, casinos 1-6, slot machine): from ArUco markers or hand corners."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

ZONE_NAMES = ("arena", "casino1", "casino2", "casino3", "casino4", "casino5", "casino6", "slot")
ARUCO_DICT = cv2.aruco.DICT_4X4_50
# Marker id = 4 * zone index + corner (0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left).
# The one-page sheet prints each zone's name right of its top-left marker (a casino's number, to
# fit between its top markers), at this font scale per pixel of marker side; the locator takes some
# of the letters for dice.
LABEL_SCALE_PER_MARKER_PX = 2.0 / 120
LABEL_FONT = cv2.FONT_HERSHEY_SIMPLEX
LABEL_ORIGIN = (1.2, 0.7)  # the text's bottom-left, from the marker's top-left, in marker sides
LABEL_PAD = 0.35  # around the text, in marker sides
# The zone pages (`lasvegas markers --layout zones`) use the same marker ids and print no name by
# the top-left marker. A zone is taken to be on the one-page sheet when its width between its top
# markers' centres, in marker sides, is within this share of the sheet's (the pages' zones are
# far wider or narrower: a casino 2.3 sides on the sheet, 6.0 on its card).
SHEET_WIDTH_FIT = 0.25
# A card zone of which only two markers are seen is completed from another card (see
# `_complete_cards`) only where those two lie at the other card's distance within this factor.
CARD_SCALE_FIT = 1.15
# A detected marker is the sheet's only where its side is within this factor of the median
# marker's and it is turned within this many degrees of its zone's other markers: the sheet's
# markers are printed alike and lie alike, a pattern taken for one (a die's pips) does not.
MARKER_SIDE_FIT = 1.5
MARKER_TURN_FIT = 25.0
CARD_ZONES = frozenset(range(1, 8))  # casinos 1-6 and the slot machine, as indices in ZONE_NAMES
SLOT_ZONE = 7


@dataclass(frozen=True)
class Zones:
    """Named convex polygons in frame pixels; polygons[i] has shape (k, 2), k >= 3.

    markers holds the corner quads (4, 2) of the ArUco markers seen, so that the reader does not
    take a printed marker for a die; labels the quads (4, 2) where the sheet prints a zone's
    name, so that the reader does not take the letters for doubtful dice.
    """

    names: tuple[str, ...]
    polygons: tuple[np.ndarray, ...]
    markers: tuple[np.ndarray, ...] = ()
    labels: tuple[np.ndarray, ...] = ()

    def __post_init__(self) -> None:
        if len(self.names) != len(self.polygons):
            raise ValueError(
                f"need one polygon per name, got {len(self.polygons)} for {len(self.names)} names"
            )
        for name, poly in zip(self.names, self.polygons, strict=True):
            if np.ndim(poly) != 2 or np.shape(poly)[1] != 2 or len(poly) < 3:
                raise ValueError(
                    f"zone {name} must have shape (k, 2) with k >= 3, got {np.shape(poly)}"
                )
        for what, quads in (("marker", self.markers), ("label", self.labels)):
            for quad in quads:
                if (
                    np.shape(quad) != (4, 2)
                    or abs(cv2.contourArea(np.asarray(quad, np.float32))) < 1e-3
                ):
                    raise ValueError(
                        f"a {what} must be a quad of shape (4, 2) with an area, "
                        f"got {np.shape(quad)}"
                    )

    def on_marker(self, boxes: np.ndarray) -> np.ndarray:
        """True for each box whose centre lies on a printed marker (or just around it)."""
        grown = [quad.mean(0) + (quad - quad.mean(0)) * 1.3 for quad in self.markers]
        return _centres_in(boxes, grown)

    def holds_markers(self, boxes: np.ndarray) -> np.ndarray:
        """True for each box that holds the centres of two printed markers or more: no die
        covers two markers, but two markers and the card between them can look like one."""
        boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
        if not self.markers:
            return np.zeros(len(boxes), bool)
        centres = np.array([quad.mean(0) for quad in self.markers], np.float32)
        inside = (
            (centres[None, :, 0] >= boxes[:, None, 0])
            & (centres[None, :, 0] <= boxes[:, None, 2])
            & (centres[None, :, 1] >= boxes[:, None, 1])
            & (centres[None, :, 1] <= boxes[:, None, 3])
        )
        return inside.sum(1) >= 2

    def on_label(self, boxes: np.ndarray) -> np.ndarray:
        """True for each box whose centre lies on a zone's printed name."""
        return _centres_in(boxes, self.labels)

    def zone_of(self, boxes: np.ndarray) -> np.ndarray:
        """Zone name (or None) of each box centre; the smallest zone that holds it wins."""
        boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
        centres = (boxes[:, :2] + boxes[:, 2:]) / 2
        order = sorted(
            range(len(self.names)),
            key=lambda i: abs(cv2.contourArea(self.polygons[i].astype(np.float32))),
        )
        out = np.full(len(boxes), None, object)
        for k, (x, y) in enumerate(centres):
            for i in order:
                poly = self.polygons[i].astype(np.float32)
                if cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0:
                    out[k] = self.names[i]
                    break
        return out


def _centres_in(boxes: np.ndarray, quads: Sequence[np.ndarray]) -> np.ndarray:
    """True for each box whose centre lies in (or on the edge of) any of the convex quads
    (4, 2): on the same side of each of a quad's four edges."""
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    if not len(boxes) or not len(quads):
        return np.zeros(len(boxes), bool)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    corners = np.stack([np.asarray(q, np.float32) for q in quads])  # (m, 4, 2)
    edges = np.roll(corners, -1, axis=1) - corners
    rel = centres[None, None] - corners[:, :, None]  # (m, 4, n, 2)
    cross = edges[:, :, None, 0] * rel[..., 1] - edges[:, :, None, 1] * rel[..., 0]
    inside = (cross >= 0).all(1) | (cross <= 0).all(1)  # (m, n)
    return np.asarray(inside.any(0))


def zones_from_corners(corners: Mapping[str, Sequence[Sequence[float]]]) -> Zones:
    """Zones from corners given by hand: {"arena": [(x, y), ...], "casino3": [...]}."""
    unknown = [n for n in corners if n not in ZONE_NAMES]
    if unknown:
        raise ValueError(f"unknown zone {unknown[0]!r}; zones are {', '.join(ZONE_NAMES)}")
    names = tuple(corners)
    return Zones(names, tuple(np.asarray(corners[n], np.float32) for n in names))


LARGEST_FRAME = (8192, 8192)
"""Width and height that tapped corners must lie within when there is no picture to measure."""

CORNERS_EXAMPLE = '{"arena": [[x, y], [x, y], [x, y], [x, y]]}'


class CornerError(ValueError):
    """Corners given by hand that are not points inside the picture; the message says which."""


def _is_number(value: object) -> bool:
    """Whether a JSON value is a finite number (true and false are not numbers)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def checked_corners(raw: object, size: tuple[int, int]) -> dict[str, list[list[float]]]:
    """Zone corners given by hand, each [x, y] a finite number inside a picture of `size`
    (width, height); a CornerError names the first one that is not."""
    if not isinstance(raw, dict) or not raw:
        raise CornerError(f"corners must be like {CORNERS_EXAMPLE}")
    width, height = size
    for zone, points in raw.items():
        if not isinstance(points, list) or not 3 <= len(points) <= 16:
            raise CornerError(f"corners of {zone}: 3-16 points like {CORNERS_EXAMPLE}")
        for point in points:
            if (
                not isinstance(point, list)
                or len(point) != 2
                or not all(_is_number(v) for v in point)
                or not (0 <= point[0] <= width and 0 <= point[1] <= height)
            ):
                raise CornerError(
                    f"corners of {zone}: each point is [x, y] inside the {width}x{height} "
                    f"picture, got {point!r:.60}"
                )
    return raw


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


def _detector() -> cv2.aruco.ArucoDetector:
    """An ArUco detector for the marker sheet's dictionary."""
    return cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(ARUCO_DICT), cv2.aruco.DetectorParameters()
    )


def detect_zones(frame_bgr: np.ndarray) -> Zones:
    """Zones found from the marker sheet's ArUco markers in a frame (empty if none): a zone
    with one marker hidden is completed as a parallelogram, a card (casino or slot machine)
    with two hidden from the nearest card seen whole (`_complete_cards`)."""
    gray = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    marker_corners, ids, _ = _detector().detectMarkers(gray)
    found: dict[int, dict[int, np.ndarray]] = {}
    seen = [c.reshape(4, 2).astype(np.float32) for c in marker_corners]
    seen_ids = [] if ids is None else [int(i) for i in ids.ravel()]
    plausible = _printed_alike(seen, seen_ids)
    quads = tuple(q for q, keep in zip(seen, plausible, strict=True) if keep)
    marker_ids = [i for i, keep in zip(seen_ids, plausible, strict=True) if keep]
    top_left: dict[int, np.ndarray] = {}
    for quad, i in zip(quads, marker_ids, strict=True):
        zone, corner = divmod(int(i), 4)
        if zone < len(ZONE_NAMES):
            found.setdefault(zone, {})[corner] = quad.mean(0)
            if corner == 0:
                top_left[zone] = quad
    for pts in found.values():
        if len(pts) == 3:  # one marker hidden (a die on it): complete the parallelogram
            missing = ({0, 1, 2, 3} - set(pts)).pop()
            pts[missing] = pts[(missing + 1) % 4] + pts[(missing + 3) % 4] - pts[(missing + 2) % 4]
    _complete_cards(found, top_left)
    names, polys, labels = [], [], []
    for zone, pts in sorted(found.items()):
        if len(pts) < 4:
            continue
        names.append(ZONE_NAMES[zone])
        polys.append(np.array([pts[k] for k in range(4)], np.float32))
        if zone in top_left and _on_one_page_sheet(ZONE_NAMES[zone], polys[-1], top_left[zone]):
            labels.append(label_quad(ZONE_NAMES[zone], top_left[zone]))
    return Zones(tuple(names), tuple(polys), quads, tuple(labels))


def _printed_alike(quads: list[np.ndarray], ids: list[int]) -> list[bool]:
    """Which detected markers (quads (4, 2) with their ids) are the sheet's: printed alike, so
    of much the same side as the others (within MARKER_SIDE_FIT) and turned as the other
    markers of their zone (as all markers where their zone shows fewer than three), within
    MARKER_TURN_FIT degrees. A die's pips or a pattern can pass for a marker now and then,
    smaller and turned otherwise: taken for a card's corner, it would bend the card across the
    row, and the die under it would go unread. Of two markers with one id, the one printed
    more alike is kept. Fewer than three markers in all are kept as they are."""
    if len(quads) < 3:
        return [True] * len(quads)
    sides = np.array([np.linalg.norm(q - np.roll(q, 1, 0), axis=1).mean() for q in quads])
    turns = np.array([np.arctan2(q[1, 1] - q[0, 1], q[1, 0] - q[0, 0]) for q in quads])
    typical_side = float(np.median(sides))
    zones = [i // 4 for i in ids]
    misfit = np.zeros(len(quads))
    for k in range(len(quads)):
        same_zone = [j for j in range(len(quads)) if j != k and zones[j] == zones[k]]
        others = same_zone if len(same_zone) >= 2 else [j for j in range(len(quads)) if j != k]
        typical_turn = np.angle(np.exp(1j * turns[others]).sum())
        turn = abs(np.degrees(np.angle(np.exp(1j * (turns[k] - typical_turn)))))
        size = max(sides[k] / typical_side, typical_side / max(sides[k], 1e-6))
        misfit[k] = np.inf if turn > MARKER_TURN_FIT or size > MARKER_SIDE_FIT else turn
    keep = np.isfinite(misfit)
    for k in range(len(quads)):  # one id twice: the better fit stays
        for j in range(k):
            if keep[k] and keep[j] and ids[j] == ids[k]:
                drop = k if misfit[k] > misfit[j] else j
                keep[drop] = False
    return [bool(v) for v in keep]


def _complete_cards(
    found: dict[int, dict[int, np.ndarray]], top_left: Mapping[int, np.ndarray]
) -> None:
    """Complete, in place, a card zone (casinos 1-6, the slot machine) of which only two
    markers are seen (a note's edge over the others) from the nearest card seen whole: the
    cards are alike in size, so its corners carried by the turn and scale that take the
    nearest card's two matching corners onto the two seen. On the one-page sheet, where the
    slot machine's zone is no casino's shape, casinos are completed from casinos alone, and
    the slot machine not at all."""
    whole = {z: p for z, p in found.items() if len(p) == 4 and z in CARD_ZONES}
    for zone, pts in found.items():
        if len(pts) != 2 or zone not in CARD_ZONES:
            continue
        (a, pa), (b, pb) = sorted(pts.items())
        middle = (pa + pb) / 2
        for ref in sorted(whole, key=lambda z: float(np.linalg.norm(whole[z][a] - middle))):
            on_sheet = ref in top_left and _on_one_page_sheet(
                ZONE_NAMES[ref], np.array([whole[ref][k] for k in range(4)]), top_left[ref]
            )
            if on_sheet and SLOT_ZONE in (zone, ref):
                continue
            ra, rb = whole[ref][a], whole[ref][b]
            turn = complex(*(pb - pa)) / complex(*(rb - ra))
            if not 1 / CARD_SCALE_FIT <= abs(turn) <= CARD_SCALE_FIT:
                continue  # the two seen lie at another distance than the card's corners
            for k in {0, 1, 2, 3} - set(pts):
                carried = complex(*pa) + turn * complex(*(whole[ref][k] - ra))
                pts[k] = np.array([carried.real, carried.imag], np.float32)
            break


def _on_one_page_sheet(zone: str, polygon: np.ndarray, marker_quad: np.ndarray) -> bool:
    """Whether a zone (its polygon through the markers' centres and its top-left marker's
    corners) has the one-page sheet's shape rather than a zone page's: see SHEET_WIDTH_FIT."""
    side = float(np.mean(np.linalg.norm(marker_quad - np.roll(marker_quad, 1, 0), axis=1)))
    width = float(np.linalg.norm(polygon[1] - polygon[0])) / max(side, 1e-6)
    poly = zone_layout(3508, 2480)[zone]  # the A4 sheet at 300 DPI, markers of 120 px
    expected = (float(poly[1, 0] - poly[0, 0]) - 1.2 * 120) / 120
    return abs(width / expected - 1) <= SHEET_WIDTH_FIT


def _label_font(marker_px: float) -> tuple[float, int]:
    """Font scale and stroke of the sheet's zone names for markers of this side in pixels."""
    return LABEL_SCALE_PER_MARKER_PX * marker_px, max(1, round(marker_px / 30))


def sheet_label(zone: str) -> str:
    """What the one-page sheet prints for a zone: its name, or a casino's number."""
    return zone.removeprefix("casino")


def label_quad(zone: str, marker_quad: np.ndarray) -> np.ndarray:
    """Where the one-page sheet prints the zone's name (4, 2), from its top-left marker's corners
    (4, 2) as ArUco gives them: on the page's plane, in marker sides from the marker."""
    scale, thick = _label_font(120)
    (width, height), below = cv2.getTextSize(sheet_label(zone), LABEL_FONT, scale, thick)
    x0, y0 = LABEL_ORIGIN
    left, right = x0 - LABEL_PAD, x0 + width / 120 + LABEL_PAD
    top, bottom = y0 - height / 120 - LABEL_PAD, y0 + below / 120 + LABEL_PAD
    q = np.asarray(marker_quad, np.float32)
    along, down = q[1] - q[0], q[3] - q[0]
    return np.array(
        [
            q[0] + u * along + v * down
            for u, v in ((left, top), (right, top), (right, bottom), (left, bottom))
        ],
        np.float32,
    )


def zone_layout(width: int, height: int) -> dict[str, np.ndarray]:
    """Where the marker sheet puts each zone: casinos in a top row, arena below, slot beside it."""
    m = 0.04 * width
    cw = (width - 7 * m) / 6
    ch = 0.3 * height
    layout = {
        f"casino{i + 1}": np.array(
            [
                [m + i * (cw + m), m],
                [m + i * (cw + m) + cw, m],
                [m + i * (cw + m) + cw, m + ch],
                [m + i * (cw + m), m + ch],
            ],
            np.float32,
        )
        for i in range(6)
    }
    top = 2 * m + ch
    aw = 0.72 * width
    layout["arena"] = np.array(
        [[m, top], [m + aw, top], [m + aw, height - m], [m, height - m]], np.float32
    )
    layout["slot"] = np.array(
        [[2 * m + aw, top], [width - m, top], [width - m, height - m], [2 * m + aw, height - m]],
        np.float32,
    )
    return layout


def marker_sheet(width: int = 3508, height: int = 2480, marker_px: int = 120) -> np.ndarray:
    """A printable sheet (grey image) with the zones outlined and an ArUco marker at each corner."""
    sheet = np.full((height, width), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    for name, poly in zone_layout(width, height).items():
        z = ZONE_NAMES.index(name)
        cv2.polylines(sheet, [poly.astype(np.int32)], True, 160, 4)
        # The marker's top-left corner is 0.1 side inside the zone's (see below).
        label_at = (
            int(poly[0, 0] + marker_px * (0.1 + LABEL_ORIGIN[0])),
            int(poly[0, 1] + marker_px * (0.1 + LABEL_ORIGIN[1])),
        )
        scale, thick = _label_font(marker_px)
        cv2.putText(sheet, sheet_label(name), label_at, LABEL_FONT, scale, 120, thick, cv2.LINE_AA)
        for corner in range(4):
            img = cv2.aruco.generateImageMarker(dictionary, 4 * z + corner, marker_px)
            # The marker's centre is the zone's corner, pulled inward so it stays on the sheet.
            cx, cy = poly[corner]
            inward = poly.mean(0) - poly[corner]
            cx, cy = np.array([cx, cy]) + np.sign(inward) * marker_px * 0.6
            x0, y0 = int(cx - marker_px / 2), int(cy - marker_px / 2)
            sheet[y0 : y0 + marker_px, x0 : x0 + marker_px] = img
    return sheet
