"""A scope the application role cannot forge: injected SQL in one tenant's transaction reaches no other tenant.

The attacks are the issue's, word for word: inside Carol's scoped transaction, pasted text
that calls `set_config('app.tenant_id', 'acme', true)` (stacked statements, or a subquery
inside one SELECT) and then reads or writes. Keyed on a plain setting they returned Alice's
6 memories; keyed on the signed scope they must return none of them and change none.
"""

from __future__ import annotations

import hashlib
import hmac
import time
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory import Scope
from primer_memory.lessons.injection_demo import INJECTIONS, run_injection
from primer_memory.lessons.rls_demo import RlsWorld, rls_world
from primer_memory.postgres import scope as pg_scope
from primer_memory.long_term.storage import postgres as pg

pytestmark = pytest.mark.postgres

CAROL, ALICE = Scope("globex", "carol"), Scope("acme", "alice")
BECOME_ALICE = "SELECT set_config('app.tenant_id','acme',true), set_config('app.user_id','alice',true)"


@pytest.fixture(scope="module")
def world(pg_dsn: str) -> Iterator[RlsWorld]:
    world = rls_world(pg_dsn, schema="signed_" + uuid.uuid4().hex[:8])
    yield world
    world.close()
    pg.drop_schema(pg_dsn, world.schema)


def _all_results(conn: Any, statement: str) -> list[tuple[Any, ...]]:
    """Every row of every result set of a statement sent as text (the simple protocol runs stacked statements)."""
    cursor = conn.cursor()
    cursor.execute(statement.encode(), prepare=False)
    rows: list[tuple[Any, ...]] = []
    while True:
        if cursor.description is not None:
            rows += cursor.fetchall()
        if not cursor.nextset():
            return rows


def _alices_rows(world: RlsWorld) -> list[tuple[str, ...]]:
    with psycopg.connect(world.admin_dsn) as admin:
        return admin.execute(f"SELECT content FROM {world.schema}.records WHERE tenant_id = 'acme' AND "
                             "user_id = 'alice' ORDER BY seq").fetchall()


def test_the_issues_stacked_injection_reads_none_of_alices_memories(world: RlsWorld) -> None:
    s = world.schema
    pasted = f"x'; {BECOME_ALICE}; SELECT tenant_id, user_id, content FROM {s}.records; --"
    with pg.scoped_transaction(world.store.pool, world.store.signer, CAROL) as conn:
        rows = _all_results(conn, f"SELECT tenant_id, user_id, content FROM {s}.records WHERE content = '{pasted}'")
    contents = [r for r in rows if len(r) == 3]
    assert contents == [("globex", "carol", "Globex prefers invoices in euros.")]
    assert len(_alices_rows(world)) == 6, "Alice still has her 6 memories, none of which reached Carol"


def test_an_inline_set_config_subquery_in_one_select_reads_none_of_alices_memories(world: RlsWorld) -> None:
    s = world.schema
    statement = (f"SELECT tenant_id, user_id, content FROM {s}.records WHERE (SELECT set_config('app.tenant_id',"
                 "'acme',true) || set_config('app.user_id','alice',true)) IS NOT NULL")
    with pg.scoped_transaction(world.store.pool, world.store.signer, CAROL) as conn:
        assert conn.execute(statement).fetchall() == [("globex", "carol", "Globex prefers invoices in euros.")]


@pytest.mark.parametrize("write", [
    "UPDATE {s}.records SET content = 'owned'",
    "DELETE FROM {s}.records",
    "UPDATE {s}.scopes SET next_seq = 1",
    "INSERT INTO {s}.scopes (tenant_id, user_id, next_seq, generation) VALUES ('acme', 'mallory', 1, 0)",
])
def test_an_injected_write_after_becoming_alice_changes_none_of_her_rows(world: RlsWorld, write: str) -> None:
    s = world.schema
    before = _alices_rows(world)
    pasted = f"x'; {BECOME_ALICE}; {write.format(s=s)}; --"
    try:
        with pg.scoped_transaction(world.store.pool, world.store.signer, CAROL) as conn:
            _all_results(conn, f"SELECT tenant_id, user_id, content FROM {s}.records WHERE content = '{pasted}'")
            raise psycopg.Rollback()  # Carol's own row may have changed: leave the world as it was
    except psycopg.errors.InsufficientPrivilege as refused:
        assert "row-level security" in str(refused)
    assert _alices_rows(world) == before


@pytest.mark.parametrize("forged", [
    lambda signer, tx: "v2.99999999999.1.1.61636d65.616c696365." + "0" * 64,  # Alice's names, a made-up signature
    lambda signer, tx: signer.sign(CAROL, tx).token.replace("676c6f626578", "61636d65"),  # tenant swapped for acme
    lambda signer, tx: pg_scope.ScopeSigner(b"k" * 32).sign(ALICE, tx).token,  # signed with another key
    lambda signer, tx: "v2.1." + signer.sign(CAROL, tx).token.split(".", 2)[2],  # an expiry in the past
    lambda signer, tx: signer.sign(CAROL, (tx[0], tx[1] - 1)).token,  # genuine, for an earlier transaction
    lambda signer, tx: signer.sign(CAROL, (tx[0] + 1, tx[1])).token,  # genuine, for another server process
    lambda signer, tx: "garbage",
])
def test_a_forged_tampered_or_foreign_scope_stops_the_statement(world: RlsWorld, forged: Any) -> None:
    s = world.schema
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="app.scope|signed"):
        with pg.scoped_transaction(world.store.pool, world.store.signer, CAROL) as conn:
            tx = tuple(conn.execute(pg_scope.TRANSACTION_SQL).fetchone())
            conn.execute(pg_scope.SCOPE_SQL, (forged(world.store.signer, tx),))
            conn.execute(f"SELECT content FROM {s}.records").fetchall()


def test_an_expired_signed_scope_is_refused(world: RlsWorld) -> None:
    stale = pg_scope.ScopeSigner(world.store.signer._key, clock=lambda: time.time() - 3600)
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="expired"):
        with pg.scoped_transaction(world.store.pool, stale, CAROL) as conn:
            conn.execute(f"SELECT content FROM {world.schema}.records").fetchall()


def test_the_application_role_cannot_read_the_key(world: RlsWorld) -> None:
    s = world.schema
    key = world.store.signer._key
    with world.store.pool.connection() as conn:
        for statement in (f"SELECT key FROM {s}.scope_key", f"SELECT * FROM {s}.scope_key"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                with conn.transaction():
                    conn.execute(statement)
        sources = conn.execute("SELECT string_agg(prosrc, ' ') FROM pg_proc WHERE pronamespace = %s::regnamespace",
                               (s,)).fetchone()[0]
        assert key.hex() not in sources and key.hex() not in repr(world.store.signer)
        assert conn.execute("SELECT count(*) FROM pg_stats WHERE schemaname = %s AND tablename = 'scope_key'",
                            (s,)).fetchone()[0] == 0
        assert conn.execute("SELECT current_user").fetchone()[0] == pg.APP_ROLE


def test_a_unit_of_work_signs_for_itself_and_takes_no_token_signed_elsewhere(world: RlsWorld) -> None:
    earlier = world.store.signer.sign(CAROL, (1, 1))
    with pytest.raises(pg_scope.UnsignableScope, match="transaction"):
        with pg.scoped_transaction(world.store.pool, world.store.signer, earlier):
            pass
    with pytest.raises(pg_scope.UnsignableScope, match="ScopeSigner"):
        with pg.scoped_transaction(world.store.pool, earlier, CAROL):  # type: ignore[arg-type]
            pass


@pytest.mark.parametrize("tenant,user", [("", ""), ("", "alice"), ("acme", "")])
def test_no_one_signs_an_empty_scope(world: RlsWorld, tenant: str, user: str) -> None:
    with pytest.raises(pg_scope.UnsignableScope, match="unset scope"):
        world.store.signer.sign(type("S", (), {"tenant_id": tenant, "user_id": user})(), (1, 1))


def test_an_empty_scope_is_refused_by_the_tables_even_for_the_administrator(world: RlsWorld) -> None:
    """After a transaction the setting reads '': a row with an empty tenant and user must not exist to be seen."""
    s = world.schema
    for table in pg.table_names():
        columns = ("tenant_id, user_id, seq, id, kind, content, source, importance, created_at, last_access, "
                   "embedding") if table == "records" else "tenant_id, user_id, next_seq, generation"
        values = ("'', '', 1, 'x', 'semantic', 'planted', 't', 1, 0, 0, NULL"
                  if table == "records" else "'', '', 1, 0")
        with psycopg.connect(world.admin_dsn) as admin:
            with pytest.raises(psycopg.errors.CheckViolation):
                admin.execute(f"INSERT INTO {s}.{table} ({columns}) VALUES ({values})")
    with world.store.pool.connection() as conn:  # no scope set ('' after earlier transactions): no rows, no writes
        assert conn.execute(f"SELECT count(*) FROM {s}.records").fetchone()[0] == 0
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(f"INSERT INTO {s}.scopes (tenant_id, user_id, next_seq, generation) VALUES ('a', 'b', 1, 0)")


def test_every_injection_of_the_notebook_is_stopped_by_the_signed_scope_and_not_by_a_plain_setting(
        world: RlsWorld) -> None:
    runs = {name: run_injection(world, CAROL, name) for name in INJECTIONS}
    for name, run in runs.items():
        assert run.signed.read == [] and run.signed.written == 0, name
    assert len(runs["stacked: become Alice, then read"].plain.read) == 6
    assert len(runs["inline: become Alice inside the same SELECT"].plain.read) == 6
    assert runs["stacked: become Alice, then overwrite her memories"].plain.written == 6
    assert runs["stacked: forge a signed scope for Alice"].signed.error is not None
    assert len(_alices_rows(world)) == 6, "the demo rolls every attack back"


names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",), exclude_characters="\x00"),
                min_size=1, max_size=12)


@settings(max_examples=25, deadline=None)
@given(tenant=names, user=names)
def test_the_database_reads_back_exactly_the_names_that_were_signed(world: RlsWorld, tenant: str, user: str) -> None:
    """Property over any non-empty names (dots, quotes, '%', look-alikes, any Unicode but NUL): what the
    database verifies is exactly the tenant and user signed, never a shifted or merged field."""
    caller = type("S", (), {"tenant_id": tenant, "user_id": user})()
    with pg.scoped_transaction(world.store.pool, world.store.signer, caller) as conn:
        assert conn.execute(f"SELECT * FROM {world.schema}.signed_scope()").fetchone() == (tenant, user)


@settings(max_examples=20, deadline=None)
@given(key=st.binary(min_size=0, max_size=100), message=st.binary(max_size=300))
def test_hmac_in_sql_is_the_standard_hmac_sha256(world: RlsWorld, key: bytes, message: bytes) -> None:
    """Property over any key length (shorter than, equal to and longer than the 64-byte block) and any message."""
    with psycopg.connect(world.admin_dsn) as admin:
        got = admin.execute(f"SELECT {world.schema}.hmac_sha256(%s, %s)", (key, message)).fetchone()[0]
    assert bytes(got) == hmac.new(key, message, hashlib.sha256).digest()
