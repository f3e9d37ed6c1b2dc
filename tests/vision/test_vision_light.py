"""What a judged light says of the light at the table."""

from __future__ import annotations

import numpy as np
import pytest

from vision.light import light_words


@pytest.mark.parametrize(
    ("lamp_bgr", "words"),
    [
        ((1.0, 1.0, 1.0), []),  # white light
        ((1.03, 1.0, 0.98), []),  # too little to tell a player about
        ((0.78, 1.0, 1.18), ["warm"]),  # a warm bulb
        ((1.18, 1.0, 0.85), ["cool"]),  # daylight from a window
        ((0.97, 1.12, 0.95), ["green"]),  # a fluorescent tube
        ((1.1, 0.88, 1.1), ["magenta"]),
        ((0.7, 0.7, 0.7), ["dim"]),
        ((0.6, 0.75, 0.9), ["warm", "dim"]),
        ((1.3, 1.3, 1.3), ["bright"]),
    ],
)
def test_a_judged_light_is_worded_as_the_lamp_it_undoes(lamp_bgr, words) -> None:
    undone_by = 1 / np.array(lamp_bgr)
    assert light_words(undone_by) == words


def test_no_light_judged_says_nothing() -> None:
    assert light_words(None) == []


def test_a_body_colour_not_measured_does_not_sway_the_judged_light() -> None:
    import warnings

    from vision.colour import default_palette
    from vision.light import judged_light

    palette = default_palette().in_play_only(("red", "yellow", "pink", "purple"))
    plain = np.array([(45, 40, 195), (40, 205, 235), (180, 130, 245), (125, 40, 105)], np.float32)
    bodies = (plain * np.array([0.78, 1.0, 1.18], np.float32)).clip(0, 255)  # a warm lamp
    with_unmeasured = np.concatenate([bodies, [[np.nan, 0, 0]]]).astype(np.float32)
    weights = np.ones(5, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        judged = judged_light(palette, with_unmeasured, weights, thorough=True)
    assert judged.light is not None and np.isfinite(judged.light).all()
    expected = judged_light(palette, bodies, weights[:4], thorough=True)
    assert not np.allclose(expected.light, 1.0)  # the lamp is judged
    assert np.allclose(judged.light, expected.light)


def test_a_distance_that_comes_out_not_finite_does_not_pick_the_light(monkeypatch) -> None:
    # Were one die's distance not finite under every candidate light (a product gone wrong),
    # argmin would take the first candidate, whatever the others cost; it counts as far
    # from every colour instead, alike under every light, and the lamp is still judged.
    import vision.light as light
    from vision.colour import default_palette, to_lab

    palette = default_palette().in_play_only(("red", "yellow", "pink", "purple"))
    plain = np.array([(45, 40, 195), (40, 205, 235), (180, 130, 245), (125, 40, 105)], np.float32)
    bodies = (plain * np.array([0.78, 1.0, 1.18], np.float32)).clip(0, 255)  # a warm lamp
    expected = light.judged_light(palette, bodies, thorough=True)

    def lab_lost_for_the_first_die(bgr):
        lab = to_lab(bgr)
        lab.reshape(-1, len(bodies), 3)[:, 0] = np.nan
        return lab

    monkeypatch.setattr(light, "to_lab", lab_lost_for_the_first_die)
    judged = light.judged_light(palette, bodies, thorough=True)
    first_candidate = light.GAINS.reshape(-1, 3)[0]
    assert not np.allclose(judged.light, first_candidate)
    assert light.light_words(judged.light) == light.light_words(expected.light) != []


def _named(palette, bodies):
    return palette.classify(np.asarray(bodies, np.float32))[0]


def test_a_white_die_painted_by_a_light_judged_the_wrong_way_is_in_doubt() -> None:
    from dataclasses import replace

    from vision.colour import default_palette
    from vision.light import named_by_the_light

    palette = default_palette().in_play_only(("white", "orange", "red", "black"))
    peach = np.array([[170, 185, 225]], np.float32)  # a white die under a pinkish lamp
    assert list(_named(palette, peach)) == ["white"]
    warmer = replace(palette, light=np.array([0.7, 1.0, 1.3], np.float32))  # adds warmth
    names = _named(warmer, peach)
    assert names[0] != "white"
    assert named_by_the_light(warmer, peach, names).tolist() == [True]


def test_dice_whose_warm_cast_a_judged_light_takes_away_are_not_in_doubt() -> None:
    from dataclasses import replace

    from vision.colour import default_palette
    from vision.light import named_by_the_light

    palette = default_palette().in_play_only(("white", "orange", "blue", "red"))
    lamp = np.array([0.78, 1.0, 1.18], np.float32)  # a warm bulb
    plain = np.array([(230, 230, 228), (30, 120, 240), (175, 90, 30), (45, 40, 195)], np.float32)
    bodies = (plain * lamp).clip(0, 255)
    undone = replace(palette, light=(1 / lamp).astype(np.float32))
    names = _named(undone, bodies)
    assert list(names) == ["white", "orange", "blue", "red"]
    assert not named_by_the_light(undone, bodies, names).any()


def test_with_no_judged_light_no_name_hangs_on_it() -> None:
    from vision.colour import default_palette
    from vision.light import named_by_the_light

    palette = default_palette().in_play_only(("white", "orange"))
    bodies = np.array([[170, 185, 225], [30, 120, 240]], np.float32)
    assert not named_by_the_light(palette, bodies, _named(palette, bodies)).any()


def test_light_blue_dice_a_frame_takes_for_white_ones_under_a_blue_light_are_in_doubt() -> None:
    from dataclasses import replace

    from vision.colour import default_palette
    from vision.light import judged_light, named_by_one_frame

    palette = default_palette().in_play_only(("black", "blue", "green", "red", "white", "yellow"))
    light_blue = [(250, 200, 100), (246, 196, 104), (252, 203, 105), (248, 201, 96)]
    others = [(40, 40, 190), (40, 200, 230), (235, 235, 232)]  # red, yellow, white
    bodies = np.array(light_blue + others, np.float32)
    judged = judged_light(palette, bodies)
    names, certainty = judged.classify(bodies)
    # The frame's light makes the light blue dice white, surely: no doubt of their own.
    assert list(names[:4]) == ["white"] * 4 and (certainty[:4] >= 0.8).all()
    flagged = named_by_one_frame(palette, judged, bodies, names, 0.8)
    assert flagged.tolist() == [True] * 4 + [False] * 3
    # Once the rolls before have judged a light, a frame only refines it.
    learnt = replace(palette, light=judged.light)
    assert not named_by_one_frame(learnt, judged, bodies, names, 0.8).any()


def test_a_mild_cast_a_frame_takes_away_leaves_no_name_in_doubt() -> None:
    from vision.colour import default_palette
    from vision.light import judged_light, named_by_one_frame

    palette = default_palette().in_play_only(("white", "orange", "blue", "red"))
    lamp = np.array([0.85, 1.0, 1.1], np.float32)
    plain = np.array([(230, 230, 228), (30, 120, 240), (175, 90, 30), (45, 40, 195)], np.float32)
    bodies = (plain * lamp).clip(0, 255)
    judged = judged_light(palette, bodies)
    names = judged.classify(bodies)[0]
    assert list(names) == ["white", "orange", "blue", "red"]
    assert not named_by_one_frame(palette, judged, bodies, names, 0.8).any()


def test_a_strong_cast_that_only_the_frames_light_undoes_is_in_doubt() -> None:
    from vision.colour import default_palette
    from vision.light import judged_light, named_by_one_frame

    palette = default_palette().in_play_only(("white", "orange", "blue", "red"))
    lamp = np.array([0.65, 1.0, 1.3], np.float32)  # a strong warm bulb
    plain = np.array([(230, 230, 228)] * 3 + [(175, 90, 30)], np.float32)
    bodies = (plain * lamp).clip(0, 255)
    judged = judged_light(palette, bodies)
    names = judged.classify(bodies)[0]
    assert list(names) == ["white", "white", "white", "blue"]  # right, by the frame's light
    # Under white light they are yellow and black, a guess: named so by one frame's light alone.
    assert named_by_one_frame(palette, judged, bodies, names, 0.8).all()


def test_a_calibrated_palette_leaves_no_name_to_one_frame() -> None:
    from dataclasses import replace

    from vision.colour import default_palette
    from vision.light import named_by_one_frame

    palette = default_palette().in_play_only(("white", "blue"))
    bodies = np.array([(250, 200, 100)], np.float32)
    calibrated = replace(palette, reference_bgr=np.array([120, 120, 120], np.float32))
    lit = replace(calibrated, light=np.array([0.8, 1.0, 1.4], np.float32))
    assert not named_by_one_frame(calibrated, lit, bodies, np.array(["white"], object), 0.8).any()
