"""Zones come from a printed ArUco marker sheet or from corners given by hand."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.zones import detect_zones, marker_sheet, zone_layout, zones_from_corners


@pytest.fixture(scope="module")
def sheet_photo() -> np.ndarray:
    """The marker sheet as a camera would see it: small, slightly rotated, in colour."""
    sheet = cv2.resize(marker_sheet(), (1280, 905), interpolation=cv2.INTER_AREA)
    m = cv2.getRotationMatrix2D((640, 452), 4.0, 0.95)
    photo = cv2.warpAffine(sheet, m, (1280, 905), borderValue=90)
    return cv2.cvtColor(photo, cv2.COLOR_GRAY2BGR), m


def test_sheet_markers_give_every_zone(sheet_photo) -> None:
    photo, m = sheet_photo
    zones = detect_zones(photo)
    assert set(zones.names) == {"arena", "slot"} | {f"casino{i}" for i in range(1, 7)}
    layout = zone_layout(1280, 905)
    centres = {n: (np.c_[p, np.ones(4)] @ m.T).mean(0) for n, p in layout.items()}
    boxes = np.array([[x - 5, y - 5, x + 5, y + 5] for x, y in centres.values()])
    assert list(zones.zone_of(boxes)) == list(centres)


def test_hidden_marker_is_completed(sheet_photo) -> None:
    photo, _ = sheet_photo
    zones_all = detect_zones(photo)
    i = zones_all.names.index("casino3")
    x, y = zones_all.polygons[i][0]
    covered = photo.copy()
    cv2.circle(covered, (int(x), int(y)), 30, (255, 255, 255), -1)  # a die on the marker
    zones = detect_zones(covered)
    j = zones.names.index("casino3")
    assert np.abs(zones.polygons[j] - zones_all.polygons[i]).max() < 4


@pytest.mark.parametrize(
    ("centre", "zone"),
    [
        ((50, 50), "casino1"),  # inside the small casino square
        ((300, 300), "arena"),  # in the arena only
        ((900, 900), None),  # outside every zone
    ],
)
def test_hand_corners(centre, zone) -> None:
    zones = zones_from_corners(
        {
            "arena": [(0, 0), (640, 0), (640, 480), (0, 480)],
            "casino1": [(20, 20), (100, 20), (100, 100), (20, 100)],
        }
    )
    x, y = centre
    assert zones.zone_of(np.array([[x - 3, y - 3, x + 3, y + 3]]))[0] == zone


def test_unknown_zone_name_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown zone 'casino9'"):
        zones_from_corners({"casino9": [(0, 0), (1, 0), (1, 1)]})
