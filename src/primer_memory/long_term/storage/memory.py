"""The in-memory backend: one `Partition` per scope in a dict; gone when the process ends."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

import numpy as np

from ..records import MemoryRecord, Scope
from . import NewRecord, TextKey, make_records
from ..lexical import LexicalIndex
from .partition import Partition

__all__ = ["InMemoryStore"]


class InMemoryStore:
    """Records per scope in plain Python objects and one float32 matrix per scope."""

    label = "in memory"
    durable = False

    def __init__(self, dim: int):
        self.dim = dim
        self._partitions: dict[Scope, Partition] = {}
        self._erasures = 0  # delete_user calls so far: a new partition's generation, so ids are never reused

    @property
    def partitions_loaded(self) -> int:
        """How many scopes are held right now."""
        return len(self._partitions)

    def _partition(self, scope: Scope) -> Partition:
        """The caller's partition, or a new empty one (registered on its first write)."""
        part = self._partitions.get(scope)
        return part if part is not None else Partition(scope, self.dim, generation=self._erasures)

    # ----------------------------------------------------------------- reading

    def records(self, scope: Scope, key: str | None = None) -> list[MemoryRecord]:
        part = self._partition(scope)
        out = [r for r in part.records.values() if key is None or r.key == key]
        return sorted(out, key=lambda r: r.seq)

    def get(self, scope: Scope, record_id: str) -> MemoryRecord | None:
        return self._partition(scope).records.get(record_id)

    def lookup(
        self, scope: Scope, keys: Iterable[str], texts: Iterable[TextKey]
    ) -> tuple[dict[str, MemoryRecord], dict[TextKey, MemoryRecord]]:
        part = self._partition(scope)
        by_key = {k: r for k in keys if (r := part.current_of_key(k)) is not None}
        by_text = {t: r for t in texts if (r := part.current_with_text(t)) is not None}
        return by_key, by_text

    def search(
        self, scope: Scope, vector: np.ndarray, k: int, kinds: tuple[str, ...]
    ) -> list[tuple[MemoryRecord, float]]:
        part = self._partition(scope)
        by_seq = part.by_seq
        return [(by_seq[seq], score) for seq, score in part.index.search(vector, k, kinds)]

    def lexical_search(self, scope: Scope, query: str, k: int, kinds: tuple[str, ...]
                       ) -> list[tuple[MemoryRecord, float]]:
        """The k current records of `kinds` best by BM25 with neighbour context (`lexical`), best first."""
        part = self._partition(scope)
        if part.lexical is None:  # built on first use: a memory never searched by words pays nothing for it
            part.lexical = LexicalIndex().update((), [r for r in part.records.values() if r.current])
        return [(part.by_seq[seq], score) for seq, score in part.lexical.search(query, k, kinds)]

    def scan(self, scope: Scope, vector: np.ndarray, kinds: tuple[str, ...]) -> list[tuple[MemoryRecord, float]]:
        part = self._partition(scope)
        return [(part.by_seq[seq], score) for seq, score in part.index.scan(vector, kinds)]

    def last_seq(self, scope: Scope) -> int:
        return self._partition(scope).next_seq - 1

    # ----------------------------------------------------------------- writing

    def write(self, scope: Scope, new: Sequence[NewRecord], vectors: np.ndarray) -> list[MemoryRecord]:
        part = self._partition(scope)

        def current(rid: str) -> MemoryRecord | None:
            record = part.records.get(rid)
            return record if record is not None and record.current else None

        made, superseded = make_records(scope, new, part.next_seq, part.generation, current)
        self._partitions[scope] = part
        part.next_seq += len(made)
        fresh = {r.id for r in made}
        for record in made:
            part.put(record)
        for old, successor in superseded.items():
            if old not in fresh:  # it was current before this batch: take it out of the index
                stale = part.records[old]
                part.put(replace(stale, superseded_by=successor))
                part.index.remove(stale.seq)
                if part.lexical is not None:
                    part.lexical.remove(stale.seq, stale.content)
        rows = [i for i, r in enumerate(made) if r.current]
        part.index.add([made[i] for i in rows], vectors[rows])
        if part.lexical is not None:
            part.lexical.update((), [made[i] for i in rows])
        return made

    def touch(self, scope: Scope, record_ids: Sequence[str], when: float) -> None:
        part = self._partition(scope)
        for record in [part.records[rid] for rid in record_ids]:
            part.put(replace(record, last_access=when))

    def forget(self, scope: Scope, record_id: str, *, tombstone: bool) -> MemoryRecord | None:
        part = self._partition(scope)
        record = part.records.get(record_id)
        if record is None:
            return None
        if record.current:
            part.index.remove(record.seq)
            if part.lexical is not None:
                part.lexical.remove(record.seq, record.content)
        if tombstone:
            part.put(replace(record, content="", forgotten=True))
        else:
            part.drop(record)
        return record

    def delete_user(self, scope: Scope) -> int:
        count = len(self._partition(scope).records)
        self._partitions.pop(scope, None)
        self._erasures += 1
        return count

    def close(self) -> None:
        self._partitions.clear()
