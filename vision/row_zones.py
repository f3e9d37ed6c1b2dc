"""The casinos' zones on the row: which zone is which casino (7: the slot machine), each
zone's polygon, and where a printed marker lies hidden under a die or a note.
"""

from __future__ import annotations

import numpy as np

from vision.zones import Zones

SLOT_MACHINE = 7


CASINO_NUMBERS = {f"casino{n}": n for n in range(1, 7)} | {"slot": SLOT_MACHINE}
"""The zone names of the casinos and the casino number each stands for (7: the slot machine)."""


MARKER_SEEN = 0.5
"""A card zone's corner is a marker seen where a marker found lies this many of its sides from
it or nearer; else the marker printed there is hidden (a note's edge or a die over it) and the
zone was completed from the markers seen (`vision.zones.detect_zones`)."""


def casino_zones(zones: Zones) -> dict[int, np.ndarray]:
    """Each casino's polygon (k, 2) by number, from zones that may hold the arena too."""
    return {
        CASINO_NUMBERS[name]: np.asarray(poly, np.float32)
        for name, poly in zip(zones.names, zones.polygons, strict=True)
        if name in CASINO_NUMBERS
    }


def hidden_markers(zones: Zones) -> tuple[np.ndarray, ...]:
    """A quad (4, 2) where each casino zone's corner lies with no marker seen there (MARKER_SEEN),
    of the size and turn of the marker seen nearest: the printed marker, hidden in part."""
    if not zones.markers:
        return ()
    centres = np.array([quad.mean(0) for quad in zones.markers], np.float32)
    sides = np.array(
        [np.linalg.norm(quad - np.roll(quad, 1, 0), axis=1).mean() for quad in zones.markers]
    )
    hidden = []
    for polygon in casino_zones(zones).values():
        for corner in polygon:
            far = np.linalg.norm(centres - corner, axis=1)
            nearest = int(np.argmin(far))
            if far[nearest] > MARKER_SEEN * sides[nearest]:
                quad = zones.markers[nearest]
                hidden.append((quad - quad.mean(0) + corner).astype(np.float32))
    return tuple(hidden)


def on_hidden_marker(zones: Zones, boxes: np.ndarray) -> np.ndarray:
    """Whether each box (n, 4) is centred on a printed marker hidden in part
    (`hidden_markers`): a marker's part that shows may be taken for a die there. None is
    where every casino's corner shows its marker."""
    hidden = hidden_markers(zones)
    if not hidden:
        return np.zeros(len(boxes), bool)
    return Zones((), (), hidden).on_marker(boxes)
