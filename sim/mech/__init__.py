"""The engine by mechanics (issue #29), built beside ``sim.engine`` until it replaces it.

docs/engine-plan.md says what is decided and in what order the modules land. Every kernel
module imports ``sim.mech.jit`` first; importing this package imports no numba.
"""
