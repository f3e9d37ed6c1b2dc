"""Random and malformed requests to every route of the page's app: how many got each status.

This is a measurement, not a test (tests/web/test_web_fuzz.py is the test): it prints the
number of requests, the count of each status, and any 500 or refusal that changed the table.

    python benchmarks/web_fuzz.py [--rounds 400]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "web")]

from fuzzing import fuzz, tally  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=400, help="one request to every route each")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        sent, failures = fuzz(str(Path(folder) / "fuzz.sqlite3"), args.rounds)
        seconds = time.perf_counter() - start
    print(f"{tally(sent)}  ({seconds:.1f} s)")
    for line in failures:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
