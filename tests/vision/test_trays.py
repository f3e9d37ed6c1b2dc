"""Felt dice trays on a speckled table, for rendered scenes (`models/trays.py`,
`render_scene(felt_trays=True)`)."""

from __future__ import annotations

import numpy as np
import pytest

from models import render, trays


@pytest.mark.parametrize("seed", range(6))
def test_every_die_lies_wholly_on_a_tray_floor(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    floors_drawn: list[list[tuple[float, float, float, float]]] = []
    draw_before = render.draw_felt_trays
    monkeypatch.setattr(
        render,
        "draw_felt_trays",
        lambda *a: floors_drawn.append(draw_before(*a)) or floors_drawn[-1],
    )
    frame, truths = render.render_scene(
        np.random.default_rng(seed), n_dice=10, elevation_deg=90.0, felt_trays=True
    )
    assert frame.shape == (480, 640, 3) and len(floors_drawn) == 1
    floors = floors_drawn[0]
    assert 1 <= len(floors) <= 2 and truths
    for die in truths:
        x0, y0, x1, y1 = die.box
        assert any(
            fx0 <= x0 and fy0 <= y0 and x1 <= fx1 and y1 <= fy1 for fx0, fy0, fx1, fy1 in floors
        ), f"die {die.box} off every floor {floors}"


def test_a_tray_floor_is_felt_inside_its_rim() -> None:
    table = np.full((300, 400, 3), 200, np.uint8)
    floors = trays.draw_felt_trays(np.random.default_rng(2), table, 30.0)
    for x0, y0, x1, y1 in floors:
        inner = table[int(y0) + 20 : int(y1) - 20, int(x0) + 20 : int(x1) - 20].reshape(-1, 3)
        # One felt colour with its nap: far from the light grey table, and varying a little.
        assert np.abs(inner.mean(0) - 200).max() > 40
        assert 1.0 < inner.std(0).max() < 25
    # Outside every tray the table is untouched.
    assert (table[:3] == 200).all()


def test_scenes_without_trays_are_drawn_as_before() -> None:
    # Drawing trays only where asked leaves the random stream of every other scene alone.
    a, _ = render.render_scene(np.random.default_rng(9), n_dice=5)
    b, _ = render.render_scene(np.random.default_rng(9), n_dice=5, felt_trays=False)
    c, _ = render.render_scene(np.random.default_rng(9), n_dice=5, felt_trays=True)
    assert (a == b).all() and not (a == c).all()


def test_a_die_too_large_for_every_tray_is_left_out() -> None:
    # Dice of 85 px in frames 160 px high: no floor holds one, and no scene fails.
    for seed in range(8):
        frame, truths = render.render_scene(
            np.random.default_rng(seed), h=160, w=200, n_dice=6, elevation_deg=90.0, felt_trays=True
        )
        assert frame.shape == (160, 200, 3)
