"""Time per search decision on one core, the search's models of its own play side by side.

This is a benchmark, not a test: it never fails, it measures and reports.

Positions come from seeded games of greedy players (base game unless told): decisions
with more than one legal choice, each taken at --rate (so they spread over whole games), up
to --positions of them. At each the search
player decides once with each model of its own later turns (`--models`, default rules and
greedy), in turn, the order swapped from position to position. Printed per model: the
median and 90th percentile of the CPU time of the process (`time.process_time`, so other
work on a shared machine slows it less than the wall clock), the median wall time, and
how often the models choose differently.

Usage: .venv/bin/python benchmarks/decision_time.py [--players 4] [--positions 150] [--rate 0.25]
       [--edition classic] [--option kickers] [--models rules greedy] [--seed 0] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from companion.bots import greedy_player, search_player
from companion.choices import legal_choices
from companion.engine import apply
from companion.hints import later_rounds
from companion.rules import make_rules
from companion.simulate import chance_event
from companion.state import GameState, Phase, new_game


def positions(args: argparse.Namespace) -> list[GameState]:
    """Decisions with a real choice from seeded greedy games, in the order played."""
    rules = make_rules(args.edition, {name: True for name in args.option})
    found: list[GameState] = []
    game = 0
    while len(found) < args.positions:
        chance = random.Random(f"decision time chance {args.seed} {game}")
        decide = random.Random(f"decision time decide {args.seed} {game}")
        state = new_game(rules, [f"P{i}" for i in range(args.players)], game % args.players)
        while state.phase is not Phase.OVER and len(found) < args.positions:
            event = chance_event(state, chance)
            if event is None:
                if len(legal_choices(state)) > 1 and chance.random() < args.rate:
                    found.append(state)
                event = greedy_player(state, decide)
            state = apply(state, event)
        game += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--rate", type=float, default=0.25, help="share of decisions taken")
    parser.add_argument("--edition", default="classic")
    parser.add_argument("--option", action="append", default=[], help="a variant, e.g. kickers")
    parser.add_argument("--models", nargs="+", default=["rules", "greedy"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    states = positions(args)
    later_rounds(states[0].rules, args.players)  # the table is built once, before timing
    players = {m: search_player(own_policy=m) for m in args.models}
    cpu: dict[str, list[float]] = {m: [] for m in args.models}
    wall: dict[str, list[float]] = {m: [] for m in args.models}
    differ = 0
    for index, state in enumerate(states):
        order = args.models if index % 2 == 0 else list(reversed(args.models))
        chosen = {}
        for model in order:
            began_cpu, began_wall = time.process_time(), time.perf_counter()
            chosen[model] = players[model](state, random.Random(index))
            cpu[model].append(time.process_time() - began_cpu)
            wall[model].append(time.perf_counter() - began_wall)
        differ += len(set(map(repr, chosen.values()))) > 1
    result: dict[str, Any] = {
        "positions": len(states),
        "players": args.players,
        "differ": differ / len(states),
        "models": {
            m: {
                "median_cpu_ms": 1000 * statistics.median(cpu[m]),
                "p90_cpu_ms": 1000 * sorted(cpu[m])[int(0.9 * (len(cpu[m]) - 1))],
                "median_wall_ms": 1000 * statistics.median(wall[m]),
            }
            for m in args.models
        },
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{len(states)} positions, {args.players} players, {args.edition} {args.option or ''}")
    for model, row in result["models"].items():
        print(
            f"own turns by {model:<7} median {row['median_cpu_ms']:6.1f} ms CPU "
            f"(p90 {row['p90_cpu_ms']:6.1f}), median wall {row['median_wall_ms']:6.1f} ms"
        )
    print(f"the models choose differently at {100 * result['differ']:.0f} % of positions")


if __name__ == "__main__":
    main()
