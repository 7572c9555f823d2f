"""Search at the floor on PostgreSQL: exact answers from the cheap plan, ties still settled, HNSW settings that hold.

Small data only (a few hundred rows): the speed figures live in benchmarks/search_floor.py.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory.long_term.embedding import HashingEmbedder
from primer_memory.long_term.records import KINDS, Scope
from primer_memory.long_term.storage import NewRecord
from primer_memory.long_term.storage.pg_search import SQL_SEARCH_EXACT, HnswSettings
from primer_memory.long_term.storage.postgres import PostgresStore, drop_schema

pytestmark = pytest.mark.postgres
EMBEDDER = HashingEmbedder()
QUIET, CROWD = Scope("acme", "quiet"), Scope("acme", "crowd")


@pytest.fixture(scope="module")
def store(pg_dsn: str) -> Iterator[PostgresStore]:
    """Two users: `quiet` with 60 sentences over many words, `crowd` with 400 over eight words (a crowding tenant)."""
    schema = f"search_{uuid.uuid4().hex[:10]}"
    s = PostgresStore(pg_dsn, embedder_name=EMBEDDER.name, dim=EMBEDDER.dim, schema=schema, pool_size=1)
    rng = np.random.default_rng(3)
    words = [f"w{i:03d}x" for i in range(300)]
    hot = words[:8]
    for scope, pool, n in ((QUIET, words, 60), (CROWD, hot, 400)):
        texts = [" ".join(rng.choice(pool, 6)) + f" n{i}." for i in range(n)]
        s.write(scope, [NewRecord(KINDS[i % 3], t, None, "test", 5) for i, t in enumerate(texts)],
                EMBEDDER.embed(texts))
    s.hot_query = " ".join(hot[:4])  # type: ignore[attr-defined]
    yield s
    s.close()
    drop_schema(pg_dsn, schema)


def _ids(found: list) -> list[str]:
    return [r.id for r, _ in found]


def test_the_exact_plan_copies_no_partition() -> None:
    """The old plan MATERIALIZED every row of the partition, vectors included; the new one keeps seq and distance."""
    assert "MATERIALIZED" not in SQL_SEARCH_EXACT
    assert "LIMIT %(n)s" in SQL_SEARCH_EXACT


@settings(max_examples=15)
@given(words=st.lists(st.sampled_from([f"w{i:03d}x" for i in range(300)]), min_size=0, max_size=5),
       k=st.integers(1, 12))
def test_exact_search_is_the_scan_ranked(store: PostgresStore, words: list[str], k: int) -> None:
    """Input class: any question over the vocabulary (including none: a zero vector, where every row ties) and any k.
    The cheap plan returns exactly what scoring every row in float64 returns, ties broken to the newer record."""
    q = EMBEDDER.embed([" ".join(words)])[0]
    ranked = sorted(store.scan(QUIET, q, KINDS), key=lambda pair: (-pair[1], -pair[0].seq))[:k]
    assert _ids(store.search(QUIET, q, k, KINDS, mode="exact")) == _ids(ranked)


def test_a_walk_cut_short_falls_back_to_exact(store: PostgresStore) -> None:
    q = EMBEDDER.embed([store.hot_query])[0]  # type: ignore[attr-defined]
    exact = _ids(store.search(QUIET, q, 10, KINDS, mode="exact"))
    tiny = HnswSettings(ef_search=10, iterative_scan="strict_order", max_scan_tuples=1, exact_fallback=True)
    assert _ids(store.search(QUIET, q, 10, KINDS, mode="hnsw", hnsw=tiny)) == exact
    cut = HnswSettings(ef_search=10, iterative_scan="strict_order", max_scan_tuples=1, exact_fallback=False)
    assert len(store.search(QUIET, q, 10, KINDS, mode="hnsw", hnsw=cut)) < 10  # what the fallback saves


def test_the_default_hnsw_settings_find_the_quiet_users_neighbours(store: PostgresStore) -> None:
    """A user asked about words another user's many rows crowd the index with: recall@10 against exact."""
    rng = np.random.default_rng(11)
    hits = total = 0
    for _ in range(8):
        q = EMBEDDER.embed([" ".join(rng.choice([f"w{i:03d}x" for i in range(8)], 3))])[0]
        exact = set(_ids(store.search(QUIET, q, 10, KINDS, mode="exact")))
        hits += len(exact & set(_ids(store.search(QUIET, q, 10, KINDS, mode="hnsw"))))
        total += len(exact)
    assert hits / total >= 0.95


@pytest.mark.parametrize(("bad", "message"), [
    (dict(ef_search=0), "ef_search"), (dict(ef_search=1001), "ef_search"),
    (dict(iterative_scan="fast"), "iterative_scan"), (dict(max_scan_tuples=0), "max_scan_tuples"),
])
def test_hnsw_settings_are_checked(bad: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        HnswSettings(**bad)


def test_the_store_keeps_its_settings_and_refuses_others(pg_dsn: str, store: PostgresStore) -> None:
    assert store.hnsw == HnswSettings()
    with pytest.raises(ValueError, match="HnswSettings"):
        store.search(QUIET, EMBEDDER.embed(["x"])[0], 3, KINDS, mode="hnsw", hnsw={"ef_search": 10})  # type: ignore
