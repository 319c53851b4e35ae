"""Bounded-suboptimal solving, ``solve(..., within=W)``: every answer checked
against a plain breadth-first search of 3x3, its bound against the truth."""

from __future__ import annotations

import random

import npuzzle
import pytest

from conftest import plain_bfs


@pytest.mark.parametrize("weight", [1, 1.2, 2])
def test_answers_are_within_the_weight_and_bounded_below(db3, weight: float) -> None:
    truth = plain_bfs((1, 2, 3, 4, 5, 6, 7, 8, 0), 3)
    rng = random.Random(25)
    for start in rng.sample(sorted(truth), 60):
        s = db3.solve(start, within=weight)
        optimum = truth[start]
        assert db3.play(start, s.moves) == npuzzle.Board("123456780")
        assert s.lower_bound <= optimum <= s.length <= weight * optimum
        assert len(s) == s.length == len(s.moves)
        assert s.within == weight
        assert s.distance == (s.length if s.lower_bound == s.length else None)
        d = s.to_dict()
        assert (d["length"], d["lower_bound"], d["within"]) == (s.length, s.lower_bound, weight)
        assert d["heuristic"] == "linear-conflict"
        assert d["nodes"] == s.nodes > 0 or optimum == 0
        if weight == 1:
            assert s.length == s.lower_bound == optimum == s.distance


def test_the_module_function_and_an_exact_answer(db3) -> None:
    s = npuzzle.solve("867254301", within=1.5)
    assert s.lower_bound <= 31 <= s.length <= 46
    exact = npuzzle.solve("867254301")
    assert exact.within is None and exact.lower_bound == exact.distance == exact.length == 31
    assert "lower_bound" not in exact.to_dict()


@pytest.mark.parametrize(
    "weight, error, says",
    [
        (0.5, npuzzle.ArgumentError, "below 1"),
        (float("nan"), npuzzle.ArgumentError, "NaN"),
        (1e308, npuzzle.ArgumentError, "above the limit of 100"),
        (10**400, npuzzle.ArgumentError, "above the limit of 100"),
        ("abc", npuzzle.ArgumentTypeError, "not str"),
        (True, npuzzle.ArgumentTypeError, "not bool"),
    ],
)
def test_bad_weights_are_refused(db3, weight: object, error: type, says: str) -> None:
    with pytest.raises(error, match=says):
        db3.solve("867254301", within=weight)


def test_unsolvable_and_timeouts_raise_as_solve_does(db3) -> None:
    with pytest.raises(npuzzle.UnsolvableError):
        db3.solve("213456780", within=1.2)
    # Some thousand expansions: the deadline, already passed, is checked.
    with pytest.raises(npuzzle.SearchTimeoutError):
        db3.solve("867254301", within=1, timeout=0)
