"""Player names follow one rule everywhere, and a record of an unknown format is refused."""

from __future__ import annotations

import json

import pytest
from helpers_play import events_table, full_random_game
from test_cli import assert_clean_failure, lasvegas

from companion.errors import IllegalMove
from companion.record import RecordError, record_from_events, replay_record
from companion.rules import make_rules
from companion.session import GameStore
from companion.state import MAX_NAME, check_name, new_game

REFUSED_NAMES = [
    pytest.param("", "1-24 characters", id="empty"),
    pytest.param("   ", "1-24 characters", id="only-spaces"),
    pytest.param("x" * (MAX_NAME + 1), "1-24 characters", id="one-too-long"),
    pytest.param("x" * 900_000, "(900000 characters)", id="huge"),  # quoted cut short
    pytest.param("Anna\nBen", "U+000A", id="line-break"),
    pytest.param("Anna\tB", "U+0009", id="tab"),
    pytest.param("Anna\x00", "U+0000", id="nul"),
    pytest.param("Anna\u2028Ben", "U+2028", id="line-separator"),
    pytest.param("\u202eannA", "U+202E", id="direction-override"),  # turns what follows round
]


@pytest.mark.parametrize(("name", "fragment"), REFUSED_NAMES)
def test_a_bad_name_is_refused_with_a_short_message(name, fragment):
    with pytest.raises(IllegalMove, match="player names") as refused:
        check_name(name)
    assert fragment in str(refused.value)
    assert len(str(refused.value)) < 200  # a huge name is not echoed back whole


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("x" * MAX_NAME, "x" * MAX_NAME),  # exactly the longest
        ("  Zoë ", "Zoë"),  # outer spaces go, letters of any language stay
        ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),  # joiners that build one emoji
    ],
)
def test_a_good_name_is_kept(name, kept):
    assert check_name(name) == kept


@pytest.mark.parametrize(("name", "fragment"), REFUSED_NAMES[2:])
def test_a_new_game_refuses_a_bad_name(name, fragment):
    with pytest.raises(IllegalMove, match="player names"):
        new_game(make_rules("classic", {}), ["Carla", name])


def _record_with(**changes):
    initial, events, _ = full_random_game(seed=3)
    return record_from_events(initial, events[:20]) | changes


@pytest.mark.parametrize(("name", "fragment"), REFUSED_NAMES[2:])
def test_an_imported_record_with_a_bad_name_stores_nothing(tmp_path, name, fragment):
    record = _record_with(players=["Anna", name, "Carla"], start_player="Anna")
    store = GameStore(tmp_path / "g.db")
    with pytest.raises(RecordError, match="player names"):
        store.import_record(record)
    assert store.games() == []
    store.close()
    assert events_table(tmp_path / "g.db") == []


@pytest.mark.parametrize(
    "value",
    [
        "lasvegas-record/2",  # a later format this companion cannot know
        "chess-pgn",  # another program's record
        7,  # not even a name
    ],
)
def test_a_record_of_an_unknown_format_is_refused(value):
    with pytest.raises(RecordError, match="format .* is not one this companion reads"):
        replay_record(_record_with(format=value))


def test_a_record_of_this_format_or_none_is_read():
    record = _record_with()
    assert replay_record(record).events
    del record["format"]
    assert replay_record(record).events  # the format may be left out


def test_import_of_an_unknown_format_fails_clearly(tmp_path):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(_record_with(format="lasvegas-record/9")))
    assert_clean_failure(
        lasvegas("import", path, "--db", tmp_path / "g.db"), 1, "lasvegas-record/9"
    )


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("x" * 30, "1-24 characters"),  # too long
        ("Anna\x1b[2J", "U+001B"),  # a terminal escape that would clear the screen
    ],
)
def test_play_refuses_a_bad_name(name, fragment):
    result = lasvegas("play", "--seed", "1", "--auto", "--players", "Ben", name)
    assert_clean_failure(result, 2, "player names", fragment)
