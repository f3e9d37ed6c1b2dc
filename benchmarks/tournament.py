"""Tournament between the computer players, and the calibration of the hint's win chances.

This is a benchmark, not a test: it never fails, it measures and reports.

Tournament
    For each pair (A, B) of players and each seating of 2-5 players, seeded games seat one
    A against B in every other seat; A's seat turns round the table from game to game, so
    the start player's edge is shared out. Chance (deals, throws) comes from the checked
    engine's `companion.simulate.chance_event` with the game's seed, and every decision is
    applied through `companion.engine.apply`. A's result per game is its share of the win
    (1/k for a win shared by k). Printed: A's mean share with a 95 % confidence interval
    (normal approximation on the per-game shares), the fair share 1/n, and the median time
    per decision of each player (one process, wall clock; the machine is shared, so read
    them as rough).

Calibration
    Greedy players only (the hint's own model of play). At up to --probes decisions a game,
    picked at random, the hint (`companion.hints.hint`, 0.2 s clock, 0.03 target error) is
    asked, and the win chance it gives the choice the player then takes is stored with the
    player's final share of the win. Predictions are binned by tenths; each bin shows the
    mean prediction, the mean outcome with its 95 % interval and the count, then the Brier
    score of all predictions.

Usage: .venv/bin/python benchmarks/tournament.py [--games 200] [--players search greedy]
       [--seats 3 4] [--edition classic] [--option neutral_dice] [--playouts 2000] [--target 0.005]
       [--own-policy rules]
       [--calibration 0] [--jobs 1] [--seed 0] [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from companion.bots import PLAYERS, SEARCH_OWN_POLICY, Player, search_player
from companion.engine import apply
from companion.hints import hint
from companion.rules import make_rules
from companion.simulate import chance_event
from companion.standings import winners
from companion.state import Phase, new_game


def make_player(
    name: str, playouts: int, target: float, own_policy: str = SEARCH_OWN_POLICY
) -> Player:
    if name == "search":
        return search_player(playouts, target, own_policy=own_policy)
    return PLAYERS[name]()


def play_game(task: dict[str, Any]) -> dict[str, Any]:
    """One seeded game: A's share of the win and every decision's time by player name."""
    seats: int = task["seats"]
    rules = make_rules(task["edition"], task["options"])
    seat_a = task["game"] % seats
    names = [task["b"]] * seats
    names[seat_a] = task["a"]
    own = task.get("own_policy", SEARCH_OWN_POLICY)
    players = [make_player(n, task["playouts"], task["target"], own) for n in names]
    chance = random.Random(f"chance {task['seed']} {task['game']}")
    decide = random.Random(f"decide {task['seed']} {task['game']}")
    state = new_game(rules, [f"P{i}" for i in range(seats)], task["game"] % seats)
    times: dict[str, list[float]] = {}
    while state.phase is not Phase.OVER:
        event = chance_event(state, chance)
        if event is None:
            began = time.perf_counter()
            event = players[state.current](state, decide)
            times.setdefault(names[state.current], []).append(time.perf_counter() - began)
        state = apply(state, event)
    won = winners(state)
    share = 1 / len(won) if state.players[seat_a] in won else 0.0
    return {"share": share, "times": times}


def calibration_game(task: dict[str, Any]) -> list[tuple[float, float, float, float]]:
    """(hint's win chance for the choice taken, final share, the hint's seconds, the best
    choice's standard error) at a few decisions of a game."""
    seats: int = task["seats"]
    rules = make_rules(task["edition"], task["options"])
    greedy = PLAYERS["greedy"]()
    chance = random.Random(f"calibration chance {task['seed']} {task['game']}")
    decide = random.Random(f"calibration decide {task['seed']} {task['game']}")
    state = new_game(rules, [f"P{i}" for i in range(seats)], task["game"] % seats)
    probes: list[tuple[int, float, float, float]] = []
    while state.phase is not Phase.OVER:
        event = chance_event(state, chance)
        if event is None:
            event = greedy(state, decide)
            if state.phase is Phase.CHOOSE and decide.random() < task["probe_rate"]:
                result = hint(state, decide)
                chosen = next(c for c in result.choices if c.choice == event)
                probes.append(
                    (state.current, chosen.win, result.seconds, result.choices[0].win_error)
                )
        state = apply(state, event)
    won = winners(state)
    return [
        (win, 1 / len(won) if state.players[seat] in won else 0.0, seconds, error)
        for seat, win, seconds, error in probes
    ]


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % confidence interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("nan")
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def run_tasks(function: Any, tasks: list[dict[str, Any]], jobs: int) -> list[Any]:
    if jobs <= 1:
        return [function(t) for t in tasks]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(function, tasks, chunksize=4))


def tournament(args: argparse.Namespace, options: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for a, b in itertools.permutations(args.players, 2):
        if args.first_only and a != args.players[0]:
            continue
        for seats in args.seats:
            tasks = [
                {
                    "a": a,
                    "b": b,
                    "seats": seats,
                    "edition": args.edition,
                    "options": options,
                    "playouts": args.playouts,
                    "target": args.target,
                    "own_policy": args.own_policy,
                    "seed": args.seed,
                    "game": game,
                }
                for game in range(args.games)
            ]
            began = time.perf_counter()
            results = run_tasks(play_game, tasks, args.jobs)
            share, half = interval([r["share"] for r in results])
            times: dict[str, list[float]] = {}
            for r in results:
                for name, spent in r["times"].items():
                    times.setdefault(name, []).extend(spent)
            row = {
                "a": a,
                "b": b,
                "seats": seats,
                "games": len(results),
                "share": share,
                "ci95": half,
                "fair": 1 / seats,
                "median_ms": {n: 1000 * statistics.median(t) for n, t in times.items()},
                "seconds": time.perf_counter() - began,
            }
            rows.append(row)
            if not args.json:
                ms = ", ".join(f"{n} {v:.1f} ms" for n, v in row["median_ms"].items())
                print(
                    f"{a:>7} vs {seats - 1} x {b:<7} {seats}p  {row['games']:>5} games  "
                    f"share {100 * share:5.1f} % ± {100 * half:4.1f}  (fair {100 / seats:4.1f} %)"
                    f"  median decision: {ms}",
                    flush=True,
                )
    return rows


def calibration(args: argparse.Namespace, options: dict[str, Any]) -> dict[str, Any]:
    found_all: list[tuple[float, float, float, float]] = []
    for seats in args.seats:
        tasks = [
            {
                "seats": seats,
                "edition": args.edition,
                "options": options,
                "seed": args.seed,
                "game": game,
                "probe_rate": args.probe_rate,
            }
            for game in range(args.calibration)
        ]
        for found in run_tasks(calibration_game, tasks, args.jobs):
            found_all.extend(found)
    pairs = [(p, o) for p, o, _, _ in found_all]
    seconds = [s for _, _, s, _ in found_all]
    errors = [e for _, _, _, e in found_all]
    bins = []
    for low in range(10):
        inside = [
            (p, o) for p, o in pairs if low / 10 <= p < (low + 1) / 10 or (low == 9 and p == 1)
        ]
        if not inside:
            continue
        outcome, half = interval([o for _, o in inside])
        predicted = statistics.fmean(p for p, _ in inside)
        bins.append(
            {
                "bin": f"{low * 10}-{low * 10 + 10} %",
                "count": len(inside),
                "predicted": predicted,
                "actual": outcome,
                "ci95": half,
            }
        )
    brier = statistics.fmean((p - o) ** 2 for p, o in pairs) if pairs else float("nan")
    if not args.json:
        print(f"\nCalibration: {len(pairs)} hints in {args.calibration} greedy games per seating")
        print("bin        hints  predicted  actual (95 % CI)")
        for b in bins:
            print(
                f"{b['bin']:<10} {b['count']:>5}  {100 * b['predicted']:8.1f}  "
                f"{100 * b['actual']:6.1f} ± {100 * b['ci95']:4.1f}"
            )
        print(f"Brier score {brier:.4f}")
    timing = {}
    if found_all:
        timing = {
            "median_seconds": statistics.median(seconds),
            "p90_seconds": sorted(seconds)[int(0.9 * (len(seconds) - 1))],
            "median_best_error": statistics.median(errors),
            "share_within_3_points": sum(e <= 0.03 for e in errors) / len(errors),
        }
        if not args.json:
            print(
                f"Hint time: median {timing['median_seconds']:.3f} s, p90 "
                f"{timing['p90_seconds']:.3f} s (0.2 s clock); best choice's standard error: "
                f"median {100 * timing['median_best_error']:.1f} points, at most 3 points in "
                f"{100 * timing['share_within_3_points']:.0f} % of hints"
            )
    return {"hints": len(pairs), "bins": bins, "brier": brier} | timing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per pair and seating")
    parser.add_argument("--players", nargs="+", default=["search", "rules", "greedy", "random"])
    parser.add_argument(
        "--first-only", action="store_true", help="only the first player against each other"
    )
    parser.add_argument("--seats", nargs="+", type=int, default=[2, 3, 4, 5])
    parser.add_argument("--edition", default="classic")
    parser.add_argument("--option", action="append", default=[], help="a variant, e.g. biggies")
    parser.add_argument("--playouts", type=int, default=2000, help="search: playouts a decision")
    parser.add_argument(
        "--target", type=float, default=0.005, help="search: stop at this standard error"
    )
    parser.add_argument(
        "--own-policy",
        choices=["greedy", "rules"],
        default=SEARCH_OWN_POLICY,
        help="search: how it plays its own later turns of the round in its playouts",
    )
    parser.add_argument("--calibration", type=int, default=0, help="greedy games per seating")
    parser.add_argument("--probe-rate", type=float, default=0.2, help="decisions asked a hint")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    options = {name: True for name in args.option}
    if not args.json:
        print(
            f"{args.edition} {' '.join(args.option) or '(base game)'}; search: at most "
            f"{args.playouts} playouts a decision, stopping at a standard error of "
            f"{args.target}, its own later turns by {args.own_policy}; seed {args.seed}",
            flush=True,
        )
    result: dict[str, Any] = {"edition": args.edition, "options": options}
    if args.games:
        result["tournament"] = tournament(args, options)
    if args.calibration:
        result["calibration"] = calibration(args, options)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        print()


if __name__ == "__main__":
    main()
