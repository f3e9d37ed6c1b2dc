"""A phone of 390x844 in a real headless Chromium, in English and German: on every screen of a
game the top bar takes at most 80 px, and the buttons to act come before the casinos, the
first of them in view without scrolling."""

from __future__ import annotations

import pytest
from browser import exact_viewport, skip_module_without_browser, wait_for
from test_web_browser_flow import Page

from web import create_app

skip_module_without_browser()

PHONE = (390, 844)
TOP_BAR_MOST = 80

PLAYERS = [
    {"name": "Anna", "colour": "red"},
    {"name": "Benedikt-Maximilian", "colour": "green"},  # a long name in the top bar
    {"name": "Cleo", "colour": "blue"},
]

# The top bar's height; where the actions and the first casino begin (page coordinates); and
# the first button to act: its bottom edge in the window and its words.
LAYOUT_JS = """
window.scrollTo(0, 0);
const top = document.querySelector('header.top').getBoundingClientRect();
const actions = document.querySelector('[data-testid=actions]');
const casino = document.querySelector('[data-testid=casino-1]');
const first = actions && [...actions.querySelectorAll('button')].find((b) => !b.disabled && b.offsetParent);
return {
  top: top.height, topBottom: top.bottom, height: innerHeight, width: innerWidth,
  actions: actions ? actions.getBoundingClientRect().top : null,
  casino: casino ? casino.getBoundingClientRect().top : null,
  first: first ? first.getBoundingClientRect().bottom : null,
  firstText: first ? first.innerText : null,
  phase: (document.querySelector('[data-testid=phase]') || {}).innerText || '',
};
"""

PHASE_WORDS = {
    "en": {"roll": "to roll", "choose": "to choose"},
    "de": {"roll": "würfelt", "choose": "wählt"},
}


@pytest.fixture
def page(tmp_path):
    opened = Page(create_app({"DB": str(tmp_path / "t.sqlite3"), "SEED": 4, "CAMERA": None}))
    exact_viewport(opened.driver, *PHONE)
    yield opened
    opened.close()


def _layout(page: Page, lang: str) -> dict:
    page.driver.execute_script("localStorage.setItem('lang', arguments[0]); render();", lang)
    return page.driver.execute_script(LAYOUT_JS)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_top_bar_is_short_and_the_actions_come_before_the_casinos(page, lang):
    page.driver.execute_script("localStorage.setItem('lang', arguments[0]); render();", lang)
    wait_for(lambda: page.has("setup"), 15, "the new-game form")
    seen = _layout(page, lang)
    assert (seen["width"], seen["height"]) == PHONE
    assert seen["top"] <= TOP_BAR_MOST, seen

    options = {"neutral_dice": True, "biggies": True}
    assert (
        page.act("new_game", edition="classic", options=options, players=PLAYERS).status_code == 200
    )
    checked = set()
    for _ in range(400):
        page.synced()
        state = page.state()
        game, screen = state["game"], page.screen()
        seen = _layout(page, lang)
        assert seen["top"] <= TOP_BAR_MOST, (screen, game["phase"], seen)
        if screen == "play" and game["phase"] in ("roll", "choose", "payout"):
            # What to do comes first; its first button is in view at the top of the page.
            assert seen["actions"] < seen["casino"], (game["phase"], seen)
            assert seen["topBottom"] < seen["first"] <= seen["height"], (game["phase"], seen)
            if game["phase"] in PHASE_WORDS[lang]:
                assert PHASE_WORDS[lang][game["phase"]] in seen["phase"], seen
            checked.add(game["phase"])
        if screen == "deal":
            assert seen["topBottom"] < seen["first"] <= seen["height"], ("deal", seen)
            checked.add("deal")
        if screen == "payout":
            checked.add("payout screen")
            page.tap("show-all") if page.has("show-all") else None
            page.tap("payout-continue")
            continue
        if game["round"] > 1:
            break
        if game["choices"] and game["phase"] != "roll":
            assert page.act("event", event=game["choices"][0]["event"]).status_code == 200
        else:
            assert page.act("simulate").status_code == 200
    assert {"deal", "roll", "choose", "payout", "payout screen"} <= checked


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_top_bar_stays_short_with_a_pin_to_take_control(tmp_path, lang):
    app = create_app({"DB": str(tmp_path / "t.sqlite3"), "SEED": 4, "CAMERA": None, "PIN": "1357"})
    page = Page(app)
    try:
        exact_viewport(page.driver, *PHONE)
        page.client.post("/api/control", json={"pin": "1357"})
        assert page.act("new_game", edition="classic", players=PLAYERS).status_code == 200
        page.synced()
        wait_for(lambda: page.has("control"), 10, "the Control button")
        seen = _layout(page, lang)
        assert seen["top"] <= TOP_BAR_MOST, seen
        assert page.driver.execute_script(
            "return document.documentElement.scrollWidth <= innerWidth"
        ), "the page is wider than the phone"
    finally:
        page.close()
