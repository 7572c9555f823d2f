"""Search at the floor: the store's exact and HNSW paths against a plain query, on one table, in one run.

One table holds three tenants: `solo` with --floor-records rows (100,000) of random sentences,
and a crowded pair: `quiet` with a tenth as many random sentences, `crowd` with four times that
many sentences drawn from 100 "hot" words. Three figures, each with recall@10 and p50:

1. exact search in `solo`'s partition (`mode="exact"`, RLS on, rows settled in float64) against a
   plain `SELECT id ... WHERE tenant ... ORDER BY (embedding <=> q) + 0 LIMIT 10` run as the
   administrator (`+ 0` keeps the HNSW index out, so it is exact too): the p50 ratio is the store's overhead;
2. `solo` past the exact limit, so the store searches with HNSW (its default `HnswSettings`), and the
   settings the store used before (ef_search 40, strict order, pgvector's 20,000 scanned rows);
3. `quiet` asked about the hot words: its true neighbours are far, while `crowd`'s many similar rows
   fill the graph walk, which the filter then throws away.

Recall@10 counts a returned row as a hit when it is as close as the 10th true neighbour (ties are not
misses). Used by bench_postgres.py; run alone: python benchmarks/search_floor.py [--floor-records N]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from primer_memory.long_term.embedding import HashingEmbedder
from primer_memory.long_term.records import KINDS, Scope
from primer_memory.long_term.storage import record_id
from primer_memory.long_term.storage.pg_search import HnswSettings
from primer_memory.long_term.storage.postgres import PostgresStore, drop_schema, setup
from timing import size  # benchmarks/ is on the path

SCHEMA = "bench_floor"
K = 10
EMBEDDER = HashingEmbedder()
OLD = HnswSettings(ef_search=40, iterative_scan="strict_order", max_scan_tuples=20_000, exact_fallback=False)


def _texts(rng: np.random.Generator, words: list[str], n: int) -> list[str]:
    picks = rng.integers(0, len(words), (n, 8))
    return [" ".join(words[i] for i in row) + "." for row in picks]


def _vocabulary(rng: np.random.Generator, size: int = 4000) -> list[str]:
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    return sorted({"".join(rng.choice(letters, rng.integers(4, 10))) for _ in range(size * 2)})[:size]


def build(admin_dsn: str, records: int, seed: int = 20260918) -> tuple[list[str], list[str]]:
    """Load the three tenants with COPY as the administrator, build the HNSW index once; return (words, hot)."""
    import psycopg
    from pgvector.psycopg import register_vector

    rng = np.random.default_rng(seed)
    words = _vocabulary(rng)
    hot = words[:100]
    quiet = max(size(1_000, 50), records // 10)
    rows = ([("solo", t) for t in _texts(rng, words, records)] + [("quiet", t) for t in _texts(rng, words, quiet)]
            + [("crowd", t) for t in _texts(rng, hot, 4 * quiet)])
    order = rng.permutation(len(rows))  # tenants interleaved in the heap, as real writes would leave them
    drop_schema(admin_dsn, SCHEMA)
    setup(admin_dsn, schema=SCHEMA, dim=EMBEDDER.dim, embedder_name=EMBEDDER.name)
    start = time.perf_counter()
    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        register_vector(admin)
        admin.execute(f"DROP INDEX {SCHEMA}.records_embedding_hnsw")
        seqs: dict[str, int] = {}
        with admin.cursor().copy(f"COPY {SCHEMA}.records (tenant_id, user_id, seq, id, kind, content, source,"
                                 " importance, created_at, last_access, embedding) FROM STDIN") as copy:
            for lo in range(0, len(order), 20_000):
                chunk = [rows[i] for i in order[lo:lo + 20_000]]
                vectors = EMBEDDER.embed([t for _, t in chunk])
                for (tenant, text), vector in zip(chunk, vectors):
                    seq = seqs[tenant] = seqs.get(tenant, 0) + 1
                    copy.write_row((tenant, "user", seq, record_id(Scope(tenant, "user"), seq), KINDS[seq % 3], text,
                                    "bench", 5, float(seq), float(seq), vector))
        with admin.cursor().copy(f"COPY {SCHEMA}.scopes (tenant_id, user_id, next_seq, generation) FROM STDIN") as copy:
            for tenant, last in seqs.items():
                copy.write_row((tenant, "user", last + 1, 0))
        admin.execute("SET maintenance_work_mem = '1GB'")
        admin.execute(f"SET ROLE primer_owner; CREATE INDEX records_embedding_hnsw ON {SCHEMA}.records"
                      " USING hnsw (embedding vector_cosine_ops); RESET ROLE")
        admin.execute(f"VACUUM ANALYZE {SCHEMA}.records")
    print(f"search floor: {len(rows):,} records (solo {records:,}, quiet {quiet:,}, crowd {4 * quiet:,}) loaded and "
          f"indexed in {time.perf_counter() - start:.0f} s", flush=True)
    return words, hot


def _recall(got: list[tuple[object, float]], truth: list[tuple[object, float]]) -> float:
    if not truth:
        return 1.0
    edge = truth[-1][1] - 1e-6  # cosine of the k-th true neighbour: anything as close is a true neighbour
    return min(len(truth), sum(score >= edge for _, score in got)) / len(truth)


def report(admin_dsn: str, records: int = 100_000, queries: int = 30, *, reuse: bool = False) -> None:
    """Build (or, with `reuse`, take the table a previous run left), then print the three figures."""
    import psycopg
    from pgvector.psycopg import register_vector

    if reuse:
        words = _vocabulary(np.random.default_rng(20260918))
        hot = words[:100]
    else:
        words, hot = build(admin_dsn, records)
    rng = np.random.default_rng(7)
    store = PostgresStore(admin_dsn, embedder_name=EMBEDDER.name, dim=EMBEDDER.dim, schema=SCHEMA, pool_size=1,
                          exact_limit=min(20_000, max(1, records // 10) - 1))
    plain_sql = (f"SELECT id FROM {SCHEMA}.records WHERE tenant_id = %s AND user_id = 'user'"
                 " ORDER BY (embedding <=> %s) + 0 LIMIT 10")  # "+ 0": the HNSW index cannot serve it, so exact
    cases = {"solo": [EMBEDDER.embed([" ".join(rng.choice(words, 4))])[0] for _ in range(queries)],
             "quiet": [EMBEDDER.embed([" ".join(rng.choice(hot, 4))])[0] for _ in range(queries)]}
    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        register_vector(admin)
        rows: list[tuple[str, str, float, float]] = []
        for tenant, qs in cases.items():
            scope = Scope(tenant, "user")
            for q in qs[:3]:  # warm the server's caches and the pool
                store.search(scope, q, K, KINDS, mode="exact")
            timings: dict[str, list[float]] = {"plain": [], "exact": [], "hnsw": [], "old": []}
            recalls: dict[str, list[float]] = {"exact": [], "hnsw": [], "old": []}
            for q in qs:
                start = time.perf_counter()
                plain = [r[0] for r in admin.execute(plain_sql, (tenant, q)).fetchall()]
                timings["plain"].append(time.perf_counter() - start)
                start = time.perf_counter()
                exact = store.search(scope, q, K, KINDS, mode="exact")
                timings["exact"].append(time.perf_counter() - start)
                recalls["exact"].append(len({r.id for r, _ in exact} & set(plain)) / K)  # same rows as plain
                for name, settings in (("hnsw", None), ("old", OLD)):
                    start = time.perf_counter()
                    got = store.search(scope, q, K, KINDS, mode="auto", hnsw=settings)
                    timings[name].append(time.perf_counter() - start)
                    recalls[name].append(_recall(got, exact))
            p50 = {name: float(np.median(t)) * 1000 for name, t in timings.items()}
            rows.append((tenant, "plain ORDER BY embedding <=> q LIMIT 10 (admin, exact)", p50["plain"], float("nan")))
            rows.append((tenant, "store exact (RLS, float64 settle); recall = same ids as plain", p50["exact"],
                         float(np.mean(recalls["exact"]))))
            rows.append((tenant, f"store auto -> HNSW {_label(store.hnsw)}", p50["hnsw"],
                         float(np.mean(recalls["hnsw"]))))
            rows.append((tenant, f"before: HNSW {_label(OLD)}", p50["old"], float(np.mean(recalls["old"]))))
    store.close()
    print(f"\n{'tenant':<7} {'search':<66} {'p50 ms':>8} {'recall@10':>10} {'vs plain':>9}")
    for tenant, label, ms, recall in rows:
        base = next(m for t, lab, m, _ in rows if t == tenant and lab.startswith("plain"))
        shown = "" if recall != recall else f"{recall:.3f}"
        print(f"{tenant:<7} {label:<66} {ms:8.1f} {shown:>10} {ms / base:8.2f}x")
    print("solo: one tenant's 100k-row partition. quiet: a tenant asked about words another tenant ('crowd') "
          "fills the index with; its exact answer is far from the query.")


def _label(settings: HnswSettings) -> str:
    return (f"(ef_search {settings.ef_search}, {settings.iterative_scan}, max_scan_tuples "
            f"{settings.max_scan_tuples:,}{', exact fallback' if settings.exact_fallback else ''})")


if __name__ == "__main__":
    from primer_memory.postgres import local_server

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--floor-records", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--reuse", action="store_true", help="keep the table an earlier run built (same sizes)")
    args = parser.parse_args()
    report(local_server(), args.floor_records, args.queries, reuse=args.reuse)
