"""What the table hub holds besides the game file: the game on the table, what the camera read
for it, the last notice and the PIN alert, each a frozen value the hub replaces."""

from __future__ import annotations

from dataclasses import dataclass

from companion.proposal import Proposal
from companion.session import GameSession


@dataclass(frozen=True)
class Notice:
    """What the pages mention of the last thing that happened: who did it (`source`: page,
    camera, simulated) and one of the event applied, the camera's problem, or the number the
    camera saw taken where it could not tell the placement."""

    source: str
    event: str | None = None
    problem: str | None = None
    took: int | None = None


@dataclass(frozen=True)
class Reading:
    """The camera's proposal for the roll, the game state (`TableHub.version`) it was read
    for, and whether it was applied."""

    proposal: Proposal
    version: str
    applied: bool = False


@dataclass(frozen=True)
class PinAlert:
    """Wrong PINs entered since the right one, and the address of the last device to try."""

    wrong: int
    client: str


@dataclass(frozen=True)
class OnTable:
    """The game on the table (None: none), its players' dice colours, the camera's reading
    for it and the last notice."""

    session: GameSession | None = None
    colours: tuple[str, ...] = ()
    reading: Reading | None = None
    notice: Notice | None = None
