"""Two runs of the reader's benchmark compared row by row (`benchmarks/vision_compare.py`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import vision_compare  # noqa: E402
import vision_eval  # noqa: E402

from vision.reader import ReaderConfig  # noqa: E402


def _rendered_row(name: str, dice: int, found: int, right: int, sure_wrong: int) -> dict:
    return {
        "split": name,
        "labelled": dice,
        "found_pct": round(100 * found / dice, 2),
        "pips_pct": round(100 * right / found, 2),
        "sure_wrong": sure_wrong,
        "boxes_on_no_die": 5,
        "sure_boxes_on_no_die": 1,
    }


def _valid_row(found: int, right: int, **naming) -> dict:
    return {
        "split": "Valid",
        **naming,
        "labelled": 255,
        "found_pct": round(100 * found / 255, 2),
        "pips_pct": round(100 * right / found, 2),
        "sure_wrong_pct": round(100 / 255, 2),
        "unmatched_predictions": 8,
        "sure_no_die_per_100_photos": 1.16,
    }


def _run(tmp_path: Path, name: str, rows: list[dict]) -> Path:
    path = tmp_path / name
    lines = ["development photos: a line for people"] + [json.dumps(row) for row in rows]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_rows_are_matched_by_name_and_options_and_counted_in_dice(tmp_path) -> None:
    tray = "rendered full tray top-down"
    runs = {
        "before": [
            _rendered_row(tray, 3380, 3343, 3326, 0),
            _valid_row(255, 254, scale=1.0),
            _valid_row(234, 232, tiled_3x3_at=0.5),
            _rendered_row("rendered top-down", 457, 453, 452, 0),
        ],
        "after": [
            _rendered_row(tray, 3380, 3342, 3327, 2),
            _valid_row(255, 253, scale=1.0),
            _valid_row(234, 231, tiled_3x3_at=0.5),
        ],
    }
    before, after = (_run(tmp_path, f"{side}.jsonl", rows) for side, rows in runs.items())
    result = vision_compare.compared(
        vision_compare.read_run(before), vision_compare.read_run(after)
    )
    pair = result["rows"][tray]
    assert (pair["before"].found, pair["after"].found) == (3343, 3342)
    assert (pair["before"].right, pair["after"].right) == (3326, 3327)
    assert (pair["before"].sure_wrong, pair["after"].sure_wrong) == (0, 2)
    assert set(result["rows"]) == {
        "rendered full tray top-down",
        "Valid (scale 1.0)",
        "Valid (tiled_3x3_at 0.5)",
    }
    real = result["totals"]["real photos"]
    assert (real["before"].right, real["after"].right) == (254 + 232, 253 + 231)
    assert real["before"].sure_wrong == 2 and real["before"].sure_no_die is None
    assert result["totals"]["rendered rows"]["after"].sure_no_die == 1
    assert result["only"] == {"before": ["rendered top-down"], "after": []}


def test_a_file_that_is_no_run_is_refused_with_a_message(tmp_path, capsys) -> None:
    good = _run(tmp_path, "good.jsonl", [_valid_row(255, 254, scale=1.0)])
    empty = tmp_path / "empty.jsonl"
    empty.write_text("not json\n")
    assert vision_compare.main([str(good), str(empty)]) == 2
    assert "holds no row of vision_eval.py" in capsys.readouterr().err
    assert vision_compare.main([str(good), str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert vision_compare.main([str(good), str(good), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["rows"]["Valid (scale 1.0)"]["after"]["right"] == 254


def test_the_counts_recovered_from_a_real_rows_shares_add_up() -> None:
    summary = vision_eval.evaluate_rendered(ReaderConfig(), 3, 90.0)
    counts = vision_compare.row_counts({"split": "rendered top-down", **summary})
    assert counts.found + sum(summary["missed_by_kind"].values()) == counts.dice > 0
    # Dice read for sure but wrong are among the dice found and read wrong.
    assert 0 <= counts.sure_wrong <= counts.found - counts.right
