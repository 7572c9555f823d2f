"""Where long-term memories are kept: one small protocol, one module per backend.

`LongTermMemory` (in `long_term`) holds every rule: the write policy, what
supersedes what, validation, ranking. A backend only stores records of one
scope at a time and answers a few questions about them. Every method takes the
caller's `Scope` first and must never read or change another scope's rows.

Backends: `memory.InMemoryStore` (the default), `sqlite.SQLiteStore` (one file,
`LongTermMemory(path=...)`). A PostgreSQL one implements the same protocol. A backend may also offer
`lexical_search(scope, query, k, kinds)` (BM25 over the scope's current records, `long_term.lexical`), which
`search="hybrid"` needs; all three here do, and score with the same function.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol, runtime_checkable

import numpy as np

from ..records import MemoryRecord, Scope, WriteConflict

__all__ = ["MemoryStore", "NewRecord", "TextKey", "make_records", "record_id"]

TextKey = tuple[str, "str | None", str]
"""(kind, key, content): two current records with the same text key are duplicates."""


@dataclass(frozen=True, slots=True)
class NewRecord:
    """One record to insert, as planned by the memory logic; the backend gives it its seq and id.

    `supersedes` names the record this one replaces: the id of a current record
    already stored, or the position of an earlier entry of the same batch.
    `created_at` None means "the write order stands in for time" (the seq).
    """

    kind: str
    content: str
    key: str | None
    source: str
    importance: int
    created_at: float | None = None
    supersedes: str | int | None = None
    provenance: str = "user"


def record_id(scope: Scope, seq: int, generation: int = 0) -> str:
    """A short id, the same on every run, different across scopes (so one scope never finds another's).

    `generation` counts the erasures the store had seen when the scope's partition
    was opened, so a user written again after `delete_user` never gets an old id back.
    """
    raw = f"{scope.tenant_id}\x00{scope.user_id}\x00{seq}"
    if generation:
        raw += f"\x00{generation}"
    return "mem-" + hashlib.blake2b(raw.encode(), digest_size=5).hexdigest()


def make_records(
    scope: Scope, new: Sequence[NewRecord], next_seq: int, generation: int,
    current: Callable[[str], MemoryRecord | None],
) -> tuple[list[MemoryRecord], dict[str, str]]:
    """Give each planned record its seq and id; return the records and {superseded id: id of its successor}.

    `current(id)` returns the stored record with that id if it is current; a
    `supersedes` id it does not confirm raises WriteConflict before anything is written.
    """
    made: list[MemoryRecord] = []
    superseded: dict[str, str] = {}
    for seq, plan in enumerate(new, start=next_seq):
        when = float(seq) if plan.created_at is None else plan.created_at
        rid = record_id(scope, seq, generation)
        made.append(MemoryRecord(rid, scope, plan.kind, plan.content, plan.key, plan.source, seq, None,
                                 plan.importance, when, when, provenance=plan.provenance))
        if isinstance(plan.supersedes, int):
            superseded[made[plan.supersedes].id] = rid
        elif plan.supersedes is not None:
            if current(plan.supersedes) is None:
                raise WriteConflict(f"record {plan.supersedes!r} is no longer current in {scope}; write again")
            superseded[plan.supersedes] = rid
    made = [replace(r, superseded_by=superseded[r.id]) if r.id in superseded else r for r in made]
    return made, superseded


@runtime_checkable
class MemoryStore(Protocol):
    """What `LongTermMemory` needs from storage. Each call is about one scope; each write is one transaction."""

    label: str
    """How the store describes itself in a repr ("in memory", "SQLite file"); never a path or a password."""

    durable: bool
    """True when what is written outlives the process."""

    def records(self, scope: Scope, key: str | None = None) -> list[MemoryRecord]:
        """Every record of the scope (superseded ones and tombstones too), oldest first; only `key`'s if given."""
        ...

    def get(self, scope: Scope, record_id: str) -> MemoryRecord | None:
        """The record with this id in this scope as stored now, or None (ids of other scopes are not found)."""
        ...

    def lookup(
        self, scope: Scope, keys: Iterable[str], texts: Iterable[TextKey]
    ) -> tuple[dict[str, MemoryRecord], dict[TextKey, MemoryRecord]]:
        """The current record of each key, and the current record with each (kind, key, content), where one exists."""
        ...

    def write(self, scope: Scope, new: Sequence[NewRecord], vectors: np.ndarray) -> list[MemoryRecord]:
        """Insert `new` (one unit-length float32 row each) and mark what each supersedes, all in ONE transaction.

        Seqs and ids are allocated here, in order, never reused (not after forget,
        not after delete_user). Returns the stored records in the order given. A
        `supersedes` id that is not current raises WriteConflict. On any error
        nothing is written.
        """
        ...

    def search(
        self, scope: Scope, vector: np.ndarray, k: int, kinds: tuple[str, ...]
    ) -> list[tuple[MemoryRecord, float]]:
        """The k current records of `kinds` with the highest cosine to `vector`, best first, ties to the newer.

        Every current record counts, whatever its cosine (negative too); fewer than k
        come back only when fewer exist. Cosines are float64, computed per row.
        """
        ...

    def scan(self, scope: Scope, vector: np.ndarray, kinds: tuple[str, ...]) -> list[tuple[MemoryRecord, float]]:
        """Every current record of `kinds` with its cosine to `vector`, oldest first (for scoring and figures)."""
        ...

    def last_seq(self, scope: Scope) -> int:
        """The highest seq ever given out in this scope (0 if none): where the write order stands now."""
        ...

    def touch(self, scope: Scope, record_ids: Sequence[str], when: float) -> None:
        """Set `last_access` of these records to `when`, in one transaction."""
        ...

    def forget(self, scope: Scope, record_id: str, *, tombstone: bool) -> MemoryRecord | None:
        """Erase one record (content and vector) and return it as it was; None if not in this scope.

        With `tombstone`, a row stays behind holding only its id, kind, key, seq,
        source and links, so the key's history can say a value was forgotten.
        """
        ...

    def delete_user(self, scope: Scope) -> int:
        """Erase every row of the scope, tombstones too, and return how many there were.

        The scope starts again at seq 1, with ids that differ from every erased one.
        """
        ...

    def close(self) -> None:
        """Release files or connections; idempotent."""
        ...
