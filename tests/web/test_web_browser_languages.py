"""The key flows in English and in German, in a real headless Chromium on a phone: the new-game
form filled in and started on the page, the deal, a roll and a choice tapped, the payout
screen, the menu, the game log and the score table. Each screen is checked for its words in
the page's language, and for the other language's words being absent."""

from __future__ import annotations

import re

import pytest
from browser import skip_module_without_browser, tick, type_into, wait_for
from playing import play_to
from test_web_browser_flow import Page

from web import create_app

skip_module_without_browser()

WORDS = {
    "en": {
        "setup": ["New game", "Players", "Add player", "Start the game", "Neutral white dice"],
        "deal": ["Round 1: lay out the money", "Deal at random", "Round 1 of 4"],
        "roll": ["to roll", "Enter the roll by hand", "Roll at random", "Standings", "no dice yet"],
        "choose": ["to choose", "→ Casino"],
        "pay_out": ["All dice placed: pay out", "Pay out round 1"],
        "payout_first": ["Round 1 payout", "Next casino", "Show all"],
        "payout_all": ["Continue", "Score", "Total", "Standings", "Money"],
        "menu": [
            "Menu",
            "New game",
            "Rematch",
            "Abandon this game",
            "Saved games",
            "Score",
            "Game log",
            "Payouts of every round",
            "Table mode",
            "Players' statistics",
            "Players",
            "Address",
            "Close",
        ],
        "log": ["Game log", "rolls", "places", "on Casino", "Round 1 is paid out", "takes"],
        "score": ["Score", "R1", "Total", "Print or save"],
        "next_deal": ["Round 2: lay out the money"],
    },
    "de": {
        "setup": [
            "Neues Spiel",
            "Spieler",
            "Spieler hinzufügen",
            "Spiel starten",
            "Neutrale weiße",
        ],
        "deal": ["Runde 1: Geld auslegen", "Zufällig auslegen", "Runde 1 von 4"],
        "roll": [
            "würfelt",
            "Wurf von Hand eingeben",
            "Zufällig würfeln",
            "Stand",
            "noch keine Würfel",
        ],
        "choose": ["wählt", "→ Casino"],
        "pay_out": ["Alle Würfel gesetzt: Auszahlung", "Runde 1 auszahlen"],
        "payout_first": ["Auszahlung Runde 1", "Nächstes Casino", "Alle zeigen"],
        "payout_all": ["Weiter", "Punktestand", "Summe", "Stand", "Geld"],
        "menu": [
            "Menü",
            "Neues Spiel",
            "Revanche",
            "Spiel abbrechen",
            "Gespeicherte Spiele",
            "Punktestand",
            "Spielverlauf",
            "Auszahlungen aller Runden",
            "Tischansicht",
            "Spielerstatistik",
            "Spieler",
            "Adresse",
            "Schließen",
        ],
        "log": [
            "Spielverlauf",
            "würfelt",
            "setzt",
            "auf Casino",
            "Runde 1 wird ausgezahlt",
            "nimmt",
        ],
        "score": ["Punktestand", "R1", "Summe", "Drucken oder speichern"],
        "next_deal": ["Runde 2: Geld auslegen"],
    },
}

MONEY = {"en": r"\$\d{1,3},000", "de": r"\d{1,3}\.000 \$"}


@pytest.fixture
def page(tmp_path):
    opened = Page(create_app({"DB": str(tmp_path / "t.sqlite3"), "SEED": 5, "CAMERA": None}))
    yield opened
    opened.close()


def _text(page: Page) -> str:
    return page.driver.execute_script("return document.getElementById('app').innerText")


def _shows(page: Page, lang: str, screen: str) -> str:
    """Wait until the page shows every word of `screen` in `lang`, and none of the other
    language's words for it that differ; the page's text then."""
    other = WORDS["de" if lang == "en" else "en"][screen]
    wanted = WORDS[lang][screen]
    text = wait_for(
        lambda: (lambda s: s if all(w in s for w in wanted) else "")(_text(page)),
        10,
        f"{lang} words of {screen}: {wanted} in the page",
    )
    foreign = [
        w for w in other if w not in wanted and re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)
    ]
    assert not foreign, f"{screen} in {lang} shows {foreign}"
    return text


def _type(page: Page, testid: str, text: str) -> None:
    type_into(page.driver, testid, text)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_key_flows_speak_the_pages_language(page, lang):
    page.driver.execute_script("localStorage.setItem('lang', arguments[0]);", lang)
    page.driver.refresh()
    wait_for(lambda: page.has("start-game"), 15, "the new-game form")

    # New game, filled in and started on the page.
    _shows(page, lang, "setup")
    _type(page, "player-name-0", "Anna")
    _type(page, "player-name-1", "Ben")
    tick(page.driver, "#opt-neutral_dice", True)
    page.tap("start-game")
    wait_for(lambda: page.screen() == "deal", 10, "the deal")
    game = page.state()["game"]
    assert [p["name"] for p in game["players"]] == ["Anna", "Ben"]
    assert game["options"]["neutral_dice"] is True
    _shows(page, lang, "deal")

    # The deal, a roll and a choice, tapped.
    page.tap("deal-random")
    wait_for(lambda: page.state()["game"]["phase"] == "roll", 10, "the first roll")
    page.synced()
    _shows(page, lang, "roll")
    page.tap("roll-random")
    wait_for(lambda: page.state()["game"]["phase"] == "choose", 10, "the first choice")
    page.synced()
    _shows(page, lang, "choose")
    page.tap("choice-0")
    wait_for(lambda: page.state()["game"]["phase"] != "choose", 10, "the choice to be taken")

    # The rest of the round through the API; the payout on the page.
    play_to(page.client, page.act, "payout")
    page.synced()
    _shows(page, lang, "pay_out")
    page.tap("pay-out")
    wait_for(lambda: page.screen() == "payout", 10, "the payout screen")
    text = _shows(page, lang, "payout_first")
    assert re.search(MONEY[lang], text), text
    page.tap("show-all")
    text = _shows(page, lang, "payout_all")
    assert re.search(MONEY[lang], text), text
    page.tap("payout-continue")
    wait_for(lambda: page.screen() == "deal", 10, "the next deal")
    _shows(page, lang, "next_deal")

    # The menu, the log and the score table.
    page.tap("menu")
    wait_for(lambda: page.has("menu-panel"), 5, "the menu")
    _shows(page, lang, "menu")
    page.tap("menu-log")
    wait_for(lambda: page.has("sheet-log"), 5, "the log")
    _shows(page, lang, "log")
    page.tap("sheet-close")
    page.tap("menu")
    page.tap("menu-score")
    wait_for(lambda: page.has("sheet-score"), 5, "the score table")
    _shows(page, lang, "score")
