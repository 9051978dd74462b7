"""Rojas (1987) §2.2–2.3, the mobility of the mechanisms eslabon describes: the generalized
Grübler–Kutzbach count ℓ = d (n − 1) − Σ (d − ℓᵢ) − m over Hervé's displacement subgroups
beside the true mobility nv − rank J(q) of the constraint Jacobian
(:func:`eslabon.constraints.mobility`), for the zoo's closed chains, a tree and a legged
robot on its feet; where the two differ (Bennett's over-constrained linkage), the reason.
"""

from __future__ import annotations

from ..constraints.mobility import mobility
from ..zoo import load

#: the zoo's models counted, closed chains first
MECHANISMS = (
    "four_bar",
    "slider_crank",
    "five_bar",
    "andrews_squeezer",
    "delta",
    "stewart",
    "bennett",
    "quadruped",
    "puma560",
)


def report(names=MECHANISMS) -> tuple[dict, list]:
    """ℓ and nv − rank J of each model at its neutral configuration.

    Parameters
    ----------
    names : sequence of str
        Zoo names.

    Returns
    -------
    data : dict
        Per model: ``subgroup``, ``d``, ``links``, ``pairs``, ``grubler_kutzbach``,
        ``jacobian_mobility``, ``rank``, ``rows``, ``explanation``.
    lines : list of str
        The table and, for each model where the two differ, why.

    Examples
    --------
    >>> from eslabon.reproduce.mechanism_mobility import report
    >>> data, lines = report(["four_bar", "bennett"])
    >>> data["four_bar"]["grubler_kutzbach"], data["four_bar"]["jacobian_mobility"]
    (1, 1)
    >>> data["bennett"]["grubler_kutzbach"], data["bennett"]["jacobian_mobility"]
    (-2, 1)
    """
    data: dict = {}
    lines = [
        "§2.2–2.3 mobility: the generalized Grübler–Kutzbach count ℓ = d(n − 1) − Σ(d − ℓᵢ) − m "
        "beside nv − rank J(q)",
        f"  {'model':<18} {'subgroup':<28} {'d':>2} {'n':>3} {'pairs':>5} "
        f"{'ℓ':>4} {'nv−rank J':>9}",
    ]
    differ = []
    for name in names:
        m = mobility(load(name))
        data[name] = {
            "subgroup": m.subgroup,
            "d": m.d,
            "links": m.links,
            "pairs": len(m.pairs),
            "passive": m.passive,
            "grubler_kutzbach": m.grubler_kutzbach,
            "jacobian_mobility": m.jacobian_mobility,
            "rank": m.rank,
            "rows": m.rows,
            "explanation": m.explanation,
        }
        lines.append(
            f"  {name:<18} {m.subgroup:<28} {m.d:>2} {m.links:>3} {len(m.pairs):>5} "
            f"{m.grubler_kutzbach:>4} {m.jacobian_mobility:>9}"
        )
        if m.grubler_kutzbach != m.jacobian_mobility:
            differ.append(f"  {name}: {m.explanation}")
    return data, lines + differ
