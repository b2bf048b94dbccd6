"""The numba engine. Kernels live in their own modules and take only numpy arrays, scalars
and named tuples of arrays (``state.HandState``, ``melds.SearchWork``).

Importing this package (or ``sim.engine.layout``) does not import numba: the rules layer
and commands that only read configuration stay fast. ``sim.engine.jit`` sets up numba and
its on-disk cache; every kernel module imports it first.
"""
