"""The engine, organised by the mechanics the variants combine (RULES.md §4C, issue #29).

docs/engine.md says how it is built and how to add a variant; docs/engine-plan.md holds the
decisions and the measurements of its rebuild. Every kernel
module imports ``sim.engine.jit`` first; importing this package imports no numba.
"""
