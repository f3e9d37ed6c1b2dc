"""What a judged light says of the light at the table."""

from __future__ import annotations

import numpy as np
import pytest

from vision.light import light_words


@pytest.mark.parametrize(
    ("lamp_bgr", "words"),
    [
        ((1.0, 1.0, 1.0), []),  # white light
        ((1.03, 1.0, 0.98), []),  # too little to tell a player about
        ((0.78, 1.0, 1.18), ["warm"]),  # a warm bulb
        ((1.18, 1.0, 0.85), ["cool"]),  # daylight from a window
        ((0.97, 1.12, 0.95), ["green"]),  # a fluorescent tube
        ((1.1, 0.88, 1.1), ["magenta"]),
        ((0.7, 0.7, 0.7), ["dim"]),
        ((0.6, 0.75, 0.9), ["warm", "dim"]),
        ((1.3, 1.3, 1.3), ["bright"]),
    ],
)
def test_a_judged_light_is_worded_as_the_lamp_it_undoes(lamp_bgr, words) -> None:
    undone_by = 1 / np.array(lamp_bgr)
    assert light_words(undone_by) == words


def test_no_light_judged_says_nothing() -> None:
    assert light_words(None) == []
