"""Random and malformed requests to every route: never a 500, and a refusal changes nothing."""

from __future__ import annotations

import json

from fuzzing import fuzz, tally

ROUNDS = 420
"""Each round sends one request to every route (12): above 5,000 requests in all."""


def test_no_request_to_any_route_gives_a_500(tmp_path):
    sent, failures = fuzz(str(tmp_path / "fuzz.sqlite3"), ROUNDS)
    print(tally(sent))
    assert len(sent) >= 5000
    assert not failures, json.dumps(failures[:10], indent=1)
