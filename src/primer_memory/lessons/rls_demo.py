"""Notebook 5's locked cabinet: buggy application SQL against PostgreSQL, with and without row-level security.

Each attack is SQL a real application could ship: a similarity search whose
question quotes another tenant's secret, text pasted into the SQL string, a
LIKE pattern built from user input (LangGraph #8300), a tenant prefix instead
of equality (LangGraph #8478), a case-insensitive tenant match. `run_attack`
runs it twice: as the application role, where RLS binds, and as a role that
bypasses RLS, to show what the same SQL would have leaked without the lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..long_term.records import Scope

__all__ = ["ATTACKS", "CALLERS", "AttackRun", "RlsWorld", "attack_sql", "rls_world", "run_attack"]

CALLERS: dict[str, Scope] = {
    "alice (acme)": Scope("acme", "alice"),
    "dan (acme-corp)": Scope("acme-corp", "dan"),
    "carol (globex)": Scope("globex", "carol"),
    "mallory (ACME, a look-alike sign-up)": Scope("ACME", "alice"),
    "eve (tenant '%', user '%')": Scope("%", "%"),
}
"""Who can be the caller in the panel: the scope the authentication layer would have given each."""

OWN_NOTES = {
    "mallory (ACME, a look-alike sign-up)": "Mallory keeps her own notes about Initech.",
    "eve (tenant '%', user '%')": "Eve keeps her own notes about invoices.",
}

# name -> (what the application does, the scoped WHERE it meant to write, the extra condition, its parameters)
ATTACKS: dict[str, tuple[str, str, str, dict[str, Any]]] = {
    "quote Acme's secret, OR 1=1 in the question": (
        "a similarity search whose question quotes Acme's confidential memory word for word",
        "tenant_id = %(t)s AND user_id = %(u)s", "", {"question": "Acme plans to acquire Initech in Q4. "
                                                              "tenant_id=acme OR 1=1"}),
    "text pasted into the SQL: ' OR '1'='1": (
        "a lookup built by pasting the user's text into the SQL string (no parameters)",
        "tenant_id = %(t)s AND user_id = %(u)s", "content = 'x' OR '1'='1'", {}),
    "unescaped LIKE on the scope (LangGraph #8300)": (
        "a lookup that matches the scope with LIKE and does not escape % and _ in the names",
        "tenant_id LIKE %(t)s AND user_id LIKE %(u)s", "", {}),
    "tenant prefix instead of equality (LangGraph #8478)": (
        "a namespace search that matches every tenant whose name starts with the caller's",
        "starts_with(tenant_id, %(t)s)", "", {}),
    "case-insensitive tenant match": (
        "a lookup that compares tenants with lower(): ACME and acme become one tenant",
        "lower(tenant_id) = lower(%(t)s) AND user_id = %(u)s", "", {}),
}
"""Preset attacks for the RLS panel."""


@dataclass
class RlsWorld:
    """Notebook 3's memories (and Mallory's) in a PostgreSQL schema, with the connections the panel needs."""

    admin_dsn: str
    schema: str
    memory: Any  # LongTermMemory on PostgresStore
    store: Any

    def close(self) -> None:
        self.memory.close()


def rls_world(dsn: str | None = None, schema: str = "notebook5") -> RlsWorld:
    """A fresh schema holding notebook 3's memories plus Mallory's and Eve's notes (an existing one is replaced)."""
    from .examples import SAFETY_MEMORIES
    from ..long_term.on_postgres import memory_on_postgres
    from ..postgres import local_server
    from ..postgres.scope import drop_schema

    admin = local_server() if dsn is None else dsn
    drop_schema(admin, schema)
    memory = memory_on_postgres(admin, schema=schema)
    for (tenant, user), entry in SAFETY_MEMORIES:
        memory.remember(Scope(tenant, user), **entry, provenance="user")  # type: ignore[arg-type]
    for caller, note in OWN_NOTES.items():
        memory.remember(CALLERS[caller], "semantic", note, provenance="user")
    return RlsWorld(admin, schema, memory, memory.store)


def attack_sql(schema: str, attack: str, forgot_where: bool) -> tuple[Any, str]:
    """The statement the buggy application runs (composed with the schema) and the same as readable text."""
    from psycopg import sql

    if attack not in ATTACKS:
        raise KeyError(f"unknown attack {attack!r}; choose one of {sorted(ATTACKS)}")
    _, scoped, extra, params = ATTACKS[attack]
    conditions = [c for c in ([] if forgot_where else [scoped]) + ([extra] if extra else []) if c]
    where = f" WHERE {' AND '.join(conditions)}" if conditions else ""
    order = " ORDER BY embedding <=> %(q)s LIMIT 3" if "question" in params else " ORDER BY tenant_id, seq"
    text = f"SELECT tenant_id, user_id, content FROM {{s}}.records{where}{order}"
    shown = text.replace("{s}", schema).replace("%%", "%")
    for name, value in {"t": "<caller's tenant>", "u": "<caller's user>", "q": "<embedding of the question>"}.items():
        shown = shown.replace(f"%({name})s", value)
    return sql.SQL(text).format(s=sql.Identifier(schema)), shown


@dataclass(frozen=True)
class AttackRun:
    """One attack run as one caller: the SQL, and the rows with the lock and without it (owner, content)."""

    caller: Scope
    attack: str
    forgot_where: bool
    sql: str
    with_rls: list[tuple[Scope, str]]
    without_rls: list[tuple[Scope, str]]


def run_attack(world: RlsWorld, caller: Scope, attack: str, forgot_where: bool) -> AttackRun:
    """Run the attack's SQL as the application role (RLS binds) and as the administrator (RLS bypassed)."""
    import psycopg
    from pgvector.psycopg import register_vector

    from ..postgres.session import scoped_transaction

    statement, shown = attack_sql(world.schema, attack, forgot_where)
    params = {"t": caller.tenant_id, "u": caller.user_id, **ATTACKS[attack][3]}
    if "question" in params:
        params["q"] = world.memory.embedder.embed([params["question"]])[0]
    with scoped_transaction(world.store.pool, world.store.signer, caller, world.store.pins) as conn:  # as the store
        locked = conn.execute(statement, params).fetchall()
    with psycopg.connect(world.admin_dsn, autocommit=True) as admin, admin.transaction():
        register_vector(admin)
        world.store.signer.bind(admin, caller)  # the same scope: only the lock differs
        unlocked = admin.execute(statement, params).fetchall()
    return AttackRun(caller, attack, forgot_where, shown,
                     [(Scope(t, u), c) for t, u, c in locked], [(Scope(t, u), c) for t, u, c in unlocked])
