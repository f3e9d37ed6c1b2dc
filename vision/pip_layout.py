"""Where the pips of each face lie: the one description that the simulated table and the
training renderer both draw from."""

from __future__ import annotations

PIP_LAYOUT: dict[int, list[tuple[float, float]]] = {
    1: [(0.0, 0.0)],
    2: [(-0.25, -0.25), (0.25, 0.25)],
    3: [(-0.25, -0.25), (0.0, 0.0), (0.25, 0.25)],
    4: [(-0.25, -0.25), (0.25, -0.25), (-0.25, 0.25), (0.25, 0.25)],
    5: [(-0.25, -0.25), (0.25, -0.25), (0.0, 0.0), (-0.25, 0.25), (0.25, 0.25)],
    6: [(-0.25, -0.27), (0.25, -0.27), (-0.25, 0.0), (0.25, 0.0), (-0.25, 0.27), (0.25, 0.27)],
}
"""Pip centres of each face, on a unit face: coordinates in [-0.5, 0.5]."""
