"""PostgreSQL schema for long-term memory: roles, append-only migrations and an idempotent setup.

Setup runs as an administrator (the DSN of `primer_memory.postgres.local_server()`
or your own): it creates the extension, the two roles, the schema, applies the
append-only MIGRATIONS and records the version. It is idempotent and serialised
by an advisory lock, so many processes may call it at once. Every table that
holds memory content has row-level security ENABLEd and FORCEd, with the policy
that checks the signed scope (`primer_memory.postgres.scope`), and refuses rows with an empty tenant
or user. Memory text and vectors are kept out of the planner's statistics
(`pg_statistic`), which would otherwise keep a sample of them after erasure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...postgres import is_schema_name
from ...postgres.scope import (APP_ROLE, OWNER_ROLE, PostgresSetupError, hide_from_statistics, install_signed_scope,
                       own_schema, secure_table)

__all__ = ["MIGRATIONS", "OWNER_ROLE", "SCHEMA_VERSION", "PostgresSetupError", "check_schema", "drop_schema", "setup",
           "setup_store", "table_names", "UNSTATISTICAL"]

_LOCK_KEY = 0x504D454D  # "PMEM": one advisory lock serialises every setup() on the server

# A row is visible, insertable and updatable only inside the scope set for this transaction.
_POLICY = (
    "tenant_id = current_setting('app.tenant_id', true) AND user_id = current_setting('app.user_id', true)"
)

# Append-only: never edit an applied step; add a new one. {s} is the schema, {dim} the vector size.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # version 1
        "CREATE TABLE {s}.meta (name text PRIMARY KEY, value text NOT NULL)",
        "CREATE SEQUENCE {s}.erasures START 1",
        "CREATE TABLE {s}.scopes (tenant_id text NOT NULL, user_id text NOT NULL, next_seq bigint NOT NULL,"
        " generation bigint NOT NULL, PRIMARY KEY (tenant_id, user_id))",
        "CREATE TABLE {s}.records (tenant_id text NOT NULL, user_id text NOT NULL, seq bigint NOT NULL,"
        " id text NOT NULL,"
        " kind text NOT NULL CHECK (kind IN ('episodic', 'semantic', 'procedural')),"
        " content text NOT NULL, key text, source text NOT NULL, superseded_by text,"
        " importance smallint NOT NULL, created_at double precision NOT NULL,"
        " last_access double precision NOT NULL, forgotten boolean NOT NULL DEFAULT false, embedding vector({dim}),"
        " PRIMARY KEY (tenant_id, user_id, seq), UNIQUE (tenant_id, user_id, id),"
        " CHECK (forgotten OR embedding IS NOT NULL))",
        # A row keeps its 2 KB vector and its text in the heap page (3 rows a page), not in a TOAST side table.
        "ALTER TABLE {s}.records ALTER COLUMN embedding SET STORAGE PLAIN",
        "ALTER TABLE {s}.records SET (toast_tuple_target = 8160)",
        "CREATE INDEX records_embedding_hnsw ON {s}.records USING hnsw (embedding vector_cosine_ops)",
        "ALTER TABLE {s}.scopes ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE {s}.scopes FORCE ROW LEVEL SECURITY",
        "ALTER TABLE {s}.records ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE {s}.records FORCE ROW LEVEL SECURITY",
        f"CREATE POLICY scope_only ON {{s}}.scopes USING ({_POLICY}) WITH CHECK ({_POLICY})",
        f"CREATE POLICY scope_only ON {{s}}.records USING ({_POLICY}) WITH CHECK ({_POLICY})",
    ),
    (  # version 2: two application servers writing at once cannot leave two current values of one key,
        # or two current copies of one memory (the memory logic's checks run before the write's transaction)
        "CREATE UNIQUE INDEX records_one_current_key ON {s}.records (tenant_id, user_id, key)"
        " WHERE key IS NOT NULL AND superseded_by IS NULL AND NOT forgotten",
        "CREATE UNIQUE INDEX records_one_current_text ON {s}.records (tenant_id, user_id, kind, coalesce(key, ''),"
        " md5(content)) WHERE superseded_by IS NULL AND NOT forgotten",
    ),
    (  # version 3: where each memory came from (policy.provenance); earlier writes were the user's
        "ALTER TABLE {s}.records ADD COLUMN provenance text NOT NULL DEFAULT 'user'",
    ),
    (  # version 4: the words BM25 counts (long_term.lexical.terms, computed by the one tokenizer in Python), for
        # search="hybrid"; rows written before are filled on a scope's first lexical search
        "ALTER TABLE {s}.records ADD COLUMN terms text[]",
        "CREATE INDEX records_terms ON {s}.records USING gin (terms)",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)

_CONTENT_TABLES = ("scopes", "records")
"""Tables holding memory content (or whose rows name a user): RLS on each."""

UNSTATISTICAL = {"records": ("content", "key", "embedding", "terms"), "records_one_current_text": ("coalesce", "md5")}
"""Columns (and index expressions) ANALYZE must not sample: a memory's text, key, vector and words, or a digest."""


def check_schema(name: str) -> str:
    if not is_schema_name(name):
        raise ValueError(f"schema must be a lower-case SQL name (letters, digits, _; at most 63), got {name!r}")
    return name


def _ddl(statement: str, schema: str, dim: int) -> Any:
    """A migration step with the schema quoted as an identifier and the dimension as a checked int."""
    from psycopg import sql

    return sql.SQL(statement.replace("{dim}", str(int(dim)))).format(s=sql.Identifier(schema))


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
    return setup_store(admin_dsn, schema=schema, dim=dim, embedder_name=embedder_name, app_role=app_role,
                       owner_role=owner_role, app_password=app_password)[0]


def setup_store(
    admin_dsn: str,
    *,
    schema: str = "primer_memory",
    dim: int,
    embedder_name: str,
    app_role: str = APP_ROLE,
    owner_role: str = OWNER_ROLE,
    app_password: str | None = None,
) -> tuple[int, bytes]:
    """`setup`, returning the schema version and the key that signs scopes (for the process that signs them)."""
    import psycopg
    from psycopg import sql

    schema = check_schema(schema)
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
        own_schema(cur, schema, owner_role=owner_role, app_role=app_role, app_password=app_password)
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
        cur.execute(sql.SQL("GRANT USAGE, SELECT ON SEQUENCE {}.erasures TO {}").format(ident(schema), ident(app_role)))
        for table in _CONTENT_TABLES:
            cur.execute(sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE ON {}.{} TO {}").format(
                ident(schema), ident(table), ident(app_role)))
        key = install_signed_scope(cur, schema, owner_role=owner_role, app_role=app_role)
        for table in _CONTENT_TABLES:
            secure_table(cur, schema, table)
        for relation, columns in UNSTATISTICAL.items():
            hide_from_statistics(cur, schema, relation, columns)
    return SCHEMA_VERSION, key


def drop_schema(admin_dsn: str, schema: str) -> None:
    """Remove a store's schema and everything in it (tests and the notebook's clean-up); the name is checked first."""
    from ...postgres.scope import drop_schema as drop

    drop(admin_dsn, check_schema(schema))


def table_names() -> Sequence[str]:
    """The tables that hold memory content, each with row-level security enabled and forced."""
    return _CONTENT_TABLES
