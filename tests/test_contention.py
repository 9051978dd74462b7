"""Batches beside other work (:mod:`eslabon._engine.contention`): a batch runs on fewer
threads while other work holds the cores, and on the user's count again once it is gone;
never on more; the same numbers either way."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon._engine import contention


class Machine:
    """A stand-in for /proc: the CPU pressure total (µs), the tasks running elsewhere,
    the clock, the cores."""

    def __init__(self, monkeypatch, cores=2):
        self.stall, self.others, self.now = 0, 0, 100.0
        monkeypatch.setattr(contention, "_stall_us", lambda: self.stall)
        monkeypatch.setattr(contention, "_running_elsewhere", lambda: self.others)
        monkeypatch.setattr(contention, "_cores", lambda: cores)
        monkeypatch.setattr(contention.time, "monotonic", lambda: self.now)
        monkeypatch.setattr(
            contention,
            "_state",
            {"t": None, "stall_us": None, "limit": None, "last_parallel_end": 0.0},
        )

    def later(self, seconds=0.06, waited=0.0, parallel=0):
        """Time passes; some task waited ``waited`` of it for a CPU; with ``parallel``,
        a batch on that many threads ran back to back until now."""
        self.now += seconds
        self.stall += int(waited * seconds * 1e6)
        contention.batch_ended(parallel)

    def batch(self, requested=2):
        threads = contention.limit(requested)
        contention.batch_ended(threads)
        return threads


def test_an_idle_machine_keeps_the_users_count(monkeypatch):
    m = Machine(monkeypatch)
    assert [m.batch() for _ in range(3)] == [2, 2, 2]
    for _ in range(5):
        m.later(waited=0.01)  # background noise, below the threshold
        assert m.batch() == 2


def test_pressure_reduces_and_the_end_of_it_restores(monkeypatch):
    m = Machine(monkeypatch)
    m.batch()
    m.others = 1  # another process holds a core
    m.later(waited=0.5)  # our two threads and it on two cores: tasks waited
    assert m.batch() == 1
    m.later(0.01)
    assert m.batch() == 1  # within the interval: the same decision
    m.later(waited=0.0)  # on one thread nobody waits, but the other is still there
    assert m.batch() == 1
    m.others = 0
    m.later()
    assert m.batch() == 2  # gone: back to the user's count
    m.later()
    assert m.batch() == 2


def test_more_cores_keep_those_no_one_else_holds(monkeypatch):
    m = Machine(monkeypatch, cores=8)
    m.batch(8)
    m.later(waited=0.3, parallel=8)
    assert m.batch(8) == 1  # right after a parallel batch our own threads may spin
    m.others = 3
    m.later(waited=0.3)
    assert m.batch(8) == 5
    assert m.batch(4) == 4  # never more than asked


def test_without_pressure_information_or_when_turned_off_nothing_changes(monkeypatch):
    m = Machine(monkeypatch)
    monkeypatch.setattr(contention, "_stall_us", lambda: None)
    m.batch()
    m.later(waited=0.9)
    assert m.batch() == 2
    m2 = Machine(monkeypatch)
    monkeypatch.setenv(contention.DISABLE_ENV, "0")
    m2.batch()
    m2.later(waited=0.9)
    assert m2.batch() == 2
    assert contention.limit(1) == 1


def test_the_readers_parse_this_machine():
    stall = contention._stall_us()
    assert stall is None or stall >= 0
    others = contention._running_elsewhere()
    assert others is None or others >= 0
    assert contention._cores() >= 1


def test_a_reduced_batch_gives_the_same_numbers_and_leaves_the_setting(monkeypatch):
    model = es.zoo.load("puma560")
    Q = np.random.default_rng(0).uniform(-1, 1, (64, 6))
    before = es.get_num_threads()
    full = es.mass_matrix(model, Q)
    monkeypatch.setattr(contention, "limit", lambda requested: 1)
    reduced = es.mass_matrix(model, Q)
    assert reduced.tobytes() == full.tobytes()
    assert es.get_num_threads() == before


@pytest.mark.parametrize("text", [b"", b"some avg10=0.00\n", b"garbage"])
def test_an_unreadable_pressure_file_means_no_information(tmp_path, monkeypatch, text):
    path = tmp_path / "cpu"
    path.write_bytes(text)
    monkeypatch.setattr(contention, "PRESSURE", str(path))
    assert contention._stall_us() is None
