"""Rojas (1987) Appendix: the input file of the program MANLAG (6F10.5 records, PD(60),
the 21 knots of β(t)), read and written by ``eslabon.model.manlag``.

The layout is the listing's READ statements (FORMAT 100 = 6F10.5, 101 = 5F10.5,I3,
107 = 3E21.13, 108 = 2E21.13) and the appendix's "Definición de datos" (PD per link:
mass, centroid, I_xx, I_xy, I_xz, I_yy, I_yz, I_zz); the T3's values are Table 4.4.1's
through ``zoo.rojas``. Checks derived: a round trip, the T3 model and β(t) rebuilt from
a written file, Fortran's F10.5 input rules, and errors naming record and columns.
"""

import dataclasses

import numpy as np
import pytest

import eslabon as es
from eslabon.model.manlag import ManlagInput, read_manlag, write_manlag
from eslabon.reproduce.cincinnati_t3 import cell_status, t3_beta_spline
from eslabon.reproduce.manlag_program import run_manlag, t3_manlag_input
from eslabon.zoo.rojas_tables import JOINT_TABLES

pytestmark = [
    pytest.mark.source("Rojas (1987)", "Appendix, MANLAG input; Tables 4.4.1, 5.4.1, 5.6.2"),
    pytest.mark.filterwarnings("ignore::UserWarning"),  # T3 link 1's published inertia
]


def test_records_follow_the_listing():
    lines = write_manlag(t3_manlag_input()).splitlines()
    # 19 head records, 21 + 21 knot records (NREP > 0), 4 PA records
    assert len(lines) == 19 + 42 + 4
    assert all(len(line) == 60 for k, line in enumerate(lines) if k < 19 and k != 15)
    assert len(lines[15]) == 53  # 5F10.5, I3
    assert all(len(line) == 63 for line in lines[19:40])  # 3E21.13
    assert all(len(line) == 42 for line in lines[40:61])  # 2E21.13


def test_round_trip(tmp_path):
    data = t3_manlag_input()
    path = tmp_path / "t3.dat"
    text = write_manlag(data, path)
    back = read_manlag(path)
    assert write_manlag(back) == text
    for f in dataclasses.fields(ManlagInput):
        a, b = getattr(data, f.name), getattr(back, f.name)
        # F10.5 keeps the data's 5 decimals exactly; E21.13 14 significant digits
        assert np.allclose(a, b, rtol=1e-13, atol=0.0), f.name


def test_a_written_t3_file_is_the_t3():
    back = read_manlag(write_manlag(t3_manlag_input()))
    model, t3 = back.model(), es.zoo.load("cincinnati_t3")
    rng = np.random.default_rng(7)
    for _ in range(3):
        q, qd, qdd = rng.uniform(-2, 2, (3, 6))
        tau, ref = es.inverse_dynamics(model, q, qd, qdd), es.inverse_dynamics(t3, q, qd, qdd)
        assert np.abs(tau - ref).max() <= 1e-12 * np.abs(ref).max()
    assert np.allclose(np.radians(back.theta_deg), np.radians((0, 90, -135, 45, 90, 90)))
    # β(t) through PERIOD's scaling and the 21 knots is the identified spline
    t = np.linspace(0.0, 1.0, 41)
    for nu in range(3):
        ref = t3_beta_spline()(t, nu)
        assert np.abs(back.beta(t, nu) - ref).max() <= 1e-12 * max(1.0, np.abs(ref).max())


def test_fortran_f10_5_input_rules():
    data = t3_manlag_input()
    lines = write_manlag(data).splitlines()
    # record 1: a blank field is 0, a field without a point has 5 implied decimals
    lines[0] = " " * 10 + "   9000000" + lines[0][20:]
    back = read_manlag("\n".join(lines) + "\n")
    assert back.theta_deg[0] == 0.0 and back.theta_deg[1] == 90.0


@pytest.mark.parametrize(
    "record, column, text, match",
    [
        (5, 0, "      abc ", r"record 5, columns 1–10 \(PD\(1\)\)"),
        (16, 50, "x2 ", r"record 16, columns 51–53 \(NREP\)"),
        (20, 21, "      not a number   ", r"record 20, columns 22–42 \(BX\(1\)\)"),
    ],
)
def test_bad_fields_name_record_and_columns(record, column, text, match):
    lines = write_manlag(t3_manlag_input()).splitlines()
    line = lines[record - 1]
    lines[record - 1] = line[:column] + text + line[column + len(text) :]
    with pytest.raises(ValueError, match=match):
        read_manlag("\n".join(lines) + "\n")


def test_missing_records_and_unwritable_values():
    lines = write_manlag(t3_manlag_input()).splitlines()
    with pytest.raises(ValueError, match=r"record 12 \(PD\(43\)…PD\(48\)\): missing"):
        read_manlag("\n".join(lines[:11]) + "\n")
    data = t3_manlag_input()
    data.pd[0] = 123456.0
    with pytest.raises(ValueError, match=r"PD\(1\): 123456.0 does not fit F10.5"):
        write_manlag(data)
    data = dataclasses.replace(t3_manlag_input(), xa=None)
    with pytest.raises(ValueError, match="nrep > 0 needs the 21 knots"):
        write_manlag(data)
    no_knots = dataclasses.replace(t3_manlag_input(), nrep=0)
    back = read_manlag(write_manlag(no_knots))
    assert back.xa is None
    with pytest.raises(ValueError, match="no spline knots"):
        back.beta(0.5)


def _assert_row(run, k, table, keys=("theta", "thd", "thdd", "total")):
    """Step k of a run against a printed row of Table 5.4.1 or 5.6.2, cell by cell with
    ``reproduce rojas``'s criteria (θ to 1e-3°, rates to 4 digits, torques to the 5th)."""
    row = JOINT_TABLES[table]
    computed = {
        "theta": np.degrees(run.q[k]),
        "thd": run.qd[k],
        "thdd": run.qdd[k],
        "total": run.tau[k],
    }
    for key in keys:
        values = computed[key]
        status = [cell_status(v, p, key) for v, p in zip(values, row[key], strict=True)]
        assert set(status) <= {"ok", "noise"}, (table, key, status)


def test_running_the_t3_file_gives_tables_5_4_1_and_5_6_2():
    """MANLAG's loop on the written T3 file: t = 0.05 s is step 1, t = 0.45 s step 9.

    At 0.05 s only θ is compared: the table prints y = 0.00082, the spline gives
    0.000816, and θ̇₂, θ̇₃ ≈ 4e-5 rad/s (proportional to y there) move in their 3rd digit;
    the one-pose test below takes the printed y and meets every cell."""
    run = run_manlag(t3_manlag_input())
    assert np.allclose(run.t, np.arange(1, 21) * 0.05)
    _assert_row(run, 0, "5.4.1", keys=("theta",))
    _assert_row(run, 8, "5.6.2")


def test_a_one_pose_file_uses_its_own_u_v_a():
    """NREP = 0: one solve of the file's U, V, A, here Table 5.4.1's printed y, ẏ, ÿ."""
    row = JOINT_TABLES["5.4.1"]
    data = dataclasses.replace(t3_manlag_input(), nrep=0, t=row["t"])
    data.u[5] = row["y"]
    data.v[5] = row["yd"]
    data.a[5] = row["ydd"]
    run = run_manlag(read_manlag(write_manlag(data)))
    assert run.q.shape == (1, 6)
    _assert_row(run, 0, "5.4.1")


def test_a_pose_that_is_no_rotation_is_named():
    data = t3_manlag_input()
    data.u[3] = 3.0  # tr(R) = 3 (the identity) with 2 vect(R) = (1, 1, −1)
    with pytest.raises(ValueError, match=r"U\(1..4\): expected 2 vect\(R\) and tr\(R\)"):
        run_manlag(data)


def test_a_field_too_large_for_a_double_is_refused_by_name():
    from eslabon.model.manlag import _number

    for text in ("1.0E400", "1E400", "nan"):
        with pytest.raises(ValueError, match=r"record 5, columns 1–10 \(PD\(1\)\): expected"):
            _number(text, "record 5, columns 1–10 (PD(1))", 10, 5)


@pytest.mark.source("Rojas (1987)", "Appendix, program MANLAG; Tables 5.4.1 and 5.6.2")
def test_reproduce_writes_the_t3_file_reads_it_back_and_runs_it(tmp_path):
    """`eslabon reproduce rojas`'s MANLAG item: the file it writes is a MANLAG file
    (read_manlag gives the same values), and its run meets Table 5.6.2 cell by cell."""
    from eslabon.reproduce.manlag_program import report

    data, lines, files = report(es.zoo.load("cincinnati_t3"), tmp_path)
    back = read_manlag(files["manlag"])
    assert np.allclose(back.pd, t3_manlag_input().pd, rtol=0, atol=5e-6)
    assert data["round_trip"] < 5e-6  # within the F10.5 field's last digit
    statuses = data["tables"]["5.6.2"]["status"]
    assert all(c in ("ok", "noise") for column in statuses.values() for c in column)
    theta = data["tables"]["5.4.1"]["status"]["theta"]
    assert all(c in ("ok", "noise") for c in theta)
    assert "Table 5.6.2" in "\n".join(lines)
