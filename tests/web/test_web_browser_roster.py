"""The roster on the page, in a real headless Chromium on a phone: players added, renamed,
recoloured and removed from the menu, bad names refused with a message in the page's
language, and the roster prefilling the new-game form."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from browser import (
    choose_option,
    exact_viewport,
    skip_module_without_browser,
    type_into,
    wait_for,
)
from test_web_browser_flow import Page
from test_web_browser_sizes import OVERFLOW_JS

from web import create_app

skip_module_without_browser()


PLAYERS = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "green"}]


@pytest.fixture
def page(tmp_path):
    opened = Page(create_app({"DB": str(tmp_path / "t.sqlite3"), "SEED": 9, "CAMERA": None}))
    yield opened
    opened.close()


def _roster(page: Page) -> list[tuple[str, str]]:
    data = page.client.get("/api/roster").get_json()
    return sorted((p["name"], p["colour"]) for p in data["roster"])


def _type(page: Page, testid: str, text: str) -> None:
    type_into(page.driver, testid, text)


def _message(page: Page) -> str:
    return wait_for(lambda: page.has("message") and page.find("message").text, 10, "a message")


def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("LASVEGAS_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _open_roster(page: Page) -> None:
    page.tap("menu")
    page.tap("menu-roster")
    wait_for(lambda: page.has("roster-panel"), 10, "the roster sheet")


def test_the_roster_is_edited_on_the_page_and_fills_the_new_game_form(page, tmp_path):
    assert page.act("new_game", edition="classic", players=PLAYERS).status_code == 200
    page.synced()
    _open_roster(page)
    wait_for(lambda: page.has("roster-row-Anna") and page.has("roster-row-Ben"), 10, "Anna, Ben")

    # Add Cleo with pink dice.
    _type(page, "roster-new-name", "Cleo")
    choose_option(page.driver, '[data-testid="roster-new-colour"]', "pink")
    page.tap("roster-add")
    wait_for(lambda: page.has("roster-row-Cleo"), 10, "Cleo on the roster")
    assert _roster(page) == [("Anna", "red"), ("Ben", "green"), ("Cleo", "pink")]
    assert page.find("roster-new-name").get_attribute("value") == ""

    # Rename Ben, give Anna another usual colour, remove Cleo.
    _type(page, "roster-name-Ben", "Benno")
    page.tap("roster-save-Ben")
    wait_for(lambda: page.has("roster-row-Benno"), 10, "Benno on the roster")
    choose_option(page.driver, '[data-testid="roster-colour-Anna"]', "orange")
    wait_for(lambda: ("Anna", "orange") in _roster(page), 10, "Anna's colour kept")
    page.driver.save_screenshot(str(_shots(tmp_path) / "390x844-roster.png"))
    page.tap("roster-remove-Cleo")
    wait_for(lambda: not page.has("roster-row-Cleo"), 10, "Cleo removed")
    assert _roster(page) == [("Anna", "orange"), ("Benno", "green")]

    # Bad input: a clear message, nothing changed.
    _type(page, "roster-new-name", "anna")
    page.tap("roster-add")
    assert "Anna is on the list already" in _message(page)
    _type(page, "roster-new-name", " ")
    page.tap("roster-add")
    wait_for(lambda: "1-24 characters" in _message(page), 10, "the name rule")
    assert _roster(page) == [("Anna", "orange"), ("Benno", "green")]

    # The new-game form offers the roster: one tap seats Benno with his colour, and a typed
    # name takes its usual colour.
    page.tap("sheet-close")
    page.tap("menu")
    page.tap("menu-new-game")
    wait_for(lambda: page.has("roster-Benno"), 10, "the roster on the form")
    page.tap("roster-Benno")
    wait_for(lambda: page.find("player-name-0").get_attribute("value") == "Benno", 5, "Benno")
    assert page.find("player-colour-0").get_attribute("value") == "green"
    _type(page, "player-name-1", "anna")
    page.find("player-name-1").send_keys("\t")
    wait_for(
        lambda: page.find("player-colour-1").get_attribute("value") == "orange", 5, "her colour"
    )


def test_the_roster_speaks_german(page):
    page.driver.execute_script("localStorage.setItem('lang', 'de'); render();")
    wait_for(lambda: page.has("roster-open"), 15, "the new-game form")
    assert page.find("roster-open").text == "Spieler bearbeiten…"
    page.tap("roster-open")
    wait_for(lambda: page.has("roster-panel"), 10, "the roster sheet")
    panel = page.find("roster-panel").text
    assert "Spieler" in panel and "Noch niemand" in panel
    _type(page, "roster-new-name", "Dora")
    page.tap("roster-add")
    wait_for(lambda: page.has("roster-row-Dora"), 10, "Dora on the roster")
    _type(page, "roster-new-name", "DORA")
    page.tap("roster-add")
    assert "Dora steht schon auf der Liste" in _message(page)
    assert "0 Spiele" in page.find("roster-row-Dora").text


@pytest.mark.parametrize(
    "size", [(390, 844), (768, 1024), (1024, 768)], ids=lambda s: f"{s[0]}x{s[1]}"
)
def test_the_roster_fits_phones_and_tablets_in_both_languages(tmp_path, size):
    page = Page(create_app({"DB": str(tmp_path / "t.sqlite3"), "SEED": 9, "CAMERA": None}))
    try:
        exact_viewport(page.driver, *size)
        for name, colour in (("Benedikt-Maximilian", "green"), ("Anna", "red"), ("Zoë", "pink")):
            added = page.client.post("/api/roster/add", json={"name": name, "colour": colour})
            assert added.status_code == 200
        wait_for(lambda: page.has("roster-open"), 15, "the new-game form")
        page.tap("roster-open")
        wait_for(lambda: page.has("roster-row-Benedikt-Maximilian"), 10, "the roster sheet")
        for lang in ("en", "de"):
            page.driver.execute_script(
                "localStorage.setItem('lang', arguments[0]); render();", lang
            )
            assert page.driver.execute_script(OVERFLOW_JS) == [], (size, lang)
            # Each player's buttons are whole and inside the sheet.
            box = page.find("sheet-roster").rect
            for testid in ("roster-save-Zoë", "roster-remove-Zoë", "roster-add"):
                rect = page.find(testid).rect
                assert (
                    box["x"] <= rect["x"] and rect["x"] + rect["width"] <= box["x"] + box["width"]
                )
        page.tap("sheet-close")
        for lang in ("en", "de"):
            page.driver.execute_script(
                "localStorage.setItem('lang', arguments[0]); render();", lang
            )
            assert page.driver.execute_script(OVERFLOW_JS) == [], (size, lang, "new-game form")
    finally:
        page.close()
