"""What the table hub holds besides the game file: the game on the table, what the camera read
for it, the last notice and the PIN alert, each a frozen value the hub replaces."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.events import CorrectCasino
from companion.proposal import Proposal
from companion.session import GameSession
from companion.table_check import TableCheck
from vision.detections import Detections


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
    for, and whether it was applied; with the dice of the settled roll it was read from and
    which of them it proposes (those of the throw alone, where only they fit), so the camera
    can learn their colours once a roll is applied."""

    proposal: Proposal
    version: str
    applied: bool = False
    read_from: Detections | None = field(default=None, compare=False, repr=False)
    used: tuple[bool, ...] = ()


@dataclass(frozen=True)
class CasinoCrop:
    """One casino in the round-end photo: where its zone lies (shares x0, y0, x1, y1 of the
    photo; None where the camera does not see it), and the correction that would make the
    game hold what the table shows (None where there is nothing to correct, or a person must
    look)."""

    casino: int
    box: tuple[float, float, float, float] | None
    correction: CorrectCasino | None = None


@dataclass(frozen=True)
class RoundCheck:
    """The casinos on the table checked against the game at a round's end: the game state
    (`TableHub.version`) it was made for, the round, the check, each casino's crop, who
    asked for it (camera or page), whether its photo was kept in the game file, and the
    number of the look (a new look, a new photo)."""

    version: str
    round: int
    check: TableCheck
    crops: tuple[CasinoCrop, ...]
    photo_size: tuple[int, int] = (0, 0)  # the photo's width and height in px
    source: str = "camera"
    stored: bool = False
    look: int = 0


@dataclass(frozen=True)
class PinAlert:
    """Wrong PINs entered since the right one, and the address of the last device to try."""

    wrong: int
    client: str


@dataclass(frozen=True)
class OnTable:
    """The game on the table (None: none), its players' dice colours, the camera's reading
    for it, the last notice, the last round-end check of its casinos and the rounds whose
    photo the game file keeps."""

    session: GameSession | None = None
    colours: tuple[str, ...] = ()
    reading: Reading | None = None
    notice: Notice | None = None
    check: RoundCheck | None = None
    photos: tuple[int, ...] = ()
