"""The simulated table's casino row: the dice lying on each casino card, as players laid them,
drawn from above with `vision.sim_casinos`, and a misplacement mode that, once the last die
of a round is down, moves a die to the wrong casino, leaves one out or adds one (seeded).

It is kept beside a `SimulatedTable` (`casino_row_of`): the arena and the casino row are two
views of one table, as a real camera's frame shows both.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from vision.sim_casinos import EASY, Misplacement, RowSettings, misplace, row_scene
from vision.simtable import SimDie, SimulatedTable

SMALLER_TRIES = 3
"""How often a row too full to lay is drawn again with dice 15 % smaller before giving up."""
CASINOS = range(1, 8)
"""Casinos 1-6 and the slot machine (7)."""


class SimCasinoRow:
    """What lies on the simulated casino cards, and the frame that shows it. Thread-safe: the
    camera thread and the page's actions may use it at once."""

    def __init__(self, seed: int = 0, settings: RowSettings = EASY) -> None:
        self._lock = threading.Lock()
        self._rng = np.random.default_rng(seed)
        self._seed = seed
        self.settings = settings
        self._dice: dict[int, list[SimDie]] = {n: [] for n in CASINOS}
        self._notes: dict[int, tuple[int, ...]] = {}
        self._frame: np.ndarray | None = None
        self._laid = 0  # how often the row changed: each look at a new row is drawn anew
        self.misplacing = False
        self.misplace_kind: str | None = None  # "moved", "left out", "added"; None: at random
        self.misplace_next_placement = False  # misplace once, at the next placement
        self.following: int | None = None  # the game it was laid for (`web.hub.TableHub`)
        self.last_misplacement: Misplacement | None = None

    @property
    def dice(self) -> dict[int, list[SimDie]]:
        """The dice lying on each casino now (the ground truth, for tests)."""
        with self._lock:
            return {n: list(d) for n, d in self._dice.items()}

    def lay(self, dice: Mapping[int, Sequence[SimDie]], notes: Mapping[int, Sequence[int]]) -> None:
        """Make the row hold exactly these dice and notes (a table put right, a new round)."""
        with self._lock:
            self._dice = {n: list(dice.get(n, ())) for n in CASINOS}
            self._notes = {n: tuple(v) for n, v in notes.items()}
            self._changed()

    def change(
        self,
        added: Mapping[int, Sequence[SimDie]],
        removed: Mapping[int, Sequence[SimDie]],
        notes: Mapping[int, Sequence[int]],
    ) -> None:
        """Lay `added` dice on their casinos and take `removed` ones off (those that lie there;
        a die taken off that is not there is not looked for elsewhere)."""
        with self._lock:
            for number, gone in removed.items():
                for die in gone:
                    if die in self._dice[number]:
                        self._dice[number].remove(die)
            for number, laid in added.items():
                self._dice[number].extend(laid)
            self._notes = {n: tuple(v) for n, v in notes.items()}
            self._changed()

    def misplace(self, colours: Sequence[str], casinos: Sequence[int] = CASINOS) -> Misplacement:
        """One misplacement at random among `casinos` (those the game plays): a die moved, left
        out, or added in one of `colours`."""
        with self._lock:
            played = {n: self._dice[n] for n in casinos}
            out, what = misplace(played, self._rng, list(colours), self.misplace_kind)
            self._dice = {n: list(out.get(n, self._dice[n])) for n in CASINOS}
            self.last_misplacement = what
            self._changed()
            return what

    def frame(self) -> np.ndarray:
        """The casino row as the camera sees it now (1280x720 BGR, markers at the cards'
        corners). ValueError where a card holds more dice than fit on it."""
        with self._lock:
            if self._frame is None:
                self._frame = self._drawn()
            return self._frame

    def _drawn(self) -> np.ndarray:
        """The row drawn; dice a little smaller where a card cannot hold them at full size."""
        settings = self.settings
        for _ in range(SMALLER_TRIES):
            try:
                scene = row_scene(
                    self._dice, self._notes, self._seed + self._laid, settings=settings
                )
                return scene.frame
            except ValueError:
                settings = replace(settings, die_side=settings.die_side * 0.85)
        return row_scene(self._dice, self._notes, self._seed + self._laid, settings=settings).frame

    def _changed(self) -> None:
        self._laid += 1
        self._frame = None


def casino_row_of(table: SimulatedTable) -> SimCasinoRow:
    """The casino row beside a simulated table, made on first use."""
    row = table.casino_row
    if not isinstance(row, SimCasinoRow):
        row = SimCasinoRow(seed=table.seed)
        table.casino_row = row
    return row
