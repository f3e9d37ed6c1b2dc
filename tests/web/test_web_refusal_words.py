"""Refusals of the rules that a player meets on the page carry a key and every value their
words need, in English and in German, and change nothing.

Each case plays what a person could tap on the page (a deal laid by hand, a roll entered by
hand, cards laid out) through the real API and checks the refusal's `why`.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playing import play_to
from test_web_words import page_words

from companion.errors import IllegalMove
from companion.events import SLOT_MACHINE
from companion.money import Pile
from companion.payout import pay_casino
from companion.state import Casino, PlacedDie

ENGLISH, GERMAN = page_words("en"), page_words("de")
ANNA_BEN = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
THREE = ANNA_BEN + [{"name": "Cleo", "colour": "green"}]
FIVE_AT_50K = [[50_000]] * 5  # casinos 2-6 of a classic deal, each at the minimum


def _deal(casinos: list[list[int]], **extra: Any) -> dict[str, Any]:
    event = {"type": "deal", "casinos": casinos, "chip_cards": [], "neutral_start": []}
    return {"event": event | extra}


def _placeholders(key: str) -> set[str]:
    """The values the page fills into this refusal, in either language."""
    texts = (ENGLISH[f"why_{key}"], GERMAN[f"why_{key}"])
    return {name for text in texts for name in re.findall(r"\{(\w+)\}", text)}


def _check_why(why: dict[str, Any] | None, key: str) -> None:
    assert why is not None and why["key"] == key, why
    missing = _placeholders(key) - set(why)
    assert not missing, f"{key}: the page needs {missing}, the server sent {why}"


# (edition, options, players, actions before the refused one, the refused action, key)
CASES = [
    # a casino short of the $50,000 minimum
    ("classic", {}, ANNA_BEN, [], ("event", _deal([[10_000], *FIVE_AT_50K])), "deal_short"),
    # a casino given one note more than it needed to reach the minimum
    (
        "classic",
        {},
        ANNA_BEN,
        [],
        ("event", _deal([[50_000, 60_000], *FIVE_AT_50K])),
        "deal_over",
    ),
    # more $90,000 notes than the deck holds
    ("classic", {}, ANNA_BEN, [], ("event", _deal([[90_000] * 6, *FIVE_AT_50K])), "pile_none"),
    # the Custom edition deals two cards a casino
    ("custom", {}, ANNA_BEN, [], ("event", _deal([[5], *[[5, 6]] * 5])), "deal_cards"),
    # chip cards: none picked at all, one casino left without, one colour dealt too often
    (
        "classic",
        {"chip_cards": True},
        ANNA_BEN,
        [],
        ("event", _deal([[60_000], *FIVE_AT_50K])),
        "chips_count",
    ),
    (
        "classic",
        {"chip_cards": True},
        ANNA_BEN,
        [],
        ("event", _deal([[60_000], *FIVE_AT_50K], chip_cards=["pink", "", "gold"] + ["blue"] * 3)),
        "chip_pick",
    ),
    (
        "classic",
        {"chip_cards": True},
        ANNA_BEN,
        [],
        ("event", _deal([[60_000], *FIVE_AT_50K], chip_cards=["gold"] * 6)),
        "chip_none",
    ),
    # three players with neutral dice roll two white dice onto the casinos first
    (
        "classic",
        {"neutral_dice": True},
        THREE,
        [],
        ("event", _deal([[60_000], *FIVE_AT_50K], neutral_start=[4])),
        "start_dice",
    ),
    # Royale with casino tiles: too few tiles, and both faces of one tile
    (
        "royale",
        {"tiles": 2},
        THREE,
        [],
        ("event", _deal([[30_000, 40_000]] * 6, tiles=["A1"])),
        "tiles_count",
    ),
    (
        "royale",
        {"tiles": 2},
        THREE,
        [],
        ("event", _deal([[30_000, 40_000]] * 6, tiles=["A1", "A2"])),
        "tiles_faces",
    ),
    # a roll entered by hand with a die too few, and one with no dice at all
    (
        "classic",
        {},
        ANNA_BEN,
        [("simulate", {})],
        ("roll", {"dice": [{"pips": 3, "kind": "regular"}]}),
        "roll_count",
    ),
    ("classic", {}, ANNA_BEN, [("simulate", {})], ("roll", {"dice": []}), "roll_empty"),
    # the card game: no card, and three cards of different numbers
    (
        "cards",
        {},
        ANNA_BEN,
        [("simulate", {})],
        ("event", {"event": {"type": "cards", "cards": []}}),
        "cards_none",
    ),
    (
        "cards",
        {},
        ANNA_BEN,
        [("simulate", {})],
        ("event", {"event": {"type": "cards", "cards": [[1, 1], [2, 1], [3, 1]]}}),
        "cards_same",
    ),
    (
        "cards",
        {},
        ANNA_BEN,
        [("simulate", {})],
        ("event", {"event": {"type": "cards", "cards": [[4, 1]] * 6}}),
        "cards_hand",
    ),
    # undo further back than the game goes, redo with nothing undone
    ("classic", {}, ANNA_BEN, [("simulate", {})], ("undo", {"steps": 5}), "undo_none"),
    ("classic", {}, ANNA_BEN, [("simulate", {})], ("redo", {}), "redo_none"),
]


@pytest.mark.parametrize(
    ("edition", "options", "players", "before", "refused", "key"),
    CASES,
    ids=[case[-1] for case in CASES],
)
def test_a_refusal_met_on_the_page_carries_its_words_values(
    client, act, edition, options, players, before, refused, key
):
    started = act("new_game", edition=edition, options=options, players=players)
    assert started.status_code == 200, started.get_json()
    for action, fields in before:
        assert act(action, **fields).status_code == 200
    version = client.get("/api/state").get_json()["version"]

    response = act(refused[0], **refused[1])

    assert response.status_code in (400, 409), response.get_json()
    _check_why(response.get_json().get("why"), key)
    assert client.get("/api/state").get_json()["version"] == version  # nothing changed


@pytest.mark.parametrize(
    ("players", "key"),
    [
        ([{"name": "Anna", "colour": "red"}], "player_count"),  # one player alone
        ([{"name": "Anna", "colour": "red"}, {"name": "anna", "colour": "blue"}], "names_distinct"),
        (
            [{"name": "Anna", "colour": "red"}, {"name": "White", "colour": "blue"}],
            "names_imaginary",
        ),
    ],
)
def test_a_refused_setup_carries_its_words_values(act, players, key):
    response = act("new_game", edition="classic", options={}, players=players)
    assert response.status_code == 400
    _check_why(response.get_json().get("why"), key)


def test_rainbow_refusals_carry_their_words_values(client, act):
    # Casino 1 is dealt a Rainbow card; once every die is placed it must be replaced.
    act("new_game", edition="classic", options={"rainbow": True}, players=ANNA_BEN)
    assert act("event", **_deal([[0, 20_000], *FIVE_AT_50K])).status_code == 200
    play_to(client, act, "rainbow")
    none_drawn = [[] for _ in range(6)]
    too_many = [[10_000, 20_000]] + none_drawn[1:]

    short = act("event", event={"type": "rainbow", "draws": none_drawn})
    more = act("event", event={"type": "rainbow", "draws": too_many})

    _check_why(short.get_json().get("why"), "rainbow_short")
    _check_why(more.get_json().get("why"), "rainbow_more")


@pytest.mark.parametrize(
    ("pile", "note", "key"),
    [
        (Pile(()), 50_000, "pile_empty"),  # the pile is used up
        (Pile(((10_000,), (50_000,))), 50_000, "pile_under"),  # it lies under unshuffled notes
    ],
)
def test_drawing_from_the_money_pile_refusals_carry_their_words_values(pile, note, key):
    with pytest.raises(IllegalMove) as refused:
        pile.draw(note)
    _check_why(refused.value.why, key)


def test_a_slot_machine_note_chosen_twice_carries_its_words_values():
    # Anna (3 dice) and Ben (1 die) share the slot machine; both choose the $80,000 note.
    dice = (PlacedDie(0, 1, False, 1),) * 3 + (PlacedDie(1, 2, False, 2),)
    slot = Casino(SLOT_MACHINE, notes=(80_000, 30_000), dice=dice)
    with pytest.raises(IllegalMove) as refused:
        pay_casino(slot, "pile", slot_choices=(80_000, 80_000))
    _check_why(refused.value.why, "slot_taken")


def test_only_refusals_a_program_causes_come_without_words():
    # A malformed event comes from a program, not a tap: it stays English only.
    from companion.events import event_from_dict

    with pytest.raises(IllegalMove) as refused:
        event_from_dict({"type": "no such event"})
    assert refused.value.why is None
