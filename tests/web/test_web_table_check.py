"""The round-end check on the simulated table: the casinos read at the last placement, the
payout held while they differ, the correction applied through the event action, the photo kept."""

from __future__ import annotations

import pytest

from companion.session import GameStore
from vision.simtable import SimulatedTable
from web.actions import act
from web.errors import ActionError
from web.hub import TableHub


class SimCamera:
    """The simulated table as the hub's camera, without the camera thread."""

    def __init__(self) -> None:
        self.sim_table = SimulatedTable(seed=4)

    def set_config(self, config: object) -> None:
        pass

    def snapshot(self) -> None:
        return None


def send(hub: TableHub, action: str, **fields: object) -> dict:
    return act(hub, {"action": action, "base": hub.version()} | fields, None)


def play_to_payout(hub: TableHub) -> None:
    """Chance rolls and the first placement offered, until the round waits for its payout."""
    for _ in range(300):
        game = hub.snapshot()["game"]
        assert game is not None
        if game["phase"] == "payout":
            return
        if game["choices"] and game["phase"] != "roll":
            send(hub, "event", event=game["choices"][0]["event"])
        else:
            send(hub, "simulate")
    raise AssertionError("the round never came to its payout")


@pytest.fixture
def hub(tmp_path):
    hub = TableHub(GameStore(tmp_path / "t.sqlite3"), seed=3)
    hub.attach_camera(SimCamera())
    players = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    act(hub, {"action": "new_game", "base": "none", "edition": "classic", "players": players}, None)
    return hub


def test_a_table_laid_as_the_game_is_checked_and_paid_out(hub):
    play_to_payout(hub)
    check = hub.snapshot()["table_check"]
    assert check is not None and check["agrees"], check
    assert check["photo"] and hub.snapshot()["photos"] == [1]
    jpeg = hub.store.photo(hub.session.game_id, 1)
    assert jpeg[:2] == b"\xff\xd8" and len(jpeg) <= 60_000
    send(hub, "event", event={"type": "payout", "slot_choices": []})
    assert hub.game.round == 2


def offered(check: dict) -> list[dict]:
    """The corrections a check offers, casino by casino."""
    return [c["correction"] for c in check["casinos"] if c["correction"] is not None]


def test_each_misplaced_die_holds_the_payout_until_it_is_put_right(hub):
    send(hub, "sim_misplace", on=True)
    kinds = set()
    for kind in ("moved", "left out", "added", None):
        hub.sim_row().misplace_kind = kind
        play_to_payout(hub)
        check = hub.snapshot()["table_check"]
        assert check is not None and not check["agrees"]
        what = hub.sim_row().last_misplacement
        kinds.add(what.kind)
        flagged = {c["casino"] for c in check["casinos"] if c["differences"]}
        assert {what.source, what.target} - {None} == flagged, (what, check)
        with pytest.raises(ActionError) as refused:
            send(hub, "event", event={"type": "payout", "slot_choices": []})
        assert refused.value.status == 409 and refused.value.why == {"key": "check_differs"}
        if what.kind == "added":  # a die more than its owner has: the table is put right
            assert not offered(check)
            send(hub, "sim_fix_casinos")
            send(hub, "check_table")
        # Each correction applied is checked again; a die moved is put right casino by casino.
        for _ in range(3):
            check = hub.snapshot()["table_check"]
            if check["agrees"]:
                break
            send(hub, "event", event=offered(check)[0])
        after = hub.snapshot()["table_check"]
        assert after is not None and after["agrees"], after
        paid = len(hub.game.payouts)
        send(hub, "event", event={"type": "payout", "slot_choices": []})
        assert len(hub.game.payouts) == paid + 1
    assert kinds == {"moved", "left out", "added"}


def test_a_table_put_right_and_checked_again_lets_the_payout_go_on(hub):
    send(hub, "sim_misplace", on=True)
    play_to_payout(hub)
    assert not hub.snapshot()["table_check"]["agrees"]
    send(hub, "sim_fix_casinos")
    assert send(hub, "check_table")["agrees"]
    send(hub, "event", event={"type": "payout", "slot_choices": []})
    assert hub.game.round == 2


def test_a_check_asked_for_on_a_full_disk_is_a_507_and_changes_nothing(tmp_path, small_disk):
    hub = TableHub(GameStore(small_disk.path / "t.sqlite3"), seed=3)
    hub.attach_camera(SimCamera())
    players = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    act(hub, {"action": "new_game", "base": "none", "edition": "classic", "players": players}, None)
    play_to_payout(hub)
    before = hub.snapshot()
    small_disk.fill()
    with pytest.raises(ActionError) as refused:
        send(hub, "check_table")
    assert (refused.value.status, refused.value.why) == (507, {"key": "disk_full"})
    assert hub.snapshot() == before
    small_disk.free()
    assert send(hub, "check_table")["agrees"]


def test_a_photo_the_file_cannot_take_leaves_the_camera_check_on_the_page(hub, monkeypatch):
    from companion.session import GameFileFull

    def full(*args: object) -> None:
        raise GameFileFull("the disk is full. Nothing was changed")

    monkeypatch.setattr(hub.store, "put_photo", full)
    send(hub, "sim_misplace", on=True)
    play_to_payout(hub)
    check = hub.snapshot()["table_check"]
    assert check is not None and not check["agrees"]
    assert check["stored"] is False and check["photo"] is None
    assert hub.snapshot()["photos"] == []
    with pytest.raises(ActionError) as refused:
        send(hub, "event", event={"type": "payout", "slot_choices": []})
    assert refused.value.why == {"key": "check_differs"}


def test_with_the_placement_check_a_die_on_the_wrong_casino_is_flagged_at_once(hub):
    send(hub, "placement_check", on=True)
    send(hub, "simulate")  # the deal
    send(hub, "simulate")  # Anna's roll
    row = hub.sim_row()
    send(hub, "event", event=hub.snapshot()["game"]["choices"][0]["event"])
    assert hub.snapshot()["table_check"]["agrees"]  # laid where the game has them
    row.misplace_kind, row.misplace_next_placement = "moved", True
    send(hub, "simulate")  # Ben's roll
    send(hub, "event", event=hub.snapshot()["game"]["choices"][0]["event"])
    assert hub.game.phase.value == "roll"
    check = hub.snapshot()["table_check"]
    what = row.last_misplacement
    assert what is not None and what.kind == "moved"
    assert {c["casino"] for c in check["casinos"] if not c["agrees"]} == {what.source, what.target}
    for _ in range(2):  # the casino that lost the die first, then the one that gained it
        send(hub, "event", event=offered(hub.snapshot()["table_check"])[0])
    assert hub.snapshot()["table_check"]["agrees"]
    send(hub, "placement_check", on=False)
    send(hub, "simulate")
    send(hub, "event", event=hub.snapshot()["game"]["choices"][0]["event"])
    assert hub.snapshot()["table_check"] is None  # not checked: only at round end


def _doubt_on_casino_one(monkeypatch, payout_sentences: tuple) -> None:
    """Checks where casino 1 also holds a die not read for sure, with these payout words."""
    from dataclasses import replace

    from companion.table_check import TableCheck
    from web import round_check

    real = round_check.check_table

    def doubtful(state, seen, owners):
        check = real(state, seen, owners)
        one = replace(check.casinos[0], unsure=1, payout_sentences=payout_sentences)
        return TableCheck((one, *check.casinos[1:]))

    monkeypatch.setattr(round_check, "check_table", doubtful)


def test_dice_in_doubt_that_change_nothing_at_payout_let_it_go_on(hub, monkeypatch):
    from companion.check_sentences import Sentence

    _doubt_on_casino_one(monkeypatch, (Sentence.of("no_change"),))
    play_to_payout(hub)
    check = hub.snapshot()["table_check"]
    assert not check["agrees"] and check["payout_may_go_on"]
    one = check["casinos"][0]
    assert (one["unsure"], one["agrees"], one["payout_may_go_on"]) == (1, False, True)
    send(hub, "event", event={"type": "payout", "slot_choices": []})
    assert hub.game.round == 2


def test_dice_in_doubt_that_may_change_the_payout_hold_it(hub, monkeypatch):
    from companion.check_sentences import Sentence

    _doubt_on_casino_one(monkeypatch, (Sentence.of("unsure", count=1),))
    play_to_payout(hub)
    check = hub.snapshot()["table_check"]
    assert not check["agrees"] and not check["payout_may_go_on"]
    with pytest.raises(ActionError) as refused:
        send(hub, "event", event={"type": "payout", "slot_choices": []})
    assert refused.value.why == {"key": "check_differs"}
    assert hub.game.round == 1


def test_a_biggy_read_as_a_regular_die_is_pointed_at_on_the_page(tmp_path, monkeypatch):
    # The camera reads every Biggy as a regular die (a note's edge over each): the check takes
    # one of its owner's dice where the game holds it as in doubt, and names the owner.
    from dataclasses import replace

    from companion.events import TableDie
    from web import round_check

    real = round_check.seen_casinos

    def biggies_read_small(*args):
        return [
            replace(s, dice=tuple(TableDie(d.owner, False, d.value) for d in s.dice))
            for s in real(*args)
        ]

    monkeypatch.setattr(round_check, "seen_casinos", biggies_read_small)
    drawn: list = []
    monkeypatch.setattr(round_check, "photo", lambda *a: drawn.append(a[3]) or (b"", {}, (0, 0)))
    hub = TableHub(GameStore(tmp_path / "t.sqlite3"), seed=3)
    hub.attach_camera(SimCamera())
    players = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    new = {"edition": "classic", "options": {"biggies": True}, "players": players}
    act(hub, {"action": "new_game", "base": "none"} | new, None)
    play_to_payout(hub)
    bigs = {(c.number, d.owner) for c in hub.game.casinos for d in c.dice if d.big}
    assert bigs, "no Biggy was placed in the round"
    check = hub.snapshot()["table_check"]
    pointed = {(c["casino"], o["owner"]) for c in check["casinos"] for o in c["biggy_doubts"]}
    assert pointed == bigs
    for c in check["casinos"]:
        for look in c["biggy_doubts"]:
            assert look["name"] == players[look["owner"]]["name"]
            assert c["unsure"] >= 1
            row = next(o for o in c["owners"] if o["owner"] == look["owner"])
            assert row["maybe_more"] and row["table"] < row["game"]
        if not c["unsure"]:
            assert not any(o["maybe_more"] for o in c["owners"])
    colour = {0: "red", 1: "blue"}
    assert drawn[-1] == {(n, colour[o]) for n, o in bigs}


class LitCamera:
    """A real camera's stand-in (no simulated table) that has judged a warm lamp from the
    rolls."""

    def __init__(self, light) -> None:
        self.light = light

    def set_config(self, config: object) -> None:
        pass

    def snapshot(self) -> None:
        return None

    def with_learnt_colours(self, config):
        from dataclasses import replace

        return replace(config, palette=replace(config.palette, light=self.light))

    def roll_applied(self, dice, used, colours) -> bool:
        return False

    def learnt_colours(self) -> None:
        return None

    def restore_learnt_colours(self, data: object) -> None:
        pass


def test_a_real_cameras_casino_row_is_read_under_the_light_judged_from_the_rolls(tmp_path):
    import numpy as np

    hub = TableHub(GameStore(tmp_path / "t.sqlite3"), seed=3)
    players = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    act(hub, {"action": "new_game", "base": "none", "edition": "classic", "players": players}, None)
    assert hub._row_config().palette.in_play  # the game's colours name the dice
    assert hub._row_config().palette.light is None  # no camera: nothing judged
    lamp_undone = np.array([1.3, 1.0, 0.8], np.float32)
    hub.attach_camera(LitCamera(lamp_undone))
    assert np.allclose(hub._row_config().palette.light, lamp_undone)
