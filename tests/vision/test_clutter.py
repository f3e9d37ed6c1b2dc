"""Clutter in rendered scenes: things that are not dice, drawn without a box."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

import models.render as render
from models.clutter import ClutterPlan, granite, plan, salt_and_pepper
from models.make_data import SceneMix, _one_chunk

# SHA-256 of the frames `render_scene` drew for these seeds before clutter existed: the
# seeded evaluation sets must stay the same while the option is off.
FRAMES_BEFORE_CLUTTER = {
    0: "ca3d04e4599251a84705c53e439875e4a796bac75d9d7121bbe5f4d6856f8400",
    21: "7f0d768747eb625af5752f9581f8fd2f5847054459647c03316a5201101f4d1c",
}


@pytest.mark.parametrize("seed", sorted(FRAMES_BEFORE_CLUTTER))
def test_without_clutter_the_frames_are_the_same_as_before(seed: int) -> None:
    for options in ({}, {"clutter": 0.0}):
        frame, _ = render.render_scene(np.random.default_rng(seed), **options)
        assert hashlib.sha256(frame.tobytes()).hexdigest() == FRAMES_BEFORE_CLUTTER[seed]


def test_clutter_scenes_differ_from_plain_ones_and_repeat_per_seed() -> None:
    plain, _ = render.render_scene(np.random.default_rng(3), clutter=0.0)
    busy, truths = render.render_scene(np.random.default_rng(3), clutter=1.0)
    again, truths_again = render.render_scene(np.random.default_rng(3), clutter=1.0)
    assert busy.shape == (480, 640, 3) and busy.dtype == np.uint8
    assert not np.array_equal(plain, busy)
    assert np.array_equal(busy, again) and truths == truths_again


def test_clutter_gets_no_box() -> None:
    # Scenes of clutter alone have nothing to find.
    rng = np.random.default_rng(4)
    for _ in range(6):
        frame, truths = render.render_scene(rng, n_dice=0, clutter=1.0)
        assert frame.shape == (480, 640, 3) and frame.dtype == np.uint8
        assert truths == []


def test_every_die_drawn_among_clutter_gets_one_box_on_free_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn_dice: list[tuple[float, ...]] = []
    clutter: list[tuple[np.ndarray, float]] = []
    draw_die, draw_clutter = render._draw_die, render.draw_clutter

    def counting_draw_die(*args, **kwargs) -> tuple[float, ...]:  # type: ignore[no-untyped-def]
        box = draw_die(*args, **kwargs)
        if kwargs.get("dims", (1.0, 1.0, 1.0)) == (1.0, 1.0, 1.0) and len(args) < 12:
            drawn_dice.append(box)  # a die, not a distractor box of other dims
        return box

    def recording_draw_clutter(img, rng, side, light, placed, **kinds) -> None:  # type: ignore[no-untyped-def]
        before = len(placed)
        draw_clutter(img, rng, side, light, placed, **kinds)
        clutter.extend(placed[before:])

    monkeypatch.setattr(render, "_draw_die", counting_draw_die)
    monkeypatch.setattr(render, "draw_clutter", recording_draw_clutter)
    rng = np.random.default_rng(9)
    for _ in range(5):
        drawn_dice.clear()
        clutter.clear()
        _, truths = render.render_scene(rng, n_dice=8, elevation_deg=90.0, clutter=1.0)
        assert 2 <= len(clutter) <= 8
        # a die put beside a thing off the frame's edge may lie wholly outside it: no box
        inside = [b for b in drawn_dice if b[2] > 0 and b[0] < 639 and b[3] > 0 and b[1] < 479]
        assert len(truths) == len(inside)
        for truth in truths:
            x0, y0, x1, y1 = truth.box
            centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
            for spot, size in clutter:
                assert np.linalg.norm(centre - spot) > 0.4 * size  # not on top of clutter


def test_a_plan_draws_nothing_from_the_stream_when_the_share_is_zero() -> None:
    rng = np.random.default_rng(1)
    assert plan(rng, 0.0) == ClutterPlan(False, False, 0.0)
    assert rng.random() == np.random.default_rng(1).random()
    plans = [plan(rng, 1.0) for _ in range(400)]
    assert all(p.things for p in plans)
    assert 0.2 < np.mean([p.granite for p in plans]) < 0.4
    assert 0.1 < np.mean([p.salt > 0 for p in plans]) < 0.3


def test_granite_is_densely_speckled() -> None:
    table = granite(np.random.default_rng(2), 120, 160).astype(np.float32)
    assert table.shape == (120, 160, 3)
    # neighbouring pixels differ far more than on a plain table with sensor noise
    step = np.abs(np.diff(table.mean(2), axis=1))
    assert np.mean(step > 25) > 0.05


def test_salt_and_pepper_sets_about_its_share_of_pixels_near_black_or_white() -> None:
    grey = np.full((200, 300, 3), 128, np.uint8)
    noisy = salt_and_pepper(np.random.default_rng(3), grey, 0.02)
    hit = np.any(noisy != 128, axis=2)
    assert 0.015 < hit.mean() < 0.025
    values = noisy[hit][:, 0]
    assert np.all((values < 40) | (values >= 215))
    assert np.array_equal(grey, np.full((200, 300, 3), 128, np.uint8))  # input untouched


def test_a_clutter_set_has_locator_frames_and_boxes_of_its_dice_only() -> None:
    data = _one_chunk((11, 3, SceneMix(clutter=1.0)))
    assert data["frames"].shape == (3, 240, 320, 3) and data["frames"].dtype == np.uint8
    assert data["boxes"].shape[1] == 5
    plain = _one_chunk((11, 3, SceneMix()))
    assert not np.array_equal(data["frames"], plain["frames"])


def test_round_clutter_on_a_tray_draws_round_things_alone_on_light_grey(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import models.clutter as clutter

    drawn: list[str] = []

    def recording(name: str, draw):
        def wrapped(*args):
            drawn.append(name)
            return draw(*args)

        return wrapped

    monkeypatch.setattr(clutter, "_KINDS", tuple(recording(k.__name__, k) for k in clutter._KINDS))
    monkeypatch.setattr(clutter, "_round_thing", recording("round", clutter._round_thing))
    monkeypatch.setattr(render, "light_grey_tray", recording("tray", clutter.light_grey_tray))
    monkeypatch.setattr(render, "_background", recording("table", render._background))
    rng = np.random.default_rng(11)
    for _ in range(8):
        _, truths = render.render_scene(
            rng, n_dice=0, clutter=1.0, round_clutter_on_a_tray=True, elevation_deg=90.0
        )
        assert truths == []
    assert "round" in drawn and "tray" in drawn
    assert set(drawn) <= {"round", "tray"}  # granite tables draw neither
    drawn.clear()
    render.render_scene(np.random.default_rng(11), n_dice=0, clutter=1.0)
    assert "round" not in drawn and "tray" not in drawn and len(drawn) > 1
    tray = clutter.light_grey_tray(np.random.default_rng(0), 40, 50)
    assert tray.shape == (40, 50, 3) and 160 < tray.mean() < 225
    assert np.ptp(tray.mean(axis=(0, 1))) < 1e-3  # grey: the channels alike


def test_a_granite_table_is_drawn_for_every_scene_it_is_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tables: list[str] = []
    granite_before, background_before = render.granite, render._background
    monkeypatch.setattr(
        render, "granite", lambda *a: tables.append("granite") or granite_before(*a)
    )
    monkeypatch.setattr(
        render, "_background", lambda *a: tables.append("other") or background_before(*a)
    )
    rng = np.random.default_rng(5)
    for _ in range(4):
        frame, truths = render.render_scene(rng, n_dice=3, granite_table=True)
        assert frame.shape == (480, 640, 3) and len(truths) == 3
    assert tables == ["granite"] * 4


def test_a_speckled_table_set_draws_every_scene_on_granite_or_in_felt_trays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import models.make_data as make_data

    asked: list[dict] = []

    def recording(rng, **options):
        asked.append(options)
        return render.render_scene(rng, **options)

    monkeypatch.setattr(make_data, "render_scene", recording)
    speckled = _one_chunk((5, 8, SceneMix(speckled_tables=1.0)))
    kinds = [("granite_table" in o) + 2 * ("felt_trays" in o) for o in asked]
    assert sorted(set(kinds)) == [1, 2]  # granite or felt trays, never both, never neither
    # With no share asked, the stream draws nothing more: the frames are as before.
    plain, again = _one_chunk((5, 8, SceneMix())), _one_chunk((5, 8, SceneMix(speckled_tables=0.0)))
    assert np.array_equal(plain["frames"], again["frames"])
    assert not np.array_equal(plain["frames"], speckled["frames"])


def test_a_round_tray_set_cuts_each_round_thing_out_as_not_a_die(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import models.make_data as make_data

    drawn: list[list] = []

    def recording(rng, **options):
        frame, truths = render.render_scene(rng, **options)
        drawn.append(list(options["things_drawn"]))
        assert options["round_clutter_on_a_tray"] and options["elevation_deg"] == 90.0
        return frame, truths

    monkeypatch.setattr(make_data, "render_scene", recording)
    data = _one_chunk((7, 4, SceneMix(round_trays=1.0)))
    assert len(drawn) == 4
    in_frame = sum(1 for things in drawn for c, _ in things if 0 <= c[0] < 640 and 0 <= c[1] < 480)
    assert in_frame > 0
    not_a_die = data["crops"][data["labels"] == make_data.NOT_A_DIE]
    # Every thing in the frame is cut out twice, besides the crops beside dice and at random.
    assert len(not_a_die) >= make_data.THING_COPIES * in_frame
    first = data["crops"][: make_data.THING_COPIES * len(drawn[0])]
    assert first.shape[1:] == (3, 40, 40)


def test_a_thing_box_is_centred_on_its_thing_and_sized_by_it() -> None:
    from models.make_data import THING_COPIES, _thing_boxes

    things = [(np.array([100.0, 200.0]), 40.0), (np.array([700.0, 10.0]), 30.0)]
    boxes = _thing_boxes(np.random.default_rng(0), things, (480, 640, 3))
    assert boxes.shape == (THING_COPIES, 4)  # the thing out of the frame is left out
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    sides = boxes[:, 2:] - boxes[:, :2]
    assert np.all(np.abs(centres - [100, 200]) <= 0.1 * 40 + 1e-3)
    assert np.all((sides >= 0.9 * 40 - 1e-3) & (sides <= 1.1 * 40 + 1e-3))
    assert _thing_boxes(np.random.default_rng(0), [], (480, 640, 3)).shape == (0, 4)


def test_with_no_round_trays_asked_a_set_is_as_before() -> None:
    plain = _one_chunk((5, 3, SceneMix()))
    again = _one_chunk((5, 3, SceneMix(round_trays=0.0)))
    for name in ("frames", "crops", "labels"):
        assert np.array_equal(plain[name], again[name])


def test_a_simulated_table_set_learns_the_tables_dice_blank_ones_among_them() -> None:
    from models.make_data import NOT_A_DIE

    data = _one_chunk((9, 6, SceneMix(simulated_tables=1.0)))
    labels = data["labels"]
    assert data["frames"].shape == (6, 240, 320, 3)
    assert len(data["boxes"]) >= 6 * 3  # every frame holds 3-12 dice, each boxed
    blank = data["crops"][labels == 0]
    assert len(blank) >= 4  # grey blank dice, cut out as dice

    # A blank die's crop is its plain body in the middle, no pip in it; a 5's has its pips.
    def spread_in_middle(crops: np.ndarray) -> np.ndarray:
        return crops[:, :, 12:28, 12:28].astype(np.float32).std(axis=(1, 2, 3))

    fives = data["crops"][labels == 5]
    assert len(fives) and spread_in_middle(blank).max() < spread_in_middle(fives).min()
    assert set(np.unique(labels)) <= {0, 1, 2, 3, 4, 5, 6, NOT_A_DIE}
    assert np.any((labels >= 1) & (labels <= 6))
    plain, again = _one_chunk((9, 3, SceneMix())), _one_chunk((9, 3, SceneMix(simulated_tables=0)))
    assert np.array_equal(plain["crops"], again["crops"])
