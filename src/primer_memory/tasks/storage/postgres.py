"""Task state on PostgreSQL: the same rows as the SQLite file, for many workers on many machines.

psycopg 3 is imported lazily. One connection per store (so one per worker process), in
autocommit mode, with every write inside `with conn.transaction():`. A write locks the
task's row first (`SELECT ... FOR UPDATE`), which serialises updates to one task while
other tasks move in parallel; `next_claimable` locks with `FOR UPDATE SKIP LOCKED`, so
workers racing over one task list skip each other's tasks instead of waiting or
colliding. Tables are named `task_*` inside the schema you choose (default `primer_tasks`).
Lease times come from the server's clock, so workers on different machines agree. `dsn` is
an administrator's: setup runs with it, then the store connects as the application role,
bound by row-level security to one scope (`postgres_scope`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ..rules import StoreDamaged, TaskFileError
from . import EventRow, StepRow
from ...postgres.scope import application_dsn
from ...postgres import APP_PASSWORD_VARIABLE, is_schema_name
from .postgres_scope import TaskScope, prepare_schema, secure_tasks
from .pg_cache import CACHE_STATEMENTS, StepCache

__all__ = ["PostgresTasks", "SCHEMA_VERSION", "MIGRATIONS", "TABLES"]

SCHEMA_VERSION = 2
TABLES = ("task_tasks", "task_steps", "task_events", "task_schema")
_INSTALL_HINT = "install the PostgreSQL extra: pip install -e '.[postgres]'"

# MIGRATIONS[v] takes a schema from version v to v + 1 (append only). {s} is the quoted schema name.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        "CREATE TABLE {s}.task_tasks (task_id TEXT PRIMARY KEY, goal TEXT NOT NULL)",
        """CREATE TABLE {s}.task_steps (
            task_id       TEXT NOT NULL REFERENCES {s}.task_tasks(task_id),
            position      INTEGER NOT NULL,
            name          TEXT NOT NULL,
            status        TEXT NOT NULL DEFAULT 'pending'
                          CHECK (status IN ('pending', 'running', 'done', 'failed')),
            output        TEXT,
            output_kind   TEXT CHECK (output_kind IN ('text', 'json')),
            validator     TEXT,
            attempts      INTEGER NOT NULL DEFAULT 0,
            lease_owner   TEXT,
            lease_expires DOUBLE PRECISION,
            PRIMARY KEY (task_id, position),
            UNIQUE (task_id, name))""",
        """CREATE TABLE {s}.task_events (
            task_id     TEXT NOT NULL REFERENCES {s}.task_tasks(task_id),
            seq         INTEGER NOT NULL,
            step        TEXT,
            status      TEXT,
            output      TEXT,
            output_kind TEXT,
            accepted    BOOLEAN NOT NULL,
            reason      TEXT NOT NULL,
            proposal    TEXT NOT NULL,
            worker      TEXT,
            PRIMARY KEY (task_id, seq))""",
    ),
)
# Bounded retries (appended on its own): each task's policy; each step's backoff, deadline, reason it gave up.
RETRY_MIGRATION: tuple[str, ...] = (
    "ALTER TABLE {s}.task_tasks ADD COLUMN max_attempts INTEGER, ADD COLUMN retry_initial DOUBLE PRECISION,"
    " ADD COLUMN retry_rate DOUBLE PRECISION, ADD COLUMN retry_max DOUBLE PRECISION,"
    " ADD COLUMN start_to_close DOUBLE PRECISION",
    "ALTER TABLE {s}.task_steps ADD COLUMN retry_at DOUBLE PRECISION, ADD COLUMN deadline DOUBLE PRECISION,"
    " ADD COLUMN gave_up TEXT",
)
MIGRATIONS = (*MIGRATIONS, RETRY_MIGRATION)
assert len(MIGRATIONS) == SCHEMA_VERSION


class PostgresTasks:
    """The PostgreSQL backend: one autocommit connection; transactions opened by `transaction()` only."""

    def __init__(self, dsn: str, *, schema: str = "primer_tasks", clock: Callable[[], float] | None = None,
                 scope: Any = None):
        if not is_schema_name(schema):
            raise TaskFileError(f"schema must be a plain lower-case name (letters, digits, _), got {schema!r}")
        try:
            import psycopg
            from psycopg import sql
        except ImportError as exc:  # pragma: no cover - the extra is installed in the project's environment
            raise TaskFileError(f"the PostgreSQL driver is not installed; {_INSTALL_HINT}") from exc
        try:
            self._conn = psycopg.connect(dsn, autocommit=True)
        except psycopg.Error as error:  # the DSN may hold a password: never echo it
            raise TaskFileError(f"cannot connect to PostgreSQL with the DSN given ({type(error).__name__}); "
                                "check the server, the user and the database name") from None
        self.schema = schema
        quoted = sql.Identifier(schema).as_string(self._conn)
        self._sql = {name: text.replace("{s}", quoted) for name, text in _STATEMENTS.items()}
        self._clock = clock
        password = os.environ.get(APP_PASSWORD_VARIABLE) or None
        try:
            prepare_schema(self._conn, schema, app_password=password)
            self._setup(quoted)
            key = secure_tasks(self._conn, schema)
        except psycopg.errors.InsufficientPrivilege as error:
            self._conn.close()
            raise TaskFileError(f"setting up task tables in schema {schema!r} needs an administrator's DSN: "
                                f"{error}") from None
        except BaseException:
            self._conn.close()
            raise
        self._conn.close()
        self._scope = TaskScope(key, scope)
        try:
            from ...postgres.session import connect

            # made as the memory's pooled connections are: nothing prepared on the server, settings over role defaults
            self._conn = connect(application_dsn(dsn, app_password=password))
        except psycopg.Error as error:
            raise TaskFileError(f"the application role could not connect ({type(error).__name__}); on a server "
                                "that wants passwords set PRIMER_PG_APP_PASSWORD") from None

    def _setup(self, quoted: str) -> None:
        """Create or upgrade the tables once, even when many workers start at the same moment."""
        with self._conn.transaction():
            self._conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"primer-memory tasks {self.schema}",))
            self._conn.execute(f"CREATE SCHEMA IF NOT EXISTS {quoted}")
            self._conn.execute(f"CREATE TABLE IF NOT EXISTS {quoted}.task_schema (version INTEGER NOT NULL)")
            row = self._conn.execute(f"SELECT version FROM {quoted}.task_schema").fetchone()
            version = 0 if row is None else row[0]
            if version > SCHEMA_VERSION:
                raise TaskFileError(f"schema {self.schema!r} holds task tables of version {version}; this code "
                                    f"reads version {SCHEMA_VERSION} or older")
            for statements in MIGRATIONS[version:]:
                for statement in statements:
                    self._conn.execute(statement.replace("{s}", quoted))
            if row is None:
                self._conn.execute(f"INSERT INTO {quoted}.task_schema (version) VALUES (%s)", (SCHEMA_VERSION,))
            elif version < SCHEMA_VERSION:
                self._conn.execute(f"UPDATE {quoted}.task_schema SET version = %s", (SCHEMA_VERSION,))

    # ----------------------------------------------------------------- the protocol

    def close(self) -> None:
        self._conn.close()

    def tables(self) -> tuple[str, ...]:
        return tuple(f"{self.schema}.{t}" for t in TABLES)

    def integrity_check(self) -> str:
        """PostgreSQL checks its own pages (checksums, WAL); here: 'ok' when every task table answers."""
        for name in ("task_tasks", "task_steps", "task_events"):
            self._conn.execute(self._sql["count"].replace("{t}", name)).fetchone()
        return "ok"

    @contextmanager
    def transaction(self) -> Iterator[_Tx]:
        """One transaction: committed when the block ends, rolled back by psycopg on any error.

        It runs in pipeline mode: a statement whose answer is not needed yet (BEGIN, the signed scope, the writes
        to a locked task) travels with the next one that is, so a worker's report-and-claim costs five round trips
        instead of ten. The writes' row counts are checked against what the lock promised before COMMIT."""
        with self._damage_named(), self._conn.pipeline() as pipe, self._conn.transaction():
            self._scope.bind(self._conn)
            tx = _CachedTx(self._conn, self._sql, self._clock, locking=True, pipe=pipe)
            yield tx
            tx.settle()

    @contextmanager
    def reading(self) -> Iterator[_Tx]:
        """Reads in one transaction of their own (one snapshot), under a scope signed for it."""
        with self._damage_named(), self._conn.transaction():
            self._scope.bind(self._conn)
            yield _Tx(self._conn, self._sql, self._clock, locking=False)

    @contextmanager
    def _damage_named(self) -> Iterator[None]:
        """A row that cannot be decoded (an output edited by hand) is reported with the schema it lives in."""
        try:
            yield
        except StoreDamaged as damaged:
            where = f"the task tables in schema {self.schema!r}"
            if str(damaged).startswith(where):
                raise
            raise StoreDamaged(f"{where} are damaged: {damaged}") from None


_STEP_COLUMNS = ("position, name, status, output, output_kind, attempts, validator, lease_owner, lease_expires, "
                 "retry_at, deadline, gave_up")
_STATEMENTS = {
    "now": "SELECT extract(epoch FROM clock_timestamp())::float8",
    "count": "SELECT COUNT(*) FROM {s}.{t}",
    "goal": "SELECT goal FROM {s}.task_tasks WHERE task_id = %s",
    "goal_lock": "SELECT goal FROM {s}.task_tasks WHERE task_id = %s FOR UPDATE",
    # Each task's current step, tasks in id order, stopping at the first free one: a finished task costs one short
    # index scan (its steps are all done), not a MIN() per open step of every task.
    "claimable": """SELECT t.task_id FROM {s}.task_tasks t
        CROSS JOIN LATERAL (SELECT c.lease_owner, c.lease_expires, c.gave_up, c.retry_at FROM {s}.task_steps c
                            WHERE c.task_id = t.task_id AND c.status <> 'done' ORDER BY c.position LIMIT 1) c
        WHERE (%(wanted)s::text[] IS NULL OR t.task_id = ANY(%(wanted)s::text[]))
          AND NOT (t.task_id = ANY(%(skip)s::text[]))
          AND (c.lease_owner IS NULL OR c.lease_expires <= %(now)s) AND c.gave_up IS NULL
          AND (c.retry_at IS NULL OR c.retry_at <= %(now)s)
        ORDER BY t.task_id LIMIT 1
        FOR UPDATE OF t SKIP LOCKED""",
    "insert_task": "INSERT INTO {s}.task_tasks (task_id, goal, max_attempts, retry_initial, retry_rate, retry_max, "
                   "start_to_close) VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
    "policy": "SELECT max_attempts, retry_initial, retry_rate, retry_max, start_to_close FROM {s}.task_tasks "
              "WHERE task_id = %s",
    "done_by": "SELECT worker FROM {s}.task_events WHERE task_id = %s AND step = %s AND accepted "
               "AND status = 'done' ORDER BY seq DESC LIMIT 1",
    "insert_step": "INSERT INTO {s}.task_steps (task_id, position, name, validator) VALUES (%s, %s, %s, %s)",
    "steps": f"SELECT {_STEP_COLUMNS} FROM {{s}}.task_steps WHERE task_id = %s ORDER BY position",
    "step_named": f"SELECT {_STEP_COLUMNS} FROM {{s}}.task_steps WHERE task_id = %s AND name = %s",
    "current": f"SELECT {_STEP_COLUMNS} FROM {{s}}.task_steps WHERE task_id = %s AND status <> 'done' "
               "ORDER BY position LIMIT 1",
    "update_step": "UPDATE {s}.task_steps SET status = %s, output = %s, output_kind = %s, attempts = attempts + %s, "
                   "lease_owner = %s, lease_expires = %s, retry_at = %s, deadline = %s, gave_up = %s "
                   "WHERE task_id = %s AND position = %s AND status = %s",
    "set_lease": "UPDATE {s}.task_steps SET lease_owner = %s, lease_expires = %s WHERE task_id = %s AND position = %s",
    "next_seq": "SELECT COALESCE(MAX(seq), 0) + 1 FROM {s}.task_events WHERE task_id = %s",
    "add_event": "INSERT INTO {s}.task_events (task_id, seq, step, status, output, output_kind, accepted, reason, "
                 "proposal, worker) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
    "task_ids": "SELECT task_id FROM {s}.task_tasks ORDER BY task_id",
    "refused_count": "SELECT COUNT(*) FROM {s}.task_events WHERE task_id = %s AND NOT accepted",
    "events": "SELECT seq, step, status, output, output_kind, accepted, reason, proposal, worker "
              "FROM {s}.task_events WHERE task_id = %s ORDER BY seq",
    "open_tasks": "SELECT t.task_id FROM {s}.task_tasks t WHERE (%(wanted)s::text[] IS NULL OR "
                  "t.task_id = ANY(%(wanted)s::text[])) AND EXISTS (SELECT 1 FROM {s}.task_steps c "
                  "WHERE c.task_id = t.task_id AND c.status <> 'done') AND NOT EXISTS (SELECT 1 FROM "
                  "{s}.task_steps g WHERE g.task_id = t.task_id AND g.gave_up IS NOT NULL) ORDER BY t.task_id",
    **CACHE_STATEMENTS,
}


class _Tx:
    """Rows in and out of the server; every statement is a constant with server-side parameters."""

    def __init__(self, conn: Any, sql: dict[str, str], clock: Callable[[], float] | None, *, locking: bool,
                 pipe: Any = None):
        self._conn, self._sql, self._clock, self._locking, self._pipe = conn, sql, clock, locking, pipe

    def _one(self, name: str, params: Any) -> Any:
        return self._conn.execute(self._sql[name], params).fetchone()

    def _write(self, name: str, params: Any) -> Any:
        """Send a write (queued, in pipeline mode) and return its cursor."""
        return self._conn.execute(self._sql[name], params)

    def _count(self, cursor: Any) -> int:
        """The rows a write changed; in pipeline mode that answer needs a round trip first."""
        if self._pipe is not None:
            self._pipe.sync()
        return int(cursor.rowcount)

    def now(self) -> float:
        return self._clock() if self._clock is not None else float(self._one("now", ())[0])

    def lock_task(self, task_id: str) -> str | None:
        row = self._one("goal_lock" if self._locking else "goal", (task_id,))
        return None if row is None else row[0]

    def next_claimable(self, now: float, task_ids: Sequence[str] | None, skip: Sequence[str]) -> str | None:
        row = self._one("claimable", {"wanted": None if task_ids is None else list(task_ids),
                                      "skip": list(skip), "now": now})
        return None if row is None else row[0]

    def insert_task(self, task_id: str, goal: str, rows: Sequence[tuple[int, str, str | None]],
                    policy: Sequence[Any] = (None,) * 5) -> bool:
        """False when the task exists: ON CONFLICT waits for a concurrent creator's COMMIT, then does nothing."""
        if not self._count(self._write("insert_task", (task_id, goal, *policy))):
            return False
        with self._conn.cursor() as cursor:
            cursor.executemany(self._sql["insert_step"], [(task_id, p, n, v) for p, n, v in rows])
        return True

    def policy(self, task_id: str) -> tuple[Any, ...] | None:
        return self._one("policy", (task_id,))

    def done_by(self, task_id: str, step: str) -> str | None:
        row = self._one("done_by", (task_id, step))
        return None if row is None else row[0]

    def steps(self, task_id: str) -> list[StepRow]:
        return [tuple(r) for r in self._conn.execute(self._sql["steps"], (task_id,)).fetchall()]  # type: ignore[misc]

    def step_named(self, task_id: str, name: str) -> StepRow | None:
        row = self._one("step_named", (task_id, name))
        return None if row is None else tuple(row)  # type: ignore[return-value]

    def current(self, task_id: str) -> StepRow | None:
        row = self._one("current", (task_id,))
        return None if row is None else tuple(row)  # type: ignore[return-value]

    def update_step(self, task_id: str, position: int, expect: str, status: str, output: str | None,
                    kind: str | None, add_attempt: int, owner: str | None, expires: float | None, *,
                    retry_at: float | None = None, deadline: float | None = None, gave_up: str | None = None) -> int:
        return self._count(self._write("update_step", (status, output, kind, add_attempt, owner, expires, retry_at,
                                                         deadline, gave_up, task_id, position, expect)))

    def set_lease(self, task_id: str, position: int, owner: str | None, expires: float | None) -> int:
        return self._count(self._write("set_lease", (owner, expires, task_id, position)))

    def add_event(self, task_id: str, step: str | None, status: str | None, output: str | None,
                  kind: str | None, accepted: bool, reason: str, proposal: str, worker: str | None) -> int:
        seq = int(self._one("next_seq", (task_id,))[0])  # the task's row lock serialises this per task
        self._conn.execute(self._sql["add_event"], (task_id, seq, step, status, output, kind, accepted, reason,
                                                    proposal, worker))
        return seq

    def refused_count(self, task_id: str) -> int:
        return int(self._one("refused_count", (task_id,))[0])

    def task_ids(self) -> list[str]:
        return [r[0] for r in self._conn.execute(self._sql["task_ids"]).fetchall()]

    def open_tasks(self, task_ids: Sequence[str] | None) -> list[str]:
        wanted = None if task_ids is None else list(task_ids)
        return [r[0] for r in self._conn.execute(self._sql["open_tasks"], {"wanted": wanted}).fetchall()]

    def events(self, task_id: str) -> list[EventRow]:
        return [tuple(r) for r in self._conn.execute(self._sql["events"], (task_id,)).fetchall()]  # type: ignore[misc]


class _CachedTx(StepCache, _Tx):
    """A write transaction: a locked task's steps read once (pg_cache), events numbered as they are inserted."""

    def __init__(self, conn: Any, sql: dict[str, str], clock: Callable[[], float] | None, *, locking: bool,
                 pipe: Any = None):
        super().__init__(conn, sql, clock, locking=locking, pipe=pipe)
        self._cache_init()

    _lock_task = _Tx.lock_task
    _next_claimable = _Tx.next_claimable
    _policy = _Tx.policy
    _step_named = _Tx.step_named
    _current = _Tx.current
    _update_step = _Tx.update_step
    _set_lease = _Tx.set_lease
    _write = _Tx._write
