"""Compare two runs of `vision_eval.py`, row by row, in dice.

Each run is the JSON lines `vision_eval.py` printed (save them with `> before.jsonl`). Rows are
matched by what names them (the split or folder, and its scale, turns, tiling, damage, paint,
stretch or seed). For each row found in both runs it prints the dice, and before -> after:
found, right pips, read for sure but wrong, and boxes on no die (of them read for sure), then the
totals over the rendered rows and over the real photos. Rows found in one run only are listed.

Two runs of one reader on the same scenes read alike, so every die that moves is the change's;
whether that is more than chance is another matter: two trainings of one recipe differ by about
ten rendered dice (model card, "Tried, not shipped: the shipped pip readers' recipe run again").

    python benchmarks/vision_eval.py --rendered 60 > before.jsonl
    ...change the reader...
    python benchmarks/vision_eval.py --rendered 60 > after.jsonl
    python benchmarks/vision_compare.py before.jsonl after.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

# The fields that name a row, besides its split or folder.
NAMING_FIELDS = (
    "scale",
    "quarter_turns",
    "tiled_3x3_at",
    "close_up_dice_high",
    "damage",
    "painted",
    "stretch",
    "seed",
)
FIGURES = ("found", "right", "sure_wrong", "no_die", "sure_no_die")


@dataclass(frozen=True)
class RowCounts:
    """One row's figures in dice (boxes for the last two; the last is None where the row gives
    only its share a photo, as the real photos' rows do)."""

    dice: int
    found: int
    right: int
    sure_wrong: int
    no_die: int
    sure_no_die: int | None


class RunError(ValueError):
    """A run file that holds no row of `vision_eval.py`."""


def row_name(row: dict) -> str:
    """What names a row: its split or folder, and the options it was read with."""
    name = str(row.get("split") or row.get("folder") or "?")
    options = [f"{field} {row[field]}" for field in NAMING_FIELDS if field in row]
    return name + (f" ({', '.join(options)})" if options else "")


def row_counts(row: dict) -> RowCounts:
    """The row's figures in dice, from its shares (kept to two decimals, which recovers the
    counts exactly for rows under 10,000 dice)."""
    dice = int(row["labelled"])
    found = round(row["found_pct"] * dice / 100)
    right = round(row["pips_pct"] * found / 100) if "pips_pct" in row else 0
    if "sure_wrong" in row:
        sure_wrong = int(row["sure_wrong"])
    else:
        sure_wrong = round(row.get("sure_wrong_pct", 0.0) * dice / 100)
    no_die = int(row.get("boxes_on_no_die", row.get("unmatched_predictions", 0)))
    sure_no_die = row.get("sure_boxes_on_no_die")
    return RowCounts(
        dice, found, right, sure_wrong, no_die, None if sure_no_die is None else int(sure_no_die)
    )


def read_run(path: Path) -> dict[str, RowCounts]:
    """The rows of one run file, by name."""
    rows: dict[str, RowCounts] = {}
    try:
        lines = path.read_text().splitlines()
    except OSError as err:
        raise RunError(f"cannot read {path}: {err.strerror}") from err
    for line in lines:
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line the benchmark printed for people, not a row
        if isinstance(row, dict) and "labelled" in row and "found_pct" in row:
            rows[row_name(row)] = row_counts(row)
    if not rows:
        raise RunError(f"{path} holds no row of vision_eval.py")
    return rows


def compared(before: dict[str, RowCounts], after: dict[str, RowCounts]) -> dict:
    """Each row in both runs, before and after; totals for rendered rows and real photos; the
    rows of one run only."""
    both = [name for name in before if name in after]
    sides = (("before", before), ("after", after))
    rows = {name: {"before": before[name], "after": after[name]} for name in both}
    totals = {}
    for kind, rendered in (("rendered rows", True), ("real photos", False)):
        names = [name for name in both if name.startswith("rendered") == rendered]
        if names:
            totals[kind] = {side: _total([run[n] for n in names]) for side, run in sides}
    only = {
        "before": [n for n in before if n not in after],
        "after": [n for n in after if n not in before],
    }
    return {"rows": rows, "totals": totals, "only": only}


def _total(rows: list[RowCounts]) -> RowCounts:
    """The rows' figures added up (boxes read for sure only where every row gives them)."""
    sure = [row.sure_no_die for row in rows]
    return RowCounts(
        *(sum(getattr(row, f) for row in rows) for f in ("dice", *FIGURES[:-1])),
        None if None in sure else sum(s for s in sure if s is not None),
    )


def print_table(result: dict) -> None:
    """The comparison as a table, before -> after (difference) for each figure."""
    heads = ("found", "right pips", "sure wrong", "no die (sure)")
    print(f"{'row':62} {'dice':>6}  " + "  ".join(f"{h:>22}" for h in heads))
    lines = list(result["rows"].items()) + [
        (f"TOTAL {kind}", pair) for kind, pair in result["totals"].items()
    ]
    for name, pair in lines:
        a, b = pair["before"], pair["after"]
        cells = [_moved(a.found, b.found), _moved(a.right, b.right)]
        cells.append(_moved(a.sure_wrong, b.sure_wrong))
        cells.append(f"{_boxes(a)} -> {_boxes(b)}")
        print(f"{name[:62]:62} {a.dice:6d}  " + "  ".join(f"{c:>22}" for c in cells))
    for side, names in result["only"].items():
        for name in names:
            print(f"only {side}: {name}")


def _boxes(row: RowCounts) -> str:
    return f"{row.no_die}" + ("" if row.sure_no_die is None else f" ({row.sure_no_die})")


def _moved(a: int, b: int) -> str:
    return f"{a} -> {b} ({b - a:+d})"


def main(argv: list[str] | None = None) -> int:
    """Print the comparison of two run files (or JSON with --json); 2 on a file that is no run."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("before", type=Path, help="vision_eval.py's JSON lines, before the change")
    ap.add_argument("after", type=Path, help="the same, after")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    a = ap.parse_args(argv)
    try:
        result = compared(read_run(a.before), read_run(a.after))
    except RunError as err:
        print(f"vision_compare: {err}", file=sys.stderr)
        return 2
    if a.json:

        def plain(pair: dict) -> dict:
            return {side: counts.__dict__ for side, counts in pair.items()}

        out = {
            "rows": {name: plain(pair) for name, pair in result["rows"].items()},
            "totals": {kind: plain(pair) for kind, pair in result["totals"].items()},
            "only": result["only"],
        }
        print(json.dumps(out, indent=1))
    else:
        print_table(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
