"""Events and records of the wrong shape are refused with a ValueError that names the field."""

from __future__ import annotations

import copy

import pytest
from helpers_play import full_random_game

from companion.events import event_from_dict
from companion.record import RecordError, record_from_events, replay_record


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"type": ["roll"]}, "unknown event"),  # a list where the type's name belongs
        ({"type": {"a": 1}}, "unknown event"),  # an object there
        ({"type": "place", "number": 3, "slot": "no"}, "slot must be true or false"),
        ({"type": "place", "number": 3, "slot": 0}, "slot must be true or false"),
        ({"type": "place", "number": 3, "kicks": [{"owner": 1, "big": "yes"}]}, "big"),
        ({"type": "place", "number": 3, "kicks": [{"owner": 1e999}]}, "kick owner"),
        ({"type": "place", "number": 3, "kicks": [[1, 2]]}, "kicks must be"),
        ({"type": "place", "number": 3, "chip": ["red"]}, "chip must be"),
        ({"type": "power_play", "number": 3, "big": "no"}, "big must be true or false"),
        ({"type": "cards", "cards": [[1, 2]], "chips": [[1]]}, "chips must be"),  # a short chip
        ({"type": "cards", "cards": [[1, 2]], "chips": [["red", 1]]}, "chips must be"),
        ({"type": "cards", "cards": 5}, "cards must be a list"),
        ({"type": "deal", "casinos": [[10000]], "chip_cards": [{}]}, "chip_cards must be"),
        ({"type": "deal", "casinos": [[10000]], "tiles": "A1"}, "tiles must be"),
        ({"type": "deal", "casinos": 7}, "casinos must be a list"),
        ({"type": "tile", "casino": True, "choice": {}}, "tile decision"),
        ({"type": "roll"}, "roll event lacks 'regular'"),
    ],
)
def test_events_of_the_wrong_shape_name_the_field(data, field):
    with pytest.raises(ValueError, match="malformed event") as refused:
        event_from_dict(data)
    assert field in str(refused.value)


@pytest.fixture(scope="module")
def record():
    initial, events, _ = full_random_game(seed=3)
    return record_from_events(initial, events)


def first_placing_turn(record):
    """The first turn of the record that places dice."""
    return next(t for r in record["rounds"] for t in r["turns"] if "place" in t)


@pytest.mark.parametrize(
    ("entry", "value", "message"),
    [
        ("slot", "no", "'slot' must be true or false"),  # text, which Python takes as true
        ("slot", 1, "'slot' must be true or false"),
        ("skip", "false", "'skip' must be true or false"),
        ("chip", ["red"], "'chip' must be a chip colour"),
    ],
)
def test_records_refuse_flags_that_are_not_booleans(record, entry, value, message):
    assert replay_record(copy.deepcopy(record)).final.phase.value == "over"  # as written
    broken = copy.deepcopy(record)
    first_placing_turn(broken)[entry] = value
    with pytest.raises(RecordError, match=message):
        replay_record(broken)
