"""One scope held in memory: every record, and the vectors of the current ones as one float32 matrix.

The in-memory backend keeps one `Partition` per scope; the SQLite backend keeps
the same as a cache over its file. Search is one matrix product over the
partition's current rows, `argpartition` for the top k, then the few rows near
the cut re-scored exactly in float64 so a reopened store ranks exactly as the
one that wrote it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..records import KINDS, MemoryRecord, Scope
from . import TextKey

__all__ = ["Partition", "VectorIndex"]

_KIND_CODE = {kind: i for i, kind in enumerate(KINDS)}
_TIE_EPS = 1e-4  # float32 scores closer than this to the k-th are re-scored exactly in float64


class VectorIndex:
    """The current records of one partition: one float32 matrix plus per-row facts, in parallel arrays.

    Rows grow by half again when full; removing a row moves the last row into its
    place, so every change is O(dim) and search reads one contiguous block.
    """

    __slots__ = ("dim", "ids", "pos", "matrix", "kinds", "seqs", "n")

    _ARRAYS = ("matrix", "kinds", "seqs")

    def __init__(self, dim: int, capacity: int = 8):
        self.dim = dim
        self.ids: list[str] = []
        self.pos: dict[str, int] = {}
        self.matrix = np.zeros((capacity, dim), dtype=np.float32)
        self.kinds = np.zeros(capacity, dtype=np.int8)  # position in KINDS
        self.seqs = np.zeros(capacity, dtype=np.int64)
        self.n = 0

    def _grow(self, needed: int) -> None:
        capacity = len(self.seqs)
        if needed <= capacity:
            return
        new = max(needed, capacity + capacity // 2)
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

    def exact(self, rows: np.ndarray, q: np.ndarray) -> np.ndarray:
        """float64 cosines for a few rows, summed row by row: the same bits wherever a row sits in the matrix.

        (BLAS float32 products can differ in the last bit with a row's position, which
        would let a reopened store break a near-tie differently from the one that wrote it.)
        """
        return (self.matrix[rows].astype(np.float64) * q.astype(np.float64)).sum(axis=1)


class Partition:
    """Everything held for one scope: all records (history included) and the index of current ones."""

    __slots__ = ("scope", "records", "current_key", "current_text", "next_seq", "generation", "index")

    def __init__(self, scope: Scope, dim: int, next_seq: int = 1, generation: int = 0):
        self.scope = scope
        self.records: dict[str, MemoryRecord] = {}
        self.current_key: dict[str, str] = {}
        self.current_text: dict[TextKey, str] = {}
        self.next_seq = next_seq
        self.generation = generation
        self.index = VectorIndex(dim)

    def add_current(self, records: Sequence[MemoryRecord], vectors: np.ndarray) -> None:
        """Register current records (already in `self.records`) with their vectors."""
        self.index.add(records, vectors)
        for record in records:
            self.current_text[(record.kind, record.key, record.content)] = record.id
            if record.key is not None:
                self.current_key[record.key] = record.id

    def drop_current(self, record: MemoryRecord) -> None:
        """Take a record that is no longer current out of the index and the lookups."""
        self.index.remove(record.id)
        self.current_text.pop((record.kind, record.key, record.content), None)
        if record.key is not None and self.current_key.get(record.key) == record.id:
            del self.current_key[record.key]

    def search(self, q: np.ndarray, k: int, kinds: tuple[str, ...]) -> list[tuple[MemoryRecord, float]]:
        """The k best current rows of `kinds`: one matrix product, argpartition, then an exact float64 tie-break."""
        index = self.index
        if not index.n:
            return []
        scores = index.matrix[: index.n] @ q  # the one matrix product: every current record at once
        rows = index.candidates(kinds)
        if rows is None:
            band = _top_band(scores, k)
        else:
            if not len(rows):
                return []
            band = rows[_top_band(scores[rows], k)]
        exact = index.exact(band, q)
        order = np.lexsort((-index.seqs[band], -exact))[:k]  # best score first; ties to the newer record
        ids, records = index.ids, self.records
        return [(records[ids[row]], score) for row, score in zip(band[order].tolist(), exact[order].tolist())]

    def scan(self, q: np.ndarray, kinds: tuple[str, ...]) -> list[tuple[MemoryRecord, float]]:
        """Every current record of `kinds` with its exact cosine, oldest first."""
        index = self.index
        rows = index.candidates(kinds)
        rows = np.arange(index.n) if rows is None else rows
        if not len(rows):
            return []
        rows = rows[np.argsort(index.seqs[rows], kind="stable")]
        exact = index.exact(rows, q)
        return [(self.records[index.ids[r]], float(s)) for r, s in zip(rows, exact)]


def _top_band(scores: np.ndarray, k: int) -> np.ndarray:
    """Positions of the k best scores plus any within _TIE_EPS of the k-th (to be settled exactly)."""
    n = len(scores)
    if n <= k:
        return np.arange(n)
    kth = scores[np.argpartition(scores, n - k)[n - k]]  # argpartition puts the k-th largest at n - k
    return np.flatnonzero(scores >= kth - _TIE_EPS)
