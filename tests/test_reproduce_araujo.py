"""``eslabon reproduce araujo``: seed 003 (Araujo 2012) §3.3 load cases in both couplings,
the figure families 3.4–3.9, and the digest §4.2 derived values (the thesis's own plots
are lost)."""
import json

import numpy as np

from eslabon.cli.main import main


def test_reproduce_araujo(tmp_path, capsys):
    assert main(["reproduce", "araujo", "--out", str(tmp_path), "--json"]) in (0, None)
    data = json.loads(capsys.readouterr().out)
    for number, case, what in (("3_4", 1, "accelerations"), ("3_5", 1, "velocities"),
                               ("3_6", 1, "displacements"), ("3_7", 2, "accelerations"),
                               ("3_8", 2, "velocities"), ("3_9", 2, "displacements")):
        assert (tmp_path / f"fig{number}_case{case}_{what}.png").stat().st_size > 10_000
    for name in ("platform_path.png", "thesis_vs_coupled.png", "differences.csv",
                 "case1_thesis.csv", "case2_coupled.csv", "summary.json"):
        assert (tmp_path / name).is_file(), name
    checks = data["digest_checks"]
    assert checks["q(0.5 s)"]["max_abs_diff"] < 1e-5          # digest §4.2
    assert checks["q(1 s)"]["max_abs_diff"] < 1e-5
    assert checks["V_dot"]["max_abs_diff"] < 1e-9              # V̇ = F/m, case 2
    for case in ("1", "2"):
        assert data["cases"][case]["coupled_energy_balance"] < 1e-6
    case2 = next(r for r in data["differences"] if r["case"] == 2)
    assert case2["beta"] == 0.0                                # no steering torque
    assert case2["q3"] > 1e-2                                  # the coupled arm feels V̇
    header = (tmp_path / "case1_coupled.csv").read_text().splitlines()[0].split(",")
    assert header[0] == "t" and "steering" in header and "qdd6" in header
    rows = np.loadtxt(tmp_path / "case1_coupled.csv", delimiter=",", skiprows=1)
    assert rows.shape[0] == 201 and rows[-1, 0] == 1.0
