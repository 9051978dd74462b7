"""The input file of Rojas (1987)'s program MANLAG (Appendix), read and written.

The appendix's main program reads unit 5 with these statements (FORMAT 100 = ``6F10.5``,
101 = ``5F10.5,I3``, 107 = ``3E21.13``, 108 = ``2E21.13``); a READ of more values than its
format holds goes on to the next record, so the file has these records:

==========  ============================================  ==========================
records     values                                        meaning
==========  ============================================  ==========================
1           THETA(1..6)                                   initial θ_i [deg]
2–4         P(1..18)                                      d_i, b_i [m], α_i [deg]
5–14        PD(1..60)                                     per link j, PD(10(j−1)+1..)
15          U(1..6)                                       2 vect(R), tr(R), x, y
16          U(7), V(7), A(7), AF, CF (5F10.5), NREP (I3)  z; ż, z̈; path x = AF, z = CF
17          EX, EY, XO, YO, DTA, T                        β(t) scaling; step, start
18          V(1..6)                                       ω, −2ωᵀvect(R), ẋ, ẏ
19          A(1..6)                                       ω̇, …, ẍ, ÿ
20–40       AX(k), BX(k), CX(k), k = 1..21 (3E21.13)      only if NREP > 0
41–61       XA(k), YA(k), k = 1..21 (2E21.13)             only if NREP > 0
last 4      PA(1..24)                                     δθ, δθ̇, δθ̈, δf* (DINLI)
==========  ============================================  ==========================

PD (the appendix's "Definición de datos"): for link j, PD(10(j−1)+1) is its mass [kg],
PD(10(j−1)+2..4) its centre of mass and PD(10(j−1)+5..10) its inertia I_xx, I_xy, I_xz,
I_yy, I_yz, I_zz [kg·m²] about it, both in frame j+1 of the thesis (this library's DH
frame j, Rojas naming); routine PIPTA multiplies the six as the symmetric tensor
[[I_xx, I_xy, I_xz], [I_xy, I_yy, I_yz], [I_xz, I_yz, I_zz]], so I_xy is the tensor's
entry, not a product of inertia with the opposite sign.

β(t) (routine PERIOD with SPLINE): ξ = (t − XO)/(2 EX); on [XA(k), XA(k+1)] with
x = ξ − XA(k), F = AX(k) x³ + BX(k) x² + CX(k) x + YA(k), and β = YO + EY F,
β̇ = EY F′/(2 EX), β̈ = EY F″/(4 EX²). The listing's SPLINE prints F′ = 3 AX x + 2 BX and,
at a knot, F″ = BX + YA; :meth:`ManlagInput.beta` uses the cubic's derivatives
3 AX x² + 2 BX x + CX and 6 AX x + 2 BX. The path is TRAYE's straight line
(x, y, z) = (AF, β, CF).

F10.5 reading follows Fortran: a blank field is 0, a field without a decimal point has
five implied decimals ("123" is 0.00123). Writing rounds to 5 decimals (F10.5) and 14
significant digits (E21.13); a value that does not fit raises ValueError.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike

from .dh import from_dh
from .model import Model


@dataclass
class ManlagInput:
    """The values of one MANLAG input file (module docstring for the records).

    Attributes
    ----------
    theta_deg : ndarray (6,)
        Initial θ [deg].
    d, b : ndarray (6,)
        Rojas DH link lengths and offsets [m].
    alpha_deg : ndarray (6,)
        Twists [deg].
    pd : ndarray (60,)
        Mass, centre of mass and inertia of each link, 10 per link.
    u, v, a : ndarray (7,)
        End-effector pose (2 vect(R), tr(R), x, y, z) and its first and second rates.
    af, cf : float
        The straight path's constant x and z [m].
    nrep : int
        Number of steps along the path (0: one pose, no knots).
    ex, ey, xo, yo, dta, t : float
        β(t)'s scaling (PERIOD), the time step and the start time [s].
    ax, bx, cx, xa, ya : ndarray (21,) or None
        The spline's coefficients and knots (present when ``nrep`` > 0).
    pa : ndarray (24,)
        δθ, δθ̇, δθ̈, δf* for the linear check of DINLI.
    """

    theta_deg: np.ndarray
    d: np.ndarray
    b: np.ndarray
    alpha_deg: np.ndarray
    pd: np.ndarray
    u: np.ndarray
    v: np.ndarray
    a: np.ndarray
    af: float = 0.0
    cf: float = 0.0
    nrep: int = 0
    ex: float = 0.0
    ey: float = 0.0
    xo: float = 0.0
    yo: float = 0.0
    dta: float = 0.0
    t: float = 0.0
    ax: np.ndarray | None = None
    bx: np.ndarray | None = None
    cx: np.ndarray | None = None
    xa: np.ndarray | None = None
    ya: np.ndarray | None = None
    pa: np.ndarray = field(default_factory=lambda: np.zeros(24))

    def links(self) -> list[dict]:
        """The six links' inertial data from PD.

        Returns
        -------
        list of dict
            Per link: ``mass`` [kg], ``com`` (3,) [m], ``inertia`` (3, 3) [kg·m²] about the
            centre of mass, in the link's frame (Rojas DH naming).
        """
        out = []
        for j in range(6):
            m, cx_, cy, cz, ixx, ixy, ixz, iyy, iyz, izz = self.pd[10 * j : 10 * j + 10]
            inertia = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
            out.append({"mass": float(m), "com": np.array([cx_, cy, cz]), "inertia": inertia})
        return out

    def model(self, gravity: ArrayLike = (0.0, 0.0, 9.81), name: str = "manlag") -> Model:
        """The 6R arm of the file (Rojas DH naming, frames as PD's).

        Parameters
        ----------
        gravity : array_like (3,)
            [m/s²]; (0, 0, +9.81) as the thesis's program (see
            ``zoo.rojas.cincinnati_t3``).
        name : str
            The model's name.

        Returns
        -------
        Model
        """
        rows = [
            {
                "joint": "R",
                "theta": 0.0,
                "d": float(self.d[i]),
                "b": float(self.b[i]),
                "alpha": float(np.radians(self.alpha_deg[i])),
                **link,
                "name": f"link{i + 1}",
            }
            for i, link in enumerate(self.links())
        ]
        return from_dh(rows, "rojas", gravity=gravity, name=name, source="MANLAG input file")

    def beta(self, t: ArrayLike, nu: int = 0) -> np.ndarray:
        """β(t) of the straight path from the knots (module docstring).

        Parameters
        ----------
        t : array_like
            Times [s].
        nu : {0, 1, 2}
            β [m], β̇ [m/s] or β̈ [m/s²].

        Returns
        -------
        ndarray
            Shaped like ``t``.

        Raises
        ------
        ValueError
            No knots (``nrep`` ≤ 0), times outside them, or another ``nu``.
        """
        if self.xa is None or self.nrep <= 0:
            raise ValueError("nrep: the file has no spline knots (NREP ≤ 0)")
        assert self.ax is not None and self.bx is not None and self.cx is not None
        assert self.ya is not None
        xi = 0.5 * (np.asarray(t, dtype=float) - self.xo) / self.ex
        if np.any(xi < self.xa[0] - 1e-12) or np.any(xi > self.xa[-1] + 1e-12):
            raise ValueError(
                f"t: expected times whose ξ = (t − XO)/(2 EX) lies in [{self.xa[0]}, "
                f"{self.xa[-1]}], got ξ from {xi.min()} to {xi.max()}"
            )
        k = np.clip(np.searchsorted(self.xa, xi, side="right") - 1, 0, len(self.xa) - 2)
        x = xi - self.xa[k]
        A, B, C, D = self.ax[k], self.bx[k], self.cx[k], self.ya[k]
        if nu == 0:
            return self.yo + self.ey * (((A * x + B) * x + C) * x + D)
        if nu == 1:
            return self.ey * ((3 * A * x + 2 * B) * x + C) / (2 * self.ex)
        if nu == 2:
            return self.ey * (6 * A * x + 2 * B) / (4 * self.ex**2)
        raise ValueError(f"nu: expected 0, 1 or 2, got {nu!r}")


# ---- reading -----------------------------------------------------------------------

_SIGNED_EXPONENT = re.compile(r"^([+-]?[0-9.]+)([+-][0-9]+)$")


def _number(text: str, where: str, width: int, decimals: int) -> float:
    s = text.strip().upper().replace("D", "E")
    if not s:
        return 0.0
    m = _SIGNED_EXPONENT.match(s)
    if m:  # Fortran's exponent without a letter: 0.123+01
        s = f"{m.group(1)}E{m.group(2)}"
    try:
        if "." in s:
            value = float(s)
        else:
            mantissa, _, exponent = s.partition("E")
            value = int(mantissa) / 10**decimals * 10 ** int(exponent or 0)
        if not np.isfinite(value):
            raise OverflowError
        return value
    except (ValueError, OverflowError):
        raise ValueError(
            f"{where}: expected a number in F{width}.{decimals}, got {text!r}"
        ) from None


def _fields(
    line: str, count: int, width: int, decimals: int, record: int, names: list[str]
) -> list:
    out = []
    for c in range(count):
        lo = c * width
        where = f"record {record}, columns {lo + 1}–{lo + width} ({names[c]})"
        value = _number(line[lo : lo + width], where, width, decimals)
        if not np.isfinite(value):
            raise ValueError(f"{where}: expected a finite number, got {line[lo : lo + width]!r}")
        out.append(value)
    return out


def _layout(nrep: int | None) -> list[tuple[list[str], str]]:
    """(names per record, format) in file order; None for the knots' NREP unknown."""
    recs: list[tuple[list[str], str]] = [([f"THETA({i})" for i in range(1, 7)], "F")]
    recs += [([f"P({6 * r + i})" for i in range(1, 7)], "F") for r in range(3)]
    recs += [([f"PD({6 * r + i})" for i in range(1, 7)], "F") for r in range(10)]
    recs += [([f"U({i})" for i in range(1, 7)], "F")]
    recs += [(["U(7)", "V(7)", "A(7)", "AF", "CF", "NREP"], "F5I3")]
    recs += [(["EX", "EY", "XO", "YO", "DTA", "T"], "F")]
    recs += [([f"V({i})" for i in range(1, 7)], "F"), ([f"A({i})" for i in range(1, 7)], "F")]
    if nrep is not None and nrep > 0:
        recs += [([f"AX({k})", f"BX({k})", f"CX({k})"], "E3") for k in range(1, 22)]
        recs += [([f"XA({k})", f"YA({k})"], "E2") for k in range(1, 22)]
    recs += [([f"PA({6 * r + i})" for i in range(1, 7)], "F") for r in range(4)]
    return recs


def _parse_record(line: str, names: list[str], fmt: str, record: int) -> list:
    if fmt == "F":
        return _fields(line, 6, 10, 5, record, names)
    if fmt == "F5I3":
        values = _fields(line, 5, 10, 5, record, names)
        text = line[50:53]
        where = f"record {record}, columns 51–53 (NREP)"
        try:
            nrep = int(text.strip() or "0")
        except ValueError:
            raise ValueError(f"{where}: expected an integer in I3, got {text!r}") from None
        return values + [nrep]
    count = int(fmt[1])
    return _fields(line, count, 21, 13, record, names)


def read_manlag(source: str | PathLike) -> ManlagInput:
    """Read a MANLAG input file (module docstring for its records).

    Parameters
    ----------
    source : str or os.PathLike
        A path, or the file's text itself when it contains a newline.

    Returns
    -------
    ManlagInput

    Raises
    ------
    ValueError
        A field that is not a number of its format, or a missing record — naming the
        record, its columns and the value (e.g. ``record 5, columns 1–10 (PD(1))``).
    OSError
        A path that cannot be read.

    Examples
    --------
    >>> from eslabon.model.manlag import read_manlag, write_manlag
    >>> from eslabon.reproduce.manlag_program import t3_manlag_input
    >>> data = read_manlag(write_manlag(t3_manlag_input()))
    >>> data.pd[:4].tolist(), int(data.nrep)
    ([680.0, 0.0, -0.33, 0.0], 20)
    """
    text = str(source) if "\n" in str(source) else Path(source).read_text()
    lines = text.splitlines()
    values: dict[str, float] = {}
    nrep: int | None = None
    r = 0
    while True:
        layout = _layout(nrep)
        if r >= len(layout):
            break
        names, fmt = layout[r]
        if r >= len(lines):
            raise ValueError(
                f"record {r + 1} ({names[0]}…{names[-1]}): missing, the file ends after "
                f"{len(lines)} records"
            )
        for name, value in zip(names, _parse_record(lines[r], names, fmt, r + 1), strict=True):
            values[name] = value
        if fmt == "F5I3":
            nrep = int(values["NREP"])
        r += 1

    def vec(prefix: str, count: int) -> np.ndarray:
        return np.array([values[f"{prefix}({i})"] for i in range(1, count + 1)], dtype=float)

    p = vec("P", 18)
    knots: dict[str, np.ndarray] = {}
    if nrep is not None and nrep > 0:
        knots = {key: vec(key.upper(), 21) for key in ("ax", "bx", "cx", "xa", "ya")}
    return ManlagInput(
        theta_deg=vec("THETA", 6),
        d=p[:6],
        b=p[6:12],
        alpha_deg=p[12:18],
        pd=vec("PD", 60),
        u=vec("U", 7),
        v=vec("V", 7),
        a=vec("A", 7),
        af=values["AF"],
        cf=values["CF"],
        nrep=int(values["NREP"]),
        ex=values["EX"],
        ey=values["EY"],
        xo=values["XO"],
        yo=values["YO"],
        dta=values["DTA"],
        t=values["T"],
        ax=knots.get("ax"),
        bx=knots.get("bx"),
        cx=knots.get("cx"),
        xa=knots.get("xa"),
        ya=knots.get("ya"),
        pa=vec("PA", 24),
    )


# ---- writing -----------------------------------------------------------------------


def _f10(value: float, name: str) -> str:
    s = f"{float(value):10.5f}"
    if len(s) > 10 or not np.isfinite(value):
        raise ValueError(
            f"{name}: {float(value)!r} does not fit F10.5 (finite, 10 characters with 5 "
            "decimals: −999.99999 … 9999.99999)"
        )
    return s


def _e21(value: float, name: str) -> str:
    if not np.isfinite(value):
        raise ValueError(f"{name}: expected a finite number, got {value!r}")
    return f"{float(value):21.13E}"


def write_manlag(data: ManlagInput, path: str | PathLike | None = None) -> str:
    """The text of a MANLAG input file for ``data``; also written to ``path`` if given.

    Parameters
    ----------
    data : ManlagInput
    path : str or os.PathLike, optional

    Returns
    -------
    str
        The file's text (one record per line).

    Raises
    ------
    ValueError
        A value that does not fit its field (naming it), arrays of the wrong lengths, or
        ``nrep`` > 0 without the 21 knots.

    Examples
    --------
    >>> from eslabon.model.manlag import write_manlag
    >>> from eslabon.reproduce.manlag_program import t3_manlag_input
    >>> write_manlag(t3_manlag_input()).splitlines()[1]
    '   0.00000   1.02000   1.02000   0.20000   0.00000   0.00000'
    """
    flat = {
        "THETA": data.theta_deg,
        "P": np.concatenate([data.d, data.b, data.alpha_deg]),
        "PD": data.pd,
        "U": data.u,
        "V": data.v,
        "A": data.a,
        "PA": data.pa,
    }
    sizes = {"THETA": 6, "P": 18, "PD": 60, "U": 7, "V": 7, "A": 7, "PA": 24}
    for key, arr in flat.items():
        if np.shape(arr) != (sizes[key],):
            raise ValueError(f"{key}: expected {sizes[key]} values, got shape {np.shape(arr)}")
    nrep = int(data.nrep)
    if not 0 <= nrep <= 999:
        raise ValueError(f"nrep: expected 0 … 999 (I3), got {data.nrep!r}")
    knots = (data.ax, data.bx, data.cx, data.xa, data.ya)
    if nrep > 0 and any(k is None or np.shape(k) != (21,) for k in knots):
        raise ValueError("ax, bx, cx, xa, ya: nrep > 0 needs the 21 knots of each")
    scalars = {
        k.upper(): getattr(data, k) for k in ("af", "cf", "ex", "ey", "xo", "yo", "dta", "t")
    }
    lines = []
    for names, fmt in _layout(nrep):
        if fmt == "F5I3":
            vals = [data.u[6], data.v[6], data.a[6], data.af, data.cf]
            lines.append(
                "".join(_f10(v, n) for v, n in zip(vals, names, strict=False)) + f"{nrep:3d}"
            )
            continue
        row = []
        for n in names:
            key, _, rest = n.partition("(")
            if rest:
                i = int(rest.rstrip(")")) - 1
                value = flat[key][i] if key in flat else getattr(data, key.lower())[i]
            else:
                value = scalars[key]
            row.append(_f10(value, n) if fmt == "F" else _e21(value, n))
        lines.append("".join(row))
    text = "\n".join(lines) + "\n"
    if path is not None:
        Path(path).write_text(text)
    return text
