"""Notebook 5's workers: real processes drain one task list on PostgreSQL while one of them is killed mid-step.

Each worker claims the current step of some task with `FOR UPDATE SKIP LOCKED`
and a lease, does it, and records it. One worker is SIGKILLed while it holds a
step; its lease runs out and another worker takes the step over. The report
says only what must hold whatever the timing: every step done, each recorded
once, the killed worker's step finished by someone else.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RaceReport", "lease_race"]

STEPS = ["fetch", "transform", "load"]


@dataclass(frozen=True)
class RaceReport:
    """What happened to the task list, in facts that do not depend on which worker won which race."""

    tasks: int
    steps_done: int
    steps_total: int
    each_recorded_once: bool
    killed: str
    killed_step_taken_over: bool
    done_by_killed_worker: int

    def lines(self) -> list[str]:
        return [
            f"steps done: {self.steps_done} of {self.steps_total} ({self.tasks} tasks x {len(STEPS)} steps)",
            f"every step recorded exactly once, in order: {self.each_recorded_once}",
            f"{self.killed} was killed while holding a step; another worker took that step over after the lease "
            f"ran out: {self.killed_step_taken_over}",
        ]


def lease_race(dsn: str, *, schema: str = "notebook5_tasks", workers: int = 4, tasks: int = 6,
               lease: float = 1.0, work_ms: float = 400.0) -> RaceReport:
    """Create `tasks` three-step tasks, start `workers` processes, kill the first once it holds a step, report."""
    from ..postgres.scope import drop_schema
    from ..tasks.store import TaskStateStore
    from .reconcile_worker import start_drainer

    drop_schema(dsn, schema)
    names = [f"w{n}" for n in range(1, workers + 1)]
    with TaskStateStore(dsn=dsn, schema=schema) as store:
        for n in range(tasks):
            store.create_task(f"job-{n}", "a job of three steps", STEPS)
    procs = {name: start_drainer(name, dsn=dsn, schema=schema, lease=lease, work_ms=work_ms) for name in names}
    victim = names[0]
    try:
        for proc in procs.values():
            proc.wait_for("READY", timeout=60)
        procs[victim].wait_for("CLAIMED", timeout=60)  # it holds a step now, its work not recorded
        procs[victim].kill()
        for name in names[1:]:
            procs[name].finish(timeout=120)
    finally:
        for proc in procs.values():
            proc.kill()
    done = once = 0
    taken_over = False
    by_victim = 0
    with TaskStateStore(dsn=dsn, schema=schema) as store:
        for n in range(tasks):
            task = f"job-{n}"
            done += sum(status == "done" for _, status, _ in store.steps(task))
            events = store.events(task)
            dones = [e for e in events if e.accepted and e.status == "done"]
            once += [e.step for e in dones] == STEPS
            by_victim += sum(e.worker == victim for e in dones)
            holder: dict[str, str] = {}
            for e in events:
                if e.accepted and e.status == "running":
                    if "taken over" in e.reason and holder.get(e.step) == victim and e.worker != victim:
                        taken_over = True
                    holder[e.step] = e.worker
    drop_schema(dsn, schema)
    return RaceReport(tasks, done, tasks * len(STEPS), once == tasks, victim, taken_over, by_victim)
