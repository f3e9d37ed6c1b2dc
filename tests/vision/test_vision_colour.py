"""Colour names: the default palette, and calibration that tells near colours apart."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from vision_synth import COOL, WARM, dice_frame

from vision.colour import (
    DEFAULT_COLOURS_BGR,
    background_colour,
    body_colours,
    calibrate_from_frame,
    default_palette,
    to_lab,
)
from vision.light import judged_light

# The actual dice of one table: near pairs on purpose (red/purple/pink, black/grey/dark blue,
# white/yellow) and a little off from the default palette's idea of each colour.
TABLE_DICE = {
    "red": (50, 45, 180),
    "purple": (110, 45, 120),
    "pink": (160, 120, 230),
    "black": (40, 38, 36),
    "grey": (105, 105, 100),
    "darkblue": (90, 45, 35),
    "white": (225, 228, 228),
    "yellow": (60, 200, 225),
    "blue": (170, 100, 45),
    "green": (75, 140, 50),
    "orange": (40, 115, 225),
}


def _frame(rng, names, gain=(1.0, 1.0, 1.0)):
    dice = []
    for k, name in enumerate(names):
        cx, cy = 50 + (k % 10) * 60, 50 + (k // 10) * 60
        dice.append((cx, cy, 44, TABLE_DICE[name], int(rng.integers(1, 7))))
    return dice_frame(dice, rng, gain=gain)


@pytest.mark.parametrize("name", ["red", "blue", "green", "yellow", "white", "black", "orange"])
def test_default_palette_names_plain_colours(name: str) -> None:
    # Clear colours need no calibration.
    names, _ = default_palette().classify(np.array([DEFAULT_COLOURS_BGR[name]]))
    assert names[0] == name


@pytest.mark.parametrize(
    "gain",
    [
        (1.0, 1.0, 1.0),  # the light of calibration
        tuple(WARM),  # a warm bulb switched on later
        tuple(COOL),  # daylight from a window
    ],
)
def test_calibrated_colours_survive_light_shift(gain) -> None:
    rng = np.random.default_rng(7)
    calib_names = [n for n in TABLE_DICE for _ in range(3)]  # three dice per colour
    frame, boxes = _frame(rng, calib_names)
    palette = calibrate_from_frame(frame, boxes, calib_names)
    right = total = 0
    for _ in range(6):
        names = list(rng.choice(list(TABLE_DICE), 40))
        frame, boxes = _frame(rng, names, gain)
        got, _ = palette.classify(body_colours(frame, boxes), background_colour(frame, boxes))
        right += int((got == np.array(names, object)).sum())
        total += len(names)
    assert right / total >= 0.995


@pytest.mark.parametrize(
    ("bgr", "in_play", "named"),
    [
        # a white die in a dim room: nearer the built-in grey than white
        ((150, 152, 152), (), "grey"),
        ((150, 152, 152), ("red", "blue", "white"), "white"),  # white is in play: white
        ((150, 152, 152), ("red", "blue", "grey", "white"), "grey"),  # both are: the nearer
        # a green die where no green is in play: far from every colour that is, it stays green
        (DEFAULT_COLOURS_BGR["green"], ("red", "blue", "white"), "green"),
        # a pink die in a game with red dice: pink and red lie too far apart to merge
        (DEFAULT_COLOURS_BGR["pink"], ("red", "blue"), "pink"),
    ],
)
def test_a_die_near_a_colour_in_play_is_named_by_it(bgr, in_play, named) -> None:
    palette = default_palette().in_play_only(in_play)
    names, certainty = palette.classify(np.array([bgr], np.float32))
    assert names[0] == named
    plain, plain_certainty = default_palette().classify(np.array([bgr], np.float32))
    if named != plain[0]:
        # weighed against the other colours in play only (red and blue lie far from white),
        # it is surer than among every colour, where grey lies near
        assert certainty[0] > 0.9 > plain_certainty[0]


def test_a_die_showing_pips_is_never_named_a_colour_whose_dice_are_all_blank() -> None:
    dim_white = np.array([(150, 152, 152)] * 2, np.float32)  # nearer grey than white
    royale = default_palette().in_play_only(("red", "white", "grey"), blank_only=("grey",))
    shows_pips = np.array([True, False])
    assert royale.classify(dim_white, shows_pips=shows_pips)[0].tolist() == ["white", "grey"]
    assert royale.classify(dim_white)[0].tolist() == ["grey", "grey"]  # pips not known
    either = default_palette().in_play_only(("red", "white", "grey"))
    assert either.classify(dim_white, shows_pips=shows_pips)[0].tolist() == ["grey", "grey"]


def test_before_the_game_is_known_a_die_showing_pips_is_not_named_grey() -> None:
    # White and black dice in a dim or bright room lie nearer the built-in grey; grey dice in
    # the game are blank, so a die with pips is named another colour.
    dim_white, light_black = (150, 152, 152), (112, 110, 108)
    bodies = np.array([dim_white, light_black, dim_white], np.float32)
    shows_pips = np.array([True, True, False])
    names = default_palette().classify(bodies, shows_pips=shows_pips)[0].tolist()
    assert names == ["white", "black", "grey"]
    assert default_palette(["red", "white"]).blank_only == ()


# The colours of one game and the rolls it may show: one player's dice, with white ones or not.
GAME = ("red", "purple", "pink", "yellow", "white")
ROLLS = [["pink"] * 6, ["purple"] * 5 + ["white"] * 2, ["red", "purple", "pink", "yellow"] * 3]


@pytest.mark.parametrize("gain", [tuple(WARM), tuple(COOL)], ids=["warm", "cool"])
@pytest.mark.parametrize("roll", ROLLS, ids=lambda roll: "-".join(sorted(set(roll))))
def test_the_light_is_judged_from_the_dice_in_play(gain, roll) -> None:
    rng = np.random.default_rng(11)
    frame, boxes = _frame(rng, roll, gain)
    bgr = body_colours(frame, boxes)
    palette = default_palette().in_play_only(GAME)
    lit = judged_light(palette, bgr)
    assert lit.classify(bgr)[0].tolist() == roll
    light = np.asarray(lit.light)
    # It undoes the light's cast: less of the channel the lamp made stronger, and no exposure.
    assert (light[0] > 1) == (gain[0] < 1) and (light[2] > 1) == (gain[2] < 1)
    assert light[1] == 1.0
    assert judged_light(palette, bgr, thorough=True).classify(bgr)[0].tolist() == roll


def test_a_stronger_cast_is_judged_from_the_rolls_of_a_round() -> None:
    rng = np.random.default_rng(11)
    rolls = [_frame(rng, roll, (0.7, 1.0, 1.25)) for roll in ROLLS]
    bodies = [body_colours(frame, boxes) for frame, boxes in rolls]
    palette = default_palette().in_play_only(GAME)
    # Without a light judged, none of the rolls is named right.
    assert all(
        palette.classify(bgr)[0].tolist() != roll for roll, bgr in zip(ROLLS, bodies, strict=True)
    )
    # One roll alone can mislead: purple and white dice under this lamp look red and yellow.
    assert judged_light(palette, bodies[1]).classify(bodies[1])[0].tolist() != ROLLS[1]
    # The rolls of a round together show every colour: judged from them, each roll is right.
    judged = judged_light(palette, np.concatenate(bodies), thorough=True)
    for roll, bgr in zip(ROLLS, bodies, strict=True):
        assert judged_light(judged, bgr).classify(bgr)[0].tolist() == roll


def test_boxes_read_weakly_do_not_sway_the_light() -> None:
    # Six purple dice under a faint green tint, and three letters of a printed logo that the
    # reader took weakly for dice: counted alike, the letters pull the light their way.
    palette = default_palette().in_play_only(GAME)
    purple = np.array([DEFAULT_COLOURS_BGR["purple"]] * 6, np.float32) * (0.97, 1.08, 0.95)
    bgr = np.concatenate([purple, np.full((3, 3), (90, 180, 140), np.float32)])
    alike = judged_light(palette, bgr)
    assert alike.classify(purple)[0].tolist() == ["pink"] * 6
    weighed = judged_light(palette, bgr, np.array([0.9] * 6 + [0.05] * 3))
    assert weighed.classify(purple)[0].tolist() == ["purple"] * 6
    assert judged_light(palette, bgr, np.zeros(9)) is palette  # nothing to weigh: none judged


def test_an_exposure_is_judged_from_rolls_that_show_a_hue() -> None:
    # A dim room: white dice look grey. The rolls of a game with red dice show how dim it is.
    rng = np.random.default_rng(21)
    dim = (0.7, 0.7, 0.7)
    rolls = [["grey"] * 5, ["red"] * 4 + ["white"] * 2, ["grey"] * 3 + ["white"] * 2]
    bodies = [body_colours(*_frame(rng, roll, dim)) for roll in rolls]
    palette = default_palette().in_play_only(["grey", "red", "white"])
    kept = judged_light(palette, np.concatenate(bodies), thorough=True, exposure=True)
    assert [judged_light(kept, bgr).classify(bgr)[0].tolist() for bgr in bodies] == rolls
    assert kept.light[1] > 1.2  # lighter: the room is dim
    left = judged_light(palette, np.concatenate(bodies), thorough=True)
    assert left.light[1] == 1.0
    assert left.classify(bodies[1])[0].tolist() == ["red"] * 4 + ["grey"] * 2
    # White, grey and black dice alone read as well one step darker: no exposure is kept.
    achromatic = default_palette().in_play_only(["grey", "black", "white"])
    bodies = [body_colours(*_frame(rng, [name] * 4, dim)) for name in ("grey", "black", "white")]
    judged = judged_light(achromatic, np.concatenate(bodies), thorough=True, exposure=True)
    assert judged.light[1] == 1


def test_dice_under_a_white_light_keep_their_names() -> None:
    rng = np.random.default_rng(12)
    palette = default_palette().in_play_only(GAME)
    for _ in range(5):
        names = list(rng.choice(GAME, 12))
        frame, boxes = _frame(rng, names)
        bgr = body_colours(frame, boxes)
        assert judged_light(palette, bgr).classify(bgr)[0].tolist() == names


def test_the_light_is_judged_only_for_an_uncalibrated_palette_with_colours_in_play() -> None:
    rng = np.random.default_rng(13)
    frame, boxes = _frame(rng, ["red", "blue", "white"], tuple(WARM))
    bgr = body_colours(frame, boxes)
    calibrated = calibrate_from_frame(frame, boxes, ["red", "blue", "white"])
    for palette in (default_palette(), calibrated.in_play_only(["red", "blue", "white"])):
        assert judged_light(palette, bgr) is palette
    in_play = default_palette().in_play_only(["red", "blue", "white"])
    assert judged_light(in_play, bgr[:0]) is in_play  # no dice: nothing to judge from
    # A light given by hand is three gains, one per channel.
    with pytest.raises(ValueError, match=r"light must have shape \(3,\), got \(2,\)"):
        replace(in_play, light=np.ones(2, np.float32))


def test_calibration_needs_a_name_per_box() -> None:
    frame, boxes = _frame(np.random.default_rng(0), ["red", "blue"])
    with pytest.raises(ValueError, match="one colour name per box, got 1 for 2"):
        calibrate_from_frame(frame, boxes, ["red"])


def test_body_colour_leaves_out_pips_and_the_table() -> None:
    frame = np.full((120, 220, 3), (30, 120, 40), np.uint8)  # green felt
    frame[20:100, 20:100] = (50, 45, 180)  # a red die ...
    frame[50:70, 50:70] = (240, 240, 240)  # ... with a large white pip in its middle
    frame[30:90, 130:190] = (225, 228, 228)  # a white die with a dark pip
    frame[55:65, 155:165] = (20, 20, 20)
    boxes = np.array([[20, 20, 100, 100], [130, 30, 190, 90]], np.float32)
    assert body_colours(frame, boxes).tolist() == [[50, 45, 180], [225, 228, 228]]
    assert body_colours(frame, boxes[:0]).shape == (0, 3)


def test_a_die_seen_obliquely_is_measured_on_its_top_face() -> None:
    # A red die seen from the front: its top face in the upper half of its box, its front
    # face, in shadow, in the lower half. Measured from the middle of the box, the shadow
    # weighs as much as the top; moved up, away from the side seen (down the crop), the top
    # face alone is measured.
    frame = np.full((140, 140, 3), (200, 200, 200), np.uint8)
    frame[20:70, 20:120] = (50, 45, 180)
    frame[70:120, 20:120] = (25, 20, 90)
    boxes = np.array([[20, 20, 120, 120]], np.float32)
    down = np.array([[0.0, 1.0]], np.float32)
    assert body_colours(frame, boxes, down).tolist() == [[50, 45, 180]]
    assert body_colours(frame, boxes).tolist() != [[50, 45, 180]]


def test_calibration_takes_the_body_colours_the_reader_measured() -> None:
    frame, boxes = _frame(np.random.default_rng(0), ["red", "blue"])
    bodies = np.array([[60, 50, 170], [170, 100, 40]], np.float32)
    palette = calibrate_from_frame(frame, boxes, ["red", "blue"], bodies)
    assert np.allclose(palette.means, to_lab(bodies), atol=0.01)


def test_body_colours_of_dice_the_reader_did_not_measure_are_measured_anew() -> None:
    from vision.colour import bodies_of
    from vision.detections import Detections

    frame = np.full((120, 220, 3), (30, 120, 40), np.uint8)
    frame[20:100, 20:100] = (50, 45, 180)
    boxes = np.array([[20, 20, 100, 100], [20, 20, 100, 100]], np.float32)
    told = np.array([[1, 2, 3], [np.nan, np.nan, np.nan]], np.float32)
    dice = Detections(boxes, [1, 2], ["red", "red"], ["regular"] * 2, [0.9, 0.9], [False] * 2)
    assert bodies_of(frame, replace(dice, body=told)).tolist() == [[1, 2, 3], [50, 45, 180]]


def test_table_colour_is_the_median_outside_the_dice() -> None:
    rng = np.random.default_rng(3)
    frame = rng.integers(90, 160, (480, 640, 3)).astype(np.uint8)
    frame[100:200, 100:200] = (0, 0, 255)
    boxes = np.array([[100, 100, 200, 200]], np.float32)
    got = background_colour(frame, boxes)
    small = cv2.resize(frame, (80, 60), interpolation=cv2.INTER_AREA)
    outside = np.ones((60, 80), bool)
    outside[12:26, 12:26] = False  # the box at 1/8 scale, rounded outward
    assert np.allclose(got, np.median(small[outside], axis=0), atol=0.5)


def test_lightness_between_two_colours_of_the_palette() -> None:
    palette = default_palette()
    black, grey = DEFAULT_COLOURS_BGR["black"], DEFAULT_COLOURS_BGR["grey"]
    between = palette.lightness_between(np.array([black, grey, (200, 200, 200)]), "black", "grey")
    assert between[0] == pytest.approx(0, abs=1e-3) and between[1] == pytest.approx(1, abs=0.02)
    assert between[2] > 1
    assert palette.lightness_between(np.zeros((0, 3)), "black", "grey").shape == (0,)


@pytest.mark.parametrize(
    "pip, name, confidence, body, kept, doubtful",
    [
        (0, "grey", 0.2, (140, 140, 138), "grey", False),  # a grey blank die
        (0, "black", 0.8, (66, 66, 66), "grey", False),  # a grey die in a shadow
        (0, "black", 0.35, (66, 66, 66), "grey", False),  # the same, read less surely
        (0, "black", 0.25, (66, 66, 66), None, False),  # the same, read too faintly: a cable's end
        (0, "black", 0.8, (35, 32, 30), None, False),  # a black block: a cable's ferrite
        (0, "red", 0.9, (45, 40, 195), None, False),  # a red blank "die": a plug
        (3, "black", 0.9, (35, 32, 30), "black", False),  # a black die with pips
        # A grey die under a lamp, or a white die whose pips a glare washes out: kept, in doubt.
        (0, "white", 0.6, (232, 230, 228), "grey", True),
        (0, "white", 0.3, (232, 230, 228), None, False),  # read blank faintly: a white plug
        (5, "white", 0.9, (232, 230, 228), "white", False),  # a white die with pips
        # A grey die in a cool or a warm light, named by the tint: kept, in doubt.
        (0, "darkblue", 0.6, (130, 90, 70), "grey", True),
        (0, "pink", 0.5, (160, 135, 190), "grey", True),
        (0, "darkblue", 0.3, (130, 90, 70), None, False),  # read blank faintly: a blue cap
        (0, "blue", 0.6, (200, 130, 60), None, False),  # a blue printed disc, far from grey
        (0, "darkblue", 0.6, (120, 75, 60), None, False),  # dark blue, only near grey
        (4, "darkblue", 0.9, (130, 90, 70), "darkblue", False),  # a die with pips keeps its name
    ],
)
def test_a_blank_face_is_a_grey_die_even_in_a_shadow_under_a_lamp_or_in_a_tint(
    pip, name, confidence, body, kept, doubtful
) -> None:
    from vision.reader import _blank_dice_grey

    real, names, in_doubt = _blank_dice_grey(
        np.array([pip]),
        np.array([name], object),
        np.array([confidence]),
        default_palette(),
        np.array([body]),
        None,
    )
    assert bool(real[0]) == (kept is not None)
    assert bool(in_doubt[0]) == doubtful
    if kept is not None:
        assert names[0] == kept
    # A table without grey dice has no blank ones: a blank face on a black body is no die.
    without_grey = default_palette(["black", "red", "white"])
    real, _, in_doubt = _blank_dice_grey(
        np.array([pip]),
        np.array([name], object),
        np.array([confidence]),
        without_grey,
        np.array([body]),
        None,
    )
    assert bool(real[0]) == (pip != 0 or name == "grey") and not in_doubt.any()


def test_a_die_between_two_colours_in_play_is_unsure_of_its_colour() -> None:
    """White and grey both in play: a body halfway between them is named with a certainty
    below the reader's COLOUR_SURE (in doubt), a red body with one above it."""
    from vision.reader import COLOUR_SURE

    palette = default_palette().in_play_only(("white", "grey", "red"))
    white, grey, red = (
        np.array(DEFAULT_COLOURS_BGR[n], np.float32) for n in ("white", "grey", "red")
    )
    _names, certainty = palette.classify(np.stack([(white + grey) / 2, red]))
    assert certainty[0] < COLOUR_SURE < certainty[1]


def test_a_die_showing_pips_named_grey_may_be_in_doubt_a_blank_grey_die_never() -> None:
    """Grey is a player's colour in some games: a die showing pips named grey, between grey
    and white, is in doubt like any other; a blank die named grey (Royale's) never is."""
    from vision import reader

    palette = default_palette().in_play_only(("white", "grey"))
    names = np.array(["grey", "grey", "white"], object)
    certainty = np.array([0.6, 0.6, 0.6], np.float32)
    shows_pips = np.array([True, False, True])
    doubt = reader._colour_in_doubt(palette, names, certainty, np.zeros(3, bool), shows_pips)
    assert doubt.tolist() == [True, False, True]


def test_a_die_far_from_every_colour_and_not_twice_as_far_from_the_next_is_in_doubt() -> None:
    """Red and orange only: a dark body between them lies far from both, so its margin in
    squared distance is wide, yet the next colour is less than NEXT_COLOUR_RATIO times as far:
    its colour is in doubt. A body at red itself stays sure."""
    from vision.colour import NEXT_COLOUR_RATIO
    from vision.reader import COLOUR_SURE

    palette = default_palette(("red", "orange"))
    red, orange = (np.array(DEFAULT_COLOURS_BGR[n], np.float32) for n in ("red", "orange"))
    between = 0.45 * (0.6 * red + 0.4 * orange)
    first, second = sorted(palette.distances(between[None])[0])
    assert second - first > 4 and second < NEXT_COLOUR_RATIO * first  # wide margin, near ratio
    _names, certainty = palette.classify(np.stack([between, red]))
    assert certainty[0] < COLOUR_SURE < certainty[1]
