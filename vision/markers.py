"""Printable marker sheets for the zones (`lasvegas markers`): PNG with its DPI, or PDF at true size.

Two layouts, both read by `vision.zones.detect_zones` (marker id = 4 * zone + corner):

- ``sheet``: every zone on one page, as `vision.zones.marker_sheet` draws it. Small casinos;
  right for a 640x480 camera, which cannot read dice over a larger area.
- ``zones``: one page per zone. The arena fills its page; each casino and the slot machine is a
  card of A6 size (148 x 105 mm) to cut out and lay in a ring around the arena. Needs 1280x720.
"""

from __future__ import annotations

import argparse
import struct
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.zones import ARUCO_DICT, ZONE_NAMES, marker_sheet

MM_PER_INCH = 25.4
PAPER_MM = {"a4": (297.0, 210.0), "letter": (279.4, 215.9)}  # landscape: width, height
SHEET_MARKER_MM = 120 / 300 * MM_PER_INCH  # marker_sheet's 120 px at 300 DPI: 10.16 mm
ZONE_MARKER_MM = 20.0  # on the zone pages: readable as far away as a die is
CARD_MM = (148.0, 105.0)  # a casino or slot machine card (A6 landscape)
PAGE_MARGIN_MM = 12.0  # clear of every printer's unprintable border
LAYOUTS = ("sheet", "zones")
OUT_SUFFIXES = (".png", ".pdf")


@dataclass(frozen=True)
class Page:
    """One printable page: grey image (h, w) uint8, its paper size in mm, its DPI, what it shows."""

    title: str
    image: np.ndarray
    size_mm: tuple[float, float]
    dpi: int
    marker_mm: float

    def __post_init__(self) -> None:
        if self.image.ndim != 2 or self.image.dtype != np.uint8:
            raise ValueError(
                f"image must be grey uint8 (h, w), got {self.image.dtype} {self.image.shape}"
            )


def _px(mm: float, dpi: int) -> int:
    return round(mm / MM_PER_INCH * dpi)


def _paper(paper: str, dpi: int) -> tuple[tuple[float, float], int, int]:
    """Paper size in mm and in pixels at this DPI."""
    if paper not in PAPER_MM:
        raise ValueError(f"paper must be one of {', '.join(PAPER_MM)}, got {paper!r}")
    if not 72 <= dpi <= 1200:
        raise ValueError(f"dpi must be 72-1200, got {dpi}")
    w_mm, h_mm = PAPER_MM[paper]
    return (w_mm, h_mm), _px(w_mm, dpi), _px(h_mm, dpi)


def sheet_page(paper: str = "a4", dpi: int = 300) -> Page:
    """Every zone on one page: vision.zones.marker_sheet at this paper size and DPI."""
    size_mm, w, h = _paper(paper, dpi)
    marker_px = _px(SHEET_MARKER_MM, dpi)
    return Page(
        "all zones", marker_sheet(w, h, marker_px), size_mm, dpi, marker_side_mm("sheet", dpi)
    )


def _zone_quad(zone: str, size_mm: tuple[float, float], dpi: int) -> np.ndarray:
    """The zone's outer rectangle (4, 2) in page pixels: corners 0 TL, 1 TR, 2 BR, 3 BL."""
    w_mm, h_mm = size_mm
    if zone == "arena":
        x0, y0, x1, y1 = (
            PAGE_MARGIN_MM,
            PAGE_MARGIN_MM,
            w_mm - PAGE_MARGIN_MM,
            h_mm - PAGE_MARGIN_MM,
        )
    else:
        x0, y0 = (w_mm - CARD_MM[0]) / 2, (h_mm - CARD_MM[1]) / 2
        x1, y1 = x0 + CARD_MM[0], y0 + CARD_MM[1]
    mm = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    return mm / MM_PER_INCH * dpi


def zone_page(zone: str, paper: str = "a4", dpi: int = 300) -> Page:
    """One zone on its own page: a marker at each corner, the zone's line through their centres."""
    if zone not in ZONE_NAMES:
        raise ValueError(f"unknown zone {zone!r}; zones are {', '.join(ZONE_NAMES)}")
    size_mm, w, h = _paper(paper, dpi)
    page = np.full((h, w), 255, np.uint8)
    outer = _zone_quad(zone, size_mm, dpi)
    side = _px(ZONE_MARKER_MM, dpi)
    # A white border of 0.2 side around each marker: the detector needs it to find the marker.
    inset = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], np.float32) * side * 0.7
    centres = outer + inset
    z = ZONE_NAMES.index(zone)
    if zone != "arena":
        _dashed(page, outer, _px(3, dpi), max(1, _px(0.3, dpi)))  # cut line
    cv2.polylines(
        page, [np.round(centres).astype(np.int32)], True, 150, max(2, _px(0.8, dpi)), cv2.LINE_AA
    )
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    for corner, (cx, cy) in enumerate(centres):
        img = cv2.aruco.generateImageMarker(dictionary, 4 * z + corner, side)
        x0, y0 = round(cx - side / 2), round(cy - side / 2)
        page[y0 : y0 + side, x0 : x0 + side] = img
    label = zone.replace("casino", "casino ").replace("slot", "slot machine")
    _text(page, label, centres.mean(0), dpi / 300 * 2.6, 110)
    note = "cut along the dashed line" if zone != "arena" else "throw the dice inside the line"
    _text(page, note, centres.mean(0) + (0, _px(14, dpi)), dpi / 300 * 1.5, 140)
    return Page(zone, page, size_mm, dpi, marker_side_mm("zones", dpi))


def _text(img: np.ndarray, text: str, centre: np.ndarray, scale: float, grey: int) -> None:
    """Text centred on a point."""
    thick = max(1, round(scale * 2))
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    org = (int(centre[0] - tw / 2), int(centre[1] + th / 2))
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, grey, thick, cv2.LINE_AA)


def _dashed(img: np.ndarray, quad: np.ndarray, dash: int, thick: int) -> None:
    """A dashed closed line through the quad's corners."""
    for a, b in zip(quad, np.roll(quad, -1, 0), strict=True):
        n = max(1, int(np.linalg.norm(b - a) / (2 * dash)))
        for k in range(n):
            p = a + (b - a) * (2 * k) / (2 * n)
            q = a + (b - a) * (2 * k + 1) / (2 * n)
            cv2.line(img, (int(p[0]), int(p[1])), (int(q[0]), int(q[1])), 170, thick)


def pages(layout: str = "sheet", paper: str = "a4", dpi: int = 300) -> list[Page]:
    """The pages of a layout: one page with every zone, or one page per zone."""
    if layout == "sheet":
        return [sheet_page(paper, dpi)]
    if layout == "zones":
        return [zone_page(z, paper, dpi) for z in ZONE_NAMES]
    raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, got {layout!r}")


def png_bytes(page: Page) -> bytes:
    """The page as PNG with its DPI stored (pHYs), so that it prints at true size."""
    ok, enc = cv2.imencode(".png", page.image)
    if not ok:
        raise ValueError("PNG encoding failed")
    data = enc.tobytes()
    ppm = round(page.dpi / MM_PER_INCH * 1000)  # pixels per metre
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    ihdr_end = 8 + 8 + 13 + 4  # signature, IHDR length+type, IHDR data, CRC
    return data[:ihdr_end] + chunk + data[ihdr_end:]


def _pt(mm: float) -> str:
    """Millimetres as PDF points (1/72 inch), two decimals."""
    return f"{mm / MM_PER_INCH * 72:.2f}"


def pdf_bytes(pages_: list[Page], quality: int = 95) -> bytes:
    """A PDF with one page per image, each image filling its page at true size (JPEG inside)."""
    objects: list[bytes] = [b"", b""]  # 1 catalog, 2 page tree: written last
    kids = []
    for page in pages_:
        ok, jpg = cv2.imencode(".jpg", page.image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:
            raise ValueError("JPEG encoding failed")
        h, w = page.image.shape
        wp, hp = _pt(page.size_mm[0]), _pt(page.size_mm[1])
        image = (
            (
                f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace "
                f"/DeviceGray /BitsPerComponent 8 /Filter /DCTDecode /Length {len(jpg)} >>\n"
                "stream\n"
            ).encode()
            + jpg.tobytes()
            + b"\nendstream"
        )
        content = f"q {wp} 0 0 {hp} 0 0 cm /Im0 Do Q".encode()
        n = len(objects) + 1  # this page's object number; its content and image follow
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {wp} {hp}] /Resources "
            f"<< /XObject << /Im0 {n + 2} 0 R >> /ProcSet [/PDF /ImageB] >> "
            f"/Contents {n + 1} 0 R >>".encode()
        )
        objects.append(
            f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream"
        )
        objects.append(image)
        kids.append(f"{n} 0 R")
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>".encode()
    objects.append(
        b"<< /Title (Las Vegas table companion: zone markers) /Producer (lasvegas-companion) >>"
    )
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info {len(objects)} 0 R >>\n"
        f"startxref\n{xref}\n%%EOF\n"
    ).encode()
    return bytes(out)


def write(out: Path, layout: str = "sheet", paper: str = "a4", dpi: int = 300) -> list[Path]:
    """Write the layout's pages: one PDF, or PNGs (one per page, named after the zone if several)."""
    suffix = out.suffix.lower()
    if suffix not in OUT_SUFFIXES:
        raise ValueError(f"the output must end in .png or .pdf, got {out.name!r}")
    made = pages(layout, paper, dpi)
    if suffix == ".pdf":
        out.write_bytes(pdf_bytes(made))
        return [out]
    if len(made) == 1:
        out.write_bytes(png_bytes(made[0]))
        return [out]
    paths = []
    for page in made:
        path = out.with_name(f"{out.stem}-{page.title}{out.suffix}")
        path.write_bytes(png_bytes(page))
        paths.append(path)
    return paths


def marker_side_mm(layout: str, dpi: int) -> float:
    """The printed side of a marker in mm (whole pixels at this DPI)."""
    side = SHEET_MARKER_MM if layout == "sheet" else ZONE_MARKER_MM
    return _px(side, dpi) / dpi * MM_PER_INCH


def run(args: argparse.Namespace) -> int:
    """`lasvegas markers`: write the sheet(s) and say how big a marker must come out of the printer."""
    try:
        paths = write(args.out, args.layout, args.size, args.dpi)
    except (OSError, ValueError) as error:
        print(f"lasvegas markers: {error}", file=sys.stderr)
        return 2
    marker_mm = marker_side_mm(args.layout, args.dpi)
    paper = {"a4": "A4", "letter": "Letter"}[args.size]
    what = "every zone on one page" if args.layout == "sheet" else "one page per zone"
    for path in paths:
        print(f"wrote {path}")
    print(
        f"{paper} landscape, {args.dpi} DPI, {what}. Marker side: {marker_mm:.1f} mm "
        f"(ArUco 4x4, ids 0-{4 * len(ZONE_NAMES) - 1})."
    )
    print(
        f"Print at 100% (actual size, not 'fit to page') and check with a ruler that a "
        f"marker's black square measures {marker_mm:.1f} mm."
    )
    if args.layout == "zones":
        print(
            "Cut out the casino and slot machine cards; lay casinos 1-3 left of the arena, "
            "4-6 right of it, the slot machine below it; the camera must see every marker."
        )
    return 0
