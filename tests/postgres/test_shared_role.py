"""What one shared application role still lets a tenant do to the others, each bounded (notebook 5's list).

Each test runs one of `lessons.shared_role`'s experiments on a real store, Carol (globex) trying, Alice (acme) the
other tenant: a long statement and a table lock cost others at most the pinned timeouts and end in a named error;
a running statement's pasted text is visible to every session of the role, its bound parameters never; a role's
own defaults reach a plain session, and the pinned settings hold in every unit of work.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from primer_memory import Scope
from primer_memory.lessons import shared_role
from primer_memory.long_term.on_postgres import memory_on_postgres

pytestmark = pytest.mark.postgres

ALICE, CAROL = Scope("acme", "alice"), Scope("globex", "carol")


@pytest.fixture(scope="module")
def world(pg_dsn: str) -> Iterator[tuple[object, str]]:
    schema = "shared_" + uuid.uuid4().hex[:8]
    memory = memory_on_postgres(pg_dsn, schema=schema, fresh=True)
    memory.remember(ALICE, "semantic", "Alice's fiscal year starts in April.")
    yield memory.store, f"{schema}.records"
    memory.close()
    from primer_memory.long_term.storage.postgres import drop_schema

    drop_schema(pg_dsn, schema)


def test_a_long_statement_is_cancelled_by_the_pinned_timeout(world: tuple) -> None:
    store, _ = world
    limit = shared_role._long_statement(store, CAROL)
    assert "QueryCanceled" in limit.happened, limit


def test_a_table_lock_holds_another_tenant_for_the_lock_timeout_then_fails_by_name(world: tuple) -> None:
    store, table = world
    limit = shared_role._lock_table(store, table, CAROL, ALICE)
    assert "lock_timeout ran out, then failed: LockNotAvailable" in limit.happened, limit


def test_a_running_statements_pasted_text_shows_its_bound_parameters_never(world: tuple) -> None:
    store, _ = world
    limit = shared_role._running_text(store, CAROL, ALICE)
    assert "'the Initech merger'" in limit.happened and "never its bound parameter" in limit.happened, limit


def test_a_role_default_reaches_plain_sessions_and_the_pins_hold(world: tuple, pg_dsn: str) -> None:
    import psycopg

    from primer_memory.postgres.session import APP_ROLE

    store, _ = world
    limit = shared_role._own_defaults(store, pg_dsn, CAROL, ALICE)
    assert "a plain new session got statement_timeout 0, work_mem 64kB" in limit.happened, limit
    assert "statement_timeout 1min (pinned) and work_mem 64kB (not pinned)" in limit.happened, limit
    with psycopg.connect(pg_dsn, autocommit=True) as admin:  # and the role's defaults are reset afterwards
        settings = admin.execute("SELECT setconfig FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole"
                                 " WHERE r.rolname = %s", (APP_ROLE,)).fetchone()
    assert settings is None or not any(s.startswith(("statement_timeout", "work_mem")) for s in settings[0] or [])
