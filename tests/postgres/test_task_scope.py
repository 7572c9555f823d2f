"""Task state on PostgreSQL under the same lock as memories: the application role, RLS, a signed scope per store.

Proposals and outputs hold free text, and the self-test recommends one database for
everything, so a task store must be no weaker than the memory store: it connects as the
application role, every task table forces row-level security keyed on a signed scope, and
SQL injected into one tenant's connection reaches no other tenant's tasks.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest

from primer_memory import Scope, TaskStateStore
from primer_memory.postgres.scope import APP_ROLE, OWNER_ROLE, UnsignableScope
from primer_memory.long_term.storage.postgres import drop_schema

pytestmark = pytest.mark.postgres

ALICE, CAROL = Scope("acme", "alice"), Scope("globex", "carol")


@pytest.fixture
def schema(pg_dsn: str) -> Iterator[str]:
    name = "tscope_" + uuid.uuid4().hex[:8]
    yield name
    drop_schema(pg_dsn, name)


def _two_tenants(pg_dsn: str, schema: str) -> tuple[TaskStateStore, TaskStateStore]:
    alice = TaskStateStore(dsn=pg_dsn, schema=schema, scope=ALICE)
    carol = TaskStateStore(dsn=pg_dsn, schema=schema, scope=CAROL)
    alice.create_task("acme-merger", "Acme's confidential merger checklist", ["draft", "sign"])
    alice.apply("acme-merger", {"step": "draft", "status": "done", "output": "Acme buys Initech for 4M"})
    carol.create_task("globex-invoices", "Globex invoices", ["fetch"])
    return alice, carol


def test_task_tables_are_owned_by_the_owner_forced_under_rls_and_used_as_the_app_role(pg_dsn: str,
                                                                                      schema: str) -> None:
    alice, carol = _two_tenants(pg_dsn, schema)
    with psycopg.connect(pg_dsn) as admin:
        tables = admin.execute(
            "SELECT relname, relrowsecurity, relforcerowsecurity, pg_get_userbyid(relowner) FROM pg_class"
            " WHERE relnamespace = %s::regnamespace AND relkind = 'r' AND relname LIKE 'task%%'", (schema,)).fetchall()
        rows = admin.execute(f"SELECT tenant_id, user_id, task_id FROM {schema}.task_tasks ORDER BY task_id").fetchall()
    scoped = {name: (enabled, forced, owner) for name, enabled, forced, owner in tables if name != "task_schema"}
    assert set(scoped) >= {"task_tasks", "task_steps", "task_events"}
    assert all(value == (True, True, OWNER_ROLE) for value in scoped.values()), scoped
    assert rows == [("acme", "alice", "acme-merger"), ("globex", "carol", "globex-invoices")]
    assert alice._db._conn.execute("SELECT current_user").fetchone()[0] == APP_ROLE
    alice.close()
    carol.close()


def test_each_scope_sees_and_claims_only_its_own_tasks(pg_dsn: str, schema: str) -> None:
    alice, carol = _two_tenants(pg_dsn, schema)
    assert alice.tasks() == ["acme-merger"] and carol.tasks() == ["globex-invoices"]
    from primer_memory.tasks.rules import UnknownTask

    with pytest.raises(UnknownTask, match="known tasks: globex-invoices$"):
        carol.steps("acme-merger")
    assert carol.claim_next("carol-worker") is not None
    assert carol.claim_next("carol-worker-2") is None, "Acme's task is not Carol's to claim"
    alice.close()
    carol.close()


@pytest.mark.parametrize("pasted", [
    "x'; SELECT set_config('app.tenant_id','acme',true), set_config('app.user_id','alice',true); "
    "SELECT output FROM {s}.task_steps; --",
    "x' OR (SELECT set_config('app.tenant_id','acme',true) || set_config('app.user_id','alice',true)) <> '' --",
    "x'; SELECT set_config('app.scope', 'v1.99999999999.61636d65.616c696365.{zeros}', false); "
    "SELECT output FROM {s}.task_steps; --",
])
def test_sql_injected_into_one_tenants_task_connection_reads_no_other_tenants_output(
        pg_dsn: str, schema: str, pasted: str) -> None:
    alice, carol = _two_tenants(pg_dsn, schema)
    text = pasted.replace("{s}", schema).replace("{zeros}", "0" * 64)
    conn = carol._db._conn
    seen: list[tuple[object, ...]] = []
    try:
        with conn.transaction():
            cursor = conn.cursor()
            cursor.execute(f"SELECT output FROM {schema}.task_steps WHERE output = '{text}'".encode(), prepare=False)
            while True:
                if cursor.description is not None:
                    seen += cursor.fetchall()
                if not cursor.nextset():
                    break
    except psycopg.errors.InsufficientPrivilege:
        pass  # a forged scope stops the statement
    assert not any("Initech" in str(row) for row in seen), seen
    alice.close()
    carol.close()


def test_an_empty_scope_is_refused_before_and_by_the_tables(pg_dsn: str, schema: str) -> None:
    for tenant, user in (("", ""), ("acme", "")):
        with pytest.raises(UnsignableScope):
            TaskStateStore(dsn=pg_dsn, schema=schema, scope=type("S", (), {"tenant_id": tenant, "user_id": user})())
    TaskStateStore(dsn=pg_dsn, schema=schema).close()
    with psycopg.connect(pg_dsn) as admin, pytest.raises(psycopg.errors.CheckViolation):
        admin.execute(f"INSERT INTO {schema}.task_tasks (tenant_id, user_id, task_id, goal) VALUES ('', '', 'x', 'g')")


def test_a_store_opened_without_a_scope_uses_the_default_one_and_sqlite_refuses_a_scope(
        pg_dsn: str, schema: str, tmp_path: object) -> None:
    with TaskStateStore(dsn=pg_dsn, schema=schema) as store:
        store.create_task("job-1", "a job", ["one"])
        assert store.tasks() == ["job-1"]
    with TaskStateStore(dsn=pg_dsn, schema=schema, scope=Scope("default", "tasks")) as same:
        assert same.tasks() == ["job-1"]
    from primer_memory.tasks.rules import TaskFileError

    with pytest.raises(TaskFileError, match="scope="):
        TaskStateStore(f"{tmp_path}/t.db", scope=ALICE)


def test_the_public_schema_is_refused_with_a_hint(pg_dsn: str) -> None:
    from primer_memory.tasks.rules import TaskFileError

    with pytest.raises((TaskFileError, RuntimeError), match="pick another schema"):
        TaskStateStore(dsn=pg_dsn, schema="public")


def test_rows_planted_under_another_scopes_task_id_block_nothing(pg_dsn: str, schema: str) -> None:
    """SQL injected into Carol's transaction writes task_events rows under Acme's task id, seq 0 to 49. A
    foreign-key or unique check ignores row-level security, so keyed on the task id alone those rows made Acme's
    next write fail with UniqueViolation. Keyed on the scope, they point at no task of Carol's and are refused,
    and Alice's task goes on."""
    alice, carol = _two_tenants(pg_dsn, schema)
    conn = carol._db._conn
    with pytest.raises(psycopg.errors.ForeignKeyViolation), conn.transaction():
        carol._db._scope.bind(conn)
        for seq in range(50):
            conn.execute(f"INSERT INTO {schema}.task_events (task_id, seq, accepted, reason, proposal)"
                         " VALUES ('acme-merger', %s, true, 'planted', 'planted')", (seq,))
    claimed = alice.claim_next("alice-worker")
    assert claimed is not None and claimed.step == "sign"
    alice.finish(claimed, "signed", then_claim=False)
    assert [status for _, status, _ in alice.steps("acme-merger")] == ["done", "done"]
    alice.close()
    carol.close()


def test_task_ids_are_per_scope_so_no_answer_reveals_another_scopes_id(pg_dsn: str, schema: str) -> None:
    """Carol may name her task as Alice named hers: she is told nothing about Alice's, and each sees only her own."""
    alice, carol = _two_tenants(pg_dsn, schema)
    carol.create_task("acme-merger", "Carol's own checklist", ["check"])
    assert [name for name, _, _ in carol.steps("acme-merger")] == ["check"]
    assert [name for name, _, _ in alice.steps("acme-merger")] == ["draft", "sign"]
    with psycopg.connect(pg_dsn) as admin:
        keys = admin.execute(
            "SELECT c.relname, con.contype, array_agg(a.attname ORDER BY k.n) FROM pg_constraint con"
            " JOIN pg_class c ON c.oid = con.conrelid"
            " CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, n)"
            " JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum"
            " WHERE c.relnamespace = %s::regnamespace AND con.contype IN ('p', 'u', 'f')"
            " GROUP BY c.relname, con.conname, con.contype", (schema,)).fetchall()
    assert {(t, kind) for t, kind, _ in keys} >= {("task_tasks", "p"), ("task_steps", "p"), ("task_steps", "u"),
                                                  ("task_steps", "f"), ("task_events", "p"), ("task_events", "f")}
    assert all(columns[:2] == ["tenant_id", "user_id"] for t, _, columns in keys if t.startswith("task_")), keys
    alice.close()
    carol.close()
