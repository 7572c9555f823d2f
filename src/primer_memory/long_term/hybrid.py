"""Search modes for recall: "vector" (the lesson's cosine) and "hybrid" (cosine and BM25, fused by rank).

In hybrid mode the vector ranking and the lexical ranking (lexical.py) of the caller's partition are each taken
to DEPTH records, then fused by reciprocal rank (`lexical.fuse`); the score a record comes back with is its fused
score, not a cosine. `min_score` keeps its meaning, a floor on the cosine: it filters the vector ranking only, so
a record below it can still come back because it shares the question's words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .lexical import fuse
from .records import InvalidQuery, MemoryRecord, Scope

__all__ = ["DEPTH", "SEARCH_MODES", "check_search", "hybrid_search"]

SEARCH_MODES = ("vector", "hybrid")
DEPTH = 100
"""How far down each ranking fusion reads (at least k)."""


def check_search(mode: Any) -> str:
    """A search mode, or InvalidQuery naming the modes."""
    if mode not in SEARCH_MODES:
        raise InvalidQuery(f"search must be one of {', '.join(map(repr, SEARCH_MODES))}, got {mode!r:.40}")
    return mode


def hybrid_search(store: Any, scope: Scope, query: str, vector: np.ndarray, k: int, kinds: Sequence[str],
                  floor: float | None) -> list[tuple[MemoryRecord, float]]:
    """The k best current records of `kinds` by fused rank, best first, each with its fused score."""
    lexical = getattr(store, "lexical_search", None)
    if lexical is None:
        raise InvalidQuery(f"search='hybrid' needs a lexical index, which the {getattr(store, 'label', 'given')} "
                           "backend does not keep (it has no lexical_search); use search='vector' with it")
    depth = max(k, DEPTH)
    by_vector = store.search(scope, vector, depth, tuple(kinds))
    if floor is not None:
        by_vector = [(r, s) for r, s in by_vector if s >= floor]
    by_words = lexical(scope, query, depth, tuple(kinds))
    records = {r.seq: r for r, _ in by_vector} | {r.seq: r for r, _ in by_words}
    fused = fuse(([r.seq for r, _ in by_vector], [r.seq for r, _ in by_words]), k)
    return [(records[seq], score) for seq, score in fused]
