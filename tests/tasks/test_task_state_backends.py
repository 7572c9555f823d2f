"""One contract for every task-state backend: SQLite and PostgreSQL keep the same rules, refusals and leases."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory.lessons.examples import RECONCILE_GOAL, RECONCILE_PROPOSALS, RECONCILE_STEPS
from primer_memory.tasks.store import InvalidTask, InvalidUpdate, LeaseExpired, LeaseHeld, TaskStateStore, UnknownTask

TASK = "reconcile-september"
Opener = Callable[..., TaskStateStore]


def drop_schema(dsn: str, schema: str) -> None:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


# `opener` (a store on this test's own file, or PostgreSQL schema) comes from tests/tasks/conftest.py.


@pytest.fixture
def store(opener: Opener) -> Iterator[TaskStateStore]:
    with opener() as s:
        s.create_task(TASK, RECONCILE_GOAL, RECONCILE_STEPS)
        yield s


def test_the_lessons_worked_example(store: TaskStateStore, opener: Opener) -> None:
    outcomes = []
    for proposal, _ in RECONCILE_PROPOSALS:
        try:
            store.apply(TASK, proposal)
            outcomes.append(True)
        except InvalidUpdate as refusal:
            assert "the current step is fetch_payments" in str(refusal)
            outcomes.append(False)
    assert outcomes == [accepted for _, accepted in RECONCILE_PROPOSALS]
    store.close()
    with opener() as again:  # a new connection, as a new process would open
        assert again.next_step(TASK) == "match"
        assert again.steps(TASK) == [("fetch_invoices", "done", "4 invoices"), ("fetch_payments", "done", "3 payments"),
                                     ("match", "pending", None)]
        assert [(e.seq, e.accepted) for e in again.events(TASK)] == [(1, True), (2, False), (3, True)]
        assert again.integrity_check() == "ok"


@pytest.mark.parametrize(("proposal", "message"), [
    ('{"step": "fetch_invoices"', "not valid JSON"),
    ({"step": "fetch_invoices", "status": "complete"}, "is not a status"),
    ({"step": "match", "status": "done", "output": "x"}, "the current step is fetch_invoices"),
    ({"step": "fetch_invoices", "status": "pending"}, "nobody may propose pending"),
    ({"step": "fetch_invoices", "status": "done", "output": "some"}, "fails the \"count\" check"),
    ({"step": "fetch_invoices", "status": "failed", "output": "a\x00b"}, "NUL character"),
    ({"step": "fetch_invoices", "status": "failed", "output": "a\ud800b"}, "lone surrogate"),
    ({"step": "fetch_invoices", "status": "failed", "output": {"x": "y" * 20_000}}, "longer than 10000"),
])
def test_refusals_are_the_same_everywhere(store: TaskStateStore, proposal: Any, message: str) -> None:
    before = store.step_details(TASK)
    with pytest.raises(InvalidUpdate, match=message):
        store.apply(TASK, proposal)
    assert store.step_details(TASK) == before
    (event,) = store.events(TASK)
    assert not event.accepted and event.seq == 1


def test_outputs_round_trip_and_unknown_tasks_leave_no_trace(store: TaskStateStore) -> None:
    store.apply(TASK, {"step": "fetch_invoices", "status": "running"})
    failed = store.apply(TASK, json.dumps({"step": "fetch_invoices", "status": "failed",
                                           "output": {"error": "timeout", "n": 2}}))
    assert failed.output == {"error": "timeout", "n": 2}
    with pytest.raises(InvalidUpdate, match="no task"):
        store.apply("nope", {"step": "a", "status": "done"})
    assert store.events("nope") == [] and store.tasks() == [TASK]
    with pytest.raises(UnknownTask):
        store.steps("nope")
    with pytest.raises(InvalidTask, match="already exists"):
        store.create_task(TASK, "again", ["x"])
    with pytest.raises(InvalidTask, match="single text"):
        store.create_task("q3", "goal", "fetch")


def test_leases_are_the_same_everywhere(opener: Opener) -> None:
    now = [100.0]
    with opener(clock=lambda: now[0]) as s:
        s.create_task(TASK, "g", ["a", "b"])
        assert s.claim(TASK, "A", 10).step == "a"
        with pytest.raises(LeaseHeld):
            s.apply(TASK, {"step": "a", "status": "done"}, worker="B")
        assert s.claim_next("B", 10) is None
        now[0] += 11
        with pytest.raises(LeaseExpired):
            s.apply(TASK, {"step": "a", "status": "done"}, worker="A")
        taken = s.claim_next("B", 10)
        assert (taken.task_id, taken.step, taken.attempts, taken.taken_over) == (TASK, "a", 2, True)
        s.apply(TASK, {"step": "a", "status": "done", "output": "ok"}, worker="B")
        assert s.steps(TASK) == [("a", "done", "ok"), ("b", "pending", None)]


@settings(max_examples=15)
@given(sequence=st.lists(st.fixed_dictionaries(
    {"step": st.sampled_from(["fetch_invoices", "fetch_payments", "match", "x"]),
     "status": st.sampled_from(["pending", "running", "done", "failed"])},
    optional={"output": st.sampled_from(["", "4 invoices", "3 payments", "all matched"])}), max_size=10))
def test_both_backends_decide_alike(pg_dsn: str, tmp_path_factory: pytest.TempPathFactory,
                                    sequence: list[dict[str, Any]]) -> None:
    schema = f"tasks_{uuid.uuid4().hex[:12]}"
    folder = tmp_path_factory.mktemp("alike")
    try:
        with TaskStateStore(folder / "t.db") as lite, TaskStateStore(dsn=pg_dsn, schema=schema) as pg:
            for s in (lite, pg):
                s.create_task(TASK, RECONCILE_GOAL, RECONCILE_STEPS)
            for proposal in sequence:
                verdicts = []
                for s in (lite, pg):
                    try:
                        verdicts.append(("ok", s.apply(TASK, proposal).status))
                    except InvalidUpdate as refusal:
                        verdicts.append(("refused", str(refusal)))
                assert verdicts[0] == verdicts[1], proposal
            assert lite.steps(TASK) == pg.steps(TASK)
            strip = [(e.seq, e.step, e.status, e.output, e.accepted, e.reason) for e in lite.events(TASK)]
            assert strip == [(e.seq, e.step, e.status, e.output, e.accepted, e.reason) for e in pg.events(TASK)]
    finally:
        drop_schema(pg_dsn, schema)


test_both_backends_decide_alike = pytest.mark.postgres(test_both_backends_decide_alike)


def test_the_postgresql_driver_is_imported_only_when_a_dsn_is_given(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = ("import sys; from primer_memory import TaskStateStore; "
            "TaskStateStore(sys.argv[1]).close(); print('psycopg' in sys.modules)")
    src = str(Path(__file__).resolve().parents[2] / "src")
    run = subprocess.run([sys.executable, "-c", code, str(tmp_path / "t.db")], capture_output=True, text=True,
                         timeout=60, env={"PYTHONPATH": src, "PATH": "/usr/bin:/bin"})
    assert run.stdout.strip() == "False", run.stderr
