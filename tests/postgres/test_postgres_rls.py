"""Row-level security on the PostgreSQL store: isolation holds even when the application's SQL is wrong.

These tests talk SQL to the real server as the application role, the way a buggy
application would: queries without their WHERE clause, LIKE patterns built from
user input (LangGraph #8300), namespace prefixes (LangGraph #8478). Every one of
them must still see only the caller's rows.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import numpy as np
import psycopg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory import Scope
from primer_memory.long_term.storage import postgres as pg

pytestmark = pytest.mark.postgres

DIM = 4
ALICE, BOB, CAROL = Scope("acme", "alice"), Scope("acme", "bob"), Scope("globex", "carol")
SIBLING = Scope("acme-corp", "alice")  # a sibling prefix: "acme" is a prefix of "acme-corp"
LOOKALIKE = Scope("\u0430cme", "alice")  # Cyrillic a: looks like "acme", is not
TRICKY = [
    Scope("acme' OR '1'='1", "x"),
    Scope("acme", "alice' --"),
    Scope("%", "%"),
    Scope("_", "_"),
    Scope("acme%", "a_ice"),
    Scope("ACME", "alice"),
    SIBLING,
    LOOKALIKE,
]
EVERYONE = [ALICE, BOB, CAROL, *TRICKY]


@pytest.fixture(scope="module")
def store(pg_dsn: str) -> Iterator[tuple[str, object]]:
    """A fresh schema with one row per scope; yields (schema, pool of the application role)."""
    schema = "rls_" + uuid.uuid4().hex[:10]
    pool = _signed_pool(pg_dsn, schema, max_size=2)
    for seq, scope in enumerate(EVERYONE, start=1):
        _insert(pool, schema, scope, seq, f"secret of {scope.tenant_id}/{scope.user_id}")
    yield schema, pool
    pool.close()
    pg.drop_schema(pg_dsn, schema)


class SignedPool:
    """The application role's pool and the signer the authentication layer would hold: units of work for a scope."""

    def __init__(self, pool: Any, signer: pg.ScopeSigner):
        self.pool, self.signer = pool, signer

    def unit(self, scope: Scope) -> Any:
        return pg.scoped_transaction(self.pool, self.signer, scope)

    def connection(self) -> Any:
        return self.pool.connection()

    def close(self) -> None:
        self.pool.close()


def _signed_pool(pg_dsn: str, schema: str, max_size: int) -> SignedPool:
    _, key = pg.setup_store(pg_dsn, schema=schema, dim=DIM, embedder_name="test")
    return SignedPool(pg.connect_pool(pg.application_dsn(pg_dsn), max_size=max_size), pg.ScopeSigner(key))


def _insert(pool: object, schema: str, scope: Scope, seq: int, content: str) -> None:
    with pool.unit(scope) as conn:
        conn.execute(
            f"INSERT INTO {schema}.records (tenant_id, user_id, seq, id, kind, content, key, source, superseded_by,"
            " importance, created_at, last_access, embedding)"
            " VALUES (%s, %s, %s, %s, 'semantic', %s, NULL, 'test', NULL, 5, 0, 0, %s)",
            (scope.tenant_id, scope.user_id, seq, f"id-{seq}", content, np.ones(DIM, dtype=np.float32)),
        )
        conn.execute(f"INSERT INTO {schema}.scopes (tenant_id, user_id, next_seq, generation) VALUES (%s, %s, 1, 0)"
                     " ON CONFLICT DO NOTHING", (scope.tenant_id, scope.user_id))


def _visible(pool: object, scope: Scope, query: str, params: tuple = ()) -> list[tuple[str, str]]:
    with pool.unit(scope) as conn:
        return conn.execute(query, params).fetchall()


def test_the_application_role_is_not_superuser_owner_or_bypassrls(pg_dsn: str, store: tuple) -> None:
    schema, _ = store
    with psycopg.connect(pg_dsn) as admin:
        role = admin.execute(
            "SELECT rolsuper, rolbypassrls, rolcreaterole FROM pg_roles WHERE rolname = %s", (pg.APP_ROLE,)
        ).fetchone()
        assert role == (False, False, False)
        tables = admin.execute(
            "SELECT relname, relrowsecurity, relforcerowsecurity, pg_get_userbyid(relowner) FROM pg_class"
            " WHERE relnamespace = %s::regnamespace AND relkind = 'r'",
            (schema,),
        ).fetchall()
    by_name = {name: (enabled, forced, owner) for name, enabled, forced, owner in tables}
    for table in pg.table_names():
        assert by_name[table] == (True, True, pg.OWNER_ROLE), table
    assert all(owner != pg.APP_ROLE for _, _, owner in by_name.values())


def test_a_query_that_lost_its_where_clause_still_sees_only_the_caller(store: tuple) -> None:
    schema, pool = store
    for scope in EVERYONE:
        for table in pg.table_names():
            rows = _visible(pool, scope, f"SELECT tenant_id, user_id FROM {schema}.{table}")
            assert rows == [(scope.tenant_id, scope.user_id)], (scope, table)


def test_or_1_equals_1_in_the_query_text_changes_nothing(store: tuple) -> None:
    schema, pool = store
    rows = _visible(pool, CAROL, f"SELECT tenant_id, user_id FROM {schema}.records WHERE tenant_id = 'acme' OR 1=1")
    assert rows == [("globex", "carol")]


def test_an_unescaped_like_pattern_from_user_input_stays_inside_the_scope(store: tuple) -> None:
    """LangGraph #8300: a prefix filter built with LIKE without escaping % and _ matched other namespaces."""
    schema, pool = store
    for scope in EVERYONE:
        for pattern in ("%", "_%", scope.tenant_id + "%", "acme%", "a_me%"):
            rows = _visible(pool, scope, f"SELECT tenant_id, user_id FROM {schema}.records WHERE tenant_id LIKE %s",
                            (pattern,))
            assert set(rows) <= {(scope.tenant_id, scope.user_id)}, (scope, pattern)


def test_a_namespace_prefix_does_not_reach_the_sibling_tenant(store: tuple) -> None:
    """LangGraph #8478: searching namespace prefix ("acme",) also returned ("acme-corp", ...)-style siblings."""
    schema, pool = store
    rows = _visible(pool, ALICE, f"SELECT tenant_id, user_id FROM {schema}.records WHERE starts_with(tenant_id, 'acme')")
    assert rows == [("acme", "alice")]
    rows = _visible(pool, SIBLING, f"SELECT tenant_id, user_id FROM {schema}.records WHERE tenant_id LIKE 'acme%%'")
    assert rows == [("acme-corp", "alice")]


def test_look_alike_and_case_variants_are_strangers(store: tuple) -> None:
    schema, pool = store
    for scope in (LOOKALIKE, Scope("ACME", "alice")):
        rows = _visible(pool, scope, f"SELECT content FROM {schema}.records")
        assert rows == [(f"secret of {scope.tenant_id}/{scope.user_id}",)]


def test_with_no_scope_set_every_query_sees_zero_rows(pg_dsn: str, store: tuple) -> None:
    schema, pool = store
    with psycopg.connect(pg.application_dsn(pg_dsn), autocommit=True) as fresh:  # never set: current_setting is NULL
        for table in pg.table_names():
            assert fresh.execute(f"SELECT count(*) FROM {schema}.{table}").fetchone() == (0,), table
        assert pg.scope_settings(fresh) is None
    with pool.connection() as used:  # set by earlier transactions, which ended: '' now
        assert used.execute(f"SELECT count(*) FROM {schema}.records").fetchone() == (0,)
        assert pg.scope_settings(used) in {"", None}


def test_a_pooled_connection_does_not_carry_the_last_callers_scope(store: tuple) -> None:
    schema, pool = store
    with pool.unit(ALICE) as conn:
        assert conn.execute(f"SELECT count(*) FROM {schema}.records").fetchone() == (1,)
    for _ in range(3):
        with pool.connection() as conn:
            assert conn.execute(f"SELECT count(*) FROM {schema}.records").fetchone() == (0,)


def test_rows_cannot_be_written_into_or_moved_to_another_scope(store: tuple) -> None:
    schema, pool = store
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
        _plant(pool, schema)
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
        with pool.unit(CAROL) as conn:
            conn.execute(f"UPDATE {schema}.records SET tenant_id = 'acme', user_id = 'alice'")
    with pool.unit(CAROL) as conn:  # a blind UPDATE or DELETE reaches only Carol's row
        assert conn.execute(f"UPDATE {schema}.records SET source = source").rowcount == 1
    assert _visible(pool, ALICE, f"SELECT content FROM {schema}.records") == [("secret of acme/alice",)]


def _plant(pool: object, schema: str) -> None:
    """Carol's transaction tries to insert a row labelled as Alice's."""
    with pool.unit(CAROL) as conn:
        conn.execute(
            f"INSERT INTO {schema}.records (tenant_id, user_id, seq, id, kind, content, source, importance,"
            " created_at, last_access, embedding) VALUES ('acme', 'alice', 99, 'x', 'semantic', 'planted', 't',"
            " 5, 0, 0, %s)",
            (np.ones(DIM, dtype=np.float32),),
        )


def test_the_application_cannot_switch_the_lock_off(store: tuple) -> None:
    schema, pool = store
    attempts = [
        f"ALTER TABLE {schema}.records DISABLE ROW LEVEL SECURITY",
        f"ALTER TABLE {schema}.records NO FORCE ROW LEVEL SECURITY",
        f"DROP POLICY signed_scope ON {schema}.records",
        f"CREATE POLICY mine ON {schema}.records USING (true)",
        f"ALTER FUNCTION {schema}.signed_scope() RENAME TO old",
        f"SELECT key FROM {schema}.scope_key",
        f"UPDATE {schema}.scope_key SET key = key",
        f"SET ROLE {pg.OWNER_ROLE}",
        "SET ROLE postgres",
    ]
    for statement in attempts:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            with pool.unit(CAROL) as conn:
                conn.execute(statement)
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
        with pool.unit(CAROL) as conn:  # row_security=off makes the query fail, not leak
            conn.execute("SET LOCAL row_security = off")
            conn.execute(f"SELECT * FROM {schema}.records")


def test_a_scope_set_in_the_query_text_is_overridden_by_nothing(store: tuple) -> None:
    """The scope comes from set_config at the start of the transaction; a caller who sets it again is just
    that caller pretending, which is why only the authentication layer may build the Scope."""
    schema, pool = store
    with pool.unit(CAROL) as conn:
        rows = conn.execute(f"SELECT content FROM {schema}.records WHERE content LIKE %s", ("%acme%",)).fetchall()
    assert rows == []


part = st.sampled_from(["acme", "acme-corp", "acme%", "a_me", "%", "_", "ACME", "\u0430cme", "x' OR '1'='1", "globex"])


@settings(max_examples=15, deadline=None)
@given(rows=st.lists(st.tuples(part, part), min_size=1, max_size=8), caller=st.tuples(part, part))
def test_every_caller_sees_exactly_its_own_rows(pg_dsn: str, rows: list[tuple[str, str]], caller: tuple) -> None:
    """Property: whatever rows exist, an unfiltered SELECT in a caller's transaction returns exactly theirs."""
    schema = "rlsp_" + uuid.uuid4().hex[:10]
    pool = _signed_pool(pg_dsn, schema, max_size=1)
    try:
        for seq, (tenant, user) in enumerate(rows, start=1):
            _insert(pool, schema, Scope(tenant, user), seq, f"{tenant}|{user}|{seq}")
        me = Scope(*caller)
        seen = _visible(pool, me, f"SELECT content FROM {schema}.records ORDER BY seq")
        expected = [f"{t}|{u}|{i}" for i, (t, u) in enumerate(rows, start=1) if (t, u) == caller]
        assert [c for (c,) in seen] == expected
    finally:
        pool.close()
        pg.drop_schema(pg_dsn, schema)
