"""Task state in one SQLite file: BEGIN IMMEDIATE transactions, WAL, and a file check that never writes first.

Before writing anything the backend reads the file and refuses it unless it is
empty, new, or a task store of a known schema version: another program's tables,
views, indexes or triggers, another application's id, tables that only share our
names, a long-term memory file, a folder, a text file or a read-only file get a
`TaskFileError` naming the path as the caller gave it, and the file is left as it was.
Every file this code creates or upgrades is stamped with `APPLICATION_ID`. Later,
a damaged file gives `StoreDamaged` and a file another program keeps locked `StoreBusy`.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from ...file_paths import check_file_place, check_path_value, check_still_there, file_identity
from ..rules import StoreBusy, StoreDamaged, TaskFileError
from . import EventRow, StepRow

__all__ = ["SQLiteTasks", "SCHEMA_VERSION", "MIGRATIONS", "TABLES", "APPLICATION_ID"]

SCHEMA_VERSION = 3
TABLES = ("tasks", "steps", "events")
APPLICATION_ID = 0x504D5453  # "PMTS" (long-term memory files say "PMEM"): marks a task file as ours

# MIGRATIONS[v] takes a file from version v to v + 1 (append only; version 0 is a new, empty file).
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # 0 -> 1: the tables
        "CREATE TABLE tasks (task_id TEXT PRIMARY KEY, goal TEXT NOT NULL)",
        """CREATE TABLE steps (
            task_id   TEXT NOT NULL REFERENCES tasks(task_id),
            position  INTEGER NOT NULL,
            name      TEXT NOT NULL,
            status    TEXT NOT NULL DEFAULT 'pending'
                      CHECK (status IN ('pending', 'running', 'done', 'failed')),
            output    TEXT,
            validator TEXT,
            attempts  INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (task_id, position),
            UNIQUE (task_id, name))""",
        """CREATE TABLE events (
            task_id  TEXT NOT NULL,
            seq      INTEGER NOT NULL,
            step     TEXT,
            status   TEXT,
            output   TEXT,
            accepted INTEGER NOT NULL CHECK (accepted IN (0, 1)),
            reason   TEXT NOT NULL,
            proposal TEXT NOT NULL,
            PRIMARY KEY (task_id, seq))""",
    ),
    (  # 1 -> 2: leases, who proposed, and text outputs stored as plain text (JSON only for other values)
        "ALTER TABLE steps ADD COLUMN output_kind TEXT CHECK (output_kind IN ('text', 'json'))",
        "ALTER TABLE steps ADD COLUMN lease_owner TEXT",
        "ALTER TABLE steps ADD COLUMN lease_expires REAL",
        "ALTER TABLE events ADD COLUMN output_kind TEXT CHECK (output_kind IN ('text', 'json'))",
        "ALTER TABLE events ADD COLUMN worker TEXT",
        "UPDATE steps SET output_kind = CASE json_type(output) WHEN 'text' THEN 'text' ELSE 'json' END, "
        "output = CASE json_type(output) WHEN 'text' THEN json_extract(output, '$') ELSE output END "
        "WHERE output IS NOT NULL",
        "UPDATE events SET output_kind = CASE json_type(output) WHEN 'text' THEN 'text' ELSE 'json' END, "
        "output = CASE json_type(output) WHEN 'text' THEN json_extract(output, '$') ELSE output END "
        "WHERE output IS NOT NULL",
    ),
    (  # 2 -> 3: bounded retries: each task's policy; each step's backoff, start-to-close deadline, reason it gave up
        "ALTER TABLE tasks ADD COLUMN max_attempts INTEGER",
        "ALTER TABLE tasks ADD COLUMN retry_initial REAL",
        "ALTER TABLE tasks ADD COLUMN retry_rate REAL",
        "ALTER TABLE tasks ADD COLUMN retry_max REAL",
        "ALTER TABLE tasks ADD COLUMN start_to_close REAL",
        "ALTER TABLE steps ADD COLUMN retry_at REAL",
        "ALTER TABLE steps ADD COLUMN deadline REAL",
        "ALTER TABLE steps ADD COLUMN gave_up TEXT",
    ),
)
assert len(MIGRATIONS) == SCHEMA_VERSION

_STEP_COLUMNS = ("position, name, status, output, output_kind, attempts, validator, lease_owner, lease_expires, "
                 "retry_at, deadline, gave_up")
_CURRENT = ("(SELECT MIN(c.position) FROM steps c WHERE c.task_id = s.task_id AND c.status != 'done')")


def _check_path(path: Any) -> str:
    """The path as text, refused without touching it when it cannot be a task file; messages name it as given."""
    if isinstance(path, str) and not path.strip():
        raise TaskFileError(f"the path {path!r} is empty; give a file name such as 'tasks.db'")
    given = check_path_value(path, TaskFileError)
    if not check_file_place(given, TaskFileError, writable=True, example="tasks.db"):
        return given
    folder = os.path.dirname(os.path.realpath(given))  # SQLite keeps -wal and -shm beside the real file
    if not (os.stat(folder).st_mode & 0o222 and os.access(folder, os.W_OK | os.X_OK)):
        raise TaskFileError(f"the folder of {given!r} is read-only; a task store keeps its write-ahead log (-wal) "
                            "beside the file even to read it, so make the folder writable or copy the file elsewhere")
    size = os.stat(given).st_size
    if 0 < size < 512:  # SQLite would take such a file for an empty database and write over it
        raise TaskFileError(f"{given!r} is not an SQLite database (it is {size} bytes, shorter than "
                            "any database page); give a new path, or a file made by TaskStateStore")
    # The header is read by SQLite itself, never with open(): closing any other descriptor of a file drops
    # every POSIX lock this process holds on it, so a second store in the same process (a heartbeat thread)
    # would silently release the first one's locks, and another process could then delete the live WAL.
    return given


# The schema as read from a file: application_id, user_version, sqlite_master's (type, name, table) entries, and
# for each of our tables its columns as (name, declared type, not null, primary key) from pragma_table_info.
Schema = tuple[int, int, frozenset[tuple[str, str, str]], dict[str, tuple[tuple[Any, ...], ...]]]


def _read_schema(conn: sqlite3.Connection) -> Schema:
    entries = frozenset(conn.execute("SELECT type, name, tbl_name FROM sqlite_master "
                                     "WHERE name NOT LIKE 'sqlite\\_stat%' ESCAPE '\\'"))  # ANALYZE's own tables
    columns = {t: tuple(conn.execute('SELECT name, upper(type), "notnull", pk FROM pragma_table_info(?) ORDER BY cid',
                                     (t,))) for t in TABLES}
    return (conn.execute("PRAGMA application_id").fetchone()[0], conn.execute("PRAGMA user_version").fetchone()[0],
            entries, columns)


@lru_cache(maxsize=None)
def _expected(version: int) -> Schema:
    """What a task file of `version` holds: the migrations run on an empty database in memory."""
    conn = sqlite3.connect(":memory:")
    try:
        for statements in MIGRATIONS[:version]:
            for statement in statements:
                conn.execute(statement)
        return _read_schema(conn)
    finally:
        conn.close()


_PLURAL = {"table": "tables", "view": "views", "index": "indexes", "trigger": "triggers"}


def _refuse_foreign(given: str, schema: Schema) -> None:
    """TaskFileError unless the file is empty and unmarked, or exactly a task file of a version this code reads."""
    app_id, version, entries, columns = schema
    nothing = "so it is not a task store; nothing was written to it. Give a new path for the task state"
    if version == 0:
        theirs = set(entries)
    elif version > SCHEMA_VERSION:
        theirs = {e for e in entries if e[0] == "table" and e[1] not in TABLES and not e[1].startswith("sqlite_")}
    else:
        theirs = {e for e in entries - _expected(version)[2] if not e[1].startswith("sqlite_")}
    if theirs:
        shown = {e for e in theirs if not e[1].startswith("sqlite_")} or theirs  # not an index SQLite made itself
        kinds = " and ".join(_PLURAL.get(k, k) for k in sorted({e[0] for e in shown}, key=list(_PLURAL).index))
        listed = ", ".join(sorted(e[1] for e in shown)[:8])
        raise TaskFileError(f"{given!r} holds another program's {kinds} ({listed}), {nothing}")
    if version > SCHEMA_VERSION:
        raise TaskFileError(f"{given!r} has schema version {version}; this code reads task files of version "
                            f"{SCHEMA_VERSION} or older (is it a task-state file, written by a newer version?)")
    if app_id not in (0, APPLICATION_ID):
        raise TaskFileError(f"{given!r} is marked as another program's database (application_id {app_id:#x}), "
                            f"{nothing}")
    if version and not entries:
        raise TaskFileError(f"{given!r} is an empty database marked with schema version {version} by another "
                            f"program, {nothing}")
    if version and (entries, columns) != _expected(version)[2:]:
        names = ", ".join(sorted(e[1] for e in entries if e[0] == "table"))
        raise TaskFileError(f"{given!r} has tables named like a task store's ({names}) but not its columns or "
                            f"keys, {nothing}")


class SQLiteTasks:
    """The SQLite backend: one connection, transactions opened by `transaction()` only."""

    def __init__(self, path: str | os.PathLike[str], *, timeout: float = 30.0,
                 clock: Callable[[], float] | None = None):
        given = _check_path(path)
        self.path = given
        self._clock = clock or time.time
        self._timeout = timeout
        try:
            # isolation_level=None: the module opens no transaction by itself; BEGIN/COMMIT are written here.
            self._conn = sqlite3.connect(given, isolation_level=None, timeout=timeout)
        except sqlite3.Error as error:
            raise TaskFileError(f"{given!r} cannot be opened as an SQLite file ({error})") from None
        self._identity: tuple[int, int] | None = None  # which file the name reached once it was set up
        self._where = os.path.abspath(given)  # a later os.chdir must not make the file look gone
        try:
            with self._errors(opening=True):
                self._open()
        except BaseException:
            self._conn.close()
            raise
        self._identity = file_identity(self._where)

    def _open(self) -> None:
        # Read first: nothing is written until the file is known to be empty or ours. One read transaction, so
        # the schema and the version come from the same moment even while another process is creating the file.
        self._conn.execute("BEGIN")
        try:
            schema = _read_schema(self._conn)
        finally:
            self._conn.execute("COMMIT")
        _refuse_foreign(self.path, schema)
        # WAL: readers never wait for the writer, so a file can be inspected while a worker holds the lock.
        self._use_wal()
        self._conn.execute("PRAGMA synchronous=FULL")
        self._conn.execute("PRAGMA foreign_keys=ON")
        if schema[1] < SCHEMA_VERSION:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                schema = _read_schema(self._conn)  # another process may have set it up meanwhile
                _refuse_foreign(self.path, schema)
                for statements in MIGRATIONS[schema[1]:]:
                    for statement in statements:
                        self._conn.execute(statement)
                self._conn.execute(f"PRAGMA application_id={APPLICATION_ID:d}")  # int constants, not input
                self._conn.execute(f"PRAGMA user_version={SCHEMA_VERSION:d}")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    @contextmanager
    def _errors(self, *, opening: bool = False) -> Iterator[None]:
        """SQLite's errors (and rows that cannot be decoded) as named errors that name the file as given."""
        given = self.path
        try:
            yield
        except StoreDamaged as damaged:  # an output that is not JSON any more: say which file (once)
            if str(damaged).startswith(repr(given)):
                raise
            raise StoreDamaged(f"{given!r} is damaged: {damaged}; restore it from a copy, or give a new path"
                               ) from None
        except sqlite3.Error as error:
            text = str(error)
            if "locked" in text:
                raise StoreBusy(f"{given!r} is locked by another program, which held it for longer than the "
                                f"{self._timeout:g} s this store waits; nothing was changed. Let that program finish "
                                "(or close it), or open the store with a longer timeout=, then try again") from None
            if "readonly" in text or "read-only" in text:
                raise TaskFileError(f"{given!r} cannot be written ({text}); a task store needs a writable file "
                                    "in a writable folder") from None
            if isinstance(error, sqlite3.ProgrammingError):  # closed, or used from another thread
                raise TaskFileError(f"the store on {given!r} cannot be used ({text}); open a new TaskStateStore"
                                    ) from None
            if opening:
                raise TaskFileError(f"{given!r} is not an SQLite database, or it is damaged ({text}); it may be a "
                                    "text file. Give a new path, or a file made by TaskStateStore") from None
            raise StoreDamaged(f"{given!r} is damaged ({text}); nothing more was written to it. Restore it from a "
                               "copy, or give a new path") from None

    def _use_wal(self) -> None:
        """Switch the file to WAL. The switch needs the file to itself and SQLite does not wait for that (no busy
        handler), so while another process is setting the file up, try again until the connection's timeout."""
        deadline = time.monotonic() + self._timeout
        while self._conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            try:
                self._conn.execute("PRAGMA journal_mode=WAL")
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    # ----------------------------------------------------------------- the protocol

    def close(self) -> None:
        self._conn.close()

    def tables(self) -> tuple[str, ...]:
        return TABLES

    def integrity_check(self) -> str:
        with self._errors():
            return "; ".join(r[0] for r in self._conn.execute("PRAGMA integrity_check"))

    @contextmanager
    def transaction(self) -> Iterator[_Tx]:
        """BEGIN IMMEDIATE takes the write lock before the first read, so what is checked is what is changed."""
        check_still_there(self.path, self._identity, TaskFileError, self._where)
        with self._errors():
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield _Tx(self._conn, self._clock)
            except BaseException:
                if self._conn.in_transaction:  # SQLite may have rolled back already (a damaged page, a full disk)
                    self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    @contextmanager
    def reading(self) -> Iterator[_Tx]:
        with self._errors():
            yield _Tx(self._conn, self._clock)


class _Tx:
    """Rows in and out of the file; every statement is a constant with ? parameters."""

    def __init__(self, conn: sqlite3.Connection, clock: Callable[[], float]):
        self._conn = conn
        self._clock = clock

    def now(self) -> float:
        return self._clock()

    def lock_task(self, task_id: str) -> str | None:  # BEGIN IMMEDIATE already holds the only write lock
        row = self._conn.execute("SELECT goal FROM tasks WHERE task_id = ?", (task_id,)).fetchone()
        return None if row is None else row[0]

    def next_claimable(self, now: float, task_ids: Sequence[str] | None, skip: Sequence[str]) -> str | None:
        rows = self._conn.execute(
            f"SELECT s.task_id FROM steps s WHERE s.position = {_CURRENT} "  # a constant, not input
            "AND (s.lease_owner IS NULL OR s.lease_expires <= ?) AND s.gave_up IS NULL "
            "AND (s.retry_at IS NULL OR s.retry_at <= ?) ORDER BY s.task_id", (now, now)).fetchall()
        wanted = None if task_ids is None else set(task_ids)
        return next((r[0] for r in rows if r[0] not in skip and (wanted is None or r[0] in wanted)), None)

    def insert_task(self, task_id: str, goal: str, rows: Sequence[tuple[int, str, str | None]],
                    policy: Sequence[Any] = (None,) * 5) -> bool:
        if not self._conn.execute("INSERT INTO tasks (task_id, goal, max_attempts, retry_initial, retry_rate, "
                                  "retry_max, start_to_close) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                                  (task_id, goal, *policy)).rowcount:
            return False
        self._conn.executemany("INSERT INTO steps (task_id, position, name, validator) VALUES (?, ?, ?, ?)",
                               [(task_id, p, n, v) for p, n, v in rows])
        return True

    def policy(self, task_id: str) -> tuple[Any, ...] | None:
        return self._conn.execute("SELECT max_attempts, retry_initial, retry_rate, retry_max, start_to_close "
                                  "FROM tasks WHERE task_id = ?", (task_id,)).fetchone()

    def done_by(self, task_id: str, step: str) -> str | None:
        row = self._conn.execute("SELECT worker FROM events WHERE task_id = ? AND step = ? AND accepted = 1 "
                                 "AND status = 'done' ORDER BY seq DESC LIMIT 1", (task_id, step)).fetchone()
        return None if row is None else row[0]

    def steps(self, task_id: str) -> list[StepRow]:
        return self._conn.execute(f"SELECT {_STEP_COLUMNS} FROM steps WHERE task_id = ? ORDER BY position",
                                  (task_id,)).fetchall()

    def step_named(self, task_id: str, name: str) -> StepRow | None:
        return self._conn.execute(f"SELECT {_STEP_COLUMNS} FROM steps WHERE task_id = ? AND name = ?",
                                  (task_id, name)).fetchone()

    def current(self, task_id: str) -> StepRow | None:
        return self._conn.execute(f"SELECT {_STEP_COLUMNS} FROM steps WHERE task_id = ? AND status != 'done' "
                                  "ORDER BY position LIMIT 1", (task_id,)).fetchone()

    def update_step(self, task_id: str, position: int, expect: str, status: str, output: str | None,
                    kind: str | None, add_attempt: int, owner: str | None, expires: float | None, *,
                    retry_at: float | None = None, deadline: float | None = None, gave_up: str | None = None) -> int:
        return self._conn.execute(
            "UPDATE steps SET status = ?, output = ?, output_kind = ?, attempts = attempts + ?, "
            "lease_owner = ?, lease_expires = ?, retry_at = ?, deadline = ?, gave_up = ? "
            "WHERE task_id = ? AND position = ? AND status = ?",
            (status, output, kind, add_attempt, owner, expires, retry_at, deadline, gave_up, task_id, position,
             expect)).rowcount

    def set_lease(self, task_id: str, position: int, owner: str | None, expires: float | None) -> int:
        return self._conn.execute("UPDATE steps SET lease_owner = ?, lease_expires = ? "
                                  "WHERE task_id = ? AND position = ?", (owner, expires, task_id, position)).rowcount

    def add_event(self, task_id: str, step: str | None, status: str | None, output: str | None,
                  kind: str | None, accepted: bool, reason: str, proposal: str, worker: str | None) -> int:
        seq = self._conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE task_id = ?",
                                 (task_id,)).fetchone()[0]
        self._conn.execute(
            "INSERT INTO events (task_id, seq, step, status, output, output_kind, accepted, reason, proposal, "
            "worker) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (task_id, seq, step, status, output, kind, int(accepted), reason, proposal, worker))
        return int(seq)

    def refused_count(self, task_id: str) -> int:
        return int(self._conn.execute("SELECT COUNT(*) FROM events WHERE task_id = ? AND accepted = 0",
                                      (task_id,)).fetchone()[0])

    def task_ids(self) -> list[str]:
        return [r[0] for r in self._conn.execute("SELECT task_id FROM tasks ORDER BY task_id")]

    def open_tasks(self, task_ids: Sequence[str] | None) -> list[str]:
        found = [r[0] for r in self._conn.execute(
            "SELECT t.task_id FROM tasks t WHERE EXISTS (SELECT 1 FROM steps c WHERE c.task_id = t.task_id "
            "AND c.status != 'done') AND NOT EXISTS (SELECT 1 FROM steps g WHERE g.task_id = t.task_id "
            "AND g.gave_up IS NOT NULL) ORDER BY t.task_id")]
        return found if task_ids is None else [t for t in found if t in set(task_ids)]

    def events(self, task_id: str) -> list[EventRow]:
        return [(q, st, s, o, k, bool(a), r, p, w) for q, st, s, o, k, a, r, p, w in self._conn.execute(
            "SELECT seq, step, status, output, output_kind, accepted, reason, proposal, worker FROM events "
            "WHERE task_id = ? ORDER BY seq", (task_id,))]
