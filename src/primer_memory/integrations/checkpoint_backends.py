"""Where the LangGraph checkpointer keeps its rows: one SQLite file, or a PostgreSQL schema with row-level security.

A backend opens transactions (in one place only, rolled back on any error) and turns the
checkpointer's statements into its own dialect; the checkpointer's logic lives above it in
`langgraph_checkpoint`. This module imports no framework: only sqlite3, and psycopg when
PostgreSQL is used.

PostgreSQL follows notebook 5's pattern and shares its lifecycle (`postgres.session`): setup
runs once as an administrator (roles, schema, append-only MIGRATIONS, a version table, under
an advisory lock, the schema's own signing key); the tables are owned by a NOLOGIN owner role,
have row-level security ENABLEd and FORCEd, and the saver logs in as the application role,
which owns nothing and cannot bypass RLS. Each transaction pins its settings and sets the
tenant's *signed* scope, local to that transaction, so SQL running in it cannot name another
tenant: the plain setting an earlier design trusted (`app.tenant_id`) is read by nothing.

Checkpoint rows carry a tenant and no user, and the policy checks the signed tenant alone.
LangGraph keys a checkpoint by its thread and hands the saver no user: who may open a thread
is decided above the saver (as LangGraph's own auth handlers filter threads by owner), so
the tenant is the boundary the saver can enforce. The saver signs (tenant, "checkpointer"):
the user part names the graph runtime acting for the tenant, and no policy here reads it.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from ..file_paths import check_file_place, check_path_value
from ..postgres import is_schema_name
from ..postgres.scope import (TENANT_NOT_EMPTY, TENANT_POLICY, PostgresSetupError, ScopeSigner, application_dsn,
                              ensure_role, install_signed_scope, secure_table)

__all__ = ["APP_ROLE", "OWNER_ROLE", "Backend", "CheckpointError", "CheckpointScopeError", "MIGRATIONS",
           "PostgresBackend", "SQLiteBackend", "TABLES", "Tx", "check_tenant", "compact", "drop_schema", "setup",
           "setup_with_key"]

TABLES = ("checkpoints", "blobs", "writes")
APPLICATION_ID = 0x504D434B  # "PMCK": marks an SQLite file as this checkpointer's
APP_ROLE = "primer_app"  # the same login as notebook 5's memory store: NOSUPERUSER, NOBYPASSRLS, owns nothing
OWNER_ROLE = "primer_owner"  # owns the tables (NOLOGIN); FORCE ROW LEVEL SECURITY binds even it
CHECKPOINT_USER = "checkpointer"  # the user part of a saver's signed scope: the graph runtime; no policy reads it
_LOCK_KEY = 0x504D434B


class CheckpointError(ValueError):
    """The checkpoint storage cannot be used as asked; the message says what is wrong and what is allowed."""


class CheckpointScopeError(CheckpointError):
    """A saver needs one non-empty tenant from the authentication layer; the graph's config never chooses it."""


def check_tenant(tenant: object) -> str:
    if not isinstance(tenant, str) or not tenant.strip() or "\0" in tenant:
        raise CheckpointScopeError(f"tenant must be a non-empty string (no NUL) supplied by the authentication "
                                   f"layer, got {tenant!r}")
    return tenant


# MIGRATIONS[v] takes the tables from version v to v + 1 (append only). {t} is the table prefix, {bytes} the blob type.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        "CREATE TABLE {t}checkpoints (tenant_id TEXT NOT NULL, thread_id TEXT NOT NULL,"
        " checkpoint_ns TEXT NOT NULL DEFAULT '', checkpoint_id TEXT NOT NULL, parent_checkpoint_id TEXT,"
        " type TEXT NOT NULL, checkpoint {bytes} NOT NULL, metadata_type TEXT NOT NULL, metadata {bytes} NOT NULL,"
        " run_id TEXT, PRIMARY KEY (tenant_id, thread_id, checkpoint_ns, checkpoint_id))",
        "CREATE INDEX {i}checkpoints_run ON {t}checkpoints (tenant_id, run_id)",
        "CREATE TABLE {t}blobs (tenant_id TEXT NOT NULL, thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL,"
        " channel TEXT NOT NULL, version TEXT NOT NULL, type TEXT NOT NULL, blob {bytes} NOT NULL,"
        " PRIMARY KEY (tenant_id, thread_id, checkpoint_ns, channel, version))",
        "CREATE TABLE {t}writes (tenant_id TEXT NOT NULL, thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL,"
        " checkpoint_id TEXT NOT NULL, task_id TEXT NOT NULL, idx INTEGER NOT NULL, channel TEXT NOT NULL,"
        " type TEXT NOT NULL, blob {bytes} NOT NULL, task_path TEXT NOT NULL DEFAULT '',"
        " PRIMARY KEY (tenant_id, thread_id, checkpoint_ns, checkpoint_id, task_id, idx))",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)
class Tx(Protocol):
    """What the checkpointer may do inside one transaction."""

    def run(self, sql: str, params: Sequence[Any]) -> int: ...
    def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...
    def one(self, sql: str, params: Sequence[Any]) -> Any: ...
    def all(self, sql: str, params: Sequence[Any]) -> list[Any]: ...


class Backend(Protocol):
    label: str

    def sql(self, text: str) -> str: ...
    def transaction(self, tenant: str, *, write: bool = True) -> Any: ...
    def after_erase(self) -> None: ...
    def close(self) -> None: ...


class _Tx:
    """Rows in and out through one connection (sqlite3 or psycopg: both have execute/executemany)."""

    def __init__(self, conn: Any):
        self._conn = conn

    def run(self, sql: str, params: Sequence[Any]) -> int:
        return int(self._conn.execute(sql, params).rowcount)

    def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        cursor = self._conn.cursor()
        try:
            cursor.executemany(sql, rows)
        finally:
            cursor.close()

    def one(self, sql: str, params: Sequence[Any]) -> Any:
        return self._conn.execute(sql, params).fetchone()

    def all(self, sql: str, params: Sequence[Any]) -> list[Any]:
        return list(self._conn.execute(sql, params).fetchall())


# --------------------------------------------------------------------------- SQLite


class SQLiteBackend:
    """One SQLite file, one connection guarded by a lock; WAL, full sync, secure_delete (erased bytes are zeroed)."""

    def __init__(self, path: Any, *, timeout: float = 30.0):
        given = check_path_value(path, CheckpointError)
        check_file_place(given, CheckpointError, writable=True, example="checkpoints.db")
        self.label = given
        self._lock = threading.RLock()
        try:
            self._conn = sqlite3.connect(given, isolation_level=None, timeout=timeout, check_same_thread=False)
        except sqlite3.Error as error:
            raise CheckpointError(f"{given!r} cannot be opened as an SQLite file ({error})") from None
        try:
            self._open()
        except BaseException:
            self._conn.close()
            raise

    def _open(self) -> None:
        try:
            self._refuse_foreign()
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.execute("PRAGMA secure_delete=ON")
            with self.transaction("-"):
                version = self._conn.execute("PRAGMA user_version").fetchone()[0]
                for statements in MIGRATIONS[version:]:
                    for statement in statements:
                        self._conn.execute(statement.format(t="", i="", bytes="BLOB"))
                if version < SCHEMA_VERSION:
                    self._conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
                    self._conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.DatabaseError as error:
            raise CheckpointError(f"{self.label!r} is not a usable SQLite file ({error}); give a new path") from None

    def _refuse_foreign(self) -> None:
        """Nothing is written to a file that holds another program's tables, or a newer checkpoint schema."""
        app_id = self._conn.execute("PRAGMA application_id").fetchone()[0]
        version = self._conn.execute("PRAGMA user_version").fetchone()[0]
        names = {n for (n,) in self._conn.execute("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite%'")}
        nothing = "nothing was written to it; give a new path for the checkpoints"
        if app_id not in (0, APPLICATION_ID) or (app_id == 0 and names):
            raise CheckpointError(f"{self.label!r} holds another program's database ({', '.join(sorted(names))}); "
                                  f"{nothing}")
        if version > SCHEMA_VERSION:
            raise CheckpointError(f"{self.label!r} has checkpoint schema version {version}; this code reads "
                                  f"{SCHEMA_VERSION} or older. Upgrade primer-memory")

    def sql(self, text: str) -> str:
        return text.replace("{t}", "")

    @contextmanager
    def transaction(self, tenant: str, *, write: bool = True) -> Iterator[_Tx]:
        """BEGIN IMMEDIATE for a write (BEGIN for a read); COMMIT at the end, ROLLBACK on any error."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield _Tx(self._conn)
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def after_erase(self) -> None:
        """Fold the write-ahead log into the file and empty it, so erased rows leave no copy in the -wal file."""
        with self._lock:
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        with self._lock:
            self._conn.close()


# --------------------------------------------------------------------------- PostgreSQL


def _schema(name: object) -> str:
    if not is_schema_name(name):
        raise CheckpointError(f"schema must be a lower-case SQL name (letters, digits, _; at most 63), got {name!r}")
    return name


def _ensure_role(cur: Any, role: str, *, login: bool, password: str | None) -> None:
    """The memory store's role rule (create if missing, refuse superuser or BYPASSRLS), with this module's error."""
    try:
        ensure_role(cur, role, login=login, password=password)
    except PostgresSetupError as refused:
        raise CheckpointError(str(refused)) from None


def setup(admin_dsn: str, *, schema: str = "primer_checkpoints", app_role: str = APP_ROLE,
          owner_role: str = OWNER_ROLE, app_password: str | None = None) -> int:
    """Create (or bring up to date) the checkpoint tables in `schema`; return the schema version. Idempotent."""
    return setup_with_key(admin_dsn, schema=schema, app_role=app_role, owner_role=owner_role,
                          app_password=app_password)[0]


def setup_with_key(admin_dsn: str, *, schema: str = "primer_checkpoints", app_role: str = APP_ROLE,
                   owner_role: str = OWNER_ROLE, app_password: str | None = None) -> tuple[int, bytes]:
    """`setup`, returning the schema's signing key too (for the process that signs its savers' scopes)."""
    import psycopg
    from psycopg import sql

    schema = _schema(schema)
    ident = sql.Identifier
    prefix = ident(schema).as_string(None) + "."
    try:
        conn = psycopg.connect(admin_dsn, autocommit=True)
    except psycopg.OperationalError as exc:
        raise CheckpointError(f"cannot connect to PostgreSQL as administrator ({type(exc).__name__}); check the "
                              "server, the user and the database name") from None
    with conn, conn.transaction():
        cur = conn.cursor()
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
        _ensure_role(cur, owner_role, login=False, password=None)
        _ensure_role(cur, app_role, login=True, password=app_password)
        if not cur.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()[0]:
            cur.execute(sql.SQL("GRANT {} TO CURRENT_USER").format(ident(owner_role)))
        cur.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {} AUTHORIZATION {}").format(ident(schema), ident(owner_role)))
        owner = cur.execute("SELECT nspowner::regrole::text FROM pg_namespace WHERE nspname = %s", (schema,)).fetchone()
        if owner is None or owner[0] != owner_role:
            raise CheckpointError(f"schema {schema!r} exists and is owned by {owner[0] if owner else '?'}, not "
                                  f"{owner_role}; pick another schema name")
        cur.execute(sql.SQL("SET LOCAL ROLE {}").format(ident(owner_role)))  # the owner creates: it owns them
        cur.execute(sql.SQL("CREATE TABLE IF NOT EXISTS {}.schema_version (version int NOT NULL)").format(ident(schema)))
        version = cur.execute(sql.SQL("SELECT max(version) FROM {}.schema_version").format(ident(schema))).fetchone()[0] or 0
        if version > SCHEMA_VERSION:
            raise CheckpointError(f"schema {schema!r} is at checkpoint version {version}; this code knows "
                                  f"{SCHEMA_VERSION}: upgrade primer-memory")
        for number, step in enumerate(MIGRATIONS[version:], start=version + 1):
            for statement in step:
                cur.execute(statement.format(t=prefix, i="", bytes="BYTEA"))
            cur.execute(sql.SQL("INSERT INTO {}.schema_version (version) VALUES (%s)").format(ident(schema)), (number,))
        cur.execute("RESET ROLE")
        cur.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(ident(schema), ident(app_role)))
        cur.execute(sql.SQL("GRANT SELECT ON {}.schema_version TO {}").format(ident(schema), ident(app_role)))
        for table in TABLES:
            cur.execute(sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE ON {}.{} TO {}").format(
                ident(schema), ident(table), ident(app_role)))
        key = install_signed_scope(cur, schema, owner_role=owner_role, app_role=app_role)
        for table in TABLES:  # replaces the plain-setting policy of schemas made before (tenant_only)
            secure_table(cur, schema, table, policy="signed_tenant", check=TENANT_POLICY, not_empty=TENANT_NOT_EMPTY)
    return SCHEMA_VERSION, key


def drop_schema(admin_dsn: str, schema: str) -> None:
    """Remove the checkpoint schema and everything in it (tests and the notebook's clean-up)."""
    from ..postgres.scope import drop_schema as drop

    drop(admin_dsn, _schema(schema))


def compact(admin_dsn: str, schema: str = "primer_checkpoints") -> None:
    """Rewrite the checkpoint tables (VACUUM FULL, as an administrator): erased rows leave the live data files.

    A DELETE only marks rows dead; their bytes stay in the table's pages until the table
    is rewritten. The write-ahead log keeps its own copy until the server recycles it.
    """
    from ..postgres import vacuum

    for table in TABLES:
        vacuum(admin_dsn, _schema(schema), table, full=True)


@dataclass(frozen=True)
class _SaverScope:
    """What a saver's unit of work signs: its tenant, and the graph runtime as the user (see the module's note)."""

    tenant_id: str
    user_id: str = CHECKPOINT_USER


class PostgresBackend:
    """The shared lifecycle's pool of the application role; each transaction signs the tenant's scope for itself."""

    def __init__(self, dsn: str | None = None, *, schema: str = "primer_checkpoints", app_dsn: str | None = None,
                 pool_size: int = 4, signing_key: bytes | None = None):
        from ..postgres import APP_PASSWORD_VARIABLE, local_server
        from ..postgres.session import connect_pool

        self.schema = _schema(schema)
        if app_dsn is None:
            admin = local_server() if dsn is None else dsn
            password = os.environ.get(APP_PASSWORD_VARIABLE) or None
            _, signing_key = setup_with_key(admin, schema=self.schema, app_password=password)
            app_dsn = application_dsn(admin, app_role=APP_ROLE, app_password=password)
        elif signing_key is None:
            raise CheckpointError("with app_dsn= (no setup run here) give the schema's signing key as signing_key=; "
                                  "read it as the administrator with primer_memory.postgres.scope.read_signing_key")
        self.signer = ScopeSigner(signing_key)
        self.label = f"PostgreSQL schema {self.schema!r}"
        from psycopg import sql

        self._prefix = sql.Identifier(self.schema).as_string(None) + "."
        try:
            self.pool = connect_pool(app_dsn, max_size=pool_size)
        except Exception as exc:  # a failed login shows as a timeout: say what to check, never echo the DSN
            raise CheckpointError(f"the application role could not connect ({type(exc).__name__}); on a server "
                                  "that wants passwords set PRIMER_PG_APP_PASSWORD") from None
        with self.pool.connection() as conn:
            if conn.execute("SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user").fetchone()[0]:
                self.pool.close()
                raise CheckpointError("the saver connected as a role that bypasses row-level security; connect as "
                                      f"{APP_ROLE} (give the administrator DSN as dsn=)")

    def sql(self, text: str) -> str:
        return text.replace("{t}", self._prefix).replace("?", "%s")

    @contextmanager
    def transaction(self, tenant: str, *, write: bool = True) -> Iterator[_Tx]:
        """One unit of work of the shared lifecycle: a pooled connection, a transaction, the pinned settings, and
        the tenant's scope signed for this transaction alone (all gone at COMMIT)."""
        from psycopg import DataError

        from ..postgres.session import scoped_transaction

        try:
            with scoped_transaction(self.pool, self.signer, _SaverScope(tenant)) as conn:
                yield _Tx(conn)
        except DataError as error:  # e.g. a NUL character, which PostgreSQL text cannot hold; rolled back already
            raise CheckpointError(f"PostgreSQL refused a value ({error.diag.message_primary or error}); thread ids "
                                  "and namespaces must be text without NUL characters") from None

    def after_erase(self) -> None:
        """Rows are gone for every query; their bytes leave the files at the next `compact` (an administrator's)."""

    def close(self) -> None:
        self.pool.close()
