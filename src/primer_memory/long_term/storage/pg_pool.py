"""Connections to the PostgreSQL store: a pool per process, and a scope that lasts one transaction.

A pooled connection is reused by the next request, maybe another tenant's, so
nothing about the caller may be set for the session. Each unit of work is one
transaction whose first statement sets the caller's *signed* scope with
`set_config('app.scope', token, true)` (local: gone at COMMIT or ROLLBACK); the
policies check its signature (see `pg_scope`), so SQL running in the transaction
cannot swap it for another tenant's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .pg_scope import APP_ROLE, SCOPE_SQL, SignedScope, UnsignableScope, application_dsn

__all__ = ["APP_ROLE", "SCOPE_SQL", "application_dsn", "connect_pool", "scope_settings", "scoped_transaction"]


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
def scoped_transaction(pool: Any, scope: SignedScope) -> Iterator[Any]:
    """One unit of work for one caller: a pooled connection, a transaction, the signed scope set first.

    Rolls back on error. A plain `Scope` is refused: sign it first (`store.signer.sign(scope)`).
    """
    if not isinstance(scope, SignedScope):
        raise UnsignableScope(f"a unit of work needs a signed scope, got {type(scope).__name__}: sign the caller's "
                              "scope with the store's ScopeSigner (store.signer.sign(scope))")
    with pool.connection() as conn, conn.transaction():
        conn.execute(SCOPE_SQL, (scope.token,))
        yield conn


def scope_settings(conn: Any) -> str | None:
    """The signed scope this connection's transaction carries right now: None when never set, '' after it ended."""
    return conn.execute("SELECT current_setting('app.scope', true)").fetchone()[0]
