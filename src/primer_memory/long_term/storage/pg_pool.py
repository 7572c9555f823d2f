"""Connections to the PostgreSQL store: a pool per process, and a scope that lasts one transaction.

A pooled connection is reused by the next request, maybe another tenant's, so
nothing about the caller may be set for the session. Each unit of work is one
transaction whose first statement sets the caller's scope with
`set_config(..., true)` (local: gone at COMMIT or ROLLBACK).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["APP_ROLE", "SCOPE_SQL", "application_dsn", "connect_pool", "scope_settings", "scoped_transaction"]

SCOPE_SQL = "SELECT set_config('app.tenant_id', %s, true), set_config('app.user_id', %s, true)"
"""The first statement of every unit of work: the caller's scope, local to this transaction."""

APP_ROLE = "primer_app"
"""The role the application logs in as: LOGIN, NOSUPERUSER, NOBYPASSRLS, owns nothing."""


def application_dsn(admin_dsn: str, *, app_role: str = APP_ROLE, app_password: str | None = None) -> str:
    """The administrator's DSN with the application role as the user (same host, port and database)."""
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    params = conninfo_to_dict(admin_dsn)
    params.pop("password", None)
    if app_password is not None:
        params["password"] = app_password
    params["user"] = app_role
    return make_conninfo(**params)


def _configure(conn: Any) -> None:
    """Run on every new pooled connection: teach psycopg the vector type."""
    from pgvector.psycopg import register_vector

    register_vector(conn)


def connect_pool(dsn: str, *, min_size: int = 1, max_size: int = 4, timeout: float = 15.0) -> Any:
    """A psycopg connection pool (autocommit connections, pgvector registered) opened and ready."""
    from psycopg_pool import ConnectionPool

    pool = ConnectionPool(
        dsn,
        min_size=min_size,
        max_size=max_size,
        kwargs={"autocommit": True},
        configure=_configure,
        open=False,
        name="primer-memory",
    )
    pool.open(wait=True, timeout=timeout)
    return pool


@contextmanager
def scoped_transaction(pool: Any, scope: Any) -> Iterator[Any]:
    """One unit of work for one caller: a pooled connection, a transaction, the scope set first; rolls back on error."""
    with pool.connection() as conn, conn.transaction():
        conn.execute(SCOPE_SQL, (scope.tenant_id, scope.user_id))
        yield conn


def scope_settings(conn: Any) -> tuple[str | None, str | None]:
    """What this connection's transaction sees as tenant and user right now (None when never set)."""
    row = conn.execute(
        "SELECT current_setting('app.tenant_id', true), current_setting('app.user_id', true)"
    ).fetchone()
    return row[0], row[1]
