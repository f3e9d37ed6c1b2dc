"""How long the page's computer seat takes to decide, through the `bot` action of the real app.

Whole games, one person (first choice offered, chance at random) against a search bot and a
rules bot, in each edition; prints the median and the slowest decision of the search seat
(throws left out) and of the rules seat. The first search decision of a game also builds
the table of later rounds, so the slowest one is that one.

    python benchmarks/bot_seat.py [--games 2]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from web import create_app  # noqa: E402

GAMES = [
    ("classic", {}),
    ("classic", {"kickers": True, "slot_machine": True, "chip_cards": True}),
    ("royale", {"tiles": 3}),
    ("cards", {}),
    ("custom", {"skip_rule": "chips"}),
]
PLAYERS = [
    {"name": "Anna", "colour": "red"},
    {"name": "Carla", "colour": "blue"},
    {"name": "Dora", "colour": "green"},
]
LEVELS = [None, "search", "rules"]


def play(db: str, seed: int, edition: str, options: dict) -> dict[str, list[float]]:
    """One game; the seconds of each bot decision, by level."""
    client = create_app({"DB": db, "SEED": seed, "TESTING": True}).test_client()

    def act(action: str, **fields):
        base = client.get("/api/state").get_json()["version"]
        return client.post("/api/action", json={"action": action, "base": base} | fields)

    act("new_game", edition=edition, options=options, players=PLAYERS, bots=LEVELS)
    times: dict[str, list[float]] = {"search": [], "rules": []}
    while True:
        game = client.get("/api/state").get_json()["game"]
        if game["phase"] == "over":
            return times
        began = time.perf_counter()
        response = act("bot")
        seconds = time.perf_counter() - began
        if response.status_code == 200:
            if game["phase"] != "roll":
                times[LEVELS[game["current"]] or "search"].append(seconds)
            continue
        if game["choices"] and game["phase"] != "roll":
            act("event", event=game["choices"][0]["event"])
        else:
            act("simulate")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per edition")
    args = parser.parse_args()
    print("| game | search: decisions, median ms, slowest ms | rules: median ms |")
    print("|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for number, (edition, options) in enumerate(GAMES):
            found: dict[str, list[float]] = {"search": [], "rules": []}
            for seed in range(args.games):
                db = str(Path(folder) / f"{number}-{seed}.sqlite3")
                for level, seconds in play(db, seed, edition, options).items():
                    found[level] += seconds
            name = edition + (" + " + ", ".join(options) if options else "")
            search, rules = found["search"], found["rules"]
            print(
                f"| {name} | {len(search)}, {1000 * statistics.median(search):.0f}, "
                f"{1000 * max(search):.0f} | {1000 * statistics.median(rules):.0f} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
