"""The catalogue test: every table the package creates on PostgreSQL is a tenant table under the signed scope, or one
of a few named tables the application role may at most read.

It reads PostgreSQL's own catalogue for the three schemas the package creates (the memory store's, the task
store's, the LangGraph checkpointer's), so a new table, a policy left on a plain setting, or a grant too wide fails
here, whichever module made it.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest

from primer_memory import TaskStateStore
from primer_memory.integrations.checkpoint_backends import drop_schema as drop_checkpoints
from primer_memory.integrations.checkpoint_backends import setup as setup_checkpoints
from primer_memory.long_term.storage import postgres as pg
from primer_memory.postgres.scope import APP_ROLE

pytestmark = pytest.mark.postgres

TENANT_TABLES = {
    "memory": {"records", "scopes"},
    "tasks": {"task_tasks", "task_steps", "task_events"},
    "checkpoints": {"checkpoints", "blobs", "writes"},
}
"""Tables holding a tenant's rows, per schema: each has a tenant_id column and must sit under the signed scope."""
OTHER_TABLES = {
    "meta": ("memory", True, "the embedder's name and dimension: the application checks them on start"),
    "schema_version": ("memory checkpoints", True, "which migrations ran: the application reads it"),
    "task_schema": ("tasks", True, "the task tables' version: the application reads it"),
    "scope_key": ("memory tasks checkpoints", False, "the signing key: only the owner's SECURITY DEFINER check "
                                                     "reads it, never the application role"),
}
"""The other tables, by name: (schemas it is in, whether the application role may read it, why)."""


@pytest.fixture(scope="module")
def schemas(pg_dsn: str) -> Iterator[dict[str, str]]:
    tag = uuid.uuid4().hex[:8]
    made = {"memory": f"cat_mem_{tag}", "tasks": f"cat_task_{tag}", "checkpoints": f"cat_ckpt_{tag}"}
    pg.setup_store(pg_dsn, schema=made["memory"], dim=4, embedder_name="test")
    TaskStateStore(dsn=pg_dsn, schema=made["tasks"]).close()
    setup_checkpoints(pg_dsn, schema=made["checkpoints"])
    yield made
    pg.drop_schema(pg_dsn, made["memory"])
    pg.drop_schema(pg_dsn, made["tasks"])
    drop_checkpoints(pg_dsn, made["checkpoints"])


def _tables(admin: psycopg.Connection, schema: str) -> dict[str, tuple[bool, bool, bool]]:
    """name -> (has tenant_id, RLS enabled, RLS forced), for every table and partitioned table in the schema."""
    rows = admin.execute(
        "SELECT c.relname, bool_or(a.attname = 'tenant_id'), c.relrowsecurity, c.relforcerowsecurity FROM pg_class c"
        " JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped"
        " WHERE c.relnamespace = %s::regnamespace AND c.relkind IN ('r', 'p')"
        " GROUP BY c.relname, c.relrowsecurity, c.relforcerowsecurity", (schema,)).fetchall()
    return {name: (tenant, enabled, forced) for name, tenant, enabled, forced in rows}


def test_every_table_is_a_tenant_table_or_named(pg_dsn: str, schemas: dict[str, str]) -> None:
    with psycopg.connect(pg_dsn, autocommit=True) as admin:
        for kind, schema in schemas.items():
            tables = _tables(admin, schema)
            tenant = {name for name, (has_tenant, _, _) in tables.items() if has_tenant}
            assert tenant == TENANT_TABLES[kind], (kind, tenant)
            others = set(tables) - tenant
            assert others == {name for name, (where, _, _) in OTHER_TABLES.items() if kind in where.split()}, (
                kind, others)


def test_every_tenant_table_forces_rls_with_a_policy_that_checks_the_signature(pg_dsn: str,
                                                                               schemas: dict[str, str]) -> None:
    with psycopg.connect(pg_dsn, autocommit=True) as admin:
        for kind, schema in schemas.items():
            tables = _tables(admin, schema)
            for name in TENANT_TABLES[kind]:
                assert tables[name][1:] == (True, True), f"{schema}.{name} must ENABLE and FORCE row-level security"
                policies = admin.execute(
                    "SELECT polcmd, polpermissive, pg_get_expr(polqual, polrelid), pg_get_expr(polwithcheck, polrelid)"
                    " FROM pg_policy WHERE polrelid = %s::regclass", (f'"{schema}"."{name}"',)).fetchall()
                assert policies, f"{schema}.{name} has no policy"
                for command, permissive, using, check in policies:
                    assert command == "*" and permissive, (name, command)  # one policy for every command
                    for expression in (using, check):
                        assert f"{schema}.signed_scope()" in expression and "current_setting" not in expression, (
                            name, expression)


def test_the_application_role_may_at_most_read_the_other_tables(pg_dsn: str, schemas: dict[str, str]) -> None:
    with psycopg.connect(pg_dsn, autocommit=True) as admin:
        for kind, schema in schemas.items():
            for name, (where, readable, _) in OTHER_TABLES.items():
                if kind not in where.split():
                    continue
                target = f'"{schema}"."{name}"'
                rights = {right: admin.execute("SELECT has_table_privilege(%s, %s, %s)",
                                               (APP_ROLE, target, right)).fetchone()[0]
                          for right in ("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER")}
                assert rights.pop("SELECT") == readable, (schema, name)
                assert not any(rights.values()), (schema, name, rights)
        owned = admin.execute("SELECT count(*) FROM pg_class WHERE relowner = %s::regrole", (APP_ROLE,)).fetchone()[0]
        assert owned == 0  # the application role owns nothing: it could drop or alter what it owned
