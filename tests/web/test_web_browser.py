"""A whole game played through the page in a real headless Chromium, on the simulated table.

The camera is the simulated table: dice thrown there are rendered as frames and read by the
same reader as a real camera. The game includes a tie struck out at round end, an undo, a
stray die the camera flags, a die left in the arena that it leaves out, a reload in the
middle, a second page that follows along, and German. Screenshots of each screen go to $LASVEGAS_SCREENSHOTS (or the test's temp folder).
"""

from __future__ import annotations

import json
import os
import time
import urllib.request
from pathlib import Path

import pytest
from browser import LiveServer, chromium, skip_module_without_browser, type_into, wait_for

from web import create_app

skip_module_without_browser()

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

HOSTILE_NAME = "<img src=x onerror=1>"


class Table:
    """The page in one browser, with the server beside it."""

    def __init__(self, driver, server, shots: Path) -> None:
        self.driver, self.server, self.shots = driver, server, shots
        self.flagged = self.sim_turns = self.camera_choices = 0
        self.read_by_camera = False
        self.camera_missed = 0

    def state(self) -> dict:
        with urllib.request.urlopen(self.server.url + "api/state", timeout=10) as response:
            return json.load(response)

    def synced(self) -> dict:
        """Wait until the page shows the server's current state; return that state."""

        def same():
            state = self.state()
            return (
                state
                if self.driver.execute_script("return document.body.dataset.version")
                == state["version"]
                else None
            )

        return wait_for(same, 10, "the page to show the current state")

    def find(self, testid: str):
        return self.driver.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')

    def text(self, testid: str) -> str:
        """An element's text, looked up afresh if a live update redraws it while it is read."""
        return wait_for(lambda: self.find(testid).text or " ", 10, f"the text of {testid}")

    def all(self, selector: str):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def press(self, element) -> None:
        """Tap an element as a person would, after scrolling it out from under the top bar."""
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def click(self, testid: str) -> None:
        """Tap a button (or any element); if a live update redrew it between finding and
        tapping, tap the new one. On a busy machine the camera's pushes can redraw the page
        several times running, so it tries for up to 10 seconds."""
        deadline = time.monotonic() + 10
        while True:
            wait_for(lambda: self.find(testid).is_enabled(), 10, f"button {testid}")
            try:
                self.press(self.find(testid))
                return
            except StaleElementReferenceException:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def changed_after(self, action, timeout: float = 20.0) -> dict:
        """Do something on the page, then wait for the game to move on and the page to show it."""
        before = self.state()["version"]
        action()
        try:
            wait_for(lambda: self.state()["version"] != before, timeout, "the game to change")
        except AssertionError:
            shown = self.all('[data-testid="message"]')
            raise AssertionError(
                f"nothing changed; the page says: {shown[0].text if shown else '-'}"
            ) from None
        return self.synced()

    def shot(self, name: str) -> None:
        self.driver.save_screenshot(str(self.shots / f"{name}.png"))

    def hand_roll(self, values) -> None:
        self.click("roll-hand")
        for v in values:
            self.click(f"pip-{v}")
        self.changed_after(lambda: self.click("manual-apply"))

    def choose(self, number: int) -> None:
        def tap() -> None:
            from selenium.common.exceptions import StaleElementReferenceException

            for _ in range(20):  # a push may redraw the page between finding and tapping
                try:
                    buttons = [b for b in self.all(".choice") if f"× {number} →" in b.text]
                    assert buttons, f"no choice for {number}"
                    self.press(buttons[0])
                    return
                except StaleElementReferenceException:
                    time.sleep(0.05)

        self.changed_after(tap)


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("LASVEGAS_SCREENSHOTS") or tmp_path_factory.mktemp("screens"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("game") / "table.sqlite3"
    app = create_app({"DB": str(db), "SEED": 11, "CAMERA": "sim", "CAMERA_FPS": 25})
    live = LiveServer(app)
    yield live
    app.extensions["camera"].stop()
    live.close()


@pytest.fixture(scope="module")
def table(server, shots):
    driver = chromium()
    driver.get(server.url)
    yield Table(driver, server, shots)
    driver.quit()


def test_a_whole_game_on_the_simulated_table(table, server):
    t = table
    wait_for(lambda: t.find("setup"), 15, "the new-game form")
    wait_for(lambda: t.state()["camera"]["state"] == "ok", 20, "the simulated camera")
    type_into(t.driver, "player-name-0", "Anna")
    type_into(t.driver, "player-name-1", HOSTILE_NAME)
    t.shot("01-setup")
    t.changed_after(lambda: t.click("start-game"))

    # A typed name is shown as text, never run as markup.
    assert HOSTILE_NAME in wait_for(lambda: t.driver.find_element(By.TAG_NAME, "body").text, 10)
    assert not t.driver.execute_script("return document.querySelector('.owner-name img')")

    # Colour calibration: one die of each colour on the table, then learn them.
    t.click("sim-lay")
    wait_for(lambda: _calibrate(t), 20, "calibration")
    t.shot("02-calibrated")
    t.click("sim-clear")

    # Round 1's money with the big note buttons: $50,000 at each casino (the deck has six).
    for casino in range(1, 7):
        t.click(f"deal-row-{casino}")
        t.click("note-50000")
    t.shot("03-deal")
    t.changed_after(lambda: t.click("deal-confirm"))

    # Anna and Ben each place two 5s: a tie at casino 5 that will cancel at payout.
    t.hand_roll([5, 5, 1, 1, 1, 1, 1, 1])
    t.shot("04-choose")
    t.choose(5)
    t.hand_roll([5, 5, 2, 2, 2, 2, 2, 2])
    t.choose(2)  # a slip: Ben meant the 5s
    t.changed_after(lambda: t.click("undo"))
    assert t.state()["game"]["phase"] == "choose"
    t.choose(5)
    casino5 = t.state()["game"]["casinos"][4]
    assert casino5["tied"] == [[0, 1]]
    assert "tied" in t.text("casino-5")

    # A stray green die lands among Anna's dice: the camera flags it and nothing is applied.
    from vision.simtable import SimDie

    sim = server.app.extensions["camera"].sim_table
    sim.clear()
    colour = t.state()["colours"][0]
    sim.throw([SimDie(colour, v) for v in (1, 2, 3, 4, 6, 6)] + [SimDie("green", 4)])
    wait_for(lambda: t.all('[data-testid="reading"]'), 20, "the flagged reading")
    t.shot("05-flagged-reading")
    problems = t.text("reading")
    assert "green" in problems
    # The same problems in German, worded by the page from the server's keys.
    t.click("language")
    wait_for(lambda: "die Farbe grün" in t.find("reading").text, 10, "the problems in German")
    t.shot("05-flagged-reading-de")
    t.click("language")
    wait_for(lambda: "green" in t.find("reading").text, 10, "the problems in English again")
    assert t.state()["game"]["phase"] == "roll"
    # Correct it die by die: the green die is not Anna's; the rest are right.
    green = [i for i, d in enumerate(t.state()["reading"]["dice"]) if d["colour"] == "green"]
    assert len(green) == 1
    wait_for(lambda: _select(t, f'[data-key="kind-{green[0]}"]', "ignore"), 5, "the correction")
    t.changed_after(lambda: t.click("reading-apply"))
    assert t.state()["game"]["roll"]["regular"] == [1, 2, 3, 4, 6, 6]
    t.choose(6)

    # A green die left in the arena before Ben throws his six dice: the camera reads the
    # throw without it, and the page says one die was left out.
    wait_for(lambda: not sim.dice, 10, "the page to clear the table after the choice")
    sim.lay([SimDie("green", 3)])

    def left_there() -> bool:
        reading = t.state()["reading"] or {}
        return [d["colour"] for d in reading.get("dice", [])] == ["green"]

    wait_for(left_there, 20, "the camera to settle on the die left there")
    ben = t.state()["colours"][1]
    t.changed_after(lambda: sim.throw([SimDie(ben, v) for v in (1, 1, 3, 4, 4, 6)]))
    assert t.state()["game"]["roll"]["regular"] == [1, 1, 3, 4, 4, 6]
    assert "left out" in t.text("camera-applied")
    t.shot("05-die-left-out")
    t.click("language")
    wait_for(lambda: "außen vor" in t.find("camera-applied").text, 10, "the note in German")
    t.click("language")
    sim.clear()
    t.choose(4)

    reloaded = False
    seen_payouts = 0
    for _turn in range(400):
        state = t.synced()
        game = state["game"]
        phase = game["phase"]
        if game["round"] == 2 and phase == "roll" and not reloaded:
            t.driver.refresh()  # a reload in the middle: the page comes back to the same game
            assert t.synced()["version"] == state["version"]
            t.shot("08-after-reload")
            reloaded = True
        if len(game["payouts"]) > seen_payouts and phase in ("deal", "over"):
            seen_payouts = _walk_through_payout(t, game, seen_payouts)
            continue
        if phase == "over":
            break
        if phase == "deal":
            t.changed_after(lambda: t.click("deal-random"))
        elif phase == "roll":
            _roll_on_the_simulated_table(t)
        elif phase == "choose":
            _choose(t, game)
        elif phase == "payout":
            if game["round"] == 1:
                t.shot("06-ready-for-payout")
            t.changed_after(lambda: t.click("pay-out"))
        else:
            raise AssertionError(f"unexpected phase {phase}")
    else:
        raise AssertionError("the game did not end")

    assert reloaded and seen_payouts == 4
    over = t.text("game-over")
    result = t.state()["game"]["result"]
    assert result["winners"] and result["winners"][0] in over
    t.shot("10-game-over")
    t.click("language")
    wait_for(lambda: "Stand" in t.find("standings").text, 5, "German")
    t.shot("11-game-over-de")
    t.click("language")
    print(
        f"\ncamera: {t.sim_turns} throws, {t.flagged} flagged, {t.camera_choices} choices seen "
        f"by the camera, {t.camera_missed} missed"
    )
    # The camera read most rolls; the stray die above was the only one meant to be flagged.
    assert t.sim_turns >= 20
    assert t.flagged <= max(2, t.sim_turns // 10), (t.flagged, t.sim_turns)
    assert t.camera_choices >= 3 and t.camera_missed <= t.camera_choices // 4, (
        t.camera_choices,
        t.camera_missed,
    )


def _select(t: Table, selector: str, value: str) -> bool:
    """Pick an option in a drop-down (looked up afresh: a push may have redrawn the page)."""
    from selenium.webdriver.support.ui import Select

    Select(t.driver.find_element(By.CSS_SELECTOR, selector)).select_by_value(value)
    return t.driver.find_element(By.CSS_SELECTOR, selector).get_attribute("value") == value


def _calibrate(t: Table) -> bool:
    """Tap calibrate; the dice just laid may need a frame or two to reach the camera."""
    t.click("calibrate")
    time.sleep(0.3)
    return bool(t.state()["calibrated"])


def _roll_on_the_simulated_table(t: Table) -> None:
    before = t.state()["version"]
    t.click("sim-throw")
    t.sim_turns += 1
    flagged_since = None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        state = t.state()
        if state["version"] != before:
            t.synced()
            t.read_by_camera = True
            return
        reading = state["reading"]
        if reading and not reading.get("applied"):
            # The camera flagged the dice; it may still settle them on the next frames.
            flagged_since = flagged_since or time.monotonic()
            if time.monotonic() - flagged_since > 3:
                t.flagged += 1
                t.synced()
                t.shot("07-flagged-during-play")
                t.changed_after(lambda: t.click("roll-random"))
                t.read_by_camera = False  # the table shows other dice than the game now
                return
        time.sleep(0.05)
    state = t.state()
    raise AssertionError(
        f"the camera did not read the throw: phase {state['game']['phase']}, "
        f"camera {state['camera']}, reading {state['reading']}, notice {state.get('notice')}"
    )


def _choose(t: Table, game: dict) -> None:
    numbers = [g["number"] for g in game["roll"]["groups"]]
    # Keep the round-1 tie at casino 5 unless a 5 is all that was rolled.
    wanted = [n for n in numbers if not (game["round"] == 1 and n == 5)] or numbers
    number = wanted[-1]
    plain = [c for c in game["choices"] if c["event"].get("number") == number]
    if game["turn"] % 3 == 0 and len(plain) == 1 and t.read_by_camera:
        # The camera's way: the player takes the chosen dice off the table.
        before = t.state()["version"]
        t.click(f"take-{number}")
        try:
            wait_for(lambda: t.state()["version"] != before, 8, "the camera to see the dice go")
            t.camera_choices += 1
        except AssertionError:
            t.camera_missed += 1  # counted and asserted below; the tap is the fallback
            t.choose(number)
        t.synced()
        t.click("sim-clear")
    else:
        t.choose(number)


def _walk_through_payout(t: Table, game: dict, seen: int) -> int:
    payout = game["payouts"][-1]
    wait_for(lambda: t.find("payout"), 10, "the payout screen")
    first = payout["round"] == 1
    steps = 0
    while t.all('[data-testid="next-casino"]'):
        if first and steps == 0:
            t.shot("09a-payout-first-casino")
        t.click("next-casino")
        steps += 1
    assert steps == len(payout["casinos"]) - 1
    if first:
        t.shot("09b-payout-all-casinos")
        # The tie of round 1's first turns (two 5s each, more if a player rolled only 5s).
        tie = payout["casinos"][4]["tied"][0]
        assert set(tie["owners"]) == {"Anna", HOSTILE_NAME} and tie["dice"] >= 2
        assert f"tied at {tie['dice']}: cancelled" in t.text("payout-casino-5")
        assert t.all('[data-testid="payout-casino-5"] li.struck')
        assert not any(a["owner"] in ("Anna", HOSTILE_NAME) for a in payout["casinos"][4]["awards"])
    t.click("payout-continue")
    return seen + 1
