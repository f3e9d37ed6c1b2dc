"""The server under load: many open live streams while a whole game is played through the API.

Starts `lasvegas serve --camera sim` as its own process on 127.0.0.1 with a fresh game file,
opens 4 camera previews (/video.mjpg) and 50 live-update streams (/api/events) and plays
2,000 actions of real games through /api/action, then opens 100 streams and plays more, and
at the end holds the previews open for a minute. For every action it times the push's
arrival on every open stream, and it samples the server's resident memory as it goes.
Prints median, 95th percentile and worst action-to-push latency, requests that got no answer,
and the memory over time. All traffic goes to 127.0.0.1.

Run: python benchmarks/server_load.py [--streams 50 100] [--actions 2000 300] [--previews 4] [--preview-seconds 60]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ANSWER_S = 10.0
"""How long a request may take before it counts as not answered."""

SEQ = re.compile(rb'data: \{"type":"(?:full|patch)","seq":(\d+)')


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def memory_now(pid: int) -> str:
    """Resident memory of the server, in words."""
    return f"{rss_mb(pid):.0f} MB"


def cpu_share(pid: int, seconds: float) -> float:
    """The share of one core a process used over the next `seconds`."""

    def used() -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    before, start = used(), time.perf_counter()
    time.sleep(seconds)
    return (used() - before) / (time.perf_counter() - start)


def request(port: int, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    """One request on its own connection; (status, JSON body). Raises TimeoutError after
    ANSWER_S seconds without an answer."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=ANSWER_S)
    try:
        conn.request(
            method,
            path,
            None if body is None else json.dumps(body),
            {"Content-Type": "application/json"},
        )
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        conn.close()


class Streams(threading.Thread):
    """Open /api/events streams, read by one thread; notes when each stream saw each push."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.selector = selectors.DefaultSelector()
        self.lock = threading.Condition()
        self.latest: dict[socket.socket, int] = {}  # the last seq each stream received
        self.arrived: dict[socket.socket, dict[int, float]] = {}
        self.tail: dict[socket.socket, bytes] = {}
        self.previews: dict[socket.socket, int] = {}  # bytes each preview received
        self.refused = 0
        self.ended = 0
        self.stopping = False
        self.start()

    def open(self, count: int, timeout: float = ANSWER_S) -> int:
        """Open `count` streams; how many got their first full state within `timeout`."""
        before = len(self.latest)
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            sock.setblocking(False)
            with self.lock:
                self.arrived[sock] = {}
                self.tail[sock] = b""
            self.selector.register(sock, selectors.EVENT_READ)
        deadline = time.monotonic() + timeout
        with self.lock:
            self.lock.wait_for(
                lambda: len(self.latest) - before + self.refused >= count,
                max(0.0, deadline - time.monotonic()),
            )
            return len(self.latest) - before

    def open_previews(self, count: int) -> None:
        """Open `count` camera previews (/video.mjpg); their pictures are read and dropped."""
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            sock.sendall(b"GET /video.mjpg HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            sock.setblocking(False)
            with self.lock:
                self.previews[sock] = 0
            self.selector.register(sock, selectors.EVENT_READ)

    def preview_mb(self) -> float:
        """MB the previews have received so far."""
        with self.lock:
            return sum(self.previews.values()) / 1e6

    def run(self) -> None:
        while not self.stopping:
            for key, _ in self.selector.select(timeout=0.2):
                self._read(key.fileobj)  # type: ignore[arg-type]

    def _read(self, sock: socket.socket) -> None:
        now = time.perf_counter()
        try:
            data = sock.recv(1 << 16)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        with self.lock:
            if sock in self.previews:
                self.previews[sock] += len(data)
                if not data:
                    self.selector.unregister(sock)
                return
            if not data:
                self.selector.unregister(sock)
                self.ended += 1
                self.latest.pop(sock, None)
                sock.close()
                self.lock.notify_all()
                return
            text = self.tail[sock] + data
            if text.startswith(b"HTTP/1.1 503"):
                self.refused += 1
            for match in SEQ.finditer(text):
                seq = int(match.group(1))
                self.arrived[sock].setdefault(seq, now)
                self.latest[sock] = max(seq, self.latest.get(sock, -1))
            self.tail[sock] = text[-200:]
            self.lock.notify_all()

    def marks(self) -> dict[socket.socket, int]:
        """Each open stream's last seq now."""
        with self.lock:
            return dict(self.latest)

    def wait_push(self, marks: dict[socket.socket, int], sent: float) -> list[float]:
        """Milliseconds from `sent` to the first push after `marks` on each stream (that stayed
        open); a stream that got none within ANSWER_S counts as ANSWER_S."""
        with self.lock:
            self.lock.wait_for(
                lambda: all(self.latest.get(s, 1 << 60) > m for s, m in marks.items()),
                ANSWER_S,
            )
            samples = []
            for sock, mark in marks.items():
                times = [t for seq, t in self.arrived[sock].items() if seq > mark]
                samples.append((min(times) - sent) * 1000 if times else ANSWER_S * 1000)
                self.arrived[sock] = {}
            return samples

    def close(self) -> None:
        self.stopping = True
        self.join(2)
        for sock in [*self.arrived, *self.previews]:
            sock.close()


class Player:
    """Plays games through /api/action: the first choice offered, or chance where chance acts."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.unanswered = 0
        self.games = 0

    def next_action(self) -> dict:
        status, state = request(self.port, "GET", "/api/state")
        game = state.get("game")
        base = state["version"]
        if game is None or game["phase"] == "over":
            self.games += 1
            players = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
            return {"action": "new_game", "base": base, "edition": "classic", "players": players}
        if game["choices"] and game["phase"] != "roll":
            return {"action": "event", "base": base, "event": game["choices"][0]["event"]}
        return {"action": "simulate", "base": base}


def play(port: int, streams: Streams, player: Player, actions: int, pid: int, label: str):
    """Play `actions` actions; per-arrival latencies (ms), action answer times, memory samples."""
    latencies: list[float] = []
    answers: list[float] = []
    memory = [(0, memory_now(pid))]
    every = max(1, actions // 8)
    for i in range(1, actions + 1):
        try:
            action = player.next_action()
            marks = streams.marks()
            sent = time.perf_counter()
            status, body = request(port, "POST", "/api/action", action)
            answers.append((time.perf_counter() - sent) * 1000)
        except (TimeoutError, OSError) as error:
            player.unanswered += 1
            print(f"  {label}: action {i} got no answer ({error})", flush=True)
            if player.unanswered >= 3:
                print(f"  {label}: giving up after 3 unanswered requests", flush=True)
                break
            continue
        if status != 200:
            raise SystemExit(f"action refused: {status} {body}")
        latencies.extend(streams.wait_push(marks, sent))
        if i % every == 0:
            memory.append((i, memory_now(pid)))
    return latencies, answers, memory


def figures(name: str, values: list[float]) -> str:
    if not values:
        return f"{name}: none"
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
    return (
        f"{name}: median {statistics.median(values):.1f} ms, p95 {p95:.1f} ms, "
        f"worst {values[-1]:.1f} ms ({len(values)} samples)"
    )


def phase(port: int, pid: int, streams: Streams, player: Player, count: int, actions: int) -> None:
    """Bring the open streams to `count`, play `actions` actions, print the figures."""
    want = count - len(streams.marks())
    opened = streams.open(want)
    print(
        f"\n{count} live streams wanted: {opened} of {want} new ones opened "
        f"({streams.refused} refused so far), server memory {memory_now(pid)}",
        flush=True,
    )
    started, received = time.perf_counter(), streams.preview_mb()
    latencies, answers, memory = play(port, streams, player, actions, pid, f"{count} streams")
    wall = time.perf_counter() - started
    if streams.previews:
        print(
            f"  {len(streams.previews)} camera previews received "
            f"{(streams.preview_mb() - received) / wall:.1f} MB/s during the actions"
        )
    print(
        f"  {len(answers)} actions answered in {wall:.1f} s, {player.unanswered} unanswered, "
        f"{player.games} games started so far"
    )
    print("  " + figures("action answered", answers))
    print("  " + figures(f"action -> push on each of {len(streams.marks())} streams", latencies))
    print(
        f"  server CPU with the streams open and no action: {cpu_share(pid, 5) * 100:.0f} % of a core"
    )
    print("  server memory after n actions: " + ", ".join(f"{n}: {words}" for n, words in memory))


def hold_previews(pid: int, streams: Streams, seconds: float) -> None:
    """Keep the previews open for `seconds` and print the server's memory as they run."""
    print(f"\n{len(streams.previews)} camera previews held open for {seconds:.0f} s:")
    samples, received, start = [], streams.preview_mb(), time.perf_counter()
    step = seconds / 6
    for i in range(1, 7):
        time.sleep(max(0.0, start + i * step - time.perf_counter()))
        samples.append(f"{i * step:.0f} s: {memory_now(pid)}")
    print(f"  they received {streams.preview_mb() - received:.1f} MB; server memory "
          + ", ".join(samples))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--streams", type=int, nargs="+", default=[50, 100], help="open streams in each phase"
    )
    parser.add_argument(
        "--actions", type=int, nargs="+", default=[2000, 300], help="actions played in each phase"
    )
    parser.add_argument(
        "--previews", type=int, default=4, help="camera previews open all along (/video.mjpg)"
    )
    parser.add_argument(
        "--preview-seconds", type=float, default=60, help="previews held open at the end"
    )
    parser.add_argument("--camera", default="sim", help="the server's --camera")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        command = [
            sys.executable, "-m", "companion.cli", "serve", "--camera", args.camera,
            "--host", "127.0.0.1", "--port", str(port),
            "--db", str(Path(folder) / "load.sqlite3"), "--seed", "1",
        ]  # fmt: skip
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        streams = Streams(port)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    request(port, "GET", "/api/state")
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.2)
            print(f"server started, RSS {memory_now(server.pid)}")
            deadline = time.monotonic() + 60
            while request(port, "GET", "/api/state")[1]["camera"]["state"] != "ok":
                if time.monotonic() > deadline:
                    raise SystemExit("the camera did not start")
                time.sleep(0.2)
            streams.open_previews(args.previews)
            player = Player(port)
            request(port, "POST", "/api/action", player.next_action())  # pages open mid-game
            for count, actions in zip(args.streams, args.actions, strict=True):
                if player.unanswered < 3:
                    phase(port, server.pid, streams, player, count, actions)
            if args.preview_seconds > 0:
                hold_previews(server.pid, streams, args.preview_seconds)
        finally:
            streams.close()
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
