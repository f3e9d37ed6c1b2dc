"""Every problem and refusal the server words by key has words in both of the page's languages."""

from __future__ import annotations

import re
from pathlib import Path

from companion.check_sentences import CHECK_TEXTS
from companion.proposal import PROBLEM_TEXTS

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"


def page_words(language: str) -> dict[str, str]:
    """One language's words from i18n.js: key to text (its main table and the words added to
    it further down with `Object.assign(WORDS.xx, {...})`)."""
    script = (WEB / "static" / "i18n.js").read_text(encoding="utf-8")
    start = script.index(f"\n  {language}: {{")
    parts = [script[start : script.index("\n  },", start)]]
    for match in re.finditer(rf"Object\.assign\(WORDS\.{language}, \{{", script):
        parts.append(script[match.end() : script.index("\n});", match.end())])
    return dict(re.findall(r'(\w+): "((?:[^"\\]|\\.)*)"', "\n".join(parts)))


def _keys_sent() -> set[str]:
    """The keys of problems and refusals the server can send (`why={"key": ...}` in the page's
    code and in the rules', and the reading problems)."""
    sent = set(PROBLEM_TEXTS)
    for source in [*WEB.glob("*.py"), *(ROOT / "companion").rglob("*.py")]:
        sent |= set(re.findall(r'"key": "(\w+)"', source.read_text(encoding="utf-8")))
    return sent


def test_every_key_the_server_sends_has_words_in_english_and_german():
    english, german = page_words("en"), page_words("de")
    sent = _keys_sent()
    assert {"stale", "viewer", "wrong_pin", "unsure", "missing", "deal_short", "roll_count"} <= sent
    for key in sorted(sent):
        assert f"why_{key}" in english, key
        assert f"why_{key}" in german, key
        # Both languages fill in the same values.
        assert set(re.findall(r"\{(\w+)\}", english[f"why_{key}"])) == set(
            re.findall(r"\{(\w+)\}", german[f"why_{key}"])
        ), key


def test_the_page_words_reading_problems_as_the_server_does():
    english = page_words("en")
    for key, text in PROBLEM_TEXTS.items():
        assert english[f"why_{key}"] == text, key


def test_every_sentence_of_the_table_check_has_words_in_english_and_german():
    english, german = page_words("en"), page_words("de")
    assert {"differs", "gets", "tie_made", "no_change"} <= set(CHECK_TEXTS)
    for key, text in CHECK_TEXTS.items():
        # The page's English is the server's, and German fills in the same values.
        assert english[f"chk_{key}"] == text, key
        assert set(re.findall(r"\{(\w+)\}", german[f"chk_{key}"])) == set(
            re.findall(r"\{(\w+)\}", text)
        ), key


def _tile_asks_and_values(seeds: range) -> tuple[set[str], set[str]]:
    """What Royale's tiles ask, and the words among their choices' values, in random games."""
    import random

    from companion.choices import legal_choices
    from companion.engine import apply
    from companion.events import TileDecision
    from companion.rules import make_rules
    from companion.simulate import chance_event, random_choice
    from companion.state import Phase, new_game

    asks: set[str] = set()
    values: set[str] = set()
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(make_rules("royale", {"tiles": 6}), ["Anna", "Ben", "Cleo"])
        while state.phase is not Phase.OVER:
            if state.pending is not None:
                asks.add(state.pending.ask)
            for choice in legal_choices(state):
                if isinstance(choice, TileDecision):
                    values |= {v for _, v in choice.choice if isinstance(v, str)}
            state = apply(state, chance_event(state, rng) or random_choice(state, rng))
    return asks, values


def test_what_a_tile_asks_and_its_choices_words_have_words_in_english_and_german():
    english, german = page_words("en"), page_words("de")
    asks, values = _tile_asks_and_values(range(6))
    # Six games meet every ask (11) and every word among the values (9).
    assert {"guess", "casino to close", "take or bet"} <= asks and len(asks) >= 9
    assert {"higher", "chips"} <= values
    for ask in sorted(asks):
        key = "ask_" + ask.replace(" ", "_")
        assert key in english and key in german, ask
    for value in sorted(values):
        assert f"tv_{value}" in english and f"tv_{value}" in german, value
