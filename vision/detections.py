"""The detection container: what the reader saw in one frame, as parallel arrays."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

SIZES = ("regular", "big")
FIELDS = (
    "boxes",
    "pips",
    "colour",
    "size",
    "confidence",
    "unsure",
    "zone",
    "colour_doubt",
    "likely_pips",
    "body",
)


def _check(name: str, arr: np.ndarray, shape: tuple[int, ...]) -> None:
    """Raise ValueError naming the array when its shape is not the expected one."""
    if arr.shape != shape:
        raise ValueError(f"{name} must have shape {_fmt(shape)}, got {arr.shape}")


def _fmt(shape: tuple[int, ...]) -> str:
    """Write a shape with n for the die count, as in the docstring."""
    return "(" + ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


@dataclass(frozen=True)
class Detections:
    """Dice read in one frame, n of them, as parallel arrays.

    boxes: (n, 4) float32, x0 y0 x1 y1 in pixels around the whole die.
    pips: (n,) int8, 1-6, 0 for a blank die.
    colour: (n,) object, colour names.
    size: (n,) object, "regular" or "big".
    confidence: (n,) float32 in [0, 1].
    unsure: (n,) bool, True where the die could not be read for sure.
    zone: (n,) object, zone name or None.
    colour_doubt: (n,) bool, True where the die's body lies between two colours, so that its
        colour name is a guess (before calibration); all False when not given.
    likely_pips: (n,) uint8, for a die in doubt for its pips alone (surely a die, of its colour
        and size), the numbers of pips it likely shows as bits (bit k: k pips); 0 where its
        doubt is more than its pips, or where it is read for sure; all 0 when not given.
    body: (n, 3) float32, the BGR body colour the reader named each die's colour from (see
        `vision.colour.body_colours`), NaN where not measured; all NaN when not given.
    """

    boxes: np.ndarray
    pips: np.ndarray
    colour: np.ndarray
    size: np.ndarray
    confidence: np.ndarray
    unsure: np.ndarray
    zone: np.ndarray = field(default=None)  # type: ignore[arg-type]
    colour_doubt: np.ndarray = field(default=None)  # type: ignore[arg-type]
    likely_pips: np.ndarray = field(default=None)  # type: ignore[arg-type]
    body: np.ndarray = field(default=None)  # type: ignore[arg-type]

    def __post_init__(self) -> None:
        boxes = np.asarray(self.boxes, dtype=np.float32)
        if boxes.ndim != 2 or boxes.shape[1:] != (4,):
            raise ValueError(f"boxes must have shape (n, 4), got {boxes.shape}")
        n = len(boxes)
        zone = np.full(n, None, object) if self.zone is None else np.asarray(self.zone, object)
        doubt = np.zeros(n, bool) if self.colour_doubt is None else self.colour_doubt
        likely = np.zeros(n, np.uint8) if self.likely_pips is None else self.likely_pips
        body = np.full((n, 3), np.nan, np.float32) if self.body is None else self.body
        arrays: dict[str, np.ndarray] = {
            "boxes": boxes,
            "pips": np.asarray(self.pips, dtype=np.int8),
            "colour": np.asarray(self.colour, dtype=object),
            "size": np.asarray(self.size, dtype=object),
            "confidence": np.asarray(self.confidence, dtype=np.float32),
            "unsure": np.asarray(self.unsure, dtype=bool),
            "zone": zone,
            "colour_doubt": np.asarray(doubt, dtype=bool),
            "likely_pips": np.asarray(likely, dtype=np.uint8),
            "body": np.asarray(body, dtype=np.float32),
        }
        for name, arr in arrays.items():
            if name not in ("boxes", "body"):
                _check(name, arr, (n,))
            object.__setattr__(self, name, arr)
        _check("body", self.body, (n, 3))
        if n and (self.pips.min() < 0 or self.pips.max() > 6):
            raise ValueError(f"pips must lie in 0-6, got {sorted(set(self.pips.tolist()))}")
        bad = [s for s in self.size if s not in SIZES]
        if bad:
            raise ValueError(f"size must be one of {SIZES}, got {bad[0]!r}")

    @classmethod
    def empty(cls) -> Detections:
        """A frame without dice."""
        none = np.zeros(0)
        return cls(np.zeros((0, 4)), none, none, none, none, none)

    def __len__(self) -> int:
        return len(self.boxes)

    def select(self, keep: np.ndarray) -> Detections:
        """The dice picked by a boolean mask or an index array."""
        return Detections(*(getattr(self, name)[keep] for name in FIELDS))

    def joined(self, other: Detections) -> Detections:
        """These dice followed by `other`'s."""
        return Detections(
            *(np.concatenate([getattr(self, name), getattr(other, name)]) for name in FIELDS)
        )

    def with_zones(self, zone: np.ndarray | list[str | None]) -> Detections:
        """A copy with the zone of each die filled in."""
        return Detections(
            self.boxes,
            self.pips,
            self.colour,
            self.size,
            self.confidence,
            self.unsure,
            np.asarray(zone, object),
            self.colour_doubt,
            self.likely_pips,
            self.body,
        )

    @property
    def centres(self) -> np.ndarray:
        """Box centres, shape (n, 2)."""
        return (self.boxes[:, :2] + self.boxes[:, 2:]) / 2

    def to_dicts(self) -> list[dict[str, Any]]:
        """One JSON-ready dict per die."""
        return [
            {
                "box": [round(float(v), 1) for v in self.boxes[i]],
                "pips": int(self.pips[i]),
                "colour": str(self.colour[i]),
                "size": str(self.size[i]),
                "confidence": round(float(self.confidence[i]), 3),
                "unsure": bool(self.unsure[i]),
                "zone": None if self.zone[i] is None else str(self.zone[i]),
                "colour_doubt": bool(self.colour_doubt[i]),
            }
            for i in range(len(self))
        ]
