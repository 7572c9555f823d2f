"""What one shared application role still lets a tenant do to the others, and what bounds it (notebook 5).

Row-level security and the signed scope decide which *rows* a transaction reaches. Every tenant still logs in as
the same role, on the same server, so some things pass between them that are not rows: time (a statement or a lock
that holds everyone up), what the server shows about running sessions, and the role's own defaults. Each
experiment here runs for real against the notebook's store, with short timeouts so it takes a second, and reports
what happened and what bounds it.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from ..postgres.session import APP_ROLE, SessionPins, application_dsn, begin_unit, connect, scoped_transaction

__all__ = ["DEMO_PINS", "Limit", "shared_role_limits"]

DEMO_PINS = SessionPins(statement_timeout="800ms", lock_timeout="300ms", idle_in_transaction_session_timeout="3s")
"""The lifecycle's pins with short timeouts, so each experiment ends in a second (the store's own: 60 s, 30 s, 120 s)."""


@dataclass(frozen=True)
class Limit:
    """One experiment: what a tenant tried, what happened to the others, and what bounds it."""

    attempt: str
    happened: str
    bound: str


def _long_statement(store: Any, attacker: Any) -> Limit:
    from psycopg import errors

    try:
        with scoped_transaction(store.pool, store.signer, attacker, DEMO_PINS) as conn:
            conn.execute("SELECT pg_sleep(5)")
        happened = "it ran its 5 s"
    except errors.QueryCanceled:
        happened = "cancelled when statement_timeout ran out: QueryCanceled"
    return Limit("a statement that runs for 5 s (pg_sleep)", happened,
                 "statement_timeout, pinned in every unit of work (60 s by the store's own pins)")


def _lock_table(store: Any, table: str, attacker: Any, victim: Any) -> Limit:
    from psycopg import errors

    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        with scoped_transaction(store.pool, store.signer, attacker, DEMO_PINS) as conn:
            conn.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
            locked.set()
            release.wait(2.0)

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    locked.wait(5.0)
    try:
        with scoped_transaction(store.pool, store.signer, victim, DEMO_PINS) as conn:
            conn.execute(f"SELECT count(*) FROM {table}").fetchone()
        happened = "the other tenant's read went through"
    except errors.LockNotAvailable:
        happened = "the other tenant's read waited until lock_timeout ran out, then failed: LockNotAvailable"
    finally:
        release.set()
        holder.join(10.0)
    return Limit(f"LOCK TABLE {table.split('.')[-1]} IN ACCESS EXCLUSIVE MODE (UPDATE rights allow it)", happened,
                 "lock_timeout, pinned (30 s): others fail fast instead of hanging; the locker's transaction ends "
                 "within idle_in_transaction_session_timeout")


def _running_text(store: Any, attacker: Any, observer: Any) -> Limit:
    started, seen = threading.Event(), []

    def run() -> None:
        with scoped_transaction(store.pool, store.signer, attacker, SessionPins(statement_timeout="5s")) as conn:
            started.set()
            conn.execute("SELECT pg_sleep(1), 'pasted: the Initech merger' AS note, %s::text AS bound",
                         ("bound: the Initech price",))

    runner = threading.Thread(target=run, daemon=True)
    runner.start()
    started.wait(5.0)
    deadline = time.monotonic() + 3.0
    while not seen and time.monotonic() < deadline:
        with scoped_transaction(store.pool, store.signer, observer, DEMO_PINS) as conn:
            seen = [q for (q,) in conn.execute(
                "SELECT query FROM pg_catalog.pg_stat_activity WHERE usename = %s AND pid <> pg_backend_pid()"
                " AND query LIKE %s", (APP_ROLE, "%pg_sleep(1)%"))]
        time.sleep(0.05)
    runner.join(10.0)
    if not seen:
        happened = "nothing was seen"
    else:
        text = seen[0]
        pasted = "'the Initech merger'" if "Initech merger" in text else "none"
        if "Initech price" in text:
            bound = ", and its bound parameter"
        elif "$1" in text:
            bound = ", never its bound parameter ($1)"
        else:
            bound = ""
        happened = f"the other tenant read its running statement: its pasted words ({pasted}){bound}"
    return Limit("reading pg_stat_activity while another tenant's statement runs", happened,
                 "not within one role: only track_activities = off for the whole role (a superuser's setting) hides "
                 "it, and blinds the operators too. Bound parameters never show: never paste values into SQL")


def _own_defaults(store: Any, dsn: str, attacker: Any, victim: Any) -> Limit:
    import psycopg

    try:
        with scoped_transaction(store.pool, store.signer, attacker, DEMO_PINS) as conn:
            conn.execute(f"ALTER ROLE {APP_ROLE} SET statement_timeout = '0'")
            conn.execute(f"ALTER ROLE {APP_ROLE} SET work_mem = '64kB'")
        with psycopg.connect(application_dsn(dsn), autocommit=True) as fresh:  # a session opened as libpq opens one
            defaults = fresh.execute("SELECT current_setting('statement_timeout'), current_setting('work_mem')"
                                     ).fetchone()
        with connect(application_dsn(dsn)) as conn, conn.transaction():  # the next connection the pool opens
            begin_unit(conn, store.signer, victim, store.pins)
            pinned = conn.execute("SELECT current_setting('statement_timeout'), current_setting('work_mem')"
                                  ).fetchone()
    finally:
        with psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute(f"ALTER ROLE {APP_ROLE} RESET statement_timeout")
            admin.execute(f"ALTER ROLE {APP_ROLE} RESET work_mem")
    return Limit("ALTER ROLE primer_app SET statement_timeout = '0', work_mem = '64kB' (a role may change its own "
                 "defaults, and its own password)",
                 f"a plain new session got statement_timeout {defaults[0]}, work_mem {defaults[1]}; the other "
                 f"tenant's next unit of work, on a new connection, ran with statement_timeout {pinned[0]} (pinned) and work_mem {pinned[1]} "
                 "(not pinned)",
                 "the pins hold what the store relies on; what is not pinned reaches every tenant until an "
                 "administrator resets it. A changed password locks the application out where it logs in with one")


def shared_role_limits(store: Any, dsn: str, table: str, attacker: Any, victim: Any) -> list[Limit]:
    """Run the four experiments on `store` (a PostgresStore: its pool, signer and pins) and `table` (schema.table),
    `attacker` trying, `victim` another tenant. `dsn` is the administrator's, used only to reset the role."""
    return [_long_statement(store, attacker), _lock_table(store, table, attacker, victim),
            _running_text(store, attacker, victim), _own_defaults(store, dsn, attacker, victim)]
