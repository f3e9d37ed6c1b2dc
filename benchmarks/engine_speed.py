"""How fast does our rules engine play a whole game of Las Vegas, next to the PyPI `lasvegas`?

This is a benchmark, not a test: it never fails, it measures and reports.

What is compared
    * Ours: `companion.simulate.play_random_game` on `make_rules("classic")` (the base 2012
      game: 4 rounds, 8 dice each, 6 casinos dealt notes to at least $50,000, ties cancel),
      4 players. Each timed game is `new_game(...)` plus playing it to the end with random
      chance and uniformly random legal decisions. For information only, the same is timed
      with every classic option switched on.
    * Ours, fast playout: `companion.playout.random_playout`, the simulator that round-end
      hints use: the same rules on plain counters with no event checks (its games replay
      exactly through the engine in tests/test_playout.py). The 2x target applies to it.
      Also timed, for information: the same playout with greedy players
      (`companion.playout.playout(..., "greedy")`), the one hints and the search bot use.
    * Ours, Royale basic: the checked engine and the fast playout (random and greedy players)
      on `make_rules("royale")` with no casino tiles (3 rounds, 7 dice and a Biggy each,
      money-card pairs, 2 chips a round to pass a turn), 4 players. For information only: the
      PyPI package has no Royale.
    * PyPI: `lasvegas==0.2.0` by Élie Goudout. It pins numpy~=1.22, so it cannot live in our
      `.venv` (numpy 2). The script makes its own `.bench-venv` in the repository root
      (`python -m venv`, then pip installs `lasvegas==0.2.0` and a numpy 1.x) and runs a small
      timing driver there in a subprocess. The driver builds one `lasvegas.Game` with no
      player objects, so all four seats are the package's bots: `random_roll` for the dice
      and `random_play` (a uniformly random value among those rolled, the same choice
      distribution as ours in the base game), in unsafe (fast) mode. Its rules are set to the
      base game: `num_players=4, num_xtr_players=0, num_xtr_dice=0` (no neutral dice; the
      package's own default for 4 players adds a neutral colour with 2 dice a player) and our
      54-note classic deck (`bills_pool`; its default has 48 notes). 4 rounds, 8 dice, 6
      casinos and the $50,000 minimum are its defaults. Each timed game is `Game.run()`, which
      resets the environment (shuffles, deals, picks the start player) and plays to the end.
      The driver checks that every game really ended (all 4 rounds, all 32 dice placed) and
      sends its output and progress bars to /dev/null while timing.

How it is measured
    Per-game wall times with `time.perf_counter`, after a few untimed warm-up games that also
    count turns per game (both sides should show about the same count, which shows the
    workloads match). The runs are interleaved in blocks (ours, PyPI, ours with all options,
    then again) so that drift in the machine's load hits both sides alike. Everything runs
    single-threaded (BLAS/OpenMP thread counts set to 1 for numpy). The machines are shared
    and noisy, so the medians, and their ratio, are the figures that count; p90 and means
    are shown only to make the noise visible.

Usage: .venv/bin/python benchmarks/engine_speed.py [--games 300] [--seed 0] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"

from companion.events import Place  # noqa: E402
from companion.playout import playout  # noqa: E402
from companion.rules import CLASSIC_DECK, every_variant, make_rules  # noqa: E402
from companion.simulate import play_random_game  # noqa: E402
from companion.state import Phase, new_game  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
BENCH_VENV = REPO / ".bench-venv"
PYPI_PACKAGE = "lasvegas==0.2.0"
PYPI_NUMPY = "numpy>=1.22,<2"  # what lasvegas 0.2.0's `numpy~=1.22` accepts
PLAYERS = ["A", "B", "C", "D"]
TARGET = 2.0
ALL_CLASSIC_OPTIONS = every_variant("classic")
ROYALE_ROWS = ("royale", "royale_playout", "royale_greedy")

# Runs inside .bench-venv. argv[1] is a JSON object of settings; the last stdout line is JSON.
PYPI_DRIVER = r"""
import contextlib, json, os, random, sys, time, warnings

cfg = json.loads(sys.argv[1])
warnings.simplefilter("ignore")
import numpy
import lasvegas
from lasvegas import Game

random.seed(cfg["seed"])
game = Game(num_players=4, num_xtr_players=0, num_xtr_dice=0,
            bills_pool=cfg["bills_pool"], safe=False)
env = game.env
assert env.num_players == 4 and env.num_xtr_players == 0 and env.num_rounds == 4
assert env.num_casinos == 6 and int(env.starting_dice.sum()) == 32

def check_over():
    assert env.is_over and env.current_round == env.num_rounds, "game did not finish"
    assert int(env.casinos_dice.sum()) == 32 and not env.dice[:4].any(), "dice left over"

turns = []
with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink), \
        contextlib.redirect_stderr(sink):
    real_play = env.play
    count = [0]
    def counting_play(played):
        count[0] += 1
        real_play(played)
    env.play = counting_play
    for _ in range(cfg["warmup"]):
        count[0] = 0
        game.run()
        check_over()
        turns.append(count[0])
    del env.play
    times = []
    clock = time.perf_counter
    for _ in range(cfg["games"]):
        start = clock()
        game.run()
        times.append(clock() - start)
        check_over()
print(json.dumps({"times": times, "turns": turns, "version": lasvegas.__version__,
                  "numpy": numpy.__version__,
                  "python": sys.version.split()[0]}))
"""


def log(message: str, quiet: bool) -> None:
    if not quiet:
        print(message, file=sys.stderr, flush=True)


def bench_python() -> Path:
    return BENCH_VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def installed_version() -> str | None:
    """The lasvegas version importable in .bench-venv, or None."""
    python = bench_python()
    if not python.exists():
        return None
    probe = "import lasvegas, numpy; print(lasvegas.__version__)"
    result = subprocess.run([python, "-c", probe], capture_output=True, text=True)
    return result.stdout.strip() if result.returncode == 0 else None


def ensure_bench_venv(quiet: bool) -> str | None:
    """Create .bench-venv and install lasvegas 0.2.0 if needed; None when ready, else why not."""
    if installed_version() == "0.2.0":
        return None
    try:
        if not bench_python().exists():
            log(f"Creating {BENCH_VENV} ...", quiet)
            subprocess.run(
                [sys.executable, "-m", "venv", BENCH_VENV],
                check=True,
                capture_output=True,
                text=True,
                timeout=300,
            )
        log(f"Installing {PYPI_PACKAGE} and {PYPI_NUMPY} into {BENCH_VENV.name} ...", quiet)
        subprocess.run(
            [
                bench_python(),
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                PYPI_PACKAGE,
                PYPI_NUMPY,
            ],
            check=True,
            capture_output=True,
            text=True,
            timeout=600,
        )
    except subprocess.CalledProcessError as error:
        lines = (error.stderr or error.stdout or "").strip().splitlines()
        tail = [line for line in lines if not line.startswith("WARNING")][-3:] or lines[-3:]
        return f"command failed ({' '.join(map(str, error.cmd[:4]))} ...): " + " | ".join(tail)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"{type(error).__name__}: {error}"
    if installed_version() != "0.2.0":
        return "lasvegas 0.2.0 still not importable after the install"
    return None


def run_pypi(games: int, seed: int, warmup: int) -> dict:
    """Time `games` games of the PyPI package in .bench-venv; raises on any failure."""
    config = {
        "games": games,
        "seed": seed,
        "warmup": warmup,
        "bills_pool": [value for value, count in CLASSIC_DECK for _ in range(count)],
    }
    env = dict(os.environ, TQDM_DISABLE="1", PYTHONHASHSEED="0")
    result = subprocess.run(
        [bench_python(), "-c", PYPI_DRIVER, json.dumps(config)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        cwd=BENCH_VENV,  # keep our repository's packages off its import path
    )
    if result.returncode != 0:
        raise RuntimeError(result.stderr.strip().splitlines()[-1] if result.stderr else "failed")
    return json.loads(result.stdout.strip().splitlines()[-1])


def run_ours(
    options: dict | None, games: int, seed: str, warmup: int, edition: str = "classic"
) -> dict:
    """Time `games` games of our engine; the warm-up games also count turns."""
    rules = make_rules(edition, options)
    rng = random.Random(seed)
    turns = []
    for _ in range(warmup):
        final, events = play_random_game(new_game(rules, PLAYERS), rng)
        assert final.phase is Phase.OVER
        turns.append(sum(isinstance(event, Place) for event in events))
    times = []
    clock = time.perf_counter
    for _ in range(games):
        start = clock()
        final, _events = play_random_game(new_game(rules, PLAYERS), rng)
        times.append(clock() - start)
        assert final.phase is Phase.OVER
    return {"times": times, "turns": turns}


def run_playout(
    games: int, seed: str, warmup: int, policy: str = "random", edition: str = "classic"
) -> dict:
    """Time `games` fast playouts (the hint simulator) of an edition's base game from a fresh
    setup, every player choosing as `policy` says."""
    rules = make_rules(edition)
    rng = random.Random(seed)
    turns = []
    for _ in range(warmup):
        emitted: list = []
        playout(new_game(rules, PLAYERS), rng, policy, emitted.append)
        turns.append(sum(isinstance(event, Place) for event in emitted))
    times = []
    clock = time.perf_counter
    for _ in range(games):
        start = clock()
        playout(new_game(rules, PLAYERS), rng, policy)
        times.append(clock() - start)
    return {"times": times, "turns": turns}


def summary(times: list[float], turns: list[int]) -> dict:
    median = statistics.median(times)
    return {
        "games": len(times),
        "median_ms": median * 1e3,
        "p90_ms": statistics.quantiles(times, n=10)[-1] * 1e3,
        "mean_ms": statistics.fmean(times) * 1e3,
        "games_per_s": 1.0 / median,
        "turns_per_game": statistics.fmean(turns) if turns else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300, help="timed games per engine")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--warmup", type=int, default=20, help="untimed games per block")
    parser.add_argument("--blocks", type=int, default=2, help="interleaved blocks per engine")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    quiet = args.json
    blocks = max(1, min(args.blocks, args.games))
    sizes = [args.games // blocks + (i < args.games % blocks) for i in range(blocks)]

    why_not = ensure_bench_venv(quiet)
    if why_not:
        log(f"NOTE: could not set up {PYPI_PACKAGE} in {BENCH_VENV.name}: {why_not}", False)
        log("      skipping the PyPI comparison; our figures follow.", False)

    raw: dict[str, dict] = {
        name: {"times": [], "turns": []}
        for name in ("ours", "playout", "greedy", "all", "pypi", *ROYALE_ROWS)
    }
    pypi_meta: dict = {}
    for block, size in enumerate(sizes):
        log(f"block {block + 1}/{blocks}: {size} games each ...", quiet)
        part = run_ours(None, size, f"{args.seed}-base-{block}", args.warmup)
        raw["ours"]["times"] += part["times"]
        raw["ours"]["turns"] += part["turns"]
        if not why_not:
            try:
                part = run_pypi(size, args.seed * 1000 + block, args.warmup)
            except (RuntimeError, OSError, ValueError, subprocess.TimeoutExpired) as error:
                why_not = f"driver failed: {error}"
                log(f"NOTE: PyPI timing {why_not}; skipping the comparison.", False)
            else:
                raw["pypi"]["times"] += part.pop("times")
                raw["pypi"]["turns"] += part.pop("turns")
                pypi_meta = part
        part = run_playout(size, f"{args.seed}-playout-{block}", args.warmup)
        raw["playout"]["times"] += part["times"]
        raw["playout"]["turns"] += part["turns"]
        part = run_playout(size, f"{args.seed}-greedy-{block}", args.warmup, "greedy")
        raw["greedy"]["times"] += part["times"]
        raw["greedy"]["turns"] += part["turns"]
        part = run_ours(ALL_CLASSIC_OPTIONS, size, f"{args.seed}-all-{block}", args.warmup)
        raw["all"]["times"] += part["times"]
        raw["all"]["turns"] += part["turns"]
        royale = {
            "royale": run_ours(None, size, f"{args.seed}-royale-{block}", args.warmup, "royale"),
            "royale_playout": run_playout(
                size, f"{args.seed}-royale-playout-{block}", args.warmup, edition="royale"
            ),
            "royale_greedy": run_playout(
                size, f"{args.seed}-royale-greedy-{block}", args.warmup, "greedy", "royale"
            ),
        }
        for name, part in royale.items():
            raw[name]["times"] += part["times"]
            raw[name]["turns"] += part["turns"]

    results = {name: summary(**data) for name, data in raw.items() if data["times"]}
    ratio = engine_ratio = None
    if "pypi" in results and not why_not:
        ratio = results["pypi"]["median_ms"] / results["playout"]["median_ms"]
        engine_ratio = results["pypi"]["median_ms"] / results["ours"]["median_ms"]
    else:
        results.pop("pypi", None)
    report = {
        "python": sys.version.split()[0],
        "seed": args.seed,
        "games": args.games,
        "blocks": blocks,
        "players": len(PLAYERS),
        "pypi": pypi_meta or None,
        "pypi_skipped": why_not,
        "results": results,
        "ratio_pypi_over_playout": ratio,
        "ratio_pypi_over_engine": engine_ratio,
        "target": TARGET,
        "target_met": None if ratio is None else ratio >= TARGET,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return

    labels = {
        "ours": "ours, checked engine, base game",
        "playout": "ours, fast playout, base game",
        "greedy": "ours, fast playout, greedy players",
        "pypi": f"PyPI lasvegas {pypi_meta.get('version', '')}, base game",
        "all": "ours, all classic options",
        "royale": "ours, checked engine, Royale basic",
        "royale_playout": "ours, fast playout, Royale basic",
        "royale_greedy": "ours, fast, Royale basic, greedy",
    }
    print(f"\n4-player random games, {args.games} timed per engine, seed {args.seed}")
    print(f"(Python {report['python']}; PyPI side: numpy {pypi_meta.get('numpy', '-')})\n")
    header = f"{'engine':<34} {'median ms':>9} {'p90 ms':>8} {'games/s':>8} {'turns':>6}"
    print(header)
    print("-" * len(header))
    for name in ("ours", "playout", "greedy", "pypi", "all", *ROYALE_ROWS):
        if name in results:
            row = results[name]
            print(
                f"{labels[name]:<34} {row['median_ms']:9.3f} {row['p90_ms']:8.3f}"
                f" {row['games_per_s']:8.0f} {row['turns_per_game']:6.1f}"
            )
    print("(games/s = 1 / median; turns = dice placements per game in the warm-up games)\n")
    if ratio is None:
        print(f"PyPI comparison skipped: {why_not}")
        return
    print(f"ratio PyPI median / checked engine median: {engine_ratio:.2f}x")
    print(f"ratio PyPI median / fast playout median:   {ratio:.2f}x")
    if ratio >= TARGET:
        print(f"target {TARGET:.0f}x faster than PyPI (fast playout, used for hints): MET")
    else:
        standing = f"{1 / ratio:.2f}x slower" if ratio < 1 else f"only {ratio:.2f}x faster"
        print(f"target {TARGET:.0f}x faster than PyPI (fast playout): NOT MET ({standing})")
    print("Machines are shared and noisy: compare medians and the ratio, not single runs.")


if __name__ == "__main__":
    main()
