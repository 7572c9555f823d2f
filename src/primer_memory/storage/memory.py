"""The in-memory backend: one `Partition` per scope in a dict; gone when the process ends.

It is also the cache the SQLite backend builds on: every write goes through
`_persist_*` hooks (nothing to do here) before the partition changes, so a
failed write leaves memory as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

import numpy as np

from ..records import MemoryRecord, Scope, WriteConflict
from . import NewRecord, TextKey, record_id
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
        """How many scopes are held in memory right now."""
        return len(self._partitions)

    # ----------------------------------------------------------------- partitions

    def _partition(self, scope: Scope) -> Partition:
        """The caller's partition: cached, loaded, or new and empty (registered on its first write)."""
        part = self._partitions.get(scope)
        if part is None:
            part = self._load(scope)
            if part.records or part.next_seq > 1:
                self._partitions[scope] = part
        return part

    def _load(self, scope: Scope) -> Partition:
        return Partition(scope, self.dim, generation=self._erasures)

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
        by_key = {k: part.records[part.current_key[k]] for k in keys if k in part.current_key}
        by_text = {t: part.records[part.current_text[t]] for t in texts if t in part.current_text}
        return by_key, by_text

    def search(
        self, scope: Scope, vector: np.ndarray, k: int, kinds: tuple[str, ...]
    ) -> list[tuple[MemoryRecord, float]]:
        return self._partition(scope).search(vector, k, kinds)

    def scan(self, scope: Scope, vector: np.ndarray, kinds: tuple[str, ...]) -> list[tuple[MemoryRecord, float]]:
        return self._partition(scope).scan(vector, kinds)

    def last_seq(self, scope: Scope) -> int:
        return self._partition(scope).next_seq - 1

    # ----------------------------------------------------------------- writing

    def write(self, scope: Scope, new: Sequence[NewRecord], vectors: np.ndarray) -> list[MemoryRecord]:
        part = self._partition(scope)
        seq = part.next_seq
        made: list[MemoryRecord] = []
        superseded: dict[str, str] = {}  # old id -> id of the record that replaces it
        for plan in new:
            when = float(seq) if plan.created_at is None else plan.created_at
            rid = record_id(scope, seq, part.generation)
            made.append(MemoryRecord(rid, scope, plan.kind, plan.content, plan.key, plan.source, seq, None,
                                     plan.importance, when, when))
            if isinstance(plan.supersedes, int):
                superseded[made[plan.supersedes].id] = rid
            elif plan.supersedes is not None:
                old = part.records.get(plan.supersedes)
                if old is None or not old.current:
                    raise WriteConflict(f"record {plan.supersedes!r} is no longer current in {scope}; write again")
                superseded[plan.supersedes] = rid
            seq += 1
        made = [replace(r, superseded_by=superseded[r.id]) if r.id in superseded else r for r in made]
        self._persist_write(part, made, vectors, superseded, seq)
        # Applied only after the transaction committed, so a failed write leaves memory as it was.
        self._partitions[scope] = part
        part.next_seq = seq
        fresh = {r.id for r in made}
        for record in made:
            part.records[record.id] = record
        for old, sup in superseded.items():
            if old not in fresh:  # it was current before this batch: take it out of the index
                stale = part.records[old]
                part.records[old] = replace(stale, superseded_by=sup)
                part.drop_current(stale)
        current = [i for i, r in enumerate(made) if r.current]
        part.add_current([made[i] for i in current], vectors[current])
        return made

    def touch(self, scope: Scope, record_ids: Sequence[str], when: float) -> None:
        part = self._partition(scope)
        records = [part.records[rid] for rid in record_ids]
        self._persist_touch(part, records, when)
        for record in records:
            part.records[record.id] = replace(record, last_access=when)

    def forget(self, scope: Scope, record_id: str, *, tombstone: bool) -> MemoryRecord | None:
        part = self._partition(scope)
        record = part.records.get(record_id)
        if record is None:
            return None
        stone = replace(record, content="", forgotten=True) if tombstone else None
        self._persist_forget(part, record, stone)
        if record.current and not record.forgotten:
            part.drop_current(record)
        if stone is None:
            del part.records[record_id]
        else:
            part.records[record_id] = stone
        return record

    def delete_user(self, scope: Scope) -> int:
        part = self._partition(scope)
        count = len(part.records)
        self._persist_delete_user(part)
        self._partitions.pop(scope, None)
        self._erasures += 1
        return count

    def close(self) -> None:
        self._partitions.clear()

    # ----------------------------------------------------------------- persistence hooks (none here)

    def _persist_write(
        self, part: Partition, made: list[MemoryRecord], vectors: np.ndarray, superseded: dict[str, str], next_seq: int
    ) -> None:
        """Write new records and supersession links in one transaction (the SQLite backend does)."""

    def _persist_touch(self, part: Partition, records: list[MemoryRecord], when: float) -> None:
        """Store new last-access times."""

    def _persist_forget(self, part: Partition, record: MemoryRecord, stone: MemoryRecord | None) -> None:
        """Delete one row, or replace it by its tombstone."""

    def _persist_delete_user(self, part: Partition) -> None:
        """Delete every row of one scope."""
