"""The PostgreSQL session lifecycle: nothing one tenant's transaction plants in a pooled session serves the next.

SQL injected into Alice's own, validly signed transaction runs as the application role, which may prepare and
deallocate statements, set session settings and even its own role defaults. Each test plants one such thing
inside Alice's unit of work, on a store whose pool holds a single connection (so Bob gets the very same session
next), and then checks Bob's ordinary request (issue 40):
- a prepared statement under a name psycopg would run (its automatic preparation named them `_pg3_N`);
- a session-level `app.scope`, which a borrower that sets no scope would inherit;
- a session `search_path` without the schema of pgvector's operators, which made Bob's recall fail;
- role defaults (`ALTER ROLE primer_app SET ...`): read-only transactions, a serializable default, timeouts.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest

from primer_memory import LongTermMemory, Scope
from primer_memory.long_term.embedding import HashingEmbedder
from primer_memory.postgres import scope as pg_scope
from primer_memory.long_term.storage.postgres import PostgresStore, drop_schema

pytestmark = pytest.mark.postgres

ALICE, BOB = Scope("acme", "alice"), Scope("acme", "bob")
BOB_SECRET = "Bob's payroll run is on the 25th."
EMBEDDING = {"embedder_name": HashingEmbedder().name, "dim": HashingEmbedder().dim}


@pytest.fixture
def world(pg_dsn: str) -> Iterator[LongTermMemory]:
    schema = "session_" + uuid.uuid4().hex[:8]
    store = PostgresStore(pg_dsn, schema=schema, pool_size=1, **EMBEDDING)
    memory = LongTermMemory(store=store)
    memory.remember(ALICE, "semantic", "Alice's fiscal year starts in April.")
    memory.remember(BOB, "semantic", BOB_SECRET)
    yield memory
    memory.close()
    drop_schema(pg_dsn, schema)


def _inject(memory: LongTermMemory, statement: str) -> None:
    """Run `statement` inside Alice's own signed unit of work, as an injection into her request would."""
    with memory.store._unit(ALICE) as conn:  # type: ignore[attr-defined]
        conn.execute(statement.encode(), prepare=False)


def test_the_store_prepares_nothing_on_the_server(world: LongTermMemory) -> None:
    for _ in range(8):  # psycopg's automatic preparation took a query after five runs
        world.recall(BOB, "payroll", k=1)
    with world.store._unit(BOB) as conn:  # type: ignore[attr-defined]
        assert conn.execute("SELECT count(*) FROM pg_prepared_statements").fetchone()[0] == 0


def test_a_statement_alice_prepares_is_gone_before_bob_borrows_the_session(world: LongTermMemory) -> None:
    _inject(world, "PREPARE _pg3_0 AS SELECT set_config('app.leak', current_setting('app.scope', true), false)")
    assert [r.content for r in world.recall(BOB, "payroll", k=1)] == [BOB_SECRET]
    with world.store._unit(ALICE) as conn:  # type: ignore[attr-defined]
        assert conn.execute("SELECT count(*) FROM pg_prepared_statements").fetchone()[0] == 0
        assert conn.execute("SELECT current_setting('app.leak', true)").fetchone()[0] in (None, "")


def test_a_session_scope_alice_plants_serves_no_borrower(world: LongTermMemory) -> None:
    _inject(world, "SELECT set_config('app.scope', current_setting('app.scope'), false)")  # her token, kept
    with world.store.pool.connection() as conn:  # type: ignore[attr-defined]  (a borrower that sets no scope)
        assert conn.execute("SELECT current_setting('app.scope', true)").fetchone()[0] in (None, "")
        rows = conn.execute(f"SELECT count(*) FROM {world.store.schema}.records").fetchone()[0]  # type: ignore[attr-defined]
    assert rows == 0


@pytest.mark.parametrize("planted", ["SET search_path = pg_catalog", "SET search_path = pg_temp, pg_catalog",
                                     "CREATE TEMP TABLE records (x int)"])
def test_a_session_search_path_or_temp_table_changes_nothing_for_bob(world: LongTermMemory, planted: str) -> None:
    _inject(world, planted)
    assert [r.content for r in world.recall(BOB, "payroll", k=1)] == [BOB_SECRET]
    assert world.remember(BOB, "semantic", "Bob approves travel for his team.").stored


ROLE_DEFAULTS = ["default_transaction_read_only = on", "default_transaction_isolation = 'serializable'",
                 "search_path = pg_catalog", "statement_timeout = '1ms'", "lock_timeout = '1ms'",
                 "idle_in_transaction_session_timeout = '1ms'"]


@pytest.mark.parametrize("default", ROLE_DEFAULTS)
def test_a_role_default_alice_plants_changes_nothing_in_a_unit_of_work(pg_dsn: str, default: str) -> None:
    """The role may set its own defaults (ALTER ROLE ... SET); every new connection of every tenant gets them.
    Each unit of work sets what it relies on, so reads and writes go on as before."""
    schema = "roledefault_" + uuid.uuid4().hex[:8]
    first = LongTermMemory(store=PostgresStore(pg_dsn, schema=schema, pool_size=1, **EMBEDDING))
    try:
        with first.store._unit(ALICE) as conn:  # type: ignore[attr-defined]
            conn.execute(f"ALTER ROLE {pg_scope.APP_ROLE} SET {default}".encode(), prepare=False)
        with LongTermMemory(store=PostgresStore(pg_dsn, schema=schema, pool_size=1, **EMBEDDING)) as later:  # new connections
            assert later.remember(BOB, "semantic", BOB_SECRET).stored
            assert [r.content for r in later.recall(BOB, "payroll", k=1)] == [BOB_SECRET]
            with later.store._unit(BOB) as conn:  # type: ignore[attr-defined]
                shown = conn.execute("SELECT current_setting('transaction_read_only'), "
                                     "current_setting('transaction_isolation'), "
                                     "current_setting('statement_timeout')").fetchone()
            assert shown == ("off", "read committed", "1min")
    finally:
        with psycopg.connect(pg_dsn, autocommit=True) as admin:
            admin.execute(f"ALTER ROLE {pg_scope.APP_ROLE} RESET ALL")
        first.close()
        drop_schema(pg_dsn, schema)
