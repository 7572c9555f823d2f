"""The current records of one scope as arrays: one float32 matrix of vectors plus a few numbers per row.

Both local backends search this way: the in-memory one keeps a `Partition`
(the index plus every record object), the SQLite one keeps only the index as a
cache over its file. Rows are keyed by seq. Search is one matrix product,
`argpartition` for the top k, then the few rows near the cut re-scored exactly
in float64, so a reopened store ranks exactly as the one that wrote it.
Duplicates and a key's current value are found through 64-bit hashes of
(kind, key, content) and of the key, checked against the record itself.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from ..lexical import LexicalIndex
from ..records import KINDS, MemoryRecord, Scope
from . import TextKey

__all__ = ["Partition", "ScopeCache", "VectorIndex", "key_hash", "text_hash"]

_KIND_CODE = {kind: i for i, kind in enumerate(KINDS)}
_TIE_EPS = 1e-4  # float32 scores closer than this to the k-th are re-scored exactly in float64
_EXACT_CHUNK = 256  # rows re-scored at a time: 256 x 512 float64 is 1 MB, within a core's cache


def _hash(raw: str) -> int:
    return int.from_bytes(hashlib.blake2b(raw.encode(), digest_size=8).digest(), "little", signed=True)


def text_hash(kind: str, key: str | None, content: str) -> int:
    """64 bits standing for (kind, key, content): equal texts, equal hashes (a match is then checked in full)."""
    return _hash(f"{kind}\x00{'' if key is None else key}\x00{key is None}\x00{content}")


def key_hash(key: str | None) -> int:
    """64 bits standing for a key (0 for no key)."""
    return 0 if key is None else (_hash(key) or 1)


class VectorIndex:
    """Current rows in parallel arrays: vector, kind, seq, text hash, key hash.

    Rows grow by half again when full; removing a row moves the last row into its
    place, so search always reads one contiguous block.
    """

    __slots__ = ("dim", "matrix", "kinds", "seqs", "texts", "keys", "n")

    _ARRAYS = ("matrix", "kinds", "seqs", "texts", "keys")

    def __init__(self, dim: int, capacity: int = 8):
        self.dim = dim
        capacity = max(capacity, 1)
        self.matrix = np.zeros((capacity, dim), dtype=np.float32)
        self.kinds = np.zeros(capacity, dtype=np.int8)  # position in KINDS
        self.seqs = np.zeros(capacity, dtype=np.int64)
        self.texts = np.zeros(capacity, dtype=np.int64)
        self.keys = np.zeros(capacity, dtype=np.int64)
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
        self.texts[lo:hi] = [text_hash(r.kind, r.key, r.content) for r in records]
        self.keys[lo:hi] = [key_hash(r.key) for r in records]
        self.n = hi

    def load(self, seqs: Sequence[int], kinds: Sequence[int], texts: Sequence[int], keys: Sequence[int],
             matrix: np.ndarray) -> None:
        """Append rows read from a file, columns already computed (kinds as positions in KINDS)."""
        m = len(seqs)
        self._grow(self.n + m)
        lo, hi = self.n, self.n + m
        self.matrix[lo:hi] = matrix
        self.kinds[lo:hi] = kinds
        self.seqs[lo:hi] = seqs
        self.texts[lo:hi] = texts
        self.keys[lo:hi] = keys
        self.n = hi

    def remove(self, seq: int) -> None:
        """Drop the row of this seq (if it is here)."""
        found = np.flatnonzero(self.seqs[: self.n] == seq)
        if not len(found):
            return
        i, last = int(found[0]), self.n - 1
        if i != last:
            for name in self._ARRAYS:
                array = getattr(self, name)
                array[i] = array[last]
        self.matrix[last] = 0.0
        self.n = last

    def seqs_with_text(self, text: TextKey) -> list[int]:
        return self.seqs[: self.n][self.texts[: self.n] == text_hash(*text)].tolist()

    def seqs_with_key(self, key: str) -> list[int]:
        return self.seqs[: self.n][self.keys[: self.n] == key_hash(key)].tolist()

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
        q64 = q.astype(np.float64)
        if len(rows) <= _EXACT_CHUNK:  # float32 * float64 is float64: the product of the cast rows, to the bit
            return (self.matrix[rows] * q64).sum(axis=1)
        out = np.empty(len(rows), dtype=np.float64)
        buffer = np.empty((min(len(rows), _EXACT_CHUNK), self.dim), dtype=np.float64)
        for lo in range(0, len(rows), _EXACT_CHUNK):  # in chunks that stay in cache: the same bits, 3x faster
            part = rows[lo:lo + _EXACT_CHUNK]
            products = buffer[: len(part)]
            np.multiply(self.matrix[part], q64, out=products)
            products.sum(axis=1, out=out[lo:lo + len(part)])
        return out

    def search(self, q: np.ndarray, k: int, kinds: tuple[str, ...]) -> list[tuple[int, float]]:
        """(seq, cosine) of the k best current rows of `kinds`, best first, ties to the newer (higher seq)."""
        if not self.n:
            return []
        scores = self.matrix[: self.n] @ q  # the one matrix product: every current record at once
        rows = self.candidates(kinds)
        if rows is None:
            band = _top_band(scores, k)
        else:
            if not len(rows):
                return []
            band = rows[_top_band(scores[rows], k)]
        exact = self.exact(band, q)
        order = np.lexsort((-self.seqs[band], -exact))[:k]
        return list(zip(self.seqs[band[order]].tolist(), exact[order].tolist()))

    def scan(self, q: np.ndarray, kinds: tuple[str, ...]) -> list[tuple[int, float]]:
        """(seq, exact cosine) of every current row of `kinds`, oldest first."""
        rows = self.candidates(kinds)
        rows = np.arange(self.n) if rows is None else rows
        if not len(rows):
            return []
        rows = rows[np.argsort(self.seqs[rows], kind="stable")]
        return list(zip(self.seqs[rows].tolist(), self.exact(rows, q).tolist()))


class Partition:
    """Everything the in-memory backend holds for one scope: every record (history too), the vector index and the
    lexical one (BM25 over the current records)."""

    __slots__ = ("scope", "records", "by_seq", "next_seq", "generation", "index", "lexical")

    def __init__(self, scope: Scope, dim: int, next_seq: int = 1, generation: int = 0):
        self.scope = scope
        self.records: dict[str, MemoryRecord] = {}
        self.by_seq: dict[int, MemoryRecord] = {}
        self.next_seq = next_seq
        self.generation = generation
        self.index = VectorIndex(dim)
        self.lexical: LexicalIndex | None = None  # built on the first lexical search, then kept by every write

    def put(self, record: MemoryRecord) -> None:
        self.records[record.id] = record
        self.by_seq[record.seq] = record

    def drop(self, record: MemoryRecord) -> None:
        del self.records[record.id]
        del self.by_seq[record.seq]

    def current_with_text(self, text: TextKey) -> MemoryRecord | None:
        for seq in self.index.seqs_with_text(text):
            record = self.by_seq[seq]
            if (record.kind, record.key, record.content) == text:
                return record
        return None

    def current_of_key(self, key: str) -> MemoryRecord | None:
        for seq in self.index.seqs_with_key(key):
            if self.by_seq[seq].key == key:
                return self.by_seq[seq]
        return None


class ScopeCache:
    """What a file-backed store (SQLite) holds in memory for one scope: the vector index, the next seq, the id
    generation, and the lexical index once a hybrid search asked for it (built from the current records)."""

    __slots__ = ("index", "next_seq", "generation", "lexical")

    def __init__(self, index: VectorIndex, next_seq: int, generation: int):
        self.index, self.next_seq, self.generation = index, next_seq, generation
        self.lexical: LexicalIndex | None = None


def _top_band(scores: np.ndarray, k: int) -> np.ndarray:
    """Positions of the k best scores plus any within _TIE_EPS of the k-th (to be settled exactly)."""
    n = len(scores)
    if n <= k:
        return np.arange(n)
    kth = scores[np.argpartition(scores, n - k)[n - k]]  # argpartition puts the k-th largest at n - k
    return np.flatnonzero(scores >= kth - _TIE_EPS)
