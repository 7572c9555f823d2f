"""What does checking a signed scope cost per statement, against RLS keyed on a plain setting?

Two copies of one table (1,000 tenants x 20 rows) on the embedded server, read by the
application role: one under the store's policy (the signature checked by
`signed_scope()` once per statement), one under the old policy on plain settings
(`current_setting('app.tenant_id')`). Each transaction sets the scope (the signed one is
bound to its transaction: one statement to learn which transaction it is, one to set it),
then runs the same point lookups; the figure to read is the ratio of the two, measured in
one run, and the extra statement the binding costs, timed alone.

Run: .venv/bin/python benchmarks/bench_signed_scope.py
"""

from __future__ import annotations

import statistics
import time
import uuid

import psycopg

from primer_memory.postgres import scope as pg_scope
from primer_memory.long_term.storage.postgres import drop_schema
from primer_memory.postgres import local_server
from timing import size  # benchmarks/ is on the path

TENANTS, ROWS, LOOKUPS, REPEATS = size((1_000, 20, 20, 7), (4, 2, 2, 1))
PLAIN = "tenant_id = current_setting('app.tenant_id', true) AND user_id = current_setting('app.user_id', true)"


def build(admin_dsn: str, schema: str) -> bytes:
    with psycopg.connect(admin_dsn, autocommit=True) as admin, admin.transaction():
        cur = admin.cursor()
        pg_scope.own_schema(cur, schema)
        key = pg_scope.install_signed_scope(cur, schema)
        for table in ("signed", "plain"):
            cur.execute(f"CREATE TABLE {schema}.{table} (tenant_id text NOT NULL, user_id text NOT NULL, n int,"
                        " content text, PRIMARY KEY (tenant_id, user_id, n))")
            cur.execute(f"INSERT INTO {schema}.{table} SELECT 't' || t, 'u', n, 'memory ' || n"
                        f" FROM generate_series(1, {TENANTS}) t, generate_series(1, {ROWS}) n")
            cur.execute(f"GRANT SELECT ON {schema}.{table} TO {pg_scope.APP_ROLE}")
            cur.execute(f"ANALYZE {schema}.{table}")
        pg_scope.secure_table(cur, schema, "signed")
        cur.execute(f"ALTER TABLE {schema}.plain ENABLE ROW LEVEL SECURITY")
        cur.execute(f"ALTER TABLE {schema}.plain FORCE ROW LEVEL SECURITY")
        cur.execute(f"CREATE POLICY plain ON {schema}.plain USING ({PLAIN})")
    return key


def run(app: psycopg.Connection, schema: str, table: str, signer: pg_scope.ScopeSigner) -> float:
    """Seconds for 100 transactions: set the scope, then LOOKUPS point lookups in the caller's partition."""
    start = time.perf_counter()
    for i in range(100):
        tenant = f"t{i % TENANTS + 1}"
        with app.transaction():
            if table == "signed":  # the store's way: which transaction this is, then the scope signed for it
                signer.bind(app, type("S", (), {"tenant_id": tenant, "user_id": "u"})())
            else:
                app.execute("SELECT set_config('app.tenant_id', %s, true), set_config('app.user_id', 'u', true)",
                            (tenant,))
            for n in range(1, LOOKUPS + 1):
                row = app.execute(f"SELECT content FROM {schema}.{table} WHERE tenant_id = %s AND user_id = 'u'"
                                  " AND n = %s", (tenant, n)).fetchone()
                assert row == (f"memory {n}",)
    return time.perf_counter() - start


def main() -> None:
    admin = local_server()
    schema = "bench_scope_" + uuid.uuid4().hex[:6]
    try:
        signer = pg_scope.ScopeSigner(build(admin, schema))
        with psycopg.connect(pg_scope.application_dsn(admin), autocommit=True) as app:
            times: dict[str, list[float]] = {"signed": [], "plain": []}
            for _ in range(REPEATS):
                for table in ("plain", "signed"):
                    times[table].append(run(app, schema, table, signer))
            round_trip = []
            for _ in range(size(2_000, 20)):  # what binding the token adds: one more statement per transaction
                start = time.perf_counter()
                app.execute(pg_scope.TRANSACTION_SQL).fetchone()
                round_trip.append(time.perf_counter() - start)
        per = {t: statistics.median(v) / (100 * (LOOKUPS + 1)) * 1e6 for t, v in times.items()}
        print(f"{TENANTS} tenants x {ROWS} rows; 100 transactions of 1 scope + {LOOKUPS} point lookups, "
              f"median of {REPEATS}")
        print(f"plain setting (forgeable):  {per['plain']:7.1f} us per statement")
        print(f"signed scope (HMAC check): {per['signed']:7.1f} us per statement")
        print(f"ratio signed / plain: {per['signed'] / per['plain']:.2f}x")
        extra = statistics.median(round_trip) * 1e6
        print(f"binding the token to its transaction: one more statement per transaction (TRANSACTION_SQL), "
              f"{extra:.1f} us median, {extra / per['plain']:.2f}x one plain statement; included above")
    finally:
        drop_schema(admin, schema)


if __name__ == "__main__":
    main()
