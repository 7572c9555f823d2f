"""Task tables under the same lock as memories: the application role, a tenant and user on every row, a signed scope.

Task proposals and outputs hold free text, and one database may serve every tenant, so the
task tables get what the memory tables have (`postgres.scope`): owned by the
owner role, the store connecting as the application role (neither superuser, owner nor
BYPASSRLS), row-level security ENABLEd and FORCEd on every table with a `task_id`, keyed on a
scope the database verifies, and no empty tenant or user. Rows carry `tenant_id` and `user_id`,
filled in by the database from the verified scope, so the task statements themselves need
no change. A store is bound to one scope (default `DEFAULT_SCOPE`): its workers see only
that scope's tasks. The scope leads every primary, unique and foreign key (`_key_by_scope`),
so each scope has its own task ids and no key reaches across scopes.

The store's connection is its own (not pooled); each of its transactions still sets the scope
itself, signed for that transaction alone, so a token read by injected SQL serves nothing after it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["DEFAULT_SCOPE", "TaskScope", "prepare_schema", "secure_tasks"]

DEFAULT_SCOPE = ("default", "tasks")
"""The tenant and user of a task store opened without `scope=`."""


def prepare_schema(admin: Any, schema: str, *, app_password: str | None = None) -> None:
    """Before the task migrations: the roles, and the schema owned by the owner role (a foreign one is refused)."""
    from ...postgres.scope import own_schema

    with admin.transaction():
        admin.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"primer-memory tasks {schema}",))
        own_schema(admin.cursor(), schema, app_password=app_password)


def secure_tasks(admin: Any, schema: str) -> bytes:
    """After the task migrations: owner, scope columns, RLS and grants on every task table; return the signing key.

    Idempotent, and takes no table lock once done. Rows that predate it join `DEFAULT_SCOPE`.
    """
    from psycopg import sql

    from ...postgres.scope import APP_ROLE, OWNER_ROLE, install_signed_scope, secure_table

    ident = sql.Identifier
    with admin.transaction():
        cur = admin.cursor()
        cur.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"primer-memory tasks {schema}",))
        key = install_signed_scope(cur, schema)
        tables = cur.execute(
            "SELECT c.relname, pg_get_userbyid(c.relowner), bool_or(a.attname = 'task_id'),"
            " bool_or(a.attname = 'tenant_id') FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid"
            " WHERE c.relnamespace = %s::regnamespace AND c.relkind = 'r' AND c.relname LIKE 'task%%'"
            " AND a.attnum > 0 GROUP BY c.relname, c.relowner ORDER BY c.relname", (schema,)).fetchall()
        for table, owner, scoped, has_columns in tables:
            target = sql.SQL("{}.{}").format(ident(schema), ident(table))
            if owner != OWNER_ROLE:
                cur.execute(sql.SQL("ALTER TABLE {} OWNER TO {}").format(target, ident(OWNER_ROLE)))
            if not scoped:  # the version table: the application may read it, nothing more
                cur.execute(sql.SQL("GRANT SELECT ON {} TO {}").format(target, ident(APP_ROLE)))
                continue
            if not has_columns:
                _add_scope_columns(cur, schema, table)
            secure_table(cur, schema, table)
            cur.execute(sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE ON {} TO {}").format(target, ident(APP_ROLE)))
        _key_by_scope(cur, schema)
    return key


KEYS: dict[str, tuple[tuple[str, ...], tuple[tuple[str, ...], ...], bool]] = {
    "task_tasks": (("task_id",), (), False),
    "task_steps": (("task_id", "position"), (("task_id", "name"),), True),
    "task_events": (("task_id", "seq"), (), True),
}
"""Each task table's primary key, unique keys, and whether it refers to its task, before the scope goes in front."""
SCOPE_COLUMNS = ("tenant_id", "user_id")


def _key_by_scope(cur: Any, schema: str) -> None:
    """Put the scope in front of every primary, unique and foreign key of the task tables (once).

    A foreign-key check ignores row-level security, and so does a unique index: keyed on the task id alone, a row
    written in one scope could collide with another scope's (its next claim fails) or point at another scope's
    task, and `create_task` could answer "already exists" for an id the caller cannot see. Keyed on (tenant, user,
    task), each scope has its own ids, and a row can only point at a task of its own scope.
    """
    from psycopg import sql

    ident = sql.Identifier
    first = cur.execute("SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
                        " AND a.attnum = i.indkey[0] WHERE i.indrelid = %s::regclass AND i.indisprimary",
                        (sql.SQL("{}.task_tasks").format(ident(schema)).as_string(cur),)).fetchone()
    if first is not None and first[0] == SCOPE_COLUMNS[0]:
        return
    targets = {table: sql.SQL("{}.{}").format(ident(schema), ident(table)) for table in KEYS}
    for kinds in (("f",), ("p", "u")):  # foreign keys first: they depend on the task's primary key
        for table, target in targets.items():
            names = cur.execute("SELECT conname FROM pg_constraint WHERE conrelid = %s::regclass AND contype = ANY(%s)"
                                " ORDER BY conname", (target.as_string(cur), list(kinds))).fetchall()
            for (name,) in names:
                cur.execute(sql.SQL("ALTER TABLE {} DROP CONSTRAINT {}").format(target, ident(name)))

    def columns(names: tuple[str, ...]) -> Any:
        return sql.SQL(", ").join(ident(c) for c in (*SCOPE_COLUMNS, *names))

    for table, (primary, uniques, refers) in KEYS.items():
        target = targets[table]
        cur.execute(sql.SQL("ALTER TABLE {} ADD PRIMARY KEY ({})").format(target, columns(primary)))
        for unique in uniques:
            cur.execute(sql.SQL("ALTER TABLE {} ADD UNIQUE ({})").format(target, columns(unique)))
        if refers:
            cur.execute(sql.SQL("ALTER TABLE {} ADD FOREIGN KEY ({}) REFERENCES {} ({})").format(
                target, columns(("task_id",)), targets["task_tasks"], columns(("task_id",))))


def _add_scope_columns(cur: Any, schema: str, table: str) -> None:
    """tenant_id and user_id: existing rows join DEFAULT_SCOPE; new rows take the verified scope by default."""
    from psycopg import sql

    target = sql.SQL("{}.{}").format(sql.Identifier(schema), sql.Identifier(table))
    verified = sql.SQL("({}.signed_scope())").format(sql.Identifier(schema))
    for column, fallback in zip(("tenant_id", "user_id"), DEFAULT_SCOPE):
        cur.execute(sql.SQL("ALTER TABLE {} ADD COLUMN {} text").format(target, sql.Identifier(column)))
        cur.execute(sql.SQL("UPDATE {} SET {} = %s").format(target, sql.Identifier(column)), (fallback,))
        cur.execute(sql.SQL("ALTER TABLE {t} ALTER COLUMN {c} SET NOT NULL, ALTER COLUMN {c} SET DEFAULT {v}.{c}")
                    .format(t=target, c=sql.Identifier(column), v=verified))


class TaskScope:
    """The scope a task store works in, signed afresh for each transaction (a token outlives none)."""

    def __init__(self, key: bytes, scope: Any = None):
        from ...postgres.scope import ScopeSigner

        tenant, user = DEFAULT_SCOPE if scope is None else (getattr(scope, "tenant_id", None),
                                                            getattr(scope, "user_id", None))
        self._signer = ScopeSigner(key)
        self.tenant_id, self.user_id = tenant, user
        self._signer.check(self)  # refuses an empty or non-string part now, not at the first query

    def bind(self, conn: Any) -> None:
        """Inside a transaction on `conn`: the pinned settings, then the scope signed for this transaction."""
        from ...postgres.session import begin_unit

        begin_unit(conn, self._signer, self)
