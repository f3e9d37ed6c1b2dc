"""Learning a table's colours: naming the measured dice, and the corners tapped by hand."""

from __future__ import annotations

import numpy as np
import pytest

from vision.calibrate import match_names, merged_palette, partly_learnt
from vision.colour import (
    DEFAULT_COLOURS_BGR,
    calibrate,
    checked_by_learnt_colours,
    default_palette,
    to_lab,
)
from vision.zones import CornerError, checked_corners, zones_from_json, zones_to_json


def test_each_measured_colour_gets_the_name_nearest_overall():
    names = ["red", "blue", "green"]
    measured = np.array([DEFAULT_COLOURS_BGR[n] for n in ("green", "red", "blue")], np.float32)
    assert match_names(measured, names) == ["green", "red", "blue"]


def test_a_calibrated_colour_drops_the_built_in_one_beside_it():
    shade = np.array(DEFAULT_COLOURS_BGR["blue"], np.float32)
    palette = merged_palette(calibrate({"blue": np.stack([shade, shade + 4, shade - 4])}))
    assert palette.names[0] == "blue" and palette.names.count("blue") == 1
    assert "red" in palette.names


def test_colours_not_learnt_yet_are_placed_where_the_judged_light_puts_them():
    warm = np.array([0.8, 1.0, 1.25], np.float32)  # the gain that undoes a warm light
    judged = default_palette().in_play_only(["red", "orange", "white"])
    judged = type(judged)(**{**vars(judged), "light": warm})
    # Red learnt from its own dice; orange, in play, lies near it but stays, a guess.
    learnt = calibrate({"red": np.array([[40, 60, 230], [35, 55, 220]], np.float32)})
    part = partly_learnt(learnt, judged)
    assert part.names[0] == "red" and {"orange", "white"} <= set(part.guessed)
    assert "red" not in part.guessed
    white = part.means[part.names.index("white")]
    # A white die under the warm light: its blue channel weaker, its red stronger (to 255).
    under = np.clip(np.array([DEFAULT_COLOURS_BGR["white"]], np.float32) / warm, 0, 255)
    assert np.allclose(white, to_lab(under)[0])
    assert part.in_play == judged.in_play and part.reference_bgr is learnt.reference_bgr


def test_a_built_in_colour_like_a_learnt_one_is_left_out_unless_it_is_in_play():
    blue = np.array([DEFAULT_COLOURS_BGR["blue"]] * 2, np.float32)
    learnt = calibrate({"blue": blue})
    assert "darkblue" not in partly_learnt(learnt, default_palette().in_play_only(["blue"])).names
    both = default_palette().in_play_only(["blue", "darkblue"])
    assert "darkblue" in partly_learnt(learnt, both).guessed


def test_the_colours_learnt_so_far_give_a_second_opinion_on_the_names_the_light_gives():
    red = np.array(DEFAULT_COLOURS_BGR["red"], np.float32)
    learnt = calibrate({"red": np.stack([red, red + 4])})
    part = partly_learnt(learnt, default_palette().in_play_only(["red", "white", "orange"]))
    bgr = np.stack([red, red, np.array(DEFAULT_COLOURS_BGR["orange"], np.float32), red + 1])
    # As the light named them: a red die named orange, one named red in doubt, an orange die
    # named red (it is no learnt red), and a red die named red for sure.
    names = np.array(["orange", "red", "red", "red"], object)
    certainty = np.array([0.9, 0.5, 0.95, 0.95], np.float32)
    by_light = np.array([True, False, False, False])
    named, sure, lit = checked_by_learnt_colours(
        part, bgr, None, np.ones(4, bool), names, certainty, by_light, 0.8
    )
    assert named.tolist() == ["red", "red", "red", "red"]
    assert sure.tolist() == [1.0, 1.0, 0.0, 1.0]  # the orange die is in doubt, not named red
    assert not lit.any()
    # A colour not learnt yet keeps the name and certainty the light gave it.
    white = np.array([DEFAULT_COLOURS_BGR["white"]], np.float32)
    kept = checked_by_learnt_colours(
        part,
        white,
        None,
        np.ones(1, bool),
        np.array(["white"], object),
        np.array([0.75]),
        np.array([True]),
        0.8,
    )
    assert (
        kept[0].tolist() == ["white"] and kept[1].tolist() == [0.75] and kept[2].tolist() == [True]
    )


def test_corners_outside_the_picture_are_refused_by_name():
    square = [[0, 0], [10, 0], [10, 10], [0, 10]]
    assert checked_corners({"arena": square}, (20, 20)) == {"arena": square}
    with pytest.raises(CornerError, match="corners of arena: each point"):
        checked_corners({"arena": [*square[:3], [30, 5]]}, (20, 20))
    with pytest.raises(CornerError, match="corners must be like"):
        checked_corners([], (20, 20))


def test_zones_come_back_from_the_game_file_as_they_were_kept():
    from vision.zones import zones_from_corners

    zones = zones_from_corners({"arena": [[0, 0], [10, 0], [10, 10], [0, 10]]})
    again = zones_from_json(zones_to_json(zones))
    assert again is not None and again.names == ("arena",)
    assert np.array_equal(again.polygons[0], zones.polygons[0])
    assert zones_from_json("nothing") is None
