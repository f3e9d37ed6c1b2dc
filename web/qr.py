"""QR codes of the page's address: as terminal text and as an SVG for the page."""

from __future__ import annotations

import cv2
import numpy as np

QUIET = 2
"""Modules of light border around the code, so phone cameras find its edges."""


def qr_modules(text: str) -> np.ndarray:
    """The QR code of `text` as a boolean grid, True for dark modules, with a quiet border."""
    image = cv2.QRCodeEncoder.create().encode(text)
    dark = np.asarray(image) < 128
    return np.pad(dark, QUIET, constant_values=False)


def qr_terminal(text: str) -> str:
    """The QR code drawn with half-block characters, two rows of modules per line."""
    grid = qr_modules(text)
    if len(grid) % 2:
        grid = np.vstack([grid, np.zeros((1, grid.shape[1]), bool)])
    glyph = {
        (False, False): "\u2588",
        (True, False): "\u2584",
        (False, True): "\u2580",
        (True, True): " ",
    }
    lines = []
    for top, bottom in zip(grid[0::2], grid[1::2], strict=True):
        lines.append("".join(glyph[(bool(t), bool(b))] for t, b in zip(top, bottom, strict=True)))
    return "\n".join(lines)


def qr_svg(text: str) -> str:
    """The QR code as a small SVG document (one path of dark squares)."""
    grid = qr_modules(text)
    size = grid.shape[0]
    path = "".join(f"M{x},{y}h1v1h-1z" for y, x in zip(*np.nonzero(grid), strict=True))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
        f'shape-rendering="crispEdges"><rect width="{size}" height="{size}" fill="#fff"/>'
        f'<path d="{path}" fill="#000"/></svg>'
    )
