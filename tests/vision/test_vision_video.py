"""The roll watcher: a roll is reported once the dice settle, and dice leaving are reported."""

from __future__ import annotations

import cv2
import numpy as np
from vision_synth import dice_frame

from vision.detections import Detections
from vision.video import DiceLeft, Phase, RollSettled, RollWatcher, motion_level, vote

RED = (50, 45, 180)


def _det(dice, unsure=None) -> Detections:
    """Detections for (cx, cy, side, bgr, pips) dice as a perfect reader would give them."""
    n = len(dice)
    boxes = np.array(
        [[x - s / 2, y - s / 2, x + s / 2, y + s / 2] for x, y, s, _, _ in dice], np.float32
    ).reshape(-1, 4)
    return Detections(
        boxes,
        [p for *_, p in dice],
        ["red"] * n,
        ["regular"] * n,
        [0.95] * n,
        unsure or [False] * n,
    )


class Script:
    """Frames with the readings a reader would return for them; the fake reader looks them up."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng(3)
        self.frames: list[np.ndarray] = []
        self.readings: list[Detections] = []

    def add(self, dice, count=1, misread: int | None = None) -> None:
        for k in range(count):
            frame, _ = dice_frame(dice, self.rng)
            self.frames.append(frame)
            det = _det(dice)
            if misread is not None and k == 0 and len(dice):
                pips = det.pips.copy()
                pips[misread] = pips[misread] % 6 + 1  # one frame reads one die wrong
                det = Detections(det.boxes, pips, det.colour, det.size, det.confidence, det.unsure)
            self.readings.append(det)

    def tumbling(self, count: int) -> None:
        for _ in range(count):
            dice = [
                (self.rng.uniform(50, 590), self.rng.uniform(50, 430), 40, RED, 1) for _ in range(5)
            ]
            self.add(dice)

    def read(self, frame: np.ndarray) -> Detections:
        return self.readings[next(i for i, f in enumerate(self.frames) if f is frame)]


ROLL = [
    (100, 100, 40, RED, 3),
    (200, 150, 40, RED, 5),
    (300, 300, 40, RED, 3),
    (450, 200, 40, RED, 1),
    (500, 400, 40, RED, 6),
]


def test_roll_then_dice_taken_then_empty() -> None:
    s = Script()
    s.add([], 3)  # empty arena
    s.tumbling(4)  # dice rolling
    s.add(ROLL, 4, misread=1)  # settled; the first still frame misreads one die
    s.tumbling(2)  # a hand takes the 3s
    s.add([d for d in ROLL if d[4] != 3], 4)
    s.tumbling(2)  # the rest are cleared away
    s.add([], 4)
    watcher = RollWatcher(read=s.read)
    events = []
    phases = []
    for f in s.frames:
        events += watcher.update(f)
        phases.append(watcher.phase)
    assert [type(e) for e in events] == [RollSettled, DiceLeft, DiceLeft]
    assert sorted(events[0].dice.pips.tolist()) == [1, 3, 3, 5, 6]
    assert not events[0].dice.unsure.any()
    assert sorted(events[1].dice.pips.tolist()) == [3, 3]
    assert sorted(events[2].dice.pips.tolist()) == [1, 5, 6]
    assert Phase.MOVING in phases and phases[-1] == Phase.EMPTY


def test_nothing_reported_while_moving() -> None:
    s = Script()
    s.tumbling(10)
    watcher = RollWatcher(read=s.read)
    assert all(watcher.update(f) == [] for f in s.frames)
    assert watcher.phase == Phase.MOVING


def test_disturbed_but_same_dice_is_not_a_new_roll() -> None:
    s = Script()
    s.tumbling(2)
    s.add(ROLL, 4)  # the first still frame still differs from the last moving one
    s.tumbling(1)  # someone bumps the table
    s.add(ROLL, 4)
    watcher = RollWatcher(read=s.read)
    events = [e for f in s.frames for e in watcher.update(f)]
    assert [type(e) for e in events] == [RollSettled]


def test_a_roll_marks_the_dice_that_lay_there_before_the_throw() -> None:
    left = (560, 60, 40, RED, 4)  # a die left in the arena (or a print read as one)
    s = Script()
    s.add([left], 4)
    s.tumbling(3)
    s.add([left, *ROLL], 4)
    watcher = RollWatcher(read=s.read)
    events = [e for f in s.frames for e in watcher.update(f)]
    assert [type(e) for e in events] == [RollSettled, RollSettled]
    assert events[0].stayed is None and events[0].thrown().tolist() == [True]
    roll = events[1]
    assert roll.stayed is not None
    thrown = roll.dice.select(roll.thrown())
    assert sorted(thrown.pips.tolist()) == [1, 3, 3, 5, 6]
    assert roll.dice.select(roll.stayed).centres.tolist() == [[560, 60]]


def test_vote_marks_disagreement_unsure() -> None:
    a = _det([(100, 100, 40, RED, 4)])
    b = _det([(101, 100, 40, RED, 5)])
    voted = vote([a, b, a, b])
    assert len(voted) == 1 and bool(voted.unsure[0])


def test_vote_keeps_a_die_unsure_in_every_frame_unsure() -> None:
    # A die the picture's edge cuts is guessed alike in every frame, and read for sure in none.
    doubtful = _det([(100, 100, 40, RED, 4), (300, 200, 40, RED, 2)], unsure=[False, True])
    voted = vote([doubtful] * 4)
    assert voted.pips.tolist() == [4, 2] and voted.unsure.tolist() == [False, True]
    # One frame reading it for sure outvotes nothing: one sure reading of four is too few.
    sure_once = _det([(100, 100, 40, RED, 4), (300, 200, 40, RED, 2)])
    assert vote([sure_once, doubtful, doubtful, doubtful]).unsure.tolist() == [False, True]
    assert vote([sure_once, sure_once, sure_once, doubtful]).unsure.tolist() == [False, False]


def test_vote_keeps_a_colour_in_doubt_in_every_frame_in_doubt() -> None:
    from dataclasses import replace

    # Light blue dice before calibration: named white in every frame, a guess each time.
    two = _det([(100, 100, 40, RED, 4), (300, 200, 40, RED, 2)])
    bodies = np.array([[250, 200, 100], [45, 40, 195]], np.float32)
    guessed = replace(
        two,
        colour=np.array(["white", "red"], object),
        colour_doubt=np.array([True, False]),
        body=bodies,
    )
    voted = vote([guessed] * 4)
    assert voted.colour.tolist() == ["white", "red"]
    assert voted.colour_doubt.tolist() == [True, False]
    assert np.allclose(voted.body, bodies)
    # Frames that name it surely outvote the guesses, where they agree and are half or more.
    named = replace(
        guessed, colour=np.array(["blue", "red"], object), colour_doubt=np.zeros(2, bool)
    )
    assert vote([named, named, guessed, guessed]).colour.tolist() == ["blue", "red"]
    assert not vote([named, named, guessed, guessed]).colour_doubt.any()
    assert vote([named, guessed, guessed, guessed]).colour_doubt.tolist() == [True, False]
    # Sure frames that disagree leave the colour in doubt.
    other = replace(named, colour=np.array(["purple", "red"], object))
    assert vote([named, other, named, other]).colour_doubt.tolist() == [True, False]


def test_one_lone_die_landing_is_motion() -> None:
    # One 50 px die in a 640x480 frame covers under 1 % of the picture; it must still count.
    rng = np.random.default_rng(0)
    table = np.clip(rng.normal(90, 3, (480, 640, 3)), 0, 255).astype(np.uint8)
    with_die = table.copy()
    cv2.rectangle(with_die, (300, 200), (350, 250), (60, 60, 230), -1)  # a red die
    _, prev = motion_level(None, table)
    assert motion_level(prev, table)[0] < 3.0
    assert motion_level(prev, with_die)[0] > RollWatcher(read=lambda f: None).motion_threshold


def test_die_as_bright_as_the_felt_is_motion() -> None:
    # A red die has about the brightness of a mid-grey felt: only its colour differs.
    felt = np.full((480, 640, 3), 111, np.uint8)
    with_die = felt.copy()
    cv2.rectangle(with_die, (300, 200), (350, 250), (60, 60, 230), -1)
    grey = cv2.cvtColor(with_die, cv2.COLOR_BGR2GRAY)
    assert abs(int(grey[225, 325]) - 111) <= 2  # the same brightness in grey
    _, prev = motion_level(None, felt)
    assert motion_level(prev, with_die)[0] > RollWatcher(read=lambda f: None).motion_threshold
