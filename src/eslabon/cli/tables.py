"""Printable descriptions of a model."""

from __future__ import annotations

import numpy as np

from ..conventions import JOINT_TYPE_NAMES
from ..model.validate import implausible_bodies
from .common import printable

_DH_COLUMNS = {
    "standard": ("theta", "d", "a", "alpha"),
    "modified": ("alpha", "a", "theta", "d"),
    "rojas": ("theta", "b", "d", "alpha"),
}


def model_info(m, chosen_ee=None):
    """(data, lines): DH table with convention, masses, DOF, gravity, source; for a URDF
    model which link is the end effector, ``chosen_ee`` the link given with ``ee=``."""
    data = {
        "name": m.name,
        "dof": m.nv,
        "nq": m.nq,
        "bodies": m.nb,
        "joint_types": list(m.joint_types),
        "gravity": m.gravity.tolist(),
        "source": m.source,
        "joint_names": list(m.joint_names[1:]),
        "q_names": list(m.q_names),
        "masses": {m.body_names[i]: float(m.mass[i]) for i in range(1, m.nb + 1)},
        "total_mass": float(m.mass.sum()),
    }
    lines = [
        f"model    {m.name}",
        f"source   {m.source or '-'}",
        f"DOF      {m.nv}  ({m.joint_letters})"
        + (f", configuration of {m.nq} numbers (quaternions)" if m.nq != m.nv else ""),
        f"gravity  {m.gravity.tolist()} m/s^2",
    ]
    if m.source.startswith("URDF"):  # which link is the end effector, and why
        from ..model.urdf import end_effector_rule

        data["ee"] = end_effector_rule(m, chosen_ee)
        lines.append(f"ee       {data['ee']}")
    for i in np.flatnonzero(m.mimic_joint >= 0):  # joints that copy another's value
        k = int(m.mimic_joint[i])
        data.setdefault("mimic", []).append(
            {
                "body": m.body_names[i],
                "copies": m.body_names[k],
                "multiplier": float(m.mimic_multiplier[i]),
                "offset": float(m.mimic_offset[i]),
            }
        )
        lines.append(
            f"mimic    {m.body_names[i]} = {float(m.mimic_multiplier[i]):g} x "
            f"{m.body_names[k]} + {float(m.mimic_offset[i]):g}"
        )
    rows = 0
    for c in m.constraints:  # closed loops, contacts, rolling wheels (eslabon.constraints)
        if hasattr(c, "frame_a"):
            entry = {"loop": c.name, "frame_a": c.frame_a, "frame_b": c.frame_b}
            text = f"loop     {c.name}: {c.frame_b} held in {c.frame_a}"
        elif hasattr(c, "wheel"):
            axes = ("roll",) if c.rollers is not None else ("roll", "skid")
            entry = {"wheel": c.name, "frame": c.wheel, "radius": c.radius}
            text = f"wheel    {c.name}: {c.wheel} rolls (radius {c.radius:g} m)"
        else:
            entry = {"contact": c.name, "frame": c.frame, "position": list(c.position)}
            text = f"contact  {c.name}: {c.frame} held at {list(c.position)} m"
        axes = axes if hasattr(c, "wheel") else c.axes
        entry["axes"] = list(axes)
        rows += len(axes)
        data.setdefault("constraints", []).append(entry)
        lines.append(f"{text} along {', '.join(axes)} ({len(axes)} rows)")
    if m.constraints:
        data["constraint_rows"] = rows
        lines.append(f"         {rows} constraint rows on {m.nv} rates")
        lines.extend(_mobility_lines(m, data))
    if m.dh is not None:
        cols = _DH_COLUMNS[m.dh.convention]
        data["dh"] = {
            "convention": m.dh.convention,
            "rows": [{"joint": r["joint"], **{k: float(r[k]) for k in cols}} for r in m.dh.rows],
        }
        lines.append(
            f"DH table ({m.dh.convention} convention; angles in degrees, lengths in m; "
            f"for R joints theta is an offset added to q, for P joints "
            f"{'b' if m.dh.convention == 'rojas' else 'd'} is)"
        )
        lines.append(
            f"  {'i':>2} {'joint':>5} " + " ".join(f"{c:>10}" for c in cols) + f" {'mass':>10}"
        )
        for i, r in enumerate(m.dh.rows):
            vals = [np.degrees(r[c]) if c in ("theta", "alpha") else r[c] for c in cols]
            lines.append(
                f"  {i + 1:>2} {r['joint']:>5} "
                + " ".join(f"{v:>10.5g}" for v in vals)
                + f" {float(r.get('mass', 0.0)):>10.5g}"
            )
    moving = len(m.joint_bodies)
    lines.append(f"bodies   {m.nb}: {moving} on moving joints, {m.nb - moving} on fixed ones")
    width = max([10] + [len(m.body_names[i]) for i in range(1, m.nb + 1)])
    jwidth = max([10] + [len(m.joint_names[i]) for i in range(1, m.nb + 1)])
    lines.append(f"  {'i':>2} {'body':<{width}} {'joint':<{jwidth}} type")
    for i in range(1, m.nb + 1):
        lines.append(
            f"  {i:>2} {m.body_names[i]:<{width}} {m.joint_names[i]:<{jwidth}} "
            f"{JOINT_TYPE_NAMES[int(m.joint_type[i])]:<10}"
            f" parent {m.parent[i]:>2}  mass {m.mass[i]:<8.5g} com {np.round(m.com[i], 6).tolist()}"
        )
    lines.append(f"total mass {m.mass.sum():.6g} kg")
    odd = implausible_bodies(m)
    data["implausible_inertia"] = odd
    if odd:
        lines.append(
            f"inertia  {', '.join(odd)}: principal moments break the triangle "
            "inequality I1 + I2 >= I3 (no rigid body has them; kept as given)"
        )
    return data, [printable(line) for line in lines]  # names from a file, one line each


def _mobility_lines(m, data) -> list:
    """Rojas (1987) §2.3: the Grübler–Kutzbach count beside nv − rank J at the neutral
    configuration assembled (eslabon.constraints.mobility)."""
    from ..constraints import mobility

    if np.any(np.asarray(m.mimic_joint) >= 0):
        return ["mobility (no Grübler–Kutzbach count: the model has mimic joints)"]
    try:
        r = mobility(m)
    except ValueError as exc:  # the neutral configuration does not assemble
        return [f"mobility not computed: {exc}"]
    count = sum(r.d - p.freedom for p in r.pairs)
    data["mobility"] = {
        "subgroup": r.subgroup,
        "d": r.d,
        "links": r.links,
        "pairs": len(r.pairs),
        "passive": r.passive,
        "grubler_kutzbach": r.grubler_kutzbach,
        "jacobian": r.jacobian_mobility,
        "rank": r.rank,
        "rows": r.rows,
        "redundant_rows": list(r.redundant_rows),
        "explanation": r.explanation,
    }
    return [
        f"mobility Grübler–Kutzbach (Rojas 1987 §2.3) over {r.subgroup}: "
        f"{r.d}·({r.links} − 1) − {count} − {r.passive} = {r.grubler_kutzbach}",
        f"         constraint Jacobian at the neutral configuration assembled: {m.nv} − rank "
        f"{r.rank} of {r.rows} rows = {r.jacobian_mobility}",
        f"         {r.explanation}",
    ]
