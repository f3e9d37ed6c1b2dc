"""The pip step: combining the readers, and a second, mirrored look only at doubtful crops."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from vision import pips


class ScriptedReader:
    """Stands in for an ONNX session: logits from the crop's mean brightness, batches recorded."""

    def __init__(self) -> None:
        self.batches: list[int] = []

    def get_inputs(self) -> list[SimpleNamespace]:
        return [SimpleNamespace(name="image")]

    def run(self, _outputs, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        crops = feeds["image"]
        self.batches.append(len(crops))
        logits = np.zeros((len(crops), 9), np.float32)
        for i, crop in enumerate(crops):
            # A bright crop is a sure 6; a dark one is torn between 2 and 3, leaning to 3
            # more when mirrored (left half brighter than the right).
            if crop.mean() > 128:
                logits[i, 6] = 10.0
            else:
                lean = 1.0 if crop[..., :20].mean() > crop[..., 20:].mean() else -1.0
                logits[i, 2], logits[i, 3] = 3.0 - lean, 3.0 + lean
        return [logits]


def test_only_doubtful_crops_are_read_again_mirrored() -> None:
    frame = np.zeros((100, 200, 3), np.uint8)
    frame[:, :100] = 220  # a bright die on the left
    frame[:, 100:140] = 60  # a dark one on the right, brighter on its left side
    frame[:, 140:] = 20
    boxes = np.array([[20, 20, 80, 80], [110, 20, 170, 80]], np.float32)
    readers = [ScriptedReader(), ScriptedReader()]
    got, conf, unsure, is_die = pips.read_pips(readers, frame, boxes)
    # The first reader reads both crops; the second only the dark one it was unsure of; then
    # both read the dark one mirrored.
    assert [r.batches for r in readers] == [[2, 1], [1, 1]]
    assert got[0] == 6 and not unsure[0] and conf[0] > 0.99
    # The two looks disagree (3 then 2), so the averaged reading is a coin toss: unsure.
    assert got[1] in (2, 3) and unsure[1] and is_die.all()


def test_no_second_look_without_mirroring() -> None:
    frame = np.full((100, 100, 3), 60, np.uint8)
    reader = ScriptedReader()
    pips.read_pips([reader], frame, np.array([[20, 20, 80, 80]], np.float32), mirror=False)
    assert reader.batches == [1]


class FixedReader:
    """Stands in for an ONNX session that gives every crop the same logits."""

    def __init__(self, logits: list[float]) -> None:
        self.logits = np.array(logits, np.float32)

    def get_inputs(self) -> list[SimpleNamespace]:
        return [SimpleNamespace(name="image")]

    def run(self, _outputs, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        return [np.tile(self.logits, (len(feeds["image"]), 1))]


def test_one_dissenting_reader_of_three_leaves_a_clear_die_sure() -> None:
    sure_three = [0, 0, 0, 6, 0, 0, 0, 0, 0]  # about 0.94 for a 3
    torn = [0, 0, 4, 4, 0, 0, 0, 4, 0]  # 2, 3 or cocked: a third each
    frame = np.full((100, 100, 3), 60, np.uint8)
    box = np.array([[20, 20, 80, 80]], np.float32)
    readers = [FixedReader(torn), FixedReader(sure_three), FixedReader(sure_three)]
    got, conf, unsure, is_die = pips.read_pips(readers, frame, box)
    assert got[0] == 3 and not unsure[0] and conf[0] > 0.9 and is_die[0]
    # Averaged, the same three readings would give the 3 only about 0.74.
    mean = np.mean([pips.infer(r, np.zeros((1, 3, 40, 40), np.float32)) for r in readers], 0)
    assert 0.6 < mean[0, 3] < 0.8


class CountingReader(FixedReader):
    """A FixedReader that counts the crops it is given."""

    def __init__(self, logits: list[float]) -> None:
        super().__init__(logits)
        self.crops = 0

    def run(self, outputs, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        self.crops += len(feeds["image"])
        return super().run(outputs, feeds)


def test_a_face_the_first_reader_is_sure_of_is_not_read_by_the_others() -> None:
    sure_five = [0, 0, 0, 0, 0, 9, 0, 0, 0]
    readers = [CountingReader(sure_five), CountingReader(sure_five), CountingReader(sure_five)]
    frame = np.full((100, 100, 3), 60, np.uint8)
    boxes = np.array([[10, 10, 40, 40], [50, 50, 90, 90]], np.float32)
    got, _conf, unsure, _is_die = pips.read_pips(readers, frame, boxes)
    assert got.tolist() == [5, 5] and not unsure.any()
    assert [r.crops for r in readers] == [2, 0, 0]


def test_the_first_reader_alone_calls_a_box_no_die_only_where_it_is_sure() -> None:
    doubtful_not_a_die = [0, 0, 0, 0, 0, 0, 0, 0, 2]  # 0.48: under pips.FIRST_READER_NO_DIE
    sure_four = [0, 0, 0, 0, 9, 0, 0, 0, 0]
    readers = [
        CountingReader(doubtful_not_a_die),
        CountingReader(sure_four),
        CountingReader(sure_four),
    ]
    frame = np.full((100, 100, 3), 60, np.uint8)
    box = np.array([[20, 20, 80, 80]], np.float32)
    got, _conf, _unsure, is_die = pips.read_pips(readers, frame, box)
    assert [r.crops for r in readers] == [1, 1, 1]  # put to the vote, which overrules it
    assert got[0] == 4 and is_die[0]
    sure_not_a_die = [0, 0, 0, 0, 0, 0, 0, 0, 9]
    readers = [CountingReader(sure_not_a_die), CountingReader(sure_four), CountingReader(sure_four)]
    _got, _conf, _unsure, is_die = pips.read_pips(readers, frame, box)
    assert [r.crops for r in readers] == [1, 0, 0]  # read once: neither voted on nor mirrored
    assert not is_die[0]


def test_many_crops_are_read_in_runs_of_at_most_infer_chunk() -> None:
    reader = ScriptedReader()
    crops = np.zeros((2 * pips.INFER_CHUNK + 5, 3, 40, 40), np.float32)
    crops[::3] = 220  # every third crop a bright die, read apart from its neighbours
    probs = pips.infer(reader, crops)
    assert reader.batches == [pips.INFER_CHUNK, pips.INFER_CHUNK, 5]
    assert probs.shape == (len(crops), 9)
    assert (probs.argmax(1) == np.where(np.arange(len(crops)) % 3 == 0, 6, 2)).all()


def test_crops_of_several_views_are_those_cut_one_view_at_a_time() -> None:
    from vision.crops import crop_dice, crop_dice_views

    rng = np.random.default_rng(3)
    frame = rng.integers(0, 255, (720, 1280, 3), np.uint8)
    # Small boxes (no blur), mid-sized (blurred) and large ones (shrunk first, then blurred).
    boxes = np.array(
        [[10, 10, 40, 40], [300, 200, 420, 330], [100, 50, 900, 700], [-20, 600, 200, 760]],
        np.float32,
    )
    turns = rng.uniform(0, 2 * np.pi, (2, len(boxes)))
    downs = [None] + [np.stack([np.sin(t), np.cos(t)], 1) for t in turns]
    views = crop_dice_views(frame, boxes, downs)
    for down, crops in zip(downs, views, strict=True):
        assert np.array_equal(crops, crop_dice(frame, boxes, down=down))
    assert not np.array_equal(views[1], views[2])


def test_crops_the_first_reader_read_in_the_frame_are_not_read_again() -> None:
    frame = np.zeros((100, 200, 3), np.uint8)
    frame[:, :100] = 220
    frame[:, 100:] = 60
    boxes = np.array([[20, 20, 80, 80], [110, 20, 170, 80]], np.float32)
    alone = pips.read_pips([ScriptedReader()], frame, boxes, mirror=False)
    known: pips.FirstReads = {}
    reader = ScriptedReader()
    first = pips.read_pips([reader], frame, boxes, mirror=False, known=known)
    again = pips.read_pips([reader], frame, boxes, mirror=False, known=known)
    turned = pips.read_pips(
        [reader], frame, boxes[:1], mirror=False, camera_place="left", known=known
    )
    # Read once, the same reading each time; a crop turned for another camera place is new.
    assert reader.batches == [2, 1] and len(known) == 3
    for a, b, c in zip(alone, first, again, strict=True):
        assert np.array_equal(a, b) and np.array_equal(a, c)
    assert turned[0][0] == 6  # the bright die, turned


def test_the_camera_place_search_reads_no_crop_the_frame_has_read() -> None:
    frame = np.full((200, 300, 3), 60, np.uint8)
    boxes = np.array([[20, 20, 80, 80], [110, 20, 170, 80], [20, 110, 80, 170]], np.float32)
    scores = np.array([0.9, 0.8, 0.7], np.float32)
    known: pips.FirstReads = {}
    reader = ScriptedReader()
    pips.read_pips([reader], frame, boxes, mirror=False, known=known)
    place = pips.surest_camera_place(reader, frame, boxes, scores, known)
    alone = pips.surest_camera_place(ScriptedReader(), frame, boxes, scores)
    # The crops seen from the usual place were read; only the other four places' are new.
    assert reader.batches == [3, 12] and place == alone
    pips.read_pips([reader], frame, boxes, mirror=False, camera_place=place, known=known)
    assert reader.batches == [3, 12]
