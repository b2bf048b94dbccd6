"""``rummysim tune``: the value of one rule that puts a report figure on its target
(docs/tune.md). :mod:`~sim.tuning.spec` reads tuning files, :mod:`~sim.tuning.search`
decides the rounds, :mod:`~sim.tuning.run` runs them as experiments and keeps the trail,
:mod:`~sim.tuning.page` draws the answer."""
