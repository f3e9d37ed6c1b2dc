"""Every problem and refusal the server words by key has words in both of the page's languages."""

from __future__ import annotations

import re
from pathlib import Path

from web.reading import PROBLEM_TEXTS

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"


def page_words(language: str) -> dict[str, str]:
    """One language's words from i18n.js: key to text."""
    script = (WEB / "static" / "i18n.js").read_text(encoding="utf-8")
    start = script.index(f"\n  {language}: {{")
    end = script.index("\n  },", start)
    return dict(re.findall(r'(\w+): "((?:[^"\\]|\\.)*)"', script[start:end]))


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
