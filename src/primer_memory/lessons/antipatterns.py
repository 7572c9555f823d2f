"""THE WRONG DESIGN, kept only to be shown failing in notebook 3. Do not use it as a store.

`GlobalIndexStore` keeps every tenant's memories in one index, searches all of
them, and filters the top results afterwards. It has two bugs of the kind that
ship in real systems, and each one alone leaks another tenant's memory:

1. it reads a `tenant_id=...` filter out of the query text (a "power-user
   feature"), so whoever writes the query chooses the tenant;
2. it matches tenants by prefix, so tenant `acme` also sees `acme-corp`.

It also loses the caller's own memories whenever other tenants' records crowd
them out of the global top k. The partitioned `LongTermMemory` has none of
these failure modes because it never scores a record outside the caller's
partition. Not exported from `primer_memory`, on purpose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..long_term.embedding import Embedder, HashingEmbedder
from ..long_term.memory import Scope

__all__ = ["GlobalIndexStore", "NaiveHit"]

_TENANT_HINT = re.compile(r"tenant_id\s*=\s*['\"]?([\w.-]+)", re.I)


@dataclass(frozen=True)
class NaiveHit:
    """One result of the naive store: whose record it is, what it says, how similar it was."""

    tenant_id: str
    user_id: str
    content: str
    score: float


class GlobalIndexStore:
    """One global index over every tenant, filtered after the search. The wrong design: see the module docstring."""

    def __init__(self, embedder: Embedder | None = None):
        self._embedder = embedder or HashingEmbedder()
        self._rows: list[tuple[str, str, str]] = []
        self._vectors = np.zeros((0, self._embedder.dim), dtype=np.float32)

    def remember(self, scope: Scope, content: str, *, provenance: str) -> None:
        """Append to the one global index (no partition, no write policy: `provenance` is asked and ignored, as
        this design trusts every writer alike)."""
        self._rows.append((scope.tenant_id, scope.user_id, content))
        self._vectors = np.vstack([self._vectors, self._embedder.embed([content])])

    def recall(self, scope: Scope, query: str, k: int = 3) -> list[NaiveHit]:
        """Global top k by similarity, then a filter with both bugs."""
        if not self._rows:
            return []
        scores = self._vectors @ self._embedder.embed([query])[0]
        top = np.argsort(-scores, kind="stable")[:k]  # searched across every tenant
        hint = _TENANT_HINT.search(query)
        tenant = hint.group(1) if hint else scope.tenant_id  # BUG 1: the query chooses the tenant
        hits = []
        for i in top:
            row_tenant, row_user, content = self._rows[i]
            if row_tenant.startswith(tenant):  # BUG 2: prefix match, so "acme" also matches "acme-corp"
                hits.append(NaiveHit(row_tenant, row_user, content, float(scores[i])))
        return hits
