"""The round-end check in a real headless Chromium on the simulated table: rounds played with a
die misplaced at each round's end, each one caught on the page and put right before the payout;
and the round photos shown in the history after the server was started again."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from browser import (
    LiveServer,
    chromium,
    exact_viewport,
    free_port,
    serve_command,
    skip_module_without_browser,
    wait_for,
)

from web import create_app

skip_module_without_browser()

from selenium.webdriver.common.by import By  # noqa: E402

PLAYERS = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("LASVEGAS_SCREENSHOTS") or tmp_path_factory.mktemp("check"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def get(url: str, path: str) -> dict:
    with urllib.request.urlopen(url.rstrip("/") + path, timeout=30) as response:
        return json.load(response)


def post(url: str, action: str, **fields: object) -> dict:
    body = {"action": action, "base": get(url, "/api/state")["version"]} | fields
    request = urllib.request.Request(
        url.rstrip("/") + "/api/action",
        json.dumps(body).encode(),
        {"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)


def play_to_payout(url: str) -> dict:
    """Chance rolls and the first placement offered (through the API), up to the payout."""
    for _ in range(300):
        game = get(url, "/api/state")["game"]
        if game["phase"] == "payout":
            return game
        if game["choices"] and game["phase"] != "roll":
            post(url, "event", event=game["choices"][0]["event"])
        else:
            post(url, "simulate")
    raise AssertionError("the round never came to its payout")


def tap(driver, testid: str) -> None:
    """Tap an element; found again where the page was drawn anew in between."""

    def click() -> bool:
        element = driver.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()
        return True

    wait_for(click, what=testid)


def shown(driver, testid: str) -> list:
    return driver.find_elements(By.CSS_SELECTOR, f'[data-testid="{testid}"]')


@contextmanager
def phone_at_payout(tmp_path: Path, **new_game: object) -> Iterator[tuple[LiveServer, Any, dict]]:
    """A game on the simulated table played to its first payout, shown on a phone-sized page:
    the server, the browser and the game as the API gives it."""
    app = create_app({"DB": str(tmp_path / "t.sqlite3"), "SEED": 5, "CAMERA": "sim"})
    live = LiveServer(app)
    driver = chromium(390, 844)
    try:
        driver.get(live.url)
        post(live.url, "new_game", edition="classic", players=PLAYERS, **new_game)
        yield live, driver, play_to_payout(live.url)
    finally:
        driver.quit()
        live.close()


def test_each_misplaced_die_is_caught_and_put_right_before_the_payout(tmp_path, shots):
    app = create_app(
        {"DB": str(tmp_path / "t.sqlite3"), "SEED": 5, "CAMERA": "sim", "CAMERA_FPS": 4}
    )
    hub = app.extensions["hub"]
    live = LiveServer(app)
    driver = chromium(1024, 768)
    try:
        driver.get(live.url)
        post(live.url, "new_game", edition="classic", players=PLAYERS)
        tap(driver, "sim-misplace")  # the page switches the misplacement mode on
        wait_for(lambda: get(live.url, "/api/state")["sim_misplacing"], what="misplacing")
        for number, kind in enumerate(("moved", "left out", "added"), start=1):
            hub.sim_row().misplace_kind = kind
            play_to_payout(live.url)
            what = hub.sim_row().last_misplacement
            assert what is not None and what.kind == kind
            changed = {what.source, what.target} - {None}
            wait_for(lambda: shown(driver, "table-check"), what="the check's differences")
            flagged = wait_for(
                lambda: {
                    int(e.get_attribute("data-testid").rsplit("-", 1)[1])
                    for e in shown(driver, "table-check")[0].find_elements(
                        By.CSS_SELECTOR, '[data-testid^="check-casino-"]'
                    )
                }
            )
            assert flagged == changed, (what, flagged)
            wait_for(lambda: shown(driver, "pay-out")[0].get_attribute("disabled") is not None)
            wait_for(lambda: shown(driver, "difference") and shown(driver, "payout-change"))
            wait_for(
                lambda: (
                    "/photos/"
                    in shown(driver, "photo-crop")[0].value_of_css_property("background-image")
                )
            )
            if number == 1:
                for width, height in ((390, 844), (1024, 768)):
                    exact_viewport(driver, width, height)
                    time.sleep(0.5)
                    driver.save_screenshot(str(shots / f"table-check-{width}x{height}.png"))
                exact_viewport(driver, 1024, 768)
                # The German page words each difference and its payout effect in German.
                english = wait_for(lambda: shown(driver, "difference")[0].text)
                tap(driver, "language")
                wait_for(lambda: shown(driver, "difference")[0].text.startswith("Der Tisch zeigt"))
                change = wait_for(lambda: shown(driver, "payout-change")[0].text)
                assert change.startswith("Bei der Auszahlung: ") and "instead" not in change
                assert "change at payout" not in change, change
                tap(driver, "language")
                wait_for(lambda english=english: shown(driver, "difference")[0].text == english)
            if kind == "added":  # a die more than its owner has: the table is put right
                assert not driver.find_elements(By.CSS_SELECTOR, '[data-testid^="correct-"]')
                tap(driver, "sim-fix")
                tap(driver, "check-table")
            else:  # the table is right: the game is corrected, casino by casino
                for _ in range(3):
                    time.sleep(0.5)  # the page draws the check made after the last correction
                    first = driver.execute_script(
                        "const b = document.querySelector('[data-testid^=\"correct-\"]');"
                        "return b ? b.dataset.testid : null;"
                    )
                    if not first:
                        break
                    version = get(live.url, "/api/state")["version"]
                    tap(driver, first)
                    wait_for(lambda v=version: get(live.url, "/api/state")["version"] != v)
            wait_for(lambda: shown(driver, "table-checked"), timeout=30, what="table checked")
            assert get(live.url, "/api/state")["table_check"]["agrees"]
            tap(driver, "pay-out")
            wait_for(lambda n=number: len(get(live.url, "/api/state")["game"]["payouts"]) == n)
            tap(driver, "show-all")
            wait_for(
                lambda: driver.execute_script(
                    "const img = document.querySelector('[data-testid=round-photo]');"
                    "return Boolean(img && img.naturalWidth > 0);"
                ),
                what="the round's photo, loaded",
            )
            tap(driver, "payout-continue")
        game = get(live.url, "/api/state")["game"]
        corrected = [e for e in game["log"] if e.get("what") == "correct"]
        assert len(corrected) >= 2, game["log"]
    finally:
        driver.quit()
        live.close()


def start(db: Path, port: int) -> subprocess.Popen:
    server = subprocess.Popen(
        serve_command(port, db, "--seed", "3"), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            get(f"http://127.0.0.1:{port}", "/api/state")
            return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise AssertionError(f"the server did not start: {server.stderr.read().decode()[-2000:]}")


def test_the_round_photos_are_shown_in_the_history_after_a_restart(tmp_path, shots):
    db, port = tmp_path / "table.sqlite3", free_port()
    url = f"http://127.0.0.1:{port}"
    server = start(db, port)
    try:
        post(url, "new_game", edition="classic", players=PLAYERS)
        for rounds in (1, 2):
            play_to_payout(url)
            state = wait_for(lambda: get(url, "/api/state")["table_check"], timeout=30)
            assert state["agrees"], state
            post(url, "event", event={"type": "payout", "slot_choices": []})
            assert len(get(url, "/api/state")["game"]["payouts"]) == rounds
        game_id = get(url, "/api/state")["game_id"]
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
    server = start(db, port)
    driver = chromium(1024, 768)
    try:
        assert get(url, "/api/state")["photos"] == [1, 2]
        with urllib.request.urlopen(f"{url}/api/games/{game_id}/photos/2", timeout=10) as response:
            assert response.headers["Content-Type"] == "image/jpeg"
            assert len(response.read()) <= 60_000
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"{url}/api/games/{game_id}/photos/3", timeout=10)
        assert missing.value.code == 404
        driver.get(url + "/")
        tap(driver, "menu")
        tap(driver, "menu-payouts")
        for round_number in (1, 2):
            tap(driver, f"review-round-{round_number}")
            # The photo's address and its loaded width, read in one step in the page: a push
            # may redraw the page between two steps from here.
            src = wait_for(
                lambda: driver.execute_script(
                    "const img = document.querySelector('[data-testid=round-photo]');"
                    "return img && img.naturalWidth > 0 ? img.getAttribute('src') : null;"
                ),
                what="the photo, loaded",
            )
            assert src.endswith(f"/photos/{round_number}")
        driver.save_screenshot(str(shots / "history-photo-1024x768.png"))
    finally:
        driver.quit()
        server.terminate()
        server.wait(10)


def test_dice_in_doubt_that_change_nothing_at_payout_are_shown_and_the_payout_goes_on(
    tmp_path, shots, monkeypatch
):
    from dataclasses import replace

    from companion.check_sentences import Sentence
    from companion.table_check import TableCheck
    from web import round_check

    real = round_check.check_table

    def doubtful(state, seen, owners):  # casino 1 also holds a die in doubt that pays the same
        check = real(state, seen, owners)
        one = replace(check.casinos[0], unsure=1, payout_sentences=(Sentence.of("no_change"),))
        return TableCheck((one, *check.casinos[1:]))

    monkeypatch.setattr(round_check, "check_table", doubtful)
    with phone_at_payout(tmp_path) as (live, driver, _):
        note = wait_for(lambda: shown(driver, "doubt-changes-nothing"), what="the doubt's note")
        assert "the payout is the same" in note[0].text
        assert [e.get_attribute("data-testid") for e in shown(driver, "table-check")[0]
                .find_elements(By.CSS_SELECTOR, '[data-testid^="check-casino-"]')] == [
            "check-casino-1"
        ]  # fmt: skip
        assert shown(driver, "pay-out")[0].get_attribute("disabled") is None
        exact_viewport(driver, 390, 844)
        time.sleep(0.5)
        driver.save_screenshot(str(shots / "table-check-doubt-390x844.png"))
        tap(driver, "language")
        wait_for(
            lambda: "Auszahlung bleibt gleich" in shown(driver, "doubt-changes-nothing")[0].text
        )
        tap(driver, "language")
        tap(driver, "pay-out")
        wait_for(lambda: len(get(live.url, "/api/state")["game"]["payouts"]) == 1)


def test_a_biggy_read_as_a_regular_die_is_pointed_at_in_words_and_in_the_photo(
    tmp_path, shots, monkeypatch
):
    # The camera reads each Biggy as a regular die (a note's edge over it): the page names the
    # player whose Biggy may be among their dice on that casino, and the photo boxes those dice
    # in orange, rather than saying only that a die was not read for sure.
    from dataclasses import replace

    from web import round_check

    real = round_check.read_casino_row

    def biggies_read_small(*args):
        reading = real(*args)
        return replace(reading, dice=tuple(replace(d, big=False) for d in reading.dice))

    monkeypatch.setattr(round_check, "read_casino_row", biggies_read_small)
    with phone_at_payout(tmp_path, options={"biggies": True}) as (live, driver, game):
        bigs = {
            (c["number"], o["name"])
            for c in game["casinos"]
            for o in c["owners"]
            if o.get("biggies")
        }
        assert bigs, "no Biggy was placed in the round"
        lines = wait_for(lambda: shown(driver, "biggy-doubt"), what="the Biggy in doubt")
        assert len(lines) == len(bigs)
        for number, name in bigs:
            card = shown(driver, f"check-casino-{number}")[0]
            said = [p.text for p in card.find_elements(By.CSS_SELECTOR, "p.difference")]
            assert any(f"{name}'s Biggy" in line and "boxed in orange" in line for line in said)
            assert not any("not read for sure" in line for line in said), said
            # Their count on the table is what was read for sure, and more: no difference.
            row = [
                r.text for r in card.find_elements(By.CSS_SELECTOR, "tbody tr") if name in r.text
            ]
            assert len(row) == 1 and "+ ?" in row[0], row
            if not card.find_elements(By.CSS_SELECTOR, '[data-testid="difference"]'):
                assert not card.find_elements(By.CSS_SELECTOR, "tr.differs")
        # The payout waits for a person only where the Biggy changes it.
        may_go_on = get(live.url, "/api/state")["table_check"]["payout_may_go_on"]
        held = shown(driver, "pay-out")[0].get_attribute("disabled") is not None
        assert held is not may_go_on
        exact_viewport(driver, 390, 844)
        driver.execute_script(
            "arguments[0].scrollIntoView({block: 'start'})", shown(driver, "table-check")[0]
        )
        time.sleep(0.5)
        driver.save_screenshot(str(shots / "table-check-biggy-doubt-390x844.png"))
        tap(driver, "language")
        wait_for(lambda: "Der Biggy von" in shown(driver, "biggy-doubt")[0].text)
        tap(driver, "language")
