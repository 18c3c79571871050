"""The one process pool (scripts/common/processes.py) behind the runner and the seeds: every job's result,
second steps chained to their own job, the environment passed on and given back, errors raised here."""
from __future__ import annotations

import operator
import os

import pytest

from scripts.common import processes, training


def test_every_job_gives_its_own_result_in_processes_and_here():
    jobs = [(a, b) for a in range(3) for b in range(3)]
    for here in (False, True):
        got = dict(processes.side_by_side(operator.mul, jobs, here=here))
        assert got == {(a, b): a * b for a, b in jobs}


def test_a_second_step_follows_its_own_first():
    """then(*args, first) for each job, whatever the order in which the first steps end."""
    got = dict(processes.side_by_side(operator.neg, [(s,) for s in range(5)], then=operator.mul))
    assert got == {(s,): (-s, -s * s) for s in range(5)}


def test_the_environment_reaches_the_processes_and_is_given_back():
    key = "COURSE_PROCESSES_TEST"
    assert key not in os.environ
    got = dict(processes.side_by_side(os.getenv, [(key,)], env={key: "yes"}))
    assert got == {(key,): "yes"}, "one job with an environment still runs in a process started with it"
    assert key not in os.environ


def test_an_error_in_a_job_is_raised_here():
    with pytest.raises(ZeroDivisionError):
        list(processes.side_by_side(operator.truediv, [(1, 1), (1, 0), (2, 1), (3, 1)]))


def test_map_seeds_keeps_the_seeds_order():
    assert training.map_seeds(operator.neg, [3, 1, 2]) == [-3, -1, -2]
    assert training.map_seeds(operator.neg, [4, 5], then=operator.add) == [(-4, 0), (-5, 0)]
