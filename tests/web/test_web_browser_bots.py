"""A whole game with hints on and one computer seat, played in a real headless Chromium on the
simulated table: the person to move sees each choice's chance of winning with numbers, the
computer's move is said in words that match the stored step, and an undo of the computer's
move waits for a tap instead of being played again at once."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from browser import LivePage, choose_option, skip_module_without_browser, type_into, wait_for

from companion.events import event_to_dict
from web import create_app

skip_module_without_browser()


HINT_LINE = re.compile(r"(\d+) % ± (\d+) to win · \$([\d,]+) this round")
HINT_LINE_DE = re.compile(r"(\d+) % ± (\d+) Siegchance · ([\d.]+) \$ in dieser Runde")


class Page(LivePage):
    """The page in Chromium and the server behind it."""

    def moved_on(self, before: str, what: str) -> dict:
        wait_for(lambda: self.state()["version"] != before, 20, what)
        return self.synced()

    def tap_and_wait(self, selector: str) -> dict:
        before = self.state()["version"]
        self.tap(selector)
        return self.moved_on(before, f"{selector} to change the game")

    def stored_event(self, step: int) -> dict:
        """The step as the game file holds it."""
        session = self.app.extensions["hub"].session
        return event_to_dict(session.events[step - 1])


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("LASVEGAS_SCREENSHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def page(tmp_path):
    app = create_app(
        {"DB": str(tmp_path / "t.sqlite3"), "SEED": 4, "CAMERA": "sim", "CAMERA_FPS": 5}
    )
    opened = Page(app)
    yield opened
    opened.close()


def start_with_a_bot(page: Page) -> None:
    """Anna plays against the search bot Carla, hints on, from the new-game form."""
    wait_for(lambda: page.all('[data-testid="setup"] [data-testid="edition"]'), 15, "the form")
    type_into(page.driver, "player-name-0", "Anna")
    type_into(page.driver, "player-name-1", "Carla")
    choose_option(page.driver, '[data-testid="player-bot-1"]', "search")
    page.tap('[data-testid="hints-on"]')
    state = page.tap_and_wait('[data-testid="start-game"]')
    assert state["seats"] == {"hints": True, "bots": [None, "search"]}


def check_hints(page: Page, game: dict) -> list[str]:
    """Every choice of the person to move shows its chance of winning and money, with numbers
    that agree with the server's hint for this position."""
    assert page.all('[data-testid="hint-status"]'), "no hint line"
    figures = wait_for(
        lambda: (
            page.js(
                "return [...document.querySelectorAll('.choice')].map((b) =>"
                " (b.querySelector('[data-testid=hint-figures]') || {}).innerText || null)"
            )
            or None
        ),
        15,
        "the choices",
    )
    wait_for(
        lambda: all(
            page.js(
                "return [...document.querySelectorAll('.choice')].map((b) =>"
                " Boolean(b.querySelector('[data-testid=hint-figures]')))"
            )
        ),
        15,
        "a hint under every choice",
    )
    figures = page.js(
        "return [...document.querySelectorAll('.choice [data-testid=hint-figures]')]"
        ".map((f) => f.innerText)"
    )
    assert len(figures) == len(game["choices"])
    for text in figures:
        found = HINT_LINE.search(text)
        assert found, text
        assert 0 <= int(found[1]) <= 100 and 1 <= int(found[2]) <= 50
    assert sum("best" in text for text in figures) == 1
    return figures


def check_bot_said(page: Page, state: dict) -> int:
    """The computer's move in words, naming the stored step's number and casino."""
    # Read in one go: the page redraws whole on every push, so elements found earlier go stale.
    step, text = wait_for(
        lambda: page.js(
            "const e = document.querySelector('[data-testid=bot-said]');"
            "return e ? [Number(e.dataset.step), e.innerText] : null;"
        ),
        10,
        "the bot's words",
    )
    event = page.stored_event(step)
    entry = next(e for e in state["game"]["log"] if e["step"] == step)
    assert event["type"] == "place" and entry["seat"] == 1
    where = "Slot machine" if event.get("slot") else f"Casino {event['number']}"
    assert text.strip().startswith(
        f"Bot Carla places {entry['dice']} × {event['number']} on {where}"
    ), text
    return step


def test_a_whole_game_with_hints_and_a_bot_seat(page, shots):
    start_with_a_bot(page)
    hinted = bot_moves = 0
    undone = german = False
    for _ in range(600):
        state = page.synced()
        game = state["game"]
        screen = page.js("return document.body.dataset.screen")
        if screen == "over":
            break
        if screen == "payout":
            if page.all('[data-testid="show-all"]'):
                page.tap('[data-testid="show-all"]')
            page.tap('[data-testid="payout-continue"]')
            wait_for(lambda: page.js("return document.body.dataset.screen") != "payout", 10)
            continue
        phase = game["phase"]
        if phase == "deal":
            page.tap_and_wait('[data-testid="deal-random"]')
        elif phase == "payout":
            page.tap_and_wait('[data-testid="pay-out"]')
        elif game["current"] == 1:  # the computer's turn: it throws and places by itself
            assert page.all('[data-testid="bot-turn"]')
            assert not page.all('[data-testid="hint-figures"]')  # no hints for the computer
            before = state["version"]
            state = page.moved_on(before, "the bot to act")
            if state["game"]["phase"] == "choose":
                continue  # it threw; it places next
            bot_moves += 1
            step = check_bot_said(page, state)
            if bot_moves == 1:
                page.driver.save_screenshot(str(shots / "bot-said-1024.png"))
            if not undone and bot_moves >= 2:
                # Undo the computer's placement: it waits for a tap, then plays again.
                state = page.tap_and_wait('[data-testid="undo"]')
                assert state["game"]["current"] == 1 and state["game"]["phase"] == "choose"
                wait_for(lambda: page.all('[data-testid="bot-play"]'), 10, "Let the bot play")
                time.sleep(2.5)  # longer than the bot's pause before it acts
                assert page.state()["version"] == state["version"], "the bot replayed the undo"
                assert "the bot waits" in page.text('[data-testid="bot-turn"]')
                page.driver.save_screenshot(str(shots / "bot-undone-1024.png"))
                page.driver.set_window_size(390, 844)
                time.sleep(0.3)
                page.driver.save_screenshot(str(shots / "bot-undone-390.png"))
                page.driver.set_window_size(1024, 768)
                state = page.tap_and_wait('[data-testid="bot-play"]')
                assert check_bot_said(page, state) == step
                undone = True
        elif phase == "roll":
            wait_for(
                lambda: "Chance to win as it stands" in page.text('[data-testid="hint-status"]'),
                15,
                "the chance as it stands",
            )
            page.tap_and_wait('[data-testid="roll-random"]')
        elif phase == "choose":
            check_hints(page, game)
            hinted += 1
            if hinted == 1:
                page.driver.save_screenshot(str(shots / "hints-1024.png"))
            if hinted == 2 and not german:
                page.tap('[data-testid="language"]')
                wait_for(
                    lambda: HINT_LINE_DE.search(page.text(".choices")), 15, "the hint in German"
                )
                page.driver.set_window_size(390, 844)
                time.sleep(0.3)
                page.driver.save_screenshot(str(shots / "hints-de-390.png"))
                page.driver.set_window_size(1024, 768)
                page.tap('[data-testid="language"]')
                wait_for(lambda: HINT_LINE.search(page.text(".choices")), 15, "English again")
                german = True
            page.tap_and_wait('[data-testid="choice-0"]')
        else:
            raise AssertionError(f"unexpected phase {phase}")
    else:
        raise AssertionError("the game did not end")
    assert state["game"]["phase"] == "over" or page.state()["game"]["phase"] == "over"
    assert hinted >= 8 and bot_moves >= 8 and undone and german
    # A rematch keeps the computer seat and the hints.
    first = page.state()["game_id"]
    page.tap('[data-testid="rematch"]')
    wait_for(lambda: page.state()["game_id"] != first, 15, "the rematch")
    assert page.state()["seats"] == {"hints": True, "bots": [None, "search"]}


def test_a_hint_shows_working_and_a_late_answer_for_an_old_state_is_dropped(tmp_path):
    """The hint is asked in the background: the choices say "working…" until it is in, and
    an answer that comes after the game moved on is not shown for the new state."""
    app = create_app({"DB": str(tmp_path / "t.sqlite3"), "SEED": 2, "CAMERA": None})
    page = Page(app)
    try:
        client = app.test_client()

        def act(action, **fields):
            base = client.get("/api/state").get_json()["version"]
            response = client.post("/api/action", json={"action": action, "base": base} | fields)
            assert response.status_code == 200, response.get_json()

        players = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
        act("new_game", edition="classic", players=players, hints=True)
        act("simulate")  # the deal
        page.synced()
        # Answers to /api/hint are held back until the test lets them through, one by one.
        page.js(
            "window.heldHints = []; const plain = window.fetch;"
            "window.fetch = (url, options) => String(url).includes('/api/hint')"
            "  ? plain(url, options).then((r) => new Promise((go) => window.heldHints.push(() => go(r))))"
            "  : plain(url, options);"
        )
        act("simulate")  # Anna throws: the page asks for the hint of her choice
        page.synced()
        wait_for(lambda: page.js("return window.heldHints.length") >= 1, 15, "the hint asked")
        working = page.js(
            "return [...document.querySelectorAll('.choice .hint-figures')].map((f) => f.innerText)"
        )
        assert working and all(text == "Hint: working…" for text in working), working
        game = page.state()["game"]
        act("event", event=game["choices"][0]["event"])  # Anna chooses before the hint is in
        page.synced()
        wait_for(lambda: page.js("return window.heldHints.length") >= 2, 15, "Ben's hint asked")
        page.js("window.heldHints.shift()()")  # Anna's answer arrives late
        time.sleep(0.5)
        assert page.text('[data-testid="hint-status"]') == "Hint: working…"
        page.js("window.heldHints.shift()()")  # Ben's own answer
        wait_for(
            lambda: "Chance to win as it stands" in page.text('[data-testid="hint-status"]'),
            15,
            "Ben's chance",
        )
    finally:
        page.close()
