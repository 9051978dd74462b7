"""``eslabon reproduce jaramillo``: eslabon's reference cases P1, A, B for seeds 002/004
(Jaramillo Botero 1998, *Dinámica de Manipuladores Robóticos*), Example 1 (the cuboid,
(1.13)–(1.26)), and the errata of (1.60)/Figure 7 and Figure 8's step ➎ (the
printed-formula values are shown beside, never produced by the library).
"""

import json

import numpy as np

from eslabon.cli.main import main


def test_reproduce_jaramillo(tmp_path, capsys):
    assert main(["reproduce", "jaramillo", "--out", str(tmp_path), "--json"]) in (0, None)
    data = json.loads(capsys.readouterr().out)
    np.testing.assert_allclose(data["P1"]["tau"], data["P1"]["expected"], atol=1e-9)
    assert abs(data["P1"]["M"] - 1 / 3) < 1e-12
    for case in ("A", "B"):
        for key, row in data[case].items():
            if key in ("tau", "M", "xi", "qdd"):
                assert row["max_abs_diff"] < 1e-9, (case, key)
                if "printed_formula" in row:  # the errata give other numbers
                    assert np.abs(np.subtract(row["printed_formula"], row["computed"])).max() > 1e-3
    np.testing.assert_allclose(
        data["B"]["qdd"]["printed_formula"],
        [278.0738906469, 60.9289570511, -148.5127837193],
        atol=1e-7,
    )
    np.testing.assert_allclose(
        data["A"]["tau"]["printed_formula"], [26.6999353587, 5.4180623495], atol=1e-9
    )
    assert "singular 6×6 inertia" in data["thin_rod"]
    ex = data["example_1"]  # Example 1's (1.19) at m = 6, a = 1, b = 2, c = 3
    np.testing.assert_allclose(ex["corner"], [[10, -9, -4.5], [-9, 20, -3], [-4.5, -3, 26]])
    np.testing.assert_allclose(ex["parallel_axis"], ex["corner"], atol=1e-12)
    assert np.abs(np.subtract(ex["printed_formula"], ex["corner"])).max() == 18.0
    assert json.loads((tmp_path / "summary.json").read_text())["B"]["M"]["max_abs_diff"] < 1e-9
