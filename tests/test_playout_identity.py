"""The fast playout, hints and the search player give exactly what they gave before the
playout was made faster: the same random numbers drawn, the same choices, the same numbers.

The expected values below were computed by running these same functions on the original
code, before any of the speed-up (when the choices still walked `_placements` and the hint
summed its shares with `take_along_axis`), so a change that alters any playout, hint number
or search decision fails here. Results are compared exactly (floats by their repr), not
within a tolerance. The hints use the tournament's lighter setting to keep the test short;
the default setting (2,000 playouts, stop at 0.005) was compared the same way by hand.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from companion.bots import greedy_player
from companion.choices import legal_choices
from companion.engine import apply
from companion.hints import choice_keys, hint
from companion.playout import playout
from companion.rules import every_variant, make_rules
from companion.simulate import chance_event
from companion.state import GameState, Phase, new_game

CONFIGS: dict[str, tuple[str, dict[str, Any], int]] = {
    "base": ("classic", {}, 4),
    "kickers and slot machine": (
        "classic",
        {"kickers": True, "slot_machine": True, "biggies": True, "neutral_dice": True},
        3,
    ),
    "every 2012 variant": ("classic", every_variant("classic"), 4),
    "custom with skips": ("custom", {"skip_rule": "chips", "skip_limit": 1}, 3),
    "royale basic": ("royale", {}, 3),
    "royale basic, 2 players": ("royale", {}, 2),
}
"""The games compared: edition, options and players."""


def decisions(name: str, count: int, rate: float = 0.3) -> list[GameState]:
    """`count` decisions with more than one legal choice from a seeded greedy game."""
    edition, options, players = CONFIGS[name]
    rules = make_rules(edition, options)
    chance = random.Random(f"identity chance {name}")
    decide = random.Random(f"identity decide {name}")
    found: list[GameState] = []
    state = new_game(rules, [f"P{i}" for i in range(players)])
    while len(found) < count:
        if state.phase is Phase.OVER:
            state = new_game(rules, [f"P{i}" for i in range(players)], len(found) % players)
        event = chance_event(state, chance)
        if event is None:
            if len(legal_choices(state)) > 1 and chance.random() < rate:
                found.append(state)
            event = greedy_player(state, decide)
        state = apply(state, event)
    return found


def hint_figures(state: GameState, seed: int, own_policy: str) -> list[tuple]:
    """The search player's hint at a decision (no clock, at most 800 playouts, stop at an
    error of 0.01, the tournament's lighter setting): each choice's record keys, playouts,
    win, its error and money, best first (the search player takes the first)."""
    result = hint(
        state,
        random.Random(seed),
        seconds=None,
        target_error=0.01,
        max_playouts=800,
        own_policy=own_policy,
    )
    return [
        (choice_keys(state, c.choice), c.playouts, repr(c.win), repr(c.win_error), repr(c.money))
        for c in result.choices
    ]


def playout_digest(name: str, games: int = 12) -> str:
    """A digest of whole seeded games played out by each policy (all random, all greedy,
    all by the rule-based terms, one seat by them and the rest greedy), and of one round
    played on from each of a few decisions, with the next number each generator draws
    after (so a change in how many numbers a playout draws shows too)."""
    edition, options, players = CONFIGS[name]
    start = new_game(make_rules(edition, options), [f"P{i}" for i in range(players)])
    mixed = ["greedy"] * players
    mixed[1] = "rules"
    seen = []
    for policy in ("random", "greedy", "rules", mixed):
        for seed in range(games):
            rng = random.Random(seed)
            outcome = playout(start, rng, policy)
            seen.append((outcome, rng.random()))
    for index, state in enumerate(decisions(name, 4)):
        for choice in legal_choices(state):
            after = apply(state, choice)
            for policy in ("greedy", mixed):
                rng = random.Random(index)
                outcome = playout(after, rng, policy, rounds=1)
                seen.append((outcome, rng.random()))
    return hashlib.sha256(repr(seen).encode()).hexdigest()


EXPECTED_DIGESTS: dict[str, str] = {
    "base": "98310ac7eba560a5a23912548897c8ba585760c02db9594ccb90bb7aea13de03",
    "kickers and slot machine": "21b51b3770f548fd39702e7815f11bb4e1181e7d5101393a486081809a8113e7",
    "every 2012 variant": "4c62c222c06007caafcb6302b464bf08e70d0630f25b738692828c770ecdaa29",
    "custom with skips": "0b612a095ba72f9208bff28ce54f26624cfe72e83980d2ece958f282f6256c73",
    "royale basic": "2948526369a56e281d5ac9a3d7b3c8a13d7d71142942d02a7d5a532566ca1119",
    "royale basic, 2 players": "3bd0999e721c2834965d60dc30905e208f79f596f9702701f29025ba0064c49e",
}

EXPECTED_HINTS: dict[tuple[str, int, str], list[tuple]] = {
    ("base", 1, "greedy"): [
        ({"place": 4}, 232, "0.2236063218390804", "0.009903634335360463", "82413.79310344828"),
        ({"place": 1}, 152, "0.19491502192982446", "0.009910207672734398", "76973.68421052632"),
        ({"place": 6}, 216, "0.18582561728395067", "0.009892929221994586", "70416.66666666667"),
    ],
    ("base", 1, "rules"): [
        ({"place": 4}, 256, "0.2258089192708333", "0.009837524416275192", "84687.5"),
        ({"place": 1}, 152, "0.2024890350877193", "0.009831281573121627", "78881.57894736843"),
        ({"place": 6}, 208, "0.19287860576923072", "0.009874285123280093", "71778.84615384616"),
    ],
    ("kickers and slot machine", 1, "greedy"): [
        (
            {"place": 5, "slot": True},
            256,
            "0.34843750000000007",
            "0.009952461491335664",
            "109648.4375",
        ),
        ({"place": 6}, 24, "0.3456423611111111", "0.029050633790857844", "108750.0"),
        ({"place": 5}, 88, "0.3451325757575758", "0.01639674919372878", "108068.18181818182"),
        (
            {"place": 3, "kick": [{"owner": "P1", "big": False}]},
            80,
            "0.34218229166666664",
            "0.01628712295769511",
            "108125.0",
        ),
        (
            {"place": 3, "slot": True, "kick": [{"owner": "P1", "big": False}]},
            80,
            "0.34218229166666664",
            "0.01628712295769511",
            "108125.0",
        ),
        ({"place": 4}, 80, "0.34218229166666664", "0.01628712295769511", "108125.0"),
        ({"place": 4, "slot": True}, 80, "0.34218229166666664", "0.01628712295769511", "108125.0"),
        ({"place": 2, "slot": True}, 24, "0.34180555555555553", "0.0315969733758848", "108750.0"),
        (
            {"place": 3, "kick": [{"owner": "white", "big": False}]},
            16,
            "0.337109375",
            "0.039268493312798386",
            "106250.0",
        ),
        ({"place": 6, "slot": True}, 16, "0.32708333333333334", "0.03518564357644872", "106250.0"),
        (
            {"place": 1, "slot": True},
            24,
            "0.32562500000000005",
            "0.030753667154963128",
            "108333.33333333333",
        ),
        ({"place": 2}, 16, "0.30648437500000003", "0.037937417413075915", "95625.0"),
        ({"place": 1}, 16, "0.294609375", "0.03042903097250923", "103750.0"),
    ],
    ("kickers and slot machine", 1, "rules"): [
        ({"place": 6}, 240, "0.38269965277777784", "0.00995791211450209", "113625.0"),
        ({"place": 5}, 48, "0.3702864583333334", "0.020502208070604284", "109583.33333333333"),
        (
            {"place": 5, "slot": True},
            208,
            "0.36900841346153845",
            "0.010236201719411264",
            "105144.23076923077",
        ),
        ({"place": 6, "slot": True}, 80, "0.3649635416666668", "0.01716643590616926", "111125.0"),
        (
            {"place": 3, "kick": [{"owner": "white", "big": False}]},
            32,
            "0.36187500000000006",
            "0.027781221084748533",
            "110625.0",
        ),
        (
            {"place": 3, "kick": [{"owner": "P1", "big": False}]},
            32,
            "0.35960937499999995",
            "0.025059181306046986",
            "106875.0",
        ),
        (
            {"place": 3, "slot": True, "kick": [{"owner": "P1", "big": False}]},
            32,
            "0.35960937499999995",
            "0.025059181306046986",
            "106875.0",
        ),
        ({"place": 4}, 32, "0.35960937499999995", "0.025059181306046986", "106875.0"),
        ({"place": 4, "slot": True}, 32, "0.35960937499999995", "0.025059181306046986", "106875.0"),
        ({"place": 1, "slot": True}, 16, "0.35028645833333333", "0.0369419652223301", "102500.0"),
        ({"place": 1}, 16, "0.34786458333333337", "0.03806744431716262", "103125.0"),
        ({"place": 2, "slot": True}, 16, "0.321328125", "0.03787339599704464", "93125.0"),
        ({"place": 2}, 16, "0.29281250000000003", "0.040725276881604267", "90000.0"),
    ],
    ("every 2012 variant", 1, "greedy"): [
        (
            {"place": 1, "slot": True},
            288,
            "0.303365162037037",
            "0.00997198991625567",
            "113055.55555555556",
        ),
        ({"place": 5}, 56, "0.30261160714285723", "0.021417935460755533", "112321.42857142857"),
        ({"place": 4}, 56, "0.2936979166666666", "0.02533345006332224", "105535.71428571429"),
        (
            {"place": 2, "chip": "pink"},
            48,
            "0.28708333333333336",
            "0.02507842677795419",
            "107500.0",
        ),
        (
            {"place": 5, "slot": True},
            48,
            "0.27291666666666664",
            "0.025470645578778806",
            "106458.33333333333",
        ),
        (
            {"place": 4, "chip": "blue"},
            56,
            "0.2720089285714285",
            "0.025890387673328345",
            "95357.14285714286",
        ),
        ({"place": 2}, 48, "0.26193576388888884", "0.023361269481520397", "111250.0"),
        ({"place": 1}, 40, "0.2616875000000001", "0.024778043148635447", "99750.0"),
        ({"place": 3}, 32, "0.2469661458333333", "0.024348579520046487", "94687.5"),
        ({"place": 3, "slot": True}, 32, "0.2469661458333333", "0.024348579520046487", "94687.5"),
        ({"place": 6}, 32, "0.2469661458333333", "0.024348579520046487", "94687.5"),
        ({"place": 6, "slot": True}, 32, "0.2469661458333333", "0.024348579520046487", "94687.5"),
        ({"place": 2, "slot": True}, 16, "0.18239583333333334", "0.0322904905699805", "75625.0"),
        ({"place": 4, "slot": True}, 16, "0.1628125", "0.03042903097250923", "80000.0"),
    ],
    ("every 2012 variant", 1, "rules"): [
        ({"place": 1}, 272, "0.34260723039215674", "0.010472638088949115", "120992.64705882352"),
        (
            {"place": 2, "chip": "pink"},
            96,
            "0.32753038194444456",
            "0.01735203261696528",
            "114375.0",
        ),
        ({"place": 5}, 104, "0.3270673076923077", "0.014913053661646122", "113653.84615384616"),
        (
            {"place": 4, "chip": "blue"},
            24,
            "0.3268576388888888",
            "0.04116123839579332",
            "111666.66666666667",
        ),
        (
            {"place": 5, "slot": True},
            152,
            "0.3263980263157893",
            "0.014524384068216156",
            "112697.36842105263",
        ),
        ({"place": 2}, 24, "0.3249999999999999", "0.040815814416984765", "121666.66666666667"),
        ({"place": 3}, 16, "0.294140625", "0.04662470938666132", "104375.0"),
        ({"place": 3, "slot": True}, 16, "0.294140625", "0.04662470938666132", "104375.0"),
        ({"place": 6}, 16, "0.294140625", "0.04662470938666132", "104375.0"),
        ({"place": 6, "slot": True}, 16, "0.294140625", "0.04662470938666132", "104375.0"),
        ({"place": 4}, 16, "0.281875", "0.048789380461667406", "98750.0"),
        ({"place": 1, "slot": True}, 16, "0.2801432291666666", "0.03208565963083878", "101875.0"),
        ({"place": 2, "slot": True}, 16, "0.25372395833333333", "0.03376145357671744", "90000.0"),
        ({"place": 4, "slot": True}, 16, "0.130390625", "0.03042903097250923", "43125.0"),
    ],
    ("custom with skips", 1, "greedy"): [
        ({"place": 2}, 320, "0.37316927083333323", "0.01083060734308133", "18.80625"),
        ({"place": 6}, 336, "0.35634672619047625", "0.009932317569449333", "18.55654761904762"),
        ({"place": 3}, 72, "0.29005208333333343", "0.020764888116230177", "17.041666666666668"),
        ({"skip": True}, 48, "0.2814583333333333", "0.02712020982368342", "16.166666666666668"),
        ({"place": 5}, 24, "0.2505729166666667", "0.038748537487497355", "14.916666666666666"),
    ],
    ("custom with skips", 1, "rules"): [
        ({"place": 2}, 344, "0.37744428294573645", "0.009960663544627308", "18.683139534883722"),
        ({"place": 6}, 336, "0.35404017857142844", "0.009919498290393517", "17.720238095238095"),
        ({"skip": True}, 88, "0.3145123106060605", "0.018151749416281268", "16.954545454545453"),
        ({"place": 3}, 16, "0.24656250000000002", "0.030774824837031957", "17.75"),
        ({"place": 5}, 16, "0.18247395833333332", "0.03042903097250923", "13.9375"),
    ],
    ("royale basic", 1, "greedy"): [
        ({"place": 1}, 512, "0.31488037109374994", "0.009981247344394605", "210234.375"),
        ({"place": 4}, 80, "0.2799375", "0.024006216024860708", "204250.0"),
        ({"place": 2}, 64, "0.270625", "0.023312148253655143", "204687.5"),
        ({"skip": True}, 56, "0.2602529761904762", "0.023115044751211143", "202321.42857142858"),
        ({"place": 6}, 40, "0.25923958333333336", "0.023057969995249283", "204000.0"),
        ({"place": 3}, 48, "0.23508680555555558", "0.027010112989275768", "198958.33333333334"),
    ],
    ("royale basic", 1, "rules"): [
        ({"place": 2}, 456, "0.2823053728070175", "0.009968629985510126", "197653.50877192983"),
        ({"place": 6}, 88, "0.2789393939393939", "0.02084256686391009", "201022.72727272726"),
        ({"place": 4}, 80, "0.2742552083333335", "0.022191001280948707", "196875.0"),
        ({"skip": True}, 64, "0.2714518229166667", "0.02153448314708505", "198437.5"),
        ({"place": 1}, 72, "0.2576851851851852", "0.02183587069817669", "198194.44444444444"),
        ({"place": 3}, 40, "0.20702083333333335", "0.020216705409574556", "192750.0"),
    ],
    ("royale basic, 2 players", 1, "greedy"): [
        ({"skip": True}, 264, "0.7266524621212129", "0.00995174704318757", "275454.54545454547"),
        ({"place": 3}, 224, "0.698833705357143", "0.010018335176995257", "260267.85714285713"),
        ({"place": 5}, 208, "0.6969471153846158", "0.010037962181918922", "266778.8461538461"),
        ({"place": 6}, 104, "0.6719110576923071", "0.01534112893815397", "245673.07692307694"),
    ],
    ("royale basic, 2 players", 1, "rules"): [
        ({"skip": True}, 304, "0.715353618421053", "0.009975174021682465", "265592.1052631579"),
        ({"place": 3}, 72, "0.6537673611111113", "0.019110202299416013", "242361.11111111112"),
        ({"place": 5}, 24, "0.6337499999999999", "0.030693689604245063", "251250.0"),
        ({"place": 6}, 16, "0.595234375", "0.03189485058972091", "232500.0"),
    ],
}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_playouts_are_the_same_as_before(name):
    """Every playout's money, notes, rounds and random numbers drawn are unchanged."""
    assert playout_digest(name) == EXPECTED_DIGESTS[name]


@pytest.mark.parametrize("name, index, own_policy", list(EXPECTED_HINTS))
def test_search_hints_are_the_same_as_before(name, index, own_policy):
    """The search player's hint (and so its decision) is unchanged at seeded decisions."""
    state = decisions(name, index + 1)[index]
    assert hint_figures(state, index, own_policy) == EXPECTED_HINTS[name, index, own_policy]
