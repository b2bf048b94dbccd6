"""Experiments to datasets: planning, shards, backends, manifest, progress."""
