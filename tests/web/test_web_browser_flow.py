"""The page's flow between screens, in a real headless Chromium: one game per Start, each new
screen from its top, messages and camera problems that go away, and notices of what another
tablet did (an undo, taking control)."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
from browser import (
    LiveServer,
    chromium,
    skip_module_without_browser,
    tap_testid,
    type_into,
    wait_for,
)
from playing import play_to

from web import create_app

skip_module_without_browser()

from selenium.webdriver.common.by import By  # noqa: E402

PLAYERS = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]


class Page:
    """One browser on a live server, and a test client that acts as another tablet would."""

    def __init__(self, app, width: int = 390, height: int = 844) -> None:
        self.app = app
        self.live = LiveServer(app)
        self.client = app.test_client()
        self.driver = chromium(width, height)
        self.driver.set_window_size(
            width, height
        )  # a window opened narrower than 500 px is widened
        self.driver.get(self.live.url)

    def close(self) -> None:
        self.driver.quit()
        self.live.close()

    def act(self, action: str, **fields):
        base = self.client.get("/api/state").get_json()["version"]
        return self.client.post("/api/action", json={"action": action, "base": base} | fields)

    def state(self) -> dict:
        with urllib.request.urlopen(self.live.url + "api/state", timeout=10) as response:
            return json.load(response)

    def find(self, testid: str):
        return self.driver.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')

    def type_into(self, testid: str, text: str) -> None:
        """Type into a text field as a person would, into the new field after a redraw."""
        type_into(self.driver, testid, text)

    def has(self, testid: str) -> bool:
        return bool(self.driver.find_elements(By.CSS_SELECTOR, f'[data-testid="{testid}"]'))

    def screen(self) -> str:
        return self.driver.execute_script("return document.body.dataset.screen || ''")

    def shown(self) -> str:
        """The version of the state the page shows now."""
        return self.driver.execute_script("return document.body.dataset.version || ''")

    def synced(self) -> None:
        wait_for(lambda: self.shown() == self.state()["version"], 10, "the page to catch up")

    def tap(self, testid: str) -> None:
        """Tap a button, found afresh in the same step: a push may redraw the page at any time."""
        tap_testid(self.driver, testid)

    def scroll_y(self) -> float:
        return self.driver.execute_script("return window.scrollY")

    def scroll_down(self) -> None:
        self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        wait_for(lambda: self.scroll_y() > 100, 5, "the page to scroll down")


@pytest.fixture
def page(tmp_path):
    opened = Page(create_app({"DB": str(tmp_path / "t.sqlite3"), "SEED": 5, "CAMERA": None}))
    yield opened
    opened.close()


def test_new_game_after_a_finished_game_starts_exactly_one_game(page):
    assert page.act("new_game", edition="classic", players=PLAYERS).status_code == 200
    play_to(page.client, page.act, "over")
    page.synced()
    # The last round's payout, then the standings with "New game".
    wait_for(lambda: page.screen() == "payout", 10, "the payout screen")
    while page.has("next-casino"):
        page.tap("next-casino")
    page.tap("payout-continue")
    wait_for(lambda: page.screen() == "over", 10, "the game-over screen")
    page.tap("new-game")
    wait_for(lambda: page.has("setup") and page.has("player-name-0"), 10, "the new-game form")
    page.type_into("player-name-0", "Cleo")
    page.type_into("player-name-1", "Dan")
    games_before = len(page.client.get("/api/games").get_json())
    page.tap("start-game")
    wait_for(lambda: page.state()["game"]["players"][0]["name"] == "Cleo", 10, "the new game")
    page.synced()
    time.sleep(1.0)  # let any late answer or push arrive: the form must stay gone
    assert page.screen() == "deal"
    assert not page.has("start-game"), "the new-game form stayed on screen after Start"
    assert len(page.client.get("/api/games").get_json()) == games_before + 1


def test_each_new_screen_starts_at_its_top(page):
    assert page.act("new_game", edition="classic", players=PLAYERS).status_code == 200
    page.synced()
    wait_for(lambda: page.screen() == "deal", 10, "the deal screen")
    page.scroll_down()
    page.tap("deal-random")
    wait_for(lambda: page.screen() == "play", 10, "the play screen")
    wait_for(lambda: page.scroll_y() == 0, 5, "the top of the play screen")
    # A round's payout, read to its end far down the page; Continue opens the next deal at its top.
    play_to(page.client, page.act, "deal")
    wait_for(lambda: page.screen() == "payout", 10, "the payout screen")
    while page.has("next-casino"):
        page.tap("next-casino")
    page.scroll_down()
    page.tap("payout-continue")
    wait_for(lambda: page.screen() == "deal", 10, "round 2's deal")
    assert page.scroll_y() == 0


def test_a_message_goes_away_by_itself(page):
    assert page.act("new_game", edition="classic", players=PLAYERS).status_code == 200
    page.synced()
    page.tap("note-10000")  # casino 1 gets $10,000 only: refused
    page.tap("deal-confirm")
    wait_for(lambda: page.has("message"), 10, "the refusal")
    wait_for(lambda: not page.has("message"), 20, "the refusal to go away by itself")


def test_an_undo_elsewhere_is_named_on_this_page(page):
    assert page.act("new_game", edition="classic", players=PLAYERS).status_code == 200
    play_to(page.client, page.act, "choose")
    game = page.state()["game"]
    number = game["choices"][0]["event"]["number"]
    assert page.act("event", event=game["choices"][0]["event"]).status_code == 200
    page.synced()
    assert page.act("undo").status_code == 200  # another tablet takes the placement back
    message = wait_for(lambda: page.find("message").text, 10, "the notice of the undo")
    assert message.startswith("Undone: Anna places") and f"× {number} on Casino {number}" in message


def test_taking_control_elsewhere_is_said_on_this_page(tmp_path):
    page = Page(create_app({"DB": str(tmp_path / "t.sqlite3"), "PIN": "2468", "CAMERA": None}))
    try:
        page.tap("control")
        for digit in "2468":
            page.tap(f"pin-{digit}")
        page.tap("pin-ok")
        wait_for(lambda: not page.has("control"), 10, "this tablet to hold control")
        assert page.client.post("/api/control", json={"pin": "2468"}).status_code == 200
        message = wait_for(lambda: page.find("message").text, 10, "the notice of control moving")
        assert "Another tablet took control" in message
        assert page.has("control")  # this tablet may take control back
    finally:
        page.close()


@pytest.fixture
def sim_page(tmp_path):
    app = create_app(
        {"DB": str(tmp_path / "t.sqlite3"), "SEED": 5, "CAMERA": "sim", "CAMERA_FPS": 25}
    )
    opened = Page(app)
    yield opened
    app.extensions["camera"].stop()
    opened.close()


def test_a_flagged_reading_goes_when_the_dice_are_swept_away(sim_page):
    from vision.simtable import SimDie

    page = sim_page
    assert page.act("new_game", edition="classic", players=PLAYERS).status_code == 200
    wait_for(lambda: page.state()["camera"]["state"] == "ok", 20, "the simulated camera")
    page.tap("sim-lay")
    wait_for(lambda: page.act("calibrate").status_code == 200 and page.state()["calibrated"], 20)
    sim = page.app.extensions["camera"].sim_table
    sim.clear()
    assert page.act("simulate").status_code == 200  # the deal
    wait_for(lambda: page.state()["game"]["phase"] == "roll", 10, "Anna to roll")
    time.sleep(0.5)
    sim.throw([SimDie("red", v) for v in (1, 2, 3, 4, 6, 6, 5, 5)] + [SimDie("green", 4)])
    wait_for(lambda: page.has("reading"), 20, "the flagged reading")
    sim.clear()
    wait_for(lambda: not page.has("reading"), 20, "the flagged reading to go with the dice")
    assert page.state()["reading"] is None


def test_the_colours_learnt_from_the_rolls_played_are_named_on_the_page(sim_page):
    page = sim_page
    assert page.act("new_game", edition="classic", options={}, players=PLAYERS).status_code == 200
    wait_for(lambda: page.state()["camera"]["state"] == "ok", 20, "the simulated camera")
    assert page.act("simulate").status_code == 200  # the deal
    assert not page.has("colours-learnt")  # nothing rolled yet
    learnt = []
    for player, colour in (("Anna", "red"), ("Ben", "blue")):
        assert page.act("sim_throw").status_code == 200
        wait_for(lambda: page.state()["game"]["phase"] == "choose", 20, f"{player}'s roll applied")
        learnt.append(colour)
        words = f"Colours learnt from the rolls played: {', '.join(learnt)}."
        wait_for(
            lambda words=words: (
                page.has("colours-learnt") and page.find("colours-learnt").text == words
            ),
            20,
            f"{colour} to be named learnt",
        )
        if colour == "red":  # blue is still named by the light judged from the rolls
            wait_for(lambda: page.has("light"), 20, "the light judged")
        choice = page.state()["game"]["choices"][0]["event"]
        assert page.act("event", event=choice).status_code == 200
        assert page.act("sim_clear").status_code == 200
    assert not page.has("light")  # every colour learnt: named in place of the light judged
