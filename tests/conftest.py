"""Shared test helpers: seeded random serial chains (``eslabon.zoo.random_chain``) and
random states.

Both are exposed as fixtures returning a function, so a test (or another fixture) calls
``random_chain(seed, n, convention)`` and ``random_states(model, seed, count)``.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from eslabon import random_configuration
from eslabon.zoo import random_chain as _random_chain


def make_random_chain(seed: int, n: int, convention: str, *, friction: bool = True, **options):
    """``eslabon.zoo.random_chain`` in the tests' argument order, with friction on by
    default (viscous, Coulomb and armature on some joints)."""
    return _random_chain(n, seed, convention, friction=friction, **options)


def make_random_states(model, seed: int, count: int = 5):
    """``count`` random states (q, q̇, q̈), each (count, n): revolute q in [−π, π],
    prismatic q in [−0.5, 0.5] m, q̇ in [−2, 2], q̈ in [−3, 3]."""
    rng = np.random.default_rng(seed)
    if model.has_general_joints:  # q from the configuration space; rates of nv
        q = np.array([random_configuration(model, rng) for _ in range(count)])
        qd = rng.uniform(-2.0, 2.0, size=(count, model.nv))
        return q, qd, rng.uniform(-3.0, 3.0, size=(count, model.nv))
    n = model.nq
    prismatic = np.array([t == "prismatic" for t in model.joint_types])
    q = np.where(
        prismatic,
        rng.uniform(-0.5, 0.5, size=(count, n)),
        rng.uniform(-np.pi, np.pi, size=(count, n)),
    )
    qd = rng.uniform(-2.0, 2.0, size=(count, n))
    qdd = rng.uniform(-3.0, 3.0, size=(count, n))
    return q, qd, qdd


@pytest.fixture(scope="session")
def random_chain():
    """``random_chain(seed, n, convention, **options)`` -> a random eslabon Model."""
    return make_random_chain


@pytest.fixture(scope="session")
def random_states():
    """``random_states(model, seed, count=5)`` -> (q, q̇, q̈), each (count, n)."""
    return make_random_states


#: modules whose results hang on round-off: stored tables compared to a tolerance, Newton
#: and continuation outcomes, bit-for-bit comparisons made within one run (batch against
#: single states, the C path against the general one), the reproduced documents. They
#: carry the `numerics` marker, and `make test-cpu-variants` runs them again with the
#: kernels compiled for other CPU targets (tests/cpu_variants.sh).
NUMERICS_MODULES = frozenset(
    {
        "test_golden_outputs",
        "test_inverse_kinematics",
        "test_reproduce_cincinnati_t3",
        "test_reproduce_spatial_operators",
        "test_reproduce_mobile_manipulator",
        "test_lanes",
        "test_fastcall",
        "test_identities",
        "test_ik_single_precision",
        "test_linearized_control",
        "test_task_torques",
        "test_first_contact",
        "test_sim_compiled",
        "test_viz_overview",  # `eslabon demo` and `demo --full`: every document reproduced
    }
)


#: tests over about 20 s on 2 cores (the durations `make test` prints): each does a whole
#: job a user runs (a tour, a reproduction, the bench without MuJoCo, every CLI argument
#: check); they stay in `make test` and CI, and `pytest -m "not slow"` leaves them out
SLOW_TESTS = frozenset(
    {
        "tests/test_viz_overview.py::test_full_demo_tour",
        "tests/test_bench_mujoco.py::test_mujoco_missing_shows_dashes_and_a_note",
        "tests/test_reproduce_mobile_manipulator.py::test_reproduce_araujo",
        "tests/test_bad_input.py::test_control_sweep_viewer_and_mobile_arguments_are_checked",
        "tests/test_reproduce_cincinnati_t3.py::test_reproduce_rojas_writes_tables_task_and_benchmark",
        "tests/test_warmup.py::test_first_use_after_the_warmup_compiles_nothing",
        "tests/test_lanes.py::test_lanes_equal_single_states_whatever_compiled_first",
        "tests/test_lanes.py::test_the_other_lanes_width_equals_single_states_bit_for_bit",
    }
)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.module is not None and item.module.__name__.rsplit(".", 1)[-1] in NUMERICS_MODULES:
            item.add_marker(pytest.mark.numerics)
        if item.nodeid.split("[", 1)[0] in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _no_compile_notice():
    """Silence the one-line compile notice in this process for each test: which test
    compiles a kernel first depends on the order the workers take tests in, and its
    notice would land in that test's captured stderr. Tests of the notice turn it on
    themselves; subprocesses keep the environment's setting."""
    from eslabon._engine.compile import compile_notice

    compile_notice(False)
    yield
    compile_notice(_NOTICE_AT_START)


@pytest.fixture(autouse=True)
def _old_names_warn_in_each_test():
    """Each old spelling warns once per process (eslabon._deprecation); forget which
    have warned before each test, so that a test that expects the warning sees it
    whichever tests ran before it in its worker. An old spelling that a test does not
    expect is an error (pyproject.toml, ``filterwarnings``)."""
    from eslabon import _deprecation

    _deprecation._WARNED.clear()
    yield


def _notice_at_start() -> bool:
    from eslabon._engine.compile import compile_notice

    return compile_notice()


_NOTICE_AT_START = _notice_at_start()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """Headless Chromium driven by Selenium, one per test module (the viewer's browser
    tests); skipped where chromium and chromedriver are not installed (.ci/run installs
    them as root)."""
    webdriver = pytest.importorskip("selenium.webdriver")
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not (chromium and driver):
        pytest.skip("chromium / chromedriver not installed")
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--enable-unsafe-swiftshader",  # WebGL on the CPU (no GPU here)
        "--use-angle=swiftshader",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,720",
        f"--user-data-dir={tmp_path_factory.mktemp('chrome')}",
    ):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=webdriver.ChromeService(executable_path=driver), options=opts)
    yield d
    d.quit()
