"""Computer seats and the hint switch over the API: chosen with the new game, stored in the game
file (a restart keeps them, the record stays as it was), and the `bot` action that throws or
places for a computer seat as one step, undone like a person's."""

from __future__ import annotations

from companion.events import event_to_dict
from companion.session import GameStore
from web import create_app

ANNA_AND_CARLA = [{"name": "Anna", "colour": "red"}, {"name": "Carla", "colour": "blue"}]


def _new(act, **fields):
    return act("new_game", edition="classic", options={}, players=ANNA_AND_CARLA, **fields)


def test_seats_and_hints_are_stored_with_the_game_and_survive_a_restart(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    client = create_app({"DB": db, "SEED": 7, "TESTING": True}).test_client()
    base = client.get("/api/state").get_json()["version"]
    response = client.post(
        "/api/action",
        json={
            "action": "new_game",
            "base": base,
            "edition": "classic",
            "players": ANNA_AND_CARLA,
            "hints": True,
            "bots": [None, "rules"],
        },
    )
    assert response.status_code == 200, response.get_json()
    assert client.get("/api/state").get_json()["seats"] == {"hints": True, "bots": [None, "rules"]}
    again = create_app({"DB": db, "SEED": 7, "TESTING": True}).test_client()
    assert again.get("/api/state").get_json()["seats"] == {"hints": True, "bots": [None, "rules"]}
    # The record is the game alone: no key for seats, and it imports as a game of people.
    record = again.get(f"/api/games/{response.get_json()['game_id']}/record").get_json()
    assert "seats" not in record and "bots" not in record and "hints" not in record


def test_a_game_without_seats_has_people_only_and_hints_off(client, two_player_game):
    assert client.get("/api/state").get_json()["seats"] == {"hints": False, "bots": [None, None]}


def test_the_hint_switch_is_stored_with_the_game(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    client = create_app({"DB": db, "SEED": 7, "TESTING": True}).test_client()
    base = client.get("/api/state").get_json()["version"]
    client.post(
        "/api/action",
        json={"action": "new_game", "base": base, "edition": "classic", "players": ANNA_AND_CARLA},
    )
    assert client.post("/api/hints", json={"on": True}).status_code == 200
    again = create_app({"DB": db, "SEED": 7, "TESTING": True}).test_client()
    assert again.get("/api/state").get_json()["seats"]["hints"] is True


def test_bad_seats_are_refused_and_start_no_game(client, act):
    for fields, words in [
        ({"bots": [None]}, "one entry per player"),
        ({"bots": [None, "clever"]}, "must be one of greedy, rules, search"),
        ({"bots": ["search", "greedy"]}, "at least one seat must be a person"),
        ({"bots": "search"}, "bots must be a list"),
        ({"hints": "yes"}, "hints must be true or false"),
    ]:
        response = _new(act, **fields)
        assert response.status_code == 400, fields
        assert words in response.get_json()["error"], response.get_json()
    assert client.get("/api/state").get_json()["game"] is None


def test_the_bot_throws_then_places_and_an_undo_takes_its_placement_back(client, act):
    assert _new(act, bots=[None, "search"]).status_code == 200
    assert act("simulate").status_code == 200  # the deal
    refused = act("bot")  # Anna is a person
    assert refused.status_code == 409 and "Anna is" in refused.get_json()["error"]
    assert act("simulate").status_code == 200  # Anna throws
    game = client.get("/api/state").get_json()["game"]
    assert act("event", event=game["choices"][0]["event"]).status_code == 200
    thrown = act("bot")
    assert thrown.status_code == 200 and thrown.get_json()["bot"] == "Carla"
    state = client.get("/api/state").get_json()
    assert state["game"]["phase"] == "choose" and state["notice"]["source"] == "bot"
    placed = act("bot")
    step = placed.get_json()["step"]
    state = client.get("/api/state").get_json()
    entry = state["game"]["log"][-1]
    assert entry["step"] == step and entry["what"] == "place" and entry["seat"] == 1
    assert state["game"]["current"] == 0
    assert act("undo").status_code == 200
    back = client.get("/api/state").get_json()
    assert back["game"]["phase"] == "choose" and back["game"]["current"] == 1
    # Asked again in the same position, the bot makes the same decision (seeded by the step).
    again = act("bot")
    assert again.get_json()["step"] == step
    store = GameStore(str(client.application.config["DB"]))
    events = store.open(back["game_id"]).events
    assert event_to_dict(events[step - 1])["type"] == "place"
    store.close()


def test_a_page_on_an_old_state_cannot_make_the_bot_act_twice(client, act):
    assert _new(act, bots=["greedy", None]).status_code == 200
    assert act("simulate").status_code == 200  # the deal
    base = client.get("/api/state").get_json()["version"]
    first = client.post("/api/action", json={"action": "bot", "base": base})
    second = client.post("/api/action", json={"action": "bot", "base": base})
    assert first.status_code == 200
    assert second.status_code == 409 and second.get_json()["why"]["key"] == "stale"


def test_the_hint_names_each_choice_by_its_event_and_its_state(client, act):
    assert _new(act, hints=True).status_code == 200
    assert act("simulate").status_code == 200
    assert act("simulate").status_code == 200
    state = client.get("/api/state").get_json()
    hint = client.get("/api/hint").get_json()
    assert hint["version"] == state["version"]
    offered = sorted(str(c["event"]) for c in state["game"]["choices"])
    assert sorted(str(c["event"]) for c in hint["choices"]) == offered


def test_bots_play_every_edition_to_the_end(tmp_path):
    """A person playing at random against a rules bot and a search bot (greedy where it cannot
    search) in each edition: every bot step is legal, and the game ends."""
    editions = [("classic", {"kickers": True, "slot_machine": True}), ("royale", {"tiles": 3})]
    editions += [("cards", {}), ("custom", {"skip_rule": "chips"})]
    for number, (edition, options) in enumerate(editions):
        client = create_app(
            {"DB": str(tmp_path / f"{number}.sqlite3"), "SEED": number, "TESTING": True}
        ).test_client()

        def act(action, client=client, **fields):
            base = client.get("/api/state").get_json()["version"]
            return client.post("/api/action", json={"action": action, "base": base} | fields)

        players = [*ANNA_AND_CARLA, {"name": "Dora", "colour": "green"}]
        started = act(
            "new_game",
            edition=edition,
            options=options,
            players=players,
            bots=[None, "search", "rules"],
        )
        assert started.status_code == 200, started.get_json()
        bot_steps = 0
        for _ in range(3000):
            game = client.get("/api/state").get_json()["game"]
            if game["phase"] == "over":
                break
            response = act("bot")
            if response.status_code == 200:
                bot_steps += 1
                continue
            assert response.status_code == 409, response.get_json()
            if game["choices"] and game["phase"] != "roll":
                response = act("event", event=game["choices"][0]["event"])
            else:
                response = act("simulate")
            assert response.status_code == 200, (edition, response.get_json())
        assert game["phase"] == "over", edition
        assert bot_steps > 10, edition
