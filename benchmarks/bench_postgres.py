"""Benchmark long-term recall on PostgreSQL: records over many tenants, ratios in one run.

Compared, on the same records and the same questions:
  - exact search in SQL inside the caller's partition (RLS on, the store's default for partitions it holds),
  - HNSW over the whole table with RLS and pgvector's iterative scan (the store's `HnswSettings`),
  - the SQLite backend (`LongTermMemory(path=...)`: the first recall of a tenant loads its partition),
  - LangGraph's `PostgresStore.search` on the same server and data (installed for this benchmark only, into
    build/bench-deps/, never a dependency of the package).
Recall@10 is measured against exact search (the ground truth). Latencies are per recall, p50 and p99.
First, `search_floor.py`'s three figures: exact search against a plain `ORDER BY embedding <=> q LIMIT k` on
100,000 records in one tenant, and HNSW recall there and beside a tenant whose many similar rows crowd the index.

HNSW over 1,000 tenants is forced here (`mode="hnsw"`) although each partition is small: the tenant filter keeps
0.1% of the rows, so the iterative scan must walk about 10,000 index entries per 10 rows it may return. With the
settings the store used before (strict order, pgvector's default `hnsw.max_scan_tuples` of 20,000) the walk
stopped short: 50x slower than exact with recall@10 0.48 at 135k records. The store's defaults (`HnswSettings`)
walk further and fall back to exact search when the walk still returns fewer than k rows.

The target is 1,000,000 records over 1,000 tenants. A pilot build times insert + HNSW per record; if the full
build (our table, SQLite and LangGraph's copy) is projected past --budget seconds (3 minutes), the record count is
scaled down to fit and the output says so.

Usage: python benchmarks/bench_postgres.py [--records N] [--tenants T] [--queries Q] [--budget S] [--floor-records N]
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

from primer_memory.long_term.embedding import HashingEmbedder  # noqa: E402
from primer_memory.postgres import local_server  # noqa: E402
from primer_memory.long_term.records import KINDS, Scope  # noqa: E402
from primer_memory.long_term.storage import NewRecord, record_id  # noqa: E402
from primer_memory.long_term.storage.postgres import PostgresStore, drop_schema, setup  # noqa: E402
from primer_memory.long_term.storage.sqlite import SQLiteStore  # noqa: E402
from primer_memory.lessons.vector_search import indexes_in_plan  # noqa: E402
from timing import DEPS, ROOT, TINY, scratch, size  # noqa: E402  (benchmarks/ is on the path)

SEED = 20260918
K = 10
SCHEMA = "bench_memory"
EMBEDDER = HashingEmbedder()


def vocabulary(rng: np.random.Generator, size: int = 4000) -> list[str]:
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    return sorted({"".join(rng.choice(letters, rng.integers(4, 10))) for _ in range(size * 2)})[:size]


def texts_for(rng: np.random.Generator, words: list[str], n: int) -> list[str]:
    picks = rng.integers(0, len(words), (n, 8))
    return [" ".join(words[i] for i in row) + "." for row in picks]


def tenant(t: int) -> Scope:
    return Scope(f"tenant-{t:04d}", "user")


def make_data(records: int, tenants: int, words: list[str]) -> tuple[list[str], np.ndarray, np.ndarray]:
    rng = np.random.default_rng(SEED)
    texts = texts_for(rng, words, records)
    vectors = np.zeros((records, EMBEDDER.dim), dtype=np.float32)
    for lo in range(0, records, 20_000):
        vectors[lo : lo + 20_000] = EMBEDDER.embed(texts[lo : lo + 20_000])
    owner = np.arange(records) % tenants  # round-robin: every tenant gets records / tenants
    return texts, vectors, owner


def copy_records(admin: object, schema: str, texts: list[str], vectors: np.ndarray, owner: np.ndarray) -> None:
    """Bulk-load as the administrator (a data load, not the application path) with COPY."""
    from pgvector.psycopg import register_vector

    register_vector(admin)
    seqs: dict[int, int] = {}
    with admin.cursor().copy(
        f"COPY {schema}.records (tenant_id, user_id, seq, id, kind, content, source, importance, created_at,"
        " last_access, embedding) FROM STDIN"
    ) as copy:
        for i, text in enumerate(texts):
            t = int(owner[i])
            seq = seqs[t] = seqs.get(t, 0) + 1
            scope = tenant(t)
            copy.write_row((scope.tenant_id, scope.user_id, seq, record_id(scope, seq), KINDS[i % 3], text, "bench",
                            5, float(seq), float(seq), vectors[i]))
    with admin.cursor().copy(f"COPY {schema}.scopes (tenant_id, user_id, next_seq, generation) FROM STDIN") as copy:
        for t, last in seqs.items():
            copy.write_row((tenant(t).tenant_id, "user", last + 1, 0))


def build_postgres(admin_dsn: str, schema: str, texts: list[str], vectors: np.ndarray, owner: np.ndarray) -> dict:
    import psycopg

    drop_schema(admin_dsn, schema)
    setup(admin_dsn, schema=schema, dim=EMBEDDER.dim, embedder_name=EMBEDDER.name)
    times = {}
    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        admin.execute(f"DROP INDEX {schema}.records_embedding_hnsw")  # build once after loading: much faster
        start = time.perf_counter()
        copy_records(admin, schema, texts, vectors, owner)
        times["insert"] = time.perf_counter() - start
        start = time.perf_counter()
        admin.execute("SET maintenance_work_mem = '4GB'")
        admin.execute(f"SET ROLE primer_owner; CREATE INDEX records_embedding_hnsw ON {schema}.records"
                      " USING hnsw (embedding vector_cosine_ops); RESET ROLE")
        times["hnsw"] = time.perf_counter() - start
        admin.execute(f"VACUUM ANALYZE {schema}.records")
    return times


def percentiles(samples: list[float]) -> tuple[float, float]:
    return float(np.percentile(samples, 50)) * 1000, float(np.percentile(samples, 99)) * 1000


def langgraph_store(admin_dsn: str) -> tuple[object | None, str]:
    """LangGraph's PostgresStore class, installed on demand into build/bench-deps (or why it could not be).

    The packages it shares with the project come at the versions of requirements.lock.
    """
    if str(DEPS) not in sys.path:
        sys.path.append(str(DEPS))  # appended: the project's own psycopg stays first
    try:
        return importlib.import_module("langgraph.store.postgres").PostgresStore, ""
    except ImportError:
        pass
    if TINY:
        return None, "not installed in a tiny run"
    result = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--target", str(DEPS),
                             "-c", str(ROOT / "requirements.lock"), "langgraph-checkpoint-postgres"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        return None, f"pip install langgraph-checkpoint-postgres failed: {result.stderr.strip()[-300:]}"
    importlib.invalidate_caches()
    try:
        return importlib.import_module("langgraph.store.postgres").PostgresStore, ""
    except ImportError as exc:
        return None, f"installed but not importable: {exc}"


def build_langgraph(cls: object, admin_dsn: str, texts: list[str], vectors: np.ndarray, owner: np.ndarray) -> tuple:
    """LangGraph's own tables and index via its setup(); its rows loaded with COPY (same texts and vectors)."""
    import psycopg
    from pgvector.psycopg import register_vector

    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        admin.execute("DROP TABLE IF EXISTS store_vectors, store, store_migrations, vector_migrations CASCADE")

    def embed(batch: list[str]) -> list[list[float]]:
        return EMBEDDER.embed(batch).tolist()

    conn = psycopg.connect(admin_dsn, autocommit=True, prepare_threshold=0, row_factory=psycopg.rows.dict_row)
    store = cls(conn, index={"dims": EMBEDDER.dim, "embed": embed, "fields": ["text"]})
    store.setup()
    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        register_vector(admin)
        admin.execute("DROP INDEX IF EXISTS store_vectors_embedding_idx")
        start = time.perf_counter()
        with admin.cursor().copy("COPY store (prefix, key, value) FROM STDIN") as copy:
            for i, text in enumerate(texts):
                copy.write_row((f"tenant-{int(owner[i]):04d}.user", f"r{i}", json.dumps({"text": text})))
        with admin.cursor().copy("COPY store_vectors (prefix, key, field_name, embedding) FROM STDIN") as copy:
            for i in range(len(texts)):
                copy.write_row((f"tenant-{int(owner[i]):04d}.user", f"r{i}", "text", vectors[i]))
        admin.execute("SET maintenance_work_mem = '4GB'")
        admin.execute("CREATE INDEX store_vectors_embedding_idx ON store_vectors USING hnsw (embedding vector_cosine_ops)")
        admin.execute("VACUUM ANALYZE store")
        admin.execute("VACUUM ANALYZE store_vectors")
        seconds = time.perf_counter() - start
    return store, conn, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=size(1_000_000, 400))
    parser.add_argument("--tenants", type=int, default=size(1_000, 4))
    parser.add_argument("--queries", type=int, default=size(200, 3))
    parser.add_argument("--budget", type=float, default=180.0, help="seconds the builds may take in all")
    parser.add_argument("--floor-records", type=int, default=size(100_000, 200),
                        help="rows of the one big tenant in the search-at-the-floor figures (0: skip them)")
    args = parser.parse_args()
    with scratch("postgres") as folder:  # the SQLite copy (306 MB at full size) goes when the run ends
        run(args, folder)


def run(args: argparse.Namespace, folder: Path) -> None:
    """Build every copy of the records, recall through each, and print the table."""
    if args.floor_records:
        import search_floor  # benchmarks/search_floor.py: exact vs a plain query, HNSW recall in two hard cases

        search_floor.report(local_server(), args.floor_records, size(30, 3))
        print(flush=True)
    rng = np.random.default_rng(SEED + 1)
    words = vocabulary(np.random.default_rng(SEED))
    admin_dsn = local_server()
    cls, why_not = langgraph_store(admin_dsn)

    # Pilot: time embedding + insert + HNSW per record on a small table, then decide the size.
    pilot = min(20_000, args.records)
    start = time.perf_counter()
    texts, vectors, owner = make_data(pilot, args.tenants, words)
    embed_per = (time.perf_counter() - start) / pilot
    t = build_postgres(admin_dsn, SCHEMA, texts, vectors, owner)
    per_record = embed_per + (t["insert"] + t["hnsw"]) * (3 if cls else 2)  # ours, LangGraph's copy, SQLite
    per_record = per_record / pilot * 1.3  # HNSW builds grow a little faster than linear
    records = args.records
    note = ""
    if per_record * records > args.budget:
        records = max(args.tenants * 10, int(args.budget / per_record) // args.tenants * args.tenants)
        note = (f"SCALED DOWN: the pilot projects {per_record * args.records / 60:.0f} min to build "
                f"{args.records:,} records on this machine ({os.cpu_count()} cores), over the {args.budget / 60:.0f}-min "
                f"budget; measuring {records:,} records over {args.tenants:,} tenants instead.")
    print(note or f"Full size: {records:,} records over {args.tenants:,} tenants.", flush=True)

    texts, vectors, owner = make_data(records, args.tenants, words)
    t = build_postgres(admin_dsn, SCHEMA, texts, vectors, owner)
    print(f"PostgreSQL build: COPY {t['insert']:.1f} s, HNSW index {t['hnsw']:.1f} s", flush=True)
    store = PostgresStore(admin_dsn, embedder_name=EMBEDDER.name, dim=EMBEDDER.dim, schema=SCHEMA, pool_size=1)

    start = time.perf_counter()
    sqlite = SQLiteStore(folder / "memory.sqlite", EMBEDDER.name, EMBEDDER.dim)
    for ten in range(args.tenants):
        rows = np.flatnonzero(owner == ten)
        sqlite.write(tenant(ten), [NewRecord(KINDS[i % 3], texts[i], None, "bench", 5) for i in rows], vectors[rows])
    sqlite.close()
    sqlite = SQLiteStore(folder / "memory.sqlite", EMBEDDER.name, EMBEDDER.dim)  # reopened: nothing cached
    print(f"SQLite build: {time.perf_counter() - start:.1f} s", flush=True)

    lg = lg_conn = None
    if cls is not None:
        lg, lg_conn, seconds = build_langgraph(cls, admin_dsn, texts, vectors, owner)
        print(f"LangGraph store build: {seconds:.1f} s", flush=True)

    queries = [(int(rng.integers(0, args.tenants)), " ".join(rng.choice(words, 4))) for _ in range(args.queries)]
    for ten, text in queries[:5]:  # warm the server's caches and the pool
        store.search(tenant(ten), EMBEDDER.embed([text])[0], K, KINDS, mode="exact")
    for mode in ("exact", "hnsw"):
        plan = store.explain(tenant(0), EMBEDDER.embed([queries[0][1]])[0], K, KINDS, mode=mode)
        used = indexes_in_plan(plan)
        print(f"plan for {mode}: indexes used {used}", flush=True)
    results: dict[str, dict] = {name: {"times": [], "recall": [], "short": 0}
                                for name in ("exact", "hnsw", "sqlite", "langgraph")}
    for ten, text in queries:
        scope, q = tenant(ten), EMBEDDER.embed([text])[0]
        start = time.perf_counter()
        truth = [r.id for r, _ in store.search(scope, q, K, KINDS, mode="exact")]
        results["exact"]["times"].append(time.perf_counter() - start)
        results["exact"]["recall"].append(1.0)
        runs = {"hnsw": lambda: [r.id for r, _ in store.search(scope, q, K, KINDS, mode="hnsw")],
                "sqlite": lambda: [r.id for r, _ in sqlite.search(scope, q, K, KINDS)]}
        if lg is not None:
            runs["langgraph"] = lambda: [
                record_id(scope, int(item.key[1:]) // args.tenants + 1)
                for item in lg.search((scope.tenant_id, scope.user_id), query=text, limit=K)]
        for name, run in runs.items():
            start = time.perf_counter()
            got = run()
            results[name]["times"].append(time.perf_counter() - start)
            results[name]["recall"].append(len(set(got) & set(truth)) / max(1, len(truth)))
            results[name]["short"] += len(got) < len(truth)

    base = percentiles(results["exact"]["times"])[0]
    print(f"\n{records:,} records over {args.tenants:,} tenants ({records // args.tenants} per tenant), "
          f"dim {EMBEDDER.dim}, k={K}, {args.queries} recalls from random tenants")
    print(f"{'backend':<44} {'p50 ms':>8} {'p99 ms':>8} {'recall@10':>10} {'<k rows':>8} {'p50 vs exact':>13}")
    labels = {"exact": "PostgreSQL exact in partition (RLS)", "hnsw": "PostgreSQL HNSW + iterative scan (RLS)",
              "sqlite": "SQLite backend (cold partition load)", "langgraph": "LangGraph PostgresStore.search"}
    for name, label in labels.items():
        r = results[name]
        if not r["times"]:
            print(f"{label:<44} not measured: {why_not}")
            continue
        p50, p99 = percentiles(r["times"])
        print(f"{label:<44} {p50:8.2f} {p99:8.2f} {np.mean(r['recall']):10.3f} {r['short']:8d} {p50 / base:12.2f}x")
    print("\nrecall@10 is against exact search over the caller's partition; '<k rows' counts recalls that came "
          "back with fewer than 10 rows.")
    if note:
        print(note)
    store.close()
    sqlite.close()
    if lg_conn is not None:
        lg_conn.close()


if __name__ == "__main__":
    main()
