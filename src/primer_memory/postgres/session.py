"""Connections to the PostgreSQL store: a pool per process, and a scope that lasts one transaction.

A pooled connection is reused by the next request, maybe another tenant's, so
nothing about the caller may be set for the session. Each unit of work is one
transaction whose first statement sets the caller's *signed* scope with
`set_config('app.scope', token, true)` (local: gone at COMMIT or ROLLBACK); the
policies check its signature (see `postgres.scope`), so SQL running in the transaction
cannot swap it for another tenant's.

SQL injected into one caller's transaction runs as the application role, which may change its own session and
even its own role defaults. So the lifecycle assumes nothing a session carries:
- the pool resets every connection when it is returned (`DISCARD ALL`: prepared statements, temporary tables,
  session settings, advisory locks, listeners), so nothing one borrower planted serves the next;
- psycopg never prepares statements on the server (`prepare_threshold=None`): a role may always `DEALLOCATE` and
  `PREPARE` a name in its own session, so a prepared statement is a place an injection can swap code;
- every transaction begins `ISOLATION LEVEL READ COMMITTED READ WRITE` and sets, before the scope, the
  `search_path`, `statement_timeout`, `lock_timeout` and `idle_in_transaction_session_timeout` it relies on
  (`SessionPins`), so a role default (`ALTER ROLE primer_app SET ...`) changes nothing in it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from .scope import APP_ROLE, SCOPE_SQL, TRANSACTION_ID, ScopeSigner, SignedScope, UnsignableScope, application_dsn

__all__ = ["APP_ROLE", "CONNECTION_KWARGS", "DEFAULT_PINS", "PIN_SQL", "SCOPE_SQL", "SessionPins",
           "application_dsn", "begin_unit", "connect", "connect_pool",
           "extension_schema", "reset_connection", "scope_settings", "scoped_transaction", "search_path",
           "startup_options"]


@dataclass(frozen=True)
class SessionPins:
    """What each unit of work sets for itself, whatever the role's defaults or an earlier borrower left behind."""

    search_path: str = "pg_catalog, pg_temp"
    statement_timeout: str = "60s"
    lock_timeout: str = "30s"
    idle_in_transaction_session_timeout: str = "120s"

    def values(self) -> tuple[str, str, str, str]:
        return (self.search_path, self.statement_timeout, self.lock_timeout,
                self.idle_in_transaction_session_timeout)


DEFAULT_PINS = SessionPins()
PIN_SQL = ("SELECT set_config('search_path', %s, true), set_config('statement_timeout', %s, true), "
           "set_config('lock_timeout', %s, true), set_config('idle_in_transaction_session_timeout', %s, true), "
           + TRANSACTION_ID)
"""The first statement of every unit of work: the pinned settings, local to it, and which transaction it is
(`scope.TRANSACTION_SQL`'s two values), so the scope set next can be signed for this transaction alone."""


def search_path(*schemas: str) -> str:
    """A search_path naming `schemas` (quoted), then pg_catalog, then pg_temp last so no temporary table or
    function can shadow a name the store uses."""
    quoted = ['"' + s.replace('"', '""') + '"' for s in schemas]
    return ", ".join([*quoted, "pg_catalog", "pg_temp"])


def startup_options(pins: SessionPins = DEFAULT_PINS) -> str:
    """libpq's `options`: settings sent when a connection starts, which outrank the role's defaults (`ALTER ROLE
    ... SET`) and are what `DISCARD ALL` resets to, so even the moment before a transaction's pins is covered."""
    settings = {"statement_timeout": pins.statement_timeout, "lock_timeout": pins.lock_timeout,
                "idle_in_transaction_session_timeout": pins.idle_in_transaction_session_timeout,
                "default_transaction_read_only": "off", "default_transaction_isolation": "read committed"}
    return " ".join(f"-c {name}={value.replace(' ', chr(92) + ' ')}" for name, value in settings.items())


def _configure(conn: Any) -> None:
    """Run on every new pooled connection: how its transactions begin, and psycopg taught the vector type."""
    from psycopg import IsolationLevel
    from pgvector.psycopg import register_vector

    conn.isolation_level = IsolationLevel.READ_COMMITTED  # BEGIN says both, over any role default
    conn.read_only = False
    with conn.transaction():  # the type is looked up where the extension put it, whatever search_path the role has
        schema = extension_schema(conn)
        if schema:  # a database without pgvector (a checkpointer's alone) has no vector type to teach
            conn.execute("SELECT set_config('search_path', %s, true)", (search_path(*schema),))
            register_vector(conn)


CONNECTION_KWARGS: dict[str, Any] = {"autocommit": True, "prepare_threshold": None}
"""How every application connection is opened: autocommit (transactions only where code opens one), and no
statement prepared on the server."""


def connect(dsn: str) -> Any:
    """One application connection outside a pool (a task store's own), made as the pool makes its connections."""
    import psycopg

    conn = psycopg.connect(dsn, **CONNECTION_KWARGS, options=startup_options())
    conn.read_only = False
    return conn


def reset_connection(conn: Any) -> None:
    """Run on every connection the pool takes back: forget everything the session holds."""
    conn.execute("DISCARD ALL")


def connect_pool(dsn: str, *, min_size: int = 1, max_size: int = 4, timeout: float = 15.0) -> Any:
    """A psycopg connection pool (autocommit connections, no server-side preparation, pgvector registered,
    reset on return) opened and ready."""
    from psycopg_pool import ConnectionPool

    pool = ConnectionPool(
        dsn,
        min_size=min_size,
        max_size=max_size,
        kwargs={**CONNECTION_KWARGS, "options": startup_options()},
        configure=_configure,
        reset=reset_connection,
        open=False,
        name="primer-memory",
    )
    pool.open(wait=True, timeout=timeout)
    return pool


@contextmanager
def scoped_transaction(pool: Any, signer: ScopeSigner, scope: Any, pins: SessionPins = DEFAULT_PINS
                       ) -> Iterator[Any]:
    """One unit of work for one caller: a pooled connection, a transaction, the pins, then the caller's scope
    signed for this transaction alone (two statements). Rolls back on error.

    `scope` is the caller's (tenant_id, user_id) from the authentication layer; `signer` holds the key. A token
    signed earlier (a `SignedScope`) is refused: it belongs to the transaction it was signed for.
    """
    if not isinstance(signer, ScopeSigner):
        raise UnsignableScope(f"a unit of work needs the store's ScopeSigner, got {type(signer).__name__}")
    if isinstance(scope, SignedScope):
        raise UnsignableScope("a signed token belongs to the transaction it was signed for; pass the caller's "
                              "scope and let the unit of work sign it for its own transaction")
    signer.check(scope)
    with pool.connection() as conn, conn.transaction():
        begin_unit(conn, signer, scope, pins)
        yield conn


def begin_unit(conn: Any, signer: ScopeSigner, scope: Any, pins: SessionPins = DEFAULT_PINS) -> None:
    """Inside a transaction on `conn`: the pinned settings (which also name the transaction), then the caller's
    scope signed for this transaction alone. Every unit of work starts so, pooled or not (a task store's own)."""
    transaction = tuple(conn.execute(PIN_SQL, pins.values()).fetchone()[-2:])
    conn.execute(SCOPE_SQL, (signer.sign(scope, transaction).token,))  # type: ignore[arg-type]


def scope_settings(conn: Any) -> str | None:
    """The signed scope this connection's transaction carries right now: None when never set, '' after it ended."""
    return conn.execute("SELECT current_setting('app.scope', true)").fetchone()[0]


def extension_schema(conn: Any, extension: str = "vector") -> Sequence[str]:
    """The schema an extension's types and operators live in (where `CREATE EXTENSION` put them), as a 1-tuple."""
    row = conn.execute("SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace "
                       "WHERE e.extname = %s", (extension,)).fetchone()
    return (row[0],) if row else ()
