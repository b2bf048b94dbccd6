"""The Parquet dataset, the contract between the runner (its writer) and the report (its
reader), owned here: the schema and its version policy (``schema.py``), the per-shard block
summaries both sides make by the same code (``summaries.py``), and how files are written
safely (``files.py``). Other issues add columns through ``schema.py``,
bumping ``SCHEMA_VERSION``; nothing here imports the runner or the report."""

from sim.dataset.schema import GAMES_SCHEMA, HANDS_SCHEMA, ShardId, games_table, hands_table

__all__ = ["GAMES_SCHEMA", "HANDS_SCHEMA", "ShardId", "games_table", "hands_table"]
