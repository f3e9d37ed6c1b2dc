"""A payout change that hangs on how a die not read for sure is read, drawn by the page in a
real headless Chromium: each reading and its change on a line of its own, in the page's
language."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from browser import LivePage, skip_module_without_browser, wait_for
from table import casino_four_in_doubt

from web import create_app

skip_module_without_browser()

DRAW = """
const box = document.createElement("div");
box.className = "check-casino";
box.dataset.testid = "drawn-check";
box.append(payoutChange(arguments[0]));
document.body.prepend(box);
"""


def casino_four() -> dict:
    """Casino 4 as the server sends it, its payout change hanging on a die in doubt."""
    four = casino_four_in_doubt()
    return {
        "payout_sentences": [s.to_dict() for s in four.payout_sentences],
        "payout_changes": four.payout_changes,
        "readings": [s.text() for s in four.payout_sentences if s.key == "if_reading"],
    }


@pytest.fixture
def page(tmp_path):
    live = LivePage(create_app({"DB": str(tmp_path / "table.sqlite3"), "CAMERA": None}), 390, 844)
    yield live
    live.close()


def test_each_reading_of_a_die_in_doubt_stands_on_its_own_line(page, tmp_path):
    four = casino_four()
    assert len(four["readings"]) == 3
    wait_for(lambda: page.js("return typeof payoutChange === 'function'"), 15, "the page's script")
    page.js(DRAW, four)
    lines = wait_for(lambda: page.all('[data-testid="drawn-check"] [data-testid="payout-reading"]'))
    assert [line.text for line in lines] == four["readings"]
    head = page.text('[data-testid="drawn-check"] p')
    assert head.startswith("At payout: ") and "if it is" not in head
    # Each reading is a line of its own: one below the other.
    tops = [line.location["y"] for line in lines]
    assert tops == sorted(tops) and len(set(tops)) == 3
    shots = Path(os.environ.get("LASVEGAS_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page.driver.save_screenshot(str(shots / "check-readings-390x844.png"))
    # In German the readings are German.
    page.js("setLanguage('de');")
    page.js("document.querySelector('[data-testid=drawn-check]').remove();")
    page.js(DRAW, four)
    german = page.all('[data-testid="drawn-check"] [data-testid="payout-reading"]')
    assert german[0].text.startswith("ist er "), german[0].text


def test_a_change_that_hangs_on_no_reading_is_one_line(page):
    wait_for(lambda: page.js("return typeof payoutChange === 'function'"), 15, "the page's script")
    sent = {"payout_sentences": [{"key": "no_change"}], "payout_changes": "no change at payout"}
    page.js(DRAW, sent)
    assert not page.all('[data-testid="drawn-check"] [data-testid="payout-reading"]')
    assert page.text('[data-testid="drawn-check"]') == "At payout: no change at payout"
