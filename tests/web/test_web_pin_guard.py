"""PIN guessing is slowed per client and over the whole table; the table's tablet gets in."""

from __future__ import annotations

import pytest

from web import create_app
from web.pin_guard import (
    FREE_TRIES,
    LONGEST_WAIT_S,
    TABLE_FREE_TRIES,
    TABLE_WAIT_PER_CLIENT_S,
    PinGuard,
)

PIN = "2468"
TABLET = "192.168.1.20"
GUESSER = "192.168.1.66"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def guard(clock):
    return PinGuard(clock)


def test_a_client_waits_longer_after_each_wrong_pin_beyond_the_free_ones(guard, clock):
    waits = []
    for _ in range(FREE_TRIES + 12):
        waits.append(guard.wait_s(GUESSER))
        clock.now += waits[-1]
        guard.wrong(GUESSER)
    assert waits[:FREE_TRIES] == [0.0] * FREE_TRIES
    assert waits[FREE_TRIES : FREE_TRIES + 4] == [1.0, 2.0, 4.0, 8.0]
    assert max(waits) == LONGEST_WAIT_S  # locked out, but for a bounded time
    assert guard.wait_s(TABLET) == 0.0  # another client is not held by it


def test_one_client_guessing_fast_gets_few_pins_checked(guard, clock):
    checked = 0
    for _ in range(10_000):  # 10,000 tries within ten simulated seconds
        clock.now += 0.001
        if guard.wait_s(GUESSER) == 0:
            checked += 1
            guard.wrong(GUESSER)
    assert checked == FREE_TRIES + 3  # after 1, 2 and 4 s; the next waits 8 s


def test_guessing_from_many_addresses_slows_every_new_client(guard, clock):
    for n in range(TABLE_FREE_TRIES):
        guard.wrong(f"192.168.1.{100 + n}")
    first = guard.wait_s(TABLET)
    assert first == TABLE_WAIT_PER_CLIENT_S * TABLE_FREE_TRIES  # one wait per guessing client
    assert guard.wait_s(TABLET) == first  # asking again does not move the wait back
    clock.now += first
    assert guard.wait_s(TABLET) == 0.0  # after the wait, its PIN is checked


def test_an_address_that_knew_the_pin_never_waits_until_it_guesses_wrong(guard, clock):
    guard.right(TABLET)
    for n in range(3 * TABLE_FREE_TRIES):
        guard.wrong(f"192.168.1.{100 + n}")
    assert guard.wait_s(TABLET) == 0.0
    assert guard.wait_s("192.168.1.250") > 0
    guard.wrong(TABLET)  # a typo: from now on it is held like any other client
    assert guard.wait_s(TABLET) > 0


def test_a_tablet_in_a_guessers_ipv6_network_is_not_held_once_it_knew_the_pin(guard):
    tablet, guesser = "2001:db8:1:2::20", "2001:db8:1:2::66"
    guard.right(tablet)
    for _ in range(FREE_TRIES + 1):
        guard.wrong(guesser)
    assert guard.wait_s(guesser) > 0
    assert guard.wait_s(tablet) == 0.0


def test_addresses_of_one_ipv6_network_are_one_client(guard):
    for n in range(FREE_TRIES):
        guard.wrong(f"2001:db8:1:2::{n + 1}")
    assert guard.wait_s("2001:db8:1:2::abcd") == 1.0
    assert guard.wait_s("2001:db8:1:3::1") == 0.0


def test_wrong_pins_are_forgotten_after_a_quiet_hour(guard, clock):
    for _ in range(FREE_TRIES + 5):
        clock.now += guard.wait_s(GUESSER)
        guard.wrong(GUESSER)
    clock.now += 3601
    assert guard.wait_s(GUESSER) == 0.0
    guard.wrong(GUESSER)
    assert guard.wait_s(GUESSER) == 0.0  # its count started again


@pytest.fixture
def app(tmp_path, clock):
    app = create_app({"DB": str(tmp_path / "pin.sqlite3"), "PIN": PIN})
    app.extensions["hub"].pin_guard = PinGuard(clock)
    return app


def try_pin(app, pin, address):
    return app.test_client().post(
        "/api/control", json={"pin": pin}, environ_base={"REMOTE_ADDR": address}
    )


def test_a_locked_guesser_is_refused_even_the_right_pin(app):
    statuses = [try_pin(app, f"{n:04d}", GUESSER).status_code for n in range(20)]
    assert statuses == [403] * FREE_TRIES + [429] * (20 - FREE_TRIES)
    response = try_pin(app, PIN, GUESSER)
    assert response.status_code == 429
    assert response.get_json()["why"] == {"key": "pin_wait", "seconds": 1}
    assert app.test_client().get("/api/state").get_json()["controller"] is None


def test_the_tablet_takes_control_while_a_guesser_is_locked(app):
    for n in range(10):
        try_pin(app, f"{n:04d}", GUESSER)
    assert try_pin(app, PIN, GUESSER).status_code == 429
    assert try_pin(app, PIN, TABLET).status_code == 200


def test_under_guessing_from_many_addresses_the_tablet_gets_in_after_the_wait(app, clock):
    for n in range(TABLE_FREE_TRIES):
        try_pin(app, "0000", f"192.168.1.{100 + n}")
    refused = try_pin(app, PIN, TABLET)
    assert refused.status_code == 429
    clock.now += refused.get_json()["why"]["seconds"]
    assert try_pin(app, PIN, TABLET).status_code == 200


def test_every_page_is_told_of_wrong_pins_until_the_right_one(app):
    viewer = app.test_client()
    assert viewer.get("/api/state").get_json()["pin_alert"] is None
    try_pin(app, "1111", GUESSER)
    try_pin(app, "2222", GUESSER)
    alert = viewer.get("/api/state").get_json()["pin_alert"]
    assert alert == {"wrong": 2, "client": GUESSER}
    try_pin(app, PIN, TABLET)
    assert viewer.get("/api/state").get_json()["pin_alert"] is None
