"""The menu on a phone, in a real headless Chromium: rematch, saved games with their winners and
money, players' statistics, the roster on the new-game form, table mode, distinct default
colours with a pattern each, and the card game's 2-dice cards named as cards."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from browser import skip_module_without_browser, wait_for
from playing import play_to
from test_web_browser_flow import Page

from web import create_app

skip_module_without_browser()

PLAYERS = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "green"}]


@pytest.fixture
def page(tmp_path):
    opened = Page(create_app({"DB": str(tmp_path / "t.sqlite3"), "SEED": 9, "CAMERA": None}))
    yield opened
    opened.close()


def _text(page: Page, testid: str) -> str:
    return wait_for(
        lambda: page.driver.execute_script(
            "const e = document.querySelector(`[data-testid='${arguments[0]}']`); return e && e.innerText;",
            testid,
        ),
        10,
        testid,
    )


def _in_view(page: Page, testid: str) -> bool:
    return page.driver.execute_script(
        "const r = document.querySelector(`[data-testid='${arguments[0]}']`).getBoundingClientRect();"
        "return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;",
        testid,
    )


def _skip_payouts(page: Page) -> None:
    while page.screen() == "payout":
        page.tap("show-all") if page.has("show-all") else None
        page.tap("payout-continue")
        page.synced()


def test_rematch_history_statistics_and_roster(page):
    options = {"neutral_dice": True}
    assert (
        page.act("new_game", edition="classic", options=options, players=PLAYERS).status_code == 200
    )
    finished = play_to(page.client, page.act, "over")
    page.synced()
    _skip_payouts(page)
    wait_for(lambda: page.screen() == "over", 10, "the game-over screen")
    page.tap("rematch")
    wait_for(lambda: page.state()["game_id"] == 2, 10, "the rematch")
    page.synced()
    rematch = page.state()
    assert [(p["name"], p["colour"]) for p in rematch["game"]["players"]] == [
        ("Anna", "red"),
        ("Ben", "green"),
    ]
    assert (
        rematch["game"]["options"] == finished["options"]
        and rematch["game"]["start_player"] == (finished["start_player"] + 1) % 2
    )
    assert page.screen() == "deal"

    # The menu, mid-game, at the top of a phone's screen.
    assert _in_view(page, "menu")
    page.tap("menu")
    assert _in_view(page, "menu-panel")
    page.tap("menu-games")
    winners = finished["result"]["winners"]
    outcome = wait_for(lambda: page.has("outcome-1") and _text(page, "outcome-1"), 10, "outcome")
    assert f"🏆 {' & '.join(winners)}" in outcome
    for s in finished["standings"]:
        assert f"{s['name']} ${round(s['money'] / 1000)}k" in outcome
    page.tap("sheet-close")

    page.tap("menu")
    page.tap("menu-stats")
    stats = wait_for(
        lambda: page.has("stats-Anna") and _text(page, "stats-Anna"), 10, "Anna's card"
    )
    anna = next(s for s in finished["standings"] if s["name"] == "Anna")
    money = f"${anna['money']:,}"
    wins = int("Anna" in winners)
    assert f"Games\n1\nWins\n{wins}\nAverage\n{money}\nBest\n{money}" in stats, stats
    page.tap("sheet-close")

    # The roster on the new-game form: Anna and Ben with their colours, one tap each.
    page.tap("menu")
    page.tap("menu-new-game")
    wait_for(lambda: page.has("roster-Ben"), 10, "the roster")
    page.tap("roster-Ben")
    wait_for(lambda: page.find("player-name-0").get_attribute("value") == "Ben", 5, "Ben seated")
    assert page.find("player-colour-0").get_attribute("value") == "green"


def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("LASVEGAS_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_table_mode_shows_the_leader_and_ties_of_every_casino(page, tmp_path):
    assert page.act("new_game", edition="classic", players=PLAYERS).status_code == 200
    assert page.act("simulate").status_code == 200  # the deal
    assert (
        page.act(
            "roll", dice=[{"pips": 3, "kind": "regular"}] * 2 + [{"pips": 5, "kind": "regular"}] * 6
        ).status_code
        == 200
    )
    assert page.act("event", event={"type": "place", "number": 3}).status_code == 200
    assert (
        page.act(
            "roll", dice=[{"pips": 3, "kind": "regular"}] * 2 + [{"pips": 6, "kind": "regular"}] * 6
        ).status_code
        == 200
    )
    assert page.act("event", event={"type": "place", "number": 6}).status_code == 200
    page.synced()
    page.tap("menu")
    page.tap("menu-table")
    wait_for(lambda: page.has("table-mode"), 10, "table mode")
    assert "Anna × 2" in _text(page, "tm-casino-3")
    assert "Ben × 6" in _text(page, "tm-casino-6")
    assert "Anna to roll" in _text(page, "table-mode")
    page.driver.save_screenshot(str(_shots(tmp_path) / "390x844-table-mode.png"))
    page.tap("table-exit")
    wait_for(lambda: not page.has("table-mode"), 5)


def test_default_colours_are_distinct_and_each_has_its_own_pattern(page):
    wait_for(lambda: page.has("add-player"), 15, "the new-game form")
    for _ in range(4):
        page.tap("add-player")
    colours = [page.find(f"player-colour-{i}").get_attribute("value") for i in range(6)]
    assert colours[:4] == ["red", "blue", "green", "yellow"] and len(set(colours)) == 6
    assert "darkblue" not in colours[:6]
    looks = page.driver.execute_script(
        "return [...document.querySelectorAll('.player-row .swatch')].map((s) => getComputedStyle(s).backgroundImage);"
    )
    # Seat 1 has no pattern (solid); every other seat's pattern is drawn and differs from the rest.
    assert looks[0] == "none" and len(set(looks[1:])) == 5 and "none" not in looks[1:]


def test_every_die_of_a_player_carries_their_pattern(page):
    assert page.act("new_game", edition="classic", players=PLAYERS).status_code == 200
    play_to(page.client, page.act, "choose")
    while page.state()["game"]["current"] != 1:
        game = page.state()["game"]
        assert page.act("event", event=game["choices"][0]["event"]).status_code == 200
        play_to(page.client, page.act, "choose")
    page.synced()
    dice = page.driver.execute_script(
        "return [...document.querySelectorAll('.choose .dice .die')].map((d) => [d.className, getComputedStyle(d).backgroundImage]);"
    )
    assert dice and all("pat-stripes" in cls and image != "none" for cls, image in dice)


def test_the_card_game_calls_a_two_dice_card_a_card(page):
    assert page.act("new_game", edition="cards", players=PLAYERS).status_code == 200
    for _ in range(40):
        game = page.state()["game"]
        if (
            any(o["biggies"] for c in game["casinos"] for o in c["owners"])
            or game["phase"] == "over"
        ):
            break
        assert page.act("simulate").status_code == 200
    page.synced()
    casinos = [c for c in game["casinos"] if any(o["biggies"] for o in c["owners"])]
    assert casinos, "no 2-dice card was laid: pick another seed"
    text = _text(page, f"casino-{casinos[0]['number']}")
    assert "2-dice card" in text and "Biggy" not in text


def test_abandon_from_the_menu_takes_two_taps_and_marks_the_game(page):
    assert page.act("new_game", edition="classic", players=PLAYERS).status_code == 200
    page.synced()
    page.tap("menu")
    page.tap("menu-abandon")
    assert page.state()["game"] is not None  # one tap only asks
    assert "Tap again" in _text(page, "menu-abandon")
    page.tap("menu-abandon")
    wait_for(lambda: page.state()["game"] is None, 10, "the game to leave the table")
    wait_for(lambda: page.screen() == "setup", 10, "the new-game form")
    wait_for(lambda: "abandoned" in _text(page, "history"), 10, "the game marked abandoned")


def test_hints_switched_on_and_off_from_the_menu_in_both_languages(page):
    players = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    started = page.act("new_game", edition="royale", options={"tiles": 2}, players=players)
    assert started.status_code == 200
    assert page.act("simulate").status_code == 200  # the deal: Anna to roll
    page.synced()
    assert not page.has("hint-status")
    page.tap("menu")
    assert _text(page, "menu-hints").startswith("Show hints")
    page.tap("menu-hints")
    wait_for(lambda: page.state()["seats"]["hints"], 10, "hints on")
    # Royale's casino tiles are not covered: the line says why, in the page's language, once
    # the hint asked for has come back (until then it reads "Hint: working…").
    wait_for(lambda: "hints and bots do not cover" in _text(page, "hint-status"), 10, "the reason")
    page.tap("language")
    wait_for(
        lambda: "Tipps und Bots decken" in _text(page, "hint-status"), 10, "the reason in German"
    )
    assert _text(page, "hint-status").startswith("Kein Tipp für diese Lage")
    page.tap("menu")
    assert _text(page, "menu-hints") == "Tipps ausblenden"
    page.tap("menu-hints")
    wait_for(lambda: not page.state()["seats"]["hints"], 10, "hints off")
    wait_for(lambda: not page.has("hint-status"), 10, "the hint line gone")
