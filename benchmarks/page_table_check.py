"""The round-end check as the page makes it, on the simulated table: games of 2-5 players
played through the table hub to each payout, with one die misplaced at every round's end;
prints how many misplacements were caught (every casino they changed flagged, no other), the
time of the hub's whole check (row drawn, markers found, row read, compared, photo made and
stored; medians and the worst), and the photos' sizes.

    taskset -c 1 python benchmarks/page_table_check.py --games 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.session import GameStore  # noqa: E402
from companion.state import Phase  # noqa: E402
from vision.simtable import SimulatedTable  # noqa: E402
from web.actions import act  # noqa: E402
from web.hub import TableHub  # noqa: E402

COLOURS = ("red", "blue", "green", "yellow", "orange")


class SimCamera:
    """The simulated table as the hub's camera, without the camera thread."""

    def __init__(self, seed: int) -> None:
        self.sim_table = SimulatedTable(seed=seed)

    def set_config(self, config: object) -> None:
        pass

    def snapshot(self) -> None:
        return None


def send(hub: TableHub, action: str, **fields: object) -> dict:
    return act(hub, {"action": action, "base": hub.version()} | fields, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    caught = rounds = 0
    times: list[float] = []
    sizes: list[int] = []
    with tempfile.TemporaryDirectory() as folder:
        for game in range(args.games):
            hub = TableHub(GameStore(Path(folder) / f"g{game}.sqlite3"), seed=game)
            pick = random.Random(game)  # a placement at random among those offered
            hub.attach_camera(SimCamera(game))
            count = 2 + game % 4
            players = [{"name": f"P{i}", "colour": COLOURS[i]} for i in range(count)]
            send(hub, "new_game", edition="classic", players=players)
            send(hub, "sim_misplace", on=True)
            while hub.game is not None and hub.game.phase is not Phase.OVER:
                state = hub.snapshot()["game"]
                assert isinstance(state, dict)
                if state["phase"] == "payout":
                    rounds += 1
                    check = hub.snapshot()["table_check"]
                    row = hub.sim_row()
                    assert isinstance(check, dict) and row is not None, hub.snapshot()["notice"]
                    what = row.last_misplacement
                    assert what is not None
                    flagged = {c["casino"] for c in check["casinos"] if not c["agrees"]}
                    caught += flagged == {what.source, what.target} - {None}
                    send(hub, "sim_fix_casinos")
                    start = time.perf_counter()
                    send(hub, "check_table")
                    times.append(time.perf_counter() - start)
                    sizes.append(len(hub.store.photo(hub.session.game_id, hub.game.round) or b""))
                    send(hub, "event", event={"type": "payout", "slot_choices": []})
                elif state["choices"] and state["phase"] != "roll":
                    choice = pick.choice(state["choices"])
                    send(hub, "event", event=choice["event"])
                else:
                    send(hub, "simulate")
    print(f"rounds: {rounds}, misplacements caught exactly: {caught}/{rounds}")
    print(
        f"whole check: median {1000 * statistics.median(times):.0f} ms, "
        f"worst {1000 * max(times):.0f} ms"
    )
    print(
        f"photo: median {statistics.median(sizes) / 1000:.1f} kB, most {max(sizes) / 1000:.1f} kB"
    )


if __name__ == "__main__":
    main()
