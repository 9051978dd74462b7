"""A serial arm on a wheeled platform, by Gibbs–Appell in quasi-velocities (seed 003,
Araujo 2012, Ch. III, and Steps 1–7 of its "Algoritmo para resolver el problema dinámico
inverso").

The state is y = [config, q, ν, q̇]: the platform's configuration (pose, steering, wheel
angles), the arm joints, the platform's quasi-velocities and the arm rates. Two coupling
modes:

``"coupled"``
    One Gibbs function over every body (chassis, steering body, wheels, arm links) in the
    quasi-velocities [ν, q̇]: S = ½ [ν̇; q̈]ᵀ D [ν̇; q̈] + φᵀ [ν̇; q̈] + f, so
    D [ν̇; q̈] + φ = [Q_platform; τ]. The arm's base (the mount) moves with the chassis:
    its partials ∂ω̇/∂ν̇, ∂r̈/∂ν̇ start the arm's recursive partials (3.39–3.51) and its
    velocity-product motion starts the q̈ = 0 pass, so the arm's mass and reactions act
    on the platform and the platform's V̇, θ̈ reach the arm.

``"thesis"`` (any platform)
    The thesis's one-way coupling (Steps 1–7): the platform alone, the tricycle by
    Martinenko's closed form (:mod:`eslabon.mobile.steered_cart`) with the mass constants
    that ``ThesisOptions.constants`` names (default: Martinenko's printed ones), any
    other platform by its own Gibbs function; then the arm by q̈ = D⁻¹(τ − φ), with D
    over the arm joints alone and φ from a base that moves with the chassis's velocity
    products only. Its omissions are flags of :class:`ThesisOptions`:
    ``lateral_acceleration`` (the rear-axle midpoint's lateral acceleration V·θ̇, which
    (3.21) and Step 6 set to 0 because they differentiate the body-frame velocity (3.19);
    default False = as the thesis) and ``platform_acceleration`` (V̇, θ̈ reaching the arm;
    default False). The thesis's gravity sign is an error, not an option: Step 6 sets
    ⁰r̈₀ = [0, 0, −g]ᵀ with z up, where Luh's base-acceleration trick needs +g, so
    gravity always pulls down here. q1 is the rear-axle distance travelled: the thesis
    calls q1 the position of the front-axle centre, but its Step 2 gives q̈1 Martinenko's
    rear-axle V̇, so V is taken at the rear axle throughout.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._args import finite_array, finite_number
from ..model.model import Model
from ..model.validate import check_rotation
from .differential import DifferentialDrive
from .gibbs import _inputs, _solve, coupled_terms
from .omnidirectional import Omnidirectional
from .one_way_coupling import ThesisOptions, _thesis_accelerations
from .platforms import Tricycle
from .synchronous import SynchronousDrive
from .terrain import Slope, is_level

MODES = ("coupled", "thesis")
#: the platforms a :class:`MobileManipulator` takes
PLATFORMS = (Tricycle, DifferentialDrive, Omnidirectional, SynchronousDrive)


@dataclass(frozen=True)
class Mount:
    """Where the arm's base frame sits on the chassis: translation [m] and rotation.

    ``translation`` (3,) [m] from the rear-axle midpoint and ``rotation`` (3, 3)
    chassis ← arm base. The chassis frame R has its origin at the rear-axle midpoint (the
    axle midpoint of a differential drive), x forward and z up. Araujo (2012) does not
    give the PUMA's mount on the Seekur Jr.: the value is the user's.

    Parameters
    ----------
    translation : array_like (3,)
        The arm's base origin in the chassis frame [m] (default: the chassis origin).
    rotation : array_like (3, 3)
        The arm's base axes in the chassis frame (maps arm-base vectors to chassis
        vectors); a proper rotation (default: identity).

    Attributes
    ----------
    translation : ndarray (3,)
        As given, as floats [m].
    rotation : ndarray (3, 3)
        As given, as floats.

    Raises
    ------
    ValueError
        ``translation`` not 3 finite numbers, ``rotation`` not a proper (3, 3) rotation.

    Examples
    --------
    >>> from eslabon import mobile as mb
    >>> mb.Mount((0.3, 0.0, 0.5)).translation.tolist()
    [0.3, 0.0, 0.5]
    """

    translation: tuple = (0.0, 0.0, 0.0)
    rotation: np.ndarray = field(default_factory=lambda: np.eye(3))

    def __post_init__(self):
        object.__setattr__(
            self, "translation", finite_array(self.translation, "mount.translation", (3,))
        )
        object.__setattr__(self, "rotation", check_rotation(self.rotation, "mount.rotation"))

    @classmethod
    def araujo_assumed(cls) -> Mount:
        """The PUMA's mount on the Seekur Jr. that ``reproduce araujo`` and the demo use.

        **Assumed**, not data from Araujo (2012), which gives no mount: the arm's base
        0.30 m ahead of the rear axle (a third of the 0.90 m wheelbase) and 0.50 m above
        the axle's height, axes aligned with the chassis (base z up). ``reproduce
        araujo`` shows how much the results move when it does (``sensitivity.png``).

        Returns
        -------
        Mount
            ``Mount((0.3, 0.0, 0.5))``.

        Examples
        --------
        >>> from eslabon import mobile as mb
        >>> mb.Mount.araujo_assumed().translation.tolist()
        [0.3, 0.0, 0.5]
        """
        return cls((0.3, 0.0, 0.5))


@dataclass(frozen=True)
class MobileManipulator:
    """A serial arm on a wheeled platform: platform, arm, mount, coupling mode, gravity.

    ``platform`` (:class:`Tricycle`, :class:`DifferentialDrive`, :class:`Omnidirectional`
    or :class:`SynchronousDrive`), ``arm`` (a fixed-base
    :class:`~eslabon.Model`, its base frame placed by ``mount``), the coupling ``mode``,
    and ``gravity`` [m/s²] acting along −z of the floor.

    Araujo (2012), chapter III. The state is y = [config, q, ν, q̇] (:meth:`state`,
    :meth:`split`); the unknowns of the dynamics are [ν̇; q̈]. ``mode="coupled"`` writes
    one Gibbs function over every body, so the arm and the platform act on each other;
    ``mode="thesis"`` is the thesis's one-way coupling: the platform alone (Martinenko's
    closed form for the tricycle, the platform's own Gibbs function for the others),
    then the arm on a base moving with the chassis (see docs/mobile.md). In both modes
    gravity pulls down (the thesis's Step 6 sign is an error) and V is the speed of the
    rear-axle midpoint (the thesis calls its q1 the front axle's position but gives it
    the rear axle's V̇).

    Parameters
    ----------
    platform : Tricycle, DifferentialDrive, Omnidirectional or SynchronousDrive
    arm : Model
        A fixed-base arm with revolute, prismatic or fixed joints only. Its own
        ``gravity`` is not used (``gravity`` below is).
    mount : Mount
        The arm's base frame in the chassis frame (default: at the chassis origin, same
        axes).
    mode : {"coupled", "thesis"}
        The coupling.
    thesis : ThesisOptions
        The omissions of ``mode="thesis"`` (ignored in ``"coupled"``).
    gravity : float
        g [m/s²], along −z of the floor (= −z of the chassis).
    name : str
        A label.
    ground : Slope, optional
        A floor inclined by a slope (Araujo (2012), "Recomendaciones";
        :mod:`eslabon.mobile.terrain`); None (default) is the level floor. Not level, or
        a tricycle with ``steering_tilt``, takes ``mode="coupled"``.

    Attributes
    ----------
    n_config : int
        nc, the number of platform configuration coordinates.
    n_quasi : int
        k, the number of quasi-velocities (2, or 3 for :class:`Omnidirectional`).
    n_arm : int
        n, the arm's joints.
    n_state : int
        nc + 2n + k, the length of the state y.
    coordinate_names : tuple of str
        Names of [ν̇; q̈]: the platform's quasi-velocities, then ``q1`` … ``qn``.

    Raises
    ------
    ValueError
        A platform or arm of another type, an arm with a joint other than revolute,
        prismatic or fixed, an unknown mode, a gravity that is not a finite number, a
        ``ground`` that is not a Slope, a slope or tilted steering axis in thesis mode.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
    >>> mm.n_state, mm.coordinate_names[:3]
    (21, ('V', 'steering_rate', 'q1'))
    """

    platform: Tricycle | DifferentialDrive | Omnidirectional | SynchronousDrive
    arm: Model
    mount: Mount = field(default_factory=Mount)
    mode: str = "coupled"
    thesis: ThesisOptions = field(default_factory=ThesisOptions)
    gravity: float = 9.81
    name: str = "mobile_manipulator"
    ground: Slope | None = None

    def __post_init__(self):
        if not isinstance(self.platform, PLATFORMS):
            raise ValueError(
                "platform: expected one of "
                f"{', '.join(c.__name__ for c in PLATFORMS)}, got {type(self.platform).__name__}"
            )
        if not isinstance(self.arm, Model):
            raise ValueError(f"arm: expected an eslabon Model, got {type(self.arm).__name__}")
        self.arm.require_one_dof_joints("a mobile manipulator's arm (seed 003)")
        if self.mode not in MODES:
            raise ValueError(f"mode: expected one of {MODES}, got {self.mode!r}")
        object.__setattr__(self, "gravity", finite_number(self.gravity, "gravity"))
        if self.ground is not None and not isinstance(self.ground, Slope):
            raise ValueError(f"ground: expected a Slope or None, got {type(self.ground).__name__}")
        if self.mode != "coupled" and not is_level(self):
            raise ValueError(
                "mode: a sloped ground or a tilted steering axis is modelled in "
                f"mode='coupled' only (the thesis's one-way model is for a level floor), "
                f"got {self.mode!r}"
            )

    # --- layout of the state y = [config, q, ν, q̇] --------------------------------------
    @property
    def n_config(self) -> int:
        return len(self.platform.config_names)

    @property
    def n_quasi(self) -> int:
        return len(self.platform.quasi_names)

    @property
    def n_arm(self) -> int:
        return self.arm.nq

    @property
    def n_state(self) -> int:
        return self.n_config + 2 * self.n_arm + self.n_quasi

    @property
    def coordinate_names(self) -> tuple:
        """Names of the accelerations [ν̇; q̈] (the Gibbs–Appell unknowns)."""
        return tuple(self.platform.quasi_names) + tuple(f"q{i + 1}" for i in range(self.n_arm))

    def state(self, config=None, q=None, nu=None, qd=None) -> np.ndarray:
        """Pack y (zeros where not given).

        Parameters
        ----------
        config : array_like (nc,), optional
            Platform configuration: x, y [m] of the chassis origin in the floor (world)
            frame, heading θ [rad], (the tricycle's steering β [rad]), wheel angles [rad].
        q : array_like (n,), optional
            Arm joints [rad, m].
        nu : array_like (k,), optional
            Quasi-velocities (tricycle [V m/s, β̇ rad/s], differential drive
            [v m/s, ω rad/s]).
        qd : array_like (n,), optional
            Arm joint rates [rad/s, m/s].

        Returns
        -------
        ndarray (n_state,)
            y = [config, q, ν, q̇].

        Raises
        ------
        ValueError
            A part of the wrong length or not finite, naming it.

        Examples
        --------
        >>> import eslabon as es
        >>> from eslabon import mobile as mb
        >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
        >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
        >>> mm.state(nu=[1.0, 0.0]).shape
        (21,)
        """
        parts = [
            (config, self.n_config, "config"),
            (q, self.n_arm, "q"),
            (nu, self.n_quasi, "nu"),
            (qd, self.n_arm, "qd"),
        ]
        return np.concatenate(
            [np.zeros(n) if x is None else finite_array(x, name, (n,)) for x, n, name in parts]
        )

    def split(self, y):
        """(config, q, ν, q̇) views of y (n_state,).

        Parameters
        ----------
        y : array_like (n_state,)
            The state [config, q, ν, q̇].

        Returns
        -------
        tuple of ndarray
            config (nc,), q (n,), ν (k,), q̇ (n,): views of y when y is a float64 array,
            else of its conversion.

        Raises
        ------
        ValueError
            ``y`` of another length or not finite.
        """
        y = finite_array(y, "state", (self.n_state,))
        a = self.n_config
        b = a + self.n_arm
        c = b + self.n_quasi
        return y[:a], y[a:b], y[b:c], y[c:]

    def with_mode(self, mode: str, **thesis_flags) -> MobileManipulator:
        """The same mobile manipulator in another coupling ``mode``.

        Parameters
        ----------
        mode : {"coupled", "thesis"}
            The coupling.
        **thesis_flags
            Fields of :class:`ThesisOptions`; when given they replace the current options
            (the fields not named take their defaults), else the current options are kept.

        Returns
        -------
        MobileManipulator
            A new object; platform, arm, mount, gravity and name are shared.

        Raises
        ------
        ValueError
            An unknown mode or option value.
        TypeError
            An unknown flag.
        """
        return MobileManipulator(
            self.platform,
            self.arm,
            self.mount,
            mode,
            ThesisOptions(**thesis_flags) if thesis_flags else self.thesis,
            self.gravity,
            self.name,
            self.ground,
        )


def accelerations(mm, y, u, tau=None, *, locked: bool = False):
    """[ν̇; q̈] (k + n,) at state y under platform inputs ``u`` and arm torques ``tau``.

    ``u``: the platform's inputs (``mm.platform.input_names``). ``locked`` holds the
    platform (ν̇ = 0; the arm then moves as on a fixed base carried at the platform's
    velocity).

    In ``mode="coupled"`` a solves D a = Q − φ (:func:`coupled_terms`, Cholesky). In
    ``mode="thesis"`` (Araujo (2012), Steps 1–7): ν̇ of the platform alone
    (:func:`thesis_platform_accelerations`: Martinenko's closed form (3.29, corrected
    3.30) for the tricycle), then q̈ = D⁻¹(τ − φ) over the arm's joints on a base moving
    as ``mm.thesis`` says.

    Parameters
    ----------
    mm : MobileManipulator
    y : array_like (n_state,)
        The state [config, q, ν, q̇].
    u : array_like (k_u,)
        Platform inputs: tricycle [F [N] at the rear-axle midpoint along the chassis x,
        M [N·m] steering torque], differential drive [τ_left, τ_right] [N·m],
        omnidirectional one torque per wheel [N·m], synchronous drive [τ_drive,
        τ_steer] [N·m].
    tau : array_like (n,), optional
        Arm joint torques [N·m, N] (zeros by default).
    locked : bool
        Hold the platform: ν̇ = 0 and only the arm's block is solved.

    Returns
    -------
    ndarray (k + n,)
        [ν̇; q̈]: ν̇ in the order of ``mm.platform.quasi_names`` [m/s², rad/s²] (tricycle
        [V̇, β̈]), then q̈ [rad/s², m/s²].

    Raises
    ------
    ValueError
        ``y``, ``u`` or ``tau`` of the wrong length or not finite; a tricycle steering
        angle outside (−90°, 90°); D not positive definite (a coordinate that moves no
        mass).

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
    >>> y = mm.state(nu=[1.0, 0.0])
    >>> a = mb.accelerations(mm, y, [150.0, 0.3], [6, 50, 10, -0.1, -0.5, -0.1])
    >>> a.shape
    (8,)
    >>> thesis = mm.with_mode("thesis")  # Martinenko: V̇ = F/m with his printed m
    >>> round(float(mb.accelerations(thesis, y, [150.0, 0.0])[0]), 6)
    0.40107
    """
    u, tau = _inputs(mm, u, tau)
    config, q, nu, qd = mm.split(y)
    k = mm.n_quasi
    if mm.mode == "thesis":
        return _thesis_accelerations(mm, config, q, nu, qd, u, tau, locked)
    D, phi, _ = coupled_terms(mm, y)
    Q = np.concatenate([mm.platform.generalized_forces(config, nu, u), tau])
    if locked:
        return np.concatenate([np.zeros(k), _solve(D[k:, k:], Q[k:] - phi[k:], "q")])
    return _solve(D, Q - phi, "state")


def input_forces(mm, y, nu_dot, qdd):
    """[Q_platform; τ] (k + n,) that give the accelerations (coupled mode): D a + φ.

    Q_platform is in quasi-velocity form (tricycle: [F, M]). For a differential drive it
    is Q = [(τ_L + τ_R)/r, l (τ_R − τ_L)/r], so the wheel torques are
    τ_L = r (Q₁ − Q₂/l)/2 and τ_R = r (Q₁ + Q₂/l)/2.

    Parameters
    ----------
    mm : MobileManipulator
        In ``mode="coupled"``.
    y : array_like (n_state,)
        The state [config, q, ν, q̇].
    nu_dot : array_like (k,)
        ν̇ (tricycle [V̇ m/s², β̈ rad/s²], differential drive [v̇ m/s², ω̇ rad/s²]).
    qdd : array_like (n,)
        q̈ [rad/s², m/s²].

    Returns
    -------
    ndarray (k + n,)
        [Q_platform; τ]: tricycle [F N, M N·m], differential drive [N, N·m], then the
        arm's τ [N·m, N].

    Raises
    ------
    ValueError
        ``mm.mode`` not ``"coupled"`` (the thesis's one-way model has no single inverse);
        an argument of the wrong length or not finite; a tricycle steering angle outside
        (−90°, 90°).

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
    >>> y, u, tau = mm.state(nu=[1.0, 0.0]), [150.0, 0.3], [6, 50, 10, -0.1, -0.5, -0.1]
    >>> a = mb.accelerations(mm, y, u, tau)
    >>> bool(np.allclose(mb.input_forces(mm, y, a[:2], a[2:]), u + tau))
    True
    """
    if mm.mode != "coupled":
        raise ValueError(
            "mode: input_forces are the coupled system's; the thesis's "
            "one-way model has no single inverse"
        )
    D, phi, _ = coupled_terms(mm, y)
    a = np.concatenate(
        [finite_array(nu_dot, "nu_dot", (mm.n_quasi,)), finite_array(qdd, "qdd", (mm.n_arm,))]
    )
    return D @ a + phi


def state_derivative(mm, y, u, tau=None, *, locked: bool = False):
    """ẏ = [G(config) ν, q̇, ν̇, q̈].

    The right-hand side integrated by :func:`~eslabon.mobile.simulate`; ν̇, q̈ from
    :func:`accelerations`.

    Parameters
    ----------
    mm : MobileManipulator
    y : array_like (n_state,)
        The state [config, q, ν, q̇].
    u : array_like (k_u,)
        Platform inputs (``mm.platform.input_names``; tricycle [F N, M N·m], the others
        wheel torques [N·m]).
    tau : array_like (n,), optional
        Arm joint torques [N·m, N] (zeros by default).
    locked : bool
        Hold the platform (ν̇ = 0).

    Returns
    -------
    ndarray (n_state,)
        [q̇_config (nc,) (ẋ, ẏ [m/s] in the floor frame, the angles' rates [rad/s]),
        q̇ (n,), ν̇ (k,), q̈ (n,)].

    Raises
    ------
    ValueError
        As :func:`accelerations`.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
    >>> yd = mb.state_derivative(mm, mm.state(nu=[1.0, 0.0]), [150.0, 0.3])
    >>> yd.shape, yd[:3].tolist()  # ẋ, ẏ, θ̇ of the chassis
    ((21,), [1.0, 0.0, 0.0])
    """
    config, q, nu, qd = mm.split(y)
    rates = mm.platform.motion(config, nu).rates
    acc = accelerations(mm, y, u, tau, locked=locked)
    return np.concatenate([rates, qd, acc])
