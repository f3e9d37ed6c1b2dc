"""Shared fixtures for the reader's tests: rendered scenes and the development photos' folder."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from models.devdata import OBLIQUE_WHITE  # noqa: E402


@pytest.fixture(scope="session")
def rendered_scenes():
    """Twenty rendered 640x480 scenes with their ground truth (fixed seed)."""
    from models.render import render_scene

    rng = np.random.default_rng(1234)
    return [render_scene(rng, n_dice=int(rng.integers(3, 13))) for _ in range(20)]


@pytest.fixture(scope="session")
def dev_photos() -> Path:
    """The real development photos, or a clean skip where the folder is missing."""
    if not OBLIQUE_WHITE.is_dir():
        pytest.skip(f"development photos not found at {OBLIQUE_WHITE}")
    return OBLIQUE_WHITE
