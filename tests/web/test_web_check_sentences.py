"""The round-end check's differences and payout changes reach the page as keys with values
(beside their English text), and the page words them: in English as the server does, in
German in German."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from table import casino_four_in_doubt, slot_machine_in_doubt_by_value
from test_web_table_check import SimCamera, play_to_payout, send

from companion.check_sentences import CHECK_TEXTS
from companion.session import GameStore
from web.actions import act
from web.hub import TableHub

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"

WORDING = """
const fs = require("fs"), vm = require("vm");
const page = {document: {documentElement: {}}};
vm.createContext(page);
vm.runInContext(fs.readFileSync(process.argv[1], "utf8")
  + "\\nthis.setLanguage = setLanguage; this.checkText = checkText; this.checkSentences = checkSentences;", page);
const casinos = JSON.parse(fs.readFileSync(0, "utf8"));
const out = {};
for (const lang of ["en", "de"]) {
  page.setLanguage(lang);
  out[lang] = casinos.map((c) => ({
    differences: c.difference_sentences.map((s) => page.checkText(s, "?")),
    payout: page.checkSentences(c.payout_sentences, "?"),
  }));
}
console.log(JSON.stringify(out));
"""


def misplaced_checks(folder: Path) -> list[dict]:
    """The casinos flagged by the round-end checks of a game with a die misplaced every round
    (each kind in turn), the table put right after each."""
    hub = TableHub(GameStore(folder / "t.sqlite3"), seed=3)
    hub.attach_camera(SimCamera())
    players = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    act(hub, {"action": "new_game", "base": "none", "edition": "classic", "players": players}, None)
    send(hub, "sim_misplace", on=True)
    flagged = []
    for kind in ("moved", "left out", "added"):
        hub.sim_row().misplace_kind = kind
        play_to_payout(hub)
        check = hub.snapshot()["table_check"]
        flagged += [c for c in check["casinos"] if not c["agrees"]]
        send(hub, "sim_fix_casinos")
        send(hub, "check_table")
        send(hub, "event", event={"type": "payout", "slot_choices": []})
    return flagged


@pytest.fixture
def flagged(tmp_path) -> list[dict]:
    return misplaced_checks(tmp_path)


def test_each_difference_and_payout_change_is_sent_as_a_key_with_values(flagged):
    assert flagged
    for casino in flagged:
        sentences = casino["difference_sentences"]
        assert len(sentences) == len(casino["differences"]) > 0
        for sentence in sentences + casino["payout_sentences"]:
            assert sentence["key"] in CHECK_TEXTS, sentence
        for sentence in sentences:
            if sentence["key"] == "differs":
                assert sentence["where"] == casino["casino"]
                assert sentence["owner"]["name"] in ("Anna", "Ben", "neutral")
                assert sentence["table"] != sentence["game"] or sentence["table_values"]
        assert casino["payout_sentences"], casino


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's script")
def test_the_page_words_the_sentences_in_english_as_the_server_and_in_german(flagged):
    ran = subprocess.run(
        ["node", "-e", WORDING, str(STATIC / "i18n.js")],
        input=json.dumps(flagged),
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    worded = json.loads(ran.stdout)
    for casino, english, german in zip(flagged, worded["en"], worded["de"], strict=True):
        assert english["differences"] == casino["differences"]
        assert english["payout"] == casino["payout_changes"]
        for line in german["differences"]:
            assert line.startswith(("der Tisch zeigt", "die Kamera sieht")), line
        assert german["payout"] != casino["payout_changes"], german


def as_sent(casino) -> dict:
    """A casino's check as the server sends it to the page."""
    return {
        "differences": list(casino.differences),
        "difference_sentences": [s.to_dict() for s in casino.difference_sentences],
        "payout_sentences": [s.to_dict() for s in casino.payout_sentences],
        "payout_changes": casino.payout_changes,
    }


def page_words(sent: dict) -> dict:
    """The page's words for one casino's check, in each of its languages (run by node)."""
    ran = subprocess.run(
        ["node", "-e", WORDING, str(STATIC / "i18n.js")],
        input=json.dumps([sent]),
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return json.loads(ran.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's script")
def test_the_page_words_each_reading_of_a_die_not_read_for_sure_as_the_server():
    four = casino_four_in_doubt()
    sent = as_sent(four)
    assert [s["key"] for s in sent["payout_sentences"]] == ["unsure"] + ["if_reading"] * 3
    worded = page_words(sent)
    assert worded["en"][0]["payout"] == four.payout_changes
    assert "if it is no die or a die of red (Anna): no change at payout" in four.payout_changes
    german = worded["de"][0]["payout"]
    assert "ist er kein Würfel oder ein Würfel von rot (Anna): keine Änderung" in german, german


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's script")
def test_the_page_words_each_value_of_a_slot_machine_die_in_doubt_as_the_server():
    slot = slot_machine_in_doubt_by_value()
    sent = as_sent(slot)
    readings = [s for s in sent["payout_sentences"] if s["key"] == "if_reading"]
    assert [s["values"] for s in readings] == [[1, 3], [4, 6]]
    worded = page_words(sent)
    assert worded["en"][0]["payout"] == slot.payout_changes
    assert "if it is a die of red (Anna) showing 4 or 6: no change at payout" in slot.payout_changes
    german = worded["de"][0]["payout"]
    assert "ist er ein Würfel von rot (Anna) mit 4 oder 6: keine Änderung" in german, german
