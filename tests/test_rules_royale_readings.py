"""Readings of the rule texts corrected after review, each with the words it rests on,
and the settings for what a box prints but the texts do not."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.choices import legal_choices
from companion.engine import apply
from companion.errors import IllegalMove
from companion.events import DealRound, Place, PowerPlay, ResolvePayout, Roll, TileDecision
from companion.rules import make_rules
from companion.standings import standings, winners
from companion.state import Phase, new_game
from companion.tiles.board import gain
from tests.table import ROYALE_PAIRS as PAIRS
from tests.table import royale_main_game as main_game
from tests.table import started

ANNA, BEN, CARLA = 0, 1, 2


def place(state, number, regular=1, biggy=False):
    """The player to move rolls and places `regular` dice (and maybe the Biggy) showing `number`."""
    held = state.supplies[state.current]
    other = 6 if number != 6 else 5
    values = (number,) * regular + (other,) * (held.regular - regular)
    big = ((number if biggy else other),) * held.biggy
    return apply(apply(state, Roll(values, biggy=big)), Place(number))


def decide(state, tile_casino, **choice):
    items = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in choice.items()))
    return apply(state, TileDecision(tile_casino, items))


def rest_on_six(state):
    """Everyone places every die left on casino 6 (no tile there) until the round ends."""
    while state.phase in (Phase.ROLL, Phase.CHOOSE):
        held = state.supplies[state.current]
        state = apply(state, Roll((6,) * held.regular, biggy=(6,) * held.biggy))
        state = apply(state, Place(6))
    return state


# --- Las Vegas 2012: kickers ------------------------------------------------------------------


def test_one_kicker_each_is_a_setting_with_fewer_than_six_players():
    """EN: with fewer than 6 players each 'should trade two regular dice for two kickers';
    DE: 'kann auch mit 2 Kickern pro Spieler gespielt werden'. Two stay the default."""
    players = ["Anna", "Ben", "Carla", "Denny"]
    assert started(players, kickers=True).supplies[0].kickers == 2
    state = started(players, kickers=True, two_kickers=False)
    assert state.supplies[0] == (7, 0, 1, 0)  # 7 regular dice and one kicker: still 8
    state = apply(state, Roll((1, 2, 3, 4, 5, 6, 6), kickers=(3,)))  # one kicker is rolled
    assert state.phase is Phase.CHOOSE


# --- Royale: Bad Luck -------------------------------------------------------------------------


def test_bad_luck_takes_only_50k_when_chips_make_up_the_rest():
    """'pay everything they have (including chips which are valued at $10,000). The bank can
    give change.' $30,000 and 3 chips: the $30,000 and 2 chips pay the $50,000."""
    state = main_game(["C2", "A1", "D1"])
    state = place(state, 1, regular=2)
    state = replace(state, phase=Phase.PAYOUT, winnings=((), (), (30_000,)), skip_tokens=(2, 2, 3))
    state = apply(state, ResolvePayout())
    effect = next(e for e in state.payouts[0].tile_effects if e.owner == CARLA)
    assert (effect.money, effect.chips) == (-30_000, -2)
    assert state.skip_tokens[CARLA] == 1
    carla = next(r for r in standings(state) if r.player == "Carla")
    assert carla.money == 30_000 + 3 * 10_000 - 50_000


# --- Royale: Black Box ------------------------------------------------------------------------


def _black_box_turned(tiles=("G1", "A2", "D1"), **options):
    """Anna wins the Black Box casino (1); the game waits for the pile she turns up."""
    state = main_game(tiles, **options)
    state = place(state, 1, regular=3)
    state = rest_on_six(state)
    assert state.pending.code == "G1" and state.pending.seat == ANNA
    return state


def test_black_box_20k_pile_pays_2_chips_during_payout_and_is_explained():
    """'They receive the reward shown on the chosen tokens: 2 chips or money ($40,000, ...)'
    ('During payout'): two $20,000 tokens are not among the money rewards; a pile of
    $20,000 is the 2 chips. The payout explanation names the Black Box."""
    state = decide(_black_box_turned(), 1, pile=[20_000, 0])
    assert state.skip_tokens[ANNA] == 2 and state.bank[ANNA] == 0  # nothing before payout
    state = apply(state, ResolvePayout())
    assert state.skip_tokens[ANNA] == 4 and state.bank[ANNA] == 0
    effects = [(e.owner, e.money, e.chips) for e in state.payouts[0].tile_effects if e.code == "G1"]
    assert effects == [(ANNA, 0, 2)]


def test_prime_time_before_payout_comes_before_black_box_during_payout():
    """Prime Time acts 'Before payout', Black Box 'During payout': Ben's extra dice at the
    Black Box casino make him its winner, whatever order the casinos have."""
    state = main_game(["G1", "B1", "D1"])
    state = place(state, 1, regular=2)  # Anna: 2 at the Black Box casino
    state = place(state, 2, regular=1)  # Ben: alone at Prime Time's casino
    state = place(state, 6, regular=7, biggy=True)  # Carla: everything on 6
    state = place(state, 5, regular=1)  # Anna
    state = place(state, 1, regular=1)  # Ben: 1 at the Black Box casino
    state = rest_on_six(state)
    assert state.pending.code == "B1" and state.pending.seat == BEN
    state = decide(state, 2, dice=[1, 1], place=[1, 1])  # both extra dice go to casino 1
    assert state.pending.code == "G1" and state.pending.seat == BEN  # 3 beat Anna's 2


# --- Royale: the end tie-break ----------------------------------------------------------------


def test_end_tie_break_counts_money_cards_taken_from_the_bank():
    """'In case of a tie, the most money cards and chips decide the winner'; in the main game
    the bank is 'the rest of the money cards face up', so a reward from it is a money card."""
    state = main_game(["A2", "C1", "D1"])
    state = replace(state, phase=Phase.OVER, winnings=((90_000,), (60_000,), ()))
    state = gain(state, BEN, money=30_000)  # e.g. the Jackpot: a $30,000 card from the bank
    rows = {r.player: (r.money, r.notes) for r in standings(state)}
    assert rows["Anna"] == (90_000 + 20_000, 3) and rows["Ben"] == (90_000 + 20_000, 4)
    assert winners(state) == ("Ben",)


# --- Royale: Power Play -----------------------------------------------------------------------


def _power_play_turn_passed(**options):
    """Anna takes the token, rolls on her next turn instead of using it; her turn comes again."""
    state = main_game(["D2", "A2", "C1"], **options)
    state = place(state, 1, regular=2)  # Anna takes the token
    state = place(place(state, 5), 5)  # Ben, Carla
    assert len(legal_choices(state)) == 12  # her next turn: she may use it ...
    state = place(state, 5)  # ... but rolls
    return place(place(state, 5), 5)  # Ben, Carla


def test_power_play_only_on_the_next_turn():
    """'On your next turn, if you still have the token, you may pass the turn.'"""
    state = _power_play_turn_passed()
    assert state.to_move() == "Anna" and state.tile_at(1).holder == ANNA
    assert legal_choices(state) == ()
    with pytest.raises(IllegalMove, match="used on the next turn"):
        apply(state, PowerPlay(3))


def test_power_play_on_any_later_turn_is_a_setting():
    state = _power_play_turn_passed(power_play="any")
    assert len(legal_choices(state)) == 12
    state = apply(state, PowerPlay(3))
    assert state.casino(3).counted() == {ANNA: 1}


# --- Royale: No Entry -------------------------------------------------------------------------


def test_no_entry_offers_the_reward_of_the_next_space_and_must_move_the_token():
    """'advance the counter one space and take the reward indicated on the new space'; moving
    the token means another casino. The track is the `no_entry` setting."""
    state = place(main_game(["E1", "A2", "C1"], no_entry="30 2c"), 1)  # Anna
    offered = legal_choices(state)
    assert TileDecision(1, (("close", 4), ("money", 30_000))) in offered
    with pytest.raises(IllegalMove, match="shows money 30000, chips 0"):
        decide(state, 1, close=4, money=60_000)  # records accepted any reward
    state = decide(state, 1, close=4)
    assert state.bank[ANNA] == 30_000 and state.tile_at(1).holder == 4
    state = place(state, 1)  # Ben
    assert TileDecision(1, (("chips", 2), ("close", 5))) in legal_choices(state)
    assert not [c for c in legal_choices(state) if c.get("close") == 4]
    with pytest.raises(IllegalMove, match="already closes casino 4"):
        decide(state, 1, close=4)
    state = decide(state, 1, close=5)
    assert state.skip_tokens[BEN] == 4
    state = decide(place(state, 1), 1, close=6)  # Carla: past the track's end, no reward
    assert state.skip_tokens[CARLA] == 2 and state.bank[CARLA] == 0


# --- Royale: what the box prints --------------------------------------------------------------


def test_black_box_tokens_are_a_setting():
    state = _black_box_turned(black_box="100 40 0 0 0 0")
    assert (100_000,) in [c.get("pile") for c in legal_choices(state)]
    with pytest.raises(IllegalMove, match="is not among them"):
        decide(state, 1, pile=[60_000])
    state = apply(decide(state, 1, pile=[100_000, 0]), ResolvePayout())
    assert state.bank[ANNA] == 100_000


def test_fifty_fifty_track_is_a_setting():
    state = place(main_game(["B2", "A2", "C1"], fifty_fifty="5 15"), 1)
    state = decide(decide(state, 1, dice=[2, 3]), 1, take=True)
    assert state.bank[ANNA] == 5_000


def test_nice_dice_rewards_are_a_setting():
    state = main_game(["H1", "A2", "C1"], nice_dice="1c 2c 30 40 50 3c")
    state = apply(state, Roll((1, 6, 5, 5, 5, 5, 5), biggy=(5,)))
    state = decide(apply(state, Place(1)), 1, **{"from": "roll", "value": 6, "big": False})
    state = apply(rest_on_six(state), ResolvePayout())
    effects = [(e.owner, e.money, e.chips) for e in state.payouts[0].tile_effects if e.code == "H1"]
    assert effects == [(ANNA, 0, 3)]


def test_money_cards_are_a_setting():
    rules = make_rules("royale", {"money_cards": "30x20 100x20"})
    assert rules.deck == ((30_000, 20), (100_000, 20))
    with pytest.raises(IllegalMove, match="not in this edition's deck|no .*40"):
        apply(new_game(rules, ["Anna", "Ben", "Carla"]), DealRound(PAIRS))


@pytest.mark.parametrize(
    "options, message",
    [
        ({"black_box": "60 20 20"}, "black_box lists 6 tokens"),
        ({"black_box": "60 20 20 0 0 1c"}, "black_box lists 6 tokens"),
        ({"nice_dice": "1c 2c"}, "nice_dice lists the rewards of spaces 1-6"),
        ({"no_entry": "lots"}, "cannot read 'lots'"),
        ({"money_cards": "30x5"}, "at least 36 cards"),
        ({"power_play": "sometimes"}, "power_play must be one of next, any"),
    ],
)
def test_box_settings_that_cannot_be_played_are_refused(options, message):
    with pytest.raises(IllegalMove, match=message):
        make_rules("royale", options)


def test_box_settings_come_through_the_command_line(tmp_path):
    """`lasvegas play --option` takes the text settings; the export keeps them."""
    import json
    import subprocess
    import sys

    db, record = tmp_path / "game.sqlite3", tmp_path / "game.json"

    def lasvegas(*args: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "companion.cli", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=120)

    options = ["--option", "tiles=3", "--option", "black_box=100 0 0 0 0 0"]
    options += ["--option", "fifty_fifty=5", "--option", "power_play=any"]
    run = lasvegas("play", "--edition", "royale", *options, "--seed", "4", "--auto", "--db",
                   str(db), "--players", "Anna", "Ben", "Carla")  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert lasvegas("export", "--db", str(db), "-o", str(record)).returncode == 0
    stored = json.loads(record.read_text())["options"]
    assert stored == {
        "tiles": 3,
        "black_box": "100 0 0 0 0 0",
        "fifty_fifty": "5",
        "power_play": "any",
    }
