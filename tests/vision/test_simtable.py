"""The simulated table: deterministic frames, throw/take/lay, and frames the reader reads right."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from vision.colour import DEFAULT_COLOURS_BGR
from vision.reader import ReaderConfig, read_dice
from vision.simtable import AIR_FRAMES, HAND_FRAMES, SimDie, SimulatedTable
from vision.video import motion_level

ROLL = [
    SimDie("red", 3),
    SimDie("red", 3),
    SimDie("red", 5),
    SimDie("white", 1),
    SimDie("red", 6, big=True),
]


def _settle(table: SimulatedTable) -> np.ndarray:
    """Read frames until the table is at rest; the first frame at rest."""
    while not table.settled:
        table.read()
    return table.read()


def _motion(frames: list[np.ndarray]) -> list[float]:
    """The watcher's motion level between consecutive frames."""
    levels, prev = [], None
    for f in frames:
        level, prev = motion_level(prev, f)
        levels.append(level)
    return levels[1:]


def test_same_seed_same_frames() -> None:
    a, b, c = SimulatedTable(seed=7), SimulatedTable(seed=7), SimulatedTable(seed=8)
    for t in (a, b, c):
        t.throw(ROLL)
    frames_a = [a.read() for _ in range(AIR_FRAMES + 2)]
    frames_b = [b.read() for _ in range(AIR_FRAMES + 2)]
    assert all(np.array_equal(x, y) for x, y in zip(frames_a, frames_b, strict=True))
    assert a.lying == b.lying
    assert [d.centre for d in a.lying] != [d.centre for d in c.lying]


def test_throw_flies_then_lies_still() -> None:
    table = SimulatedTable(seed=1)
    table.read()
    table.throw(ROLL)
    assert table.dice == ROLL  # where they will lie, known at once (for tests)
    assert not table.settled
    frames = [table.read() for _ in range(AIR_FRAMES)]
    assert table.settled
    frames += [table.read() for _ in range(4)]
    levels = _motion(frames)
    assert min(levels[: AIR_FRAMES - 1]) > 12  # the watcher sees them move
    assert max(levels[AIR_FRAMES:]) < 4  # and then lie still, camera noise and all
    assert not np.array_equal(frames[-1], frames[-2])  # a camera never repeats a frame exactly


def test_dice_do_not_touch_and_stay_in_the_arena() -> None:
    table = SimulatedTable(seed=2)
    table.lay([SimDie("blue", 1 + k % 6, big=k < 2) for k in range(12)])
    lying = table.lying
    for i, a in enumerate(lying):
        x0, y0, x1, y1 = a.box
        assert x0 > 0 and y0 > 0 and x1 < table.width and y1 < table.height
        for b in lying[:i]:
            assert math.dist(a.centre, b.centre) > 0.62 * (a.side + b.side)


def test_take_removes_the_chosen_number_with_a_hand() -> None:
    table = SimulatedTable(seed=3)
    table.lay(ROLL)
    assert table.settled  # laid down: no flight
    assert table.take(3) == [SimDie("red", 3), SimDie("red", 3)]
    assert table.dice == [SimDie("red", 5), SimDie("white", 1), SimDie("red", 6, big=True)]
    frames = [table.read() for _ in range(HAND_FRAMES + 2)]
    assert max(_motion(frames)[:HAND_FRAMES]) > 12
    assert table.take(indices=[1]) == [SimDie("white", 1)]
    assert table.take(2) == []  # nothing shows 2
    with pytest.raises(IndexError, match="no die at index 5: 2 dice lie there"):
        table.take(indices=[5])
    table.clear()
    assert table.dice == []


@pytest.mark.parametrize(
    ("colour", "pips", "message"),
    [
        ("gold", 3, "colour must be one of red, blue"),  # not a palette colour
        ("red", 7, "pips must be 0-6, got 7"),  # no such face
        ("red", True, "pips must be 0-6, got True"),  # a flag is not a number
    ],
)
def test_bad_die(colour: str, pips: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SimDie(colour, pips)


def test_no_room() -> None:
    with pytest.raises(ValueError, match="no room on the table"):
        SimulatedTable(width=200, height=150).lay([SimDie("red", 1)] * 20)


KNOWN_SIDE = 0.977 * 50  # a regular die's side as vision.size measures it (LiveCamera learns it)


def _read_back(dice: list[SimDie], seed: int, side: float | None) -> tuple[Counter, Counter]:
    """What was thrown and what the reader read, as counts of (colour, pips, size)."""
    table = SimulatedTable(seed=seed)
    table.throw(dice)
    det = read_dice(_settle(table), ReaderConfig(regular_side_px=side))
    want = Counter((d.colour, d.pips, "big" if d.big else "regular") for d in dice)
    got = Counter(zip(det.colour.tolist(), det.pips.tolist(), det.size.tolist(), strict=True))
    assert not det.unsure.any()
    return want, got


@pytest.mark.parametrize(
    ("dice", "seed", "side"),
    [
        # one die of each Las Vegas colour, every face once
        (
            [
                SimDie(c, 1 + k % 6)
                for k, c in enumerate(
                    ["red", "blue", "green", "yellow", "purple", "black", "white", "orange"]
                )
            ],
            0,
            None,
        ),
        # a player's eight dice and their Biggy
        ([SimDie("green", 1 + k % 6) for k in range(8)] + [SimDie("green", 4, big=True)], 1, None),
        # near colours side by side: blue, dark blue, purple, black; pink, red, orange
        (
            [
                SimDie(c, 6)
                for c in ("blue", "darkblue", "purple", "black", "pink", "red", "orange")
            ],
            2,
            None,
        ),
        # blank grey dice next to white and yellow ones
        ([SimDie("grey", 0), SimDie("grey", 0), SimDie("white", 2), SimDie("yellow", 5)], 3, None),
        # every palette colour at once
        ([SimDie(c, 0 if c == "grey" else 5) for c in DEFAULT_COLOURS_BGR], 5, None),
        # two dice, one a Biggy: with only two, a turned regular die's box can hide the Biggy
        # from the reader's box pre-check, so the regular side is given (as LiveCamera does)
        ([SimDie("black", 6), SimDie("black", 3, big=True)], 4, KNOWN_SIDE),
        # a player's last die, the Biggy, alone: nothing in the frame to compare it with
        ([SimDie("yellow", 2, big=True)], 6, KNOWN_SIDE),
    ],
)
def test_reader_reads_the_table_exactly(dice: list[SimDie], seed: int, side: float | None) -> None:
    want, got = _read_back(dice, seed, side)
    assert got == want


def test_a_blank_face_counts_only_on_a_grey_die() -> None:
    # Only the grey dice have no pips. A black block without pips is what a cable ferrite
    # looks like from above: it is dropped, not reported as a black blank die.
    table = SimulatedTable(seed=8)
    table.throw([SimDie("grey", 0), SimDie("black", 0), SimDie("red", 4)])
    det = read_dice(_settle(table))
    got = Counter(zip(det.colour.tolist(), det.pips.tolist(), strict=True))
    assert got == Counter({("grey", 0): 1, ("red", 4): 1})


def test_grey_dice_in_a_dim_room_are_still_grey_dice() -> None:
    # At half the light the default palette names the grey dice black; blank faces read surely
    # on bodies lighter than black dice are grey dice all the same. The black block still goes.
    table = SimulatedTable(seed=8)
    table.throw([SimDie("grey", 0), SimDie("grey", 0), SimDie("black", 0), SimDie("red", 4)])
    dim = (_settle(table) * 0.5).astype(np.uint8)
    det = read_dice(dim)
    got = Counter(zip(det.colour.tolist(), det.pips.tolist(), strict=True))
    assert got == Counter({("grey", 0): 2, ("red", 4): 1})


def test_an_empty_table_is_looked_at_no_closer_than_usual(monkeypatch) -> None:
    # A thin box on the table's rim once sent the reader to a second look at 1040 px (about
    # ten times the work) on every frame of an empty arena.
    from vision import locate

    sides: list[int] = []
    look = locate.locate_at

    def counted(session, frame, long_side, threshold=0.3):
        sides.append(long_side)
        return look(session, frame, long_side, threshold)

    monkeypatch.setattr(locate, "locate_at", counted)
    for seed in range(4):
        table = SimulatedTable(seed=seed)
        assert len(read_dice(_settle(table))) == 0
    assert sides and max(sides) <= locate.LOCATOR_LONG_SIDE
