"""Results across games (/api/results), and the log and score table the page draws."""

from __future__ import annotations

from playing import play_to

from companion.events import event_to_dict
from web import create_app

PLAYERS = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]


def _finish(client, act, players=PLAYERS) -> dict:
    assert act("new_game", edition="classic", options={}, players=players).status_code == 200
    return play_to(client, act, "over")


def test_each_game_shows_its_winner_and_money(client, act):
    game = _finish(client, act)
    data = client.get("/api/results").get_json()
    (listed,) = data["games"]
    standings = {s["name"]: s["money"] for s in game["standings"]}
    assert listed["players"] == ["Anna", "Ben"]
    assert listed["money"] == [standings["Anna"], standings["Ben"]]
    assert listed["winners"] == game["result"]["winners"] and listed["finished"]


def test_statistics_per_player_over_finished_games(client, act):
    first = _finish(client, act)
    second = _finish(client, act, [PLAYERS[1], PLAYERS[0] | {"colour": "green"}])
    assert act("new_game", edition="classic", options={}, players=PLAYERS).status_code == 200
    data = client.get("/api/results").get_json()
    assert [g["finished"] for g in data["games"]] == [False, True, True]  # newest first
    rows = {r["name"]: r for r in data["players"]}
    for name in ("Anna", "Ben"):
        money = [
            next(s["money"] for s in g["standings"] if s["name"] == name) for g in (first, second)
        ]
        wins = sum(name in g["result"]["winners"] for g in (first, second))
        notes = sum(
            len(s["notes"]) for g in (first, second) for s in g["standings"] if s["name"] == name
        )
        assert rows[name]["games"] == 2
        assert rows[name]["wins"] == wins
        assert rows[name]["best"] == max(money)
        assert rows[name]["average"] == round(sum(money) / 2)
        assert sum(rows[name]["notes"].values()) == notes
    # The roster: Anna played red twice and green once; her usual colour is red.
    roster = {r["name"]: r for r in data["roster"]}
    assert roster["Anna"] == {"name": "Anna", "colour": "red", "games": 3}


def test_the_score_table_adds_up_to_the_standings(client, act):
    game = _finish(client, act)
    score = game["score"]
    assert [r["round"] for r in score["rounds"]] == [1, 2, 3, 4]
    for seat, player in enumerate(game["players"]):
        money = next(s["money"] for s in game["standings"] if s["name"] == player["name"])
        assert sum(r["money"][seat] for r in score["rounds"]) == money == score["total"][seat]


def test_the_log_follows_the_stored_steps_and_forgets_an_undone_one(app, client, act):
    _finish(client, act)
    state = client.get("/api/state").get_json()
    stored = [event_to_dict(e) for e in app.extensions["hub"].session.events]
    log = state["game"]["log"]
    assert max(e["step"] for e in log) == len(stored)
    placed = [e for e in stored if e["type"] == "place"]
    assert [e["number"] for e in log if e["what"] == "place"] == [e["number"] for e in placed]
    awarded = [e for e in log if e["what"] == "award"]
    explained = [a for p in state["game"]["payouts"] for c in p["casinos"] for a in c["awards"]]
    assert [e["note"] for e in awarded] == [a["note"] for a in explained]
    assert act("undo").status_code == 200
    after = client.get("/api/state").get_json()["game"]["log"]
    assert max(e["step"] for e in after) == len(stored) - 1
    assert not any(e["what"] == "over" for e in after)


def test_an_abandoned_game_leaves_the_table_and_stays_marked(app, client, act, tmp_path):
    assert act("new_game", edition="classic", options={}, players=PLAYERS).status_code == 200
    play_to(client, act, "roll")
    assert act("abandon").status_code == 200
    assert client.get("/api/state").get_json()["game"] is None
    (listed,) = client.get("/api/results").get_json()["games"]
    assert listed["abandoned"] and not listed["finished"]
    # The table does not bring it back when the server starts again.
    again = create_app({"DB": app.config["DB"], "TESTING": True}).test_client()
    assert again.get("/api/state").get_json()["game"] is None


def test_a_finished_game_cannot_be_abandoned(client, act):
    _finish(client, act)
    response = act("abandon")
    assert response.status_code == 409
    assert response.get_json()["why"] == {"key": "abandon_over"}
    assert client.get("/api/state").get_json()["game"]["phase"] == "over"


def test_two_game_files_with_the_same_game_numbers_keep_their_own_results(tmp_path):
    for name, players in (("a", PLAYERS), ("b", [{"name": "Cleo", "colour": "green"}] + PLAYERS)):
        client = create_app(
            {"DB": str(tmp_path / f"{name}.sqlite3"), "TESTING": True}
        ).test_client()
        base = client.get("/api/state").get_json()["version"]
        started = client.post(
            "/api/action",
            json={"action": "new_game", "base": base, "edition": "classic", "players": players},
        )
        assert started.status_code == 200
        (listed,) = client.get("/api/results").get_json()["games"]
        assert listed["game_id"] == 1 and listed["players"] == [p["name"] for p in players]
