"""Slows PIN guessing down per client and over the whole table, without locking the table's
own tablet out for good (docs/web.md, "Guessing the PIN", says why it works this way)."""

from __future__ import annotations

import ipaddress
import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

FREE_TRIES = 3
"""Wrong PINs a client may enter at once: enough for a player's typos."""

LONGEST_WAIT_S = 600.0
"""The longest a client is ever made to wait: a lock-out that ends by itself."""

WINDOW_S = 600.0
"""How far back wrong PINs count towards the whole table's guessing."""

TABLE_FREE_TRIES = 10
"""Wrong PINs from the whole table within the window before every new client is slowed too."""

TABLE_WAIT_PER_CLIENT_S = 5.0
"""Under guessing, each client waits this long for each client that guessed wrong in the
window: many addresses together get one PIN checked per this many seconds, as one would
(until the waits reach `LONGEST_WAIT_S`)."""

FORGET_S = 3600.0
"""A client's wrong PINs are forgotten this long after its last one."""

MAX_CLIENTS = 4096
"""Clients remembered at most; the longest-quiet ones are forgotten first."""


@dataclass
class _Client:
    wrong: int = 0
    last: float = -math.inf


def client_key(address: str) -> str:
    """The client a remote address stands for: an IPv6 address's /64 network (one machine
    can hold many addresses in it), otherwise the address itself."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class PinGuard:
    """Who may have a PIN checked now, and how long the others must wait.

    A client's own wait doubles with each wrong PIN after `FREE_TRIES`, up to
    `LONGEST_WAIT_S`. Once the table has seen `TABLE_FREE_TRIES` wrong PINs within
    `WINDOW_S`, every other client also waits between tries, longer the more clients are
    guessing; one that tries for the first time then is told to wait first. An address that
    entered the right PIN, and no wrong one since, never waits: the table's own tablet.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._clients: dict[str, _Client] = {}
        self._trusted: set[str] = set()
        self._recent: deque[tuple[float, str]] = deque(maxlen=MAX_CLIENTS)

    def wait_s(self, address: str) -> float:
        """Seconds this client must still wait before its PIN is checked (0: check it now)."""
        if address in self._trusted:
            return 0.0
        now = self.clock()
        key = client_key(address)
        client = self._clients.get(key)
        if client is not None and client.last < now - FORGET_S:
            del self._clients[key]
            client = None
        own = 0.0
        if client is not None and client.wrong >= FREE_TRIES:
            own = client.last + min(2.0 ** (client.wrong - FREE_TRIES), LONGEST_WAIT_S) - now
        guessers = self._guessers(now)
        if guessers is None:
            return max(own, 0.0)
        table_wait = min(TABLE_WAIT_PER_CLIENT_S * max(guessers, 1), LONGEST_WAIT_S)
        if client is None:
            self._remember(key, _Client(last=now))  # its wait starts with this first try
            return table_wait
        return max(own, client.last + table_wait - now, 0.0)

    def wrong(self, address: str) -> int:
        """Count a wrong PIN from this client; how many it has entered since its last right one."""
        self._trusted.discard(address)
        now = self.clock()
        key = client_key(address)
        client = self._clients.pop(key, None) or _Client()
        client.wrong += 1
        client.last = now
        self._remember(key, client)
        self._recent.append((now, key))
        return client.wrong

    def right(self, address: str) -> None:
        """The client entered the right PIN: its count starts again and the address is trusted."""
        self._clients.pop(client_key(address), None)
        if len(self._trusted) < MAX_CLIENTS:
            self._trusted.add(address)

    def _guessers(self, now: float) -> int | None:
        """How many clients guessed wrong in the window, or None while the table is below
        `TABLE_FREE_TRIES` wrong PINs."""
        while self._recent and self._recent[0][0] < now - WINDOW_S:
            self._recent.popleft()
        if len(self._recent) < TABLE_FREE_TRIES:
            return None
        return len({key for _, key in self._recent})

    def _remember(self, key: str, client: _Client) -> None:
        """Keep a client, forgetting the quiet ones when too many are kept (newest last)."""
        self._clients[key] = client
        if len(self._clients) > MAX_CLIENTS:
            now = self.clock()
            for old in [k for k, c in self._clients.items() if c.last < now - FORGET_S]:
                del self._clients[old]
            while len(self._clients) > MAX_CLIENTS:
                del self._clients[next(iter(self._clients))]
