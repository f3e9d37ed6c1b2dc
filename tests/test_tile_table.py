"""The tile table: one row for every tile face, and each row complete."""

from __future__ import annotations

from companion.tile_codes import TileCode
from companion.tiles import TILE_NAMES, TILES, tile_name


def test_every_tile_face_has_one_row():
    assert list(TILES) == list(TileCode)
    assert list(TILE_NAMES) == list(TileCode)


def test_a_tile_that_takes_a_decision_also_lists_the_choices_open():
    for code, rules in TILES.items():
        assert (rules.decide is None) == (rules.choices is None), code


def test_round_end_tiles_say_where_a_record_keeps_their_decision():
    asking = {code for code, rules in TILES.items() if rules.round_end_ask}
    assert asking == {TileCode.PRIME_TIME, TileCode.BLACK_BOX}
    assert {TILES[code].record_key for code in asking} == {"prime_time", "black_box"}
    assert all(TILES[code].decide is not None for code in asking)


def test_codes_read_from_text_are_the_enum_and_name_their_face():
    assert TileCode("A2") is TileCode.JACKPOT and TileCode.JACKPOT == "A2"
    assert tile_name("H2") == "My Choice" and TileCode.BLOCK_IT.letter == "F"
