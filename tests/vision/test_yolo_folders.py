"""Folders of YOLO-labelled photos as other people export them: the sets found in them, what
their classes mean, their label rows, and the benchmark scoring them alike whatever the layout."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from vision_synth import white_dice

from models.devdata import UNKNOWN_PIPS, Labelled, Score
from models.real_sets import real_sets
from models.yolo_folders import (
    ClassMeaning,
    FolderError,
    label_rows,
    labelled_folders,
    load,
    meaning_of,
    names_in,
    photos_in,
)

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("name", "pips", "colour"),
    [
        ("1", 1, None),
        ("Six", 6, None),
        ("dice-4", 4, None),
        ("dice4", 4, None),
        ("red_2", 2, "red"),
        ("Gray five", 5, "grey"),
        ("d6-3", 3, None),
        ("d6", UNKNOWN_PIPS, None),
        ("dice", UNKNOWN_PIPS, None),
        ("1-6", UNKNOWN_PIPS, None),
        ("blank", 0, None),
        ("fünf", 5, None),
    ],
)
def test_a_class_name_says_its_pips_and_colour(name: str, pips: int, colour: str | None) -> None:
    meaning = meaning_of(name)
    assert (meaning.pips, meaning.colour, meaning.die) == (pips, colour, True)


def test_a_class_named_a_dash_boxes_no_die() -> None:
    assert not meaning_of("-").die
    assert meaning_of("-").describe() == "left out"


@pytest.mark.parametrize(
    "text",
    [
        "nc: 3\nnames: ['one', \"two\", three]\n",
        "train: a\nnames:\n  - one\n  - two\n  - three\nnc: 3\n",
        "names:\n  0: one\n  1: two\n  2: three\n",
        "names: {0: one, 1: 'two', 2: three}\n",
    ],
)
def test_class_names_are_read_from_a_data_yaml_in_each_usual_form(
    tmp_path: Path, text: str
) -> None:
    (tmp_path / "data.yaml").write_text(text)
    assert names_in(tmp_path / "data.yaml") == ["one", "two", "three"]


def test_label_rows_read_boxes_outlines_and_pixels_and_count_bad_lines() -> None:
    rows = label_rows(
        "0 0.5 0.5 0.2 0.4\n"  # a box
        "2 0.5 0.5 0.2 0.2 0.93\n"  # a box with a score
        "5 0.1 0.1 0.3 0.1 0.3 0.4 0.1 0.4\n"  # an outline
        "\n# a comment\n"
        "1 0.5 0.5\n"  # too few numbers
        "x 0.5 0.5 0.1 0.1\n"  # no class
        "3 0.5 0.5 0 0.1\n"  # no area
    )
    assert rows.classes.tolist() == [0, 2, 5]
    np.testing.assert_allclose(rows.corners[0], [0.4, 0.3, 0.6, 0.7])
    np.testing.assert_allclose(rows.corners[2], [0.1, 0.1, 0.3, 0.4])
    assert (rows.bad_lines, rows.pixels) == (3, False)
    assert label_rows("1 320 240 40 40\n").pixels


def _photo(path: Path, label: str | None, label_path: Path | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), np.full((48, 64, 3), 90, np.uint8))
    if label is not None:
        target = label_path or path.with_suffix(".txt")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(label)


def test_sets_are_found_in_each_usual_layout(tmp_path: Path) -> None:
    # A hub export: train/ and valid/, each images/ beside labels/, names at the top.
    (tmp_path / "data.yaml").write_text("names: ['one', 'two', 'three', 'four', 'five', 'six']\n")
    for split in ("train", "valid"):
        _photo(
            tmp_path / split / "images" / "a.jpg",
            "2 0.5 0.5 0.2 0.2\n",
            tmp_path / split / "labels" / "a.txt",
        )
    _photo(tmp_path / "valid" / "images" / "b.PNG", None)  # no label: a photo with no die
    # One images/ and labels/ pair split inside.
    _photo(
        tmp_path / "more" / "images" / "test" / "c.jpeg",
        "0 0.5 0.5 0.2 0.2\n",
        tmp_path / "more" / "labels" / "test" / "c.txt",
    )
    # Darknet: photos beside their labels, names beside them.
    _photo(tmp_path / "flat" / "d.jpg", "5 0.5 0.5 0.2 0.2\n")
    (tmp_path / "flat" / "classes.txt").write_text("red 1\nred 2\nred 3\nred 4\nred 5\nred 6\n")
    # Photos with no label at all are no set.
    _photo(tmp_path / "unlabelled" / "e.jpg", None)

    found = {folder.name: folder for folder in labelled_folders(tmp_path)}
    assert sorted(found) == ["flat", "more/test", "train", "valid"]
    assert [p.name for p in found["valid"].photos] == ["a.jpg", "b.PNG"]
    assert found["valid"].labels[1] is None
    assert found["train"].names_from == tmp_path / "data.yaml"
    assert found["more/test"].names_from == tmp_path / "data.yaml"
    assert found["flat"].names_from == tmp_path / "flat" / "classes.txt"

    valid, _notes = load(found["valid"], found["valid"].classes())
    assert [item.pips.tolist() for item in valid] == [[3], []]
    np.testing.assert_allclose(valid[0].die_boxes, [[25.6, 19.2, 38.4, 28.8]])
    flat, _notes = load(found["flat"], found["flat"].classes())
    assert (flat[0].pips.tolist(), flat[0].colours) == ([6], ("red",))
    given = found["flat"].classes(["-", "1"])
    assert given is not None and [(c.die, c.pips) for c in given] == [(False, -1), (True, 1)]
    # A folder of one set loads as the project's own sets do; one of several is named.
    assert [item.pips.tolist() for item in photos_in(tmp_path / "flat")] == [[6]]
    with pytest.raises(FolderError, match="holds 4 sets of labelled photos, not one"):
        photos_in(tmp_path)
    # An images/ folder given alone is read with the labels/ beside it.
    (alone,) = labelled_folders(tmp_path / "train" / "images")
    assert (alone.name, alone.labels) == ("train", (tmp_path / "train" / "labels" / "a.txt",))


def test_classes_named_by_number_from_nought_keep_the_usual_numbering(tmp_path: Path) -> None:
    _photo(tmp_path / "a.jpg", "0 0.5 0.5 0.2 0.2\n5 0.2 0.2 0.1 0.1\n")
    (tmp_path / "classes.txt").write_text("\n".join(str(k) for k in range(6)))
    (folder,) = labelled_folders(tmp_path)
    assert folder.classes() is None
    items, _notes = load(folder, folder.classes())
    assert items[0].pips.tolist() == [1, 6]


def test_what_cannot_be_read_is_told_and_left_out(tmp_path: Path) -> None:
    _photo(tmp_path / "a.jpg", "0 0.5 0.5 0.2 0.2\n1 0.2 0.2 0.1 0.1\n7 0.3 0.3 0.1 0.1\nbad\n")
    (tmp_path / "b.jpg").write_bytes(b"not a photo")
    (tmp_path / "b.txt").write_text("0 0.5 0.5 0.2 0.2\n")
    (folder,) = labelled_folders(tmp_path)
    classes = (ClassMeaning("hand", UNKNOWN_PIPS, die=False), meaning_of("die"))
    items, notes = load(folder, classes)
    assert [item.image.name for item in items] == ["a.jpg"]
    assert items[0].pips.tolist() == [UNKNOWN_PIPS, UNKNOWN_PIPS]  # the die, class 7
    assert notes.unreadable_photos == [tmp_path / "b.jpg"]
    assert (notes.bad_label_lines, notes.left_out_labels, notes.unknown_classes) == (1, 1, {7})
    with pytest.raises(FolderError, match=r"1 photos in .* cannot be read: b\.jpg"):
        photos_in(tmp_path)


def test_dice_labelled_without_pips_count_as_found_but_not_in_the_pips() -> None:
    truth = Labelled(
        Path("p.jpg"),
        np.array([[30.0, 30.0], [130.0, 30.0]]),
        np.array([UNKNOWN_PIPS, 4]),
        colours=("white", "white"),
        die_boxes=np.array([[10.0, 10.0, 50.0, 50.0], [110.0, 10.0, 150.0, 50.0]]),
    )
    score = Score()
    score.add(truth, white_dice([[12, 12, 50, 50], [110, 10, 150, 50]], [2, 5], [False, False]))
    summary = score.summary()
    assert (summary["found_pct"], summary["labelled_with_pips"]) == (100.0, 1)
    assert (summary["pips_pct"], score.sure_wrong, summary["sure_wrong_pct"]) == (0.0, 1, 100.0)
    white = score.by_colour_table()["white"]
    assert (white["dice"], white["found_pct"], white["pips_pct"]) == (2, 100.0, 0.0)
    score.add(truth, white_dice([[12, 12, 50, 50], [110, 10, 150, 50]], [2, 4], [False, False]))
    assert score.by_colour_table()["white"]["pips_pct"] == 50.0  # of the two labelled with pips


def _table_rows(output: str) -> dict[str, list[str]]:
    """The benchmark table's rows by set name (its first 30 characters, which may hold spaces):
    the lines that end in the times in ms (the lines under the table name a set too, and end
    in words or an interval)."""
    rows = [(line[:30].strip(), line[30:].split()) for line in output.splitlines()]
    return {name: fields for name, fields in rows if len(fields) > 10 and fields[-1].isdigit()}


def test_the_benchmark_scores_a_set_alike_however_its_classes_are_named(tmp_path: Path) -> None:
    real = real_sets()["dice-photos-topdown-grey"]
    if not real.available():
        pytest.skip(f"{real.folder} is missing")
    photos = real.photos("tune")[:8]
    # The same photos as a hub exports them, with the classes named in the order of their
    # names as words ("five" is class 0), and as they are, numbered.
    words = ["five", "four", "one", "six", "three", "two"]
    by_pips = ["one", "two", "three", "four", "five", "six"]
    (tmp_path / "worded").mkdir()
    (tmp_path / "worded" / "data.yaml").write_text(f"names: {json.dumps(words)}\n")
    for item in photos:
        for layout in ("worded/valid", "numbered"):
            (tmp_path / layout / "images").mkdir(parents=True, exist_ok=True)
            (tmp_path / layout / "labels").mkdir(parents=True, exist_ok=True)
            shutil.copy(item.image, tmp_path / layout / "images" / item.image.name)
        label = (real.folder / "labels" / f"{item.image.stem}.txt").read_text()
        (tmp_path / "numbered" / "labels" / f"{item.image.stem}.txt").write_text(label)
        renamed = ""
        for row in label.splitlines():
            cls, *box = row.split()
            renamed += " ".join([str(words.index(by_pips[int(cls)])), *box]) + "\n"
        (tmp_path / "worded" / "valid" / "labels" / f"{item.image.stem}.txt").write_text(renamed)
    run = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "vision_sets.py"),
            "--sets",
            "--folders",
            str(tmp_path / "worded"),
            str(tmp_path / "numbered"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    table = _table_rows(run.stdout)
    assert set(table) == {"worded/valid", "numbered"}
    # photos, dice, found, pips, unsure, sure but wrong, boxes on no die: the same
    assert table["worded/valid"][:8] == table["numbered"][:8]
    assert table["numbered"][1] == str(sum(len(item.pips) for item in photos))
    assert float(table["numbered"][3]) > 50.0  # the pips are scored, and mostly right
    assert "0 'five': a die of 5" in run.stderr
    assert "no class names found" in run.stderr


def test_vision_eval_scores_folders_too_and_names_a_folder_that_is_none(tmp_path: Path) -> None:
    real = real_sets()["dice-photos-topdown-grey"]
    if not real.available():
        pytest.skip(f"{real.folder} is missing")
    for item in real.photos("tune")[:2]:
        shutil.copy(item.image, tmp_path / item.image.name)
        shutil.copy(real.folder / "labels" / f"{item.image.stem}.txt", tmp_path)
    script = str(REPO / "benchmarks" / "vision_eval.py")
    run = subprocess.run(
        [sys.executable, script, "--folders", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    (line,) = run.stdout.splitlines()
    row = json.loads(line)
    assert (row["folder"], row["photos"]) == (tmp_path.name, 2)
    assert row["labelled"] == sum(len(item.pips) for item in real.photos("tune")[:2])
    missing = subprocess.run(
        [sys.executable, script, "--folders", str(tmp_path / "nowhere")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert missing.returncode == 2
    assert "nowhere is not a folder" in missing.stderr and "Traceback" not in missing.stderr


def test_a_folder_of_colour_classes_is_scored_with_its_colours_in_play_and_slips_written(
    tmp_path: Path, monkeypatch
) -> None:
    sys.path.insert(0, str(REPO / "benchmarks"))
    import vision_sets

    from vision.detections import Detections
    from vision.reader import ReaderConfig

    # One photo of a red 4 and an orange 2, its classes named by colour and pips.
    _photo(tmp_path / "table" / "roll.png", "0 0.25 0.5 0.2 0.5\n1 0.75 0.5 0.2 0.5\n")
    (tmp_path / "table" / "classes.txt").write_text("red-4\norange-2\n")
    palettes = []

    def read(frame, cfg):
        palettes.append(cfg.palette.in_play)
        return Detections(
            np.array([[12, 12, 20, 36], [44, 12, 52, 36]], np.float32),
            np.array([4, 3]),  # the 2 read 3 for sure
            np.array(["red", "orange"], object),
            np.full(2, "regular", object),
            np.full(2, 0.9, np.float32),
            np.zeros(2, bool),
        )

    monkeypatch.setattr(vision_sets, "read_dice", read)
    crops = tmp_path / "slips"
    scored = vision_sets.score_folders(
        [tmp_path / "table"], ReaderConfig(), None, True, crops_root=crops, in_play=True
    )
    assert palettes == [("orange", "red")]
    row = scored["table"]
    figures = (row["labelled"], row["found_pct"], row["pips_pct"], row["colour_pct"])
    assert figures == (2, 100.0, 50.0, 100.0)
    assert [p.name for p in (crops / "table").iterdir()] == ["roll_1_read3_true2_conf0.90.png"]
    with pytest.raises(FolderError, match="no labelled photos in"):
        vision_sets.score_folders([crops], ReaderConfig(), None, True)
