"""Host and Origin checks: no DNS rebinding, no cross-site change of the table."""

from __future__ import annotations

import io
import socket

import pytest

from web import create_app
from web.config import ConfigError, load_config

ME = socket.gethostname().lower().split(".")[0]


@pytest.fixture
def named_app(tmp_path):
    return create_app({"DB": str(tmp_path / "t.sqlite3"), "ALLOWED_HOSTS": ["table.home"]})


@pytest.mark.parametrize(
    "host",
    [
        "localhost",
        "localhost:8000",
        "127.0.0.1:8000",
        "192.168.1.20:8000",  # the LAN address
        "[::1]:8000",
        "[fe80::1]",
        ME,
        f"{ME}.local:8000",
        "table.home:8000",  # configured
        "TABLE.home",
    ],
)
def test_the_servers_own_names_and_addresses_are_answered(named_app, host):
    client = named_app.test_client()
    assert client.get("/api/state", headers={"Host": host}).status_code == 200
    assert client.get("/api/state", headers={"Host": "evil.example"}).status_code == 403


@pytest.mark.parametrize(
    ("method", "route"),
    [
        ("GET", "/"),
        ("GET", "/api/state"),  # rebinding reads the table
        ("GET", "/api/events"),
        ("GET", "/api/games"),
        ("POST", "/api/action"),
        ("POST", "/api/control"),
        ("POST", "/api/games/import"),
    ],
)
@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:8000", "localhost.evil", "1.2.3.4.nip.io"]
)
def test_a_name_the_server_does_not_have_is_refused(named_app, method, route, host):
    response = named_app.test_client().open(
        route, method=method, headers={"Host": host}, json={"action": "new_game"}
    )
    assert response.status_code == 403
    assert "does not answer to the name" in response.get_json()["error"]


def test_a_name_is_answered_only_where_configured(app):
    response = app.test_client().get("/api/state", headers={"Host": "table.home"})
    assert response.status_code == 403


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},  # a sandboxed page, or one that hides where it comes from
        {"Origin": "http://localhost:3000"},  # another port is another site
        {"Origin": "http://192.168.1.66"},  # another machine on the network
        {"Referer": "http://evil.example/page.html"},  # no Origin: the Referer says it
        {"Sec-Fetch-Site": "cross-site"},
        {"Origin": "http://evil.example", "Referer": "http://localhost/"},
    ],
)
def test_a_page_of_another_site_cannot_change_the_table(app, client, headers):
    response = client.post(
        "/api/action", json={"action": "zones", "mode": "clear"}, headers=headers
    )
    assert response.status_code == 403 and "another site" in response.get_json()["error"]
    upload = {"record": (io.BytesIO(b'{"format": "lasvegas-record/1"}'), "game.json")}
    response = client.post(
        "/api/games/import", data=upload, content_type="multipart/form-data", headers=headers
    )
    assert response.status_code == 403
    assert client.get("/api/games").get_json() == []


@pytest.mark.parametrize(
    ("host", "origin"),
    [
        ("localhost", "http://localhost"),
        ("localhost:80", "http://localhost"),
        ("127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("192.168.1.20:8000", "http://table.home:8000"),  # a configured name of this server
        ("192.168.1.20:8000", "https://table.home"),  # ... with any port
        ("table.home", "https://table.home"),  # through a proxy that serves https
        (f"{ME}.local:8000", f"http://{ME}:8000"),  # another name of this machine
        ("[::1]:8000", "http://[::1]:8000"),
    ],
)
def test_the_page_itself_may_change_the_table(named_app, host, origin):
    client = named_app.test_client()

    def clear_zones(origin: str) -> int:
        headers = {"Host": host, "Origin": origin}
        body = {"action": "zones", "mode": "clear"}
        return client.post("/api/action", json=body, headers=headers).status_code

    assert clear_zones(origin) == 200
    assert clear_zones("http://evil.example") == 403  # while another site may not


def test_pages_send_their_origin_to_their_own_server(client):
    assert client.get("/").headers["Referrer-Policy"] == "same-origin"


def test_allowed_hosts_in_the_configuration_file(tmp_path):
    path = tmp_path / "lasvegas.toml"
    path.write_text('allowed_hosts = ["table.home", "vegas.fritz.box"]\n')
    assert load_config(path, {}).allowed_hosts == ("table.home", "vegas.fritz.box")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('allowed_hosts = "table.home"', "allowed_hosts must be a list of names"),
        ('allowed_hosts = ["evil/x"]', "allowed_hosts lists host names"),
        ('allowed_hosts = [""]', "allowed_hosts lists host names"),
    ],
)
def test_bad_allowed_hosts_are_refused(tmp_path, text, message):
    path = tmp_path / "lasvegas.toml"
    path.write_text(text + "\n")
    with pytest.raises(ConfigError, match=message):
        load_config(path, {})
