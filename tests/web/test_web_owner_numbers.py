"""The page gets every owner of dice as a number, and each number's look once in `game.owners`."""

from __future__ import annotations

from playing import play_to

PLAYERS = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]


def test_every_owner_the_payout_names_has_its_number_beside_it(client, act):
    assert act("new_game", edition="classic", options={}, players=PLAYERS).status_code == 200
    game = play_to(client, act, "over")
    owners = game["owners"]
    assert {owners[str(seat)]["name"] for seat in range(2)} == {"Anna", "Ben"}
    name = {int(number): look["name"] for number, look in owners.items()}
    seen = 0
    for payout in game["payouts"]:
        for casino in payout["casinos"]:
            for row in casino["counts"] + casino["awards"]:
                assert name[row["seat"]] == row["owner"]
                seen += 1
            for tie in casino["tied"]:
                assert [name[n] for n in tie["seats"]] == tie["owners"]
            assert [name[n] for n in casino["empty_seats"]] == casino["empty_handed"]
    assert seen > 0
    result = game["result"]
    assert [name[n] for n in result["seats"]] == result["winners"]
