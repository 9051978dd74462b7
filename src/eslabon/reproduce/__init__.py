"""What ``eslabon reproduce <name>`` runs: each source document's worked examples, tables
and figures recomputed beside the printed values, one module per subject. Each module's
``reproduce(out)`` writes its files into the folder ``out`` and returns (data, lines): the
numbers as a dict and the report as text lines. The documents are cited in full in
docs/sources.md.

========================  ================================  =============================
command                   module                            source
========================  ================================  =============================
``reproduce practica``    :mod:`.newton_euler_examples`     Práctica 3 (seed 001): Newton–
                                                            Euler, Walker–Orin, pendulum
``reproduce rojas``       :mod:`.cincinnati_t3`,            Rojas Salgado 1987 (seed 000):
                          :mod:`.t3_linear_control`,        the Cincinnati T3, ch. 3–5;
                          :mod:`.t3_uvw_terms`,             §5.3 term by term; the 7R
                          :mod:`.seven_r_loop`,             loop, §3.3.3, in double and
                          :mod:`.seven_r_single`,           single precision, the TOL; the
                          :mod:`.e2_task`,                  §3.6 task; §4.4's operation
                          :mod:`.lagrange_term_counts`,     count term by term; §2.3's
                          :mod:`.mechanism_mobility`,       mobility; the Appendix's
                          :mod:`.manlag_program`            MANLAG file, run
``reproduce jaramillo``   :mod:`.spatial_operators`,        Jaramillo Botero 1998 (seeds
                          :mod:`.operator_extensions`,      002/004): spatial operators;
                          :mod:`.body_moments`              trees, constraints in the
                                                            chain, the O(log₂ N) claim;
                                                            (1.11)–(1.12), (1.39)
``reproduce araujo``      :mod:`.mobile_manipulator`,       Araujo 2012 (seed 003): a PUMA
                          :mod:`.araujo_claims`,            560 on a tricycle, the
                          :mod:`.araujo_sensitivity`,       thesis's claims, the assumed
                          :mod:`.araujo_control`,           data's weight, control;
                          :mod:`.araujo_extensions`         Tables 3.3–3.4, slope and
                                                            tilted steering axis, a tool
                                                            held on a wall
========================  ================================  =============================
"""

# the command's name -> the module that reproduces it
MODULES = {
    "practica": "newton_euler_examples",
    "rojas": "cincinnati_t3",
    "jaramillo": "spatial_operators",
    "araujo": "mobile_manipulator",
}
