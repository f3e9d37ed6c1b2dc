""" "Print or save" of the final result, in a real headless Chromium: the button asks the browser
to print, and what prints (the page under print media, and the PDF the browser makes of it) is
the winner, the score table and the standings with every player's name and money, without the
top bar, the buttons or the saved games."""

from __future__ import annotations

import base64
import re

import pytest
from browser import exact_viewport, skip_module_without_browser, wait_for
from playing import play_to
from test_web_browser_flow import Page

from web import create_app

skip_module_without_browser()

from selenium.webdriver.common.print_page_options import PrintOptions  # noqa: E402

PLAYERS = [
    {"name": "Anna", "colour": "red"},
    {"name": "Benedikt-Maximilian", "colour": "green"},
    {"name": "Cleo", "colour": "blue"},
]

# What a person sees of the page: the visible text of each part, and which parts are hidden.
PRINTED_JS = """
const shown = (el) => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
const text = (sel) => [...document.querySelectorAll(sel)].filter(shown).map((e) => e.innerText).join('\\n');
return {
  heading: text('[data-testid=game-over] h2, .sheet .score h2'),
  score: text('[data-testid=score]'),
  standings: text('[data-testid=standings]'),
  names: [...document.querySelectorAll('[data-testid=score] .owner-name')].filter(shown).map((e) => e.innerText),
  top: shown(document.querySelector('header.top')),
  buttons: [...document.querySelectorAll('#app button, #app a.btn')].filter(shown).map((b) => b.innerText),
  history: shown(document.querySelector('[data-testid=history]')),
  board: shown(document.querySelector('main.play, main.over-screen')),
};
"""


@pytest.fixture(params=[(390, 844), (1024, 768)], ids=["phone", "tablet"])
def page(request, tmp_path):
    opened = Page(create_app({"DB": str(tmp_path / "t.sqlite3"), "SEED": 11, "CAMERA": None}))
    exact_viewport(opened.driver, *request.param)
    yield opened
    opened.close()


def _finished(page: Page) -> dict:
    assert page.act("new_game", edition="classic", players=PLAYERS).status_code == 200
    game = play_to(page.client, page.act, "over")
    page.synced()
    _past_the_payout(page)
    wait_for(lambda: page.screen() == "over", 10, "the game-over screen")
    return game


def _past_the_payout(page: Page) -> None:
    while page.screen() == "payout":
        page.tap("show-all") if page.has("show-all") else None
        page.tap("payout-continue")


def _money(amount: int) -> str:
    return f"${amount:,}"


def _pdf_pages(page: Page) -> int:
    pdf = base64.b64decode(page.driver.print_page(PrintOptions()))
    assert pdf.startswith(b"%PDF-") and len(pdf) > 5000
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def test_the_printed_result_is_the_winner_the_score_and_the_standings(page):
    game = _finished(page)
    page.driver.execute_script("window.printed = 0; window.print = () => { window.printed += 1; };")
    page.tap("print")
    assert page.driver.execute_script("return window.printed") == 1

    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    printed = page.driver.execute_script(PRINTED_JS)
    winners = " & ".join(game["result"]["winners"])
    assert winners in printed["heading"], printed
    assert sorted(printed["names"]) == sorted(p["name"] for p in PLAYERS), printed
    for row in game["standings"]:
        assert row["name"] in printed["standings"], printed
        assert _money(row["money"]) in printed["standings"], printed
        assert f"${round(row['money'] / 1000)}k" in printed["score"] or row["money"] == 0, printed
    assert not printed["top"] and not printed["history"] and printed["buttons"] == [], printed
    assert 1 <= _pdf_pages(page) <= 3


def test_the_score_sheet_prints_alone(page):
    assert page.act("new_game", edition="classic", players=PLAYERS).status_code == 200
    play_to(page.client, page.act, "payout")
    assert page.act("event", event={"type": "payout", "slot_choices": []}).status_code == 200
    page.synced()
    _past_the_payout(page)
    page.tap("menu")
    page.tap("menu-score")
    wait_for(lambda: page.has("sheet-score"), 10, "the score sheet")
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    printed = page.driver.execute_script(PRINTED_JS)
    assert sorted(printed["names"]) == sorted(p["name"] for p in PLAYERS), printed
    assert "R1" in printed["score"], printed
    assert not printed["board"] and not printed["top"] and printed["buttons"] == [], printed
    assert _pdf_pages(page) == 1
