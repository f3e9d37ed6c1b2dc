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


def _covered(photo: np.ndarray, zones, zone: str, corners: tuple[int, ...]) -> np.ndarray:
    """The photo with the markers at these corners of a zone painted over (a note on them)."""
    covered = photo.copy()
    for k in corners:
        x, y = zones.polygons[zones.names.index(zone)][k]
        cv2.circle(covered, (int(x), int(y)), 30, (160, 190, 150), -1)
    return covered


@pytest.mark.parametrize("corners", [(0, 1), (1, 2), (0, 2)], ids=["top", "right", "diagonal"])
def test_a_casino_seen_by_two_markers_is_completed_from_the_next_casino(
    sheet_photo, corners
) -> None:
    photo, _ = sheet_photo
    whole = detect_zones(photo)
    zones = detect_zones(_covered(photo, whole, "casino3", corners))
    assert len(zones.markers) == len(whole.markers) - 2
    got = zones.polygons[zones.names.index("casino3")]
    assert np.abs(got - whole.polygons[whole.names.index("casino3")]).max() < 4


def test_the_sheets_slot_machine_is_not_completed_from_a_casino(sheet_photo) -> None:
    # On the one-page sheet the slot machine's zone has no casino's shape.
    photo, _ = sheet_photo
    whole = detect_zones(photo)
    zones = detect_zones(_covered(photo, whole, "slot", (0, 1)))
    assert "slot" not in zones.names and "casino6" in zones.names


def test_the_slot_machines_card_seen_by_two_markers_is_completed_from_a_casino_card() -> None:
    # Casino cards and the slot machine's card are alike in size.
    from vision.sim_casinos import row_scene

    scene = row_scene({}, {}, seed=1)
    zones = detect_zones(_covered(scene.frame, scene.zones, "slot", (0, 3)))
    assert len(zones.markers) == 7 * 4 - 2
    got = zones.polygons[zones.names.index("slot")]
    assert np.abs(got - scene.zones.polygons[scene.zones.names.index("slot")]).max() < 3


def test_the_printed_zone_names_lie_in_their_label_quads(sheet_photo) -> None:
    photo, m = sheet_photo
    zones = detect_zones(photo)
    assert len(zones.labels) == 8  # one per zone: right of its top-left marker
    sheet = marker_sheet()
    ys, xs = np.nonzero(
        (sheet >= 100) & (sheet <= 140)
    )  # the names' ink (markers are 0, lines 160)
    scale = 1280 / sheet.shape[1]
    ink = np.c_[xs * scale, ys * scale, np.ones(len(xs))] @ m.T
    points = np.c_[ink, ink]  # zero-size boxes at the ink's pixels
    on_label = zones.on_label(points)
    assert on_label.mean() > 0.995
    # ... and little besides: the quads hold no marker and cover little of any zone.
    assert not zones.on_label(np.array([[*q.mean(0), *q.mean(0)] for q in zones.markers])).any()
    for name, poly in zip(zones.names, zones.polygons, strict=True):
        inside = [
            q
            for q in zones.labels
            if cv2.pointPolygonTest(poly, tuple(map(float, q.mean(0))), False) >= 0
        ]
        area = sum(cv2.contourArea(q) for q in inside)
        assert area < 0.5 * cv2.contourArea(poly), name


@pytest.mark.parametrize("zone", ["arena", "casino3", "slot"])
def test_the_zone_pages_print_no_name_by_their_top_left_marker(zone) -> None:
    from vision.markers import zone_page

    page = zone_page(zone).image
    frame = cv2.resize(
        page, (1280, 1280 * page.shape[0] // page.shape[1]), interpolation=cv2.INTER_AREA
    )
    zones = detect_zones(cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR))
    assert zones.names == (zone,) and zones.labels == ()


def test_centres_on_markers_are_found_as_opencv_finds_them() -> None:
    from vision.zones import Zones

    rng = np.random.default_rng(0)
    for _ in range(50):
        centre, side, turn = rng.uniform(50, 500, 2), rng.uniform(5, 80), rng.uniform(0, 6.3)
        square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32) * side / 2
        spin = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        quad = (square @ spin.T * rng.uniform(0.7, 1.3, 2) + centre).astype(np.float32)
        points = rng.uniform(0, 560, (200, 2)).astype(np.float32)
        zones = Zones((), (), (), (quad,))
        expected = [cv2.pointPolygonTest(quad, (float(x), float(y)), False) >= 0 for x, y in points]
        assert list(zones.on_label(np.c_[points - 3, points + 3])) == expected


def test_a_box_over_two_markers_is_told_apart_from_a_die_beside_one() -> None:
    from vision.zones import Zones

    square = np.array([[0, 0], [20, 0], [20, 20], [0, 20]], np.float32)
    markers = (square + [100, 100], square + [200, 100], square + [100, 300])
    zones = Zones((), (), markers)
    boxes = np.array(
        [
            [90, 90, 230, 130],  # the card's top edge: two markers' centres
            [90, 90, 130, 320],  # its left edge: two more
            [125, 100, 170, 140],  # a die beside a marker, over its edge
            [60, 60, 300, 400],  # the whole card
        ],
        np.float32,
    )
    assert list(zones.holds_markers(boxes)) == [True, True, False, True]
    assert not Zones((), ()).holds_markers(boxes).any()


def test_a_marker_or_label_must_be_a_quad() -> None:
    from vision.zones import Zones

    with pytest.raises(ValueError, match="label must be a quad"):
        Zones((), (), (), (np.zeros((4, 2), np.float32),))
    with pytest.raises(ValueError, match="marker must be a quad"):
        Zones((), (), (np.zeros((3, 2), np.float32),))


def test_hand_corners_print_no_names() -> None:
    zones = zones_from_corners({"arena": [(0, 0), (640, 0), (640, 480), (0, 480)]})
    assert zones.labels == () and not zones.on_label(np.array([[300, 200, 340, 240]])).any()


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


@pytest.mark.parametrize("turn", [110.0, 0.0], ids=["turned", "small"])
def test_a_pattern_taken_for_a_marker_bends_no_card(sheet_photo, turn) -> None:
    """A die's pips can pass for a marker: here a copy of casino 4's top-right marker, smaller
    (and turned), on casino 1. It is no corner of casino 4, and no marker over casino 1."""
    from vision.zones import ARUCO_DICT

    photo, _ = sheet_photo
    whole = detect_zones(photo)
    fake = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(ARUCO_DICT), 17, 60)
    fake = cv2.copyMakeBorder(fake, 10, 10, 10, 10, cv2.BORDER_CONSTANT, value=255)
    side = 24 if turn else 14  # the sheet's markers are about 27 px here
    fake = cv2.resize(fake, (side + 8, side + 8), interpolation=cv2.INTER_AREA)
    m = cv2.getRotationMatrix2D(((side + 8) / 2, (side + 8) / 2), turn, 1.0)
    fake = cv2.warpAffine(fake, m, (side + 8, side + 8), borderValue=255)
    x, y = whole.polygons[whole.names.index("casino1")].mean(0).astype(int)
    spoilt = photo.copy()
    spoilt[y : y + side + 8, x : x + side + 8] = cv2.cvtColor(fake, cv2.COLOR_GRAY2BGR)
    zones = detect_zones(spoilt)
    assert zones.names == whole.names
    for before, after in zip(whole.polygons, zones.polygons, strict=True):
        assert np.abs(before - after).max() < 2
    assert len(zones.markers) == len(whole.markers)
