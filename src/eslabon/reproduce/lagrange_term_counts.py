"""The term-by-term operation count of Rojas Salgado (1987) §4.4, beside eslabon's own.

§4.4 counts, term by term, the multiplications and additions of the thesis's Lagrange
model (4.3.33) — the matrices I(θ) and C(θ, θ̇) built from the Jacobians R_i = ∂r_i/∂θ
and A_i of each body — and sums them to

    M = 15n² + 6n − 3 + Σ_{i=1..n} i(18i − 15)          (4.4.3)   n = 6: 1896
    S = 10,5n² + 6,5n − 5 + Σ_{j=1..n} 13j² − 15(j − 1)  (4.4.4)   n = 6: 1370

The terms, as the text lists them (:data:`THESIS_TERMS`). The OCR text renders the
thesis's dots as hats and cites C and A_iω as (4.3.24a, c), which are (4.3.34a, c):
C = Σ m_i R_iᵀṘ_i + A_iᵀI_iȦ_i + A_iωᵀI_iA_i. So R̂_i is Ṙ_i, Â_n in term 3 is Ȧ_n
(used by the inverse kinematics' accelerations, 3.3.3.2) and C's "R_iᵀÂ_i" is R_iᵀṘ_i;
term 1's "I_i⁻¹ Â_i" is I_i A_i. Its sentence prints "El producto de I_ci⁻¹ por e_j"
(the product of I_ci⁻¹ and e_j); eslabon reads it as I_ci e_j, since only that reading
gives the counts 9/6 per product and the total (4.4.3); the
term appears in I (A_iᵀI_iA_i) and in C (A_iωᵀI_iA_i):

 1. I_i A_i:
    I_ci times e_j in frame i, 9 products and 6 sums, referred to frame 1, 9 and 6 more,
    for each pair j ≤ i: 18·n(n+1)/2 products, 12·n(n+1)/2 sums;
 2. R_i: 3(n − 1)(n + 1) products, (n − 1)(5 + 3n) sums;
 3. Ȧ_n: computed in the inverse kinematics (it holds Ȧ_1 … Ȧ_n−1): none;
 4. A_iω = [e_1 × ω_i, …] (4.3.34c): 3n(n − 1) products, 3n(n − 1)/2 sums;
 5. ∂²r_i/∂θ² (4.3.36c), symmetric: Σ3(i − 2)(i − 1) products, Σ2(j − 2)(j − 1) sums;
 6. Ṙ_i: Σ3(i − 1)² products, Σ3(j − 2)(j − 1) sums;
 7. R_iᵀR_i (in I): Σ3i(i + 1)/2 products, Σ2j(j + 1)/2 sums;
 8. A_iᵀI_iA_i (in I): Σ3i(i − 1)/2 products, Σj(j − 1) sums;
 9. C (4.3.34a): R_iᵀṘ_i, A_iᵀI_iȦ_i and A_iωᵀI_iA_i, not symmetric, each
    Σ3(i² − 1) products and Σ2(j² − 1) sums.

**The OCR-damaged binomial.** Term 1 reads "18 binom(n, 2)(n + 1)" in the OCR text — a
binomial coefficient C(n, 2) times (n + 1). Read literally it is cubic (1890 products at n = 6
for this term alone, more than the thesis's total of 1896). It is read here as
18·n(n + 1)/2 = 18·C(n + 1, 2): the count of the pairs j ≤ i, one product I_ci e_j per
pair, as the sentence describes; a stacked n(n+1)/2 or C(n+1, 2) printed badly gives the
OCR's form. Only this reading makes the terms' products add up to (4.4.3) for every n
(its 15n² + 6n − 3 needs 9n² + 9n from term 1) and to the printed 1896.

**The additions.** The terms' sums add up to 10,5n² + 6,5n − 5 + Σ(13j² − 15j + 4), the
polynomial part of (4.4.4) exactly, but its summand is printed 13j² − 15(j − 1) =
13j² − 15j + 15: 11 more per joint, 11n in all. At n = 6 the terms give 1304 additions;
the printed 1370 is (4.4.4) as printed, 66 = 11·6 more. The discrepancy is in the
thesis's summation, not in the OCR text (the printed total follows the printed closed
form). The text's R_i term refers s to frame 1 with "9 multiplications and 11 sums",
which would give 11 sums per joint if counted once more in the closed form; that is a
guess, not shown by the text. The products agree term by term with (4.4.3).

eslabon's measured counts (:func:`measured_terms`) are those of
:func:`eslabon.dynamics.lagrange.lagrange_terms` as written, run on arrays that count
their arithmetic (:class:`eslabon.dynamics.opcount_instrumented.Counting`), statement by
statement, grouped into the same terms. They are of the general numpy code: dense
3 × n Jacobians for every body multiplied by a 0/1 mask of the inboard joints, a 3 × 3
world inertia per body, Ṙ_i straight from the velocities (no second partials), C's
third term as A_iᵀ([ω_i]× I_i A_i); so they are cubic in n where the thesis's are
quadratic, and where eslabon fuses terms in one statement (I's two terms, C's three)
the row says so.
"""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap
import threading
from collections.abc import Callable
from dataclasses import dataclass

from ..dynamics import lagrange, opcount
from ..dynamics import opcount_instrumented as counted


def _sum(f: Callable[[int], float], n: int) -> int:
    total = sum(f(i) for i in range(1, n + 1))
    return int(total)


@dataclass(frozen=True)
class Term:
    """One term of §4.4's count: its quantity, the text's formulas as printed (``mul_text``,
    ``add_text``) and as functions of n (``mul``, ``add``)."""

    key: str
    quantity: str
    mul_text: str
    add_text: str
    mul: Callable[[int], int]
    add: Callable[[int], int]


#: the terms of §4.4's count in the text's order (term 1 with the binomial read as C(n+1, 2))
THESIS_TERMS = (
    Term(
        "I_A",
        "I_i A_i (I_ci e_j, frame i then frame 1)",
        "18 C(n+1,2)",
        "12 C(n+1,2)",
        lambda n: 18 * n * (n + 1) // 2,
        lambda n: 12 * n * (n + 1) // 2,
    ),
    Term(
        "R",
        "R_i = ∂r_i/∂θ",
        "3(n-1)(n+1)",
        "(n-1)(5+3n)",
        lambda n: 3 * (n - 1) * (n + 1),
        lambda n: (n - 1) * (5 + 3 * n),
    ),
    Term("A_dot", "Ȧ_i (from the inverse kinematics)", "0", "0", lambda n: 0, lambda n: 0),
    Term(
        "A_omega",
        "A_iω = [e_j × ω_i] (4.3.34c)",
        "3n(n-1)",
        "3n(n-1)/2",
        lambda n: 3 * n * (n - 1),
        lambda n: 3 * n * (n - 1) // 2,
    ),
    Term(
        "d2r",
        "∂²r_i/∂θ² (4.3.36c)",
        "Σ 3(i-2)(i-1)",
        "Σ 2(j-2)(j-1)",
        lambda n: _sum(lambda i: 3 * (i - 2) * (i - 1), n),
        lambda n: _sum(lambda j: 2 * (j - 2) * (j - 1), n),
    ),
    Term(
        "R_dot",
        "Ṙ_i",
        "Σ 3(i-1)²",
        "Σ 3(j-2)(j-1)",
        lambda n: _sum(lambda i: 3 * (i - 1) ** 2, n),
        lambda n: _sum(lambda j: 3 * (j - 2) * (j - 1), n),
    ),
    Term(
        "RtR",
        "R_iᵀ R_i (in I)",
        "Σ 3i(i+1)/2",
        "Σ 2j(j+1)/2",
        lambda n: _sum(lambda i: 3 * i * (i + 1) // 2, n),
        lambda n: _sum(lambda j: j * (j + 1), n),
    ),
    Term(
        "AtIA",
        "A_iᵀ I_i A_i (in I)",
        "Σ 3i(i-1)/2",
        "Σ j(j-1)",
        lambda n: _sum(lambda i: 3 * i * (i - 1) // 2, n),
        lambda n: _sum(lambda j: j * (j - 1), n),
    ),
    Term(
        "C",
        "C: R_iᵀṘ_i, A_iᵀI_iȦ_i, A_iωᵀI_iA_i (4.3.34a)",
        "3 × Σ 3(i²-1)",
        "3 × Σ 2(j²-1)",
        lambda n: 3 * _sum(lambda i: 3 * (i * i - 1), n),
        lambda n: 3 * _sum(lambda j: 2 * (j * j - 1), n),
    ),
)

#: the thesis's n: the six joints of the Cincinnati Milacron T3
THESIS_N = 6

#: eslabon's statements of ``lagrange_terms``, by the names they assign, grouped into the
#: thesis's terms (several terms where one statement computes them together)
MEASURED_GROUPS = {
    "kinematics": ("w", "v", "c", "(r, r_dot)", "e"),
    "A": ("A_i",),
    "I_A": ("I_world", "IA"),
    "R": ("lever", "R_i"),
    "A_dot": ("e_dot", "A_dot"),
    "A_omega": ("wx",),
    "R_dot": ("lever_dot", "R_dot"),
    "I": ("M",),
    "C": ("C",),
    "gravity, friction": ("b", "fr"),
}

#: the rows of :func:`table`: (label, thesis term or None, eslabon group or None, note)
ROWS = (
    ("ω_i, ṙ_i, r_i, e_j in frame 1", None, "kinematics", "the thesis: from the kinematics"),
    ("A_i = [e_j], j inboard of i", None, "A", "eslabon: a 0/1 mask times dense 3 × n"),
    ("1. I_i A_i", "I_A", "I_A", "eslabon: I_i = P_i I_ci P_iᵀ, then I_i A_i"),
    ("2. R_i = ∂r_i/∂θ", "R", "R", "eslabon: e_j × (r_i − O_j), all j, masked"),
    ("3. Ȧ_i", "A_dot", "A_dot", "the thesis: from the inverse kinematics"),
    ("4. A_iω = [e_j × ω_i] (4.3.34c)", "A_omega", "A_omega", "eslabon: [ω_i]× only"),
    ("5. ∂²r_i/∂θ² (4.3.36c)", "d2r", None, "eslabon: none, Ṙ_i from velocities"),
    ("6. Ṙ_i", "R_dot", "R_dot", "eslabon: ė_j × (r_i − O_j) + e_j × (ṙ_i − Ȯ_j)"),
    ("7. R_iᵀ R_i (in I)", "RtR", None, "eslabon: in row 8's statement"),
    ("8. A_iᵀ I_i A_i (in I)", "AtIA", "I", "eslabon: I = Σ m_i R_iᵀR_i + A_iᵀI_iA_i"),
    ("9. C (4.3.34a), three products", "C", "C", "eslabon: A_iᵀ([ω_i]× I_i A_i) for the 3rd"),
    ("b(θ), friction", None, "gravity, friction", "not in the thesis's count"),
)


def thesis_terms(n: int = THESIS_N) -> list:
    """§4.4's terms for n joints, the thesis's formulas evaluated.

    Parameters
    ----------
    n : int, optional
        The number of revolute joints (default 6, the thesis's T3).

    Returns
    -------
    list of tuple
        (key, quantity, multiplications, additions), one per term of
        :data:`THESIS_TERMS`, in the text's order.

    Raises
    ------
    ValueError
        ``n`` not a whole number of at least 1.

    Examples
    --------
    >>> from eslabon.reproduce.lagrange_term_counts import thesis_terms
    >>> thesis_terms(6)[0][2:]  # term 1, I_i A_i: 18·C(7, 2) products, 12·C(7, 2) sums
    (378, 252)
    """
    n = opcount._check_n(n)
    return [(t.key, t.quantity, t.mul(n), t.add(n)) for t in THESIS_TERMS]


def thesis_totals(n: int = THESIS_N) -> dict:
    """The terms' sums beside the closed forms (4.4.3)–(4.4.4) as printed.

    Parameters
    ----------
    n : int, optional
        The number of revolute joints (default 6, the thesis's T3).

    Returns
    -------
    dict
        ``"terms"`` (mul, add) summed over :func:`thesis_terms`, ``"closed_form"``
        (mul, add) of (4.4.3)–(4.4.4) and ``"add_gap"`` = closed form − terms in the
        additions (11n: the summand of (4.4.4) is 11 per joint more than its terms').

    Raises
    ------
    ValueError
        ``n`` not a whole number of at least 1.

    Examples
    --------
    >>> from eslabon.reproduce.lagrange_term_counts import thesis_totals
    >>> thesis_totals(6)
    {'terms': (1896, 1304), 'closed_form': (1896, 1370), 'add_gap': 66}
    """
    rows = thesis_terms(n)
    terms = (sum(r[2] for r in rows), sum(r[3] for r in rows))
    closed = opcount.lagrange_model(n)
    return {"terms": terms, "closed_form": closed, "add_gap": closed[1] - terms[1]}


def _statements(func) -> dict:
    """{source line number: the names the top-level statement holding it assigns}."""
    lines, first = inspect.getsourcelines(func)
    body = ast.parse(textwrap.dedent("".join(lines))).body[0].body  # type: ignore[attr-defined]
    out = {}
    for stmt in body:
        if isinstance(stmt, ast.Assign):
            name = ", ".join(ast.unparse(t) for t in stmt.targets)
        elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
            name = ast.unparse(stmt.target)
        else:
            name = type(stmt).__name__.lower()
        for line in range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1):
            out[line + first - 1] = name
    return out


_COUNTING_LOCK = threading.RLock()


class _Counting:
    """Within the block, :mod:`eslabon.dynamics.lagrange` computes on counting arrays:
    its numpy and its kinematic pass's outputs (the pass itself runs uncounted).

    It swaps module globals of :mod:`eslabon.dynamics.lagrange` and resets the shared
    counters, so it holds a process-wide lock: one counting block at a time. A thread
    calling ``lagrange`` outside the block while another counts still sees the counting
    stand-ins; the counts are for single-threaded use."""

    def __enter__(self):
        import dataclasses

        _COUNTING_LOCK.acquire()
        try:
            return self._swap(dataclasses)
        except BaseException:  # nothing swapped or half: release, or every later count hangs
            _COUNTING_LOCK.release()
            raise

    def _swap(self, dataclasses):
        self.real = {"np": lagrange.np, "kinematic_pass": lagrange.kinematic_pass}
        real_pass = self.real["kinematic_pass"]

        def counting_pass(*a, **kw):
            motion = real_pass(*a, **kw)
            fields = dataclasses.fields(motion)
            return dataclasses.replace(
                motion, **{f.name: getattr(motion, f.name).view(counted.Counting) for f in fields}
            )

        lagrange.np = counted._CountingNumpy()  # type: ignore[assignment]  # counting stand-ins
        lagrange.kinematic_pass = counting_pass  # type: ignore[assignment]
        for k in counted.NUMPY_COUNT:
            counted.NUMPY_COUNT[k] = 0
        return counted.NUMPY_COUNT

    def __exit__(self, *exc):
        lagrange.np = self.real["np"]  # type: ignore[assignment]
        lagrange.kinematic_pass = self.real["kinematic_pass"]  # type: ignore[assignment]
        _COUNTING_LOCK.release()
        return False


def counted_total(n: int = THESIS_N) -> dict:
    """{"mul", "add"} of one whole :func:`~eslabon.dynamics.lagrange.lagrange_terms` call
    on the chain of :func:`measured_statements`, counted without attribution."""
    model = counted.chain_model(opcount._check_n(n))
    q = counted.probe_state(n)
    with _Counting() as count:
        lagrange.lagrange_terms(model, q, q)
        return {"mul": count["mul"], "add": count["add"]}


def measured_statements(n: int = THESIS_N) -> dict:
    """{statement (the names it assigns): {"mul", "add"}} of eslabon's
    :func:`~eslabon.dynamics.lagrange.lagrange_terms` on the n-joint revolute chain of
    :mod:`eslabon.dynamics.opcount_instrumented` at its probe state, its numpy work
    counted statement by statement (the arithmetic between two of the function's line
    events goes to the statement being run; its kinematic pass runs uncounted: the thesis
    takes those data from the kinematics). Statements that do no counted arithmetic are
    left out.

    Not thread-safe in itself: the counting swaps module globals of
    :mod:`eslabon.dynamics.lagrange` and sets a trace function; calls from several
    threads are serialized by a lock.

    Parameters
    ----------
    n : int, optional
        The number of revolute joints (default 6, the thesis's T3).

    Returns
    -------
    dict
        {statement: {"mul": int, "add": int}}, keyed by the names the statement assigns.

    Raises
    ------
    ValueError
        ``n`` not a whole number of at least 1.

    Examples
    --------
    >>> from eslabon.reproduce.lagrange_term_counts import measured_statements
    >>> list(measured_statements(3))[:3]
    ['w', 'v', 'c']
    """
    model = counted.chain_model(opcount._check_n(n))
    q = counted.probe_state(n)
    where = _statements(lagrange.lagrange_terms)
    code = lagrange.lagrange_terms.__code__
    per: dict = {}
    with _Counting() as count:
        state: dict = {"at": None, "seen": dict(count)}

        def local(frame, event, arg):
            if event in ("line", "return"):
                now = dict(count)
                if state["at"] is not None:
                    row = per.setdefault(state["at"], {"mul": 0, "add": 0})
                    for k in row:
                        row[k] += now[k] - state["seen"][k]
                state["seen"] = now
                state["at"] = where.get(frame.f_lineno) if event == "line" else None
            return local

        def calls(frame, event, arg):
            return local if frame.f_code is code else None

        previous = sys.gettrace()
        sys.settrace(calls)
        try:
            lagrange.lagrange_terms(model, q, q)
        finally:
            sys.settrace(previous)
    return {k: v for k, v in per.items() if v["mul"] or v["add"]}


def measured_terms(n: int = THESIS_N) -> dict:
    """{group of :data:`MEASURED_GROUPS`: {"mul", "add", "statements"}} from
    :func:`measured_statements`.

    Parameters
    ----------
    n : int, optional
        The number of revolute joints (default 6, the thesis's T3).

    Returns
    -------
    dict
        {group: {"mul": int, "add": int, "statements": list of str}}.

    Raises
    ------
    ValueError
        ``n`` not a whole number of at least 1.
    RuntimeError
        A statement in no group (the grouping is out of date with ``lagrange_terms``).

    Examples
    --------
    >>> from eslabon.reproduce.lagrange_term_counts import measured_terms
    >>> measured_terms(3)["C"]["statements"]
    ['C']
    """
    statements = measured_statements(n)
    owner = {s: g for g, names in MEASURED_GROUPS.items() for s in names}
    out = {g: {"mul": 0, "add": 0, "statements": []} for g in MEASURED_GROUPS}
    for name, c in statements.items():
        if name not in owner:
            raise RuntimeError(f"lagrange_terms: statement {name!r} is in no group")
        row = out[owner[name]]
        row["mul"] += c["mul"]
        row["add"] += c["add"]
        row["statements"].append(name)
    return out


def table(n: int = THESIS_N) -> list:
    """Rows (label, thesis multiplications, thesis additions, eslabon multiplications,
    eslabon additions, note) for n joints, as :data:`ROWS`: each thesis term's formulas
    evaluated beside eslabon's measured counts of the statements that compute it (None
    where a side has no such row), then the totals of I and C (eslabon's without its
    kinematics, gravity and friction rows) and the totals (4.4.3)–(4.4.4) as printed.

    Parameters
    ----------
    n : int, optional
        The number of revolute joints (default 6, the thesis's T3).

    Returns
    -------
    list of tuple
        (label, thesis mul, thesis add, eslabon mul, eslabon add, note); None where a
        side has no such row.

    Raises
    ------
    ValueError
        ``n`` not a whole number of at least 1.

    Examples
    --------
    >>> from eslabon.reproduce.lagrange_term_counts import table
    >>> table(3)[-1][:3]  # (4.4.3)–(4.4.4) at n = 3
    ('total as printed, (4.4.3)–(4.4.4)', 312, 246)
    """
    theirs = {k: (m, a) for k, _, m, a in thesis_terms(n)}
    ours = measured_terms(n)
    none = (None, None)
    rows = []
    for label, term, group, note in ROWS:
        thesis = theirs[term] if term else none
        mine = (ours[group]["mul"], ours[group]["add"]) if group else none
        rows.append((label, *thesis, *mine, note))
    totals = thesis_totals(n)
    model_groups = [g for g in MEASURED_GROUPS if g not in ("kinematics", "gravity, friction")]
    mine_total = (
        sum(ours[g]["mul"] for g in model_groups),
        sum(ours[g]["add"] for g in model_groups),
    )
    rows.append(("total of rows 1–9 (I and C)", *totals["terms"], *mine_total, "A_i included"))
    rows.append(("total as printed, (4.4.3)–(4.4.4)", *totals["closed_form"], *none, ""))
    return rows


def report(n: int = THESIS_N) -> tuple[dict, list]:
    """The table of :func:`table` as data and text lines, for ``eslabon reproduce rojas``.

    Parameters
    ----------
    n : int, optional
        The number of revolute joints (default 6, the thesis's T3).

    Returns
    -------
    data : dict
        ``"n"``, ``"rows"`` (the table's rows as lists), ``"terms"``, ``"closed_form"``
        and ``"add_gap"`` of :func:`thesis_totals`.
    lines : list of str
        The printed table.

    Raises
    ------
    ValueError
        ``n`` not a whole number of at least 1.

    Examples
    --------
    >>> from eslabon.reproduce.lagrange_term_counts import report
    >>> data, lines = report(3)
    >>> data["add_gap"]  # 11 per joint
    33
    """
    rows = table(n)
    totals = thesis_totals(n)
    lines = [
        f"§4.4's count term by term, n = {n} (the thesis's formulas evaluated; eslabon's "
        "lagrange_terms counted): multiplications / additions",
        f"  {'term':<36} {'thesis':>10} {'eslabon':>10}",
    ]

    def pair(m, a):
        return "—" if m is None else f"{m}/{a}"

    for name, tm, ta, em, ea, note in rows:
        lines.append(f"  {name:<36} {pair(tm, ta):>10} {pair(em, ea):>10}  {note}")
    lines.append(
        "  term 1's binomial read as 18·C(n+1, 2) (the pairs j ≤ i; read as C(n, 2)(n+1) it "
        "is cubic): the products then add up to (4.4.3); the sums add up to "
        f"{totals['terms'][1]}, not the printed {totals['closed_form'][1]}: (4.4.4)'s "
        f"summand 13j² − 15(j − 1) is 11 per joint more than its terms' 13j² − 15j + 4 "
        f"({totals['add_gap']} = 11·{n})"
    )
    data = {
        "n": n,
        "rows": [list(r) for r in rows],
        "terms": totals["terms"],
        "closed_form": totals["closed_form"],
        "add_gap": totals["add_gap"],
    }
    return data, lines


__all__ = [
    "THESIS_TERMS",
    "THESIS_N",
    "MEASURED_GROUPS",
    "ROWS",
    "thesis_terms",
    "thesis_totals",
    "measured_statements",
    "measured_terms",
    "table",
    "report",
]
