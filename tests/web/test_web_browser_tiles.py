"""The page in headless Chromium: a tile's extra dice tapped in by hand, and the box settings
on the new-game form."""

from __future__ import annotations

import json
import urllib.request

import pytest
from browser import (
    LiveServer,
    choose_option,
    chromium,
    skip_module_without_browser,
    tap_testid,
    wait_for,
)

from web import create_app

skip_module_without_browser()

from selenium.webdriver.common.by import By  # noqa: E402

PAIRS = [
    [40000, 30000],
    [50000, 30000],
    [60000, 40000],
    [70000, 30000],
    [60000, 50000],
    [90000, 80000],
]


@pytest.fixture
def server(tmp_path):
    live = LiveServer(create_app({"DB": str(tmp_path / "table.sqlite3"), "SEED": 5}))
    yield live
    live.close()


@pytest.fixture
def driver():
    browser = chromium()
    yield browser
    browser.quit()


def _get(server) -> dict:
    with urllib.request.urlopen(server.url + "api/state", timeout=10) as response:
        return json.load(response)


def _act(server, action: str, **fields) -> dict:
    body = {"action": action, "base": _get(server)["version"]} | fields
    request = urllib.request.Request(
        server.url + "api/action",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def _find(driver, testid: str):
    return driver.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')


def test_jackpot_extra_dice_are_tapped_in(server, driver):
    players = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    _act(server, "new_game", edition="royale", options={"tiles": 3}, players=players)
    _act(
        server,
        "event",
        event={
            "type": "deal",
            "casinos": PAIRS,
            "tiles": ["A2", "C1", "D1"],
            "neutral_start": [6, 6, 6, 6, 6, 6, 6, 6],
        },
    )
    dice = [{"pips": 1, "kind": "regular"}] + [{"pips": 5, "kind": "regular"}] * 6
    _act(server, "roll", dice=dice + [{"pips": 5, "kind": "biggy"}])
    _act(server, "event", event={"type": "place", "number": 1})  # Anna activates the Jackpot
    assert _get(server)["game"]["pending"]["ask"] == "extra dice"
    driver.get(server.url)
    for testid in ("extra-0-3", "extra-1-4"):
        tap_testid(driver, testid, 15)
    tap_testid(driver, "extra-enter")
    game = wait_for(lambda: (g := _get(server)["game"])["phase"] == "roll" and g, 15, "the throw")
    anna = next(r for r in game["standings"] if r["name"] == "Anna")
    assert anna["bank_money"] == 30_000  # 3 + 4 = 7: the Jackpot pays


def test_box_settings_are_text_fields_of_the_new_game_form(server, driver):
    driver.get(server.url)
    choose_option(driver, '[data-testid="edition"]', "royale", 15)
    field = wait_for(
        lambda: (
            (box := driver.find_element(By.ID, "opt-black_box")).get_attribute("type"),
            box.get_attribute("value"),
        ),
        15,
        "black_box",
    )
    assert field == ("text", "60 20 20 0 0 0")


def test_the_black_box_payout_is_explained_on_the_page(server, driver):
    colours = ("red", "blue", "green")
    players = [
        {"name": n, "colour": c} for n, c in zip(("Anna", "Ben", "Carla"), colours, strict=True)
    ]
    _act(server, "new_game", edition="royale", options={"tiles": 3}, players=players)
    _act(server, "event", event={"type": "deal", "casinos": PAIRS, "tiles": ["G1", "A2", "D1"]})
    first = [{"pips": 1}] * 3 + [{"pips": 6}] * 4 + [{"pips": 6, "kind": "biggy"}]
    _act(server, "roll", dice=first)
    _act(server, "event", event={"type": "place", "number": 1})  # Anna wins the Black Box casino
    while (game := _get(server)["game"])["phase"] != "tile":
        held = game["players"][game["current"]]
        dice = [{"pips": 6}] * held["regular"] + [{"pips": 6, "kind": "biggy"}] * held["biggy"]
        _act(server, "roll", dice=dice)
        _act(server, "event", event={"type": "place", "number": 6})
    piles = [c["event"] for c in game["choices"]]
    assert {"type": "tile", "casino": 1, "choice": {"pile": [20000]}} in piles
    _act(server, "event", event={"type": "tile", "casino": 1, "choice": {"pile": [20000]}})
    _act(server, "event", event={"type": "payout"})
    driver.get(server.url)
    while not driver.find_elements(By.CSS_SELECTOR, '[data-testid="payout-continue"]'):
        tap_testid(driver, "next-casino", 15)
    effects = _find(driver, "tile-effects").text
    assert "G1" in effects and "Anna" in effects and "2 chips" in effects


def test_number_fields_of_the_new_game_form_take_their_bounds_from_the_option_table(server, driver):
    from companion.options import OPTIONS

    driver.get(server.url)
    for edition, name in (("custom", "skip_limit"), ("custom", "rounds"), ("royale", "tiles")):
        choose_option(driver, '[data-testid="edition"]', edition, 15)
        bounds = wait_for(
            lambda n=name: (
                (field := driver.find_element(By.ID, f"opt-{n}")).get_attribute("min"),
                field.get_attribute("max"),
            ),
            15,
            name,
        )
        assert bounds == (str(OPTIONS[name].low), str(OPTIONS[name].high)), name
