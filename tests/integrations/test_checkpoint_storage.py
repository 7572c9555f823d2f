"""The checkpointer's storage: tenants kept apart (through the saver and through SQL), erasure down to the bytes.

PostgreSQL: the application role owns nothing, row-level security is enabled and forced on
every table, and SQL run as that role sees only the tenant set for its transaction (none
at all without one). SQLite and PostgreSQL: after `delete_thread`, the thread's values
are in no row and, once the storage is compacted, in no data file.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

if not os.environ.get("CI"):  # CI installs every extra (make test): there a missing one fails
    pytest.importorskip("langgraph.checkpoint.base", reason="the [langgraph] extra is not installed")

from langgraph.checkpoint.base import empty_checkpoint  # noqa: E402
from langgraph.checkpoint.memory import InMemorySaver  # noqa: E402

from primer_memory.integrations import (  # noqa: E402
    CheckpointError,
    CheckpointScopeError,
    PostgresCheckpointSaver,
    SQLiteCheckpointSaver,
)
from primer_memory.integrations.checkpoint_backends import APP_ROLE, TABLES, compact, drop_schema  # noqa: E402

MARKER = "ZEBRA-7731-erase-me"


def _put(saver: object, thread: str, value: object, parent: dict | None = None) -> dict:
    checkpoint = empty_checkpoint()
    checkpoint["channel_values"] = {"notes": value}
    checkpoint["channel_versions"] = {"notes": saver.get_next_version(None, None)}
    config = {"configurable": {"thread_id": thread, "checkpoint_ns": "",
                               **({"checkpoint_id": parent["configurable"]["checkpoint_id"]} if parent else {})}}
    stored = saver.put(config, checkpoint, {"source": "loop", "step": 0}, checkpoint["channel_versions"])
    saver.put_writes(stored, [("notes", value)], task_id="task-1")
    return stored


def _latest(saver: object, thread: str) -> object:
    return saver.get_tuple({"configurable": {"thread_id": thread, "checkpoint_ns": ""}})


# --------------------------------------------------------------------------- SQLite


def test_sqlite_delete_thread_leaves_no_bytes_in_the_file_or_its_log(tmp_path: Path) -> None:
    path = tmp_path / "checkpoints.db"
    with SQLiteCheckpointSaver(path) as saver:
        _put(saver, "gone", f"the secret plan {MARKER}")
        _put(saver, "kept", "an ordinary note")
        assert any(MARKER.encode() in p.read_bytes() for p in tmp_path.iterdir())
        saver.delete_thread("gone")
        assert _latest(saver, "gone") is None and _latest(saver, "kept") is not None
        on_disk = {p.name: MARKER.encode() in p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    assert not any(on_disk.values()), on_disk


def test_sqlite_refuses_another_programs_file_and_leaves_it_unchanged(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "theirs.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE orders (id INTEGER)")
    before = path.read_bytes()
    with pytest.raises(CheckpointError, match="another program"):
        SQLiteCheckpointSaver(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize("tenant", ["", "   ", None, 7, "a\0b"])
def test_a_saver_needs_one_real_tenant(tmp_path: Path, tenant: object) -> None:
    with pytest.raises(CheckpointScopeError):
        SQLiteCheckpointSaver(tmp_path / "c.db", tenant=tenant)  # type: ignore[arg-type]


def test_unknown_prune_strategy_is_a_named_error(tmp_path: Path) -> None:
    with SQLiteCheckpointSaver(tmp_path / "c.db") as saver, pytest.raises(CheckpointError, match="keep_latest"):
        saver.prune(["t"], strategy="keep_everything")


def test_two_tenants_in_one_sqlite_file_never_see_each_others_threads(tmp_path: Path) -> None:
    with SQLiteCheckpointSaver(tmp_path / "c.db", tenant="acme") as acme:
        globex = acme.for_tenant("globex")
        _put(acme, "shared-name", "acme's plan")
        assert _latest(globex, "shared-name") is None and list(globex.list(None)) == []
        globex.delete_thread("shared-name")
        globex.copy_thread("shared-name", "stolen")
        assert _latest(acme, "shared-name").checkpoint["channel_values"] == {"notes": "acme's plan"}
        assert _latest(globex, "stolen") is None


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=60)
@given(values=st.lists(JSONISH, min_size=1, max_size=4), thread=st.text(min_size=1, max_size=12))
def test_a_thread_reads_back_exactly_as_langgraphs_in_memory_saver_reads_it(
        tmp_path_factory: pytest.TempPathFactory, values: list[object], thread: str) -> None:
    """Any JSON-like channel values (64-bit ints: the serializer's range) and any thread name (unicode, quotes,
    SQL syntax): the same tuples as InMemorySaver."""
    ours, theirs = SQLiteCheckpointSaver(tmp_path_factory.mktemp("p") / "c.db"), InMemorySaver()
    try:
        for saver in (ours, theirs):
            parent = None
            for value in values:
                parent = _put(saver, thread, value, parent)
        mine, reference = list(ours.list(None)), list(theirs.list(None))
        assert [t.checkpoint["channel_values"] for t in mine] == [t.checkpoint["channel_values"] for t in reference]
        assert [t.pending_writes for t in mine] == [t.pending_writes for t in reference]
        assert [t.metadata for t in mine] == [t.metadata for t in reference]
    finally:
        ours.close()


# --------------------------------------------------------------------------- PostgreSQL


@pytest.fixture
def pg_savers(pg_dsn: str) -> Iterator[tuple[str, PostgresCheckpointSaver, PostgresCheckpointSaver]]:
    schema = "cpt_" + uuid.uuid4().hex[:10]
    acme = PostgresCheckpointSaver(pg_dsn, tenant="acme", schema=schema)
    globex = acme.for_tenant("globex")
    yield schema, acme, globex
    acme.close()
    drop_schema(pg_dsn, schema)


@pytest.mark.postgres
def test_postgres_tenants_never_see_each_others_threads_through_the_saver(pg_savers: tuple) -> None:
    _, acme, globex = pg_savers
    _put(acme, "plan", "Acme plans to acquire Initech in Q4.")
    assert _latest(globex, "plan") is None
    assert list(globex.list(None)) == [] and list(globex.list({"configurable": {"thread_id": "plan"}})) == []
    globex.delete_thread("plan")
    globex.prune(["plan"], strategy="delete")
    globex.copy_thread("plan", "copied")
    assert _latest(globex, "copied") is None
    assert _latest(acme, "plan").checkpoint["channel_values"] == {"notes": "Acme plans to acquire Initech in Q4."}


@pytest.mark.postgres
def test_postgres_sql_as_the_application_role_sees_only_its_signed_tenant(pg_dsn: str, pg_savers: tuple) -> None:
    """SQL injected into a saver's transaction runs as the application role: it sees and changes only the signed
    tenant's rows. The plain setting an earlier design trusted (`app.tenant_id`) opens nothing, and a scope signed
    with another key (another schema's, as a memory store's transaction carries) is refused."""
    import psycopg
    from psycopg import sql

    from primer_memory.postgres import role_summary
    from primer_memory.postgres.scope import ScopeSigner, new_key
    from primer_memory.postgres.session import begin_unit

    schema, acme, globex = pg_savers
    _put(acme, "plan", "acme row")
    _put(globex, "plan", "globex row")
    before = _latest(globex, "plan").checkpoint
    pool = acme._backend.pool  # the saver's own pool: the application role, as an injected query would run
    foreign = ScopeSigner(new_key())  # another schema's key: a memory store's signed transaction, say

    class Scope:
        tenant_id, user_id = "globex", "alice"

    for table in TABLES:
        target = sql.SQL("{}.{}").format(sql.Identifier(schema), sql.Identifier(table))
        everything = sql.SQL("SELECT tenant_id FROM {}").format(target)
        with pool.connection() as conn:
            assert conn.execute(everything).fetchall() == []  # no scope set: nothing
            with conn.transaction():
                conn.execute("SELECT set_config('app.tenant_id', 'globex', true)")  # the old design's plain setting
                assert conn.execute(everything).fetchall() == []
                assert conn.execute(sql.SQL("UPDATE {} SET tenant_id = tenant_id").format(target)).rowcount == 0
            with pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
                begin_unit(conn, foreign, Scope())
                conn.execute(everything)
        with acme._backend.transaction("acme") as tx:  # acme's own signed transaction, hijacked
            conn = tx._conn
            assert {r[0] for r in conn.execute(everything)} == {"acme"}
            conn.execute("SELECT set_config('app.tenant_id', 'globex', true)")
            assert {r[0] for r in conn.execute(everything)} == {"acme"}
        with pytest.raises(psycopg.errors.InsufficientPrivilege), acme._backend.transaction("acme") as tx:
            tx._conn.execute(sql.SQL("UPDATE {} SET tenant_id = 'globex'").format(target))  # WITH CHECK refuses
    assert _latest(globex, "plan").checkpoint == before  # nothing planted
    with psycopg.connect(pg_dsn, autocommit=True) as admin:
        flags = admin.execute("SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class WHERE relnamespace = "
                              "%s::regnamespace AND relkind = 'r' AND relname = ANY(%s)", (schema, list(TABLES)))
        assert sorted(flags.fetchall()) == sorted((t, True, True) for t in TABLES)
        policies = admin.execute("SELECT c.relname, p.polname, pg_get_expr(p.polqual, p.polrelid) FROM pg_policy p "
                                 "JOIN pg_class c ON c.oid = p.polrelid WHERE c.relnamespace = %s::regnamespace",
                                 (schema,)).fetchall()
        assert sorted(t for t, _, _ in policies) == sorted(TABLES)
        assert all(name == "signed_tenant" and "signed_scope()" in expr for _, name, expr in policies), policies
    summary = role_summary(pg_dsn, APP_ROLE)
    assert (summary["superuser"], summary["bypassrls"], summary["tables owned"]) == (False, False, 0)


@pytest.mark.postgres
def test_postgres_delete_thread_leaves_no_row_and_after_compaction_no_bytes(pg_dsn: str, pg_savers: tuple) -> None:
    import psycopg
    from psycopg import sql

    from primer_memory.postgres import files_contain

    schema, acme, globex = pg_savers
    _put(acme, "gone", f"the secret plan {MARKER}")
    _put(globex, "kept", "an ordinary note")
    acme.delete_thread("gone")
    with psycopg.connect(pg_dsn, autocommit=True) as admin:  # a superuser bypasses RLS: it sees every row
        for table in TABLES:
            count = admin.execute(sql.SQL("SELECT count(*) FROM {}.{} WHERE thread_id = 'gone'").format(
                sql.Identifier(schema), sql.Identifier(table))).fetchone()[0]
            assert count == 0, table
    compact(pg_dsn, schema)
    for table in TABLES:
        assert not any(files_contain(pg_dsn, schema, MARKER, table=table).values()), table
    assert _latest(globex, "kept") is not None


@pytest.mark.postgres
def test_postgres_names_a_value_it_cannot_store(pg_savers: tuple) -> None:
    _, acme, _ = pg_savers
    with pytest.raises(CheckpointError, match="NUL"):
        _put(acme, "thread\0with-nul", "x")
    assert list(acme.list(None)) == []
