"""Task state outside the model: the steps of a multi-step job, kept in SQLite.

The model proposes an update as JSON (`{"step": ..., "status": ..., "output": ...}`);
`TaskStateStore.apply` checks it against the task's state machine and writes it
only if every check passes. The check and the write happen in one
`BEGIN IMMEDIATE` transaction, so two processes proposing at once cannot both
move the same step, and a crash leaves either the old state or the new one.
Every proposal, accepted or refused, is appended to an event log with its reason.

The state machine (`TRANSITIONS`):

* pending -> running, done or failed. Going straight to done (or failed) is an
  *implicit run*: the step was started and finished in one update, which is how
  a model usually reports work ("fetch_invoices done: 4 invoices").
* running -> done or failed.
* failed  -> running: a retry must be proposed explicitly, so it shows in the log.
* done    -> nothing. A done step is final: later steps were built on its output.
  To redo work, create a new task.

Only the current step -- the first step that is not done -- may move, so no
step is ever skipped.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from os import PathLike
from typing import Any

__all__ = [
    "STATUSES",
    "TRANSITIONS",
    "PROPOSAL_FIELDS",
    "BUILTIN_VALIDATORS",
    "Event",
    "InvalidTask",
    "InvalidUpdate",
    "Step",
    "TaskStateStore",
    "UnknownTask",
    "count_text",
    "short_text",
    "events_table",
    "steps_table",
]

STATUSES: tuple[str, ...] = ("pending", "running", "done", "failed")
TRANSITIONS: dict[str, tuple[str, ...]] = {
    "pending": ("running", "done", "failed"),
    "running": ("done", "failed"),
    "failed": ("running",),
    "done": (),
}
PROPOSAL_FIELDS: tuple[str, ...] = ("step", "status", "output")
REQUIRED_FIELDS: tuple[str, ...] = ("step", "status")
MAX_PROPOSAL_CHARS = 10_000
SCHEMA_VERSION = 1

Validator = Callable[[Any], "bool | str | None"]
Hook = Callable[[str, str, "str | None", "str | None"], None]


class InvalidUpdate(ValueError):
    """A proposal the code refused; the message says what was wrong and what is allowed.

    `seq` is the number of the event that records the refusal in the task's log.
    """

    def __init__(self, reason: str, *, task_id: str | None = None, step: str | None = None,
                 status: str | None = None, seq: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.task_id = task_id
        self.step = step
        self.status = status
        self.seq = seq


class InvalidTask(ValueError):
    """A task definition that cannot be created (bad id, no steps, duplicate names, unknown validator...)."""


class UnknownTask(LookupError):
    """Asked for the steps of a task that is not in the store."""

    def __str__(self) -> str:  # LookupError would print the repr of the message
        return str(self.args[0]) if self.args else ""


# --------------------------------------------------------------------------- built-in output checks


def short_text(output: Any) -> str | None:
    """A finished step's output must be a short text a person can read: non-empty, at most 200 characters."""
    if not isinstance(output, str) or not output.strip():
        return "expected a non-empty text such as 'all matched'"
    if len(output) > 200:
        return f"expected at most 200 characters, got {len(output)}"
    return None


_COUNT = re.compile(r"^\d+ \S.*$")


def count_text(output: Any) -> str | None:
    """A fetch step's output must say how many things it fetched: a whole number then a noun, like '4 invoices'."""
    problem = short_text(output)
    if problem is None and not _COUNT.match(output):
        problem = "expected a whole number then what was counted, like '4 invoices'"
    return problem


BUILTIN_VALIDATORS: dict[str, Validator] = {"text": short_text, "count": count_text}


# --------------------------------------------------------------------------- values handed back


@dataclass(frozen=True)
class Step:
    """One step of a task as the database has it."""

    task_id: str
    position: int
    name: str
    status: str
    output: Any
    attempts: int
    validator: str | None = None


@dataclass(frozen=True)
class Event:
    """One proposal in a task's log: what was proposed, and whether and why it was written."""

    task_id: str
    seq: int
    step: str | None
    status: str | None
    output: Any
    accepted: bool
    reason: str
    proposal: str


@dataclass(frozen=True)
class _Change:
    """What a checked, acceptable proposal will write."""

    step: Step
    status: str
    output_json: str | None
    reason: str


_MISSING = object()

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS tasks (
        task_id TEXT PRIMARY KEY,
        goal    TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS steps (
        task_id   TEXT NOT NULL REFERENCES tasks(task_id),
        position  INTEGER NOT NULL,
        name      TEXT NOT NULL,
        status    TEXT NOT NULL DEFAULT 'pending'
                  CHECK (status IN ('pending', 'running', 'done', 'failed')),
        output    TEXT,
        validator TEXT,
        attempts  INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (task_id, position),
        UNIQUE (task_id, name)
    )""",
    """CREATE TABLE IF NOT EXISTS events (
        task_id  TEXT NOT NULL,
        seq      INTEGER NOT NULL,
        step     TEXT,
        status   TEXT,
        output   TEXT,
        accepted INTEGER NOT NULL CHECK (accepted IN (0, 1)),
        reason   TEXT NOT NULL,
        proposal TEXT NOT NULL,
        PRIMARY KEY (task_id, seq)
    )""",
)


def _quote(value: Any) -> str:
    """A value as it would appear in JSON, for messages (strings keep their quotes)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise InvalidUpdate(f"field {key!r} is given twice; give each of {', '.join(PROPOSAL_FIELDS)} at most once")
        seen[key] = value
    return seen


def _raw_text(proposal: Any) -> str:
    """The proposal as it arrived, for the event log (a dict is stored as sorted JSON)."""
    if isinstance(proposal, str):
        text = proposal
    else:
        try:
            text = json.dumps(proposal, sort_keys=True, ensure_ascii=False)
        except (TypeError, ValueError):
            text = repr(proposal)
    return text if len(text) <= MAX_PROPOSAL_CHARS else text[:MAX_PROPOSAL_CHARS] + "..."


def _parse(proposal: Any) -> dict[str, Any]:
    """The proposal as a dict with exactly the allowed fields, or InvalidUpdate saying what is wrong."""
    example = '{"step": "fetch_invoices", "status": "done", "output": "4 invoices"}'
    if isinstance(proposal, str):
        if len(proposal) > MAX_PROPOSAL_CHARS:
            raise InvalidUpdate(f"the proposal is {len(proposal)} characters; "
                                f"at most {MAX_PROPOSAL_CHARS} are accepted")
        try:
            proposal = json.loads(proposal, object_pairs_hook=_no_duplicate_keys)
        except json.JSONDecodeError as error:
            raise InvalidUpdate(
                f"the proposal is not valid JSON ({error.msg} at line {error.lineno} column {error.colno}); "
                f"send one object like {example}"
            ) from None
        except RecursionError:
            raise InvalidUpdate(f"the proposal is nested too deeply to read; send one flat object like {example}"
                                ) from None
    if not isinstance(proposal, dict):
        kind = {list: "a list", str: "a string", type(None): "null", bool: "true/false", int: "a number",
                float: "a number"}.get(
            type(proposal), type(proposal).__name__)
        raise InvalidUpdate(f"a proposal must be a JSON object, got {kind}; send one object like {example}")
    unknown = sorted(set(proposal) - set(PROPOSAL_FIELDS), key=str)
    if unknown:
        names = ", ".join(repr(k) for k in unknown)
        raise InvalidUpdate(f"unknown field(s) {names}; the allowed fields are {', '.join(PROPOSAL_FIELDS)}")
    missing = [f for f in REQUIRED_FIELDS if f not in proposal]
    if missing:
        raise InvalidUpdate(f"missing field(s) {', '.join(map(repr, missing))}; step and status are required, "
                            f"output is optional")
    for field in REQUIRED_FIELDS:
        if not isinstance(proposal[field], str):
            raise InvalidUpdate(f"field {field!r} must be a string, got {_quote(proposal[field])}")
    if proposal["status"] not in STATUSES:
        raise InvalidUpdate(f"status {_quote(proposal['status'])} is not one of {', '.join(STATUSES)}")
    return proposal


def _output_json(output: Any) -> str | None:
    if output is None:
        return None
    try:
        return json.dumps(output, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        raise InvalidUpdate(
            f"output {output!r} cannot be stored as JSON; use text, a number, a list or an object"
        ) from None


def _load(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _step_spec(item: Any) -> tuple[Any, Any]:
    if isinstance(item, str):
        return item, None
    if isinstance(item, (tuple, list)) and len(item) == 2:
        return item[0], item[1]
    raise InvalidTask(f"a step is a name or a (name, validator) pair, got {item!r}")


class TaskStateStore:
    """Tasks and their steps in one SQLite file; the code, not the model, decides what is written.

    `validators` names extra output checks (beyond `BUILTIN_VALIDATORS`) that
    steps may use. A check gets the proposed output of a step going to done and
    returns None or True when it is fine, False or a text saying what is wrong.
    Because a step stores its check by name, a process that reopens the file
    must be given the same checks. `hook(point, task_id, step, status)` is
    called at named points inside a write transaction ("checked", "written",
    "creating") so tests and the crash simulator can stop a process there.
    """

    def __init__(self, path: str | PathLike[str], *, validators: Mapping[str, Validator] | None = None,
                 hook: Hook | None = None, timeout: float = 30.0):
        self._validators: dict[str, Validator] = dict(BUILTIN_VALIDATORS)
        for name, fn in (validators or {}).items():
            self._register(name, fn)
        self._hook = hook
        # isolation_level=None: the sqlite3 module opens no transaction by itself; we write BEGIN/COMMIT.
        self._conn = sqlite3.connect(path, isolation_level=None, timeout=timeout)
        # WAL: readers never wait for the writer, so a file can be inspected while a worker holds the lock.
        if self._conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=FULL")
        self._conn.execute("PRAGMA foreign_keys=ON")
        version = self._conn.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, SCHEMA_VERSION):
            self._conn.close()
            raise ValueError(f"this file has schema version {version}; this code reads task files of version "
                             f"{SCHEMA_VERSION} (is it a task-state file, written by a newer version?)")
        if version == 0:
            with self._transaction():  # only a new file needs the write lock to open
                for statement in _SCHEMA:
                    self._conn.execute(statement)
                self._conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")  # an int constant, not input

    # ----------------------------------------------------------------- plumbing

    def close(self) -> None:
        """Close the connection; committed updates are already on disk."""
        self._conn.close()

    def __enter__(self) -> TaskStateStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE takes the write lock before the first read, so what we check is what we change."""
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def _call_hook(self, point: str, task_id: str, step: str | None, status: str | None) -> None:
        if self._hook is not None:
            self._hook(point, task_id, step, status)

    def _register(self, name: str, fn: Validator) -> None:
        if not isinstance(name, str) or not name.isidentifier():
            raise InvalidTask(f"a validator needs a plain name (letters, digits, _), got {name!r}")
        if not callable(fn):
            raise InvalidTask(f"validator {name!r} must be a function of the output, got {fn!r}")
        known = self._validators.get(name)
        if known is not None and known is not fn:
            raise InvalidTask(f"another check is already called {name!r}; give this one a different name")
        self._validators[name] = fn

    def _validator_name(self, step: str, check: Any) -> str | None:
        if check is None:
            return None
        if isinstance(check, str):
            if check not in self._validators:
                raise InvalidTask(f"step {step!r} names check {check!r}, which this store does not know; "
                                  f"known checks: {', '.join(sorted(self._validators))}")
            return check
        name = getattr(check, "__name__", None)
        if not callable(check) or not name or not name.isidentifier():
            raise InvalidTask(f"step {step!r}: a check must be a named function (def ...), not {check!r}, "
                              "because the file stores its name and a new process must find it again")
        self._register(name, check)
        return name

    # ----------------------------------------------------------------- creating and reading

    def create_task(self, task_id: str, goal: str,
                    steps: Sequence[str | tuple[str, Validator | str | None]] | Mapping[str, Validator | str | None]
                    ) -> list[Step]:
        """Write a task and all its steps (status pending) in one transaction: all of it or none of it.

        Each step is a name, or a (name, check) pair where the check is a named
        function of the output or the name of a known check; a mapping
        {name: check or None} works too.
        """
        if not isinstance(task_id, str) or not task_id.strip():
            raise InvalidTask(f"task_id must be a non-empty string, got {task_id!r}")
        if not isinstance(goal, str):
            raise InvalidTask(f"goal must be a string, got {type(goal).__name__}")
        items = list(steps.items()) if isinstance(steps, Mapping) else [_step_spec(s) for s in steps]
        if not items:
            raise InvalidTask(f"task {task_id!r} needs at least one step")
        rows: list[tuple[int, str, str | None]] = []
        for position, (name, check) in enumerate(items, start=1):
            if not isinstance(name, str) or not name.strip():
                raise InvalidTask(f"step {position} needs a non-empty name, got {name!r}")
            if any(name == r[1] for r in rows):
                raise InvalidTask(f"step name {name!r} appears twice; each step of a task needs its own name")
            rows.append((position, name, self._validator_name(name, check)))
        with self._transaction() as conn:
            if conn.execute("SELECT 1 FROM tasks WHERE task_id = ?", (task_id,)).fetchone():
                raise InvalidTask(f"task {task_id!r} already exists; pick a new id, or read it with steps()")
            conn.execute("INSERT INTO tasks (task_id, goal) VALUES (?, ?)", (task_id, goal))
            conn.executemany(
                "INSERT INTO steps (task_id, position, name, validator) VALUES (?, ?, ?, ?)",
                [(task_id, position, name, check) for position, name, check in rows],
            )
            self._call_hook("creating", task_id, None, None)
        return self.steps(task_id)

    def tasks(self) -> list[str]:
        """Every task id in the file, in id order."""
        return [r[0] for r in self._conn.execute("SELECT task_id FROM tasks ORDER BY task_id")]

    def goal(self, task_id: str) -> str:
        """The goal the task was created with."""
        row = self._conn.execute("SELECT goal FROM tasks WHERE task_id = ?", (task_id,)).fetchone()
        if row is None:
            raise UnknownTask(self._unknown_task_message(task_id))
        return row[0]

    def _unknown_task_message(self, task_id: Any) -> str:
        known = self.tasks()
        listed = ", ".join(known[:10]) + (", ..." if len(known) > 10 else "") if known else "none yet"
        return f"no task {_quote(task_id)} in this store; known tasks: {listed}"

    _COLUMNS = "position, name, status, output, attempts, validator"

    def _steps(self, conn: sqlite3.Connection, task_id: str) -> list[Step]:
        rows = conn.execute(
            f"SELECT {self._COLUMNS} FROM steps WHERE task_id = ? ORDER BY position",  # a constant, not input
            (task_id,),
        ).fetchall()
        return [Step(task_id, p, n, s, _load(o), a, v) for p, n, s, o, a, v in rows]

    def _one_step(self, conn: sqlite3.Connection, task_id: str, where: str, params: tuple[Any, ...]) -> Step | None:
        """One step row: `where` is one of the fixed clauses below, never built from input."""
        row = conn.execute(f"SELECT {self._COLUMNS} FROM steps WHERE task_id = ? AND {where}",
                           (task_id, *params)).fetchone()
        return None if row is None else Step(task_id, row[0], row[1], row[2], _load(row[3]), row[4], row[5])

    def _current(self, conn: sqlite3.Connection, task_id: str) -> Step | None:
        return self._one_step(conn, task_id, "status != 'done' ORDER BY position LIMIT 1", ())

    def steps(self, task_id: str) -> list[Step]:
        """Every step of a task, in order, as the file has it now."""
        found = self._steps(self._conn, task_id)
        if not found:
            raise UnknownTask(self._unknown_task_message(task_id))
        return found

    def next_step(self, task_id: str) -> Step | None:
        """The current step: the first one that is not done (None when the task is finished)."""
        return next((s for s in self.steps(task_id) if s.status != "done"), None)

    def events(self, task_id: str) -> list[Event]:
        """Every proposal made for this task id, accepted or refused, in the order they were decided."""
        rows = self._conn.execute(
            "SELECT seq, step, status, output, accepted, reason, proposal FROM events "
            "WHERE task_id = ? ORDER BY seq",
            (task_id,),
        ).fetchall()
        return [Event(task_id, q, st, s, _load(o), bool(a), r, p) for q, st, s, o, a, r, p in rows]

    def integrity_check(self) -> str:
        """SQLite's own check of the file: 'ok' when every page and index is sound."""
        return "; ".join(r[0] for r in self._conn.execute("PRAGMA integrity_check"))

    def step_for_prompt(self, task_id: str) -> str:
        """One line for the prompt: the goal, the current step and what the finished steps produced."""
        steps = self.steps(task_id)
        current = next((s for s in steps if s.status != "done"), None)
        finished = "; ".join(f"{s.name} -> {s.output}" for s in steps if s.status == "done") or "nothing yet"
        if current is None:
            head = f"all {len(steps)} steps are done"
        else:
            head = f"{current.name} (step {current.position} of {len(steps)}, {current.status})"
        return f"{head}. Goal: {self.goal(task_id)}. Done so far: {finished}."

    # ----------------------------------------------------------------- the one place that decides

    def _check(self, conn: sqlite3.Connection, task_id: str, proposal: Any) -> _Change:
        """Every rule, in order; the first that fails raises InvalidUpdate with what is allowed instead."""
        fields = _parse(proposal)
        name, status = fields["step"], fields["status"]
        output_json = _output_json(fields.get("output"))
        step = self._one_step(conn, task_id, "name = ?", (name,))
        if step is None:
            names = [s.name for s in self._steps(conn, task_id)]
            if not names:
                raise InvalidUpdate(self._unknown_task_message(task_id))
            raise InvalidUpdate(f"task {task_id} has no step {_quote(name)}; its steps are {', '.join(names)}")
        current = step if step.status != "done" and step.position == 1 else self._current(conn, task_id)
        if step.status == "done":
            after = f"the current step is {current.name}" if current else "every step of this task is done"
            raise InvalidUpdate(f"step {name} is already done (output {_quote(step.output)}); a done step is final: "
                                f"{after}. To redo the work, create a new task")
        assert current is not None  # some step is not done: this one
        if step.name != current.name:
            names = [s.name for s in self._steps(conn, task_id)]
            raise InvalidUpdate(f"step {name} is not the current step: the current step is {current.name} "
                                f"(steps run in order: {', '.join(names)})")
        allowed = TRANSITIONS[step.status]
        if status not in allowed:
            if status == "pending":
                why = "pending is where every step starts; only create_task sets it"
            elif step.status == status:
                why = f"step {name} is already {status}"
            elif step.status == "failed":
                why = f"step {name} failed (output {_quote(step.output)}); to retry it, propose running first"
            else:
                why = f"{step.status} -> {status} is not a transition"
            raise InvalidUpdate(f"{why}; from {step.status} the allowed statuses are {', '.join(allowed)}")
        if status == "done" and step.validator is not None:
            check = self._validators.get(step.validator)
            if check is None:
                raise InvalidUpdate(
                    f"step {name} is checked by {_quote(step.validator)}, which this process was not given, so its "
                    f"output cannot be checked; open the store with validators={{{step.validator!r}: ...}}"
                )
            output = fields.get("output")
            try:
                verdict = check(output)
            except Exception as error:  # a check that crashes is a failed check, reported with its error
                verdict = f"the check raised {type(error).__name__}: {error}"
            if verdict is not None and verdict is not True:  # None or True: fine; False or a text: not
                problem = verdict if isinstance(verdict, str) and verdict else f"the check returned {verdict!r}"
                raise InvalidUpdate(f"output {_quote(output)} for step {name} fails the "
                                    f"{_quote(step.validator)} check: {problem}")
        implicit = " (started and finished in one update)" if step.status == "pending" and status != "running" else ""
        return _Change(step, status, output_json, f"accepted: {name} {step.status} -> {status}{implicit}")

    def apply(self, task_id: str, proposal: Mapping[str, Any] | str) -> Step:
        """Check a proposed update and write it, in one transaction; return the step as written.

        A refused proposal raises InvalidUpdate and changes nothing but the
        event log, which records every proposal with its reason.
        """
        if not isinstance(task_id, str):
            raise TypeError(f"task_id must be a string, got {type(task_id).__name__}")
        raw = _raw_text(proposal)
        with self._transaction() as conn:
            seq = conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE task_id = ?",
                               (task_id,)).fetchone()[0]
            try:
                change = self._check(conn, task_id, proposal)
            except InvalidUpdate as refusal:
                step, status = _peek(proposal)
                conn.execute(
                    "INSERT INTO events (task_id, seq, step, status, output, accepted, reason, proposal) "
                    "VALUES (?, ?, ?, ?, NULL, 0, ?, ?)",
                    (task_id, seq, step, status, refusal.reason, raw),
                )
                refusal.task_id, refusal.step, refusal.status, refusal.seq = task_id, step, status, seq
                failure: InvalidUpdate | None = refusal
            else:
                failure = None
                self._call_hook("checked", task_id, change.step.name, change.status)
                started = 1 if change.step.status in ("pending", "failed") else 0
                cursor = conn.execute(
                    "UPDATE steps SET status = ?, output = ?, attempts = attempts + ? "
                    "WHERE task_id = ? AND name = ? AND status = ?",
                    (change.status, change.output_json, started, task_id, change.step.name, change.step.status),
                )
                if cursor.rowcount != 1:  # impossible under BEGIN IMMEDIATE; refuse to commit if it happens
                    raise RuntimeError(f"step {change.step.name!r} changed under us; nothing was written")
                conn.execute(
                    "INSERT INTO events (task_id, seq, step, status, output, accepted, reason, proposal) "
                    "VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
                    (task_id, seq, change.step.name, change.status, change.output_json, change.reason, raw),
                )
                self._call_hook("written", task_id, change.step.name, change.status)
        if failure is not None:  # raised after COMMIT, so the refusal stays in the log
            raise failure
        written = self._one_step(self._conn, task_id, "name = ?", (change.step.name,))
        assert written is not None
        return written


def _peek(proposal: Any) -> tuple[str | None, str | None]:
    """The step and status a refused proposal named, when it named them as strings (for the log)."""
    fields: Any = proposal
    if isinstance(proposal, str):
        try:
            fields = json.loads(proposal)
        except (json.JSONDecodeError, RecursionError):
            return None, None
    if not isinstance(fields, dict):
        return None, None
    step, status = fields.get("step"), fields.get("status")
    return (step if isinstance(step, str) else None), (status if isinstance(status, str) else None)


# --------------------------------------------------------------------------- plain-text tables


def _cell(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    rows = [list(r) for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return "\n".join(lines)


def steps_table(steps: Sequence[Step]) -> str:
    """The steps as a plain-text table, for printing in a notebook or a terminal."""
    return _table(("#", "step", "status", "output", "attempts"),
                  ((str(s.position), s.name, s.status, _cell(s.output), str(s.attempts)) for s in steps))


def events_table(events: Sequence[Event], *, width: int = 90, output_width: int = 36) -> str:
    """The event log as a plain-text table; reasons longer than `width` and outputs longer than
    `output_width` characters are cut (events() has them in full)."""
    def cut(text: str, limit: int) -> str:
        return text if len(text) <= limit else text[: limit - 3] + "..."

    return _table(("seq", "step", "status", "output", "written", "reason"),
                  ((str(e.seq), e.step or "", e.status or "", cut(_cell(e.output), output_width),
                    "yes" if e.accepted else "no", cut(e.reason, width)) for e in events))
