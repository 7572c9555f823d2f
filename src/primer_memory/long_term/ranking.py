"""Generative Agents' ranking: relevance, recency and importance, each min-max normalised over the candidates."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .records import RECENCY_DECAY, MemoryRecord, ScoredMemory

__all__ = ["normalise", "rank"]


def normalise(values: np.ndarray) -> np.ndarray:
    """Min-max to 0..1 over the candidates; a part equal for every candidate counts 1 (0 if it is 0 everywhere)."""
    lo, hi = float(values.min()), float(values.max())
    if hi > lo:
        return np.clip((values - lo) / (hi - lo), 0.0, 1.0)
    return np.full(len(values), 1.0 if hi > 0 else 0.0)


def rank(pairs: Sequence[tuple[MemoryRecord, float]], when: float, weights: Sequence[float], k: int) -> list[ScoredMemory]:
    """The k best of (record, cosine) pairs at time `when`: score = w_rel*relevance + w_rec*recency + w_imp*importance.

    Ties go to the newer record (higher seq).
    """
    records = [r for r, _ in pairs]
    cos = np.array([s for _, s in pairs], dtype=np.float64)
    hours = np.maximum(when - np.array([r.last_access for r in records], dtype=np.float64), 0.0)
    imp = np.array([r.importance for r in records], dtype=np.float64)
    parts = [normalise(p) for p in (cos, RECENCY_DECAY**hours, imp)]
    total = weights[0] * parts[0] + weights[1] * parts[1] + weights[2] * parts[2]
    seqs = np.array([r.seq for r in records])
    order = np.lexsort((-seqs, -total))[:k]  # best score first; ties to the newer record
    return [
        ScoredMemory(records[i], float(total[i]), float(parts[0][i]), float(parts[1][i]),
                     float(parts[2][i]), float(cos[i]), float(hours[i]))
        for i in order
    ]
