"""The light the camera judges from the rolls reaches the page, until the table is calibrated."""

from __future__ import annotations

import time

from vision.simtable import SimDie, SimulatedTable
from web import create_app
from web.resources import start_camera


def _polled(client, key, ready, timeout=15.0):
    """The part `key` of the page's state once `ready` says so."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        part = client.get("/api/state").get_json()[key]
        if ready(part):
            return part
        time.sleep(0.05)
    raise AssertionError(f"the page's {key} never got there: {part}")


def _camera_state(client, ready):
    return _polled(client, "camera", ready)


def _camera_under(app, lamp_bgr):
    """The simulated table under a lamp, and the app's camera reading it."""
    table = SimulatedTable(seed=5, lamp_bgr=lamp_bgr)
    camera = start_camera(
        app,
        app.extensions["hub"],
        "sim",
        lambda: table,
        active_fps=50,
        idle_fps=50,
        status_every_s=0.1,
    )
    return table, camera


def _pink_and_red_game(client, act):
    """Once the camera reads, a classic game of Anna (pink) and Ben (red), the money dealt:
    Anna rolls."""
    _camera_state(client, lambda c: c["state"] == "ok")
    players = [{"name": "Anna", "colour": "pink"}, {"name": "Ben", "colour": "red"}]
    assert act("new_game", edition="classic", options={}, players=players).status_code == 200
    assert act("simulate").status_code == 200


def test_the_page_is_told_the_light_judged_from_the_rolls(app, client, act):
    table, camera = _camera_under(app, (0.72, 1.0, 1.25))  # a warm lamp
    try:
        _camera_state(client, lambda c: c["state"] == "ok")
        players = [{"name": "Anna", "colour": "pink"}, {"name": "Ben", "colour": "red"}]
        started = act("new_game", edition="classic", players=players)
        assert started.status_code == 200, started.get_json()
        assert _camera_state(client, lambda c: True)["light"] is None  # no roll seen yet
        table.throw([SimDie("pink", p) for p in (1, 3, 5, 6)])
        judged = _camera_state(client, lambda c: c.get("light") is not None)
        # Warm, and maybe dim: the lamp clips the pink dice's red, so they look darker too.
        assert "warm" in judged["light"] and judged["light_dice"] == 4
    finally:
        camera.stop()


def test_a_first_roll_under_a_warm_lamp_asks_its_colours_and_later_rolls_are_applied(
    app, client, act
):
    # Before any roll has judged the light, the lamp's cast is judged from the one roll alone:
    # a colour that only that judgement names surely is asked about, not applied. Once the
    # light is judged from the settled rolls, the next roll's colours are sure.
    table, camera = _camera_under(app, (0.65, 1.0, 1.3))  # a strong warm bulb
    try:
        _pink_and_red_game(client, act)
        table.throw([SimDie("pink", p) for p in (1, 1, 2, 3, 4, 5, 6, 6)])
        first = _polled(client, "reading", lambda r: r is not None)
        assert first["roll"] is None  # asked, not applied
        assert [d["colour"] for d in first["dice"]] == ["pink"] * 8
        assert any((d["why"] or {}).get("key") == "colour_doubt" for d in first["dice"])
        _camera_state(client, lambda c: c.get("light") is not None)
        table.clear()  # the flagged throw swept away
        _polled(client, "reading", lambda r: r is None)
        table.throw([SimDie("pink", p) for p in (2, 2, 3, 3, 4, 5, 6, 6)])
        again = _polled(client, "reading", lambda r: r is not None)
        assert again["roll"] is not None and not any(d["why"] for d in again["dice"])
        assert client.get("/api/state").get_json()["game"]["phase"] == "choose"
    finally:
        camera.stop()


def _roll_applied(client, act, colour, pips, table):
    """Throw `pips` dice of `colour`; where the page asks about them, enter the roll by hand as
    a player would. The reading the page showed first."""
    table.throw([SimDie(colour, p) for p in pips])
    reading = _polled(client, "reading", lambda r: r is not None)
    if reading["roll"] is None:
        entered = act("roll", dice=[{"pips": p} for p in pips])
        assert entered.status_code == 200, entered.get_json()
    assert client.get("/api/state").get_json()["game"]["phase"] == "choose"
    return reading


def _placed_and_swept(client, act, number, table):
    assert act("event", event={"type": "place", "number": number}).status_code == 200
    table.clear()
    _polled(client, "reading", lambda r: r is None)


def test_the_rolls_applied_teach_the_camera_the_colours_and_the_page_says_so(app, client, act):
    # Each roll applied, read for sure or entered by hand, tells the camera its dice's colours:
    # the camera names each colour from its own dice once it was rolled, and the page says
    # which colours it learnt; once every colour rolled in the game was seen, as after
    # calibration.
    table, camera = _camera_under(app, (0.65, 1.0, 1.3))  # a strong warm bulb
    try:
        _pink_and_red_game(client, act)
        assert _camera_state(client, lambda c: True)["colours_learnt"] == []
        first = _roll_applied(client, act, "pink", (1, 1, 2, 3, 4, 5, 6, 6), table)
        assert first["roll"] is None  # the first roll is asked about, then entered by hand
        learnt = _camera_state(client, lambda c: c["colours_learnt"] == ["pink"])
        assert not learnt["every_colour_learnt"]  # red not rolled yet
        config = camera.with_learnt_colours(app.extensions["hub"].reader_config())
        assert config.learnt_colours is not None and "red" in config.learnt_colours.guessed
        _placed_and_swept(client, act, 6, table)
        _roll_applied(client, act, "red", (1, 2, 2, 3, 4, 5, 5, 6), table)
        learnt = _camera_state(client, lambda c: sorted(c["colours_learnt"]) == ["pink", "red"])
        assert learnt["every_colour_learnt"]
        config = camera.with_learnt_colours(app.extensions["hub"].reader_config())
        assert config.palette.reference_bgr is not None and config.learnt_colours is None
        _placed_and_swept(client, act, 5, table)
        again = _roll_applied(client, act, "pink", (1, 2, 3, 3, 4, 5), table)
        assert again["roll"] is not None and not any(d["why"] for d in again["dice"])
    finally:
        camera.stop()


def test_the_colours_learnt_outlast_a_restart_of_the_server(app, client, act):
    # A Pi restarted in the middle of a game reads with the colours learnt before: its first
    # roll after the restart is applied, not asked about as the evening's first roll is.
    table, camera = _camera_under(app, (0.65, 1.0, 1.3))  # a strong warm bulb
    try:
        _pink_and_red_game(client, act)
        _roll_applied(client, act, "pink", (1, 1, 2, 3, 4, 5, 6, 6), table)
        _placed_and_swept(client, act, 6, table)
        _roll_applied(client, act, "red", (1, 2, 2, 3, 4, 5, 5, 6), table)
        _camera_state(client, lambda c: c["colours_learnt"])
        _placed_and_swept(client, act, 5, table)
    finally:
        camera.stop()
    restarted = create_app({"DB": app.config["DB"], "SEED": 7, "TESTING": True})
    client = restarted.test_client()
    table, camera = _camera_under(restarted, (0.65, 1.0, 1.3))
    try:
        learnt = _camera_state(client, lambda c: c["state"] == "ok" and c["colours_learnt"])
        assert sorted(learnt["colours_learnt"]) == ["pink", "red"]
        table.throw([SimDie("pink", p) for p in (1, 2, 3, 3, 4, 5)])
        again = _polled(client, "reading", lambda r: r is not None)
        assert again["roll"] is not None and not any(d["why"] for d in again["dice"])
    finally:
        camera.stop()
