"""Learning a table's colours: naming the measured dice, and the corners tapped by hand."""

from __future__ import annotations

import numpy as np
import pytest

from vision.calibrate import match_names, merged_palette
from vision.colour import DEFAULT_COLOURS_BGR, calibrate
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
