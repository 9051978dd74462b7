"""How much the platform data Araujo (2012) leaves out matter: part of ``eslabon
reproduce araujo``.

The thesis gives the Seekur Jr.'s total mass, wheelbase, track and wheel radius, but not
how the 350 kg split between chassis, wheels and steering body, where the chassis's
centre of mass sits, its inertia, or where the PUMA is mounted. eslabon assumes them
(:meth:`eslabon.mobile.TricycleParams.seekur_jr_assumed`,
:meth:`eslabon.mobile.Mount.araujo_assumed`). Each assumption is moved alone to a low and
a high value (the total mass kept at 350 kg where mass moves between bodies), load case
1 is run for 1 s in the coupled mode, and the change of three results at t = 1 s against
the assumed set is drawn as a tornado: the rear-axle distance s, the steering angle β and
the shoulder angle q2 (the arm joint that carries the most load).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import mobile as mb
from .._files import atomic_file, savefig_atomic

ARM_TORQUE = (6.0, 50.0, 10.0, -0.1, -0.5, -0.1)  # load case 1, N·m
PLATFORM_INPUT = (150.0, 0.3)  # load case 1: F [N], M [N·m]
OUTPUTS = ("s", "beta", "q2")
UNITS = {"s": "m", "beta": "rad", "q2": "rad"}
SYMBOLS = {"s": "s", "beta": "β", "q2": "q2"}


def _params(**overrides):
    return mb.TricycleParams.seekur_jr_assumed(**overrides)


def variations(base: mb.TricycleParams) -> dict:
    """Name → (low, high, description): (params, mount) pairs around the assumed set."""
    total = 350.0

    def wheels(w):  # 3 wheels of w kg, the chassis takes the rest of the 350 kg
        m_c = total - 3 * w - base.steering_mass
        return _params(
            rear_wheel_mass=w,
            front_wheel_mass=w,
            chassis_mass=m_c,
            chassis_inertia=m_c * (1.40**2 + 1.30**2) / 12,
        )

    def steering(m):
        m_c = total - 3 * base.rear_wheel_mass - m
        return _params(
            steering_mass=m, chassis_mass=m_c, chassis_inertia=m_c * (1.40**2 + 1.30**2) / 12
        )

    mount = mb.Mount.araujo_assumed().translation
    return {
        "wheel masses 4 / 16 kg": (wheels(4.0), wheels(16.0)),
        "steering body 6 / 24 kg": (steering(6.0), steering(24.0)),
        "chassis COM a 0.25 / 0.65 m": (_params(chassis_com=0.25), _params(chassis_com=0.65)),
        "chassis inertia ×0.5 / ×2": (
            _params(chassis_inertia=0.5 * base.chassis_inertia),
            _params(chassis_inertia=2.0 * base.chassis_inertia),
        ),
        "mount x 0.1 / 0.5 m": (mount + [-0.2, 0, 0], mount + [0.2, 0, 0]),
        "mount height 0.3 / 0.7 m": (mount + [0, 0, -0.2], mount + [0, 0, 0.2]),
    }


def _outputs(mm, coordinates, names) -> np.ndarray:
    run = mb.simulate(
        mm, None, None, 1.0, samples=11, u=list(PLATFORM_INPUT), torque=list(ARM_TORQUE)
    )
    pos = coordinates(run)[0][-1]
    return np.array([pos[names.index(k)] for k in OUTPUTS])


def reproduce(arm, out: Path, coordinates, names, plt) -> tuple[dict, list, dict]:
    """Runs the variations; ``sensitivity.csv`` and ``sensitivity.png`` in ``out``."""
    base = _params()
    mount0 = mb.Mount.araujo_assumed()

    def system(params, mount_translation=None):
        mount = mount0 if mount_translation is None else mb.Mount(mount_translation)
        return mb.MobileManipulator(mb.Tricycle(params), arm, mount, mode="coupled")

    reference = _outputs(system(base), coordinates, names)
    table = {}
    for name, (low, high) in variations(base).items():
        pair = []
        for value in (low, high):
            mm = system(value) if isinstance(value, mb.TricycleParams) else system(base, value)
            pair.append(_outputs(mm, coordinates, names) - reference)
        table[name] = pair
    with atomic_file(out / "sensitivity.csv", "w") as fh:
        fh.write("assumption,end," + ",".join(f"delta_{k}" for k in OUTPUTS) + "\n")
        for name, (low, high) in table.items():
            for end, d in (("low", low), ("high", high)):
                fh.write(f"{name},{end}," + ",".join(repr(float(x)) for x in d) + "\n")
    files = {"sensitivity_csv": out / "sensitivity.csv"}
    spread = {
        k: {name: float(np.abs(np.array(p)[:, j]).max()) for name, p in table.items()}
        for j, k in enumerate(OUTPUTS)
    }
    largest = {k: max(v, key=v.get) for k, v in spread.items()}
    summary = {
        "reference": dict(zip(OUTPUTS, reference.tolist(), strict=True)),
        "changes": {name: [d.tolist() for d in p] for name, p in table.items()},
        "largest": largest,
    }
    lines = [
        "Sensitivity to the assumed platform data (coupled, load case 1, t = 1 s); change "
        f"of s [m], β [rad], q2 [rad] from {np.round(reference, 4).tolist()}:"
    ]
    for name, (low, high) in table.items():
        lines.append(
            f"  {name:<30} low "
            + " ".join(f"{x:+9.2e}" for x in low)
            + "   high "
            + " ".join(f"{x:+9.2e}" for x in high)
        )
    lines.append("  matters most: " + ", ".join(f"{k} ← {largest[k]}" for k in OUTPUTS))
    if plt is None:
        return summary, lines, files
    fig, axes = plt.subplots(1, len(OUTPUTS), figsize=(14, 4), sharey=True)
    order = sorted(table, key=lambda n: spread["q2"][n])
    y = np.arange(len(order))
    for j, (ax, k) in enumerate(zip(axes, OUTPUTS, strict=True)):
        low = np.array([table[n][0][j] for n in order])
        high = np.array([table[n][1][j] for n in order])
        ax.barh(y - 0.2, low, height=0.4, color="tab:blue", label="low value")
        ax.barh(y + 0.2, high, height=0.4, color="tab:orange", label="high value")
        ax.axvline(0.0, color="k", lw=0.8)
        ax.set(title=f"Δ{SYMBOLS[k]} at t = 1 s [{UNITS[k]}]")
        ax.ticklabel_format(axis="x", style="sci", scilimits=(-2, 2))
        ax.grid(True, axis="x", alpha=0.3)
    axes[0].set_yticks(y, order, fontsize=8)
    axes[-1].legend(fontsize=8)
    fig.suptitle(
        "Araujo (2012) load case 1, coupled: how much each assumed datum moves the results",
        fontsize=10,
    )
    fig.tight_layout()
    files["sensitivity_png"] = savefig_atomic(fig, out / "sensitivity.png", dpi=90)
    plt.close(fig)
    return summary, lines, files
