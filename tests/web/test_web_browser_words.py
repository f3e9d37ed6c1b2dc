"""A refusal shown in a real headless Chromium is worded in the page's language."""

from __future__ import annotations

import pytest
from browser import LiveServer, chromium, skip_module_without_browser, wait_for

from web import create_app

skip_module_without_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402


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


def test_a_refused_setup_is_explained_in_german(page, tmp_path):
    wait_for(lambda: _testid(page, "setup"), 15, "the new-game form")
    _testid(page, "language").click()
    wait_for(lambda: "Neues Spiel" in page.find_element(By.TAG_NAME, "body").text, 5, "German")
    _testid(page, "player-name-0").send_keys("Anna")
    _testid(page, "player-name-1").send_keys("Ben")
    for seat in (0, 1):  # both players pick red
        Select(_testid(page, f"player-colour-{seat}")).select_by_value("red")
    _testid(page, "start-game").click()
    shown = wait_for(
        lambda: page.find_elements(By.CSS_SELECTOR, '[data-testid="message"]'), 10, "the refusal"
    )
    page.save_screenshot(str(tmp_path / "refused-de.png"))
    assert "Jeder Spieler braucht seine eigene Würfelfarbe" in shown[0].text
    assert "each player" not in shown[0].text
    # The form is long: the refusal shows where the player tapped, not at the page's top.
    assert page.execute_script("return window.scrollY") > 0
    assert shown[0].is_displayed() and _on_screen(page, shown[0])


def _on_screen(driver, element) -> bool:
    """Whether the element lies wholly inside the browser's window as scrolled now."""
    return driver.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;",
        element,
    )
