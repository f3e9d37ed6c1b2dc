"""How fast an action reaches 8 open pages, and what the server's CPU does while streaming.

Starts `lasvegas serve --camera sim` as its own process on a free port, connects 8 pages
to the live stream, sends actions and times each push's arrival on every page; then
measures the server's CPU use while nothing is watched and while one page shows the
camera preview. Run: python benchmarks/web_speed.py [--actions 60] [--seconds 10]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

PAGES = 8


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def request(port: int, method: str, path: str, body: dict | None = None) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(
        method,
        path,
        None if body is None else json.dumps(body),
        {"Content-Type": "application/json"},
    )
    return json.loads(conn.getresponse().read())


class Page(threading.Thread):
    """One open page: reads the event stream and notes when each push arrived."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.arrivals: dict[int, float] = {}
        self.ready = threading.Event()

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.request("GET", "/api/events")
        response = conn.getresponse()
        while True:
            line = response.readline()
            if not line:
                return
            if line.startswith(b"data:"):
                message = json.loads(line[5:])
                if isinstance(message, dict):  # not a keep-alive ping
                    self.arrivals[message["seq"]] = time.perf_counter()
                    self.ready.set()


def wait_up(port: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            request(port, "GET", "/api/state")
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


def push_latency(port: int, actions: int) -> list[float]:
    """Milliseconds from sending an action to its push arriving, for every page and action."""
    pages = [Page(port) for _ in range(PAGES)]
    for page in pages:
        page.start()
    for page in pages:
        page.ready.wait(10)
    base = request(port, "GET", "/api/state")["version"]
    request(
        port,
        "POST",
        "/api/action",
        {
            "action": "new_game",
            "base": base,
            "edition": "classic",
            "players": [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}],
        },
    )
    samples: list[float] = []
    for i in range(actions):
        state = request(port, "GET", "/api/state")
        kind = "undo" if i % 2 else "simulate"
        seqs = [max(p.arrivals) for p in pages]
        sent = time.perf_counter()
        answer = request(port, "POST", "/api/action", {"action": kind, "base": state["version"]})
        if not answer.get("ok"):
            raise SystemExit(f"action refused: {answer}")
        deadline = time.monotonic() + 10
        for page, seq in zip(pages, seqs, strict=True):
            while not any(s > seq for s in page.arrivals) and time.monotonic() < deadline:
                time.sleep(0.0005)
            arrived = min((t for s, t in page.arrivals.items() if s > seq), default=None)
            if arrived is None:
                raise SystemExit("a page did not receive the push")
            samples.append((arrived - sent) * 1000)
    return samples


def cpu_share(pid: int, seconds: float) -> float:
    start_cpu, start = cpu_seconds(pid), time.perf_counter()
    time.sleep(seconds)
    return (cpu_seconds(pid) - start_cpu) / (time.perf_counter() - start)


def keep_table_busy(port: int, stop: threading.Event) -> None:
    """Lay dice on the simulated table and sweep them off, over and over: a table in play."""
    kinds = ("sim_lay_colours", "sim_clear")
    k = 0
    while not stop.wait(0.7):
        request(port, "POST", "/api/action", {"action": kinds[k % 2]})
        k += 1


def preview_cpu(port: int, pid: int, seconds: float) -> tuple[float, float]:
    """CPU share of one core while one page streams the preview, and the frames it got a second."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/video.mjpg")
    response = conn.getresponse()
    frames = 0
    stop = time.perf_counter() + seconds
    start_cpu, start = cpu_seconds(pid), time.perf_counter()
    while time.perf_counter() < stop:
        if response.readline().startswith(b"--frame"):
            frames += 1
    wall = time.perf_counter() - start
    conn.close()
    return (cpu_seconds(pid) - start_cpu) / wall, frames / wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--threads", type=int, default=1, help="reader threads of the server")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        command = [
            sys.executable,
            "-m",
            "companion.cli",
            "serve",
            "--camera",
            "sim",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            str(Path(folder) / "bench.sqlite3"),
            "--threads",
            str(args.threads),
            "--seed",
            "1",
        ]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_up(port)
            samples = push_latency(port, args.actions)
            idle = cpu_share(server.pid, args.seconds)
            streaming, fps = preview_cpu(port, server.pid, args.seconds)
            stop = threading.Event()
            busy = threading.Thread(target=keep_table_busy, args=(port, stop), daemon=True)
            busy.start()
            playing, playing_fps = preview_cpu(port, server.pid, args.seconds)
            stop.set()
            busy.join()
        finally:
            server.terminate()
            server.wait(10)
    samples.sort()
    print(
        f"push latency, action -> update on each of {PAGES} pages, {args.actions} actions "
        f"({len(samples)} arrivals):"
    )
    print(
        f"  median {statistics.median(samples):.1f} ms, p90 {samples[int(0.9 * len(samples))]:.1f} ms, "
        f"worst {samples[-1]:.1f} ms"
    )
    print(
        f"server CPU (share of one core), simulated camera running, reader threads {args.threads}:"
    )
    print(f"  no page watching the preview: {idle * 100:.0f} %")
    print(
        f"  one page streaming the preview, table still: {streaming * 100:.0f} % "
        f"at {fps:.1f} frames/s"
    )
    print(
        f"  one page streaming the preview, dice moving: {playing * 100:.0f} % "
        f"at {playing_fps:.1f} frames/s"
    )


if __name__ == "__main__":
    main()
