"""Inputs nobody on the team wrote: files that are not ours, text that cannot be stored, outputs too deep or too big.

Every one gets a named error, and nothing already stored is changed (a file that is not
ours is not even written to: no tables added, no switch to WAL).
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory import LongTermMemory, Scope
from primer_memory.tasks.rules import MAX_DEPTH, MAX_PROPOSAL_CHARS
from primer_memory.tasks.store import InvalidTask, InvalidUpdate, TaskFileError, TaskStateStore, UnknownTask


def stored_bytes(path: Path) -> bytes:
    """What SQLite keeps for the database: the file and its WAL (the -shm index changes on every read)."""
    wal = path.with_name(path.name + "-wal")
    return path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")


TASK = "reconcile-september"
STEPS = ["fetch_invoices", "fetch_payments", "match"]


@pytest.fixture
def store(tmp_path: Path):
    with TaskStateStore(tmp_path / "tasks.db") as s:
        s.create_task(TASK, "goal", STEPS)
        yield s


# --------------------------------------------------------------------------- files that are not a task store


def foreign_file(path: Path) -> None:
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, vendor TEXT)")
    raw.execute("INSERT INTO invoices (vendor) VALUES ('Globex')")
    raw.commit()
    raw.close()


def test_another_programs_file_is_refused_without_a_write(tmp_path: Path) -> None:
    path = tmp_path / "app.db"
    foreign_file(path)
    before = path.read_bytes()
    with pytest.raises(TaskFileError, match="holds another program's tables \\(invoices\\)"):
        TaskStateStore(path)
    assert path.read_bytes() == before
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # not switched to WAL
    assert [r[0] for r in raw.execute("SELECT name FROM sqlite_master")] == ["invoices"]
    raw.close()


def test_a_long_term_memory_file_is_refused_without_a_write(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with LongTermMemory(path=path) as memory:
        memory.remember(Scope("acme", "alice"), "semantic", "Alice's fiscal year starts in April.",
                        key="fiscal_year_start")
    before = path.read_bytes()
    with pytest.raises(TaskFileError, match="another program's tables"):
        TaskStateStore(path)
    assert path.read_bytes() == before
    with LongTermMemory(path=path) as memory:  # still a perfectly good memory file
        assert len(memory.export(Scope("acme", "alice"))) == 1


@pytest.mark.parametrize(("make", "message"), [
    (lambda p: p.mkdir(), "is a folder; give the path of a file inside it"),
    (lambda p: p.write_text("hello, I am a text file\n"), "is not an SQLite database"),
    (lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\x07" * 3000), "is not an SQLite database, or it is damaged"),
    (lambda p: p.write_bytes(os.urandom(5000)), "is not an SQLite database"),
])
def test_bad_paths_get_a_named_error_with_the_path_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            make: Any, message: str) -> None:
    monkeypatch.chdir(tmp_path)
    make(Path("thing"))
    before = stored_bytes(Path("thing")) if Path("thing").is_file() else None
    with pytest.raises(TaskFileError, match=message) as info:
        TaskStateStore("thing")
    assert "'thing'" in str(info.value) and str(tmp_path) not in str(info.value)
    if before is not None:
        assert stored_bytes(Path("thing")) == before
    assert sorted(os.listdir(tmp_path)) == ["thing"]  # no journal, WAL or shared-memory file left behind


def test_a_missing_folder_is_named_and_not_created(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TaskFileError, match="the folder of 'nope/tasks.db' does not exist") as info:
        TaskStateStore("nope/tasks.db")
    assert str(tmp_path) not in str(info.value) and os.listdir(tmp_path) == []


def test_a_read_only_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "tasks.db"
    with TaskStateStore(path) as s:
        s.create_task(TASK, "goal", STEPS)
    path.chmod(0o444)
    before = stored_bytes(path)
    try:
        with pytest.raises(TaskFileError, match="is read-only"):
            TaskStateStore(path)
        assert stored_bytes(path) == before
    finally:
        path.chmod(0o644)


def test_an_empty_file_becomes_a_store(tmp_path: Path) -> None:
    path = tmp_path / "tasks.db"
    path.touch()
    with TaskStateStore(path) as s:
        s.create_task(TASK, "goal", STEPS)
        assert s.next_step(TASK) == "fetch_invoices"


def test_a_version_1_file_is_upgraded_and_its_text_outputs_become_plain_text(tmp_path: Path) -> None:
    from primer_memory.tasks.storage.sqlite import MIGRATIONS

    path = tmp_path / "old.db"
    raw = sqlite3.connect(path)
    for statement in MIGRATIONS[0]:
        raw.execute(statement)
    raw.execute("INSERT INTO tasks VALUES ('t', 'g')")
    raw.execute("INSERT INTO steps (task_id, position, name, status, output, attempts) VALUES "
                "('t', 1, 'a', 'done', '\"4 invoices\"', 1), ('t', 2, 'b', 'failed', '{\"n\": 2}', 1)")
    raw.execute("PRAGMA user_version=1")
    raw.commit()
    raw.close()
    with TaskStateStore(path) as s:
        assert s.steps("t") == [("a", "done", "4 invoices"), ("b", "failed", {"n": 2})]
    raw = sqlite3.connect(path)
    assert raw.execute("SELECT COUNT(*) FROM steps WHERE output = '4 invoices'").fetchone() == (1,)
    raw.close()


def test_text_outputs_are_stored_as_plain_text(store: TaskStateStore, tmp_path: Path) -> None:
    store.apply(TASK, {"step": "fetch_invoices", "status": "done", "output": "4 invoices"})
    raw = sqlite3.connect(tmp_path / "tasks.db")
    assert raw.execute("SELECT name FROM steps WHERE output = '4 invoices'").fetchall() == [("fetch_invoices",)]
    assert raw.execute("SELECT COUNT(*) FROM events WHERE output = '4 invoices'").fetchone() == (1,)
    raw.close()


# --------------------------------------------------------------------------- text, depth and size


def deep(n: int) -> Any:
    value: Any = "bottom"
    for _ in range(n):
        value = {"x": value}
    return value


@pytest.mark.parametrize(("proposal", "message"), [
    ({"step": "fetch_invoices", "status": "done", "output": "4 \ud800invoices"}, "lone surrogate"),
    ('{"step": "fetch_invoices", "status": "done", "output": "4 \\ud800 invoices"}', "lone surrogate"),
    ('{"step": "fetch_invoices", "status": "done", "output": "4 \ud800 invoices"}', "lone surrogate"),
    ({"step": "fetch_\udfffinvoices", "status": "done"}, "lone surrogate"),
    ({"step": "fetch_invoices", "status": "failed", "output": deep(10_000)}, f"more than {MAX_DEPTH} deep"),
    (json.dumps({"step": "fetch_invoices", "status": "failed", "output": deep(MAX_DEPTH + 5)}),
     f"more than {MAX_DEPTH} deep"),
    ({"step": "fetch_invoices", "status": "failed", "output": {"blob": "x" * 50_000_000}},
     f"longer than {MAX_PROPOSAL_CHARS} characters"),
    ({"step": "fetch_invoices", "status": "failed", "output": ["x" * 100] * 200},
     f"longer than {MAX_PROPOSAL_CHARS} characters"),
    ({"step": "fetch_invoices", "status": "failed", "output": {"n": float("nan")}}, "finite number"),
    ({"step": "fetch_invoices", "status": "failed", "output": {1: "a"}}, "not text"),
])
def test_bad_outputs_get_named_errors_and_change_no_step(store: TaskStateStore, proposal: Any,
                                                         message: str) -> None:
    before = store.step_details(TASK)
    started = time.perf_counter()
    with pytest.raises(InvalidUpdate, match=message):
        store.apply(TASK, proposal)
    assert time.perf_counter() - started < 5  # a refusal, not a hang (a loose bound, not a benchmark)
    assert store.step_details(TASK) == before
    (event,) = store.events(TASK)
    assert not event.accepted and len(event.proposal) <= MAX_PROPOSAL_CHARS + 3
    event.proposal.encode("utf-8")  # the log holds storable text


def test_one_cap_for_text_and_dict_proposals(store: TaskStateStore) -> None:
    room = MAX_PROPOSAL_CHARS - len(json.dumps({"step": "fetch_invoices", "status": "failed", "output": ""}))
    fits = {"step": "fetch_invoices", "status": "failed", "output": "x" * (room - 5)}
    assert store.apply(TASK, fits).status == "failed"
    too_big = {"step": "fetch_invoices", "status": "running", "output": "x" * (MAX_PROPOSAL_CHARS + 1)}
    for form in (too_big, json.dumps(too_big)):
        with pytest.raises(InvalidUpdate, match=f"{MAX_PROPOSAL_CHARS}"):
            store.apply(TASK, form)


@pytest.mark.parametrize(("task_id", "goal", "steps", "message"), [
    ("q3", "goal", "fetch", "a list of step names, got the single text \"fetch\""),
    ("q3", "goal", b"fetch", "a list of step names"),
    ("q3", "goal", {"a", "b"}, "a list of step names, got set"),
    ("q\ud8003", "goal", ["a"], "lone surrogate"),
    ("q3", "go\udc00al", ["a"], "lone surrogate"),
    ("q3", "goal", ["a", "b\ud800"], "lone surrogate"),
    ("q" * 201, "goal", ["a"], "at most 200"),
    ("q3", "goal", [("a", "text"), ("x" * 201, None)], "at most 200"),
])
def test_bad_task_definitions_write_nothing(tmp_path: Path, task_id: Any, goal: Any, steps: Any,
                                            message: str) -> None:
    with TaskStateStore(tmp_path / "t.db") as s:
        before = stored_bytes(tmp_path / "t.db")
        with pytest.raises(InvalidTask, match=message):
            s.create_task(task_id, goal, steps)
        assert s.tasks() == [] and stored_bytes(tmp_path / "t.db") == before


def test_reading_with_unstorable_ids_is_a_named_error(store: TaskStateStore) -> None:
    for bad in ("t\ud800", 42, None, ""):
        with pytest.raises(UnknownTask):
            store.steps(bad)  # type: ignore[arg-type]
        with pytest.raises(UnknownTask):
            store.next_step(bad)  # type: ignore[arg-type]
        assert store.events(bad) == []  # type: ignore[arg-type]
    with pytest.raises(InvalidUpdate, match="no task"):
        store.apply("t\ud800", {"step": "a", "status": "done"})


# --------------------------------------------------------------------------- properties: bad input never changes the file

text_with_surrogates = st.text(alphabet=st.characters(min_codepoint=0xD7F0, max_codepoint=0xE010), max_size=6)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20) | text_with_surrogates,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20)
bad_proposals = st.one_of(
    st.fixed_dictionaries({"step": st.sampled_from(STEPS) | text_with_surrogates,
                           "status": st.sampled_from(["done", "running", "pending", "x"])},
                          optional={"output": json_values}),
    st.text(max_size=40),
    json_values,
    st.builds(lambda n: deep(n), st.integers(MAX_DEPTH + 1, 3000)),
)


@settings(max_examples=60)
@given(task_id=st.one_of(st.text(max_size=8), text_with_surrogates, st.integers()), proposal=bad_proposals)
def test_proposals_for_tasks_that_do_not_exist_never_change_the_file(task_id: Any, proposal: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.db"
        with TaskStateStore(path) as s:
            s.create_task(TASK, "goal", STEPS)
            s.apply(TASK, {"step": "fetch_invoices", "status": "done", "output": "4 invoices"})
            before = stored_bytes(path)
            if task_id == TASK:
                return
            with pytest.raises((InvalidUpdate, TypeError)):
                s.apply(task_id, proposal)
            assert stored_bytes(path) == before


@settings(max_examples=80)
@given(proposal=bad_proposals)
def test_a_refused_proposal_changes_no_step_and_logs_one_bounded_line(proposal: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        with TaskStateStore(Path(folder) / "t.db") as s:
            s.create_task(TASK, "goal", [("fetch_invoices", "count"), "fetch_payments", "match"])
            before = s.step_details(TASK)
            try:
                s.apply(TASK, proposal)
            except InvalidUpdate:
                assert s.step_details(TASK) == before
            events = s.events(TASK)
            assert len(events) == 1 and len(events[0].proposal) <= MAX_PROPOSAL_CHARS + 3
            assert s.integrity_check() == "ok"


@settings(max_examples=80)
@given(content=st.binary(max_size=4096) | st.binary(min_size=496, max_size=700), header=st.booleans())
def test_any_bytes_are_refused_or_opened_but_never_changed(content: bytes, header: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.db"
        data = (b"SQLite format 3\x00" + content) if header else content
        path.write_bytes(data)
        try:
            TaskStateStore(path).close()
        except TaskFileError:
            assert path.read_bytes() == data
        else:
            assert data == b""  # only an empty file may become a store


def test_a_second_store_in_one_process_keeps_the_first_ones_locks(tmp_path: Path) -> None:
    """Opening a second store on the file must not drop the first one's POSIX locks (no Python open()/close()
    of the database): otherwise another process may take its WAL away, and readers stop seeing its commits."""
    import subprocess
    import sys

    db = tmp_path / "tasks.db"
    code = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
            "print(c.execute(\"SELECT COUNT(*) FROM steps WHERE status = 'done'\").fetchone()[0]); c.close()")

    def done_seen_by_another_process() -> int:
        run = subprocess.run([sys.executable, "-c", code, str(db)], capture_output=True, text=True, timeout=60)
        return int(run.stdout)

    first = TaskStateStore(db)
    first.create_task(TASK, "goal", STEPS)
    second = TaskStateStore(db)  # as the heartbeat thread of a worker does
    for n, (name, output) in enumerate([("fetch_invoices", "4 invoices"), ("fetch_payments", "3 payments"),
                                        ("match", "all matched")], start=1):
        first.apply(TASK, {"step": name, "status": "done", "output": output})
        assert done_seen_by_another_process() == n
    second.close()
    first.close()


def _open_and_close(path: str, results: Any) -> None:
    try:
        TaskStateStore(path).close()
        results.put("ok")
    except Exception as error:  # reported to the parent, which asserts on it
        results.put(f"{type(error).__name__}: {error}")


@pytest.mark.slow
def test_processes_opening_one_new_file_at_once_all_succeed(tmp_path: Path) -> None:
    """Workers and the parent often open a fresh file together: each sees it empty or whole, never half made."""
    import multiprocessing

    context = multiprocessing.get_context("fork")  # fast start; the store is opened only in the children
    for round_ in range(8):
        path = str(tmp_path / f"tasks-{round_}.db")
        results = context.Queue()
        processes = [context.Process(target=_open_and_close, args=(path, results)) for _ in range(5)]
        for process in processes:
            process.start()
        outcomes = [results.get(timeout=60) for _ in processes]
        for process in processes:
            process.join(timeout=60)
        assert outcomes == ["ok"] * len(processes), outcomes
