"""The table check: the casinos as the camera reads them against the game, and what each
difference changes at the payout."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from helpers_play import fresh_game, next_random_event
from table import PLAIN_DEAL, casino, started, with_casinos

from companion.check_sentences import Owner, Sentence
from companion.cli import main
from companion.cli_check import check_words
from companion.engine import apply
from companion.events import DealRound, ResolvePayout, TableDie
from companion.record import record_from_events
from companion.state import WHITE, Casino, GameState, Phase, PlacedDie
from companion.table_check import SeenCasino, UnsureDie, check_table

ANNA, BEN, CARLA = 0, 1, 2
COLOURS = {ANNA: "red", BEN: "blue", CARLA: "green", WHITE: "white"}


SEVEN = DealRound(((60_000,), (50_000,), (70_000,), (80_000,), (90_000,), (50_000,), (60_000,)))


def game(*casinos: Casino, **options) -> GameState:
    """A dealt 3-player game with some casinos set by hand."""
    deal = SEVEN if options.get("slot_machine") else PLAIN_DEAL
    return with_casinos(started(["Anna", "Ben", "Carla"], deal, **options), *casinos)


def as_seen(state: GameState, **changed: SeenCasino) -> list[SeenCasino]:
    """What a camera reads where the table shows the game exactly, but for `changed`
    ('c4': SeenCasino(...))."""
    out = []
    for c in state.casinos:
        same = SeenCasino(c.number, tuple(TableDie(d.owner, d.big, d.value) for d in c.dice))
        out.append(changed.get(f"c{c.number}", same))
    return out


def dice(*owners: int, big: tuple[int, ...] = ()) -> tuple[TableDie, ...]:
    return tuple(TableDie(o) for o in owners) + tuple(TableDie(o, True) for o in big)


def test_a_table_that_shows_the_game_agrees():
    state = game(casino(4, (60_000, 30_000), p0=4, p1=3), casino(2, (50_000,), white=2))
    check = check_table(state, as_seen(state), COLOURS)
    assert check.agrees
    four = check.to_dict()["casinos"][3]
    assert four == {
        "casino": 4,
        "table": {"Anna": 4, "Ben": 3},
        "game": {"Anna": 4, "Ben": 3},
        "unsure": 0,
        "differences": [],
        "payout_changes": "",
    }
    assert check.to_dict()["casinos"][1]["table"] == {"neutral": 2}  # white dice are neutral


def test_a_die_missing_makes_a_tie_and_says_so():
    state = game(casino(4, (60_000, 30_000), p0=4, p1=3))
    seen = as_seen(state, c4=SeenCasino(4, dice(ANNA, ANNA, ANNA, BEN, BEN, BEN)))
    four = check_table(state, seen, COLOURS).casinos[3]
    assert not four.agrees
    assert four.table == (("Anna", 3), ("Ben", 3))
    assert four.differences == ("the table shows 3 red (Anna) on casino 4, the game has 4",)
    assert four.payout_changes == (
        "with 3, red (Anna) ties with blue (Ben) and both are cancelled; "
        "blue (Ben) gets nothing instead of $30,000; red (Anna) gets nothing instead of $60,000"
    )


def test_a_die_added_breaks_a_tie():
    state = game(casino(5, (90_000, 20_000), p0=2, p1=2, p2=1))
    seen = as_seen(state, c5=SeenCasino(5, dice(ANNA, ANNA, BEN, BEN, BEN, CARLA)))
    five = check_table(state, seen, COLOURS).casinos[4]
    assert five.differences == ("the table shows 3 blue (Ben) on casino 5, the game has 2",)
    assert "red (Anna) and blue (Ben) no longer tie" in five.payout_changes
    assert "blue (Ben) gets $90,000 instead of nothing" in five.payout_changes
    assert "green (Carla) gets nothing instead of $90,000" in five.payout_changes
    assert "red (Anna) gets $20,000 instead of nothing" in five.payout_changes


def test_a_difference_that_pays_the_same_says_so():
    state = game(casino(3, (70_000,), p0=4, p1=1))
    seen = as_seen(state, c3=SeenCasino(3, dice(ANNA, ANNA, ANNA, BEN)))
    three = check_table(state, seen, COLOURS).casinos[2]
    assert three.differences and three.payout_changes == "no change at payout"


def test_a_biggy_seen_as_a_regular_die_counts_one_less():
    # Anna's Biggy is read on casino 2, so the die read regular on casino 6 is one.
    state = game(
        Casino(6, (80_000, 10_000), (PlacedDie(ANNA, 6, True, 1), PlacedDie(BEN, 6, False, 1))),
        Casino(2, (50_000,), (PlacedDie(BEN, 2, False, 1),)),
        biggies=True,
    )
    seen = as_seen(
        state, c6=SeenCasino(6, dice(ANNA, BEN)), c2=SeenCasino(2, dice(BEN, big=(ANNA,)))
    )
    check = check_table(state, seen, COLOURS)
    six = check.casinos[5]
    assert six.game == (("Anna", 2), ("Ben", 1))
    assert six.table == (("Anna", 1), ("Ben", 1))
    assert six.differences == (
        "the table shows 1 red (Anna) on casino 6 (1 die), the game has 2 (a Biggy)",
    )
    assert six.payout_changes.startswith("with 1, red (Anna) ties with blue (Ben)")
    assert check.casinos[1].differences


def test_a_biggy_read_nowhere_but_read_regular_where_it_lies_is_in_doubt():
    # At a round's end every Biggy lies on a casino: read on none, and casino 6 showing as many
    # of Anna's dice as the game holds there, one of them is her Biggy read too small (a
    # note's edge over it), not a die put in its place.
    state = game(
        Casino(6, (80_000, 10_000), (PlacedDie(ANNA, 6, True, 1), PlacedDie(BEN, 6, False, 1))),
        biggies=True,
    )
    seen = as_seen(state, c6=SeenCasino(6, dice(ANNA, BEN)))
    check = check_table(state, seen, COLOURS)
    six = check.casinos[5]
    assert six.differences == ()
    assert (six.unsure, six.table) == (1, (("Ben", 1),))
    assert six.payout_changes.startswith("not known while 1 die is not read for sure; if it is")
    assert "if it is a Biggy of red (Anna): no change at payout" in six.payout_changes
    assert not check.payout_may_go_on
    # The check says whose Biggy may be among the dice there, so the page can point at them.
    assert six.biggy_doubts == ("Anna",)
    assert six.to_dict()["biggy_in_doubt"] == ["Anna"]
    assert all(c.biggy_doubts == () for c in check.casinos if c.casino != 6)
    words = check_words(check)
    assert (
        "Casino 6: Anna's Biggy was read on no casino; one of Anna's dice here may be it" in words
    )
    assert "not read for sure" not in words.split("At payout")[0]


def test_a_biggy_read_nowhere_with_a_die_too_many_where_it_lies_is_a_difference():
    state = game(
        Casino(6, (80_000, 10_000), (PlacedDie(ANNA, 6, True, 1), PlacedDie(BEN, 6, False, 1))),
        biggies=True,
    )
    seen = as_seen(state, c6=SeenCasino(6, dice(ANNA, ANNA, BEN)))
    six = check_table(state, seen, COLOURS).casinos[5]
    assert (six.unsure, six.biggy_doubts) == (0, ())
    assert "biggy_in_doubt" not in six.to_dict()
    assert six.differences == (
        "the table shows 2 red (Anna) on casino 6 (2 dice), the game has 2 (a Biggy)",
    )


def test_a_biggy_for_two_dice_is_a_difference_that_pays_the_same():
    state = game(casino(2, (50_000,), p0=2), biggies=True)
    seen = as_seen(state, c2=SeenCasino(2, dice(big=(ANNA,))))
    two = check_table(state, seen, COLOURS).casinos[1]
    assert two.differences == (
        "the table shows 2 red (Anna) on casino 2 (a Biggy), the game has 2 (2 dice)",
    )
    assert two.payout_changes == "no change at payout"


def test_the_slot_machine_compares_values():
    slot = Casino(7, (60_000,), (PlacedDie(ANNA, 5, False, 1), PlacedDie(BEN, 4, False, 2)))
    state = game(slot, slot_machine=True)
    seen = as_seen(state, c7=SeenCasino(7, (TableDie(ANNA, value=3), TableDie(BEN, value=4))))
    check = check_table(state, seen, COLOURS).casinos[6]
    assert check.to_dict()["casino"] == "slot"
    assert check.differences == (
        "the table shows 1 red (Anna) on the slot machine showing 3, the game has 1 showing 5",
    )
    assert "blue (Ben) gets $60,000 instead of nothing" in check.payout_changes


@pytest.mark.parametrize(
    ("seen", "message"),
    [
        # a die seen but not read for sure: no difference, yet no agreement either
        (SeenCasino(4, dice(ANNA), unsure=1), None),
        # a die of a colour nobody plays
        (
            SeenCasino(4, dice(ANNA), strangers=("orange",)),
            "the table shows 1 orange die on casino 4 of a colour no one plays in this game",
        ),
    ],
)
def test_unsure_and_stray_dice_keep_a_casino_from_agreeing(seen, message):
    state = game(casino(4, (60_000,), p0=1))
    four = check_table(state, as_seen(state, c4=seen), COLOURS).casinos[3]
    assert not four.agrees
    assert list(four.differences) == ([message] if message else [])
    assert four.unsure == seen.unsure


def test_a_casino_the_camera_does_not_see_is_no_agreement():
    state = game(casino(4, (60_000,), p0=1))
    seen = [s for s in as_seen(state) if s.casino != 4]
    check = check_table(state, seen, COLOURS)
    assert not check.agrees
    four = check.to_dict()["casinos"][3]
    assert four["table"] is None
    assert four["differences"] == ["the camera does not see casino 4"]


def test_without_colours_owners_are_named():
    state = game(casino(4, (60_000, 30_000), p0=4, p1=3))
    seen = as_seen(state, c4=SeenCasino(4, dice(ANNA, ANNA, ANNA, BEN, BEN, BEN)))
    four = check_table(state, seen).casinos[3]
    assert four.differences == ("the table shows 3 for Anna on casino 4, the game has 4",)
    assert four.payout_changes.startswith("with 3, Anna ties with Ben and both are cancelled")


def test_three_way_tie_words():
    state = game(casino(1, (60_000,), p0=2, p1=2, p2=3))
    seen = as_seen(state, c1=SeenCasino(1, dice(ANNA, ANNA, BEN, BEN, CARLA, CARLA)))
    one = check_table(state, seen, COLOURS).casinos[0]
    assert one.payout_changes.startswith(
        "with 2, red (Anna), blue (Ben) and green (Carla) tie and all are cancelled"
    )


@pytest.mark.parametrize(
    ("seen_dice", "unsure", "differences"),
    [
        # one die not seen, one die not read for sure: that may be it, no difference claimed
        (dice(ANNA, ANNA, ANNA, BEN, BEN, BEN), 1, []),
        # two dice not seen but one not read for sure: both shortfalls are told
        (
            dice(ANNA, ANNA, ANNA, BEN, BEN),
            1,
            [
                "the table shows 2 blue (Ben) on casino 4, the game has 3",
                "the table shows 3 red (Anna) on casino 4, the game has 4",
            ],
        ),
        # a die too many is no die not read for sure
        (
            dice(ANNA, ANNA, ANNA, ANNA, BEN, BEN, BEN, CARLA),
            1,
            ["the table shows 1 green (Carla) on casino 4, the game has 0"],
        ),
    ],
)
def test_dice_not_read_for_sure_are_never_guessed(seen_dice, unsure, differences):
    state = game(casino(4, (60_000, 30_000), p0=4, p1=3))
    seen = as_seen(state, c4=SeenCasino(4, seen_dice, unsure=unsure))
    four = check_table(state, seen, COLOURS).casinos[3]
    assert list(four.differences) == differences
    # which reading gives which change is told, never one guessed
    assert four.payout_changes.startswith("not known while 1 die is not read for sure; if it is")
    assert not four.agrees


def test_a_difference_beside_a_die_not_read_for_sure_is_named_as_on_the_true_table():
    # Ben's die added to casino 4, and one of Anna's four not read for sure: the unsure die
    # stands for the game's unseen one, so the added die's effect is what the true table gives.
    state = game(casino(4, (60_000, 30_000), p0=4, p1=3))
    true_table = as_seen(state, c4=SeenCasino(4, dice(ANNA, ANNA, ANNA, ANNA, BEN, BEN, BEN, BEN)))
    half_hidden = as_seen(state, c4=SeenCasino(4, dice(ANNA, ANNA, ANNA, BEN, BEN, BEN, BEN), 1))
    meant = check_table(state, true_table, COLOURS).casinos[3]
    four = check_table(state, half_hidden, COLOURS).casinos[3]
    assert four.differences == ("the table shows 4 blue (Ben) on casino 4, the game has 3",)
    assert meant.payout_changes.startswith("with 4, red (Anna) ties with blue (Ben)")
    assert four.payout_changes == meant.payout_changes
    assert four.unsure == 1 and not four.agrees


# --- lasvegas check-table -----------------------------------------------------------------------


PLAYER_COLOURS = {"Anna": "red", "Ben": "blue", "Carla": "green"}


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    """A record that ends with a round's payout, photos of its casinos as the game holds them
    and with a die moved, and the zones as a corners file."""
    import cv2

    from vision.sim_casinos import misplace, row_scene
    from vision.simtable import SimDie

    folder = tmp_path_factory.mktemp("check")
    initial = fresh_game({"biggies": True})
    state, events = initial, []
    rng = random.Random(2)
    while state.phase is not Phase.PAYOUT:
        event = next_random_event(state, rng)
        state, events = apply(state, event), events + [event]
    record = record_from_events(initial, events + [ResolvePayout()])
    (folder / "plain.json").write_text(json.dumps(record))
    (folder / "record.json").write_text(json.dumps(record | {"colours": PLAYER_COLOURS}))
    colour = {seat: PLAYER_COLOURS[name] for seat, name in enumerate(state.players)}
    dice = {
        c.number: [SimDie(colour[d.owner], d.value, d.big) for d in c.dice] for c in state.casinos
    }
    notes = {c.number: c.notes for c in state.casinos}
    scene = row_scene(dice, notes, seed=4)
    cv2.imwrite(str(folder / "table.png"), scene.frame)
    wrong, moved = misplace(
        dice, np.random.default_rng(3), sorted(PLAYER_COLOURS.values()), "moved"
    )
    cv2.imwrite(str(folder / "moved.png"), row_scene(wrong, notes, seed=4).frame)
    # Corners tapped by hand, a little inside the printed markers.
    corners = {
        n: (p + np.sign(p.mean(0) - p) * 6).tolist()
        for n, p in zip(scene.zones.names, scene.zones.polygons, strict=True)
    }
    (folder / "zones.json").write_text(json.dumps(corners))
    return folder, state, moved


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    status = main(["check-table", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_photo_of_the_table_as_the_game_holds_it_agrees(photo, capsys):
    folder, state, _ = photo
    status, out, err = run_cli(
        capsys, str(folder / "table.png"), "--record", str(folder / "record.json"), "--json"
    )
    assert (status, err) == (0, "")
    check = json.loads(out)
    assert check["agrees"] is True
    assert [c["casino"] for c in check["casinos"]] == [1, 2, 3, 4, 5, 6]
    for checked, held in zip(check["casinos"], state.casinos, strict=False):
        assert set(checked) == {
            "casino",
            "table",
            "game",
            "unsure",
            "differences",
            "payout_changes",
        }
        assert checked["table"] == checked["game"]
        assert sum(checked["game"].values()) == sum(held.counted().values())


def test_a_die_on_the_wrong_casino_is_caught_with_its_payout_effect(photo, capsys):
    folder, _, moved = photo
    status, out, _ = run_cli(
        capsys,
        str(folder / "moved.png"),
        "--record",
        str(folder / "plain.json"),
        "--colours",
        *(f"{name}={colour}" for name, colour in PLAYER_COLOURS.items()),
        "--zones",
        str(folder / "zones.json"),
        "--json",
    )
    check = json.loads(out)
    assert status == 1 and check["agrees"] is False
    flagged = {c["casino"] for c in check["casinos"] if c["differences"]}
    assert flagged == {moved.source, moved.target}
    assert all(c["payout_changes"] for c in check["casinos"] if c["differences"])


def test_the_words_say_what_differs(photo, capsys):
    folder, _, moved = photo
    status, out, _ = run_cli(
        capsys, str(folder / "moved.png"), "--record", str(folder / "record.json")
    )
    assert status == 1
    assert f"Casino {moved.source}: the table shows" in out
    assert "At payout:" in out


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # no such image
        (lambda f: ["missing.png", "--record", f / "record.json"], "missing.png: no such file"),
        # an image file that is no image
        (lambda f: [f / "record.json", "--record", f / "record.json"], "not a readable image"),
        # a record that is not JSON
        (lambda f: [f / "table.png", "--record", f / "zones.txt"], "is not JSON"),
        # a record that breaks a rule
        (lambda f: [f / "table.png", "--record", f / "broken.json"], "step 1 (round 1, deal)"),
        # a zones file that is not zones
        (
            lambda f: [
                f / "table.png",
                "--record",
                f / "record.json",
                "--zones",
                f / "record.json",
            ],
            "--zones",
        ),
        # a player without a colour
        (lambda f: [f / "table.png", "--record", f / "plain.json"], "no dice colour for Anna"),
        # a name that is not in the game
        (
            lambda f: [f / "table.png", "--record", f / "record.json", "--colours", "Dora=red"],
            "'Dora' is not in this game",
        ),
        # a colour the palette does not know
        (
            lambda f: [f / "table.png", "--record", f / "record.json", "--colours", "Anna=teal"],
            "the palette has no colour 'teal'",
        ),
        # one colour for two players
        (
            lambda f: [f / "table.png", "--record", f / "record.json", "--colours", "Ben=red"],
            "two owners cannot both play red dice",
        ),
    ],
)
def test_bad_input_gets_one_line_and_status_2(photo, capsys, change, message):
    folder = photo[0]
    broken = json.loads((folder / "record.json").read_text())
    broken["rounds"][0]["casinos"]["1"] = [10]
    (folder / "broken.json").write_text(json.dumps(broken))
    (folder / "zones.txt").write_text("casino1: here")
    status, out, err = run_cli(capsys, *map(str, change(folder)))
    assert status == 2 and out == ""
    assert err.startswith("lasvegas check-table: ") and err.count("\n") == 1
    assert message in err


def test_the_words_do_not_depend_on_the_order_the_dice_were_laid_in():
    words = set()
    for order in ((ANNA, BEN, ANNA, BEN, CARLA), (CARLA, BEN, BEN, ANNA, ANNA)):
        held = Casino(1, (60_000,), tuple(PlacedDie(o, 1, False, 1) for o in order))
        state = game(held)
        seen = as_seen(state, c1=SeenCasino(1, dice(ANNA, ANNA, BEN, BEN, CARLA, CARLA)))
        words.add(check_table(state, seen, COLOURS).casinos[0].payout_changes)
    assert words == {
        "with 2, red (Anna), blue (Ben) and green (Carla) tie and all are cancelled; "
        "red (Anna) and blue (Ben) no longer tie; green (Carla) gets nothing instead of $60,000"
    }


def test_a_biggy_not_on_the_table_is_told_without_a_size_for_nothing():
    state = game(
        Casino(6, (80_000,), (PlacedDie(ANNA, 6, True, 1), PlacedDie(BEN, 6, False, 1))),
        biggies=True,
    )
    six = check_table(state, as_seen(state, c6=SeenCasino(6, dice(BEN))), COLOURS).casinos[5]
    assert six.differences == (
        "the table shows 0 red (Anna) on casino 6, the game has 2 (a Biggy)",
    )
    assert six.payout_changes == (
        "blue (Ben) gets $80,000 instead of nothing; red (Anna) gets nothing instead of $80,000"
    )


def test_a_blank_face_where_every_die_shows_pips_is_no_stranger():
    from types import SimpleNamespace

    from companion.cli_check import seen_casinos

    state = game(casino(4, (60_000,), p0=1))
    read = [
        SimpleNamespace(casino=4, colour="red", big=False, pips=4, unsure=False, likely_pips=()),
        SimpleNamespace(casino=4, colour="grey", big=False, pips=0, unsure=False, likely_pips=()),
        SimpleNamespace(casino=4, colour="orange", big=False, pips=4, unsure=False, likely_pips=()),
    ]
    row = SimpleNamespace(dice=read, casinos=[4])
    (four,) = seen_casinos(state, row, COLOURS)
    assert four == SeenCasino(
        4, (TableDie(ANNA),), unsure=1, strangers=("orange",), unsure_dice=(UnsureDie(),)
    )


def test_each_difference_and_payout_change_is_also_a_key_with_values():
    state = game(casino(4, (60_000, 30_000), p0=4, p1=3))
    seen = as_seen(state, c4=SeenCasino(4, dice(ANNA, ANNA, ANNA, BEN, BEN, BEN)))
    four = check_table(state, seen, COLOURS).casinos[3]
    anna = {"name": "Anna", "colour": "red", "player": True}
    assert [s.to_dict() for s in four.difference_sentences] == [
        {
            "key": "differs",
            "owner": anna,
            "where": 4,
            "table": 3,
            "game": 4,
            "table_size": None,
            "game_size": None,
            "table_values": None,
            "game_values": None,
        }
    ]
    assert [s.key for s in four.payout_sentences][0] == "tie_made"
    assert four.payout_sentences[0].to_dict()["owners"][0] == anna
    assert "difference_sentences" not in check_table(state, seen, COLOURS).to_dict()["casinos"][3]


# --- dice not read for sure: what each may be ---------------------------------------------------


def test_an_effect_every_reading_of_an_unsure_die_gives_is_named():
    # Anna's die added to casino 4 (game: Anna 1, Ben 3); a red die beside it not read for
    # sure. Nothing, Anna's die or her Biggy there: Anna has 2-4 against Ben's 3, so she and
    # Ben tie at 3 only if it is one die: the effect depends on the reading, not known.
    state = game(casino(4, (60_000, 30_000), p0=1, p1=3))
    red = UnsureDie(ANNA)
    seen = as_seen(state, c4=SeenCasino(4, dice(ANNA, ANNA, BEN, BEN, BEN), 1, (), (red,)))
    four = check_table(state, seen, COLOURS).casinos[3]
    assert four.differences == ("the table shows 2 red (Anna) on casino 4, the game has 1",)
    assert four.payout_changes == (
        "not known while 1 die is not read for sure; "
        "if it is no die: no change at payout; "
        "if it is a die of red (Anna): with 3, red (Anna) ties with blue (Ben) and both are "
        "cancelled, blue (Ben) gets nothing instead of $60,000, red (Anna) gets nothing "
        "instead of $30,000"
    )
    # Ben far ahead (5) and casino 4 paying one note: whatever the red die is, Anna (2-4) is
    # second, paid nothing either way, and Ben keeps his note: no change at payout.
    state = game(casino(4, (60_000,), p0=1, p1=5))
    seen = as_seen(state, c4=SeenCasino(4, dice(ANNA, ANNA, *[BEN] * 5), 1, (), (red,)))
    four = check_table(state, seen, COLOURS).casinos[3]
    assert four.differences == ("the table shows 2 red (Anna) on casino 4, the game has 1",)
    assert four.payout_changes == "no change at payout"
    assert not four.agrees  # the die is still to be looked at


def test_a_die_in_doubt_that_changes_nothing_at_payout_lets_the_payout_go_on():
    # The game: Anna 1, Ben 5 on casino 4 (one note). The table shows the same, and a red die
    # not read for sure beside them: whatever it is (nothing, Anna's die or her Biggy), Anna
    # is second and paid nothing, Ben keeps his note.
    state = game(casino(4, (60_000,), p0=1, p1=5))
    red = UnsureDie(ANNA)
    seen = as_seen(state, c4=SeenCasino(4, dice(ANNA, *[BEN] * 5), 1, (), (red,)))
    check = check_table(state, seen, COLOURS)
    four = check.casinos[3]
    assert four.payout_changes == "no change at payout" and not four.differences
    assert four.doubt_changes_nothing and four.payout_may_go_on and not four.agrees
    assert check.payout_may_go_on and not check.agrees
    assert check.to_dict()["payout_may_go_on"] is True
    assert check_words(check).splitlines() == [
        "Casino 4: 1 die not read for sure; look at it.",
        "  At payout: no change at payout.",
        "Whatever the dice not read for sure are, the payout is the same: it may go on.",
    ]
    # With two notes, Anna's die would make her second and paid: the payout waits.
    state = game(casino(4, (60_000, 30_000), p0=1, p1=5, p2=2))
    seen = as_seen(state, c4=SeenCasino(4, dice(ANNA, *[BEN] * 5, CARLA, CARLA), 1, (), (red,)))
    check = check_table(state, seen, COLOURS)
    assert not check.casinos[3].doubt_changes_nothing and not check.payout_may_go_on
    # A difference holds the payout even where it pays the same.
    state = game(casino(4, (60_000,), p0=1, p1=5))
    seen = as_seen(state, c4=SeenCasino(4, dice(ANNA, ANNA, *[BEN] * 5), 1, (), (red,)))
    four = check_table(state, seen, COLOURS).casinos[3]
    assert four.payout_changes == "no change at payout" and not four.payout_may_go_on


def test_an_unsure_die_of_any_owner_is_read_every_way():
    # The same casino, the unsure die pale (any owner's): Ben's die there would give him 6,
    # Carla's 1, Anna's 3: still no change; but on a casino where Carla has 5 against Ben's 5
    # (a tie), a die of hers or Ben's breaks it, Anna's does not: not known.
    state = game(casino(4, (60_000,), p0=1, p1=5))
    seen = as_seen(state, c4=SeenCasino(4, dice(ANNA, ANNA, *[BEN] * 5), 1, (), (UnsureDie(),)))
    assert check_table(state, seen, COLOURS).casinos[3].payout_changes == "no change at payout"
    state = game(casino(4, (60_000,), p0=1, p1=5, p2=5))
    seen = as_seen(
        state, c4=SeenCasino(4, dice(ANNA, ANNA, *[BEN] * 5, *[CARLA] * 5), 1, (), (UnsureDie(),))
    )
    four = check_table(state, seen, COLOURS).casinos[3]
    assert four.payout_changes.startswith(
        "not known while 1 die is not read for sure; "
        "if it is no die or a die of red (Anna): no change at payout; "
        "if it is a die of blue (Ben): blue (Ben) and green (Carla) no longer tie"
    )
    # Two dice not read for sure: each way of reading them is not told, the change not known.
    two = SeenCasino(4, dice(ANNA, ANNA, *[BEN] * 5, *[CARLA] * 5), 2, (), (UnsureDie(),) * 2)
    four = check_table(state, as_seen(state, c4=two), COLOURS).casinos[3]
    assert four.payout_changes == "not known while 2 dice are not read for sure"


def test_an_unsure_die_read_big_may_stand_for_two_unseen_dice():
    # Two of Anna's dice not seen, one big box not read for sure: it may be both of them, so
    # no difference is claimed; a regular-sized one may not, and the shortfall is told.
    state = game(casino(4, (60_000, 30_000), p0=4, p1=3))
    two = SeenCasino(4, dice(ANNA, ANNA, BEN, BEN, BEN), 1, (), (UnsureDie(None, True),))
    assert check_table(state, as_seen(state, c4=two), COLOURS).casinos[3].differences == ()
    one = SeenCasino(4, dice(ANNA, ANNA, BEN, BEN, BEN), 1, (), (UnsureDie(None, False),))
    assert check_table(state, as_seen(state, c4=one), COLOURS).casinos[3].differences == (
        "the table shows 2 red (Anna) on casino 4, the game has 4",
    )


def test_an_unsure_die_says_what_it_may_be_by_its_colour_and_size():
    from types import SimpleNamespace

    from companion.cli_check import seen_casinos

    state = game(casino(4, (60_000,), p0=2, p1=1))
    read = [
        SimpleNamespace(casino=4, colour="red", big=False, pips=4, unsure=True, likely_pips=()),
        SimpleNamespace(casino=4, colour="white", big=True, pips=3, unsure=True, likely_pips=()),
        SimpleNamespace(casino=4, colour="orange", big=False, pips=2, unsure=True, likely_pips=()),
        SimpleNamespace(casino=4, colour="blue", big=False, pips=1, unsure=False, likely_pips=()),
        # read for sure, but the white neutral dice have no Biggy: two dice, or die and paper
        SimpleNamespace(casino=4, colour="white", big=True, pips=5, unsure=False, likely_pips=()),
        SimpleNamespace(
            casino=4, colour="red", big=True, pips=5, unsure=False, likely_pips=()
        ),  # Anna's
    ]
    (four,) = seen_casinos(state, SimpleNamespace(dice=read, casinos=[4]), COLOURS)
    assert four.unsure == 4
    # red: Anna's die (or none); white: a pale die, any owner's, and big: maybe two dice;
    # orange: no one's colour, so any owner's die
    assert four.unsure_dice == (
        UnsureDie(ANNA),
        UnsureDie(None, True),
        UnsureDie(None),
        UnsureDie(None, True),
    )
    assert four.unsure_room() == 6
    assert four.dice == (TableDie(BEN), TableDie(ANNA, True))


def test_no_reading_is_told_where_the_unsure_die_cannot_be_the_die_not_seen():
    # Carla's die not seen at all, and a red die not read for sure: no difference is claimed
    # (an unsure die may hide a shortfall), but a red die is no green one: what the table
    # truly shows is none of the readings of the red die, and the effect is not known. The
    # same casino with the unsure die pale (any owner's) is told by reading.
    state = game(casino(4, (60_000, 30_000), p0=3, p1=3, p2=1))
    shown = dice(ANNA, ANNA, ANNA, BEN, BEN, BEN)
    red = as_seen(state, c4=SeenCasino(4, shown, 1, (), (UnsureDie(ANNA),)))
    four = check_table(state, red, COLOURS).casinos[3]
    assert four.differences == ()
    assert four.payout_changes == "not known while 1 die is not read for sure"
    pale = as_seen(state, c4=SeenCasino(4, shown, 1, (), (UnsureDie(),)))
    four = check_table(state, pale, COLOURS).casinos[3]
    assert four.differences == ()
    assert "if it is a die of green (Carla): no change at payout" in four.payout_changes


def test_readings_giving_more_changes_than_are_told_leave_the_change_not_known(monkeypatch):
    import companion.table_check as table_check

    # The pale die of the tie between Ben and Carla: no die (or Anna's), Ben's or Carla's
    # give three changes; told where three may be told, not known where two may.
    state = game(casino(4, (60_000,), p0=1, p1=5, p2=5))
    seen = as_seen(
        state, c4=SeenCasino(4, dice(ANNA, ANNA, *[BEN] * 5, *[CARLA] * 5), 1, (), (UnsureDie(),))
    )
    monkeypatch.setattr(table_check, "MOST_TOLD", 3)
    told = check_table(state, seen, COLOURS).casinos[3].payout_sentences
    assert [s.key for s in told] == ["unsure", "if_reading", "if_reading", "if_reading"]
    monkeypatch.setattr(table_check, "MOST_TOLD", 2)
    four = check_table(state, seen, COLOURS).casinos[3]
    assert four.payout_changes == "not known while 1 die is not read for sure"


def test_a_slot_machine_die_in_doubt_for_its_pips_alone_is_read_as_one_of_its_likely_values():
    # The game: Anna 5 and 4 against Ben's 6 and 1 on the slot machine: a tie for the most
    # dice, broken by the sum (9 against 7), Anna paid. On the table Anna's 4 is surely her
    # die but in doubt for its pips: as 3 or 4 she still wins, so nothing changes at payout.
    slot = Casino(
        7,
        (60_000,),
        (
            PlacedDie(ANNA, 5, False, 1),
            PlacedDie(ANNA, 4, False, 1),
            PlacedDie(BEN, 6, False, 2),
            PlacedDie(BEN, 1, False, 2),
        ),
    )
    state = game(slot, slot_machine=True)
    shown = (TableDie(ANNA, value=5), TableDie(BEN, value=6), TableDie(BEN, value=1))

    def checked(reading: UnsureDie):
        return check_table(state, as_seen(state, c7=SeenCasino(7, shown, 1, (), (reading,))))

    likely = checked(UnsureDie(ANNA, values=(3, 4)))
    assert likely.casinos[6].payout_changes == "no change at payout"
    assert likely.casinos[6].doubt_changes_nothing and likely.payout_may_go_on
    # no die there, or a 1 or 2 would pay Ben: read as any die or none, the change is not known
    slot_check = checked(UnsureDie(ANNA)).casinos[6]
    assert slot_check.payout_changes == "not known while 1 die is not read for sure"
    assert not slot_check.payout_may_go_on
    # in doubt between 2 and 4 alone, the change is told value by value
    slot_check = checked(UnsureDie(ANNA, values=(2, 4))).casinos[6]
    assert slot_check.payout_changes.startswith("not known while 1 die is not read for sure; ")
    assert "if it is a die of Anna showing 4: no change at payout" in slot_check.payout_changes
    assert not slot_check.payout_may_go_on


def test_a_slot_machine_die_in_doubt_among_its_likely_values_is_told_value_by_value(monkeypatch):
    # The game: Anna 5 and 4, Ben 6 and 2, Carla 3: Anna and Ben tie for the most dice, Anna's
    # sum 9 beats Ben's 8. Anna's 4 is in doubt among 1, 3, 4 and 6 on the table: 4 or 6 pays
    # Anna as before; 1 or 3 pays Ben instead.
    slot = Casino(
        7,
        (60_000,),
        (
            PlacedDie(ANNA, 5, False, 1),
            PlacedDie(ANNA, 4, False, 1),
            PlacedDie(BEN, 6, False, 2),
            PlacedDie(BEN, 2, False, 2),
            PlacedDie(CARLA, 3, False, 3),
        ),
    )
    state = game(slot, slot_machine=True)
    shown = (TableDie(ANNA, value=5), TableDie(BEN, value=6), TableDie(BEN, value=2))
    shown += (TableDie(CARLA, value=3),)
    reading = UnsureDie(ANNA, values=(1, 3, 4, 6))
    seen = as_seen(state, c7=SeenCasino(7, shown, 1, (), (reading,)))
    check = check_table(state, seen, COLOURS)
    told = check.casinos[6].payout_sentences
    assert [s.key for s in told] == ["unsure"] + ["if_reading"] * (len(told) - 1)
    by_values = {dict(s.values)["values"]: dict(s.values)["effect"] for s in told[1:]}
    assert sorted(v for values in by_values for v in values) == [1, 3, 4, 6]
    assert by_values[(4, 6)] == (Sentence.of("no_change"),)
    for s in told[1:]:
        assert dict(s.values)["regular"] == (Owner("Anna", "red", True),)
        assert dict(s.values)["no_die"] == 0 and dict(s.values)["biggy"] == ()
    assert "if it is a die of red (Anna) showing 4 or 6: no change at payout" in (
        check.casinos[6].payout_changes
    )
    # more changes than are told: not known, as before
    import companion.table_check as table_check

    monkeypatch.setattr(table_check, "MOST_TOLD", len(by_values) - 1)
    again = check_table(state, seen, COLOURS)
    assert again.casinos[6].payout_changes == "not known while 1 die is not read for sure"


def test_a_slot_machine_die_read_with_likely_pips_is_its_owners_die():
    from types import SimpleNamespace

    from companion.cli_check import seen_casinos

    state = game(slot_machine=True)

    def read(colour: str, big: bool = False, likely: tuple[int, ...] = (3, 4), where: int = 7):
        die = SimpleNamespace(
            casino=where, colour=colour, big=big, pips=3, unsure=True, likely_pips=likely
        )
        (seen,) = seen_casinos(state, SimpleNamespace(dice=[die], casinos=[where]), COLOURS)
        return seen.unsure_dice

    assert read("red") == (UnsureDie(ANNA, values=(3, 4)),)
    assert read("white") == (UnsureDie(WHITE, values=(3, 4)),)  # surely white: the neutral die
    # without likely pips, read big, or of no one's colour: a die in doubt as before
    assert read("red", likely=()) == (UnsureDie(ANNA),)
    assert read("red", big=True) == (UnsureDie(ANNA, True),)
    assert read("orange") == (UnsureDie(),)


def test_the_check_names_whose_dice_a_die_in_doubt_may_be():
    state = game(casino(4, (60_000,), p0=2, p1=1), casino(5, (70_000,), p0=1))
    seen = as_seen(
        state,
        c4=SeenCasino(4, dice(ANNA, ANNA), 1, (), (UnsureDie(BEN),)),
        c5=SeenCasino(5, (), 1),
    )
    check = check_table(state, seen, COLOURS)
    four, five = check.casinos[3], check.casinos[4]
    assert (four.doubt_owners, four.doubt_any_owner) == (("Ben",), False)
    assert (five.doubt_owners, five.doubt_any_owner) == ((), True)
    assert all(not c.doubt_owners and not c.doubt_any_owner for c in check.casinos[:3])
