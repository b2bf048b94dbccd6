"""Bot ladders: every pair of bots on mirrored common deals (``plan``), their win rates,
Bradley–Terry ratings and how much luck decides (``fit``), run and written by ``rummysim
ladder`` (``run``; docs/ladder.md)."""
