"""The detection container checks its shapes and values and converts to JSON-ready dicts."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detections import Detections


def _ok(n: int = 2) -> dict:
    return {
        "boxes": np.zeros((n, 4)),
        "pips": [1] * n,
        "colour": ["red"] * n,
        "size": ["regular"] * n,
        "confidence": [0.9] * n,
        "unsure": [False] * n,
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # boxes with five numbers a row
        ({"boxes": np.zeros((3, 5))}, r"boxes must have shape \(n, 4\), got \(3, 5\)"),
        # one pips value short
        ({"pips": [1]}, r"pips must have shape \(2,\), got \(1,\)"),
        # a seven is not a die face
        ({"pips": [1, 7]}, r"pips must lie in 0-6"),
        # sizes are regular or big only
        ({"size": ["regular", "huge"]}, r"size must be one of"),
        # confidence as a column instead of a vector
        ({"confidence": np.zeros((2, 1))}, r"confidence must have shape \(2,\), got \(2, 1\)"),
    ],
)
def test_bad_shapes_are_named(change: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Detections(**{**_ok(), **change})


def test_to_dicts_and_select() -> None:
    det = Detections(
        np.array([[1, 2, 30, 40], [50, 60, 90, 100]]),
        [4, 0],
        ["red", "grey"],
        ["regular", "big"],
        [0.98, 0.5],
        [False, True],
    )
    dicts = det.to_dicts()
    assert dicts[0] == {
        "box": [1.0, 2.0, 30.0, 40.0],
        "pips": 4,
        "colour": "red",
        "size": "regular",
        "confidence": 0.98,
        "unsure": False,
        "zone": None,
        "colour_doubt": False,
    }
    assert dicts[1]["pips"] == 0 and dicts[1]["unsure"] is True
    only = det.select(det.size == "big")
    assert len(only) == 1 and only.colour[0] == "grey"
    assert len(Detections.empty()) == 0


def test_container_is_frozen() -> None:
    det = Detections(**_ok())
    with pytest.raises(AttributeError):
        det.pips = np.zeros(2)  # type: ignore[misc]


def test_joined_keeps_every_field_in_order() -> None:
    first = Detections(**_ok(1)).with_zones(["casino3"])
    second = Detections(
        np.ones((2, 4)), [5, 6], ["blue", "grey"], ["big", "regular"], [0.5, 0.6], [True, False]
    )
    both = first.joined(second)
    assert both.pips.tolist() == [1, 5, 6]
    assert both.colour.tolist() == ["red", "blue", "grey"]
    assert both.size.tolist() == ["regular", "big", "regular"]
    assert both.unsure.tolist() == [False, True, False]
    assert both.zone.tolist() == ["casino3", None, None]
    assert both.boxes.shape == (3, 4) and both.confidence.dtype == np.float32
    assert len(Detections.empty().joined(first)) == 1


def test_the_body_colours_measured_go_with_their_dice() -> None:
    measured = Detections(**_ok(1), body=np.array([[50.0, 45.0, 180.0]]))
    unmeasured = Detections(
        np.ones((2, 4)), [5, 6], ["blue", "grey"], ["big", "regular"], [0.5, 0.6], [True, False]
    )
    both = measured.joined(unmeasured)
    assert both.body.shape == (3, 3) and both.body.dtype == np.float32
    assert both.body[0].tolist() == [50, 45, 180] and np.isnan(both.body[1:]).all()
    assert both.select([2, 0]).body[1].tolist() == [50, 45, 180]
    assert both.with_zones(["a", "b", "c"]).body[0].tolist() == [50, 45, 180]
    with pytest.raises(ValueError, match=r"body must have shape \(1, 3\)"):
        Detections(**_ok(1), body=np.zeros(3))
