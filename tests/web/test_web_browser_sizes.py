"""Every screen a game passes through fits a phone and a tablet, in English and in German.

A 4-player game with neutral dice and Biggies and a Royale game with tiles are played through
the API while a real headless Chromium follows along at 390x844 (a phone), 768x1024 (a tablet
upright) and 1024x768 (a tablet lying down). On every screen and phase, in both languages, no
part of the page is wider than the window and nothing spills out of a casino's card.
Screenshots go to $LASVEGAS_SCREENSHOTS (or the test's temp folder).
"""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path

import pytest
from browser import LiveServer, chromium, skip_module_without_browser, wait_for

from web import create_app

skip_module_without_browser()

from selenium.webdriver.common.by import By  # noqa: E402

SIZES = [(390, 844), (768, 1024), (1024, 768)]

FOUR = [
    {"name": "Anna", "colour": "red"},
    {"name": "Benedikt-Maximilian", "colour": "blue"},  # a long name, as German tables have
    {"name": "Cleo", "colour": "green"},
    {"name": "Dan", "colour": "yellow"},
]

GAMES = {
    "classic": ("classic", {"neutral_dice": True, "biggies": True}, FOUR),
    "royale": ("royale", {"tiles": 2}, FOUR[:3]),
}

# Returns what sticks out: the page wider than the window, an element past the window's right
# edge, or an element wider than the casino card (or payout card) it lies in.
OVERFLOW_JS = """
const out = [];
const width = document.documentElement.clientWidth;
if (document.documentElement.scrollWidth > width + 1)
  out.push(`page ${document.documentElement.scrollWidth} > ${width}`);
for (const el of document.querySelectorAll("#app *")) {
  const r = el.getBoundingClientRect();
  // Inside a scrolling box (a sheet over the page) only what sticks out of the box counts.
  if (el.closest(".score-scroll")) continue;
  if (r.width && r.right > width + 1 && getComputedStyle(el).position !== "fixed")
    out.push(`${el.tagName}.${el.className} "${(el.textContent || "").slice(0, 30)}" ends at ${Math.round(r.right)}`);
}
for (const card of document.querySelectorAll(".casino, .payout-casino, .standings, .score, .dialog-box, .tm-casino")) {
  const box = card.getBoundingClientRect();
  for (const el of card.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > box.right + 1 || r.left < box.left - 1))
      out.push(`spills out of ${card.className}: ${el.tagName}.${el.className} "${(el.textContent || "").slice(0, 30)}"`);
  }
}
return out.slice(0, 8);
"""


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("LASVEGAS_SCREENSHOTS") or tmp_path_factory.mktemp("sizes"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def driver():
    # A browser a game: one session kept through six whole games once lost its chromedriver
    # part-way ("unknown command" for the session).
    browser = chromium(*SIZES[0])
    yield browser
    browser.quit()


class Follow:
    """Plays a game through the API while the browser shows it; checks every new screen."""

    def __init__(self, app, driver, shots: Path, size: tuple[int, int], name: str) -> None:
        self.app, self.driver, self.shots, self.size, self.name = app, driver, shots, size, name
        self.live = LiveServer(app)
        self.client = app.test_client()
        self.seen: set[str] = set()
        self.problems: list[str] = []

    def act(self, action: str, **fields):
        base = self.client.get("/api/state").get_json()["version"]
        response = self.client.post("/api/action", json={"action": action, "base": base} | fields)
        assert response.status_code == 200, response.get_json()
        return response

    def version(self) -> str:
        with urllib.request.urlopen(self.live.url + "api/state", timeout=10) as response:
            return json.load(response)["version"]

    def js(self, script: str, *args):
        return self.driver.execute_script(script, *args)

    def synced(self) -> None:
        wait_for(lambda: self.js("return document.body.dataset.version") == self.version(), 10)

    def check(self, label: str) -> None:
        """Check this screen in both languages, once per label; keep an English screenshot."""
        if label in self.seen:
            return
        self.seen.add(label)
        for lang in ("en", "de"):
            self.js("localStorage.setItem('lang', arguments[0]); render();", lang)
            for problem in self.js(OVERFLOW_JS):
                self.problems.append(f"{self.size} {lang} {self.name} {label}: {problem}")
            if lang == "en" or label in ("choose-1", "payout-all", "over"):
                w, h = self.size
                suffix = "" if lang == "en" else "-de"
                self.driver.save_screenshot(
                    str(self.shots / f"{w}x{h}-{self.name}-{label}{suffix}.png")
                )
        self.js("localStorage.setItem('lang', 'en'); render();")

    def screen(self) -> str:
        return self.js("return document.body.dataset.screen")

    def payout(self) -> None:
        """Walk through a payout screen casino by casino, checking its first and last step."""
        self.check("payout-first")
        while self.driver.find_elements(By.CSS_SELECTOR, '[data-testid="next-casino"]'):
            self.js("document.querySelector('[data-testid=next-casino]').click()")
        self.check("payout-all")
        self.js("document.querySelector('[data-testid=payout-continue]').click()")

    def tap(self, testid: str) -> None:
        wait_for(
            lambda: self.js(
                "const e = document.querySelector(`[data-testid='${arguments[0]}']`);"
                "if (!e) return false; e.click(); return true;",
                testid,
            ),
            10,
            testid,
        )

    def menus(self) -> None:
        """The menu and every sheet it opens, and table mode."""
        self.tap("menu")
        self.check("menu")
        self.tap("menu-close")
        for item in ("score", "log", "payouts", "stats", "games"):
            self.tap("menu")
            self.tap(f"menu-{item}")
            wait_for(
                lambda i=item: self.js(
                    f"return !!document.querySelector('[data-testid=sheet-{i}]')"
                ),
                10,
            )
            self.check(f"sheet-{item}")
            self.tap("sheet-close")
        self.tap("menu")
        self.tap("menu-table")
        self.check("table-mode")
        self.tap("table-exit")

    def play(self, edition: str, options: dict, players: list[dict]) -> None:
        self.driver.get(self.live.url)
        wait_for(lambda: self.driver.find_elements(By.CSS_SELECTOR, '[data-testid="setup"]'), 15)
        self.check("setup")
        self.act("new_game", edition=edition, options=options, players=players)
        for _ in range(600):
            self.synced()
            game = self.client.get("/api/state").get_json()["game"]
            screen = self.screen()
            if screen == "payout":
                self.payout()
                continue
            if screen == "over":
                self.check("over")
                self.menus()
                return
            phase = game["phase"]
            self.check(phase if phase != "choose" or game["round"] > 1 else "choose-1")
            if phase == "roll" and "roll-hand" not in self.seen:
                self.seen.add("roll-hand")
                self.js("document.querySelector('[data-testid=roll-hand]').click()")
                self.check("roll-by-hand")
            if game["choices"] and phase != "roll":
                self.act("event", event=game["choices"][0]["event"])
            else:
                self.act("simulate")
        raise AssertionError("the game did not end")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_screen_fits_the_window(driver, shots, tmp_path, size, game):
    driver.set_window_size(*size)
    app = create_app({"DB": str(tmp_path / "t.sqlite3"), "SEED": 3, "CAMERA": None})
    follow = Follow(app, driver, shots, size, game)
    try:
        follow.play(*GAMES[game])
    finally:
        follow.live.close()
    assert {
        "setup",
        "deal",
        "roll",
        "choose-1",
        "payout-all",
        "over",
        "sheet-log",
        "table-mode",
    } <= follow.seen
    assert not follow.problems, "\n".join(follow.problems[:30])
