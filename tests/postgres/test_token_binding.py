"""Property: a signed scope copied out of the transaction it was signed for reads and writes zero rows anywhere else.

A token is a bearer secret while its transaction runs: SQL injected into that transaction can read it
(`current_setting('app.scope')`). The signature covers the server process and the transaction's start, and the
database's check compares both, so the copy is refused (or sees nothing) in any other transaction (issue 40).
The class of input: every table under the signed scope (the memory tables and the task tables, each schema with its
own key), reads, updates, deletes and inserts, in a later transaction on the same connection or in a transaction on
another connection, with the token set for the transaction or for the session.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory import LongTermMemory, Scope, TaskStateStore
from primer_memory.long_term.embedding import HashingEmbedder
from primer_memory.postgres import scope as pg_scope
from primer_memory.long_term.storage.postgres import PostgresStore, drop_schema, table_names

pytestmark = pytest.mark.postgres

ALICE = Scope("acme", "alice")
OPERATIONS = {
    "read": "SELECT count(*) FROM {t}",
    "update": "UPDATE {t} SET tenant_id = tenant_id",
    "delete": "DELETE FROM {t}",
}


@pytest.fixture(scope="module")
def tables(pg_dsn: str) -> Iterator[dict[str, Any]]:
    """Alice's rows in a memory schema and a task schema; each table with the signer of its schema."""
    memory_schema, task_schema = "bind_" + uuid.uuid4().hex[:8], "bindtasks_" + uuid.uuid4().hex[:8]
    embedder = HashingEmbedder()
    store = PostgresStore(pg_dsn, schema=memory_schema, embedder_name=embedder.name, dim=embedder.dim, pool_size=1)
    memory = LongTermMemory(store=store)
    memory.remember(ALICE, "semantic", "Alice's fiscal year starts in April.")
    with TaskStateStore(dsn=pg_dsn, schema=task_schema, scope=ALICE) as tasks:
        task_id = "reconcile-" + uuid.uuid4().hex[:6]
        tasks.create_task(task_id, "Reconcile September", ["fetch", "match"])
        tasks.apply(task_id, {"step": "fetch", "status": "done", "output": "4 invoices"})  # an event too
    task_signer = pg_scope.ScopeSigner(pg_scope.read_signing_key(pg_dsn, task_schema))
    found = {f"{memory_schema}.{t}": store.signer for t in table_names()}
    found.update({f"{task_schema}.{t}": task_signer for t in ("task_tasks", "task_steps", "task_events")})
    app = pg_scope.application_dsn(pg_dsn)
    yield {"tables": found, "app": app, "admin": pg_dsn}
    memory.close()
    drop_schema(pg_dsn, memory_schema)
    with psycopg.connect(pg_dsn, autocommit=True) as admin:
        admin.execute(f'DROP SCHEMA "{task_schema}" CASCADE')


def _token_of_a_finished_transaction(conn: psycopg.Connection, signer: pg_scope.ScopeSigner, table: str) -> str:
    """Alice's genuine unit of work T on `conn`: it reads her rows, and the token leaks out of it."""
    with conn.transaction():
        signer.bind(conn, ALICE)
        assert conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] > 0  # the token works inside T
        return conn.execute("SELECT current_setting('app.scope')").fetchone()[0]


@given(table=st.integers(0, 4), operation=st.sampled_from(sorted(OPERATIONS)),
       elsewhere=st.sampled_from(["same connection, later", "another connection"]), local=st.booleans())
@settings(max_examples=40, deadline=None)
def test_a_token_copied_out_of_its_transaction_reaches_no_row(tables: dict[str, Any], table: int, operation: str,
                                                              elsewhere: str, local: bool) -> None:
    name, signer = sorted(tables["tables"].items())[table % len(tables["tables"])]
    with psycopg.connect(tables["app"], autocommit=True) as first, \
            psycopg.connect(tables["app"], autocommit=True) as second:
        token = _token_of_a_finished_transaction(first, signer, name)
        conn = first if elsewhere.startswith("same") else second
        try:
            with conn.transaction():
                conn.execute("SELECT set_config('app.scope', %s, %s)", (token, local))
                cursor = conn.execute(OPERATIONS[operation].format(t=name))
                reached = cursor.fetchone()[0] if operation == "read" else cursor.rowcount
                raise psycopg.Rollback()  # never keep what the attempt did, if anything
        except psycopg.errors.InsufficientPrivilege as refused:
            assert "another transaction" in str(refused)
            reached = 0
    assert reached == 0


def test_an_insert_with_a_copied_token_is_refused(tables: dict[str, Any]) -> None:
    name, signer = next((n, s) for n, s in tables["tables"].items() if n.endswith(".scopes"))
    with psycopg.connect(tables["app"], autocommit=True) as conn:
        token = _token_of_a_finished_transaction(conn, signer, name)
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="another transaction"):
            with conn.transaction():
                conn.execute("SELECT set_config('app.scope', %s, true)", (token,))
                conn.execute(f"INSERT INTO {name} (tenant_id, user_id, next_seq, generation) "
                             "VALUES ('acme', 'mallory', 1, 0)")
