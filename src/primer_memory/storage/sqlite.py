"""The SQLite backend: one file, WAL, parameterised SQL only, one transaction per logical write.

Records live in one table keyed by (tenant_id, user_id, seq), vectors as float32
blobs; the partition key is in every statement. A scope's partition is read
once into the in-memory cache (`InMemoryStore`) and searched there, and every
change is written to the file first, in a transaction, then applied to the cache.
Deleted text is zeroed (`secure_delete`) and the WAL is truncated after an
erasure, so no file keeps it. One store object should own a file at a time.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np

from ..records import MemoryRecord, Scope, StoreFileError
from .memory import InMemoryStore
from .partition import Partition

__all__ = ["SQLiteStore"]

_APPLICATION_ID = 0x504D454D  # "PMEM": marks a file as ours, so a foreign database is refused before any write
_PAGE_SIZE = 8192  # a record with its 2 KB vector fills a 4 KB page half-empty; 8 KB pages hold three

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # version 1
        "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "CREATE TABLE partitions (tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, next_seq INTEGER NOT NULL,"
        " PRIMARY KEY (tenant_id, user_id)) WITHOUT ROWID",
        "CREATE TABLE records (tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, seq INTEGER NOT NULL,"
        " id TEXT NOT NULL,"
        " kind TEXT NOT NULL CHECK (kind IN ('episodic', 'semantic', 'procedural')),"
        " content TEXT NOT NULL, key TEXT, source TEXT NOT NULL, superseded_by TEXT,"
        " importance INTEGER NOT NULL, created_at REAL NOT NULL, last_access REAL NOT NULL,"
        " vector BLOB NOT NULL, PRIMARY KEY (tenant_id, user_id, seq))",
    ),
    (  # version 2: ids never reused after delete_user; forgotten keyed values leave a tombstone
        "ALTER TABLE partitions ADD COLUMN generation INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE records ADD COLUMN forgotten INTEGER NOT NULL DEFAULT 0",
        "INSERT OR IGNORE INTO meta (name, value) VALUES ('erasures', '0')",
    ),
)
"""Append-only: version n is MIGRATIONS[n - 1]; a file is brought up to date by running what it lacks."""
SCHEMA_VERSION = len(MIGRATIONS)
_TABLES = {"meta", "partitions", "records"}
_COLUMNS = "id, seq, kind, content, key, source, superseded_by, importance, created_at, last_access, forgotten"

SELECT_ERASURES = "SELECT CAST(value AS INTEGER) FROM meta WHERE name = 'erasures'"
COUNT_ERASURE = "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE name = 'erasures'"
SELECT_PARTITION = "SELECT next_seq, generation FROM partitions WHERE tenant_id = ? AND user_id = ?"
SELECT_RECORDS = f"SELECT {_COLUMNS}, vector FROM records WHERE tenant_id = ? AND user_id = ? ORDER BY seq"
INSERT_RECORD = (
    "INSERT INTO records (tenant_id, user_id, id, seq, kind, content, key, source, superseded_by,"
    " importance, created_at, last_access, vector) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
MARK_SUPERSEDED = "UPDATE records SET superseded_by = ? WHERE tenant_id = ? AND user_id = ? AND seq = ?"
UPSERT_PARTITION = (
    "INSERT INTO partitions (tenant_id, user_id, next_seq, generation) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (tenant_id, user_id) DO UPDATE SET next_seq = excluded.next_seq"
)
SET_LAST_ACCESS = "UPDATE records SET last_access = ? WHERE tenant_id = ? AND user_id = ? AND seq = ?"
TOMBSTONE_RECORD = (
    "UPDATE records SET content = '', vector = x'', forgotten = 1 WHERE tenant_id = ? AND user_id = ? AND seq = ?"
)
DELETE_RECORD = "DELETE FROM records WHERE tenant_id = ? AND user_id = ? AND seq = ?"
DELETE_SCOPE_RECORDS = "DELETE FROM records WHERE tenant_id = ? AND user_id = ?"
DELETE_SCOPE_PARTITION = "DELETE FROM partitions WHERE tenant_id = ? AND user_id = ?"


class SQLiteStore(InMemoryStore):
    """`InMemoryStore` as a write-through cache over one SQLite file."""

    label = "SQLite file"
    durable = True

    def __init__(self, path: str | Path, embedder_name: str, dim: int):
        super().__init__(dim)
        self.conn = _open_database(Path(path), embedder_name, dim)
        self._erasures = self.conn.execute(SELECT_ERASURES).fetchone()[0]

    def close(self) -> None:
        """Fold the WAL into the file and close it."""
        super().close()
        if self.conn is not None:
            try:
                self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                self.conn.close()
                self.conn = None  # type: ignore[assignment]

    def _transaction(self) -> _Transaction:
        return _Transaction(self.conn)

    # ----------------------------------------------------------------- reading a partition

    def _load(self, scope: Scope) -> Partition:
        try:
            return self._read_partition(scope)
        except sqlite3.DatabaseError as exc:
            raise StoreFileError(f"the store file could not be read ({exc}); it may be damaged") from exc

    def _read_partition(self, scope: Scope) -> Partition:
        """Every record in write order, and the vectors of the current ones into the index."""
        key = (scope.tenant_id, scope.user_id)
        row = self.conn.execute(SELECT_PARTITION, key).fetchone()
        part = Partition(scope, self.dim, *(row or (1, self._erasures)))
        if row is None:
            return part
        dim = self.dim
        current: list[MemoryRecord] = []
        blobs: list[bytes] = []
        records = part.records
        for rid, seq, kind, content, rkey, source, sup, imp, created, last, gone, blob in self.conn.execute(
            SELECT_RECORDS, key
        ):
            record = MemoryRecord(rid, scope, kind, content, rkey, source, seq, sup, imp, created, last, bool(gone))
            records[rid] = record
            if record.current:
                if len(blob) != 4 * dim:
                    raise StoreFileError(f"a stored vector has {len(blob)} bytes; expected {4 * dim} (dim={dim})")
                current.append(record)
                blobs.append(blob)
        if current:
            part.add_current(current, np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(current), dim))
        return part

    # ----------------------------------------------------------------- persistence hooks

    def _persist_write(
        self, part: Partition, made: list[MemoryRecord], vectors: np.ndarray, superseded: dict[str, str], next_seq: int
    ) -> None:
        tenant, user = part.scope.tenant_id, part.scope.user_id
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        rows = [
            (tenant, user, r.id, r.seq, r.kind, r.content, r.key, r.source, r.superseded_by,
             r.importance, r.created_at, r.last_access, vectors[i].tobytes())
            for i, r in enumerate(made)
        ]
        fresh = {r.id for r in made}
        updates = [(sup, tenant, user, part.records[old].seq) for old, sup in superseded.items() if old not in fresh]
        with self._transaction():
            self.conn.executemany(INSERT_RECORD, rows)
            self.conn.executemany(MARK_SUPERSEDED, updates)
            self.conn.execute(UPSERT_PARTITION, (tenant, user, next_seq, part.generation))

    def _persist_touch(self, part: Partition, records: list[MemoryRecord], when: float) -> None:
        tenant, user = part.scope.tenant_id, part.scope.user_id
        with self._transaction():
            self.conn.executemany(SET_LAST_ACCESS, [(when, tenant, user, r.seq) for r in records])

    def _persist_forget(self, part: Partition, record: MemoryRecord, stone: MemoryRecord | None) -> None:
        with self._transaction():
            statement = DELETE_RECORD if stone is None else TOMBSTONE_RECORD
            self.conn.execute(statement, (part.scope.tenant_id, part.scope.user_id, record.seq))
        self._scrub()

    def _persist_delete_user(self, part: Partition) -> None:
        key = (part.scope.tenant_id, part.scope.user_id)
        with self._transaction():
            self.conn.execute(DELETE_SCOPE_RECORDS, key)
            self.conn.execute(DELETE_SCOPE_PARTITION, key)
            self.conn.execute(COUNT_ERASURE)
        self._scrub()

    def _scrub(self) -> None:
        """Fold the WAL into the database and truncate it, so deleted text is not left in old WAL frames.

        With secure_delete=ON the deleted cells are already zeroed in the pages
        the checkpoint writes back; TRUNCATE then cuts the WAL file to 0 bytes.
        """
        busy, _, _ = self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if busy:
            raise StoreFileError(
                "the record was deleted, but another connection is reading the file, so the old bytes could "
                "not be scrubbed yet; close other connections and call delete_user again"
            )


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK if anything raised: one write, all or nothing."""

    def __init__(self, conn: sqlite3.Connection):
        self._conn = conn

    def __enter__(self) -> None:
        self._conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            self._conn.execute("COMMIT")
        else:
            self._conn.execute("ROLLBACK")


# --------------------------------------------------------------------------- opening a file


def _open_database(path: Path, embedder_name: str, dim: int) -> sqlite3.Connection:
    """Open (or create) a store file; refuse a corrupt or foreign file without writing a byte to it."""
    name = path.name or str(path)
    if path.exists() and not path.is_file():
        raise StoreFileError(f"path {name!r} is not a regular file; give the path of a .db file")
    fresh = not path.exists() or path.stat().st_size == 0
    try:
        conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise StoreFileError(f"cannot open {name!r} as an SQLite file: {exc}") from exc
    try:
        if fresh:
            conn.execute(f"PRAGMA page_size = {_PAGE_SIZE:d}")  # only takes effect before the first table
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("BEGIN IMMEDIATE")
            for statements in MIGRATIONS:
                for statement in statements:
                    conn.execute(statement)
            conn.executemany("INSERT INTO meta (name, value) VALUES (?, ?)",
                             [("embedder", embedder_name), ("dim", str(dim))])
            conn.execute(f"PRAGMA application_id = {_APPLICATION_ID:d}")  # pragmas take no parameters; an int
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION:d}")
            conn.execute("COMMIT")
        else:
            version = _check_existing(conn, name, embedder_name, dim)
            conn.execute("PRAGMA journal_mode=WAL")
            if version < SCHEMA_VERSION:
                _migrate(conn, version)
        conn.execute("PRAGMA synchronous=NORMAL")  # in WAL mode: durable across crashes of the process
        conn.execute("PRAGMA secure_delete=ON")  # deleted text is overwritten with zeros, not left in free pages
    except StoreFileError:
        conn.close()
        raise
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise StoreFileError(
            f"{name!r} is not a usable primer-memory store ({exc}); it was left unchanged. "
            "Give a new path or a file this library wrote."
        ) from exc
    return conn


def _migrate(conn: sqlite3.Connection, version: int) -> None:
    """Run the migrations a file lacks, in one transaction, and record the new version."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        for statements in MIGRATIONS[version:]:
            for statement in statements:
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION:d}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _check_existing(conn: sqlite3.Connection, name: str, embedder_name: str, dim: int) -> int:
    """Read-only checks of an existing file: ours, a schema version we read, this embedder. Returns its version."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if app_id != _APPLICATION_ID:
        what = "an empty SQLite database of another program" if not tables else "another program's SQLite database"
        raise StoreFileError(
            f"{name!r} is {what}, not a primer-memory store; refusing to touch it. Give a new path."
        )
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if not 1 <= version <= SCHEMA_VERSION or not _TABLES <= tables:
        raise StoreFileError(
            f"{name!r} is a primer-memory store of schema version {version} (tables: {sorted(tables)}); "
            f"this library reads versions 1 to {SCHEMA_VERSION}"
        )
    meta = dict(conn.execute("SELECT name, value FROM meta").fetchall())
    if meta.get("embedder") != embedder_name or meta.get("dim") != str(dim):
        raise StoreFileError(
            f"{name!r} holds vectors from embedder {meta.get('embedder')!r}; this store uses {embedder_name!r}. "
            "Vectors from two embedders cannot be compared: open it with the embedder that wrote it."
        )
    return int(version)
