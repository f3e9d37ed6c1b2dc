"""The two ways dice reach the table: as the camera read them, and as a person entered them."""

from __future__ import annotations

from companion.dice import DieKind
from companion.errors import IllegalMove
from companion.events import Roll
from companion.proposal import ReadDie
from vision.detections import Detections

KIND_VALUES = frozenset(kind.value for kind in DieKind)
"""The kinds a page may name for an entered die."""


def dice_read(detections: Detections) -> tuple[ReadDie, ...]:
    """Each die the camera read, boxes to a tenth of a pixel and confidence to a thousandth
    (as the page and the game file see them)."""
    return tuple(
        ReadDie(
            pips=int(detections.pips[i]),
            colour=str(detections.colour[i]),
            big=detections.size[i] == "big",
            unsure=bool(detections.unsure[i]),
            box=_box(detections.boxes[i].tolist()),
            confidence=round(float(detections.confidence[i]), 3),
            colour_doubt=bool(detections.colour_doubt[i]),
        )
        for i in range(len(detections))
    )


def _box(corners: list[float]) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (round(float(v), 1) for v in corners)
    return x0, y0, x1, y1


def kept_from_entries(kept: object) -> tuple[bool, ...] | None:
    """Which of the camera's read dice a person kept in a corrected roll: true or false for
    each (None where not given)."""
    if kept is None:
        return None
    if not isinstance(kept, list) or not all(isinstance(k, bool) for k in kept):
        raise IllegalMove("malformed roll", f"kept is a list of true or false, got {kept!r}")
    return tuple(kept)


def roll_from_entries(entries: object) -> Roll:
    """A Roll from dice entered or corrected on the page: [{"pips": 3, "kind": "regular"}, ...]."""
    if not isinstance(entries, list) or not entries:
        raise IllegalMove(
            "malformed roll",
            f"a roll is a non-empty list of dice, got {entries!r}",
            why={"key": "roll_empty"},
        )
    values: dict[DieKind, list[int]] = {kind: [] for kind in DieKind}
    for entry in entries:
        if not isinstance(entry, dict):
            raise IllegalMove("malformed roll", f"each die is an object, got {entry!r}")
        pips, kind = entry.get("pips"), entry.get("kind", DieKind.REGULAR.value)
        if isinstance(pips, bool) or not isinstance(pips, int) or not 1 <= pips <= 6:
            raise IllegalMove("malformed roll", f"a rolled die shows 1-6, got {pips!r}")
        if not isinstance(kind, str) or kind not in KIND_VALUES:
            known = ", ".join(DieKind)
            raise IllegalMove("malformed roll", f"kind must be one of {known}, got {kind!r}")
        values[DieKind(kind)].append(pips)
    return Roll(**{kind.value: tuple(sorted(v)) for kind, v in values.items()})
