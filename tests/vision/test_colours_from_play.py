"""The colours the live camera learns from the rolls the table applied, until calibration."""

from __future__ import annotations

import numpy as np
import pytest

from vision.colour import calibrate, default_palette, to_lab
from vision.detections import Detections
from vision.live_learning import PLAY_DICE, ColoursFromPlay, assigned_by_counts
from vision.reader import ReaderConfig

TABLE = (90, 110, 120)  # a wooden table's BGR
LIGHT_BLUE = (225, 180, 120)  # a pale make of blue dice, far from the built-in blue
WHITE = (228, 230, 228)
RED = (50, 45, 190)


def _roll(bodies: list[tuple[int, int, int]], seed: int = 0) -> tuple[np.ndarray, Detections]:
    """A frame of bare table and the dice of a settled roll on it, with their body colours a
    little spread (dye lot, shading) as the reader measured them."""
    rng = np.random.default_rng(seed)
    n = len(bodies)
    boxes = [[10 + 50 * i, 10, 50 + 50 * i, 50] for i in range(n)]
    body = np.clip(np.array(bodies, np.float32) + rng.normal(0, 4, (n, 3)), 0, 255)
    dice = Detections(
        np.array(boxes, np.float32),
        [3] * n,
        ["blue"] * n,
        ["regular"] * n,
        [0.9] * n,
        [False] * n,
        body=body.astype(np.float32),
    )
    frame = np.full((60, 50 * n + 20, 3), TABLE, np.uint8)
    return frame, dice


def _settled(learner: ColoursFromPlay, bodies, seed=0) -> Detections:
    """A roll of dice with these bodies settles before the camera; its dice."""
    frame, dice = _roll(bodies, seed)
    learner.settled(frame, dice)
    return dice


def _applied(learner: ColoursFromPlay, palette, bodies, colours, seed=0) -> None:
    """A roll settles, and the table applies it holding `colours` (name: count)."""
    dice = _settled(learner, bodies, seed)
    learner.roll_applied(dice, [True] * len(dice), colours, palette)


def test_a_rolls_dice_are_grouped_by_their_counts_though_a_wrong_light_names_them_alike() -> None:
    rng = np.random.default_rng(7)
    bodies = np.array([LIGHT_BLUE] * 8 + [WHITE] * 2, np.float32) + rng.normal(0, 4, (10, 3))
    # Under a wrong light every die lies nearest white (distances to blue, white).
    distances = np.column_stack([np.full(10, 9.0), np.full(10, 1.0)])
    distances[8:, 1] = 3.0  # the white dice look yellowish under it: farther from white
    chosen = assigned_by_counts(to_lab(bodies), distances, [8, 2])
    assert chosen.tolist() == [0] * 8 + [1] * 2
    # Groups of one size each: the palette tells which group is which colour.
    bodies = np.array([WHITE, RED, RED, WHITE], np.float32)
    distances = np.array([[9.0, 1.0], [1.0, 9.0], [2.0, 8.0], [7.0, 2.0]])
    assert assigned_by_counts(to_lab(bodies), distances, [2, 2]).tolist() == [1, 0, 0, 1]
    with pytest.raises(ValueError, match="do not share out 4 dice"):
        assigned_by_counts(to_lab(bodies), distances, [2, 1])


def test_pale_blue_dice_are_named_from_their_own_rolls_as_soon_as_they_were_rolled() -> None:
    palette = default_palette().in_play_only(["blue", "red", "white"])
    learner = ColoursFromPlay()
    pale = np.array([LIGHT_BLUE] * 3, np.float32)
    # The built-in colours name pale blue dice white, or leave them in doubt.
    names, certainty = palette.classify(pale)
    assert not ((names == "blue") & (certainty > 0.8)).any()
    config = ReaderConfig(palette=palette)
    assert learner.applied(config) is config  # nothing learnt yet
    _applied(learner, palette, [LIGHT_BLUE] * 8 + [WHITE] * 2, {"blue": 8, "white": 2})
    # Red has not been rolled: blue and white are learnt, red is where the light puts it.
    assert learner.learnt() is None and learner.learnt_so_far()[0] == ("blue", "white")
    part = learner.applied(config).learnt_colours
    assert part is not None and "red" in part.guessed
    assert not {"blue", "white"} & set(part.guessed)
    frame, dice = _roll([LIGHT_BLUE] * 3 + [WHITE] * 3 + [RED] * 3, seed=3)
    names, _certainty = part.classify(dice.body, np.array(TABLE, np.float32))
    assert names.tolist() == ["blue"] * 3 + ["white"] * 3 + ["red"] * 3
    _applied(learner, palette, [RED] * 6 + [WHITE] * 2, {"red": 6, "white": 2}, seed=1)
    learnt = learner.applied(config).palette
    assert learnt.reference_bgr is not None  # named as a calibrated table names them
    assert set(learner.learnt_so_far()[0]) == {"blue", "red", "white"}
    frame, dice = _roll([LIGHT_BLUE] * 3 + [WHITE] * 3 + [RED] * 3, seed=2)
    names, certainty = learnt.classify(dice.body, np.array(TABLE, np.float32))
    assert names.tolist() == ["blue"] * 3 + ["white"] * 3 + ["red"] * 3
    assert (certainty > 0.6).all()


def test_a_colour_in_play_that_no_roll_applied_has_shown_keeps_the_learning_incomplete() -> None:
    # White neutral dice whose rolls taught nothing (entered by hand with a die added, say):
    # every player's colour is learnt, white is still named by the light judged.
    palette = default_palette().in_play_only(["blue", "red", "white"])
    learner = ColoursFromPlay()
    assert learner.learnt_so_far() == ((), False)
    _applied(learner, palette, [LIGHT_BLUE] * 8, {"blue": 8})
    _applied(learner, palette, [RED] * 8, {"red": 8}, seed=1)
    names, every_colour = learner.learnt_so_far()
    assert set(names) == {"blue", "red"} and not every_colour
    assert learner.learnt() is None
    _applied(learner, palette, [WHITE] * 2 + [RED] * 3, {"white": 2, "red": 3}, seed=2)
    assert learner.learnt_so_far()[1] and learner.learnt() is not None


def test_the_dice_of_a_roll_are_given_their_colours_by_the_counts_not_by_the_order() -> None:
    palette = default_palette().in_play_only(["red", "white"])
    learner = ColoursFromPlay()
    bodies = [WHITE, RED, WHITE, RED, RED, WHITE, RED, WHITE]
    _applied(learner, palette, bodies, {"red": 4, "white": 4})
    learnt = learner.learnt()
    assert learnt is not None
    white, red = (learnt.means[learnt.names.index(n)] for n in ("white", "red"))
    assert white[0] > 85 and red[1] > 40  # white is light, red is red: none mixed up


def test_nothing_is_learnt_where_the_roll_does_not_match_the_dice_read() -> None:
    palette = default_palette().in_play_only(["red"])
    learner = ColoursFromPlay()
    dice = _settled(learner, [RED] * 5)
    # A person added a die the camera missed: which box is which is unknown.
    assert not learner.roll_applied(dice, [True] * 5, {"red": 6}, palette)
    # A roll the camera never reported (typed in by hand over an older reading).
    _other_frame, other = _roll([RED] * 5, seed=3)
    assert not learner.roll_applied(other, [True] * 5, {"red": 5}, palette)
    assert learner.learnt() is None
    # Only the dice of the throw were used: the two white ones lying there before are left out.
    dice = _settled(learner, [RED] * PLAY_DICE + [WHITE] * 2, seed=4)
    assert learner.roll_applied(dice, [True] * PLAY_DICE + [False] * 2, {"red": PLAY_DICE}, palette)
    learnt = learner.learnt()
    assert learnt is not None and learnt.means[learnt.names.index("red")][1] > 40


def test_a_roll_teaches_once_and_calibration_or_other_colours_forget_what_was_learnt() -> None:
    palette = default_palette().in_play_only(["red"])
    learner = ColoursFromPlay()
    few = PLAY_DICE - 1
    dice = _settled(learner, [RED] * few)
    assert learner.roll_applied(dice, [True] * few, {"red": few}, palette)
    assert not learner.roll_applied(dice, [True] * few, {"red": few}, palette)  # applied again
    assert learner.learnt() is None  # counted once, not twice
    _applied(learner, palette, [RED] * 4, {"red": 4}, seed=4)
    assert learner.learnt_so_far()[0] == ("red",)
    calibrated = calibrate({"red": np.array([RED] * 3, np.float32)}, np.array(TABLE))
    config = ReaderConfig(palette=calibrated)
    assert learner.applied(config) is config  # a calibrated table keeps its own palette
    learner.settings_changed(palette, calibrated)
    assert learner.learnt() is None and learner.learnt_so_far()[0] == ()
    # Nor is anything learnt on a calibrated table.
    _applied(learner, calibrated, [RED] * 5, {"red": 5}, seed=5)
    assert learner.learnt() is None


def test_what_was_learnt_is_taken_up_again_after_a_restart_but_only_as_it_was_written() -> None:
    import json

    palette = default_palette().in_play_only(["blue", "red", "white"])
    learner = ColoursFromPlay()
    assert learner.to_json() is None
    _applied(learner, palette, [LIGHT_BLUE] * 8 + [WHITE] * 2, {"blue": 8, "white": 2})
    _applied(learner, palette, [RED] * 6 + [WHITE] * 2, {"red": 6, "white": 2}, seed=1)
    written = json.loads(json.dumps(learner.to_json()))
    again = ColoursFromPlay()
    assert again.restore(written, palette)
    assert again.learnt_so_far()[0] == learner.learnt_so_far()[0]
    before, after = learner.learnt(), again.learnt()
    assert before is not None and after is not None
    assert np.allclose(before.means, after.means, atol=0.2)  # BGR kept to a tenth
    assert not again.restore(written, palette)  # something is learnt already
    other = default_palette().in_play_only(["blue", "red"])  # a game of other colours
    assert not ColoursFromPlay().restore(written, other)
    damaged = [
        None,
        [1, 2],
        written | {"key": "blue"},
        written | {"samples": {"blue": [[1, 2]]}},
        written | {"samples": {"blue": [[1, 2, 300]]}},
        written | {"samples": {"blue": [[True, 2, 3]]}},
        written | {"tables": []},
        written | {"samples": {"blue": [[1.0, 2.0, 3.0]] * 33}},
    ]
    for data in damaged:
        fresh = ColoursFromPlay()
        assert not fresh.restore(data, palette), data
        assert fresh.learnt() is None
