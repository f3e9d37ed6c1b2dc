"""The whole reader on rendered frames, and its sub-command `lasvegas detect`."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from vision_synth import dice_frame

from models.devdata import matched_boxes
from vision import reader
from vision.cli import register
from vision.detections import Detections
from vision.reader import ReaderConfig, read_dice


def _match(truth_box, boxes):
    """Index of the predicted box whose centre is nearest the true centre, if inside the truth."""
    if len(boxes) == 0:
        return None
    c = (np.array(truth_box[:2]) + np.array(truth_box[2:])) / 2
    pc = (boxes[:, :2] + boxes[:, 2:]) / 2
    j = int(np.argmin(np.linalg.norm(pc - c, axis=1)))
    x0, y0, x1, y1 = truth_box
    return j if x0 <= pc[j, 0] <= x1 and y0 <= pc[j, 1] <= y1 else None


def test_rendered_scenes_are_read(rendered_scenes) -> None:
    found = total = right = readable = 0
    for frame, truths in rendered_scenes:
        det = read_dice(frame)
        for t in truths:
            if t.label == 7:
                continue  # cocked or cut off: any answer is acceptable if it is flagged
            total += 1
            j = _match(t.box, det.boxes)
            if j is None:
                continue
            found += 1
            readable += 1
            right += int(det.pips[j] == t.label)
    assert found / total >= 0.95
    assert right / readable >= 0.94


def test_each_die_keeps_the_body_colour_its_colour_was_named_from(rendered_scenes) -> None:
    from vision.colour import default_palette

    frame, _ = rendered_scenes[0]
    det = read_dice(frame)
    assert len(det) and np.isfinite(det.body).all()
    # Named from that colour: the default palette, with no light judged (no colours in
    # play), names each body as the reader did.
    names, _ = default_palette().classify(det.body, shows_pips=det.pips > 0)
    assert names.tolist() == det.colour.tolist()


@pytest.mark.parametrize(
    "frame",
    [
        np.zeros((480, 640, 3), np.uint8),  # a black frame
        np.full((240, 320, 3), 200, np.uint8),  # a small grey frame
        np.full((33, 47, 3), 90, np.uint8),  # a tiny odd-sized frame
    ],
)
def test_frames_without_dice_give_no_dice(frame) -> None:
    assert len(read_dice(frame)) == 0


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        (None, r"frame must be an image array \(h, w, 3\), got shape None"),
        (np.zeros((4, 10, 10, 3), np.uint8), r"got shape \(4, 10, 10, 3\)"),
        (np.zeros((10, 10, 2), np.uint8), r"1, 3 or 4 channels, got shape \(10, 10, 2\)"),
        (np.zeros((0, 10, 3), np.uint8), r"frame is empty: shape \(0, 10, 3\)"),
        (np.zeros((10, 10, 3), bool), r"uint8, uint16 or float, not bool"),
    ],
)
def test_a_frame_that_is_no_image_is_named(frame, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        read_dice(frame)


def _cli(argv):
    import argparse

    parser = argparse.ArgumentParser(prog="lasvegas")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.handler(args)


def test_detect_json_reads_good_files_and_names_bad_ones(rendered_scenes, tmp_path, capsys):
    img = tmp_path / "roll.png"
    cv2.imwrite(str(img), rendered_scenes[0][0])
    bad = tmp_path / "notes.jpg"
    bad.write_text("not an image")
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(cv2.imencode(".jpg", rendered_scenes[0][0])[1].tobytes()[:5000])
    argv = [str(img), str(bad), str(img), str(cut)]
    rc = _cli(["detect", *argv, "--json", "--draw", str(tmp_path / "out")])
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert rc == 1
    assert [d["image"] for d in data] == argv
    assert "the JPEG ends before its picture does" in data[3]["error"]
    assert data[0]["width"] == 640 and data[0]["height"] == 480 and data[0]["dice"]
    die = data[0]["dice"][0]
    assert set(die) == {
        "box",
        "pips",
        "colour",
        "size",
        "confidence",
        "unsure",
        "zone",
        "colour_doubt",
    }
    assert "not a readable image" in data[1]["error"] and str(bad) in out.err
    assert (tmp_path / "out" / "roll.png").is_file()


@pytest.mark.parametrize(
    ("dice", "line"),
    [
        ([], "roll.png: no dice"),
        ([("white", 1, "regular", False)], "roll.png: 1 die: white 1"),
        (
            [("red", 4, "big", False), ("grey", 0, "regular", True)],
            "roll.png: 2 dice: red 4 big, grey blank ?",
        ),
    ],
)
def test_detect_sums_up_each_image_in_one_line(dice, line) -> None:
    from vision.cli_run import summary_line

    result = {
        "image": "roll.png",
        "dice": [
            {"colour": colour, "pips": pips, "size": size, "unsure": unsure}
            for colour, pips, size, unsure in dice
        ],
    }
    assert summary_line(result) == line


def test_detect_takes_the_camera_place_and_refuses_an_unknown_one(
    rendered_scenes, tmp_path, capsys
):
    img = tmp_path / "roll.png"
    cv2.imwrite(str(img), rendered_scenes[0][0])
    assert _cli(["detect", str(img), "--json", "--camera-place", "above"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["dice"]
    assert _cli(["detect", str(img), "--camera-place", "ceiling"]) == 2
    err = capsys.readouterr().err
    assert "--camera-place" in err and "above" in err


def test_detect_names_dice_by_the_colours_in_play_under_a_warm_lamp(tmp_path, capsys):
    from vision.colour import DEFAULT_COLOURS_BGR

    rng = np.random.default_rng(3)
    names = ["pink", "pink", "pink", "purple", "purple", "white", "white"]
    dice = [
        (70 + 80 * k, 240 + 30 * (k % 2), 50, DEFAULT_COLOURS_BGR[name], 1 + k % 6)
        for k, name in enumerate(names)
    ]
    frame, _ = dice_frame(dice, rng, gain=(0.72, 1.0, 1.25))  # a warm lamp
    img = tmp_path / "warm.png"
    cv2.imwrite(str(img), frame)

    def colours(*options: str) -> list[str]:
        assert _cli(["detect", str(img), "--json", *options]) == 0
        read = json.loads(capsys.readouterr().out)[0]["dice"]
        return [d["colour"] for d in sorted(read, key=lambda d: d["box"][0])]

    assert colours() != names  # the lamp makes pink dice look red
    assert colours("--colours", "red", "pink", "purple", "white", "yellow") == names
    assert _cli(["detect", str(img), "--colours", "red", "teal"]) == 2
    err = capsys.readouterr().err
    assert "--colours: the palette has no colour 'teal'; it has red, blue" in err


def test_thread_count_is_a_setting(rendered_scenes) -> None:
    frame = rendered_scenes[1][0]
    one = read_dice(frame, ReaderConfig(threads=1))
    two = read_dice(frame, ReaderConfig(threads=2))
    assert np.allclose(one.boxes, two.boxes, atol=0.5) and (one.pips == two.pips).all()


def test_watcher_with_the_real_reader(rendered_scenes) -> None:
    from vision.video import RollSettled, RollWatcher

    # Eight dice, every one read for sure, on a speckled table (read with the locator for
    # speckled frames); a roll with a die in doubt would wait for a person, not settle.
    frame = rendered_scenes[6][0]
    moving = [np.roll(frame, 37 * k, axis=1) for k in range(1, 3)]
    watcher = RollWatcher(read=read_dice)
    events = [e for f in [*moving, frame, frame, frame, frame] for e in watcher.update(f)]
    assert len(events) == 1 and isinstance(events[0], RollSettled)
    assert abs(len(events[0].dice) - len(read_dice(frame))) <= 1


def test_calibrate_then_detect_with_palette_and_zones(rendered_scenes, tmp_path, capsys):
    frame = rendered_scenes[3][0]
    img = tmp_path / "calib.png"
    cv2.imwrite(str(img), frame)
    n = len(read_dice(frame))
    names = ["red", "blue"] * (n // 2) + ["red"] * (n % 2)
    palette = tmp_path / "palette.json"
    assert _cli(["calibrate", str(img), "--colours", *names, "--out", str(palette)]) == 0
    assert set(json.loads(palette.read_text())["names"]) == set(names)
    zones = tmp_path / "zones.json"
    zones.write_text(json.dumps({"arena": [[0, 0], [640, 0], [640, 480], [0, 480]]}))
    capsys.readouterr()
    assert (
        _cli(["detect", str(img), "--json", "--palette", str(palette), "--zones", str(zones)]) == 0
    )
    dice = json.loads(capsys.readouterr().out)[0]["dice"]
    assert {d["colour"] for d in dice} <= {"red", "blue"}
    assert {d["zone"] for d in dice} == {"arena"}


def test_calibrate_refuses_wrong_name_count(rendered_scenes, tmp_path, capsys):
    img = tmp_path / "calib.png"
    cv2.imwrite(str(img), rendered_scenes[3][0])
    rc = _cli(["calibrate", str(img), "--colours", "red", "--out", str(tmp_path / "p.json")])
    assert rc == 1 and "colour names" in capsys.readouterr().err


def _sheet_frame() -> np.ndarray:
    """The one-page marker sheet filling a 640x480 frame, on a grey table."""
    from vision.zones import marker_sheet

    sheet = cv2.resize(marker_sheet(), (640, 452), interpolation=cv2.INTER_AREA)
    frame = np.full((480, 640, 3), 90, np.uint8)
    frame[14:466] = cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR)
    return frame


def _die_patch(seed: int, elevation_deg: float, max_side: float = 100.0):
    """A rendered die with pips and a little of its table: (patch, truth)."""
    from models.render import render_scene

    rng, pad = np.random.default_rng(seed), 6
    while True:
        die_frame, truths = render_scene(rng, n_dice=1, elevation_deg=elevation_deg)
        if truths and truths[0].label in range(1, 7):
            x0, y0, x1, y1 = (int(v) for v in truths[0].box)
            inside = x0 >= pad and y0 >= pad and x1 + pad <= 640 and y1 + pad <= 480
            if inside and max(x1 - x0, y1 - y0) <= max_side:
                break
    return die_frame[y0 - pad : y1 + pad, x0 - pad : x1 + pad], truths[0]


def _small_die_patch(seed: int, elevation_deg: float, most_side: float):
    """A rendered die seen from farther away: `_die_patch`'s die and table shrunk (area-averaged,
    as a camera's coarser pixels would show it) until the die's box is `most_side` px at most.
    The renderer's dice are 20-85 px, so waiting for one that small takes thousands of scenes."""
    patch, truth = _die_patch(seed, elevation_deg)
    x0, y0, x1, y1 = truth.box
    scale = min(1.0, most_side / max(x1 - x0, y1 - y0))
    size = (max(1, round(patch.shape[1] * scale)), max(1, round(patch.shape[0] * scale)))
    return cv2.resize(patch, size, interpolation=cv2.INTER_AREA), truth


def _paste(frame: np.ndarray, patch: np.ndarray, centre: tuple[int, int]) -> None:
    """Lay the patch on the frame, centred on a point."""
    h, w = patch.shape[:2]
    x0, y0 = centre[0] - w // 2, centre[1] - h // 2
    frame[y0 : y0 + h, x0 : x0 + w] = patch


def test_printed_markers_are_not_dice_and_a_die_on_the_sheet_gets_its_zone() -> None:
    from vision.zones import detect_zones

    frame = _sheet_frame()
    zones = detect_zones(frame)
    assert len(read_dice(frame, ReaderConfig(zones=zones))) == 0
    patch, truth = _die_patch(5, 90.0)  # one clean top-down die in the arena
    frame[300 : 300 + patch.shape[0], 200 : 200 + patch.shape[1]] = patch
    det = read_dice(frame, ReaderConfig(zones=zones))
    assert len(det) == 1 and det.zone[0] == "arena" and det.pips[0] == truth.label


@pytest.mark.parametrize("on_a_name", [True, False])
def test_a_sure_box_on_a_printed_name_does_not_make_a_plain_die_doubtful(
    monkeypatch, on_a_name
) -> None:
    from vision import pips, reader
    from vision.onnx_models import PIPS_FILES, model_path, open_session
    from vision.zones import detect_zones

    frame = _sheet_frame()
    zones = detect_zones(frame)
    patch, truth = _die_patch(5, 50.0, max_side=40)  # seen from the usual webcam's side
    _paste(frame, patch, (250, 330))
    h, w = patch.shape[:2]
    die = [250 - w // 2 + 6, 330 - h // 2 + 6, 250 + w - w // 2 - 6, 330 + h - h // 2 - 6]
    x, y = zones.labels[0].mean(0)
    letters = [x - 11, y - 11, x + 11, y + 11]  # a box the locator is sure of, on a name's print
    boxes, scores = np.array([die, letters], np.float32), np.array([0.9, 0.9], np.float32)
    searched = []
    judge = pips.surest_camera_place

    def counted(*args):
        searched.append(1)
        return judge(*args)

    monkeypatch.setattr(pips, "surest_camera_place", counted)
    readers = [open_session(str(model_path(f)), 1) for f in PIPS_FILES]
    printed = np.array([False, on_a_name])
    place, (pip, _prob, unsure, is_die) = reader._read_faces(
        readers, frame, boxes, scores, ReaderConfig(zones=zones), printed
    )
    assert pip[0] == truth.label and not unsure[0] and not is_die[1]  # the print is no die
    # Unless the box is known to lie on print, a sure box read as no die makes the frame
    # doubtful, and the camera's place is searched for.
    assert searched == ([] if on_a_name else [1]) and place == "bottom"


def test_dice_on_the_sheet_are_read_at_their_own_size_and_the_right_way() -> None:
    from vision.zones import detect_zones

    frame = _sheet_frame()
    zones = detect_zones(frame)
    truths = []
    for seed, centre in [(5, (250, 330)), (6, (350, 300)), (1, (150, 280))]:
        patch, truth = _die_patch(seed, 50.0, max_side=40)
        _paste(frame, patch, centre)
        truths.append(truth.label)
    # With the markers taken for small dice, the frame was looked at enlarged, where some of the
    # names' letters looked like dice; the camera's place judged with them turned two dice (read
    # unsure). The dice must read as they do with the camera's place given.
    det = read_dice(frame, ReaderConfig(zones=zones))
    placed = read_dice(frame, ReaderConfig(zones=zones, camera_place="bottom"))
    assert sorted(det.pips.tolist()) == sorted(truths)
    assert det.unsure.tolist() == placed.unsure.tolist() and det.unsure.sum() <= 1


def test_printed_markers_do_not_set_the_size_the_dice_are_looked_at(monkeypatch) -> None:
    from vision import locate
    from vision.zones import detect_zones

    frame = _sheet_frame()
    zones = detect_zones(frame)
    patch, truth = _die_patch(5, 50.0, max_side=100)
    while max(patch.shape[:2]) < 60:  # a die of 50 px or more: one look at 384 px suits it
        patch = cv2.resize(patch, None, fx=1.25, fy=1.25, interpolation=cv2.INTER_LINEAR)
    _paste(frame, patch, (250, 320))
    seen: list[int] = []
    look = locate.locate_at

    def counted(session, image, long_side, threshold=0.3):
        if image.shape[:2] == frame.shape[:2]:  # not a closer look at a window
            seen.append(long_side)
        return look(session, image, long_side, threshold)

    monkeypatch.setattr(locate, "locate_at", counted)
    det = read_dice(frame, ReaderConfig(zones=zones))
    assert len(det) == 1 and det.pips[0] == truth.label
    # The 32 markers are 13 px at 384: taken for the dice, they sent the frame to a second look
    # enlarged to about 880 px, every frame. With zones, no look for large dice either: the
    # sheet's printed fields are large boxes to a quick look, and no close-up is taken there.
    assert seen == [384]


def test_a_die_lying_on_a_printed_zone_name_is_still_read() -> None:
    from vision.zones import detect_zones

    frame = _sheet_frame()
    zones = detect_zones(frame)
    # On the arena's name, low enough to lie inside the line through the arena's markers.
    spots = [(q[0] + q[1]) * 0.125 + (q[3] + q[2]) * 0.375 for q in zones.labels]
    point_boxes = np.array([[*c, *c] for c in spots])
    centre = spots[list(zones.zone_of(point_boxes)).index("arena")]
    assert zones.on_label(np.array([[*centre, *centre]]))[0]
    patch, truth = _small_die_patch(3, 50.0, most_side=26)
    _paste(frame, patch, (int(centre[0]), int(centre[1])))
    det = read_dice(frame, ReaderConfig(zones=zones))
    assert len(det) == 1 and det.pips[0] == truth.label and det.zone[0] == "arena"
    assert len(detect_zones(frame).labels) == 8  # the die hides no marker


@pytest.mark.parametrize(
    "side, looked_again",
    [
        (30, True),  # 18 px at 384: looked at again with the frame enlarged (to dice of 30 px)
        (55, False),  # 33 px: the locator's best sizes, one look
        (90, False),  # 54 px: bigger than the training frames' dice, but within their zoom
        (130, True),  # 78 px: looked at again with the frame shrunk (to dice of 45 px)
    ],
)
def test_the_frame_is_looked_at_again_only_for_dice_out_of_the_best_sizes(
    monkeypatch, side, looked_again
) -> None:
    from vision import locate

    seen: list[int] = []
    look = locate.locate_at

    def counted(session, frame, long_side, threshold=0.3):
        if frame.shape[:2] == (480, 640):  # not the closer look at a window around a box
            seen.append(long_side)
        return look(session, frame, long_side, threshold)

    monkeypatch.setattr(locate, "locate_at", counted)
    colours = [(40, 40, 200), (200, 200, 200), (40, 160, 220), (160, 60, 40)]
    dice = [(160 + 320 * (i % 2), 120 + 240 * (i // 2), side, colours[i], i + 2) for i in range(4)]
    frame, _ = dice_frame(dice, np.random.default_rng(side))
    det = read_dice(frame)
    assert seen[0] == 384
    # Last, the quick look for dice too large for the look they were read at: none here.
    assert seen[-1] == locate.QUICK_LOOK_SIDE
    at_384 = side * 384 / 640
    best = (
        384
        * (locate.BEST_SIDE if at_384 < locate.ONE_LOOK_SIDE[0] else locate.SHRUNK_SIDE)
        / at_384
    )
    # A frame shrunk that far is looked at once more, twice as large (`reader.FINER_LOOK`) but
    # at most at 384 px, for large dice the shrunk look missed; these four it had found, and
    # they are read once.
    finer = min(best * reader.FINER_LOOK, 384)
    expected: list = [best, finer] if finer >= best * reader.FINER_LEAST else [best]
    expected = [pytest.approx(b, rel=0.1) for b in expected]
    if looked_again and seen[1] > 640:
        # A frame enlarged past its own size is looked at once more, sharper, at 0.8 of that
        # size (`reader.SHARP_LOOK`), for small dice the soft enlarged look missed.
        expected.insert(1, round(reader.SHARP_LOOK * 640))
    assert seen[1:-1] == (expected if looked_again else [])
    assert sorted(det.pips.tolist()) == [2, 3, 4, 5]


FRAME = (480, 640, 3)


@pytest.mark.parametrize(
    "boxes, scores, side, frame_shape",
    [
        # no box at all: nothing to judge the dice's size by
        ([], [], None, None),
        # only a table's rim (thin): no sign of the dice's size
        ([[0, 0, 200, 10]], [0.9], None, None),
        # three plain dice: their median side
        ([[0, 0, 20, 20], [50, 50, 80, 80], [100, 100, 140, 140]], [0.8, 0.7, 0.9], 30.0, None),
        # a sure die with two faint boxes on its side face's pips (a real photo, 1.0x): the
        # faint boxes would make the frame's dice look small and send it to a needless look
        ([[0, 0, 92, 92], [10, 70, 42, 102], [50, 72, 77, 99]], [0.88, 0.46, 0.29], 92.0, None),
        # small dice the locator is unsure of, and nothing sure: they all count
        ([[0, 0, 16, 16], [30, 30, 48, 48], [60, 60, 80, 80]], [0.35, 0.3, 0.4], 18.0, None),
        # the same three with the frame known: the first, faint in its corner, does not count
        ([[0, 0, 16, 16], [30, 30, 48, 48], [60, 60, 80, 80]], [0.35, 0.3, 0.4], 19.0, FRAME),
        # an empty table's faint box in the frame's corner: no sign of any die's size (it once
        # sent every empty frame to a look at 1,108 px)
        ([[621, 1, 639, 17]], [0.21], None, FRAME),
        # sure dice count wherever they lie, at the frame's edge too
        ([[300, 450, 340, 479], [50, 50, 80, 80], [100, 100, 120, 120]], [0.9] * 3, 30.0, FRAME),
    ],
)
def test_typical_die_side(boxes, scores, side, frame_shape) -> None:
    from vision.locate import typical_side

    found = typical_side(np.array(boxes, np.float32).reshape(-1, 4), np.array(scores), frame_shape)
    assert found == (None if side is None else pytest.approx(side))


def test_centred_in_pairs_every_box_with_every_centre_edges_included() -> None:
    from vision.locate import centred_in

    boxes = np.array([[0, 0, 10, 10], [5, 5, 20, 20]], np.float32)
    centres = np.array([[10, 10], [2, 3], [15, 6], [21, 5]], np.float32)
    assert centred_in(boxes, centres).tolist() == [
        [True, True, False, False],
        [True, False, True, False],
    ]
    assert centred_in(boxes, np.array([7.0, 7.0])).tolist() == [[True], [True]]
    assert centred_in(np.zeros((0, 4)), centres).shape == (0, 4)
    assert centred_in(boxes, np.zeros((0, 2))).shape == (2, 0)


def test_boxes_on_one_die_are_those_with_one_centred_in_the_other() -> None:
    from vision.locate import on_one_die

    others = np.array([[0, 0, 40, 40], [100, 100, 110, 110]], np.float32)
    boxes = np.array(
        [
            [10, 10, 30, 30],  # inside a box of the others: on its die
            [90, 90, 140, 140],  # holds the centre of a small other box
            [30, 30, 90, 90],  # overlaps both, centred in neither, holding neither's centre
            [200, 200, 240, 240],  # far away
        ],
        np.float32,
    )
    assert on_one_die(boxes, others).tolist() == [True, True, False, False]
    assert on_one_die(boxes, np.zeros((0, 4))).tolist() == [False] * 4
    assert on_one_die(boxes[0], others).tolist() == [True]


def test_a_box_shrunk_keeps_its_centre() -> None:
    from vision.locate import shrunk

    boxes = np.array([[0, 0, 40, 40], [10, 20, 30, 80]], np.float32)
    assert shrunk(boxes, 0.5).tolist() == [[10, 10, 30, 30], [15, 35, 25, 65]]


def test_a_tray_of_eighty_dice_is_read_whole() -> None:
    # More dice than a game ever rolls at once (a bulk photo of a dice tray): the locator's
    # peaks must not be cut off at some count.
    colours = [(40, 40, 200), (200, 200, 200), (40, 160, 220), (160, 60, 40), (60, 150, 60)]
    dice = [
        (32 + 64 * (i % 10), 30 + 60 * (i // 10), 40, colours[i % 5], 1 + i % 6) for i in range(80)
    ]
    frame, boxes = dice_frame(dice, np.random.default_rng(1))
    det = read_dice(frame)
    matched = matched_boxes(det.boxes, (boxes[:, :2] + boxes[:, 2:]) / 2)
    found = [(j, shown) for j, (*_, shown) in zip(matched, dice, strict=True) if j is not None]
    right = sum(int(det.pips[j]) == shown for j, shown in found)
    assert len(found) >= 76 and right >= len(found) - 2


@pytest.mark.parametrize(
    "side_px, long_side, larger",
    [
        (50, 384, [512, 640]),  # 30 px at the look: enlarged to 40 and 50 px
        (75, 384, [512]),  # 45 px: 60 px at 512, but 75 px at 640, larger than the locator knows
        (95, 384, []),  # 57 px: no larger look (the real development photos' dice)
        (20, 1100, [1280]),  # a big photo of tiny dice: one look, at the largest size
        (None, 384, []),  # no die read: no size to go by
    ],
)
def test_larger_looks_keep_the_dice_within_the_sizes_the_locator_knows(
    side_px, long_side, larger
) -> None:
    from vision.reader import _larger_looks

    if side_px is None:
        found = Detections.empty()
    else:
        boxes = np.array(
            [[10 + 120 * i, 10, 10 + 120 * i + side_px, 10 + side_px] for i in range(3)]
        )
        found = Detections(boxes, [1, 2, 3], ["red"] * 3, ["regular"] * 3, [0.9] * 3, [False] * 3)
    assert _larger_looks(found, long_side, (480, 640, 3)) == larger


def _crowded_tray() -> tuple[np.ndarray, list]:
    """A rendered 640x480 tray of 60-120 touching dice, camera straight above."""
    from models.render import render_scene

    rng = np.random.default_rng(987654)
    for _ in range(11):
        frame, truths = render_scene(rng, n_dice=int(rng.integers(60, 121)), elevation_deg=90.0)
    return frame, truths


def _found(det, truths) -> int:
    """How many of the readable dice of `truths` have a box of `det` centred on them."""
    boxes = np.array([t.box for t in truths if t.label != 7], np.float32)
    centres = det.centres
    inside = np.all(
        (boxes[:, None, :2] <= centres[None]) & (centres[None] <= boxes[:, None, 2:]), axis=2
    )
    return int(inside.any(axis=1).sum())


def test_a_crowded_tray_is_looked_at_again_enlarged_and_the_surer_look_kept() -> None:
    # At the size that suits one die, touching dice of one colour merge into boxes between
    # them: this tray's first look finds about half its dice.
    frame, truths = _crowded_tray()
    one_look = read_dice(frame, ReaderConfig(look_again_from=10**6))
    surest = read_dice(frame)
    assert len(one_look) >= 20  # crowded enough to be looked at again
    # One look finds 70 of 72 (61-70 with the locators before, 48-60 with earlier ones); the
    # enlarged looks find all 72.
    assert _found(surest, truths) > _found(one_look, truths)
    assert _found(surest, truths) >= 71
    assert surest.confidence.sum() > one_look.confidence.sum()


def test_a_large_look_is_located_in_strips_that_find_the_dice_of_one_pass(monkeypatch) -> None:
    # The tray enlarged to 1066x800 px is run in strips to bound the locator's memory; the
    # strips' joined maps must find the dice that one pass over the whole look finds.
    from vision import locate
    from vision.onnx_models import LOCATOR_FILE, model_path, open_session

    frame, _truths = _crowded_tray()
    session = open_session(str(model_path(LOCATOR_FILE)), 1)
    passes = []
    run = locate.infer
    monkeypatch.setattr(locate, "infer", lambda s, t: passes.append(t.shape) or run(s, t))
    strips = locate.locate_at(session, frame, 1066, 0.2)
    margins = 2 * locate.STRIP_MARGIN
    assert len(passes) >= 2
    assert all(h * w <= locate.STRIP_PIXELS + margins * w for *_, h, w in passes)
    monkeypatch.setattr(locate, "STRIP_PIXELS", 10**9)
    whole = locate.locate_at(session, frame, 1066, 0.2)
    assert passes[-1] == (1, 3, 800, 1072)
    sure = whole[0][whole[1] >= 0.5]
    assert len(sure) >= 30  # a tray's worth of dice the whole look is sure of (38)
    found = locate.centred_in(strips[0], (sure[:, :2] + sure[:, 2:]) / 2).any(0)
    assert found.mean() >= 0.97
    assert abs(len(strips[0]) - len(whole[0])) <= 0.05 * len(whole[0])


def test_a_game_roll_gets_one_look(monkeypatch) -> None:
    # The live table's frames hold at most a dozen dice: no larger look costs them time.
    from vision import reader

    looks: list[int | None] = []
    read_look = reader._read_look

    def counted(loc, readers, frame, cfg, long_side=None):
        looks.append(long_side)
        return read_look(loc, readers, frame, cfg, long_side)

    monkeypatch.setattr(reader, "_read_look", counted)
    colours = [(40, 40, 200), (200, 200, 200), (40, 160, 220), (160, 60, 40)]
    dice = [
        (60 + 100 * (i % 6), 120 + 200 * (i // 6), 40, colours[i % 4], 1 + i % 6) for i in range(12)
    ]
    frame, _ = dice_frame(dice, np.random.default_rng(3))
    assert len(read_dice(frame)) == 12
    assert looks == [None]
    looks.clear()
    # Looked at as a tray, its dice all read plainly: no look again either.
    assert len(read_dice(frame, ReaderConfig(look_again_from=0))) == 12
    assert looks == [None]


def test_a_tray_is_looked_at_again_enlarged_only_around_its_doubtful_boxes(monkeypatch) -> None:
    from vision import look_again, reader
    from vision.onnx_models import LOCATOR_FILE, PIPS_FILES, model_path, open_session

    colours = [(40, 40, 200), (200, 200, 200), (40, 160, 220), (160, 60, 40)]
    dice = [
        (60 + 100 * (i % 6), 120 + 200 * (i // 6), 40, colours[i % 4], 1 + i % 6) for i in range(12)
    ]
    frame, _ = dice_frame(dice, np.random.default_rng(3))
    loc = open_session(str(model_path(LOCATOR_FILE)), 1)
    readers = [open_session(str(model_path(f)), 1) for f in PIPS_FILES]
    cfg = ReaderConfig(look_again_from=0)
    first = reader._read_look(loc, readers, frame, cfg)
    looked: list[tuple[int, list[list[int]]]] = []
    located_in = look_again.located_in

    def recorded(session, frame_bgr, wins, long_side, *args):
        looked.append((long_side, wins.tolist()))
        return located_in(session, frame_bgr, wins, long_side, *args)

    monkeypatch.setattr(look_again, "located_in", recorded)
    doubtful = first.found.boxes[:1]
    again = reader._looked_again(
        loc, readers, frame, cfg, reader._Look(**{**vars(first), "doubtful": doubtful})
    )
    # Two larger looks, each at one window around the doubtful die, which they read alike.
    assert [side for side, _ in looked] == sorted(side for side, _ in looked)
    assert len(looked) == 2 and looked[0][0] > first.long_side
    ((x0, y0, x1, y1),) = looked[0][1]
    box = doubtful[0]
    assert x0 <= box[0] and y0 <= box[1] and box[2] <= x1 and box[3] <= y1
    assert (x1 - x0) * (y1 - y0) < 0.1 * frame.shape[0] * frame.shape[1]
    assert sorted(again.pips.tolist()) == sorted(first.found.pips.tolist())
    # Doubt all over the tray: the whole frame is looked at again.
    looked.clear()
    everywhere = reader._Look(**{**vars(first), "doubtful": first.found.boxes})
    assert len(reader._looked_again(loc, readers, frame, cfg, everywhere)) == 12
    assert looked == []


def _dice(boxes, confidence, unsure=None) -> Detections:
    """Regular red 3s in `boxes` with these confidences (sure unless told)."""
    n = len(boxes)
    return Detections(
        np.array(boxes, np.float32).reshape(-1, 4),
        [3] * n,
        ["red"] * n,
        ["regular"] * n,
        confidence,
        [False] * n if unsure is None else unsure,
    )


def test_looks_are_merged_into_the_surest_with_the_dice_it_lacks() -> None:
    from vision.reader import _merged

    first = _dice([[0, 0, 20, 20], [30, 0, 50, 20]], [0.9, 0.9])
    larger = _dice(
        [
            [1, 1, 21, 21],  # the first look's die again
            [60, 0, 80, 20],  # a die the first look missed: joins
            [90, 0, 110, 20],  # missed too, and unsure: joins, flagged unsure
            [25, -5, 55, 25],  # centred outside the first look's boxes, but holding one's centre
        ],
        [0.4, 0.7, 0.3, 0.3],  # 1.7 in all, against the first look's 1.8
        [False, False, True, False],
    )
    merged = _merged([first, larger])
    assert merged.boxes.tolist() == [
        [0, 0, 20, 20],
        [30, 0, 50, 20],
        [60, 0, 80, 20],
        [90, 0, 110, 20],
    ]
    assert merged.unsure.tolist() == [False, False, False, True]
    # The surest look leads, whichever came first.
    surer = _dice([[0, 0, 20, 20], [30, 0, 50, 20], [60, 0, 80, 20]], [0.9, 0.9, 0.9])
    assert _merged([first, surer]).boxes.tolist() == surer.boxes.tolist()
    assert len(_merged([Detections.empty(), first])) == 2


def test_large_dice_join_the_usual_look_and_its_pips_give_way() -> None:
    from vision.reader import _with_large_dice

    usual = _dice(
        [
            [150, 150, 180, 180],  # a pip of the large die, boxed as a small die
            [250, 250, 280, 280],  # another
            [500, 20, 540, 60],  # a die of its own, away from the large one
        ],
        [0.5, 0.3, 0.9],
    )
    close = _dice(
        [
            [100, 100, 340, 340],  # the large die, read for sure: kept, its pips give way
            [360, 300, 600, 470],  # large but unsure: left out
            [500, 18, 542, 62],  # the small die again: the usual look's reading stays
        ],
        [0.9, 0.8, 0.9],
        [False, True, False],
    )
    joined = _with_large_dice(usual, close, 640)
    assert joined.boxes.tolist() == [[100, 100, 340, 340], [500, 20, 540, 60]]


@pytest.mark.parametrize(
    ("close_confidence", "close_pips", "usual_box", "kept"),
    [
        (0.9, 3, [200, 200, 230, 230], True),  # a pip's box, an eighth of the die: kept
        (0.9, 1, [150, 150, 215, 215], False),  # a die of its own within it: a disc under dice
        (0.4, 3, [200, 200, 230, 230], False),  # read weakly: a shadow or a patch of table
        (0.9, 0, [200, 200, 230, 230], False),  # read blank: a grey patch, not a die with pips
        (0.7, 1, [200, 200, 240, 240], False),  # less sure than the die it holds: a region, read 1
    ],
)
def test_a_large_box_counts_as_a_die_only_read_for_sure_with_pips_and_holding_no_die(
    close_confidence, close_pips, usual_box, kept
) -> None:
    from vision.reader import _with_large_dice

    usual = _dice([usual_box], [0.8])
    close = Detections(
        np.array([[100, 100, 340, 340]], np.float32),
        [close_pips],
        ["red"],
        ["regular"],
        [close_confidence],
        [False],
    )
    joined = _with_large_dice(usual, close, 640)
    assert (joined.boxes.tolist() == [[100, 100, 340, 340]]) is kept
    assert len(joined) == 1  # the large die in place of the pip's box, or the usual look alone


def test_a_die_filling_half_the_frame_is_read() -> None:
    # A close-up: a die 240 px across in a 640x480 frame. The usual look boxes its pips.
    frame, boxes = dice_frame([(320, 240, 240, (40, 40, 200), 5)], np.random.default_rng(5))
    det = read_dice(frame)
    assert det.pips.tolist() == [5]
    assert np.abs(det.boxes[0] - boxes[0]).max() < 40
    # Without the look for large dice, only the pips are boxed (as dice in doubt).
    pips_only = read_dice(frame, ReaderConfig(look_for_large_dice=False))
    assert all(np.abs(box - boxes[0]).max() >= 40 for box in pips_only.boxes)


def test_a_die_the_frame_cuts_is_reported_unsure_not_dropped(rendered_scenes) -> None:
    # Each whole die of the rendered scenes, with the frame cut through it so that 55 % of it
    # shows: a die seen at the edge of the picture, which the readers cannot read for sure.
    from vision.locate import centred_in, clear_of_edge

    cut = found = flagged_or_right = 0
    for frame, truths in rendered_scenes[:10]:
        for t in truths:
            box = np.array(t.box, np.float32)
            if t.label in (0, 7) or box[2] - box[0] < 20:
                continue
            if not clear_of_edge(box[None], frame.shape)[0]:
                continue
            edge = int(box[0] + 0.55 * (box[2] - box[0]))
            det = read_dice(np.ascontiguousarray(frame[:, :edge]))
            seen = centred_in(np.array([[box[0], box[1], edge - 1, box[3]]]), det.centres)[0]
            cut += 1
            if seen.any():
                found += 1
                j = int(np.nonzero(seen)[0][0])
                flagged_or_right += bool(det.unsure[j]) or int(det.pips[j]) == t.label
    # Dropped as unreadable, a third of them were found; kept unsure, nine in ten.
    assert cut >= 40
    assert found >= 0.8 * cut
    assert flagged_or_right >= found - 1


def test_only_sure_boxes_on_no_kept_die_are_kept_as_dice_seen_but_not_read() -> None:
    from vision.reader import CUT_DIE_SCORE, UNREAD_DIE_SCORE, _seen_unread

    at_edge, inside = CUT_DIE_SCORE + 0.1, UNREAD_DIE_SCORE + 0.1
    cases = [  # box, locator score, pips, a die to the readers, kept, seen but not read
        ([0, 100, 30, 150], at_edge, 3, True, False, True),  # at the left edge: a cut die
        ([300, 100, 350, 150], at_edge, 2, True, False, False),  # inside: needs a surer box
        ([300, 300, 350, 350], inside, 2, True, False, True),  # inside and that sure: cocked
        ([610, 100, 639, 150], CUT_DIE_SCORE - 0.1, 5, True, False, False),  # an unsure box
        ([0, 300, 30, 350], at_edge, 0, True, False, False),  # blank: only grey dice are
        ([0, 400, 40, 450], at_edge, 4, True, False, False),  # on a die already kept
        ([5, 405, 45, 455], 0.9, 4, True, True, False),  # the die kept
        ([610, 0, 639, 40], at_edge, 6, True, False, False),  # two boxes on one cut die:
        ([605, 2, 639, 44], at_edge + 0.1, 6, True, False, True),  # the surer is kept
        ([0, 200, 30, 250], at_edge, 1, False, False, False),  # called no die by the readers
    ]
    boxes, scores, pip, is_die, keep, seen = (
        np.array(column) for column in zip(*cases, strict=True)
    )
    assert (
        _seen_unread((480, 640, 3), boxes.astype(np.float32), scores, pip, is_die, keep).tolist()
        == seen.tolist()
    )


def test_a_die_boxed_twice_is_read_once_and_neighbours_alike_stay_two() -> None:
    from vision.reader import _once_per_die

    cases = [  # box, pips, confidence, kept, kept as a die of its own
        ([0, 41, 59, 110], 2, 0.73, True, True),  # a large die near the camera: its top face,
        ([10, 57, 88, 122], 2, 0.42, True, False),  # and the whole die with its sides
        ([200, 100, 240, 140], 5, 0.8, True, True),  # two 5s side by side, touching
        ([238, 100, 278, 140], 5, 0.6, True, True),
        ([200, 300, 250, 350], 3, 0.5, True, True),  # one die read two ways: not one die
        ([210, 305, 245, 345], 1, 0.4, True, True),  # read twice, so both stay (in doubt)
        ([400, 300, 450, 350], 4, 0.9, False, False),  # dropped already
        ([405, 305, 445, 345], 4, 0.3, True, True),  # on a dropped box: the only reading
    ]
    boxes, pip, confidence, keep, once = (np.array(column) for column in zip(*cases, strict=True))
    assert _once_per_die(boxes.astype(np.float32), pip, confidence, keep).tolist() == once.tolist()


def test_dice_read_plainly_make_a_quick_look_large_box_a_region_not_a_die() -> None:
    # Twelve dice at 1280x720: the quick look boxes a group of them as one large die.
    from vision import locate
    from vision.onnx_models import LOCATOR_FILE, model_path, open_session
    from vision.simtable import SimDie, SimulatedTable

    table = SimulatedTable(seed=0, width=1280, height=720, die_side=75.0)
    table.open()
    colours = ("red", "blue", "green", "yellow", "purple", "black")
    table.lay([SimDie(colours[k % 6], 1 + k % 6) for k in range(12)])
    frame = table.read()
    usual = read_dice(frame, ReaderConfig(look_for_large_dice=False))
    assert len(usual) == 12
    loc = open_session(str(model_path(LOCATOR_FILE)), 1)
    assert locate.large_dice_look(loc, frame, 0.2, usual.boxes) is not None
    assert locate.large_dice_look(loc, frame, 0.2, usual.boxes, usual.boxes) is None
    assert read_dice(frame).pips.tolist() == usual.pips.tolist()


def test_a_reader_told_the_pips_are_not_needed_reads_each_box_with_the_first_reader_once(
    rendered_scenes, monkeypatch
) -> None:
    from vision import pips
    from vision.onnx_models import PIPS_FILES, model_path, open_session

    frame, truths = rendered_scenes[0]
    default = read_dice(frame, ReaderConfig(camera_place="above"))
    used: list = []
    real_infer = pips.infer

    def counted(session, crops):
        used.append(session)
        return real_infer(session, crops)

    monkeypatch.setattr(pips, "infer", counted)
    quick = read_dice(frame, ReaderConfig(camera_place="above", pips_needed=False))
    first = open_session(str(model_path(PIPS_FILES[0])), 1)
    assert used and all(session is first for session in used)
    # The same readable dice are found, whatever their pips (a die the frame cuts, kept
    # unread by the full reader, may be left out).
    readable = [t for t in truths if t.label != 7]
    assert all(_match(t.box, quick.boxes) is not None for t in readable)
    assert len(readable) <= len(quick) <= len(default)


def test_a_reader_told_the_caller_judges_sizes_names_every_die_regular(
    rendered_scenes, monkeypatch
) -> None:
    from vision import size

    def judged(*_args, **_kwargs):
        raise AssertionError("the reader judged the sizes")

    monkeypatch.setattr(size, "sizes", judged)
    det = read_dice(rendered_scenes[1][0], ReaderConfig(judge_sizes=False))
    assert len(det) and set(det.size) == {"regular"}
