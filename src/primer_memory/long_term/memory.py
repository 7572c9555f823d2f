"""Long-term memory: typed records, partitioned by scope, recalled by similarity. All the rules live here.

Three kinds of record, as in a person's three notebooks: a diary (episodic:
dated events), an encyclopedia (semantic: keyed facts) and a book of habits
(procedural: how-to). Every record belongs to one `Scope` (tenant, user); every
lookup opens the caller's partition and searches only inside it. A keyed write
supersedes the current value of that key instead of overwriting it, so
`history` can say why the agent once believed something else.

This module is the memory logic: validation, the write policy, supersession,
ranking. Where records are kept is a backend's job (`storage`): in memory by
default, an SQLite file with `path=`, or any `MemoryStore` with `store=`.

Decisions worth knowing:
- `forget(scope, id)` erases one record. Forgetting the *current* value of a key
  leaves the key with no current value: older values stay superseded (they
  were corrected once; erasing the correction must not silently bring them
  back). To restore an older value, remember it again.
- Forgetting a keyed value leaves a tombstone (id, kind, key, seq, source,
  links; no content, no vector), so `history` can still say what happened.
- `recall` returns the k most similar current records, whatever their cosine
  (as the lesson does); `min_score=` is the relevance floor that keeps an
  unrelated memory out of the prompt.
- Ids are never reused, not after `forget`, not after `delete_user`.
- Ties in similarity go to the newer record.
- A `MemoryRecord` is a snapshot: one held from an earlier call does not change
  when a later write supersedes it. Ask `get`, `history` or `export` for now.
- `export(scope, path)` writes a new file; an existing one only with `overwrite=True`,
  and never the store's own file or through a link. A read-only store file is refused
  when opened (nothing is written to it, no journal is left beside it).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from .embedding import Embedder, EmbeddingError, HashingEmbedder, check_vectors
from .export import check_export_target, write_export
from ..policy.decision import PolicyDecision
from ..policy.default import default_policy
from .held import HeldWrites
from .hybrid import check_search, hybrid_search
from .writing import WritePath
from .ranking import rank
from .records import (
    DEFAULT_IMPORTANCE,
    KIND_NAMES,
    KINDS,
    RECENCY_DECAY,
    ExportFileError,
    InvalidMemory,
    InvalidQuery,
    MemoryRecord,
    MemorySetupError,
    RecordNotFound,
    Scope,
    ScopeError,
    ScoredMemory,
    StoreClosed,
    StoreFileError,
    StoreLocked,
    WriteConflict,
    WriteResult,
)
from .storage import MemoryStore
from .validation import (
    check_entries,
    check_floor,
    check_k,
    check_key,
    check_kinds,
    check_query,
    check_scope,
    check_weight,
    findable_id,
)

__all__ = ["DEFAULT_IMPORTANCE", "KINDS", "KIND_NAMES", "RECENCY_DECAY", "ExportFileError", "InvalidMemory",
           "InvalidQuery", "LongTermMemory", "MemoryRecord", "MemorySetupError", "RecordNotFound", "Scope",
           "ScopeError", "ScoredMemory", "StoreClosed", "StoreFileError", "StoreLocked", "WriteConflict",
           "WriteResult"]


# --------------------------------------------------------------------------- the store


_STORE_METHODS = ("records", "get", "lookup", "write", "search", "forget", "delete_user", "close")


class LongTermMemory(WritePath, HeldWrites):
    """Typed memories per scope, recalled by cosine similarity; in memory, durable with `path=` (SQLite) or
    `dsn=` (PostgreSQL with row-level security; an administrator's DSN, used once for setup), or any `store=`.

    `policy` decides what may be written (default: `policy.rules`); `clock`
    returns the current time in hours for recency. Without a clock the write
    order stands in for time: record number n was written at hour n.
    """

    def __init__(
        self,
        embedder: Embedder | None = None,
        path: str | Path | None = None,
        policy: Callable[[str], PolicyDecision] | None = None,
        *,
        clock: Callable[[], float] | None = None,
        store: MemoryStore | None = None,
        dsn: str | None = None,
        search: str = "vector",
    ):
        embedder = HashingEmbedder() if embedder is None else embedder
        name, dim = getattr(embedder, "name", None), getattr(embedder, "dim", None)
        if not isinstance(name, str) or not name or isinstance(dim, bool) or not isinstance(dim, int) or dim < 1:
            raise EmbeddingError("embedder needs a non-empty str `name`, a positive int `dim` and an `embed(texts)` method")
        if not callable(getattr(embedder, "embed", None)):
            raise EmbeddingError("embedder needs an `embed(texts)` method returning one row per text")
        if policy is not None and not callable(policy):
            raise MemorySetupError(f"policy must be a function of the content returning a PolicyDecision, got {policy!r}")
        if clock is not None and not callable(clock):
            raise MemorySetupError(f"clock must be a function returning hours as a float, got {clock!r}")
        if sum(x is not None for x in (store, path, dsn)) > 1:
            raise MemorySetupError("give at most one of path= (an SQLite file), dsn= (PostgreSQL) or store= (a backend)")
        if dsn is not None and not isinstance(dsn, str):
            raise MemorySetupError(f"dsn must be a PostgreSQL connection string, got {type(dsn).__name__}")
        if store is not None and not all(callable(getattr(store, m, None)) for m in _STORE_METHODS):
            raise MemorySetupError(f"store must be a storage backend ({', '.join(_STORE_METHODS)}), got {store!r:.60}")
        try:
            self._search = check_search(search)
        except InvalidQuery as bad:
            raise MemorySetupError(str(bad)) from None
        self._embedder = embedder
        self._policy = default_policy if policy is None else policy
        self._clock = clock
        self._lock = threading.RLock()
        self._closed = False
        if dsn is not None:  # PostgreSQL: an administrator's DSN; the store then connects as the application role
            from .storage.postgres import PostgresStore

            store = PostgresStore(dsn, embedder_name=name, dim=dim)
        if store is None:
            if path is None:
                from .storage.memory import InMemoryStore

                store = InMemoryStore(dim)
            else:
                from .storage.sqlite import SQLiteStore

                store = SQLiteStore(path, name, dim)
        self._store = store

    # ----------------------------------------------------------------- housekeeping

    @property
    def embedder(self) -> Embedder:
        return self._embedder

    @property
    def store(self) -> MemoryStore:
        """The storage backend (see `primer_memory.long_term.storage`)."""
        return self._store

    @property
    def durable(self) -> bool:
        """True when what is written outlives the process (an SQLite file, a database server)."""
        return bool(self._store.durable)

    def __repr__(self) -> str:
        where = "closed" if self._closed else self._store.label
        loaded = getattr(self._store, "partitions_loaded", None)
        extra = f", partitions loaded={loaded}" if loaded is not None else ""
        return f"LongTermMemory({where}, embedder={self._embedder.name}{extra})"

    def close(self) -> None:
        """Close the backend (an SQLite file is checkpointed first); the store cannot be used afterwards."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._store.close()

    def __enter__(self) -> LongTermMemory:
        return self

    def __reduce_ex__(self, protocol: object) -> NoReturn:  # pickle, copy.copy and copy.deepcopy all ask here
        raise MemorySetupError("a LongTermMemory holds an open store and cannot be copied or pickled; open another "
                               "one on the same path (or dsn) instead")

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open(self) -> None:
        if self._closed:
            raise StoreClosed("this LongTermMemory was closed; open a new one on the same path to go on")

    @property
    def clock(self) -> Callable[[], float] | None:
        """The clock this memory dates its records by (hours), or None when it counts writes instead."""
        return self._clock

    def _now(self) -> float | None:
        if self._clock is None:
            return None
        value = self._clock()
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise MemorySetupError(f"clock must return hours as a finite number, got {value!r}")
        return float(value)

    def _vectors(self, texts: list[str]) -> np.ndarray:
        raw = self._embedder.embed(texts)
        return check_vectors(raw, len(texts), self._embedder.dim, "the embedder")

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
        provenance: str = "user",
    ) -> WriteResult:
        """Store one memory if the write policy allows it; a keyed write supersedes that key's current value.

        Bad input raises (InvalidMemory, ScopeError) and changes nothing; content the policy skips or refuses
        returns `WriteResult(stored=False, reason)`. `provenance` says who it came from (user, assistant, tool,
        import; policy.provenance): only the user's can be a procedural memory or an instruction, a user's
        redirect of data or money is held (`result.held`) until `confirm` or `reject`, and a write never
        supersedes a more trusted value (user, then assistant, then tool and import): the reason names it.
        """
        entry = {"kind": kind, "content": content, "key": key, "source": source, "importance": importance}
        return self.remember_many(scope, [entry], provenance=provenance)[0]

    def remember_many(self, scope: Scope, entries: Iterable[Mapping[str, Any]], *,
                      provenance: str | None = None) -> list[WriteResult]:
        """Several `remember` calls in one transaction: all are checked before any is written.

        Each entry is a mapping with `kind` and `content`, and optionally `key`,
        `source`, `importance` and `provenance`. Results come back in the same order.
        `provenance=` says who the whole batch comes from (code inside the package always says it); an entry
        that names another provenance is refused (InvalidMemory), so a batch cannot smuggle in the user's trust.
        """
        check_scope(scope)
        checked = check_entries(entries, provenance=provenance)
        with self._lock:
            return self._remember_checked(scope, checked)

    # ----------------------------------------------------------------- reading

    def _query_vector(self, query: str) -> np.ndarray:
        return self._vectors([query])[0]

    def recall(
        self,
        scope: Scope,
        query: str,
        k: int = 3,
        kinds: Sequence[str] = KINDS,
        *,
        min_score: float | None = None,
        search: str | None = None,
    ) -> list[MemoryRecord]:
        """The k current records of the caller's scope most similar to `query` (cosine), best first.

        Only the chosen kinds are searched. Every current record counts, so fewer
        than k come back only when the scope holds fewer; with `min_score`, records
        whose cosine is below it are left out (possibly all of them). `search="hybrid"` (or the memory's
        own `search=`) fuses the cosine ranking with a BM25 ranking of the same records (`hybrid`).
        """
        return [record for record, _ in self.recall_with_scores(scope, query, k, kinds, min_score=min_score,
                                                                search=search)]

    def recall_with_scores(
        self,
        scope: Scope,
        query: str,
        k: int = 3,
        kinds: Sequence[str] = KINDS,
        *,
        min_score: float | None = None,
        search: str | None = None,
    ) -> list[tuple[MemoryRecord, float]]:
        """`recall`, with each record's cosine similarity to the question (in hybrid mode, its fused rank score)."""
        check_scope(scope)
        check_query(query)
        check_k(k)
        chosen = check_kinds(kinds)
        floor = None if min_score is None else check_floor(min_score)
        mode = self._search if search is None else check_search(search)
        with self._lock:
            self._open()
            if mode == "hybrid":
                return hybrid_search(self._store, scope, query, self._query_vector(query), k, chosen, floor)
            found = self._store.search(scope, self._query_vector(query), k, chosen)
            return found if floor is None else [(r, s) for r, s in found if s >= floor]

    def get(self, scope: Scope, record_id: str) -> MemoryRecord:
        """The record with this id as stored now (is it still current?); RecordNotFound outside the caller's scope."""
        check_scope(scope)
        with self._lock:
            self._open()
            record = self._store.get(scope, record_id) if findable_id(record_id) else None
        if record is None:
            raise RecordNotFound(f"no record {record_id!r} in scope {scope}; ids of other scopes are not searched")
        return record

    def similarities(self, scope: Scope, query: str, kinds: Sequence[str] = KINDS) -> list[tuple[MemoryRecord, float]]:
        """Every current record of the chosen kinds with its cosine similarity to `query`, oldest first.

        This is what recall ranks; figures and widgets use it to show the whole picture.
        """
        check_scope(scope)
        check_query(query)
        chosen = check_kinds(kinds)
        with self._lock:
            self._open()
            return self._store.scan(scope, self._query_vector(query), chosen)

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
        min_score: float | None = None,
    ) -> list[ScoredMemory]:
        """Generative Agents' retrieval: score = w_rel*relevance + w_rec*recency + w_imp*importance.

        Each part is min-max normalised over the candidates (every current record
        of the chosen kinds, with a cosine of at least `min_score` if given);
        recency = 0.995 ** hours since last access; a part equal for every
        candidate counts 1 (or 0 if it is 0 everywhere). `now` defaults to the
        clock, or to the latest write of the scope. Recall does not count as an
        access unless `touch=True`: then the returned records are accessed at `now`.
        """
        check_scope(scope)
        check_query(query)
        check_k(k)
        chosen = check_kinds(kinds)
        weights = [
            check_weight("w_relevance", w_relevance),
            check_weight("w_recency", w_recency),
            check_weight("w_importance", w_importance),
        ]
        if now is not None and (isinstance(now, bool) or not isinstance(now, (int, float)) or not math.isfinite(now)):
            raise InvalidQuery(f"now must be a finite number of hours, got {now!r}")
        if not isinstance(touch, bool):
            raise InvalidQuery(f"touch must be True or False, got {touch!r}")
        floor = None if min_score is None else check_floor(min_score)
        with self._lock:
            self._open()
            q = self._query_vector(query)
            pairs = self._store.scan(scope, q, chosen)
            if floor is not None:
                pairs = [(r, s) for r, s in pairs if s >= floor]
            if not pairs:
                return []
            clock_now = self._now()
            if now is not None:
                when = float(now)
            else:
                when = clock_now if clock_now is not None else float(self._store.last_seq(scope))
            results = rank(pairs, when, weights, k)
            if touch:
                self._store.touch(scope, [r.record.id for r in results], when)
                results = [replace(r, record=replace(r.record, last_access=when)) for r in results]
            return results

    def history(self, scope: Scope, key: str) -> list[MemoryRecord]:
        """Every value a key has had in this scope, oldest first, superseded ones included, each with its source."""
        check_scope(scope)
        if check_key(key) is None:
            raise InvalidMemory("history needs a key such as 'fiscal_year_start', got None")
        with self._lock:
            self._open()
            return self._store.records(scope, key)

    def export(self, scope: Scope, path: str | Path | None = None, *, overwrite: bool = False) -> list[dict[str, Any]]:
        """Everything held about one scope (superseded values too) as JSON-ready dicts, oldest first.

        With `path`, the same list is also written there as UTF-8 JSON (a data-access request, GDPR Art. 15),
        all at once. An existing file is replaced only with `overwrite=True`; a link, a folder or the store's
        own file never (ExportFileError, nothing changed; see `export_file`).
        """
        check_scope(scope)
        given = None if path is None else check_export_target(
            path, overwrite=overwrite, protected=getattr(self._store, "own_files", ()))
        with self._lock:
            self._open()
            data = [r.to_dict() for r in self._store.records(scope)]
        if given is not None:
            write_export(given, data, overwrite=bool(overwrite))
        return data

    # ----------------------------------------------------------------- erasing

    def forget(self, scope: Scope, record_id: str) -> MemoryRecord:
        """Erase one record of the caller's scope and return what it held.

        Only the caller's partition is searched, so an id from another scope is
        simply not found. Forgetting a key's current value leaves the key with
        no current value; its older values stay superseded. A keyed record leaves
        a tombstone in its key's history (`forgotten=True`, content erased);
        forgetting a tombstone again changes nothing.
        """
        check_scope(scope)
        with self._lock:
            self._open()
            record = self._store.get(scope, record_id) if findable_id(record_id) else None
            if record is not None and not record.forgotten:
                record = self._store.forget(scope, record_id, tombstone=record.key is not None)
            if record is None:
                raise RecordNotFound(f"no record {record_id!r} in scope {scope}; ids of other scopes are not searched")
            return record

    def delete_user(self, scope: Scope) -> int:
        """Erase everything held about one scope: records, history, vectors, caches, and the bytes on disk.

        Returns how many records were erased (GDPR Art. 17). Other scopes, even
        in the same tenant, keep theirs.
        """
        check_scope(scope)
        with self._lock:
            self._open()
            count = self._store.delete_user(scope)
            self._drop_held(scope)  # writes held for confirmation are data about the user too
            clear = getattr(self._embedder, "clear_cache", None)
            if callable(clear):
                clear()
            return count
