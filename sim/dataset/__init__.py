"""The Parquet dataset: its schema (defined once) and how files are written safely."""

from sim.dataset.schema import GAMES_SCHEMA, HANDS_SCHEMA, ShardId, games_table, hands_table

__all__ = ["GAMES_SCHEMA", "HANDS_SCHEMA", "ShardId", "games_table", "hands_table"]
