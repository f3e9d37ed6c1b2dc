"""Whole games played by tapping the page in a real headless Chromium, checked against the engine.

A 4-player game with neutral dice and Biggies, and a Royale game with casino tiles. Every
payout the page draws is checked line by line against the engine's explanation (who counted
what, Biggies included; which lines tied and are struck; which note each player took; the
tiles' rewards and fines), and at the end the game log is checked against the stored steps,
the score table against the standings, and every round's payout can be opened again.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from browser import (
    LivePage,
    choose_option,
    fill,
    skip_module_without_browser,
    tick,
    type_into,
    wait_for,
)

from companion.events import event_to_dict
from web import create_app

skip_module_without_browser()


FOUR = [
    {"name": "Anna", "colour": "red"},
    {"name": "Ben", "colour": "blue"},
    {"name": "Cleo", "colour": "green"},
    {"name": "Dan", "colour": "yellow"},
]


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("LASVEGAS_SCREENSHOTS") or tmp_path_factory.mktemp("game"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Game(LivePage):
    """The page, the server, and taps that wait for the game to move on."""

    def __init__(self, app, shots: Path) -> None:
        super().__init__(app)
        self.shots = shots
        self.payouts_checked = 0
        self.tile_lines = 0
        self.biggy_lines = 0
        self.struck_lines = 0

    def synced(self, timeout: float = 10.0) -> dict:
        return super().synced(timeout)

    def tap_and_wait(self, selector: str) -> dict:
        before = self.state()["version"]
        self.tap(selector)
        wait_for(lambda: self.state()["version"] != before, 15, f"{selector} to change the game")
        return self.synced()

    def start(self, edition: str, options: dict, players: list[dict]) -> None:
        wait_for(lambda: self.all('[data-testid="setup"] [data-testid="edition"]'), 15, "the form")
        choose_option(self.driver, '[data-testid="edition"]', edition)
        for name, value in options.items():
            if isinstance(value, bool):
                tick(self.driver, f"#opt-{name}", value)
            else:
                fill(self.driver, f"#opt-{name}", str(value))
        while len(self.all('[data-testid^="player-name-"]')) < len(players):
            self.tap('[data-testid="add-player"]')
        for seat, player in enumerate(players):
            type_into(self.driver, f"player-name-{seat}", player["name"])
            choose_option(self.driver, f'[data-testid="player-colour-{seat}"]', player["colour"])
        self.tap_and_wait('[data-testid="start-game"]')

    def play(self) -> dict:
        """Tap through the game to its end; check every payout on the way."""
        for _ in range(800):
            state = self.synced()
            game = state["game"]
            screen = self.js("return document.body.dataset.screen")
            if screen == "payout":
                self.check_payout(game, game["payouts"][-1])
                continue
            if screen == "over":
                return state
            phase = game["phase"]
            if phase == "deal":
                self.tap_and_wait('[data-testid="deal-random"]')
            elif phase == "roll":
                self.tap_and_wait('[data-testid="roll-random"]')
            elif phase == "choose":
                # A choice with a Biggy when there is one, so its counting is seen at payout.
                labels = self.js(
                    "return [...document.querySelectorAll('.choice')].map((b) => b.innerText)"
                )
                pick = next((i for i, text in enumerate(labels) if "Biggy" in text), 0)
                self.tap_and_wait(f'[data-testid="choice-{pick}"]')
            elif phase == "tile":
                if self.all('[data-testid="tile-random"]'):
                    self.tap_and_wait('[data-testid="tile-random"]')
                else:
                    self.tap_and_wait('[data-testid="tile-choice-0"]')
            elif phase == "rainbow":
                self.tap_and_wait('[data-testid="rainbow-random"]')
            elif phase == "payout":
                self.tap_and_wait('[data-testid="pay-out"]')
            else:
                raise AssertionError(f"unexpected phase {phase}")
        raise AssertionError("the game did not end")

    def check_payout(self, game: dict, payout: dict) -> None:
        if self.all('[data-testid="show-all"]'):
            self.tap('[data-testid="show-all"]')
        wait_for(lambda: self.all('[data-testid="payout-continue"]'), 10, "the whole payout")
        if self.payouts_checked == 0:
            self.driver.save_screenshot(str(self.shots / f"game-{game['edition']}-payout.png"))
        self.check_payout_cards(payout, '[data-testid="payout"]')
        self.payouts_checked += 1
        self.tap('[data-testid="payout-continue"]')
        wait_for(lambda: self.js("return document.body.dataset.screen") != "payout", 10)

    def check_payout_cards(self, payout: dict, within: str) -> None:
        """Every casino's lines on the page say what the engine's explanation says."""
        # Read in one go: the page redraws whole on every push, so elements found earlier go stale.
        cards = self.js(
            "const out = {};"
            "for (const card of document.querySelectorAll(arguments[0] + ' [data-testid^=payout-casino-]')) {"
            "  out[card.dataset.testid.slice(14)] = {"
            "    lines: [...card.querySelectorAll('[data-testid=pay-line]')].map((l) => ({text: l.innerText, struck: l.classList.contains('struck')})),"
            "    tiles: [...card.querySelectorAll('[data-testid=tile-line]')].map((l) => l.innerText),"
            "    ties: [...card.querySelectorAll('[data-testid=tie-line]')].map((l) => l.innerText)};"
            "}"
            "return out;",
            within,
        )
        for casino in payout["casinos"]:
            card = cards[str(casino["casino"])]
            lines = card["lines"]
            assert len(lines) == len(casino["counts"]), (casino, lines)
            tied = {o: g["dice"] for g in casino["tied"] for o in g["owners"]}
            awards = {a["owner"]: a for a in casino["awards"]}
            for line, counted in zip(lines, casino["counts"], strict=True):
                owner, text = counted["owner"], line["text"]
                shown = {"white": "white", "grey": "grey"}.get(owner, owner)
                assert shown in text, (shown, text)
                biggies = counted.get("biggies", 0)
                if biggies:
                    self.biggy_lines += 1
                    regular = counted["dice"] - 2 * biggies
                    big = "Biggy" if biggies == 1 else f"{biggies} Biggies"
                    expected = (
                        f"× {counted['dice']} = {regular} {'die' if regular == 1 else 'dice'} + {big}"
                        if regular
                        else f"× {counted['dice']} = {big}"
                    )
                    assert expected in text, (expected, text)
                else:
                    assert re.search(rf"× {counted['dice']}\b", text), (counted, text)
                assert line["struck"] == (owner in tied), (owner, text)
                if owner in tied:
                    self.struck_lines += 1
                    assert f"tied at {tied[owner]}" in text
                if owner in awards:
                    amount = f"${awards[owner]['note']:,}"
                    assert amount in text and f"{awards[owner]['rank']}." in text, (amount, text)
                    if owner in ("white", "grey"):
                        assert "goes back under the pile" in text
            # One sentence per tied group: who, at how many, and that those dice don't count.
            assert len(card["ties"]) == len(casino["tied"])
            for sentence, group in zip(card["ties"], casino["tied"], strict=True):
                names = " = ".join(group["owners"])
                assert (
                    sentence
                    == f"{names} tied at {group['dice']}: cancelled, these dice don't count"
                )
            effects = [
                e for e in payout.get("tiles", []) if str(e["casino"]) == str(casino["casino"])
            ]
            tile_lines = card["tiles"]
            assert len(tile_lines) == len(effects)
            for line, effect in zip(tile_lines, effects, strict=True):
                self.tile_lines += 1
                assert effect["tile"] in line and effect["owner"] in line
                if effect["money"]:
                    assert f"{abs(effect['money']):,}" in line

    def check_log(self, session) -> None:
        """The log sheet: one line per entry, placements and notes as the stored steps say."""
        game = self.synced()["game"]
        self.tap('[data-testid="menu"]')
        self.tap('[data-testid="menu-log"]')
        wait_for(lambda: self.all('[data-testid="log-entry"]'), 10, "the log")
        lines = self.js(
            "return [...document.querySelectorAll('[data-testid=log-entry]')].map((e) => e.innerText)"
        )[::-1]  # drawn newest first
        assert len(lines) == len(game["log"])
        stored = [event_to_dict(e) for e in session.events]
        names = [p["name"] for p in game["players"]]
        places = [
            (entry, line)
            for entry, line in zip(game["log"], lines, strict=True)
            if entry["what"] == "place"
        ]
        assert len(places) == sum(e["type"] == "place" for e in stored)
        for entry, line in places:
            event = stored[entry["step"] - 1]
            assert event["type"] == "place" and event["number"] == entry["number"]
            assert line.split(" ", 1)[1].startswith(f"{names[entry['seat']]} places ")
            target = "Slot machine" if event.get("slot") else f"Casino {event['number']}"
            assert f"on {target}" in line
            if entry["dice"]:
                assert f"{entry['dice']} × {entry['number']}" in line
            if entry["biggy"]:
                assert "Biggy" in line and f"counts {entry['counted']}" in line
        awards = [
            line for entry, line in zip(game["log"], lines, strict=True) if entry["what"] == "award"
        ]
        explained = [
            (a, c["casino"]) for p in game["payouts"] for c in p["casinos"] for a in c["awards"]
        ]
        assert len(awards) == len(explained)
        for line, (award, casino) in zip(awards, explained, strict=True):
            where = "Slot machine" if casino == "slot" else f"Casino {casino}"
            assert f"takes ${award['note']:,} from {where}" in line, line
        self.driver.save_screenshot(str(self.shots / f"game-{game['edition']}-log.png"))
        self.tap('[data-testid="sheet-close"]')

    def check_score_and_review(self) -> None:
        game = self.synced()["game"]
        for seat, player in enumerate(game["players"]):
            row = self.js(f"return document.querySelector('[data-testid=score-{seat}]').innerText")
            money = next(s["money"] for s in game["standings"] if s["name"] == player["name"])
            assert f"${round(money / 1000)}k" in row, (row, money)
        # Every round's payout, opened again from the menu.
        self.tap('[data-testid="menu"]')
        self.tap('[data-testid="menu-payouts"]')
        for payout in game["payouts"]:
            self.tap(f'[data-testid="review-round-{payout["round"]}"]')
            wait_for(
                lambda p=payout: (
                    f"Round {p['round']} payout"
                    in self.all('[data-testid="payout-review"]')[0].text
                ),
                10,
            )
            self.check_payout_cards(payout, '[data-testid="payout-review"]')
        self.tap('[data-testid="sheet-close"]')


@pytest.fixture
def played(tmp_path, shots):
    made = []

    def make(seed: int) -> Game:
        app = create_app({"DB": str(tmp_path / f"g{seed}.sqlite3"), "SEED": seed, "CAMERA": None})
        made.append(Game(app, shots))
        return made[-1]

    yield make
    for game in made:
        game.close()


def test_a_four_player_game_with_neutral_dice_and_biggies(played, shots):
    g = played(21)
    g.start("classic", {"neutral_dice": True, "biggies": True}, FOUR)
    state = g.play()
    assert g.payouts_checked == 4
    assert g.biggy_lines > 0 and g.struck_lines > 0
    g.driver.save_screenshot(str(shots / "game-classic-over.png"))
    winner = state["game"]["result"]["winners"][0]
    # read afresh: a push after the last payout may redraw the screen between two reads
    over = '[data-testid="game-over"]'
    wait_for(lambda: winner in g.text(over), 10, "the winner on the game-over screen")
    g.check_score_and_review()
    g.check_log(g.app.extensions["hub"].session)


def test_a_royale_game_with_tiles(played, shots):
    g = played(8)
    g.start("royale", {"tiles": 3}, FOUR[:3])
    g.play()
    assert g.payouts_checked == 3
    assert g.tile_lines > 0, "no tile paid or fined anyone: pick another seed"
    g.check_score_and_review()
    g.check_log(g.app.extensions["hub"].session)
