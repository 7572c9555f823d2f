"""Notebook 5: injected SQL that sets the scope itself, against a plain-setting lock and against the signed scope.

Row-level security keyed on a plain setting (`app.tenant_id`) holds against a query
that lost its WHERE clause, but the application role may call `set_config` too, so
injected SQL in Carol's transaction can make itself Alice. The store's policy checks a
signed scope instead. `run_injection` pastes the same text into Carol's SQL twice: once
against a copy of the memories guarded by the old plain-setting policy, once against the
real table. Every attack runs in a transaction that is rolled back, so the demo changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..long_term.records import Scope

__all__ = ["INJECTIONS", "PLAIN_POLICY", "InjectionRun", "Outcome", "plain_copy", "policies", "run_injection"]

PLAIN_POLICY = ("tenant_id = current_setting('app.tenant_id', true) AND "
                "user_id = current_setting('app.user_id', true)")
"""The policy keyed on plain settings, as the store had it before its scope was signed."""
PLAIN_SCOPE_SQL = "SELECT set_config('app.tenant_id', %s, true), set_config('app.user_id', %s, true)"
_BECOME_ALICE = "set_config('app.tenant_id', 'acme', true), set_config('app.user_id', 'alice', true)"
_FORGED = ("v2.99999999999.1.1." + "acme".encode().hex() + "." + "alice".encode().hex() + "." + "0" * 64)  # the
# token's shape (version, expiry, server process, transaction start, tenant, user), with a made-up signature

INJECTIONS: dict[str, str] = {
    "stacked: become Alice, then read": (
        f"x'; SELECT {_BECOME_ALICE}; SELECT tenant_id, user_id, content FROM {{table}}; --"),
    "inline: become Alice inside the same SELECT": (
        f"x' OR (SELECT concat({_BECOME_ALICE})) <> '' --"),
    "stacked: become Alice, then overwrite her memories": (
        f"x'; SELECT {_BECOME_ALICE}; UPDATE {{table}} SET content = 'overwritten by Carol'"
        " RETURNING tenant_id, user_id, content; --"),
    "stacked: forge a signed scope for Alice": (
        f"x'; SELECT set_config('app.scope', '{_FORGED}', true); SELECT tenant_id, user_id, content FROM {{table}}; --"),
}
"""Text Carol types into a field the application pastes into `... WHERE content = '<text>'`."""


@dataclass(frozen=True)
class Outcome:
    """What one lock let through: other users' rows read, other users' rows written, and the error if one stopped it."""

    read: list[tuple[str, str]]  # (owner, content) of rows that are not the caller's
    written: int  # rows of other users the statements changed (seen through RETURNING)
    error: str | None

    def sentence(self) -> str:
        if self.error:
            return f"stopped by the database: {self.error}"
        return f"{len(self.read)} row(s) of other users read, {self.written} row(s) written"


@dataclass(frozen=True)
class InjectionRun:
    """The pasted SQL, and what the plain-setting lock and the signed scope each let through."""

    sql: str
    plain: Outcome
    signed: Outcome


def plain_copy(world: Any) -> str:
    """A copy of the world's memories (owner and text) under the plain-setting policy, readable by the app role."""
    import psycopg
    from psycopg import sql

    from ..postgres.scope import APP_ROLE

    schema = sql.Identifier(world.schema)
    with psycopg.connect(world.admin_dsn, autocommit=True) as admin, admin.transaction():
        if admin.execute("SELECT to_regclass(%s)", (f'"{world.schema}".plain_lock',)).fetchone()[0]:
            return f"{world.schema}.plain_lock"
        admin.execute(sql.SQL("CREATE TABLE {s}.plain_lock AS SELECT tenant_id, user_id, content FROM {s}.records")
                      .format(s=schema))
        admin.execute(sql.SQL("ALTER TABLE {}.plain_lock ENABLE ROW LEVEL SECURITY").format(schema))
        admin.execute(sql.SQL("ALTER TABLE {}.plain_lock FORCE ROW LEVEL SECURITY").format(schema))
        admin.execute(sql.SQL("CREATE POLICY plain ON {}.plain_lock USING (" + PLAIN_POLICY + ")").format(schema))
        admin.execute(sql.SQL("GRANT SELECT, UPDATE ON {}.plain_lock TO {}").format(
            schema, sql.Identifier(APP_ROLE)))
    return f"{world.schema}.plain_lock"


def _attack(conn: Any, statement: str, caller: Scope) -> Outcome:
    """Run the pasted statement (simple protocol: several statements may ride along), collect every result."""
    import psycopg

    read: list[tuple[str, str]] = []
    written = 0
    try:
        cursor = conn.cursor()
        cursor.execute(statement.encode(), prepare=False)
        while True:
            if cursor.description is not None and len(cursor.description) == 3:
                others = [(f"{t}/{u}", c) for t, u, c in cursor.fetchall() if (t, u) != (caller.tenant_id, caller.user_id)]
                if (cursor.statusmessage or "").startswith(("UPDATE", "INSERT", "DELETE")):
                    written += len(others)
                else:
                    read += others
            if not cursor.nextset():
                break
    except psycopg.Error as exc:
        return Outcome(read, written, str(exc).splitlines()[0])
    return Outcome(read, written, None)


def run_injection(world: Any, caller: Scope, injection: str) -> InjectionRun:
    """Paste one of INJECTIONS into the caller's query, against the plain-setting copy and the signed table."""
    if injection not in INJECTIONS:
        raise KeyError(f"unknown injection {injection!r}; choose one of {sorted(INJECTIONS)}")
    import psycopg

    plain_table = plain_copy(world)
    outcomes = []
    for table in (plain_table, f"{world.schema}.records"):
        text = INJECTIONS[injection].replace("{table}", table)
        statement = f"SELECT tenant_id, user_id, content FROM {table} WHERE content = '{text}'"
        with world.store.pool.connection() as conn, conn.transaction() as transaction:
            world.store.signer.bind(conn, caller)  # the caller's scope, signed for this transaction
            conn.execute(PLAIN_SCOPE_SQL, (caller.tenant_id, caller.user_id))
            outcomes.append(_attack(conn, statement, caller))
            raise psycopg.Rollback(transaction)  # whatever the attack did is undone
    shown = f"SELECT tenant_id, user_id, content FROM <table> WHERE content = '{INJECTIONS[injection]}'"
    return InjectionRun(shown.replace("{table}", "<table>"), outcomes[0], outcomes[1])


def policies(admin_dsn: str, schema: str) -> list[str]:
    """What the database enforces on the schema's tables, read back from its catalog: RLS, policies, checks."""
    import psycopg

    lines = []
    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        for table, enabled, forced in admin.execute(
                "SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class WHERE relkind = 'r'"
                " AND relnamespace = to_regnamespace(%s) AND relrowsecurity ORDER BY relname", (schema,)).fetchall():
            lines.append(f"{table}: row level security {'enabled' if enabled else 'off'}"
                         f"{' and forced' if forced else ''}")
            for name, using in admin.execute("SELECT policyname, qual FROM pg_policies WHERE schemaname = %s AND "
                                             "tablename = %s ORDER BY policyname", (schema, table)).fetchall():
                lines.append(f"  policy {name}: {' '.join(using.split())}")
            for (check,) in admin.execute("SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = "
                                          "to_regclass(%s) AND conname LIKE '%%scope_not_empty'",
                                          (f'"{schema}"."{table}"',)).fetchall():
                lines.append(f"  {check}")
    return lines
