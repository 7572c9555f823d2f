"""Hostile inputs to task state, found by an outside tester: each gets a named error and changes nothing.

Foreign SQLite files (a view, another application_id, tables that merely share our names), bad path values,
damaged files, a file locked by another program, numbers too long to write, a bad task_ids list, settings and
clock readings that are not numbers, tasks with too many steps, and an event log that refusals could grow
without end.
"""

from __future__ import annotations

import itertools
import json
import os
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from primer_memory.tasks.checks import MAX_LOGGED_PROPOSAL_CHARS, MAX_REFUSED_EVENTS
from primer_memory.tasks.rules import MAX_INT_DIGITS, MAX_PROPOSAL_CHARS, MAX_STEPS
from primer_memory.tasks.store import (
    ClockError,
    InvalidTask,
    InvalidUpdate,
    LeaseError,
    StoreBusy,
    StoreDamaged,
    TaskFileError,
    TaskStateStore,
)
from primer_memory.tasks.storage.sqlite import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION

TASK = "t1"
STEPS = ["fetch_invoices", "fetch_payments", "match"]
PAYMENTS = {"step": "fetch_payments", "status": "done", "output": "3 payments"}


def stored_bytes(path: Path) -> bytes:
    """What SQLite keeps for the database: the file and its WAL (the -shm index changes on every read)."""
    wal = path.with_name(path.name + "-wal")
    return path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")


def make_store(path: Path, **options: Any) -> TaskStateStore:
    """The usual store: task t1 with fetch_invoices done, so fetch_payments is current."""
    store = TaskStateStore(path, **options)
    store.create_task(TASK, "reconcile September invoices", STEPS)
    store.apply(TASK, {"step": "fetch_invoices", "status": "done", "output": "4 invoices"})
    return store


def closed_store(path: Path, tasks: int = 1) -> None:
    with make_store(path) as store:
        for i in range(2, tasks + 1):
            store.create_task(f"t{i}", "goal", STEPS)


# --------------------------------------------------------------------------- 1. foreign SQLite files


def build(path: Path, statements: list[str], user_version: int = 0, app_id: int = 0) -> bytes:
    raw = sqlite3.connect(path)
    for statement in statements:
        raw.execute(statement)
    raw.execute(f"PRAGMA user_version={user_version:d}")
    raw.execute(f"PRAGMA application_id={app_id:d}")
    raw.commit()
    raw.close()
    return path.read_bytes()


THEIR_TABLES = [f"CREATE TABLE {t} (id INTEGER PRIMARY KEY, name TEXT)" for t in ("tasks", "steps", "events")]
OUR_V2 = [s for statements in MIGRATIONS for s in statements]


@pytest.mark.parametrize(("statements", "user_version", "app_id", "message"), [
    (["CREATE VIEW settings AS SELECT 1 AS one"], 0, 0, "another program's views \\(settings\\)"),
    (["CREATE TABLE tmp (x)", "DROP TABLE tmp"], 0, 0x12345678, "application_id 0x12345678"),
    (THEIR_TABLES, 1, 0, "named like a task store's"),
    (THEIR_TABLES, 2, 0, "named like a task store's"),
    (OUR_V2 + ["CREATE INDEX by_status ON steps (status)"], 2, 0, "indexes \\(by_status\\)"),
    (OUR_V2 + ["CREATE VIEW open_steps AS SELECT * FROM steps"], 2, 0, "views \\(open_steps\\)"),
    (OUR_V2 + ["CREATE TRIGGER audit AFTER INSERT ON tasks BEGIN SELECT 1; END"], 2, 0, "triggers \\(audit\\)"),
    (OUR_V2, 2, 0x12345678, "application_id 0x12345678"),
    (list(MIGRATIONS[0]) + ["CREATE INDEX by_vendor ON tasks (goal)"], 1, 0, "indexes \\(by_vendor\\)"),
])
def test_foreign_sqlite_files_are_refused_without_a_byte_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, statements: list[str], user_version: int,
        app_id: int, message: str) -> None:
    monkeypatch.chdir(tmp_path)
    before = build(Path("other.db"), statements, user_version, app_id)
    with pytest.raises(TaskFileError, match=message) as info:
        TaskStateStore("other.db")
    assert "'other.db'" in str(info.value) and str(tmp_path) not in str(info.value)
    assert "nothing was written" in str(info.value)
    assert Path("other.db").read_bytes() == before
    assert os.listdir(".") == ["other.db"]  # no -wal, -shm or -journal left behind


schema_objects = st.lists(st.sampled_from([
    "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)",
    "CREATE TABLE tasks (id INTEGER PRIMARY KEY, name TEXT)",
    "CREATE TABLE steps (task_id TEXT, position INTEGER, name TEXT)",
    "CREATE TABLE events (task_id TEXT, seq INTEGER)",
    "CREATE TABLE counters (id INTEGER PRIMARY KEY AUTOINCREMENT, n INTEGER)",
    "CREATE VIEW one AS SELECT 1 AS x",
    "CREATE TABLE log (at TEXT)",
    "CREATE INDEX log_at ON log (at)",
    "CREATE TRIGGER log_trigger AFTER INSERT ON log BEGIN SELECT 1; END",
]), unique=True, max_size=5)


@settings(max_examples=60)
@given(objects=schema_objects, user_version=st.sampled_from([0, 1, 2, 3, 7]),
       app_id=st.sampled_from([0, 1, 0x12345678, 0x504D454D, -5]), ours=st.booleans())
def test_any_foreign_schema_is_refused_and_its_bytes_are_unchanged(objects: list[str], user_version: int,
                                                                   app_id: int, ours: bool) -> None:
    extra = [s for s in objects if not (ours and s.split()[2] in ("tasks", "steps", "events"))]
    extra = sorted((s for s in extra if "ON log" not in s or "CREATE TABLE log (at TEXT)" in extra),
                   key=lambda s: "ON log" in s)  # the table before its index and trigger
    statements = (OUR_V2 if ours else []) + extra
    assume(statements or app_id or user_version)  # an empty file of nobody's is a fine new store
    assume(not (ours and not extra and user_version == SCHEMA_VERSION and app_id == 0))  # really a task store
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.db"
        before = build(path, statements, user_version, app_id)
        with pytest.raises(TaskFileError):
            TaskStateStore(path).close()
        assert path.read_bytes() == before and sorted(os.listdir(folder)) == ["x.db"]


def test_new_files_carry_our_application_id_and_old_unstamped_files_still_open(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    closed_store(path)
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
    raw.execute("PRAGMA application_id=0")  # a file written before the stamp existed
    raw.commit()
    raw.close()
    with TaskStateStore(path) as store:
        assert store.apply(TASK, PAYMENTS).status == "done"


def test_a_version_1_file_is_stamped_when_it_is_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    build(path, list(MIGRATIONS[0]) + ["INSERT INTO tasks VALUES ('t', 'g')",
                                       "INSERT INTO steps (task_id, position, name) VALUES ('t', 1, 'a')"], 1)
    with TaskStateStore(path) as store:
        assert store.steps("t") == [("a", "pending", None)]
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
    raw.close()


def test_a_long_term_memory_file_is_still_refused_by_its_tables(tmp_path: Path) -> None:
    from primer_memory import LongTermMemory, Scope

    path = tmp_path / "memory.db"
    with LongTermMemory(path=path) as memory:
        memory.remember(Scope("acme", "alice"), "semantic", "Alice's fiscal year starts in April.")
    before = path.read_bytes()
    with pytest.raises(TaskFileError, match="another program's tables"):
        TaskStateStore(path)
    assert path.read_bytes() == before


# --------------------------------------------------------------------------- 2. path values

BAD_PATHS = [
    "t\x00.db", "a" * 300 + ".db", "d/" * 2100 + "t.db", 3, 1.5, ["t.db"], b"t.db", "new.db/", "", "   ",
    "t\ud800.db", {"path": "t.db"},
]


@pytest.mark.parametrize("path", BAD_PATHS, ids=lambda p: repr(p)[:20])
def test_bad_path_values_get_a_named_error_and_create_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              path: Any) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TaskFileError) as info:
        TaskStateStore(path)
    assert str(tmp_path) not in str(info.value)
    if isinstance(path, str) and 0 < len(path) < 40:
        assert repr(path) in str(info.value)  # named exactly as given
    assert os.listdir(".") == []


@settings(max_examples=60)
@given(path=st.one_of(st.integers(), st.floats(), st.binary(max_size=8), st.lists(st.text(max_size=3)),
                      st.text(max_size=6).map(lambda t: t + "\x00"), st.text(min_size=256, max_size=300,
                                                                             alphabet="ab")))
def test_any_bad_path_value_raises_task_file_error_and_creates_no_file(path: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        where = os.getcwd()
        os.chdir(folder)
        try:
            with pytest.raises(TaskFileError):
                TaskStateStore(path)
            assert os.listdir(".") == []
        finally:
            os.chdir(where)


def test_a_store_in_a_read_only_folder_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("ro").mkdir()
    closed_store(Path("ro/s.db"))
    before = stored_bytes(Path("ro/s.db"))
    Path("ro").chmod(0o555)
    try:
        for given in ("ro/s.db", "ro/new.db"):
            with pytest.raises(TaskFileError, match="read-only") as info:
                TaskStateStore(given)
            assert repr(given) in str(info.value) and "not an SQLite database" not in str(info.value)
    finally:
        Path("ro").chmod(0o755)
    assert stored_bytes(Path("ro/s.db")) == before and sorted(os.listdir("ro")) == ["s.db"]


# --------------------------------------------------------------------------- 3. damaged files


@pytest.mark.parametrize(("table", "read"), [
    ("steps", lambda s: s.steps(TASK)),
    ("steps", lambda s: s.next_step(TASK)),
    ("events", lambda s: s.events(TASK)),
])
def test_an_edited_output_that_is_not_json_is_a_named_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            table: str, read: Callable[[Any], Any]) -> None:
    monkeypatch.chdir(tmp_path)
    closed_store(Path("s.db"))
    raw = sqlite3.connect("s.db")
    raw.execute(f"UPDATE {table} SET output = '{{bad', output_kind = 'json' WHERE output IS NOT NULL")
    raw.commit()
    raw.close()
    before = stored_bytes(Path("s.db"))
    with TaskStateStore("s.db") as store:
        with pytest.raises(StoreDamaged) as info:
            read(store)
    message = str(info.value)
    assert "'s.db'" in message and "t1" in message and str(tmp_path) not in message
    assert ("fetch_invoices" in message) if table == "steps" else ("event 1" in message)
    assert stored_bytes(Path("s.db")) == before


def test_a_corrupt_page_is_a_named_error_never_a_raw_sqlite_error(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    closed_store(Path("s.db"), tasks=300)
    with open("s.db", "r+b") as f:
        f.seek(4 * 4096)
        f.write(b"\xff" * 4096)
    before = Path("s.db").read_bytes()
    with pytest.raises(TaskFileError) as info:
        with TaskStateStore("s.db") as store:
            for task_id in store.tasks():
                store.steps(task_id)
            store.apply("t250", {"step": "fetch_invoices", "status": "done", "output": "1 invoices"})
    assert "'s.db'" in str(info.value)
    assert Path("s.db").read_bytes() == before


# --------------------------------------------------------------------------- 4. a file locked by another program


def test_a_file_locked_by_another_program_is_a_named_error_and_nothing_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    closed_store(Path("s.db"))
    other = sqlite3.connect("s.db", isolation_level=None)
    other.execute("PRAGMA journal_mode=WAL")
    other.execute("BEGIN EXCLUSIVE")
    try:
        with TaskStateStore("s.db", timeout=0.2) as store:
            before = store.step_details(TASK)
            with pytest.raises(StoreBusy, match="locked by another program") as info:
                store.apply(TASK, PAYMENTS)
            assert "'s.db'" in str(info.value) and "timeout" in str(info.value)
            assert isinstance(info.value, TaskFileError)
            assert store.step_details(TASK) == before
    finally:
        other.execute("ROLLBACK")
        other.close()
    with TaskStateStore("s.db") as store:
        assert store.next_step(TASK) == "fetch_payments" and len(store.events(TASK)) == 1


# --------------------------------------------------------------------------- 5. numbers too long to write


@pytest.mark.parametrize("digits", [MAX_INT_DIGITS + 1, 4_300, 5_000, 100_000])
def test_a_whole_number_too_long_to_write_is_refused_in_both_forms(tmp_path: Path, digits: int) -> None:
    with make_store(tmp_path / "s.db") as store:
        before = store.step_details(TASK)
        as_text = '{"step": "fetch_payments", "status": "done", "output": ' + "7" * digits + "}"
        forms: list[Any] = [as_text] if len(as_text) <= MAX_PROPOSAL_CHARS else []
        forms.append({**PAYMENTS, "output": {"n": 10 ** (digits - 1)}})
        for form in forms:
            with pytest.raises(InvalidUpdate, match="digits"):
                store.apply(TASK, form)
        assert store.step_details(TASK) == before
        assert all(not e.accepted for e in store.events(TASK)[1:])


@settings(max_examples=40)
@given(n=st.integers(min_value=-(10 ** MAX_INT_DIGITS) + 1, max_value=10 ** MAX_INT_DIGITS - 1))
def test_whole_numbers_up_to_the_cap_round_trip(n: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        with make_store(Path(folder) / "s.db") as store:
            store.apply(TASK, json.dumps({**PAYMENTS, "output": [n]}))
            assert store.steps(TASK)[1] == ("fetch_payments", "done", [n])


# --------------------------------------------------------------------------- 6. claim_next's task_ids


@pytest.mark.parametrize("task_ids", [5, 3.5, "t1", b"t1", [5], ["t1", None], [b"t1"], ["t\ud800"], itertools.count()])
def test_claim_next_refuses_task_ids_that_are_not_a_list_of_ids(tmp_path: Path, task_ids: Any) -> None:
    with make_store(tmp_path / "s.db") as store:
        before = stored_bytes(tmp_path / "s.db")
        with pytest.raises(LeaseError, match="task_ids"):
            store.claim_next("w1", 30, task_ids=task_ids)
        assert stored_bytes(tmp_path / "s.db") == before
        lease = store.claim_next("w1", 30, task_ids=("t1",))
        assert lease is not None and lease.step == "fetch_payments"


# --------------------------------------------------------------------------- 7. settings and clock readings


@pytest.mark.parametrize("options", [
    {"timeout": "soon"}, {"timeout": float("nan")}, {"timeout": -1}, {"timeout": float("inf")},
    {"timeout": True}, {"clock": "now"}, {"clock": 5}, {"hook": "print"},
], ids=lambda o: repr(o))
def test_settings_are_checked_before_anything_is_created(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         options: dict[str, Any]) -> None:
    monkeypatch.chdir(tmp_path)
    (name,) = options
    with pytest.raises(TaskFileError, match=name):
        TaskStateStore("t.db", **options)
    assert os.listdir(".") == []


@pytest.mark.parametrize("reading", ["noon", float("nan"), float("inf"), None, True, [1.0]], ids=repr)
def test_a_clock_reading_that_is_not_a_finite_number_is_refused_and_writes_nothing(tmp_path: Path,
                                                                                   reading: Any) -> None:
    now: list[Any] = [1000.0]
    with make_store(tmp_path / "s.db", clock=lambda: now[0]) as store:
        store.claim(TASK, "w1", 30)
        before, events = stored_bytes(tmp_path / "s.db"), store.events(TASK)
        now[0] = reading
        for attempt in (lambda: store.claim(TASK, "w2", 30), lambda: store.claim_next("w2", 30),
                        lambda: store.heartbeat(TASK, "w1", 30), lambda: store.apply(TASK, PAYMENTS, worker="w1")):
            with pytest.raises(ClockError, match="clock"):
                attempt()
        assert stored_bytes(tmp_path / "s.db") == before and store.events(TASK) == events
        now[0] = 1001.0
        assert store.apply(TASK, PAYMENTS, worker="w1").status == "done"


def test_a_nan_clock_never_lets_a_second_worker_take_a_live_lease(tmp_path: Path) -> None:
    with make_store(tmp_path / "s.db", clock=lambda: float("nan")) as store:
        with pytest.raises(ClockError):
            store.claim(TASK, "w1", 30)
        with pytest.raises(ClockError):
            store.claim(TASK, "w2", 30)
        assert store.current_step(TASK).lease_owner is None and issubclass(ClockError, LeaseError)


# --------------------------------------------------------------------------- 8. how many steps


def test_a_task_of_the_most_steps_is_accepted_and_one_more_is_refused(tmp_path: Path) -> None:
    with TaskStateStore(tmp_path / "s.db") as store:
        store.create_task("big", "g", [f"s{i}" for i in range(MAX_STEPS)])
        assert len(store.steps("big")) == MAX_STEPS and store.next_step("big") == "s0"
        before = stored_bytes(tmp_path / "s.db")
        for steps in ([f"s{i}" for i in range(MAX_STEPS + 1)], {f"s{i}": None for i in range(MAX_STEPS + 1)},
                      [f"s{i}" for i in range(50_000)]):
            with pytest.raises(InvalidTask, match=f"at most {MAX_STEPS:,} steps"):
                store.create_task("bigger", "g", steps)
        with pytest.raises(InvalidTask, match="appears twice"):
            store.create_task("dup", "g", [f"s{i}" for i in range(MAX_STEPS - 1)] + ["s3"])
        assert stored_bytes(tmp_path / "s.db") == before and store.tasks() == ["big"]


# ------------------------------------------------------------------- 9. refusals cannot grow the log without end


def test_refusals_for_a_known_task_add_a_bounded_amount_and_accepted_events_stay_whole(tmp_path: Path) -> None:
    with make_store(tmp_path / "s.db") as store:
        huge = '{"step": "x' + "y" * 9_900 + '"}'
        for _ in range(MAX_REFUSED_EVENTS + 20):
            with pytest.raises(InvalidUpdate):
                store.apply(TASK, huge)
        refused = [e for e in store.events(TASK) if not e.accepted]
        assert len(refused) == MAX_REFUSED_EVENTS
        assert all(len(e.proposal) <= MAX_LOGGED_PROPOSAL_CHARS + 3 for e in refused)
        assert "not logged" in refused[-1].reason  # the last slot says the log of refusals is full
        with pytest.raises(InvalidUpdate, match="not logged") as info:
            store.apply(TASK, huge)
        assert info.value.seq is None
        whole = {**PAYMENTS, "output": "3 payments " + "z" * 5_000}
        store.apply(TASK, json.dumps(whole))
        accepted = store.events(TASK)[-1]
        assert accepted.accepted and json.loads(accepted.proposal) == whole


def test_a_task_id_that_is_not_text_gets_a_named_error_that_is_still_a_type_error(tmp_path: Path) -> None:
    from primer_memory.tasks.store import InvalidUpdate, TaskIdNotText

    store = TaskStateStore(str(tmp_path / "t.db"))
    for bad in (42, None, b"t1", ["t1"]):
        with pytest.raises(TaskIdNotText) as refused:
            store.apply(bad, {"step": "a", "status": "running"})  # type: ignore[arg-type]
        assert isinstance(refused.value, InvalidUpdate) and isinstance(refused.value, TypeError)
    assert store.tasks() == []
