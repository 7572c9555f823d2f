"""Many worker processes on one task list: killed at random (seeded) moments, no step is lost, skipped or
recorded twice, and a live worker is never displaced (only the steps of killed workers are taken over)."""

from __future__ import annotations

import random
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from primer_memory.tasks.store import TaskStateStore
from primer_memory.lessons.reconcile_worker import WorkerProcess, start_drainer

pytestmark = pytest.mark.slow
TASKS = [f"job-{n:02d}" for n in range(24)]
STEPS = ["fetch", "transform", "load"]
LEASE = 2.0
WAIT = 90.0


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def place(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Callable[[], TaskStateStore], dict[str, Any]]]:
    """How to open the task list (for checks) and where the workers find it."""
    if request.param == "sqlite":
        db = tmp_path / "tasks.db"
        yield (lambda: TaskStateStore(db)), {"db": db}
        return
    dsn = request.getfixturevalue("pg_dsn")
    schema = f"workers_{uuid.uuid4().hex[:10]}"
    yield (lambda: TaskStateStore(dsn=dsn, schema=schema)), {"dsn": dsn, "schema": schema}
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.mark.parametrize("seed", [7, 2026])
def test_eight_workers_racing_with_random_kills(place: Any, seed: int) -> None:
    open_store, where = place
    taken_over = 0
    with open_store() as store:
        for task in TASKS:
            store.create_task(task, "a job of three steps", STEPS)
    rng = random.Random(seed)
    workers: dict[str, WorkerProcess] = {}
    killed: set[str] = set()
    try:
        for n in range(8):
            workers[f"w{n}"] = start_drainer(f"w{n}", lease=LEASE, work_ms=150, **where)
        for proc in workers.values():
            proc.wait_for("READY", timeout=WAIT)
        for k in range(4):  # kill at random moments, each victim replaced so the list still drains
            time.sleep(rng.uniform(0.1, 0.4))
            alive = sorted(name for name, p in workers.items() if p.alive)
            if not alive:
                break
            victim = rng.choice(alive)
            workers[victim].kill()
            killed.add(victim)
            workers[f"r{k}"] = start_drainer(f"r{k}", lease=LEASE, work_ms=150, **where)
        for name, proc in workers.items():
            if name not in killed:
                assert proc.finish(timeout=WAIT) == 0, proc.errors[-5:]
    finally:
        for proc in workers.values():
            proc.kill()
    survivors = [p for name, p in workers.items() if name not in killed]
    assert not any(line.startswith("LOST") for p in survivors for line in p.lines)

    taken_over = 0
    with open_store() as store:
        for task in TASKS:
            assert store.steps(task) == [(s, "done", f"{s} ok") for s in STEPS], task  # nothing lost
            events = store.events(task)
            dones = [e.step for e in events if e.accepted and e.status == "done"]
            assert dones == STEPS, (task, dones)  # each once, in order: none skipped, none twice
            holder: dict[str, str] = {}
            claims: Counter[str] = Counter()
            for e in events:
                if e.accepted and e.status == "running":
                    if "taken over" in e.reason:
                        assert holder[e.step] in killed, f"{e.worker} displaced live {holder[e.step]}: {e.reason}"
                        taken_over += 1
                    holder[e.step] = e.worker
                    claims[e.step] += 1
                elif e.accepted and e.status == "done":
                    assert e.worker == holder[e.step]  # recorded by the worker that held the step
            assert all(claims[s] >= 1 for s in STEPS)
    print(f"seed {seed}: {len(killed)} workers killed, {taken_over} steps taken over after their lease expired")
    per_worker: defaultdict[str, int] = defaultdict(int)
    for name, p in workers.items():
        per_worker[name] = sum(line.startswith("DONE") for line in p.lines)
    assert sum(per_worker.values()) <= len(TASKS) * len(STEPS)  # killed workers may not have printed theirs
    assert sum(v for n, v in per_worker.items() if n not in killed) >= 1
