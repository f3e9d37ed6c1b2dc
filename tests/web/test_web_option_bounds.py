"""The setup form's limits are the validator's: every option the form offers is checked at its edges."""

from __future__ import annotations

from dataclasses import fields

import pytest

from companion.errors import IllegalMove
from companion.options import OPTIONS
from companion.rules import EDITIONS, OPTION_NAMES, Rules, make_rules


def _form_options(client) -> list[tuple[str, dict]]:
    """(edition, option spec) for every option the setup form shows."""
    editions = client.get("/api/setup").get_json()["editions"]
    return [(edition, spec) for edition, specs in editions.items() for spec in specs]


def test_the_form_offers_each_edition_exactly_its_options(client):
    editions = client.get("/api/setup").get_json()["editions"]
    assert {e: [s["name"] for s in specs] for e, specs in editions.items()} == {
        e: list(OPTION_NAMES[e]) for e in EDITIONS
    }


def test_every_number_in_the_form_is_accepted_at_its_bounds_and_refused_past_them(client):
    bounded = [(e, s) for e, s in _form_options(client) if s["type"] == "int"]
    assert {s["name"] for _, s in bounded} == {"skip_limit", "rounds", "tiles"}
    for edition, spec in bounded:
        name, low, high = spec["name"], spec["min"], spec["max"]
        assert getattr(make_rules(edition, {name: low}), name) == low
        assert getattr(make_rules(edition, {name: high}), name) == high
        for outside in (low - 1, high + 1):
            with pytest.raises(IllegalMove, match=f"{name} must be {low}-{high}"):
                make_rules(edition, {name: outside})


def test_every_choice_in_the_form_is_accepted_and_nothing_else(client):
    chosen = [(e, s) for e, s in _form_options(client) if "choices" in s]
    assert chosen
    for edition, spec in chosen:
        for choice in spec["choices"]:
            assert getattr(make_rules(edition, {spec["name"]: choice}), spec["name"]) == choice
        with pytest.raises(IllegalMove, match=f"{spec['name']} must be one of"):
            make_rules(edition, {spec["name"]: "something else"})


def test_the_form_default_is_a_value_the_validator_accepts(client):
    for edition, spec in _form_options(client):
        rules = make_rules(edition, {spec["name"]: spec["default"]})
        assert getattr(rules, spec["name"]) == spec["default"]


def test_skip_limit_is_once_or_twice_a_round_or_no_limit():
    """The house rule: 'limit the Skip and Re-Roll action to once or twice per round', or not."""
    for limit in (0, 1, 2):
        assert make_rules("custom", {"skip_rule": "chips", "skip_limit": limit}).skip_limit == limit
    with pytest.raises(IllegalMove, match=r"skip_limit must be 0-2 \(0: no limit\), got 25"):
        make_rules("custom", {"skip_rule": "chips", "skip_limit": 25})


def test_each_option_kind_is_the_type_the_rules_hold():
    types = {f.name: f.type for f in fields(Rules)}
    for name, option in OPTIONS.items():
        assert types[name] == option.kind.__name__, name
    assert {n for names in OPTION_NAMES.values() for n in names} == set(OPTIONS)
