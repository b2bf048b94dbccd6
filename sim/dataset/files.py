"""Writing Parquet files so a file only ever appears complete.

A file is written under the dataset's ``.tmp/`` folder, flushed to disk, then renamed into
place (a rename within one file system is atomic). A crash leaves at most a stray temporary
file, which the next run removes; readers never see a half-written shard.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from sim.dataset.schema import DELTA_COLUMNS

COMPRESSION = "zstd"
TMP_DIR = ".tmp"
TABLES = ("hands", "games")


def shard_path(root: Path, table: str, arm: str, shard: int) -> Path:
    """Where one shard's file of ``table`` (``hands`` or ``games``) lives in a dataset:
    ``root/<table>/arm=<arm>/part-<shard, 5 digits>.parquet`` (docs/schema.md)."""
    return root / table / f"arm={arm}" / f"part-{shard:05d}.parquet"


def with_metadata(table: pa.Table, metadata: Mapping[str, str]) -> pa.Table:
    """The table with ``metadata`` (keys prefixed ``rummysim.``) added to its schema."""
    extra = {f"rummysim.{k}".encode(): str(v).encode() for k, v in metadata.items()}
    return table.replace_schema_metadata({**(table.schema.metadata or {}), **extra})


def write_parquet_atomic(
    table: pa.Table, path: Path, root: Path, *, footer: Mapping[bytes, bytes] | None = None
) -> str:
    """Write ``table`` to ``path`` through a temporary file under ``root/.tmp``; return the
    SHA-256 of the file's bytes. ``footer``: key-value metadata of the Parquet file itself
    (not of its Arrow schema, which the file also stores: a value there would be kept
    twice)."""
    tmp_dir = root / TMP_DIR
    tmp_dir.mkdir(parents=True, exist_ok=True)
    tmp = tmp_dir / f"{path.parent.name}.{path.name}.{os.getpid()}"
    delta = {name: "DELTA_BINARY_PACKED" for name in DELTA_COLUMNS if name in table.column_names}
    dictionary = [name for name in table.column_names if name not in delta]
    try:
        with pq.ParquetWriter(
            tmp,
            table.schema,
            compression=COMPRESSION,
            use_dictionary=dictionary,
            column_encoding=delta,
        ) as writer:
            writer.write_table(table)
            if footer:
                writer.add_key_value_metadata(dict(footer))
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        digest = file_digest(tmp)
        path.parent.mkdir(parents=True, exist_ok=True)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return digest


def write_text_atomic(text: str, path: Path, tmp_dir: Path) -> None:
    """Replace ``path`` with ``text`` through a temporary file in ``tmp_dir`` (which must be
    on the same file system)."""
    tmp_dir.mkdir(parents=True, exist_ok=True)
    tmp = tmp_dir / f"{path.name}.{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes."""
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()
