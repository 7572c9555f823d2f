"""Long-term memory storage on PostgreSQL + pgvector, isolated by row-level security.

The database, not the application, keeps tenants apart: every table that holds
memory content has row-level security ENABLEd and FORCEd, with one policy
"this row's tenant and user are the ones set for this transaction". The
application connects as a role that is neither superuser, nor owner, nor
BYPASSRLS, and every unit of work starts with
`SELECT set_config('app.tenant_id', %s, true), set_config('app.user_id', %s, true)`
(the `true` makes it local to the transaction, so a pooled connection never
carries one caller's scope into the next). With no scope set,
`current_setting(..., true)` is NULL (or '' once a transaction has ended) and
every query sees zero rows: it fails closed.

Setup runs as an administrator (the DSN of `primer_memory.postgres.local_server()`
or your own): it creates the extension, the two roles, the schema, applies the
append-only MIGRATIONS and records the version. It is idempotent and serialised
by an advisory lock, so many processes may call it at once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

__all__ = [
    "APP_ROLE",
    "MIGRATIONS",
    "OWNER_ROLE",
    "SCOPE_SQL",
    "PostgresSetupError",
    "app_dsn",
    "connect_pool",
    "scoped_transaction",
    "setup",
]

APP_ROLE = "primer_app"
"""The role the application logs in as: LOGIN, NOSUPERUSER, NOBYPASSRLS, owns nothing."""
OWNER_ROLE = "primer_owner"
"""Owns the schema and tables (NOLOGIN); FORCE ROW LEVEL SECURITY binds even it."""

SCOPE_SQL = "SELECT set_config('app.tenant_id', %s, true), set_config('app.user_id', %s, true)"
"""The first statement of every unit of work: the caller's scope, local to this transaction."""

_SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
_LOCK_KEY = 0x504D454D  # "PMEM": one advisory lock serialises every setup() on the server

# A row is visible, insertable and updatable only inside the scope set for this transaction.
_POLICY = (
    "tenant_id = current_setting('app.tenant_id', true) AND user_id = current_setting('app.user_id', true)"
)

# Append-only: never edit an applied step; add a new one. {s} is the schema, {dim} the vector size.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        "CREATE TABLE {s}.meta (name text PRIMARY KEY, value text NOT NULL)",
        "CREATE TABLE {s}.scopes (tenant_id text NOT NULL, user_id text NOT NULL, next_seq bigint NOT NULL,"
        " PRIMARY KEY (tenant_id, user_id))",
        "CREATE TABLE {s}.records (tenant_id text NOT NULL, user_id text NOT NULL, seq bigint NOT NULL,"
        " id text NOT NULL,"
        " kind text NOT NULL CHECK (kind IN ('episodic', 'semantic', 'procedural')),"
        " content text NOT NULL, key text, source text NOT NULL, superseded_by text,"
        " importance smallint NOT NULL, created_at double precision NOT NULL,"
        " last_access double precision NOT NULL, embedding vector({dim}) NOT NULL,"
        " PRIMARY KEY (tenant_id, user_id, seq), UNIQUE (tenant_id, user_id, id))",
        "ALTER TABLE {s}.records ALTER COLUMN embedding SET STORAGE PLAIN",  # 2 KB vectors stay in the row, not TOAST
        "CREATE INDEX records_embedding_hnsw ON {s}.records USING hnsw (embedding vector_cosine_ops)",
        "ALTER TABLE {s}.scopes ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE {s}.scopes FORCE ROW LEVEL SECURITY",
        "ALTER TABLE {s}.records ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE {s}.records FORCE ROW LEVEL SECURITY",
        f"CREATE POLICY scope_only ON {{s}}.scopes USING ({_POLICY}) WITH CHECK ({_POLICY})",
        f"CREATE POLICY scope_only ON {{s}}.records USING ({_POLICY}) WITH CHECK ({_POLICY})",
    ),
)

_COLUMNS = ("id, seq, kind, content, key, source, superseded_by, importance, created_at, last_access, embedding")

# Every statement names the caller's scope in its WHERE clause too: RLS is the lock, not the only check.
SQL_LOCK_SCOPE = (
    "INSERT INTO {s}.scopes (tenant_id, user_id, next_seq) VALUES (%s, %s, 1)"
    " ON CONFLICT (tenant_id, user_id) DO UPDATE SET next_seq = {s}.scopes.next_seq RETURNING next_seq"
)  # takes the scope's row lock: writes to one scope queue up, across processes
SQL_SET_NEXT_SEQ = "UPDATE {s}.scopes SET next_seq = %s WHERE tenant_id = %s AND user_id = %s"
SQL_PEEK_NEXT_SEQ = "SELECT next_seq FROM {s}.scopes WHERE tenant_id = %s AND user_id = %s"
SQL_ALL = f"SELECT {_COLUMNS} FROM {{s}}.records WHERE tenant_id = %s AND user_id = %s ORDER BY seq"
SQL_CURRENT = (
    f"SELECT {_COLUMNS} FROM {{s}}.records WHERE tenant_id = %s AND user_id = %s AND superseded_by IS NULL ORDER BY seq"
)
SQL_HISTORY = f"SELECT {_COLUMNS} FROM {{s}}.records WHERE tenant_id = %s AND user_id = %s AND key = %s ORDER BY seq"
SQL_INSERT = (
    "INSERT INTO {s}.records (tenant_id, user_id, seq, id, kind, content, key, source, superseded_by,"
    " importance, created_at, last_access, embedding) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
)
SQL_SUPERSEDE = "UPDATE {s}.records SET superseded_by = %s WHERE tenant_id = %s AND user_id = %s AND id = %s"
SQL_TOUCH = "UPDATE {s}.records SET last_access = %s WHERE tenant_id = %s AND user_id = %s AND id = ANY(%s)"
SQL_FORGET = f"DELETE FROM {{s}}.records WHERE tenant_id = %s AND user_id = %s AND id = %s RETURNING {_COLUMNS}"
SQL_DELETE_USER = "DELETE FROM {s}.records WHERE tenant_id = %s AND user_id = %s"
SQL_DELETE_SCOPE = "DELETE FROM {s}.scopes WHERE tenant_id = %s AND user_id = %s"
# Exact search: the partition's rows are scored one by one (MATERIALIZED keeps the planner off the HNSW index).
SQL_SEARCH_EXACT = (
    "WITH part AS MATERIALIZED (SELECT id, seq, embedding <=> %(q)s AS distance FROM {s}.records"
    " WHERE tenant_id = %(t)s AND user_id = %(u)s AND superseded_by IS NULL AND kind = ANY(%(kinds)s))"
    " SELECT id, distance FROM part ORDER BY distance, seq DESC LIMIT %(n)s"
)
# Approximate search: the HNSW index, scanned on until n rows pass the filters (pgvector >= 0.8).
SQL_SEARCH_HNSW = (
    "SELECT id, distance FROM (SELECT id, seq, embedding <=> %(q)s AS distance FROM {s}.records"
    " WHERE tenant_id = %(t)s AND user_id = %(u)s AND superseded_by IS NULL AND kind = ANY(%(kinds)s)"
    " ORDER BY embedding <=> %(q)s LIMIT %(n)s) AS hits ORDER BY distance, seq DESC"
)
SQL_HNSW_SETTINGS = (
    "SELECT set_config('hnsw.iterative_scan', 'strict_order', true), set_config('hnsw.ef_search', %s, true)"
)

_CONTENT_TABLES = ("scopes", "records")
"""Tables holding memory content (or whose rows name a user): RLS on each."""


class PostgresSetupError(RuntimeError):
    """The server cannot host the store: no pgvector, a foreign schema, a newer version, another embedder."""


def _schema(name: str) -> str:
    if not isinstance(name, str) or not _SCHEMA_NAME.match(name):
        raise ValueError(f"schema must be a lower-case SQL name (letters, digits, _; at most 63), got {name!r}")
    return name


def _ddl(statement: str, schema: str, dim: int) -> Any:
    """A migration step with the schema quoted as an identifier and the dimension as a checked int."""
    from psycopg import sql

    return sql.SQL(statement.replace("{dim}", str(int(dim)))).format(s=sql.Identifier(schema))


def _ensure_role(cur: Any, role: str, login: bool, password: str | None) -> None:
    from psycopg import sql

    exists = cur.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
    attributes = "LOGIN" if login else "NOLOGIN"
    verb = "ALTER" if exists else "CREATE"
    cur.execute(
        sql.SQL(verb + " ROLE {} " + attributes + " NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS").format(
            sql.Identifier(role)
        )
    )
    if password is not None:  # ALTER ROLE takes no bind parameters; Literal quotes it safely
        cur.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(sql.Identifier(role), sql.Literal(password)))


def setup(
    admin_dsn: str,
    *,
    schema: str = "primer_memory",
    dim: int,
    embedder_name: str,
    app_role: str = APP_ROLE,
    owner_role: str = OWNER_ROLE,
    app_password: str | None = None,
) -> int:
    """Create (or bring up to date) the store in `schema`; return the schema version. Idempotent."""
    import psycopg
    from psycopg import sql

    schema = _schema(schema)
    ident = sql.Identifier
    try:
        conn = psycopg.connect(admin_dsn, autocommit=True)
    except psycopg.OperationalError as exc:
        raise PostgresSetupError(f"cannot connect to PostgreSQL as administrator: {exc}") from exc
    with conn, conn.transaction():
        cur = conn.cursor()
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
        try:
            cur.execute("CREATE EXTENSION IF NOT EXISTS vector")
        except psycopg.Error as exc:
            raise PostgresSetupError(
                f"the server has no pgvector extension ({exc}); install pgvector on it, or unset PRIMER_PG_DSN "
                "to use the embedded server"
            ) from exc
        _ensure_role(cur, owner_role, login=False, password=None)
        _ensure_role(cur, app_role, login=True, password=app_password)
        cur.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {} AUTHORIZATION {}").format(ident(schema), ident(owner_role)))
        owner = cur.execute("SELECT nspowner::regrole::text FROM pg_namespace WHERE nspname = %s", (schema,)).fetchone()
        if owner is None or owner[0] != owner_role:
            raise PostgresSetupError(f"schema {schema!r} exists and is owned by {owner[0] if owner else '?'}, "
                                     f"not {owner_role}; pick another schema name")
        cur.execute(sql.SQL("CREATE TABLE IF NOT EXISTS {}.schema_version (version int NOT NULL)").format(ident(schema)))
        cur.execute(sql.SQL("ALTER TABLE {}.schema_version OWNER TO {}").format(ident(schema), ident(owner_role)))
        row = cur.execute(sql.SQL("SELECT max(version) FROM {}.schema_version").format(ident(schema))).fetchone()
        version = row[0] or 0
        if version > len(MIGRATIONS):
            raise PostgresSetupError(f"schema {schema!r} is at version {version}; this library knows "
                                     f"{len(MIGRATIONS)}: upgrade primer-memory")
        cur.execute(sql.SQL("SET LOCAL ROLE {}").format(ident(owner_role)))  # the owner creates: it owns them
        for number, step in enumerate(MIGRATIONS[version:], start=version + 1):
            for statement in step:
                cur.execute(_ddl(statement, schema, dim))
            cur.execute(sql.SQL("INSERT INTO {}.schema_version (version) VALUES (%s)").format(ident(schema)), (number,))
        if version == 0:
            cur.execute(
                sql.SQL("INSERT INTO {}.meta (name, value) VALUES ('embedder', %s), ('dim', %s)").format(ident(schema)),
                (embedder_name, str(dim)),
            )
        cur.execute("RESET ROLE")
        meta = dict(cur.execute(sql.SQL("SELECT name, value FROM {}.meta").format(ident(schema))).fetchall())
        if meta.get("embedder") != embedder_name or meta.get("dim") != str(dim):
            raise PostgresSetupError(
                f"schema {schema!r} holds vectors from embedder {meta.get('embedder')!r}; this store uses "
                f"{embedder_name!r}. Vectors from two embedders cannot be compared: use another schema."
            )
        cur.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(ident(schema), ident(app_role)))
        cur.execute(sql.SQL("GRANT SELECT ON {}.meta, {}.schema_version TO {}").format(
            ident(schema), ident(schema), ident(app_role)))
        for table in _CONTENT_TABLES:
            cur.execute(sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE ON {}.{} TO {}").format(
                ident(schema), ident(table), ident(app_role)))
    conn.close()
    return len(MIGRATIONS)


def drop_schema(admin_dsn: str, schema: str) -> None:
    """Remove a store's schema and everything in it (tests and the notebook's clean-up)."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(_schema(schema))))


def app_dsn(admin_dsn: str, *, app_role: str = APP_ROLE, app_password: str | None = None) -> str:
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


def connect_pool(dsn: str, *, min_size: int = 1, max_size: int = 4) -> Any:
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
    pool.open(wait=True, timeout=30)
    return pool


@dataclass(frozen=True, slots=True)
class ScopeValues:
    """Tenant and user as set for one transaction (anything with these two attributes works, e.g. a Scope)."""

    tenant_id: str
    user_id: str


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


def table_names() -> Sequence[str]:
    """The tables that hold memory content, each with row-level security enabled and forced."""
    return _CONTENT_TABLES
