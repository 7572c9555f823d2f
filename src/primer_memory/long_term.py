"""Long-term memory: typed records, partitioned by scope, recalled by similarity.

Three kinds of record, as in a person's three notebooks: a diary (episodic:
dated events), an encyclopedia (semantic: keyed facts) and a book of habits
(procedural: how-to). Every record belongs to one `Scope` (tenant, user); the
store keeps one partition per scope and every lookup opens the caller's
partition and searches only inside it. A keyed write supersedes the current
value of that key instead of overwriting it, so `history` can say why the
agent once believed something else.

In memory by default; with `path=` the same store is durable in SQLite (WAL,
parameterised SQL, one transaction per write, vectors as float32 blobs, the
partition key in every query). Recall is one matrix product over a cached
float32 matrix per partition, then `argpartition`.

Decisions worth knowing:
- `forget(scope, id)` erases one record. Forgetting the *current* value of a key
  leaves the key with no current value: older values stay superseded (they
  were corrected once; erasing the correction must not silently bring them
  back). To restore an older value, remember it again.
- Recall returns only records that share something with the question
  (cosine > 0), so an unrelated memory never pads the prompt.
- Ties in similarity go to the newer record.
- One `LongTermMemory` should own a file at a time: it caches partitions in memory.
"""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from .embedding import Embedder, EmbeddingError, HashingEmbedder, check_vectors
from .policy import PolicyDecision, review

__all__ = [
    "DEFAULT_IMPORTANCE",
    "KINDS",
    "KIND_NAMES",
    "RECENCY_DECAY",
    "InvalidMemory",
    "InvalidQuery",
    "LongTermMemory",
    "MemoryRecord",
    "RecordNotFound",
    "Scope",
    "ScopeError",
    "ScoredMemory",
    "StoreClosed",
    "StoreFileError",
    "WriteResult",
]

KINDS: tuple[str, ...] = ("episodic", "semantic", "procedural")
KIND_NAMES: dict[str, str] = {"episodic": "diary", "semantic": "encyclopedia", "procedural": "habit"}
"""The everyday name of each kind: the three notebooks a person keeps."""

RECENCY_DECAY = 0.995
"""Recency of a memory = RECENCY_DECAY ** hours since it was last accessed (Park et al. 2023)."""

DEFAULT_IMPORTANCE = 5
"""Importance runs from 1 (mundane) to 10 (poignant); a write that gives none is in the middle."""

_MAX_SCOPE_PART = 256
_TIE_EPS = 1e-4  # float32 scores closer than this to the k-th are re-scored exactly in float64


# --------------------------------------------------------------------------- errors


class ScopeError(ValueError):
    """A scope is missing a part, or a part is not a clean, non-empty string."""


class InvalidMemory(ValueError):
    """A write the store cannot accept: unknown kind, empty content, a bad key, source or importance."""


class InvalidQuery(ValueError):
    """A recall the store cannot run: empty question, k < 1, unknown kinds, bad weights."""


class RecordNotFound(KeyError):
    """No record with that id in the caller's scope (other scopes are never searched)."""

    def __str__(self) -> str:  # KeyError would show the message in quotes
        return str(self.args[0]) if self.args else "record not found"


class StoreFileError(ValueError):
    """The file at `path` is not a primer-memory store (corrupt, another program's, or another embedder's)."""


class StoreClosed(RuntimeError):
    """The store was closed; open a new `LongTermMemory` on the same path to go on."""


# --------------------------------------------------------------------------- value types


def _check_part(name: str, value: object) -> None:
    if not isinstance(value, str):
        raise ScopeError(f"{name} must be a string given by the authentication layer, got {type(value).__name__}")
    if not value.strip():
        raise ScopeError(f"{name} is required and must not be empty or blank; got {value!r}")
    if value != value.strip():
        raise ScopeError(f"{name} must not start or end with whitespace; got {value!r}")
    if len(value) > _MAX_SCOPE_PART:
        raise ScopeError(f"{name} is {len(value)} characters; at most {_MAX_SCOPE_PART} are allowed")
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise ScopeError(f"{name} must not contain control characters (such as NUL or newline); got {value!r}")


@dataclass(frozen=True, slots=True)
class Scope:
    """Whose memory this is: a tenant and a user, both required.

    Supplied by the authentication layer, never parsed from a query. Two scopes
    are the same only if both parts are exactly equal (no prefix matching, no
    case folding), so `acme` and `acme-corp` are strangers.
    """

    tenant_id: str
    user_id: str

    def __post_init__(self) -> None:
        _check_part("tenant_id", self.tenant_id)
        _check_part("user_id", self.user_id)

    def __str__(self) -> str:
        return f"{self.tenant_id}/{self.user_id}"


@dataclass(frozen=True, slots=True)
class MemoryRecord:
    """One memory: what it says, what kind it is, where it came from, and whether it is still current.

    `seq` is the write order inside the scope (it stands in for time, so
    examples are deterministic); `superseded_by` is the id of the record that
    replaced this one, or None while it is current.
    """

    id: str
    scope: Scope
    kind: str
    content: str
    key: str | None
    source: str
    seq: int
    superseded_by: str | None = None
    importance: int = DEFAULT_IMPORTANCE
    created_at: float = 0.0
    last_access: float = 0.0

    @property
    def current(self) -> bool:
        """True until a later write with the same key supersedes it."""
        return self.superseded_by is None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (for export): every field, the scope spelled out."""
        return {
            "id": self.id,
            "tenant_id": self.scope.tenant_id,
            "user_id": self.scope.user_id,
            "kind": self.kind,
            "content": self.content,
            "key": self.key,
            "source": self.source,
            "seq": self.seq,
            "superseded_by": self.superseded_by,
            "current": self.current,
            "importance": self.importance,
            "created_at": self.created_at,
            "last_access": self.last_access,
        }


@dataclass(frozen=True, slots=True)
class WriteResult:
    """What `remember` did: stored or not, why, and the record (the new one, or the existing duplicate)."""

    stored: bool
    reason: str
    record: MemoryRecord | None = None


@dataclass(frozen=True, slots=True)
class ScoredMemory:
    """One result of `recall_scored`, with the parts of its score.

    `relevance`, `recency` and `importance` are each min-max normalised over
    the candidates (0..1); `score` is their weighted sum. `cosine` and
    `hours_since_access` are the raw values before normalising.
    """

    record: MemoryRecord
    score: float
    relevance: float
    recency: float
    importance: float
    cosine: float
    hours_since_access: float

    @property
    def content(self) -> str:
        """The memory's text, so a list of these can go straight into `build_prompt(recalled=...)`."""
        return self.record.content


# --------------------------------------------------------------------------- input checks


def _check_scope(scope: object) -> Scope:
    if not isinstance(scope, Scope):
        raise ScopeError(
            f"every call needs a Scope(tenant_id, user_id) from the authentication layer; got {type(scope).__name__}"
        )
    return scope


def _check_kind(kind: object) -> str:
    if kind not in KINDS:
        raise InvalidMemory(f"kind must be one of {', '.join(map(repr, KINDS))}; got {kind!r}")
    return kind  # type: ignore[return-value]


def _check_kinds(kinds: object) -> tuple[str, ...]:
    if isinstance(kinds, str):
        raise InvalidQuery(f"kinds must be a tuple of kinds such as ({kinds!r},), not the bare string {kinds!r}")
    try:
        chosen = list(kinds)  # type: ignore[call-overload]
    except TypeError:
        raise InvalidQuery(f"kinds must be a tuple of kinds from {KINDS}; got {kinds!r}") from None
    if not chosen:
        raise InvalidQuery(f"kinds must name at least one of {', '.join(map(repr, KINDS))}")
    unknown = [k for k in chosen if k not in KINDS]
    if unknown:
        raise InvalidQuery(f"unknown kind {unknown[0]!r} in kinds; allowed: {', '.join(map(repr, KINDS))}")
    return tuple(k for k in KINDS if k in chosen)


def _check_k(k: object) -> int:
    if isinstance(k, bool) or not isinstance(k, int):
        raise InvalidQuery(f"k must be a whole number of at least 1, got {k!r}")
    if k < 1:
        raise InvalidQuery(f"k must be at least 1 (how many memories to recall), got {k}")
    return k


def _check_query(query: object) -> str:
    if not isinstance(query, str):
        raise InvalidQuery(f"the question must be a string, got {type(query).__name__}")
    if not query.strip():
        raise InvalidQuery("the question is empty; recall needs some text to compare memories with")
    return query


def _check_key(key: object) -> str | None:
    if key is None:
        return None
    if not isinstance(key, str) or not key.strip():
        raise InvalidMemory(f"key must be None or a non-empty string such as 'fiscal_year_start'; got {key!r}")
    if key != key.strip():
        raise InvalidMemory(f"key must not start or end with whitespace (it would be a different key); got {key!r}")
    return key


def _check_entry(entry: Mapping[str, Any], where: str) -> tuple[str, str, str | None, str, int]:
    allowed = {"kind", "content", "key", "source", "importance"}
    if not isinstance(entry, Mapping):
        raise InvalidMemory(f"{where}: each memory must be a mapping with kind and content, got {type(entry).__name__}")
    extra = set(entry) - allowed
    if extra:
        raise InvalidMemory(f"{where}: unknown field {sorted(extra)[0]!r}; allowed: {', '.join(sorted(allowed))}")
    kind = _check_kind(entry.get("kind"))
    content = entry.get("content")
    if not isinstance(content, str):
        raise InvalidMemory(f"{where}: content must be a string, got {type(content).__name__}")
    if not content.strip():
        raise InvalidMemory(f"{where}: content is empty; a memory needs some text")
    key = _check_key(entry.get("key"))
    source = entry.get("source", "conversation")
    if not isinstance(source, str) or not source.strip():
        raise InvalidMemory(f"{where}: source must be a non-empty string such as 'conversation'; got {source!r}")
    importance = entry.get("importance", DEFAULT_IMPORTANCE)
    if isinstance(importance, bool) or not isinstance(importance, int) or not 1 <= importance <= 10:
        raise InvalidMemory(f"{where}: importance must be a whole number from 1 to 10; got {importance!r}")
    return kind, content, key, source, importance


def _check_weight(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise InvalidQuery(f"{name} must be a finite number >= 0, got {value!r}")
    return float(value)


def _record_id(scope: Scope, seq: int) -> str:
    """A short id, the same on every run, different across scopes (so one scope never finds another's)."""
    raw = f"{scope.tenant_id}\x00{scope.user_id}\x00{seq}".encode()
    return "mem-" + hashlib.blake2b(raw, digest_size=5).hexdigest()


# --------------------------------------------------------------------------- in-memory partition


class _Index:
    """The current records of one partition: one float32 matrix plus per-row facts, in parallel arrays.

    Rows grow by doubling; removing a row moves the last row into its place,
    so every change is O(dim) and recall reads one contiguous block.
    """

    __slots__ = ("dim", "ids", "pos", "matrix", "kinds", "seqs", "importance", "last_access", "n")

    def __init__(self, dim: int, capacity: int = 8):
        self.dim = dim
        self.ids: list[str] = []
        self.pos: dict[str, int] = {}
        self.matrix = np.zeros((capacity, dim), dtype=np.float32)
        self.kinds = np.zeros(capacity, dtype=np.int8)  # position in KINDS
        self.seqs = np.zeros(capacity, dtype=np.int64)
        self.importance = np.zeros(capacity, dtype=np.float64)
        self.last_access = np.zeros(capacity, dtype=np.float64)
        self.n = 0

    _ARRAYS = ("matrix", "kinds", "seqs", "importance", "last_access")

    def _grow(self, needed: int) -> None:
        capacity = len(self.seqs)
        if needed <= capacity:
            return
        new = max(needed, 2 * capacity)
        for name in self._ARRAYS:
            old = getattr(self, name)
            grown = np.zeros((new, *old.shape[1:]), dtype=old.dtype)
            grown[: self.n] = old[: self.n]
            setattr(self, name, grown)

    def add(self, records: Sequence[MemoryRecord], vectors: np.ndarray) -> None:
        m = len(records)
        if not m:
            return
        self._grow(self.n + m)
        lo, hi = self.n, self.n + m
        self.matrix[lo:hi] = vectors
        self.kinds[lo:hi] = [_KIND_CODE[r.kind] for r in records]
        self.seqs[lo:hi] = [r.seq for r in records]
        self.importance[lo:hi] = [r.importance for r in records]
        self.last_access[lo:hi] = [r.last_access for r in records]
        for i, r in enumerate(records, start=lo):
            self.pos[r.id] = i
            self.ids.append(r.id)
        self.n = hi

    def remove(self, record_id: str) -> None:
        i = self.pos.pop(record_id)
        last = self.n - 1
        if i != last:
            moved = self.ids[last]
            for name in self._ARRAYS:
                array = getattr(self, name)
                array[i] = array[last]
            self.ids[i] = moved
            self.pos[moved] = i
        self.ids.pop()
        self.matrix[last] = 0.0
        self.n = last

    def candidates(self, kinds: tuple[str, ...]) -> np.ndarray | None:
        """Rows of the chosen kinds (None means every row: no mask needed)."""
        if len(kinds) == len(KINDS):
            return None
        codes = self.kinds[: self.n]
        mask = codes == _KIND_CODE[kinds[0]]
        for kind in kinds[1:]:
            mask |= codes == _KIND_CODE[kind]
        return np.flatnonzero(mask)


_KIND_CODE = {kind: i for i, kind in enumerate(KINDS)}


class _Partition:
    """Everything held for one scope: all records (history included) and the index of current ones."""

    __slots__ = ("scope", "records", "current_key", "current_text", "next_seq", "index")

    def __init__(self, scope: Scope, dim: int, next_seq: int = 1):
        self.scope = scope
        self.records: dict[str, MemoryRecord] = {}
        self.current_key: dict[str, str] = {}
        self.current_text: dict[tuple[str, str | None, str], str] = {}
        self.next_seq = next_seq
        self.index = _Index(dim)

    def vector_of(self, record: MemoryRecord) -> np.ndarray:
        return self.index.matrix[self.index.pos[record.id]]


# --------------------------------------------------------------------------- SQLite


_APPLICATION_ID = 0x504D454D  # "PMEM": marks a file as ours, so a foreign database is refused before any write
_SCHEMA_VERSION = 1
_PAGE_SIZE = 8192  # a record with its 2 KB vector fills a 4 KB page half-empty; 8 KB pages hold three
_SCHEMA = (
    "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE partitions (tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, next_seq INTEGER NOT NULL,"
    " PRIMARY KEY (tenant_id, user_id)) WITHOUT ROWID",
    "CREATE TABLE records (tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, seq INTEGER NOT NULL,"
    " id TEXT NOT NULL,"
    " kind TEXT NOT NULL CHECK (kind IN ('episodic', 'semantic', 'procedural')),"
    " content TEXT NOT NULL, key TEXT, source TEXT NOT NULL, superseded_by TEXT,"
    " importance INTEGER NOT NULL, created_at REAL NOT NULL, last_access REAL NOT NULL,"
    " vector BLOB NOT NULL, PRIMARY KEY (tenant_id, user_id, seq))",
)
_TABLES = {"meta", "partitions", "records"}
_COLUMNS = "id, seq, kind, content, key, source, superseded_by, importance, created_at, last_access"


def _open_database(path: Path, embedder: Embedder) -> sqlite3.Connection:
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
            for statement in _SCHEMA:
                conn.execute(statement)
            conn.executemany(
                "INSERT INTO meta (name, value) VALUES (?, ?)",
                [("embedder", embedder.name), ("dim", str(embedder.dim))],
            )
            conn.execute(f"PRAGMA application_id = {_APPLICATION_ID:d}")  # pragmas take no parameters; an int
            conn.execute(f"PRAGMA user_version = {_SCHEMA_VERSION:d}")
            conn.execute("COMMIT")
        else:
            _check_existing(conn, name, embedder)
            conn.execute("PRAGMA journal_mode=WAL")
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


def _check_existing(conn: sqlite3.Connection, name: str, embedder: Embedder) -> None:
    """Read-only checks of an existing file: ours, this schema version, this embedder."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if app_id != _APPLICATION_ID:
        what = "an empty SQLite database of another program" if not tables else "another program's SQLite database"
        raise StoreFileError(
            f"{name!r} is {what}, not a primer-memory store; refusing to touch it. Give a new path."
        )
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version != _SCHEMA_VERSION or not _TABLES <= tables:
        raise StoreFileError(
            f"{name!r} is a primer-memory store of schema version {version} (tables: {sorted(tables)}); "
            f"this library reads version {_SCHEMA_VERSION}"
        )
    meta = dict(conn.execute("SELECT name, value FROM meta").fetchall())
    if meta.get("embedder") != embedder.name or meta.get("dim") != str(embedder.dim):
        raise StoreFileError(
            f"{name!r} holds vectors from embedder {meta.get('embedder')!r}; this store uses {embedder.name!r}. "
            "Vectors from two embedders cannot be compared: open it with the embedder that wrote it."
        )


# --------------------------------------------------------------------------- the store


class LongTermMemory:
    """Typed memories per scope, recalled by cosine similarity; in memory, or durable with `path=`.

    `policy` decides what may be written (default: `policy.review`); `clock`
    returns the current time in hours for recency. Without a clock the write
    order stands in for time: record number n was written at hour n.
    """

    def __init__(
        self,
        embedder: Embedder | None = None,
        path: str | Path | None = None,
        policy: Callable[[str], PolicyDecision] = review,
        *,
        clock: Callable[[], float] | None = None,
    ):
        embedder = HashingEmbedder() if embedder is None else embedder
        name, dim = getattr(embedder, "name", None), getattr(embedder, "dim", None)
        if not isinstance(name, str) or not name or isinstance(dim, bool) or not isinstance(dim, int) or dim < 1:
            raise EmbeddingError("embedder needs a non-empty str `name`, a positive int `dim` and an `embed(texts)` method")
        if not callable(getattr(embedder, "embed", None)):
            raise EmbeddingError("embedder needs an `embed(texts)` method returning one row per text")
        if not callable(policy):
            raise TypeError(f"policy must be a function of the content returning a PolicyDecision, got {policy!r}")
        if clock is not None and not callable(clock):
            raise TypeError(f"clock must be a function returning hours as a float, got {clock!r}")
        self._embedder = embedder
        self._policy = policy
        self._clock = clock
        self._lock = threading.RLock()
        self._partitions: dict[Scope, _Partition] = {}
        self._closed = False
        self._db: sqlite3.Connection | None = None
        if path is not None:
            self._db = _open_database(Path(path), embedder)

    # ----------------------------------------------------------------- housekeeping

    @property
    def embedder(self) -> Embedder:
        return self._embedder

    @property
    def durable(self) -> bool:
        """True when backed by an SQLite file."""
        return self._db is not None

    def __repr__(self) -> str:
        where = "closed" if self._closed else ("SQLite file" if self._db is not None else "in memory")
        return f"LongTermMemory({where}, embedder={self._embedder.name}, partitions loaded={len(self._partitions)})"

    def close(self) -> None:
        """Close the file (if any) after folding the WAL into it; the store cannot be used afterwards."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._partitions.clear()
            if self._db is not None:
                try:
                    self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                finally:
                    self._db.close()
                    self._db = None

    def __enter__(self) -> LongTermMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open(self) -> None:
        if self._closed:
            raise StoreClosed("this LongTermMemory was closed; open a new one on the same path to go on")

    def _now(self) -> float | None:
        if self._clock is None:
            return None
        value = self._clock()
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise TypeError(f"clock must return hours as a finite number, got {value!r}")
        return float(value)

    # ----------------------------------------------------------------- partitions

    def _partition(self, scope: Scope) -> _Partition:
        """The caller's partition: cached, loaded from disk on first use, or new and empty (not yet registered)."""
        part = self._partitions.get(scope)
        if part is not None:
            return part
        if self._db is None:
            return _Partition(scope, self._embedder.dim)
        try:
            part = self._load(scope)
        except sqlite3.DatabaseError as exc:
            raise StoreFileError(f"the store file could not be read ({exc}); it may be damaged") from exc
        if part.records or part.next_seq > 1:
            self._partitions[scope] = part
        return part

    def _load(self, scope: Scope) -> _Partition:
        """Read one partition: every record in write order, and the vectors of the current ones into the index."""
        assert self._db is not None
        key = (scope.tenant_id, scope.user_id)
        row = self._db.execute(
            "SELECT next_seq FROM partitions WHERE tenant_id = ? AND user_id = ?", key
        ).fetchone()
        part = _Partition(scope, self._embedder.dim, next_seq=row[0] if row else 1)
        if row is None:
            return part
        dim = self._embedder.dim
        current: list[MemoryRecord] = []
        blobs: list[bytes] = []
        records = part.records
        for rid, seq, kind, content, rkey, source, sup, imp, created, last, blob in self._db.execute(
            f"SELECT {_COLUMNS}, vector FROM records WHERE tenant_id = ? AND user_id = ? ORDER BY seq", key
        ):
            record = MemoryRecord(rid, scope, kind, content, rkey, source, seq, sup, imp, created, last)
            records[rid] = record
            if sup is None:
                if len(blob) != 4 * dim:
                    raise StoreFileError(f"a stored vector has {len(blob)} bytes; expected {4 * dim} (dim={dim})")
                current.append(record)
                blobs.append(blob)
                if rkey is not None:
                    part.current_key[rkey] = rid
                part.current_text[(kind, rkey, content)] = rid
        if current:
            part.index.add(current, np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(current), dim))
        return part

    # ----------------------------------------------------------------- writing

    def remember(
        self,
        scope: Scope,
        kind: str,
        content: str,
        key: str | None = None,
        source: str = "conversation",
        *,
        importance: int = DEFAULT_IMPORTANCE,
    ) -> WriteResult:
        """Store one memory if the write policy allows it; a keyed write supersedes that key's current value.

        Bad input raises (InvalidMemory, ScopeError) and changes nothing; content
        the policy skips or refuses returns `WriteResult(stored=False, reason)`.
        """
        entry = {"kind": kind, "content": content, "key": key, "source": source, "importance": importance}
        return self.remember_many(scope, [entry])[0]

    def remember_many(self, scope: Scope, entries: Iterable[Mapping[str, Any]]) -> list[WriteResult]:
        """Several `remember` calls in one transaction: all are checked before any is written.

        Each entry is a mapping with `kind` and `content`, and optionally `key`,
        `source` and `importance`. Results come back in the same order.
        """
        _check_scope(scope)
        if isinstance(entries, Mapping):
            raise InvalidMemory("remember_many takes a list of memories; wrap a single one as [entry]")
        checked = [_check_entry(e, f"memory {i}") for i, e in enumerate(entries)]
        with self._lock:
            self._open()
            decisions = [self._review(content) for _, content, _, _, _ in checked]
            wanted = [i for i, d in enumerate(decisions) if d.verdict == "store"]
            vectors = np.zeros((len(checked), self._embedder.dim), dtype=np.float32)
            if wanted:
                raw = self._embedder.embed([checked[i][1] for i in wanted])
                vectors[wanted] = check_vectors(raw, len(wanted), self._embedder.dim, "the embedder")
            part = self._partition(scope)
            return self._write(part, checked, decisions, vectors)

    def _review(self, content: str) -> PolicyDecision:
        decision = self._policy(content)
        if getattr(decision, "verdict", None) not in ("store", "skip", "refuse"):
            raise TypeError(f"the write policy must return a PolicyDecision (store/skip/refuse), got {decision!r}")
        return decision

    def _write(
        self,
        part: _Partition,
        checked: list[tuple[str, str, str | None, str, int]],
        decisions: list[PolicyDecision],
        vectors: np.ndarray,
    ) -> list[WriteResult]:
        """Plan every write against a staged view, persist it in one transaction, then apply it in memory."""
        results: list[WriteResult] = []
        new: list[MemoryRecord] = []
        new_rows: list[int] = []
        superseded: dict[str, str] = {}  # old id -> id of the record that replaces it
        staged_key: dict[str, str] = {}  # key -> current id, as of this point in the batch
        staged_text: dict[tuple[str, str | None, str], MemoryRecord | None] = {}  # None: no longer current
        by_id: dict[str, MemoryRecord] = {}

        def current_with_text(text_key: tuple[str, str | None, str]) -> MemoryRecord | None:
            if text_key in staged_text:
                return staged_text[text_key]
            rid = part.current_text.get(text_key)
            return part.records[rid] if rid is not None else None

        seq = part.next_seq
        for row, ((kind, content, key, source, importance), decision) in enumerate(zip(checked, decisions)):
            if decision.verdict != "store":
                results.append(WriteResult(False, decision.reason))
                continue
            if not vectors[row].any():
                results.append(WriteResult(False, "skipped: no words to index, so it could never be recalled"))
                continue
            text_key = (kind, key, content)
            duplicate = current_with_text(text_key)
            if duplicate is not None:
                results.append(WriteResult(False, f"skipped: already remembered as {duplicate.id}", duplicate))
                continue
            now = self._now()
            when = float(seq) if now is None else now
            record = MemoryRecord(
                _record_id(part.scope, seq), part.scope, kind, content, key, source, seq, None, importance, when, when
            )
            seq += 1
            reason = decision.reason
            if key is not None:
                old = staged_key.get(key, part.current_key.get(key))
                if old is not None:
                    superseded[old] = record.id
                    reason = f"{reason} (supersedes {old})"
                    stale = by_id.get(old) or part.records[old]
                    staged_text[(stale.kind, stale.key, stale.content)] = None
                staged_key[key] = record.id
            staged_text[text_key] = record
            by_id[record.id] = record
            new.append(record)
            new_rows.append(row)
            results.append(WriteResult(True, reason, record))
        if not new:
            return results
        if self._db is not None:
            self._persist_writes(part, new, vectors[new_rows], superseded, seq)
        # Applied only after the transaction committed, so a failed write leaves memory as it was.
        self._partitions[part.scope] = part
        part.next_seq = seq
        for record in new:
            part.records[record.id] = record
        for old, sup in superseded.items():
            stale = part.records[old]
            part.records[old] = replace(stale, superseded_by=sup)
            if old not in by_id:  # it was current before this batch: take it out of the index
                part.index.remove(old)
                part.current_text.pop((stale.kind, stale.key, stale.content), None)
        current = [(r, row) for r, row in zip(new, new_rows) if r.id not in superseded]
        if current:
            part.index.add([r for r, _ in current], vectors[[row for _, row in current]])
        for record, _ in current:
            part.current_text[(record.kind, record.key, record.content)] = record.id
            if record.key is not None:
                part.current_key[record.key] = record.id
        return [
            WriteResult(r.stored, r.reason, part.records.get(r.record.id, r.record)) if r.record is not None else r
            for r in results
        ]

    def _persist_writes(
        self,
        part: _Partition,
        new: list[MemoryRecord],
        vectors: np.ndarray,
        superseded: dict[str, str],
        next_seq: int,
    ) -> None:
        assert self._db is not None
        tenant, user = part.scope.tenant_id, part.scope.user_id
        final_sup = {r.id: superseded.get(r.id) for r in new}
        rows = [
            (tenant, user, r.id, r.seq, r.kind, r.content, r.key, r.source, final_sup[r.id],
             r.importance, r.created_at, r.last_access, np.ascontiguousarray(v, dtype=np.float32).tobytes())
            for r, v in zip(new, vectors)
        ]
        updates = [(sup, tenant, user, part.records[old].seq) for old, sup in superseded.items() if old not in final_sup]
        with self._transaction():
            self._db.executemany(
                "INSERT INTO records (tenant_id, user_id, id, seq, kind, content, key, source, superseded_by,"
                " importance, created_at, last_access, vector) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            self._db.executemany(
                "UPDATE records SET superseded_by = ? WHERE tenant_id = ? AND user_id = ? AND seq = ?", updates
            )
            self._db.execute(
                "INSERT INTO partitions (tenant_id, user_id, next_seq) VALUES (?, ?, ?)"
                " ON CONFLICT (tenant_id, user_id) DO UPDATE SET next_seq = excluded.next_seq",
                (tenant, user, next_seq),
            )

    def _transaction(self) -> _Transaction:
        assert self._db is not None
        return _Transaction(self._db)

    # ----------------------------------------------------------------- reading

    def _query_vector(self, query: str) -> np.ndarray:
        raw = self._embedder.embed([query])
        return check_vectors(raw, 1, self._embedder.dim, "the embedder")[0]

    def recall(self, scope: Scope, query: str, k: int = 3, kinds: Sequence[str] = KINDS) -> list[MemoryRecord]:
        """The k current records of the caller's scope most similar to `query` (cosine), best first.

        Only the chosen kinds are searched; records that share nothing with the
        question (cosine 0) are never returned, so fewer than k may come back.
        """
        return [record for record, _ in self.recall_with_scores(scope, query, k, kinds)]

    def recall_with_scores(
        self, scope: Scope, query: str, k: int = 3, kinds: Sequence[str] = KINDS
    ) -> list[tuple[MemoryRecord, float]]:
        """`recall`, with each record's cosine similarity to the question."""
        _check_scope(scope)
        _check_query(query)
        _check_k(k)
        chosen = _check_kinds(kinds)
        with self._lock:
            self._open()
            part = self._partition(scope)
            index = part.index
            if not index.n:
                return []
            q = self._query_vector(query)
            if not q.any():
                return []
            scores = index.matrix[: index.n] @ q  # the one matrix product: every current record at once
            rows = index.candidates(chosen)
            if rows is None:
                band = _top_band(scores, k, floor=_POSITIVE)
            else:
                band = rows[_top_band(scores[rows], k, floor=_POSITIVE)]
            return _rank_exact(index, band, q, k, part)

    def similarities(self, scope: Scope, query: str, kinds: Sequence[str] = KINDS) -> list[tuple[MemoryRecord, float]]:
        """Every current record of the chosen kinds with its cosine similarity to `query`, oldest first.

        This is what recall ranks; figures and widgets use it to show the whole picture.
        """
        _check_scope(scope)
        _check_query(query)
        chosen = _check_kinds(kinds)
        with self._lock:
            self._open()
            part = self._partition(scope)
            q = self._query_vector(query).astype(np.float64)
            out = []
            for record in part.records.values():
                if record.current and record.kind in chosen:
                    out.append((record, float((part.vector_of(record).astype(np.float64) * q).sum())))
            return sorted(out, key=lambda pair: pair[0].seq)

    def recall_scored(
        self,
        scope: Scope,
        query: str,
        k: int = 3,
        kinds: Sequence[str] = KINDS,
        *,
        w_relevance: float = 1.0,
        w_recency: float = 1.0,
        w_importance: float = 1.0,
        now: float | None = None,
        touch: bool = False,
    ) -> list[ScoredMemory]:
        """Generative Agents' retrieval: score = w_rel*relevance + w_rec*recency + w_imp*importance.

        Each part is min-max normalised over the candidates (every current record
        of the chosen kinds); recency = 0.995 ** hours since last access; a part
        equal for every candidate counts 1 (or 0 if it is 0 everywhere). `now`
        defaults to the clock, or to the latest write of the scope. With
        `touch=True` the returned records count as accessed at `now`.
        """
        _check_scope(scope)
        _check_query(query)
        _check_k(k)
        chosen = _check_kinds(kinds)
        weights = np.array([
            _check_weight("w_relevance", w_relevance),
            _check_weight("w_recency", w_recency),
            _check_weight("w_importance", w_importance),
        ])
        if now is not None and (isinstance(now, bool) or not isinstance(now, (int, float)) or not math.isfinite(now)):
            raise InvalidQuery(f"now must be a finite number of hours, got {now!r}")
        if not isinstance(touch, bool):
            raise InvalidQuery(f"touch must be True or False, got {touch!r}")
        with self._lock:
            self._open()
            part = self._partition(scope)
            index = part.index
            rows = index.candidates(chosen)
            if rows is None:
                rows = np.arange(index.n)
            if not len(rows):
                return []
            q = self._query_vector(query)
            clock_now = self._now()
            when = float(now) if now is not None else (clock_now if clock_now is not None else float(part.next_seq - 1))
            cos = (index.matrix[: index.n] @ q)[rows].astype(np.float64)
            hours = np.maximum(when - index.last_access[rows], 0.0)
            imp = index.importance[rows]
            raw_parts = [cos, RECENCY_DECAY**hours, imp]
            spans = [_span(p) for p in raw_parts]
            # The relevance span from exact cosines of its two end rows, so the best match scores exactly 1.
            ends = _exact_cosines(index, rows[[int(np.argmin(cos)), int(np.argmax(cos))]], q)
            spans[0] = (float(ends.min()), float(ends.max()))
            parts = [_normalise(p, lo, hi) for p, (lo, hi) in zip(raw_parts, spans)]
            total = weights[0] * parts[0] + weights[1] * parts[1] + weights[2] * parts[2]
            positions = _top_band(total, k, floor=None)  # indices into `rows`
            # Re-score the band with exact float64 cosines so the order never depends on row layout.
            exact = _exact_cosines(index, rows[positions], q)
            rel = _normalise(exact, *spans[0])
            exact_total = weights[0] * rel + weights[1] * parts[1][positions] + weights[2] * parts[2][positions]
            order = np.lexsort((-index.seqs[rows[positions]], -exact_total))[:k]
            results = [
                ScoredMemory(
                    record=part.records[index.ids[rows[positions[i]]]],
                    score=float(exact_total[i]),
                    relevance=float(rel[i]),
                    recency=float(parts[1][positions[i]]),
                    importance=float(parts[2][positions[i]]),
                    cosine=float(exact[i]),
                    hours_since_access=float(hours[positions[i]]),
                )
                for i in order
            ]
            if touch and results:
                results = self._touch(part, results, when)
            return results

    def _touch(self, part: _Partition, results: list[ScoredMemory], when: float) -> list[ScoredMemory]:
        ids = [r.record.id for r in results]
        if self._db is not None:
            with self._transaction():
                self._db.executemany(
                    "UPDATE records SET last_access = ? WHERE tenant_id = ? AND user_id = ? AND seq = ?",
                    [(when, part.scope.tenant_id, part.scope.user_id, part.records[rid].seq) for rid in ids],
                )
        out = []
        for result in results:
            record = replace(result.record, last_access=when)
            part.records[record.id] = record
            part.index.last_access[part.index.pos[record.id]] = when
            out.append(replace(result, record=record))
        return out

    def history(self, scope: Scope, key: str) -> list[MemoryRecord]:
        """Every value a key has had in this scope, oldest first, superseded ones included, each with its source."""
        _check_scope(scope)
        if _check_key(key) is None:
            raise InvalidMemory("history needs a key such as 'fiscal_year_start', got None")
        with self._lock:
            self._open()
            part = self._partition(scope)
            return sorted((r for r in part.records.values() if r.key == key), key=lambda r: r.seq)

    def export(self, scope: Scope, path: str | Path | None = None) -> list[dict[str, Any]]:
        """Everything held about one scope (superseded values too) as JSON-ready dicts, oldest first.

        With `path`, the same list is also written there as UTF-8 JSON (a data-access request, GDPR Art. 15).
        """
        _check_scope(scope)
        with self._lock:
            self._open()
            part = self._partition(scope)
            data = [r.to_dict() for r in sorted(part.records.values(), key=lambda r: r.seq)]
        if path is not None:
            Path(path).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return data

    # ----------------------------------------------------------------- erasing

    def forget(self, scope: Scope, record_id: str) -> MemoryRecord:
        """Erase one record of the caller's scope and return what it held.

        Only the caller's partition is searched, so an id from another scope is
        simply not found. Forgetting a key's current value leaves the key with
        no current value; its older values stay superseded.
        """
        _check_scope(scope)
        with self._lock:
            self._open()
            part = self._partition(scope)
            record = part.records.get(record_id) if isinstance(record_id, str) else None
            if record is None:
                raise RecordNotFound(f"no record {record_id!r} in scope {scope}; ids of other scopes are not searched")
            if self._db is not None:
                with self._transaction():
                    self._db.execute(
                        "DELETE FROM records WHERE tenant_id = ? AND user_id = ? AND seq = ?",
                        (scope.tenant_id, scope.user_id, record.seq),
                    )
            del part.records[record_id]
            if record.current:
                part.index.remove(record_id)
                part.current_text.pop((record.kind, record.key, record.content), None)
                if record.key is not None and part.current_key.get(record.key) == record_id:
                    del part.current_key[record.key]
            if self._db is not None:
                self._scrub_disk()
            return record

    def delete_user(self, scope: Scope) -> int:
        """Erase everything held about one scope: records, history, vectors, caches, and the bytes on disk.

        Returns how many records were erased (GDPR Art. 17). Other scopes, even
        in the same tenant, keep theirs.
        """
        _check_scope(scope)
        with self._lock:
            self._open()
            part = self._partition(scope)
            count = len(part.records)
            if self._db is not None:
                with self._transaction():
                    key = (scope.tenant_id, scope.user_id)
                    self._db.execute("DELETE FROM records WHERE tenant_id = ? AND user_id = ?", key)
                    self._db.execute("DELETE FROM partitions WHERE tenant_id = ? AND user_id = ?", key)
            self._partitions.pop(scope, None)
            clear = getattr(self._embedder, "clear_cache", None)
            if callable(clear):
                clear()
            if self._db is not None:
                self._scrub_disk()
            return count

    def _scrub_disk(self) -> None:
        """Fold the WAL into the database and truncate it, so deleted text is not left in old WAL frames.

        With secure_delete=ON the deleted cells are already zeroed in the pages
        the checkpoint writes back; TRUNCATE then cuts the WAL file to 0 bytes.
        """
        assert self._db is not None
        busy, _, _ = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
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


# --------------------------------------------------------------------------- scoring helpers


_POSITIVE = np.float32(1e-12)  # plain recall keeps only records that share something with the question


def _top_band(scores: np.ndarray, k: int, floor: np.floating | None) -> np.ndarray:
    """Positions of the k best scores plus any within _TIE_EPS of the k-th (to be settled exactly)."""
    n = len(scores)
    if n > k:
        kth = scores[np.argpartition(scores, n - k)[n - k :]].min()
        lowest = kth - _TIE_EPS
    else:
        lowest = scores.min() if n else 0.0
    if floor is not None:
        lowest = max(lowest, floor)
    return np.flatnonzero(scores >= lowest)


def _exact_cosines(index: _Index, rows: np.ndarray, q: np.ndarray) -> np.ndarray:
    """float64 cosines for a few rows, summed row by row: the same bits wherever a row sits in the matrix.

    (BLAS float32 products can differ in the last bit with a row's position, which
    would let a reopened store break a near-tie differently from the one that wrote it.)
    """
    return (index.matrix[rows].astype(np.float64) * q.astype(np.float64)).sum(axis=1)


def _rank_exact(
    index: _Index, rows: np.ndarray, q: np.ndarray, k: int, part: _Partition
) -> list[tuple[MemoryRecord, float]]:
    if not len(rows):
        return []
    exact = _exact_cosines(index, rows, q)
    order = np.lexsort((-index.seqs[rows], -exact))[:k]  # best score first; ties to the newer record
    return [(part.records[index.ids[rows[i]]], float(exact[i])) for i in order if exact[i] > 0]


def _span(values: np.ndarray) -> tuple[float, float]:
    return float(values.min()), float(values.max())


def _normalise(values: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Min-max to 0..1; a part equal for every candidate counts 1 (0 if it is 0 everywhere)."""
    if hi > lo:
        return np.clip((values - lo) / (hi - lo), 0.0, 1.0)
    return np.full(len(values), 1.0 if hi > 0 else 0.0)
