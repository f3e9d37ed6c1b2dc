"""A refusal shown in a real headless Chromium is worded in the page's language."""

from __future__ import annotations

import pytest
from browser import (
    LiveServer,
    choose_option,
    chromium,
    skip_module_without_browser,
    tap_testid,
    type_into,
    wait_for,
)

from web import create_app

skip_module_without_browser()

from selenium.webdriver.common.by import By  # noqa: E402


@pytest.fixture
def page(tmp_path):
    live = LiveServer(create_app({"DB": str(tmp_path / "table.sqlite3"), "CAMERA": None}))
    driver = chromium()
    driver.get(live.url)
    yield driver
    driver.quit()
    live.close()


def _testid(driver, name: str):
    return driver.find_element(By.CSS_SELECTOR, f'[data-testid="{name}"]')


def _start_in_german(driver, colours: tuple[str, str] | None = None) -> None:
    """Switch the new-game form to German, name Anna and Ben (in these colours) and start."""
    wait_for(lambda: _testid(driver, "setup"), 15, "the new-game form")
    tap_testid(driver, "language")
    wait_for(lambda: "Neues Spiel" in driver.find_element(By.TAG_NAME, "body").text, 5, "German")
    for seat, name in enumerate(("Anna", "Ben")):
        type_into(driver, f"player-name-{seat}", name)
        if colours:
            choose_option(driver, f'[data-testid="player-colour-{seat}"]', colours[seat])
    tap_testid(driver, "start-game")


def _message(driver):
    """The message of the last tap, once it shows."""
    found = wait_for(
        lambda: driver.find_elements(By.CSS_SELECTOR, '[data-testid="message"]'), 10, "the message"
    )
    return found[0]


def test_a_refused_setup_is_explained_in_german(page, tmp_path):
    _start_in_german(page, colours=("red", "red"))  # both players pick red
    shown = _message(page)
    page.save_screenshot(str(tmp_path / "refused-de.png"))
    assert "Jeder Spieler braucht seine eigene Würfelfarbe" in shown.text
    assert "each player" not in shown.text
    # The form is long: the refusal shows where the player tapped, not at the page's top.
    assert page.execute_script("return window.scrollY") > 0
    assert shown.is_displayed() and _on_screen(page, shown)


def _on_screen(driver, element) -> bool:
    """Whether the element lies wholly inside the browser's window as scrolled now."""
    return driver.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;",
        element,
    )


def test_a_deal_short_of_its_minimum_is_explained_in_german(page, tmp_path):
    # The rules' own refusal (a casino short of $50,000), worded by the page with German money.
    _start_in_german(page)
    wait_for(lambda: _testid(page, "deal-row-1"), 10, "the deal")
    tap_testid(page, "note-10000")  # casino 1 is the row being filled: one $10,000 note
    tap_testid(page, "deal-confirm")
    shown = _message(page)
    page.save_screenshot(str(tmp_path / "deal-refused-de.png"))
    assert "Casino 1 braucht mindestens 50.000 $; seine Scheine ergeben 10.000 $" in shown.text
    assert "must reach" not in shown.text


def test_unnamed_seats_are_called_player_1_and_player_2(page):
    """A seat left without a name gets 'Player N' (one player, not 'Players 1')."""
    wait_for(lambda: _testid(page, "setup"), 15, "the new-game form")
    tap_testid(page, "start-game")
    body = page.find_element(By.TAG_NAME, "body")
    wait_for(lambda: "Player 2" in body.text, 10, "the game of Player 1 and Player 2")
    assert "Players 1" not in body.text
