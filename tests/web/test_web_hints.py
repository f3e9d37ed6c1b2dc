"""Hints and the bot's move over the API: switched on per game, the bot's words and event."""

from __future__ import annotations


def _to_choice(act):
    """Deal and throw at random: the player to move has a throw to place."""
    assert act("simulate").status_code == 200  # the deal
    assert act("simulate").status_code == 200  # Anna's throw


def test_hint_is_refused_until_switched_on_for_the_game(client, two_player_game):
    _to_choice(two_player_game)
    refused = client.get("/api/hint")
    assert refused.status_code == 409
    assert "hints are off" in refused.get_json()["error"]
    switched = client.post("/api/hints", json={"on": True})
    assert switched.status_code == 200 and switched.get_json()["hints"] is True
    data = client.get("/api/hint").get_json()
    assert data["player"] == "Anna" and data["game_id"] == switched.get_json()["game_id"]
    assert data["choices"] and all("place" in c and 0 <= c["win"] <= 1 for c in data["choices"])
    assert client.post("/api/hints", json={"on": False}).get_json()["hints"] is False
    assert client.get("/api/hint").status_code == 409


def test_hint_switch_needs_a_yes_or_no(client, two_player_game):
    response = client.post("/api/hints", json={"on": "yes"})
    assert response.status_code == 400


def test_bot_asks_for_a_throw_then_says_where_it_places(client, two_player_game):
    """Before the throw the bot asks for one; after it, its words name the count, number and
    casino, and its event is accepted as the page's own and undone like one."""
    act = two_player_game
    assert act("simulate").status_code == 200  # the deal
    before = client.get("/api/bot").get_json()
    assert before["throw"] is True and before["words"] == "Throw Anna's dice"
    assert act("simulate").status_code == 200
    move = client.get("/api/bot").get_json()
    number = move["choice"]["place"]
    assert move["words"].startswith("Anna places ")
    assert move["words"].endswith(f" × {number} on casino {number}")
    assert act("event", event=move["event"]).status_code == 200
    assert client.get("/api/bot").get_json()["player"] == "Ben"
    assert act("undo").status_code == 200
    assert client.get("/api/bot").get_json()["player"] == "Anna"


def test_a_hint_refused_says_why_by_key_for_the_page_to_word(client, act):
    players = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    started = act("new_game", edition="royale", options={"tiles": 2}, players=players)
    assert started.status_code == 200
    assert client.get("/api/hint").get_json()["why"] == {"key": "hints_off"}
    assert client.post("/api/hints", json={"on": True}).status_code == 200
    # Royale with casino tiles: the playout does not cover it.
    assert client.get("/api/hint").get_json()["why"] == {"key": "hint_variants"}


def test_a_hint_while_nobody_decides_says_so_by_key(client, two_player_game):
    assert client.post("/api/hints", json={"on": True}).status_code == 200
    refused = client.get("/api/hint")  # the deal is pending
    assert refused.status_code == 409
    assert refused.get_json()["why"] == {"key": "nobody_decides"}
