"""The time model of minutes at the table (issue #30 point 1): seconds charged per action of
a hand, over the per-hand counts the hands table holds (schema version 5). Part of the
runner-report contract: an experiment file may set any of them (``[time]``), the manifest
records them, the report reads them.

A hand takes ``hand + turn * turns + meld * melds + layoff * layoffs + rebuild * rebuilds``
seconds; minutes per hand are that over 60. The defaults are a judgement, stated so it can
be argued with, for people playing with real cards at an unhurried pace:

* ``hand``: 60 s for what every hand costs once: shuffling, dealing, sorting one's cards,
  counting and writing down the scores;
* ``turn``: 6 s for a turn: a draw, a look at one's hand, a discard (a turn's melds and
  lay-offs are charged on top);
* ``meld``: 5 s for laying down a meld (a knock-family showdown's melds included);
* ``layoff``: 3 s for each card laid off on a meld on the table;
* ``rebuild``: 15 s for turning the discard pile over (or shuffling it) into a new stock.
"""

from __future__ import annotations

from collections.abc import Mapping

from sim.rules.errors import ConfigError, show

DEFAULT_SECONDS: dict[str, float] = {
    "hand": 60.0,
    "turn": 6.0,
    "meld": 5.0,
    "layoff": 3.0,
    "rebuild": 15.0,
}
"""Seconds per action (module docstring); ``[time]`` in an experiment file overrides any."""

ACTION_SUMS = {"turn": "turns", "meld": "melds", "layoff": "layoffs", "rebuild": "rebuilds"}
"""Each charged action and the hand block sum (``sim.dataset.summaries.hand_sum_names``)
that counts it; ``hand`` is charged once per hand (the sum ``n``)."""


def time_model(manifest: Mapping) -> dict[str, float]:
    """Seconds per action for a dataset: the defaults, overridden by what its experiment
    file set (``[time]``, recorded in the manifest)."""
    experiment = manifest.get("experiment")
    chosen = experiment.get("time") if isinstance(experiment, Mapping) else None
    return {**DEFAULT_SECONDS, **(chosen if isinstance(chosen, Mapping) else {})}


def model_seconds(model: Mapping[str, float]) -> tuple[float, ...]:
    """A time model's seconds in the order of :data:`DEFAULT_SECONDS` (hand, turn, meld,
    layoff, rebuild): how the block summaries weigh a game's hands and action counts."""
    return tuple(float(model[action]) for action in DEFAULT_SECONDS)


MAX_SECONDS = 3600
"""The most seconds an action of the time model may take (``[time]``)."""


def check_time_table(value: object) -> dict[str, float]:
    """A ``[time]`` table of an experiment or tuning file: action = seconds it takes at the
    table, each an action of :data:`DEFAULT_SECONDS` and 0 to :data:`MAX_SECONDS`;
    ConfigError naming the key otherwise."""
    if not isinstance(value, dict):
        raise ConfigError(f"{show(value)} is not a table", key="time")
    out = {}
    for action, seconds in value.items():
        if action not in DEFAULT_SECONDS:
            raise ConfigError(
                f"{show(action)} is not an action of the time model", key=f"time.{action}",
                allowed=", ".join(DEFAULT_SECONDS),
            )  # fmt: skip
        if (
            isinstance(seconds, bool)
            or not isinstance(seconds, int | float)
            or not (0 <= seconds <= MAX_SECONDS)
        ):
            raise ConfigError(
                f"{show(seconds)} is not a time", key=f"time.{action}", value=seconds,
                allowed=f"seconds from 0 to {MAX_SECONDS:,}",
            )  # fmt: skip
        out[action] = float(seconds)
    return out
