"""`lasvegas markers`: printable sheets at true size that the reader finds in a camera's view."""

from __future__ import annotations

import argparse
import re
import struct
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.markers import CARD_MM, MM_PER_INCH, _zone_quad
from vision.markers_cli import register
from vision.zones import ZONE_NAMES, detect_zones

FELT = (38, 82, 30)  # a green table under the paper


def lasvegas(argv: list[str]) -> int:
    """Run `lasvegas markers ...` through its own parser."""
    parser = argparse.ArgumentParser(prog="lasvegas")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.handler(args)


def camera_view(
    flat: np.ndarray, size: tuple[int, int], seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """A flat grey page or table as a cheap camera sees it: tilted, small, blurred, noisy, JPEG.

    Returns the BGR frame and the homography from flat pixels to frame pixels.
    """
    rng = np.random.default_rng(seed)
    w, h = size
    fh, fw = flat.shape[:2]
    scale = min(0.92 * w / fw, 0.92 * h / fh)
    cx, cy = w / 2, h / 2
    hw, hh = fw * scale / 2, fh * scale / 2
    # A camera a little off-centre: one side of the sheet nearer than the other.
    dst = np.array(
        [
            [cx - hw, cy - hh],
            [cx + hw * 0.97, cy - hh * 0.96],
            [cx + hw * 0.99, cy + hh * 0.99],
            [cx - hw * 0.96, cy + hh],
        ],
        np.float32,
    )
    dst += rng.uniform(-4, 4, dst.shape).astype(np.float32)
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    homography = cv2.getPerspectiveTransform(src, dst)
    colour = flat if flat.ndim == 3 else cv2.cvtColor(flat, cv2.COLOR_GRAY2BGR)
    view = cv2.warpPerspective(
        colour, homography, (w, h), flags=cv2.INTER_AREA, borderValue=FELT
    ).astype(np.float32)
    # Warm light, brighter in one corner; a lens that is not quite sharp; sensor noise.
    xx, yy = np.meshgrid(np.linspace(-1, 1, w), np.linspace(-1, 1, h))
    view *= (0.85 + 0.1 * xx - 0.08 * yy)[..., None] * np.array([0.9, 1.0, 1.08])
    view = cv2.GaussianBlur(view, (0, 0), 0.8) + rng.normal(0, 4, view.shape)
    ok, jpg = cv2.imencode(
        ".jpg", np.clip(view, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 75]
    )
    assert ok
    return cv2.imdecode(jpg, cv2.IMREAD_COLOR), homography


def warp_points(homography: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Points (n, 2) through a homography."""
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float32), homography)[:, 0]


def assert_zones_match(flat: np.ndarray, frame: np.ndarray, homography: np.ndarray) -> None:
    """Every zone is found in the frame where the flat original's zone lands (within 3 px)."""
    truth = detect_zones(cv2.cvtColor(flat, cv2.COLOR_GRAY2BGR) if flat.ndim == 2 else flat)
    seen = detect_zones(frame)
    assert sorted(truth.names) == sorted(ZONE_NAMES)
    assert sorted(seen.names) == sorted(ZONE_NAMES)
    for name, poly in zip(truth.names, truth.polygons, strict=True):
        expected = warp_points(homography, poly)
        got = seen.polygons[seen.names.index(name)]
        assert np.abs(got - expected).max() < 3, name


def png_dpi(data: bytes) -> float:
    """DPI from a PNG's pHYs chunk."""
    at = data.index(b"pHYs")
    ppm_x, ppm_y, unit = struct.unpack(">IIB", data[at + 4 : at + 13])
    assert unit == 1 and ppm_x == ppm_y
    return ppm_x * MM_PER_INCH / 1000


@pytest.mark.parametrize(
    ("size", "pixels"),
    [
        ("a4", (3508, 2480)),  # 297 x 210 mm at 300 DPI, landscape
        ("letter", (3300, 2550)),  # 11 x 8.5 in at 300 DPI, landscape
    ],
)
def test_png_sheet_has_paper_size_and_dpi(tmp_path: Path, capsys, size, pixels) -> None:
    out = tmp_path / "markers.png"
    assert lasvegas(["markers", "--out", str(out), "--size", size]) == 0
    sheet = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    assert (sheet.shape[1], sheet.shape[0]) == pixels
    assert png_dpi(out.read_bytes()) == pytest.approx(300, abs=0.1)
    said = capsys.readouterr().out
    assert "Marker side: 10.2 mm" in said
    # The marker really is that size on paper: its side in pixels at 300 DPI.
    corners, ids, _ = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    ).detectMarkers(sheet)
    assert sorted(ids.ravel()) == list(range(4 * len(ZONE_NAMES)))
    side_px = np.mean([np.linalg.norm(c[0, 1] - c[0, 0]) for c in corners])
    assert side_px / 300 * MM_PER_INCH == pytest.approx(10.16, abs=0.2)


def pdf_objects(data: bytes) -> dict[int, bytes]:
    """Object number to body, checked against the cross-reference table's offsets."""
    xref_at = int(re.search(rb"startxref\s+(\d+)\s+%%EOF\s*$", data).group(1))
    assert data[xref_at : xref_at + 4] == b"xref"
    count = int(re.match(rb"xref\s+0 (\d+)", data[xref_at:]).group(1))
    rows = data[xref_at:].split(b"\n")[2 : 2 + count]
    assert rows[0].startswith(b"0000000000 65535 f")
    objects = {}
    for number, row in enumerate(rows[1:], 1):
        offset = int(row[:10])
        head = f"{number} 0 obj".encode()
        assert data[offset : offset + len(head)] == head, f"xref offset of object {number} is wrong"
        objects[number] = data[offset + len(head) : data.index(b"endobj", offset)]
    return objects


@pytest.mark.parametrize(
    ("size", "layout", "media_box", "page_count"),
    [
        ("a4", "sheet", "0 0 841.89 595.28", 1),  # A4 landscape in points
        ("letter", "sheet", "0 0 792.00 612.00", 1),  # US Letter landscape
        ("a4", "zones", "0 0 841.89 595.28", len(ZONE_NAMES)),  # one page per zone
    ],
)
def test_pdf_is_valid_at_true_size(tmp_path: Path, size, layout, media_box, page_count) -> None:
    out = tmp_path / "markers.pdf"
    assert lasvegas(["markers", "--out", str(out), "--size", size, "--layout", layout]) == 0
    data = out.read_bytes()
    assert data.startswith(b"%PDF-1.4\n") and data.rstrip().endswith(b"%%EOF")
    objects = pdf_objects(data)
    page_objects = [o for o in objects.values() if b"/Type /Page " in o]
    assert len(page_objects) == page_count
    assert all(f"/MediaBox [{media_box}]".encode() in o for o in page_objects)
    assert f"/Count {page_count}".encode() in objects[2]
    # The first page's image is the sheet at 300 DPI, and the reader finds its markers.
    image = next(o for o in objects.values() if b"/Subtype /Image" in o)
    length = int(re.search(rb"/Length (\d+)", image).group(1))
    start = image.index(b"stream\n") + len(b"stream\n")
    page = cv2.imdecode(np.frombuffer(image[start : start + length], np.uint8), cv2.IMREAD_COLOR)
    width_in = float(media_box.split()[2]) / 72
    assert page.shape[1] / width_in == pytest.approx(300, abs=0.5)
    found = detect_zones(page).names
    assert found == (tuple(ZONE_NAMES) if layout == "sheet" else ("arena",))


@pytest.mark.parametrize(
    "frame_size",
    [
        (640, 480),  # the sheet layout's camera: the whole sheet in a VGA frame
        (1280, 720),  # the service's default camera size
    ],
)
def test_sheet_found_in_camera_view(tmp_path: Path, frame_size) -> None:
    out = tmp_path / "markers.png"
    assert lasvegas(["markers", "--out", str(out)]) == 0
    flat = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    # Scale the flat sheet first so that the 3 px tolerance means the same at either size.
    flat = cv2.resize(flat, (1400, 990), interpolation=cv2.INTER_AREA)
    frame, homography = camera_view(flat, frame_size)
    assert_zones_match(flat, frame, homography)


def test_zone_cards_in_a_ring_found_at_1280x720(tmp_path: Path) -> None:
    out = tmp_path / "markers.png"
    assert lasvegas(["markers", "--out", str(out), "--layout", "zones"]) == 0
    px_mm = 4.0  # the table drawn at 4 px per mm
    dpi_scale = px_mm / (300 / MM_PER_INCH)
    table = np.full((int(400 * px_mm), int(700 * px_mm)), 70, np.uint8)

    def lay(zone: str, x_mm: float, y_mm: float) -> None:
        page = cv2.imread(str(tmp_path / f"markers-{zone}.png"), cv2.IMREAD_GRAYSCALE)
        if zone != "arena":  # cut out along the dashed line
            (x0, y0), (x1, y1) = _zone_quad(zone, (297.0, 210.0), 300)[[0, 2]].astype(int)
            page = page[y0:y1, x0:x1]
        page = cv2.resize(page, None, fx=dpi_scale, fy=dpi_scale, interpolation=cv2.INTER_AREA)
        x, y = int(x_mm * px_mm), int(y_mm * px_mm)
        table[y : y + page.shape[0], x : x + page.shape[1]] = page

    # The README's ring: casinos 1-3 left of the arena, 4-6 right, the slot machine below it.
    card_w, card_h = CARD_MM
    lay("arena", 20 + card_w + 10, 20)
    for i in range(3):
        lay(f"casino{i + 1}", 20, 20 + i * (card_h + 10))
        lay(f"casino{i + 4}", 20 + card_w + 10 + 297 + 10, 20 + i * (card_h + 10))
    lay("slot", 20 + card_w + 10 + (297 - card_w) / 2, 20 + 210 + 10)
    frame, homography = camera_view(table, (1280, 720), seed=3)
    assert_zones_match(table, frame, homography)


@pytest.mark.parametrize(
    "name",
    [
        "markers.jpg",  # an image type the sheet is not written as
        "markers",  # no extension at all
        "markers.pdf.txt",  # only the last suffix counts
    ],
)
def test_bad_out_extension_is_refused(tmp_path: Path, capsys, name) -> None:
    with pytest.raises(SystemExit) as stop:
        lasvegas(["markers", "--out", str(tmp_path / name)])
    assert stop.value.code == 2
    assert "argument --out: must end in .png or .pdf" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_unwritable_out_is_a_clear_error(tmp_path: Path, capsys) -> None:
    out = tmp_path / "no-such-folder" / "markers.pdf"
    assert lasvegas(["markers", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("lasvegas markers: ") and "no-such-folder" in err
