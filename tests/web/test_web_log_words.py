"""The game log, the payout and the menus have words in English and German, with the same values."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion import gamelog

SCRIPT = (Path(__file__).resolve().parents[2] / "web" / "static" / "i18n.js").read_text("utf-8")


def added_words(language: str) -> dict[str, str]:
    """The words i18n.js adds to one language with Object.assign(WORDS.<language>, {...})."""
    found: dict[str, str] = {}
    for block in re.findall(rf"Object\.assign\(WORDS\.{language}, \{{(.*?)\n\}}\);", SCRIPT, re.S):
        found |= dict(re.findall(r'(\w+): "((?:[^"\\]|\\.)*)"', block))
    return found


def test_both_languages_add_the_same_words_with_the_same_values():
    english, german = added_words("en"), added_words("de")
    assert len(english) > 40
    assert set(english) == set(german)
    for key, text in english.items():
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", german[key])), (
            key
        )


# Entries the page words with words it already had (the tile effect, the winner).
WORDED_ELSEWHERE = {"tile_effect", "over"}


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_kind_of_log_entry_has_words(language):
    kinds = set(re.findall(r'"what": "(\w+)"', Path(gamelog.__file__).read_text("utf-8")))
    assert {"deal", "roll", "place", "award", "tie", "payout"} <= kinds
    words = added_words(language)
    for kind in kinds - WORDED_ELSEWHERE:
        assert f"log_{kind}" in words, kind
