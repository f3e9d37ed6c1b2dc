"""Every route of the page's API, with the bad input each must refuse and the message it gives."""

from __future__ import annotations

import json

import pytest
from playing import play_to

from web import create_app


def state(client):
    return client.get("/api/state").get_json()


def test_page_and_qr_are_served(client):
    page = client.get("/")
    assert page.status_code == 200
    assert b'src="/static/app.js"' in page.data
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    qr = client.get("/qr.svg")
    assert qr.mimetype == "image/svg+xml" and qr.data.startswith(b"<svg")


def test_setup_lists_every_edition_and_option(client):
    data = client.get("/api/setup").get_json()
    assert set(data["editions"]) == {"classic", "custom", "royale", "cards"}
    classic = {o["name"]: o for o in data["editions"]["classic"]}
    assert classic["kickers"]["type"] == "bool"
    assert classic["leftovers"]["choices"] == ["pile", "out"]
    royale = {o["name"]: o for o in data["editions"]["royale"]}
    assert set(royale) == {
        "tiles",
        "leftovers",
        "power_play",
        "money_cards",
        "black_box",
        "fifty_fifty",
        "no_entry",
        "nice_dice",
    }
    # what a box prints is a text setting the form shows with its default filled in
    assert royale["black_box"] == {"name": "black_box", "type": "str", "default": "60 20 20 0 0 0"}
    assert royale["power_play"]["choices"] == ["next", "any"]
    assert "red" in data["colours"] and len(data["patterns"]) >= 8


def test_empty_table_state(client):
    data = state(client)
    assert data["game"] is None and data["version"] == "none"
    assert data["can_undo"] is False and data["you_control"] is True


PLAYERS = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        # an edition the companion does not know
        ({"edition": "poker", "players": PLAYERS}, "edition must be one of"),
        # an option of another edition
        ({"edition": "classic", "options": {"tiles": 3}, "players": PLAYERS}, "no option 'tiles'"),
        # an option of the wrong type
        (
            {"edition": "classic", "options": {"biggies": "yes"}, "players": PLAYERS},
            "biggies must be true or false",
        ),
        # options that are not an object
        ({"edition": "classic", "options": [1], "players": PLAYERS}, "options must be an object"),
        # no players at all
        ({"edition": "classic", "players": []}, "players must be a list"),
        # a player without a name
        (
            {"edition": "classic", "players": [{"name": " ", "colour": "red"}, PLAYERS[1]]},
            "name is 1-24 characters",
        ),
        # a name far too long
        (
            {"edition": "classic", "players": [{"name": "x" * 200, "colour": "red"}, PLAYERS[1]]},
            "name is 1-24 characters",
        ),
        # a colour the reader does not know
        (
            {"edition": "classic", "players": [{"name": "Anna", "colour": "teal"}, PLAYERS[1]]},
            "dice colour must be one of",
        ),
        # two players with one colour
        (
            {"edition": "classic", "players": [PLAYERS[0], {"name": "Ben", "colour": "red"}]},
            "their own dice colour",
        ),
        # white is taken by the neutral dice
        (
            {
                "edition": "classic",
                "options": {"neutral_dice": True},
                "players": [{"name": "Anna", "colour": "white"}, PLAYERS[1]],
            },
            "white dice are the neutral",
        ),
        # purple is taken by the kickers
        (
            {
                "edition": "classic",
                "options": {"kickers": True},
                "players": [{"name": "Anna", "colour": "purple"}, PLAYERS[1]],
            },
            "purple dice are the kickers",
        ),
        # grey is taken by Royale's blank dice
        (
            {
                "edition": "royale",
                "players": [{"name": "Anna", "colour": "grey"}, PLAYERS[1]],
            },
            "grey dice are the blank dice",
        ),
        # the same name twice
        (
            {"edition": "classic", "players": [PLAYERS[0], {"name": "anna", "colour": "blue"}]},
            "distinct",
        ),
        # one player alone
        ({"edition": "classic", "players": [PLAYERS[0]]}, "2-6 players"),
        # a start player who does not exist
        ({"edition": "classic", "players": PLAYERS, "start_player": 5}, "seat 5 does not exist"),
        (
            {"edition": "classic", "players": PLAYERS, "start_player": "Anna"},
            "start_player must be a whole number",
        ),
    ],
)
def test_new_game_refuses_bad_setups(client, act, fields, message):
    response = act("new_game", **fields)
    assert response.status_code == 400
    assert message in response.get_json()["error"]
    assert state(client)["game"] is None  # nothing was started


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ("not json", 400, "send JSON"),  # plain text
        ([1, 2], 400, "an action is a JSON object"),  # JSON, but not an object
        ({"action": "fly"}, 400, "unknown action 'fly'"),  # no such action
        ({"action": "undo", "base": "none"}, 409, "no game is on the table"),
        (
            {"action": "event", "base": "none", "event": {"type": "roll", "regular": [3]}},
            409,
            "no game is on the table",
        ),
    ],
)
def test_malformed_actions_are_refused(client, body, status, message):
    if isinstance(body, str):
        response = client.post("/api/action", data=body)
    else:
        response = client.post(
            "/api/action", data=json.dumps(body), content_type="application/json"
        )
    assert response.status_code == status
    assert message in response.get_json()["error"]


def test_invalid_json_body(client):
    response = client.post("/api/action", data="{bad", content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"] == "the body is not valid JSON"


@pytest.mark.parametrize(
    ("event", "status", "message"),
    [
        ({"type": "teleport"}, 400, "unknown event"),  # no such event
        ({"type": "roll", "regular": "33"}, 400, "list of whole numbers"),  # values as text
        ({"type": "place", "number": "3"}, 400, "number must be 1-6"),
        ({"type": "place", "number": 3, "kicks": [7]}, 400, "malformed event"),
        # well-formed, but the game waits for the deal: the engine names the rule
        ({"type": "roll", "regular": [1, 2, 3, 4, 5, 6, 1, 2]}, 409, "roll"),
        # notes that do not reach the minimum
        ({"type": "deal", "casinos": [[10000]] * 6}, 409, "deal"),
    ],
)
def test_bad_events_change_nothing(client, two_player_game, event, status, message):
    before = state(client)["version"]
    response = two_player_game("event", event=event)
    assert response.status_code == status, response.get_json()
    assert message in response.get_json()["error"]
    assert state(client)["version"] == before


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ([], "non-empty list"),
        ("3 3 5", "dice must be a list"),
        ([{"pips": 7}], "shows 1-6"),
        ([{"pips": True}], "shows 1-6"),
        ([{"pips": 3, "kind": "golden"}], "kind must be one of"),
        ([3], "each die is an object"),
    ],
)
def test_bad_hand_entered_rolls(client, two_player_game, dice, message):
    two_player_game("simulate")  # the deal
    response = two_player_game("roll", dice=dice)
    assert response.status_code == 400
    assert message in response.get_json()["error"]


def test_a_roll_with_too_few_dice_names_the_rule(client, two_player_game):
    two_player_game("simulate")
    response = two_player_game("roll", dice=[{"pips": 3, "kind": "regular"}])
    assert response.status_code == 409
    assert response.get_json()["rule"] == "roll all your dice"
    assert "holds 8 regular dice but the roll shows 1" in response.get_json()["error"]


def test_stale_action_is_refused_not_applied_twice(client, two_player_game):
    two_player_game("simulate")
    base = state(client)["version"]
    roll = {"action": "roll", "base": base, "dice": [{"pips": 4}] * 8}
    first = client.post("/api/action", json=roll)
    second = client.post("/api/action", json=roll)  # a second tablet, same tap, same moment
    assert first.status_code == 200
    assert second.status_code == 409
    assert "the table changed since this page was drawn" in second.get_json()["error"]
    assert second.get_json()["why"] == {"key": "stale"}  # for the page to word in its language
    game = state(client)["game"]
    assert game["phase"] == "choose" and game["roll"]["regular"] == [4] * 8


def test_manual_roll_then_one_tap_choice_then_undo_and_redo(client, two_player_game):
    two_player_game("simulate")
    assert (
        two_player_game("roll", dice=[{"pips": p} for p in (1, 1, 2, 3, 3, 3, 6, 6)]).status_code
        == 200
    )
    game = state(client)["game"]
    assert [g["number"] for g in game["roll"]["groups"]] == [1, 2, 3, 6]
    three = next(c["event"] for c in game["choices"] if c["event"]["number"] == 3)
    assert two_player_game("event", event=three).status_code == 200
    casino3 = state(client)["game"]["casinos"][2]
    assert casino3["owners"][0]["name"] == "Anna" and casino3["owners"][0]["dice"] == 3
    assert casino3["leader"] == 0
    assert two_player_game("undo").status_code == 200
    assert state(client)["game"]["phase"] == "choose"
    assert state(client)["can_redo"] is True
    assert two_player_game("redo").status_code == 200
    assert state(client)["game"]["casinos"][2]["owners"][0]["dice"] == 3
    response = two_player_game("redo")
    assert response.status_code == 409 and "nothing to redo" in response.get_json()["error"]
    response = two_player_game("undo", steps=99)
    assert (
        response.status_code == 409 and "only 3 steps can be undone" in response.get_json()["error"]
    )


def test_ties_are_shown_while_playing(client, two_player_game):
    two_player_game("simulate")
    two_player_game("roll", dice=[{"pips": 5}] * 2 + [{"pips": 1}] * 6)
    two_player_game("event", event={"type": "place", "number": 5})
    two_player_game("roll", dice=[{"pips": 5}] * 2 + [{"pips": 2}] * 6)
    two_player_game("event", event={"type": "place", "number": 5})
    casino5 = state(client)["game"]["casinos"][4]
    assert casino5["tied"] == [[0, 1]] and casino5["leader"] is None


def test_whole_game_then_record_download_and_import(client, two_player_game):
    game = play_to(client, two_player_game, "over")
    assert game["result"]["winners"] and len(game["payouts"]) == 4
    game_id = state(client)["game_id"]
    record = client.get(f"/api/games/{game_id}/record")
    assert record.status_code == 200
    assert "attachment" in record.headers["Content-Disposition"]
    data = json.loads(record.data)
    imported = client.post("/api/games/import", json=data)
    assert imported.status_code == 201
    games = client.get("/api/games").get_json()
    assert [g["game_id"] for g in games] == [imported.get_json()["game_id"], game_id]
    assert all(g["finished"] for g in games)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"format": "nonsense"}, "the record was refused"),
        ([1, 2, 3], "the record was refused"),
    ],
)
def test_import_refuses_bad_records(client, record, message):
    response = client.post("/api/games/import", json=record)
    assert response.status_code == 400 and message in response.get_json()["error"]
    assert client.get("/api/games").get_json() == []


def test_import_of_a_file_that_is_not_json(client):
    import io

    response = client.post(
        "/api/games/import",
        data={"record": (io.BytesIO(b"\x89PNG"), "x.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 400
    assert response.get_json()["error"] == "the file is not a JSON game record"


def test_record_of_a_missing_game(client):
    response = client.get("/api/games/42/record")
    assert response.status_code == 404 and "holds no game 42" in response.get_json()["error"]


def test_open_game_checks_its_input(client, two_player_game):
    assert two_player_game("open_game", game_id="1").status_code == 400
    response = two_player_game("open_game", game_id=9)
    assert response.status_code == 404 and "no game 9" in response.get_json()["error"]
    assert two_player_game("open_game", game_id=1).status_code == 200


def test_unknown_api_route_and_method_give_json(client):
    assert client.get("/api/nothing").status_code == 404
    response = client.get("/api/action")
    assert response.status_code == 405 and "error" in response.get_json()


def test_no_camera_means_no_preview_and_no_simulated_table(client, two_player_game):
    response = client.get("/video.mjpg")
    assert response.status_code == 404 and "no camera" in response.get_json()["error"]
    two_player_game("simulate")
    response = two_player_game("sim_throw")
    assert response.status_code == 409 and "no simulated table" in response.get_json()["error"]
    assert two_player_game("sim_take", pips=9).status_code == 400


def test_calibration_and_zones_need_a_picture(client, two_player_game):
    response = two_player_game("calibrate")
    assert response.status_code == 409 and "no picture" in response.get_json()["error"]
    assert response.get_json()["why"] == {"key": "no_picture"}
    assert two_player_game("zones", mode="sideways").status_code == 400
    response = two_player_game(
        "zones", mode="corners", corners={"kitchen": [[0, 0], [1, 0], [1, 1]]}
    )
    assert response.status_code == 400 and "unknown zone 'kitchen'" in response.get_json()["error"]
    ok = two_player_game(
        "zones", mode="corners", corners={"arena": [[0, 0], [600, 0], [600, 400], [0, 400]]}
    )
    assert ok.status_code == 200 and state(client)["zones"] == ["arena"]


def test_saved_zones_keep_the_sheets_markers_and_printed_names():
    import cv2
    import numpy as np

    from vision.zones import detect_zones, marker_sheet
    from web.setup import zones_from_json, zones_to_json

    sheet = cv2.resize(marker_sheet(), (1280, 905), interpolation=cv2.INTER_AREA)
    zones = detect_zones(cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR))
    saved = json.loads(json.dumps(zones_to_json(zones)))
    again = zones_from_json(saved)
    assert again is not None and again.names == zones.names
    assert len(again.labels) == len(zones.labels) == 8
    for before, after in zip(
        zones.labels + zones.markers, again.labels + again.markers, strict=True
    ):
        assert np.allclose(before, after)
    del saved["labels"]  # zones saved before the names were known still load
    older = zones_from_json(saved)
    assert older is not None and older.labels == () and len(older.markers) == 32


def test_restart_comes_back_to_the_same_game(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    first = create_app({"DB": db, "SEED": 1}).test_client()
    base = first.get("/api/state").get_json()["version"]
    first.post(
        "/api/action",
        json={"action": "new_game", "base": base, "edition": "classic", "players": PLAYERS},
    )
    base = first.get("/api/state").get_json()["version"]
    first.post("/api/action", json={"action": "simulate", "base": base})
    before = first.get("/api/state").get_json()
    again = create_app({"DB": db, "SEED": 1}).test_client().get("/api/state").get_json()
    assert again["version"] == before["version"]
    assert again["game"] == before["game"]


def test_a_broken_game_file_is_refused_and_left_untouched(tmp_path):
    from companion.session import SessionError

    db = tmp_path / "broken.sqlite3"
    db.write_bytes(b"this is not a database" * 100)
    with pytest.raises(SessionError, match="not a readable game file"):
        create_app({"DB": str(db)})
    assert db.read_bytes() == b"this is not a database" * 100


EDITION_GAMES = [
    # every 2012 variant at once, three players (white start dice, kickers, slot machine ...)
    (
        "classic",
        {
            "neutral_dice": True,
            "min_money_by_players": True,
            "big_notes": True,
            "biggies": True,
            "kickers": True,
            "rainbow": True,
            "slot_machine": True,
            "chip_cards": True,
        },
        3,
    ),
    ("custom", {"skip_rule": "chips"}, 4),
    ("royale", {}, 2),  # the 2-player variant with the neutral set
    ("royale", {"tiles": 6}, 3),  # the main game with a tile at every casino
    ("cards", {"sequential": True, "chip_cards": True}, 3),
]


@pytest.mark.parametrize(("edition", "options", "players"), EDITION_GAMES)
def test_every_edition_plays_to_the_end_through_the_api(client, act, edition, options, players):
    colours = ["red", "blue", "green", "yellow"]
    response = act(
        "new_game",
        edition=edition,
        options=options,
        players=[{"name": f"P{i}", "colour": colours[i]} for i in range(players)],
    )
    assert response.status_code == 200, response.get_json()
    for step in range(3000):
        game = state(client)["game"]
        if game["phase"] == "over":
            break
        if game["phase"] == "cards" and step % 2:
            response = act("event", event={"type": "cards", "cards": [[1 + step % 6, 1]]})
        elif game["choices"] and game["phase"] != "roll":
            response = act("event", event=game["choices"][step % len(game["choices"])]["event"])
        else:
            response = act("simulate")
        assert response.status_code == 200, (game["phase"], response.get_json())
    assert game["phase"] == "over" and game["result"]["winners"]
    assert len(game["payouts"]) == game["rounds"]
