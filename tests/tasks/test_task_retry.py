"""Durable work as Temporal and DBOS promise it, on every backend: bounded retries with backoff, a start-to-close
bound, a reason kept when a step gives up, one named error when two writers create one task, a lost lease reported."""

from __future__ import annotations

import signal
import threading
import time
import uuid
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory.tasks import (
    GaveUp,
    InvalidTask,
    LeaseError,
    LeaseLost,
    RetryLater,
    RetryPolicy,
    StepTimedOut,
    TaskStateStore,
)

from helpers import Clock, Opener


def test_a_failing_step_backs_off_then_gives_up_with_its_reason(opener: Opener) -> None:
    clock = Clock()
    with opener(clock=clock) as store:
        store.create_task("t", "g", ["fetch", "load"], retry=RetryPolicy(max_attempts=3, initial_interval=10.0))
        waits = []
        for attempt in (1, 2, 3):
            lease = store.claim("t", "A", 5.0)
            assert lease is not None and lease.attempts == attempt
            store.apply("t", {"step": "fetch", "status": "failed", "output": f"timeout {attempt}"}, worker="A")
            if attempt < 3:
                with pytest.raises(RetryLater) as early:  # the backoff: 10 s, then 20 s
                    store.claim("t", "A", 5.0)
                waits.append(early.value.retry_at - clock.now)
                assert store.claim_next("B", 5.0) is None
                clock.now = early.value.retry_at
        assert waits == [10.0, 20.0]
        step = store.current_step("t")
        assert step is not None and (step.status, step.attempts) == ("failed", 3)
        assert step.gave_up == 'gave up after 3 attempts: the last one failed with "timeout 3"'
        assert [e.reason for e in store.events("t") if e.status == "gave_up"] == [step.gave_up]
        clock.now += 1e6
        with pytest.raises(GaveUp, match="gave up after 3 attempts"):
            store.claim("t", "A", 5.0)
        with pytest.raises(GaveUp, match="create a new task"):
            store.apply("t", {"step": "fetch", "status": "running"})
        assert store.claim_next("B", 5.0) is None and store.open_tasks() == []
        assert store.steps("t") == [("fetch", "failed", "timeout 3"), ("load", "pending", None)]


def test_an_attempt_cannot_outlive_its_start_to_close_bound(opener: Opener) -> None:
    clock = Clock()
    with opener(clock=clock) as store:
        store.create_task("t", "g", ["slow"], retry=RetryPolicy(start_to_close=5.0))
        lease = store.claim("t", "A", 30.0)
        assert lease is not None and lease.expires == clock.now + 5.0  # the bound, not the 30 s asked
        clock.now += 4.0
        assert store.heartbeat("t", "A", 30.0).expires == 1005.0  # renewing never moves the bound
        clock.now += 2.0
        with pytest.raises(StepTimedOut, match="start-to-close"):
            store.apply("t", {"step": "slow", "status": "done", "output": "late"}, worker="A")
        taken = store.claim("t", "B", 30.0)
        assert taken is not None and taken.taken_over and taken.attempts == 2 and taken.expires == clock.now + 5.0
        assert "ran past its start-to-close bound" in store.events("t")[-2].reason


def test_attempts_that_never_finish_count_against_the_limit(opener: Opener) -> None:
    clock = Clock()
    with opener(clock=clock) as store:
        store.create_task("t", "g", ["a"], retry=RetryPolicy(max_attempts=2))
        for worker in ("A", "B"):
            assert store.claim("t", worker, 1.0) is not None
            clock.now += 2.0  # the worker died: its lease runs out
        with pytest.raises(GaveUp, match="gave up after 2 attempts: the last one never finished"):
            store.claim("t", "C", 1.0)
        step = store.current_step("t")
        assert step is not None and step.status == "failed" and step.gave_up is not None
        assert store.open_tasks() == []


def test_two_writers_creating_one_task_get_one_named_error(opener: Opener) -> None:
    """Threads with their own connections race on one id, round after round: exactly one wins, the other gets
    InvalidTask (on PostgreSQL the loser's INSERT waits for the winner's COMMIT, then finds the row)."""
    for round_ in range(12):
        barrier = threading.Barrier(2)
        outcomes: list[str] = []

        def create(task_id: str = f"job-{round_}") -> None:
            with opener() as store:  # each thread its own connection, opened before the race
                barrier.wait()
                try:
                    store.create_task(task_id, "g", ["a", "b"])
                    outcomes.append("created")
                except InvalidTask as refusal:
                    assert "already exists" in str(refusal)
                    outcomes.append("InvalidTask")
                except Exception as other:  # noqa: BLE001 - the test reports any other error by name
                    outcomes.append(type(other).__name__)

        threads = [threading.Thread(target=create) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sorted(outcomes) == ["InvalidTask", "created"], outcomes


def test_a_worker_whose_step_was_finished_by_another_is_told_its_lease_was_lost(opener: Opener) -> None:
    clock = Clock()
    with opener(clock=clock) as store:
        store.create_task("t", "g", ["a", "b"])
        assert store.claim("t", "A", 1.0) is not None
        clock.now += 5.0  # A stalls past its lease
        taken = store.claim("t", "B", 1.0)
        assert taken is not None and taken.taken_over
        store.apply("t", {"step": "a", "status": "done", "output": "by B"}, worker="B")
        with pytest.raises(LeaseLost, match="finished by B after the lease of A ran out") as lost:
            store.apply("t", {"step": "a", "status": "done", "output": "by A"}, worker="A")
        assert isinstance(lost.value, LeaseError)  # what a worker loop catches
        assert [e.worker for e in store.events("t") if e.accepted and e.status == "done"] == ["B"]


def test_finish_reports_and_claims_the_next_step_in_one_go(opener: Opener) -> None:
    with opener() as store:
        store.create_task("t1", "g", ["a", "b"])
        store.create_task("t2", "g", ["c"])
        lease = store.claim_next("W", 5.0)
        assert lease is not None and (lease.task_id, lease.step) == ("t1", "a")
        lease = store.finish(lease, "a ok", lease_seconds=5.0)
        assert lease is not None and (lease.task_id, lease.step, lease.attempts) == ("t1", "b", 1)  # same task first
        lease = store.finish(lease, "b ok", lease_seconds=5.0)
        assert lease is not None and (lease.task_id, lease.step) == ("t2", "c")
        assert store.finish(lease, "c ok", lease_seconds=5.0) is None
        assert store.open_tasks() == [] and store.steps("t1") == [("a", "done", "a ok"), ("b", "done", "b ok")]


OUTCOMES = st.sampled_from(["fail", "stall", "done", "stall_then_both_report"])


@settings(max_examples=40)
@given(limit=st.integers(1, 4), outcomes=st.lists(OUTCOMES, min_size=1, max_size=8))
def test_any_failure_pattern_records_each_step_once_and_gives_up_after_exactly_its_limit(
        tmp_path_factory: pytest.TempPathFactory, limit: int, outcomes: list[str]) -> None:
    """Input class: every sequence of attempt outcomes (a failure, a worker that stalls past its lease, a success,
    a stalled worker reporting after another finished), for every attempt limit from 1 to 4, on one step."""
    clock = Clock()
    path = tmp_path_factory.mktemp("retry") / "tasks.db"
    with TaskStateStore(path, clock=clock) as store:
        store.create_task("t", "g", ["a"], retry=RetryPolicy(max_attempts=limit, initial_interval=1.0))
        expected_attempts, finished, gave_up = 0, False, False
        for n, outcome in enumerate(outcomes):
            worker = f"w{n}"
            try:
                lease = store.claim("t", worker, 10.0)
            except GaveUp:
                assert expected_attempts == limit and not finished
                gave_up = True
                break
            if lease is None:
                assert finished
                break
            expected_attempts += 1
            assert lease.attempts == expected_attempts <= limit
            if outcome == "fail":
                store.apply("t", {"step": "a", "status": "failed", "output": "boom"}, worker=worker)
                clock.now += 10_000.0  # past any backoff
                if expected_attempts == limit:
                    gave_up = True
                    break
            elif outcome == "done":
                store.apply("t", {"step": "a", "status": "done", "output": worker}, worker=worker)
                finished = True
            else:
                clock.now += 20.0  # the lease runs out
                if outcome == "stall_then_both_report" and expected_attempts < limit:
                    other = store.claim("t", f"{worker}-b", 10.0)
                    assert other is not None and other.taken_over
                    expected_attempts += 1
                    store.apply("t", {"step": "a", "status": "done", "output": "b"}, worker=f"{worker}-b")
                    with pytest.raises(LeaseLost):
                        store.apply("t", {"step": "a", "status": "done", "output": "late"}, worker=worker)
                    finished = True
        step = store.step_details("t")[0]
        dones = [e for e in store.events("t") if e.accepted and e.status == "done"]
        claims = [e for e in store.events("t") if e.accepted and e.status == "running"]
        assert len(dones) == (1 if finished else 0)  # never recorded twice
        assert step.attempts == len(claims) == expected_attempts <= limit
        if gave_up:
            assert step.gave_up is not None and step.gave_up.startswith(f"gave up after {limit} attempt")
            assert step.attempts == limit and not dones
        else:
            assert step.gave_up is None


def test_a_policy_is_checked_and_kept_with_the_task(opener: Opener) -> None:
    for bad, message in [(dict(max_attempts=0), "max_attempts"), (dict(initial_interval=-1), "initial_interval"),
                         (dict(backoff_rate=0.5), "backoff_rate"), (dict(start_to_close=0), "start_to_close")]:
        with pytest.raises(InvalidTask, match=message):
            RetryPolicy(**bad)  # type: ignore[arg-type]
    assert [RetryPolicy(initial_interval=1, backoff_rate=2, max_interval=5).delay(n) for n in (1, 2, 3, 4, 200)] == [
        1.0, 2.0, 4.0, 5.0, 5.0]
    clock = Clock()
    with opener(clock=clock, retry=RetryPolicy(max_attempts=1)) as store:
        store.create_task("t", "g", ["a"])  # the store's default policy, kept with the task
    with opener(clock=clock) as again:  # another process, with another default: the task keeps its own
        assert again.claim("t", "A", 1.0) is not None
        again.apply("t", {"step": "a", "status": "failed", "output": "x"}, worker="A")
        assert again.current_step("t").gave_up == 'gave up after 1 attempt: the last one failed with "x"'


def test_a_task_written_before_policies_existed_retries_as_before(tmp_path: Path) -> None:
    import sqlite3

    from primer_memory.tasks.storage.sqlite import MIGRATIONS

    path = tmp_path / "old.db"
    raw = sqlite3.connect(path)
    for statements in MIGRATIONS[:2]:
        for statement in statements:
            raw.execute(statement)
    raw.execute("PRAGMA user_version=2")
    raw.execute("INSERT INTO tasks VALUES ('t', 'g')")
    raw.execute("INSERT INTO steps (task_id, position, name) VALUES ('t', 1, 'a')")
    raw.commit()
    raw.close()
    with TaskStateStore(path) as store:
        for _ in range(12):  # more than the default limit: an old task has none
            store.apply("t", {"step": "a", "status": "running"})
            store.apply("t", {"step": "a", "status": "failed", "output": "x"})
        assert store.current_step("t").gave_up is None and store.claim("t", "A", 1.0) is not None


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="needs SIGSTOP/SIGCONT")
def test_a_worker_paused_past_its_lease_reports_the_lost_lease_and_moves_on(tmp_path: Path) -> None:
    """Real processes: A holds a step and is frozen (SIGSTOP) past its lease; B takes the step over and finishes
    the job; A, thawed (SIGCONT), reports the lost lease and exits cleanly instead of crashing."""

    from primer_memory.lessons.reconcile_worker import start_worker

    db = tmp_path / "tasks.db"
    with start_worker(db, pause_at="running:fetch_invoices", worker="A", lease=0.5) as a:
        a.wait_for("PAUSED running:fetch_invoices")
        a.freeze(outside_write_of=db)  # frozen holding its lease, not inside a write (that case: issue 43)
        try:
            a.send("continue")  # read once A runs again
            time.sleep(1.0)  # A's lease (and its heartbeat) stop with it
            with start_worker(db, worker="B", lease=0.5) as b:
                assert b.finish(timeout=60) == 0, b.errors[-8:]
                assert any("taken over" in line for line in b.lines), b.lines
        finally:
            a.thaw()
        assert a.finish(timeout=60) == 0, a.errors[-5:]
    lost = [line for line in a.lines if line.startswith("LOST LEASE")]
    assert lost and "finished by B after the lease of A ran out" in lost[0], a.lines
    assert not any("Traceback" in line for line in a.errors), a.errors[-5:]
    with TaskStateStore(db) as store:
        assert [e.worker for e in store.events("reconcile-september") if e.accepted and e.status == "done"] == [
            "B", "B", "B"]


@pytest.mark.postgres
def test_a_postgresql_schema_of_version_1_is_upgraded_and_its_tasks_retry_as_before(pg_dsn: str) -> None:
    import psycopg

    from primer_memory.tasks.storage.postgres import MIGRATIONS, SCHEMA_VERSION

    schema = f"old_{uuid.uuid4().hex[:10]}"
    TaskStateStore(dsn=pg_dsn, schema=f"{schema}_roles").close()  # the roles a task schema belongs to
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA "{schema}_roles" CASCADE')
        conn.execute(f'CREATE SCHEMA "{schema}" AUTHORIZATION primer_owner')
        conn.execute("SET ROLE primer_owner")  # a version-1 schema as setup made it: its tables the owner's
        conn.execute(f'CREATE TABLE "{schema}".task_schema (version INTEGER NOT NULL)')
        for statement in MIGRATIONS[0]:
            conn.execute(statement.replace("{s}", f'"{schema}"'))
        conn.execute(f'INSERT INTO "{schema}".task_schema VALUES (1)')
        conn.execute(f"INSERT INTO \"{schema}\".task_tasks VALUES ('t', 'g')")
        conn.execute(f"INSERT INTO \"{schema}\".task_steps (task_id, position, name) VALUES ('t', 1, 'a')")
    try:
        with TaskStateStore(dsn=pg_dsn, schema=schema) as store:
            for _ in range(12):  # more than the default limit: a task from before policies has none
                store.apply("t", {"step": "a", "status": "running"})
                store.apply("t", {"step": "a", "status": "failed", "output": "x"})
            assert store.current_step("t").gave_up is None
        with psycopg.connect(pg_dsn, autocommit=True) as conn:
            assert conn.execute(f'SELECT version FROM "{schema}".task_schema').fetchone()[0] == SCHEMA_VERSION
    finally:
        with psycopg.connect(pg_dsn, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
