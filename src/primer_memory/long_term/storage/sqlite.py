"""The SQLite backend: one file, WAL, parameterised SQL only, one transaction per logical write.

Records live in one table keyed by (tenant_id, user_id, seq), vectors as float32 blobs; the partition key is in
every statement. The file holds everything. In memory there is only a search cache per scope, loaded on first use:
the vectors of its current records as one float32 matrix, with each row's seq, kind and two hashes
(`partition.VectorIndex`), so the process holds about the bytes of the bare matrix and a reopen reads little more
than the vectors; a hybrid search adds a BM25 index of the same records (`lexical`), in memory only. Every change
is written to the file first, in a transaction, then applied to the cache. Deleted text is zeroed
(`secure_delete`) and the WAL is truncated after an erasure, so no file keeps it. One store object should own a
file at a time.

The file is checked before it is opened (`file_paths`): a bad path value, a missing or read-only folder, a
read-only file or a device is refused with StoreFileError naming the path as given, and nothing is created.
A read-only store is refused rather than opened for reading only: WAL needs its -wal and -shm files, and a
store that fails on the first write is worse than one that says so up front. Another program holding the
write lock gives StoreLocked after `timeout` seconds; every row read back is checked as a write would be, so
a record edited outside this library raises StoreFileError instead of reaching a prompt.
"""

from __future__ import annotations

import math
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from ...file_paths import check_file_place, check_path_value, check_still_there, file_identity
from ..records import KINDS, MemoryRecord, Scope, StoreFileError, StoreLocked
from ..validation import stored_record_problem
from . import NewRecord, TextKey, make_records
from ..lexical import LexicalIndex
from .partition import ScopeCache, VectorIndex, key_hash, text_hash

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
        "CREATE INDEX records_by_id ON records (tenant_id, user_id, id)",
        "ALTER TABLE records ADD COLUMN text_hash INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE records ADD COLUMN key_hash INTEGER NOT NULL DEFAULT 0",
        "UPDATE records SET text_hash = pm_text_hash(kind, key, content), key_hash = pm_key_hash(key)",
    ),
    (  # version 3: where each memory came from (policy.provenance); earlier writes were the user's
        "ALTER TABLE records ADD COLUMN provenance TEXT NOT NULL DEFAULT 'user'",
    ),
)
"""Append-only: version n is MIGRATIONS[n - 1]; a file is brought up to date by running what it lacks.
(pm_text_hash and pm_key_hash are `partition.text_hash` and `key_hash`, registered on the connection.)"""
SCHEMA_VERSION = len(MIGRATIONS)
_TABLES = {"meta", "partitions", "records"}
_COLUMNS = ("id, seq, kind, content, key, source, superseded_by, importance, created_at, last_access, forgotten,"
            " provenance")

SELECT_ERASURES = "SELECT CAST(value AS INTEGER) FROM meta WHERE name = 'erasures'"
COUNT_ERASURE = "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE name = 'erasures'"
SELECT_PARTITION = "SELECT next_seq, generation FROM partitions WHERE tenant_id = ? AND user_id = ?"
_SCOPE = "tenant_id = ? AND user_id = ?"
_CURRENT = "superseded_by IS NULL AND forgotten = 0"
SELECT_RECORDS = f"SELECT {_COLUMNS} FROM records WHERE {_SCOPE} ORDER BY seq"
SELECT_KEY_RECORDS = f"SELECT {_COLUMNS} FROM records WHERE {_SCOPE} AND key = ? ORDER BY seq"
SELECT_BY_ID = f"SELECT {_COLUMNS} FROM records WHERE {_SCOPE} AND id = ?"
SELECT_CURRENT = f"SELECT {_COLUMNS} FROM records WHERE {_SCOPE} AND {_CURRENT} ORDER BY seq"
SELECT_CACHE = (
    "SELECT seq, CASE kind WHEN 'episodic' THEN 0 WHEN 'semantic' THEN 1 WHEN 'procedural' THEN 2 ELSE -1 END,"
    f" text_hash, key_hash, vector FROM records WHERE {_SCOPE} AND {_CURRENT} ORDER BY seq"
)
COUNT_SCOPE = f"SELECT COUNT(*) FROM records WHERE {_SCOPE}"


def select_seqs(count: int) -> str:
    """SELECT some seqs of one scope: one placeholder per seq (the values are bound, never formatted in)."""
    return f"SELECT {_COLUMNS} FROM records WHERE {_SCOPE} AND seq IN ({', '.join('?' * count)})"


INSERT_RECORD = (
    "INSERT INTO records (tenant_id, user_id, id, seq, kind, content, key, source, superseded_by,"
    " importance, created_at, last_access, vector, text_hash, key_hash, provenance)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
MARK_SUPERSEDED = "UPDATE records SET superseded_by = ? WHERE tenant_id = ? AND user_id = ? AND seq = ?"
UPSERT_PARTITION = (
    "INSERT INTO partitions (tenant_id, user_id, next_seq, generation) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (tenant_id, user_id) DO UPDATE SET next_seq = excluded.next_seq"
)
SET_LAST_ACCESS = "UPDATE records SET last_access = ? WHERE tenant_id = ? AND user_id = ? AND id = ?"
TOMBSTONE_RECORD = (
    "UPDATE records SET content = '', vector = x'', forgotten = 1 WHERE tenant_id = ? AND user_id = ? AND seq = ?"
)
DELETE_RECORD = "DELETE FROM records WHERE tenant_id = ? AND user_id = ? AND seq = ?"
DELETE_SCOPE_RECORDS = "DELETE FROM records WHERE tenant_id = ? AND user_id = ?"
DELETE_SCOPE_PARTITION = "DELETE FROM partitions WHERE tenant_id = ? AND user_id = ?"


class SQLiteStore:
    """Records in one SQLite file; a per-scope vector cache for search."""

    label = "SQLite file"
    durable = True

    def __init__(self, path: str | Path, embedder_name: str, dim: int, *, timeout: float = 5.0):
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 <= timeout < math.inf:
            raise TypeError(f"timeout must be a number of seconds >= 0, got {timeout!r}")
        self.dim = dim
        self.path = _check_place(path)  # as the caller gave it: every message names it so
        # The file and its journal, by the name given and by the name any link resolves to (never shown): export
        # will not write over them.
        names = dict.fromkeys((os.path.abspath(self.path), os.path.realpath(self.path)))
        self.own_files = tuple(name + suffix for name in names for suffix in ("", "-wal", "-shm", "-journal"))
        self.conn = _open_database(self.path, embedder_name, dim, float(timeout))
        self._where = os.path.abspath(self.path)  # a later os.chdir must not make the file look gone
        self._identity = file_identity(self._where)
        self._erasures = self.conn.execute(SELECT_ERASURES).fetchone()[0]
        self._caches: dict[Scope, ScopeCache] = {}
        self._version = self.conn.execute("PRAGMA data_version").fetchone()[0]

    @property
    def partitions_loaded(self) -> int:
        """How many scopes have their vectors in memory right now."""
        return len(self._caches)

    def close(self) -> None:
        """Fold the WAL into the file and close it."""
        self._caches.clear()
        if self.conn is not None:
            try:
                self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass  # another program holds the file: the WAL stays, complete, and is folded in on a later open
            finally:
                self.conn.close()
                self.conn = None  # type: ignore[assignment]

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK if anything raised: one write, all or nothing."""
        check_still_there(self.path, self._identity, StoreFileError, self._where)
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _file_error(self.path, exc, "nothing was written") from exc
        try:
            yield
            self.conn.execute("COMMIT")
        except BaseException as exc:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error) and not isinstance(exc, sqlite3.IntegrityError):
                raise _file_error(self.path, exc, "nothing was written") from exc
            raise  # a constraint (or a trigger someone added to the file) refused the write: rolled back as is

    def _read(self, sql: str, params: Sequence[object]) -> list[tuple]:
        try:
            return self.conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise _file_error(self.path, exc, "nothing was changed") from exc

    def _damaged(self, scope: Scope, seq: object, problem: str) -> StoreFileError:
        return StoreFileError(f"{self.path!r} holds a damaged record ({scope}, seq {seq!r}): {problem}. It was "
                              "changed outside this library; nothing was returned or changed. Restore the file "
                              "from a backup")

    def _rows(self, sql: str, params: Sequence[object], scope: Scope) -> list[MemoryRecord]:
        records = []
        for rid, seq, kind, content, key, source, sup, imp, created, last, gone, origin in self._read(sql, params):
            forgotten = bool(gone) if isinstance(gone, int) and gone in (0, 1) else gone
            record = MemoryRecord(rid, scope, kind, content, key, source, seq, sup, imp, created, last, forgotten,
                                  origin)
            problem = stored_record_problem(record)
            if problem is not None:
                raise self._damaged(scope, seq, problem)
            records.append(record)
        return records

    def _by_seq(self, scope: Scope, seqs: list[int]) -> dict[int, MemoryRecord]:
        found: dict[int, MemoryRecord] = {}
        for at in range(0, len(seqs), 500):  # SQLite allows a limited number of parameters per statement
            chunk = seqs[at : at + 500]
            for record in self._rows(select_seqs(len(chunk)), (scope.tenant_id, scope.user_id, *chunk), scope):
                found[record.seq] = record
        return found

    # ----------------------------------------------------------------- the cache

    def _sync(self) -> None:
        """Drop every cache if another connection (a second store object, another process) changed the file.

        SQLite's data_version changes only for other connections' commits: one PRAGMA, a few microseconds.
        """
        check_still_there(self.path, self._identity, StoreFileError, self._where)
        version = self._read("PRAGMA data_version", ())[0][0]
        if version != self._version:
            self._version = version
            self._caches.clear()
            self._erasures = self._read(SELECT_ERASURES, ())[0][0]

    def _cache(self, scope: Scope) -> ScopeCache:
        """The scope's search cache: loaded from the file on first use (kept only if the scope exists)."""
        self._sync()
        cache = self._caches.get(scope)
        if cache is not None:
            return cache
        key = (scope.tenant_id, scope.user_id)
        found = self._read(SELECT_PARTITION, key)
        rows = self._read(SELECT_CACHE, key) if found else []
        index = VectorIndex(self.dim, capacity=len(rows))
        if found and not all(isinstance(n, int) and not isinstance(n, bool) for n in found[0]):
            raise self._damaged(scope, None, f"its partition row holds {found[0]!r}, not two whole numbers")
        if rows:
            seqs, kinds, texts, keys, blobs = zip(*rows)
            if min(kinds) < 0:
                raise self._damaged(scope, seqs[kinds.index(-1)], f"kind is not one of {', '.join(KINDS)}")
            if not all(isinstance(b, bytes) for b in blobs):
                raise self._damaged(scope, None, "a stored vector is not a blob")
            data = b"".join(blobs)
            if len(data) != 4 * self.dim * len(rows):
                bad = next(len(b) for b in blobs if len(b) != 4 * self.dim)
                raise StoreFileError(f"{self.path!r}: a stored vector has {bad} bytes; expected {4 * self.dim} "
                                     f"(dim={self.dim}); the file was changed outside this library")
            index.load(seqs, kinds, texts, keys, np.frombuffer(data, dtype=np.float32).reshape(len(rows), self.dim))
        cache = ScopeCache(index, *(found[0] if found else (1, self._erasures)))
        if found:
            self._caches[scope] = cache
        return cache

    # ----------------------------------------------------------------- reading

    def records(self, scope: Scope, key: str | None = None) -> list[MemoryRecord]:
        where = (scope.tenant_id, scope.user_id)
        if key is None:
            return self._rows(SELECT_RECORDS, where, scope)
        return self._rows(SELECT_KEY_RECORDS, (*where, key), scope)

    def get(self, scope: Scope, record_id: str) -> MemoryRecord | None:
        found = self._rows(SELECT_BY_ID, (scope.tenant_id, scope.user_id, record_id), scope)
        return found[0] if found else None

    def lookup(
        self, scope: Scope, keys: Iterable[str], texts: Iterable[TextKey]
    ) -> tuple[dict[str, MemoryRecord], dict[TextKey, MemoryRecord]]:
        index = self._cache(scope).index
        keys, texts = list(keys), set(texts)
        wanted = {seq for k in keys for seq in index.seqs_with_key(k)}
        wanted |= {seq for t in texts for seq in index.seqs_with_text(t)}
        found = [r for r in self._by_seq(scope, sorted(wanted)).values() if r.current] if wanted else []
        by_key = {r.key: r for r in found if r.key in keys}
        by_text = {(r.kind, r.key, r.content): r for r in found if (r.kind, r.key, r.content) in texts}
        return by_key, by_text  # type: ignore[return-value]

    def search(
        self, scope: Scope, vector: np.ndarray, k: int, kinds: tuple[str, ...]
    ) -> list[tuple[MemoryRecord, float]]:
        return self._found(scope, self._cache(scope).index.search(vector, k, kinds))

    def lexical_search(self, scope: Scope, query: str, k: int, kinds: tuple[str, ...]
                       ) -> list[tuple[MemoryRecord, float]]:
        """BM25 with neighbour context over the current records, from an index kept in memory beside the vector
        cache (built on first use, kept by this store's writes): the file holds no copy of it, so an erased text
        leaves no index bytes."""
        cache = self._cache(scope)
        if cache.lexical is None:
            current = self._rows(SELECT_CURRENT, (scope.tenant_id, scope.user_id), scope)
            cache.lexical = LexicalIndex().update((), current)
        return self._found(scope, cache.lexical.search(query, k, kinds))

    def _found(self, scope: Scope, hits: list[tuple[int, float]]) -> list[tuple[MemoryRecord, float]]:
        """(record, score) for search hits given by seq; a record another connection erased meanwhile is left out."""
        found = self._by_seq(scope, [seq for seq, _ in hits]) if hits else {}
        return [(found[seq], score) for seq, score in hits if seq in found]

    def scan(self, scope: Scope, vector: np.ndarray, kinds: tuple[str, ...]) -> list[tuple[MemoryRecord, float]]:
        hits = self._cache(scope).index.scan(vector, kinds)
        if not hits:
            return []
        current = {r.seq: r for r in self._rows(SELECT_CURRENT, (scope.tenant_id, scope.user_id), scope)}
        return [(current[seq], score) for seq, score in hits if seq in current]

    def last_seq(self, scope: Scope) -> int:
        return self._cache(scope).next_seq - 1

    # ----------------------------------------------------------------- writing

    def write(self, scope: Scope, new: Sequence[NewRecord], vectors: np.ndarray) -> list[MemoryRecord]:
        tenant, user = scope.tenant_id, scope.user_id
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        stale: dict[str, MemoryRecord] = {}

        def current(rid: str) -> MemoryRecord | None:
            record = self.get(scope, rid)
            if record is not None and record.current:
                stale[rid] = record
                return record
            return None

        # The numbers are taken inside the write lock, from a cache checked against the file: a second store
        # object or another process may have written since, and seq and id must be the file's next ones.
        with self._transaction():
            cache = self._cache(scope)
            made, superseded = make_records(scope, new, cache.next_seq, cache.generation, current)
            rows = [(tenant, user, r.id, r.seq, r.kind, r.content, r.key, r.source, r.superseded_by,
                     r.importance, r.created_at, r.last_access, vectors[i].tobytes(),
                     text_hash(r.kind, r.key, r.content), key_hash(r.key), r.provenance) for i, r in enumerate(made)]
            next_seq = cache.next_seq + len(made)
            self.conn.executemany(INSERT_RECORD, rows)
            self.conn.executemany(MARK_SUPERSEDED, [(superseded[rid], tenant, user, r.seq) for rid, r in stale.items()])
            self.conn.execute(UPSERT_PARTITION, (tenant, user, next_seq, cache.generation))
        # Applied only after the transaction committed, so a failed write leaves the cache as it was.
        self._caches[scope] = cache
        cache.next_seq = next_seq
        for record in stale.values():
            cache.index.remove(record.seq)
        keep = [i for i, r in enumerate(made) if r.current]
        cache.index.add([made[i] for i in keep], vectors[keep])
        if cache.lexical is not None:
            cache.lexical.update(stale.values(), [made[i] for i in keep])
        return made

    def touch(self, scope: Scope, record_ids: Sequence[str], when: float) -> None:
        with self._transaction():
            self.conn.executemany(SET_LAST_ACCESS, [(when, scope.tenant_id, scope.user_id, rid) for rid in record_ids])

    def forget(self, scope: Scope, record_id: str, *, tombstone: bool) -> MemoryRecord | None:
        record = self.get(scope, record_id)
        if record is None:
            return None
        cache = self._cache(scope)
        with self._transaction():
            statement = TOMBSTONE_RECORD if tombstone else DELETE_RECORD
            self.conn.execute(statement, (scope.tenant_id, scope.user_id, record.seq))
        if record.current:
            cache.index.remove(record.seq)
            if cache.lexical is not None:
                cache.lexical.update([record], ())
        self._scrub()
        return record

    def delete_user(self, scope: Scope) -> int:
        key = (scope.tenant_id, scope.user_id)
        count = self._read(COUNT_SCOPE, key)[0][0]
        with self._transaction():
            self.conn.execute(DELETE_SCOPE_RECORDS, key)
            self.conn.execute(DELETE_SCOPE_PARTITION, key)
            self.conn.execute(COUNT_ERASURE)
        self._caches.pop(scope, None)
        self._erasures += 1
        self._scrub()
        return count

    def _scrub(self) -> None:
        """Fold the WAL into the database and truncate it, so deleted text is not left in old WAL frames.

        With secure_delete=ON the deleted cells are already zeroed in the pages
        the checkpoint writes back; TRUNCATE then cuts the WAL file to 0 bytes.
        """
        busy, _, _ = self._read("PRAGMA wal_checkpoint(TRUNCATE)", ())[0]
        if busy:
            raise StoreFileError(
                "the record was deleted, but another connection is reading the file, so the old bytes could "
                "not be scrubbed yet; close other connections and call delete_user again"
            )


# --------------------------------------------------------------------------- opening a file


def _check_place(path: object) -> str:
    """The path as given, once it is a place a store can live: read-only checks, nothing is created."""
    given = check_path_value(path, StoreFileError, "the store path")
    if not given.endswith(("/", os.sep)) and os.path.isdir(given):
        raise StoreFileError(f"path {given!r} is not a regular file but a folder; give the path of a .db file "
                             f"inside it, such as {os.path.join(given, 'memory.db')!r}")
    if check_file_place(given, StoreFileError, example="memory.db"):  # an existing, writable, regular file
        folder = os.path.dirname(given) or "."
        if not (os.stat(folder).st_mode & 0o222 and os.access(folder, os.W_OK | os.X_OK)):
            raise StoreFileError(f"the folder of {given!r} is read-only; the store keeps its journal (-wal, -shm) "
                                 "beside the file, so it needs a writable folder. Copy the file somewhere writable")
    return given


def _file_error(given: str, exc: sqlite3.Error, outcome: str) -> StoreFileError:
    """What an SQLite error on the store file means for the caller, naming the path as given."""
    text = str(exc)
    if "locked" in text or "busy" in text:
        return StoreLocked(f"{given!r} is locked: another program (or another store object) holds its write "
                           f"lock; {outcome}. Wait for it to finish, or close it, then try again")
    if "readonly" in text or "read-only" in text:
        return StoreFileError(f"{given!r} cannot be written ({text}); {outcome}. A store needs a writable file "
                              "in a writable folder")
    return StoreFileError(f"{given!r} could not be read or written ({text}); it may be damaged; {outcome}")


def _open_database(given: str, embedder_name: str, dim: int, timeout: float) -> sqlite3.Connection:
    """Open (or create) a store file; refuse a corrupt or foreign file without writing a byte to it."""
    try:
        fresh = os.stat(given).st_size == 0
    except FileNotFoundError:
        fresh = True
    except OSError as exc:
        raise StoreFileError(f"{given!r} cannot be read ({exc.strerror or exc})") from None
    try:
        conn = sqlite3.connect(given, isolation_level=None, check_same_thread=False, timeout=timeout)
    except sqlite3.Error as exc:
        raise StoreFileError(f"cannot open {given!r} as an SQLite file: {exc}") from exc
    conn.create_function("pm_text_hash", 3, text_hash, deterministic=True)
    conn.create_function("pm_key_hash", 1, key_hash, deterministic=True)
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
            version = _check_existing(conn, given, embedder_name, dim)
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
        if "locked" in str(exc) or "busy" in str(exc):
            raise _file_error(given, exc, "it was left unchanged") from exc
        raise StoreFileError(
            f"{given!r} is not a usable primer-memory store ({exc}); it was left unchanged. "
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
