"""What the camera reads becomes a roll or a choice only when it fits; otherwise it is flagged."""

from __future__ import annotations

import numpy as np
import pytest

from companion.session import GameStore
from vision.detections import Detections
from vision.video import DiceLeft, RollSettled
from web.actions import act
from web.hub import TableHub


def detections(dice, confidence=None):
    """Detections from (pips, colour, size, unsure) tuples laid out in a row, read at 0.9 or
    at the given confidences."""
    boxes = [[60 * i, 10, 60 * i + 50, 60] for i in range(len(dice))]
    return Detections(
        np.array(boxes, np.float32).reshape(-1, 4),
        [d[0] for d in dice],
        [d[1] for d in dice],
        [d[2] for d in dice],
        confidence or [0.9] * len(dice),
        [d[3] for d in dice],
    )


def new_table(path, options):
    """A table of Anna (red) and Ben (blue) with these options, the money dealt."""
    table = TableHub(GameStore(path), seed=2)
    act(
        table,
        {
            "action": "new_game",
            "base": "none",
            "edition": "classic",
            "options": options,
            "players": [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}],
        },
        None,
    )
    act(table, {"action": "simulate", "base": table.version()}, None)  # the deal
    return table


@pytest.fixture
def hub(tmp_path):
    return new_table(tmp_path / "t.sqlite3", {"neutral_dice": True})


def anna_roll(values, white=(2, 2, 2, 2)):
    """Anna's 8 red dice and the 4 white neutral dice she rolls in a 2-player game."""
    return [(v, "red", "regular", False) for v in values] + [
        (v, "white", "regular", False) for v in white
    ]


def test_a_fitting_roll_is_applied(hub):
    hub.on_camera_event(RollSettled(detections(anna_roll([1, 1, 2, 3, 4, 5, 6, 6]))))
    state = hub.session.state
    assert str(state.phase) == "choose"
    assert state.pending_roll.regular == (1, 1, 2, 3, 4, 5, 6, 6)
    assert state.pending_roll.neutral == (2, 2, 2, 2)
    assert hub.snapshot()["reading"]["applied"] is True


@pytest.mark.parametrize(
    ("dice", "problem"),
    [
        # a blue die: Ben's colour, but it is Anna's turn
        (anna_roll([1] * 7) + [(3, "blue", "regular", False)], "blue is Ben's colour"),
        # a green die: nobody plays green
        (anna_roll([1] * 7) + [(3, "green", "regular", False)], "no dice of this game are green"),
        # nine red dice: Anna has only eight
        (anna_roll([1] * 9), "has only 8 dice to roll"),
        # a die read as unsure (cocked, blurred)
        (anna_roll([1] * 7) + [(4, "red", "regular", True)], "could not be read for sure"),
        # a red Biggy: this game has no Biggies
        (anna_roll([1] * 7) + [(4, "red", "big", False)], "has only 0 Biggies"),
    ],
)
def test_dice_that_do_not_fit_are_flagged_not_applied(hub, dice, problem):
    before = hub.version()
    hub.on_camera_event(RollSettled(detections(dice)))
    assert hub.version() == before
    reading = hub.snapshot()["reading"]
    assert reading["roll"] is None
    assert any(d["problem"] and problem in d["problem"] for d in reading["dice"])


def test_the_die_read_least_surely_is_the_one_too_many(hub):
    # Nine red dice for Anna's eight: the third, read weakly, is likely a die read twice.
    dice = anna_roll([1, 2, 3, 4, 5, 6, 1, 2, 3])
    confidence = [0.9] * len(dice)
    confidence[2] = 0.3
    hub.on_camera_event(RollSettled(detections(dice, confidence)))
    reading = hub.snapshot()["reading"]
    flagged = [i for i, d in enumerate(reading["dice"]) if d["problem"]]
    assert flagged == [2]
    assert reading["dice"][2]["why"]["key"] == "too_many"
    assert [d["pips"] for d in reading["dice"]][:9] == [1, 2, 3, 4, 5, 6, 1, 2, 3]  # as read


def test_a_die_that_lay_there_before_the_throw_is_left_out_where_the_throw_fits(hub):
    # A green pattern printed in the arena reads as a die before the throw and after it.
    printed = (5, "green", "regular", False)
    dice = [printed, *anna_roll([1, 1, 2, 3, 4, 5, 6, 6])]
    stayed = np.array([True] + [False] * (len(dice) - 1))
    hub.on_camera_event(RollSettled(detections(dice), stayed))
    state = hub.session.state
    assert str(state.phase) == "choose"
    assert state.pending_roll.regular == (1, 1, 2, 3, 4, 5, 6, 6)
    reading = hub.snapshot()["reading"]
    assert reading["applied"] is True and reading["left_out"] == 1


def test_dice_that_lay_there_before_count_where_all_of_them_fit(hub):
    # A cocked die set flat again: the other dice stayed, and the roll needs them all.
    dice = anna_roll([1, 1, 2, 3, 4, 5, 6, 6])
    stayed = np.array([True] * len(dice))
    stayed[0] = False
    hub.on_camera_event(RollSettled(detections(dice), stayed))
    assert hub.session.state.pending_roll.regular == (1, 1, 2, 3, 4, 5, 6, 6)
    assert hub.snapshot()["reading"]["left_out"] == 0


def test_a_throw_that_does_not_fit_is_shown_without_what_lay_there_where_that_is_clearer(hub):
    before = hub.version()
    printed = (5, "green", "regular", False)
    dice = [printed, *anna_roll([1] * 7)]  # one red die short, with or without the print
    stayed = np.array([True] + [False] * (len(dice) - 1))
    hub.on_camera_event(RollSettled(detections(dice), stayed))
    assert hub.version() == before
    reading = hub.snapshot()["reading"]
    assert reading["roll"] is None and reading["left_out"] == 1
    assert [d["colour"] for d in reading["dice"]] == ["red"] * 7 + ["white"] * 4
    assert reading["whys"] == [
        {"key": "missing", "seen": 7, "player": "Anna", "count": 8, "kind": "regular"}
    ]


def test_a_throw_that_does_not_fit_is_shown_whole_where_that_is_as_clear(hub):
    # A cocked die read unsure after the others settled: left out, they would be missing.
    dice = anna_roll([1, 1, 2, 3, 4, 5, 6]) + [(6, "red", "regular", True)]
    stayed = np.array([True] * len(dice))
    stayed[-1] = False
    hub.on_camera_event(RollSettled(detections(dice), stayed))
    reading = hub.snapshot()["reading"]
    assert reading["roll"] is None and reading["left_out"] == 0
    assert len(reading["dice"]) == len(dice)
    assert [d["why"]["key"] for d in reading["dice"] if d["why"]] == ["unsure"]


def test_missing_dice_are_a_problem_of_the_roll(hub):
    hub.on_camera_event(RollSettled(detections(anna_roll([3] * 6))))
    reading = hub.snapshot()["reading"]
    assert "read 6 of Anna's 8 dice" in reading["problems"]
    assert str(hub.session.state.phase) == "roll"


def test_each_problem_comes_with_a_key_for_the_page(hub):
    hub.on_camera_event(
        RollSettled(detections(anna_roll([3] * 6) + [(2, "green", "regular", True)]))
    )
    reading = hub.snapshot()["reading"]
    assert reading["whys"] == [
        {"key": "missing", "seen": 6, "player": "Anna", "count": 8, "kind": "regular"}
    ]
    green = reading["dice"][-1]
    assert green["why"] == {"key": "no_such_colour", "colour": "green"}
    assert green["problem"] == "no dice of this game are green"
    assert all(d["why"] is None and d["problem"] is None for d in reading["dice"][:-1])


def test_one_die_of_a_kind_is_worded_as_one(tmp_path):
    table = new_table(tmp_path / "t.sqlite3", {"biggies": True})
    big = [(5, "red", "big", False)] * 2
    table.on_camera_event(RollSettled(detections([(1, "red", "regular", False)] * 7 + big)))
    reading = table.snapshot()["reading"]
    assert reading["dice"][-1]["problem"] == "Anna has only 1 Biggy to roll"
    assert reading["dice"][-1]["why"]["count"] == 1


def test_dice_leaving_the_arena_are_the_choice(hub):
    hub.on_camera_event(RollSettled(detections(anna_roll([1, 1, 2, 3, 4, 5, 6, 6], (6, 6, 1, 1)))))
    sixes = detections([(6, "red", "regular", False)] * 2 + [(6, "white", "regular", False)] * 2)
    hub.on_camera_event(DiceLeft(sixes))
    casino6 = hub.session.state.casino(6)
    assert sorted(d.owner for d in casino6.dice) == [-1, -1, 0, 0]
    assert str(hub.session.state.phase) == "roll" and hub.session.state.current == 1


def test_taking_only_some_of_a_number_is_not_a_choice(hub):
    hub.on_camera_event(RollSettled(detections(anna_roll([1, 1, 2, 3, 4, 5, 6, 6]))))
    hub.on_camera_event(DiceLeft(detections([(6, "red", "regular", False)])))  # one six of two
    assert str(hub.session.state.phase) == "choose"
    hub.on_camera_event(
        DiceLeft(detections([(1, "red", "regular", False), (2, "red", "regular", False)]))
    )
    assert str(hub.session.state.phase) == "choose"  # two numbers at once: not a choice


def test_a_roll_seen_while_nobody_rolls_changes_nothing(hub):
    hub.on_camera_event(RollSettled(detections(anna_roll([1, 1, 2, 3, 4, 5, 6, 6]))))
    before = hub.version()
    hub.on_camera_event(RollSettled(detections(anna_roll([2] * 8))))  # someone bumped the dice
    assert hub.version() == before


class TaughtCamera:
    """A camera stand-in that records what the table tells it of the rolls applied."""

    def __init__(self) -> None:
        self.taught: list[tuple[Detections, tuple[bool, ...], dict[str, int]]] = []

    def set_config(self, config: object) -> None:
        pass

    def snapshot(self) -> None:
        return None

    def with_learnt_colours(self, config):
        return config

    def roll_applied(self, dice, used, colours) -> bool:
        self.taught.append((dice, tuple(used), dict(colours)))
        return True

    def learnt_colours(self) -> dict:
        return {"rolls taught": len(self.taught)}

    def restore_learnt_colours(self, data: object) -> None:
        self.restored = data


def test_the_camera_is_told_the_colours_of_each_roll_applied_from_its_reading(hub):
    camera = TaughtCamera()
    hub.attach_camera(camera)
    # Applied as read, with a printed pattern that lay there before left out.
    printed = (5, "green", "regular", False)
    settled = detections([printed, *anna_roll([1, 1, 2, 3, 4, 5, 6, 6])])
    stayed = np.array([True] + [False] * 12)
    hub.on_camera_event(RollSettled(settled, stayed))
    assert camera.taught == [(settled, (False,) + (True,) * 12, {"red": 8, "white": 4})]
    act(
        hub,
        {
            "action": "event",
            "base": hub.version(),
            "event": hub.snapshot()["game"]["choices"][0]["event"],
        },
        None,
    )
    # Ben's throw is asked about (a die unsure); he enters it by hand.
    ben = [(v, "blue", "regular", False) for v in (1, 2, 3, 4, 5, 6, 6)]
    ben += [(2, "blue", "regular", True)] + [(3, "white", "regular", False)] * 4
    asked = detections(ben)
    hub.on_camera_event(RollSettled(asked))
    assert hub.snapshot()["reading"]["roll"] is None and len(camera.taught) == 1
    entries = [{"pips": v} for v in (1, 2, 2, 3, 4, 5, 6, 6)] + [{"pips": 3, "kind": "neutral"}] * 4
    act(hub, {"action": "roll", "base": hub.version(), "dice": entries}, None)
    assert camera.taught[1] == (asked, (True,) * 12, {"blue": 8, "white": 4})


def test_a_roll_drawn_by_chance_over_the_cameras_reading_teaches_nothing(hub):
    camera = TaughtCamera()
    hub.attach_camera(camera)
    hub.on_camera_event(RollSettled(detections(anna_roll([3] * 6))))  # two dice missing
    assert hub.snapshot()["reading"]["roll"] is None
    act(hub, {"action": "simulate", "base": hub.version()}, None)  # chance rolls for Anna
    assert str(hub.session.state.phase) == "choose" and camera.taught == []


def test_a_die_struck_out_on_the_page_is_left_out_of_what_the_camera_learns(hub):
    camera = TaughtCamera()
    hub.attach_camera(camera)
    # A bottle cap read as a ninth red die: the roll is flagged, and the person strikes it out.
    settled = detections(anna_roll([1, 1, 2, 3, 4, 5, 6, 6]) + [(3, "red", "regular", False)])
    hub.on_camera_event(RollSettled(settled))
    assert hub.snapshot()["reading"]["roll"] is None
    entries = [{"pips": v} for v in (1, 1, 2, 3, 4, 5, 6, 6)] + [{"pips": 2, "kind": "neutral"}] * 4
    kept = [True] * 12 + [False]
    base = hub.version()
    act(hub, {"action": "roll", "base": base, "dice": entries, "kept": kept}, None)
    assert camera.taught == [(settled, tuple(kept), {"red": 8, "white": 4})]


@pytest.mark.parametrize("kept", [[True, "yes"], "all", [1, 0]])
def test_a_malformed_kept_list_is_refused_and_the_roll_waits(hub, kept):
    from web.errors import ActionError

    entries = [{"pips": v} for v in (1, 1, 2, 3, 4, 5, 6, 6)]
    with pytest.raises(ActionError) as refused:
        act(hub, {"action": "roll", "base": hub.version(), "dice": entries, "kept": kept}, None)
    assert refused.value.status == 400 and "kept" in refused.value.message
    assert str(hub.session.state.phase) == "roll"


def test_what_the_camera_learnt_is_kept_in_the_game_file_and_handed_back_after_a_restart(
    tmp_path,
):
    from web.hub import colours_learnt_key

    path = tmp_path / "t.sqlite3"
    table = new_table(path, {"neutral_dice": True})
    camera = TaughtCamera()
    table.attach_camera(camera)
    assert not hasattr(camera, "restored")  # nothing kept yet
    table.on_camera_event(RollSettled(detections(anna_roll([1, 1, 2, 3, 4, 5, 6, 6]))))
    game_id = table.session.game_id
    assert table.store.setting(colours_learnt_key(game_id)) == {"rolls taught": 1}
    restarted = TableHub(GameStore(path), seed=2)
    camera_again = TaughtCamera()
    restarted.attach_camera(camera_again)
    assert camera_again.restored == {"rolls taught": 1}
