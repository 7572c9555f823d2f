"""Exact search in the caller's partition versus one HNSW index over every tenant: speed against recall.

The store scores every row of the caller's partition while the partition is
small (a user's memories usually are): exact, and fast because the primary key
finds the partition. One HNSW index over the whole table must, with row-level
security, walk past other tenants' rows; pgvector's iterative scan keeps walking
until k rows pass, which costs time and still misses some. `hnsw_tradeoff`
measures both on a small synthetic table so the notebook can show the numbers.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..long_term.records import KINDS, Scope
from ..long_term.on_postgres import HnswSettings

PGVECTOR_DEFAULTS = HnswSettings(ef_search=40, iterative_scan="strict_order", max_scan_tuples=20_000,
                                  exact_fallback=False)
"""pgvector's own HNSW settings (and what the store used before): a narrow walk, stopped after 20,000 rows."""

__all__ = ["PGVECTOR_DEFAULTS", "SearchComparison", "hnsw_tradeoff", "indexes_in_plan", "synthetic_texts"]


def indexes_in_plan(plan: str) -> list[str]:
    """The indexes an EXPLAIN plan reads ("Index Scan using X", "Bitmap Index Scan on X"), sorted."""
    found = set()
    for line in plan.splitlines():
        if " using " in line and "Index" in line:
            found.add(line.split(" using ")[1].split()[0])
        elif "Bitmap Index Scan on " in line:
            found.add(line.split("Bitmap Index Scan on ")[1].split()[0])
    return sorted(found)


@dataclass(frozen=True)
class SearchComparison:
    """One way of searching, measured over the same questions: recall@k against exact, time per recall."""

    mode: str
    index: str  # the index the server's plan used
    recall_at_k: float
    fewer_than_k: int  # recalls that returned fewer than k rows
    p50_ms: float
    p99_ms: float
    settings: str = ""  # for HNSW: ef_search and iterative scan mode


def synthetic_texts(n: int, seed: int = 20260918) -> list[str]:
    """n different eight-word sentences over a made-up vocabulary (deterministic for a seed)."""
    rng = np.random.default_rng(seed)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    words = sorted({"".join(rng.choice(letters, rng.integers(4, 10))) for _ in range(4000)})[:2000]
    picks = rng.integers(0, len(words), (n, 8))
    return [" ".join(words[i] for i in row) + "." for row in picks]


def hnsw_tradeoff(
    dsn: str | None = None,
    *,
    schema: str = "notebook5_hnsw",
    tenants: int = 20,
    per_tenant: int = 100,
    questions: int = 40,
    k: int = 10,
    settings: Sequence[HnswSettings] = (),
) -> list[SearchComparison]:
    """Load tenants x per_tenant records, then recall the same questions exactly and through HNSW; compare.

    HNSW runs with the store's `HnswSettings`, then with each of `settings` (say, pgvector's defaults).
    """
    from ..long_term.embedding import HashingEmbedder
    from ..long_term.on_postgres import memory_on_postgres
    from ..postgres import local_server
    from ..postgres.scope import drop_schema

    admin = local_server() if dsn is None else dsn
    embedder = HashingEmbedder()
    memory = memory_on_postgres(admin, schema=schema, embedder=embedder, fresh=True, pool_size=1)
    store = memory.store  # its search modes are what this compares
    try:
        texts = synthetic_texts(tenants * per_tenant)  # written through the one write path: judged too
        for t in range(tenants):
            rows = range(t * per_tenant, (t + 1) * per_tenant)
            memory.remember_many(Scope(f"tenant-{t:02d}", "user"),  # imported data: facts and events, no how-tos
                                 [{"kind": ("episodic", "semantic")[i % 2], "content": texts[i], "source": "synthetic"}
                                  for i in rows], provenance="import")
        rng = np.random.default_rng(7)
        asks = [(Scope(f"tenant-{int(rng.integers(0, tenants)):02d}", "user"),
                 embedder.embed([" ".join(texts[int(rng.integers(0, len(texts)))].split()[:4])])[0])
                for _ in range(questions)]
        truth = [[r.id for r, _ in store.search(s, q, k, KINDS, mode="exact")] for s, q in asks]
        out = []
        for mode, tuned in [("exact", None), ("hnsw", None)] + [("hnsw", h) for h in settings]:
            plan = store.explain(asks[0][0], asks[0][1], k, KINDS, mode=mode, hnsw=tuned)
            used = indexes_in_plan(plan)
            times, hits, short = [], 0, 0
            for (scope, q), right in zip(asks, truth):
                start = time.perf_counter()
                got = [r.id for r, _ in store.search(scope, q, k, KINDS, mode=mode, hnsw=tuned)]
                times.append(time.perf_counter() - start)
                hits += len(set(got) & set(right))
                short += len(got) < k
            used_settings = tuned or store.hnsw
            label = "" if mode == "exact" else f"ef_search {used_settings.ef_search}, {used_settings.iterative_scan}"
            out.append(SearchComparison(mode, ", ".join(used), hits / sum(len(r) for r in truth), short,
                                        float(np.percentile(times, 50) * 1000), float(np.percentile(times, 99) * 1000),
                                        label))
        return out
    finally:
        store.close()
        drop_schema(admin, schema)
