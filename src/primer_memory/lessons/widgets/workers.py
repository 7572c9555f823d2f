"""The worker panel: start N worker processes on one task list, kill one, watch another take its step over.

`workers_view` is pure: given the steps of every task, the event logs and what became of each
worker process, it says what happened, in sentences that hold for every input. `workers_panel`
is the thin shell: real processes (`task_state_worker drain`), on SQLite or on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ._common import _panel_class, shown
from .tasks import _STATUS_COLOURS

__all__ = ["WorkersView", "workers_view", "workers_panel", "WORKER_STATES"]

WORKER_STATES = ("alive", "killed", "finished")


@dataclass(frozen=True)
class WorkersView:
    """What the worker panel shows: one row per task, the workers, and sentences about takeovers."""

    rows: list[tuple[str, list[tuple[str, str, str | None]]]]  # task, [(step, status, holder)]
    workers: dict[str, str]
    takeovers: list[tuple[str, str, str, str]]  # task, step, from (dead holder), to
    notes: list[str] = field(default_factory=list)

    def html(self) -> str:
        """The notes, the workers, and a table: a row per task, a cell per step with its status and holder."""
        def cell(step: str, status: str, holder: str | None) -> str:
            who = f"<br><small>{shown(holder)}</small>" if holder and status == "running" else ""
            colour = _STATUS_COLOURS.get(status, "inherit")
            return (f"<td style='color:{colour}'><code>{shown(step)}</code> "
                    f"<b>{shown(status)}</b>{who}</td>")

        body = "".join(f"<tr><th>{shown(task)}</th>{''.join(cell(*s) for s in steps)}</tr>"
                       for task, steps in self.rows)
        people = ", ".join(f"{shown(n)} ({shown(s)})" for n, s in sorted(self.workers.items()))
        notes = "".join(f"<li>{shown(n)}</li>" for n in self.notes)
        return (f"<div class='pm-workers-view'><ul>{notes}</ul><p><b>Workers:</b> {people or 'none yet'}</p>"
                f"<table class='pm-workers-table'>{body}</table></div>")


def workers_view(steps: Mapping[str, Sequence[Any]], events: Mapping[str, Sequence[Any]],
                 workers: Mapping[str, str]) -> WorkersView:
    """Pure: from each task's `Step`s and `Event`s and each worker's state, what to show and say."""
    rows = [(task, [(s.name, s.status, s.lease_owner) for s in task_steps]) for task, task_steps in steps.items()]
    takeovers: list[tuple[str, str, str, str]] = []
    done_twice: list[str] = []
    for task, log in events.items():
        holder: dict[str, str] = {}
        done: dict[str, int] = {}
        for e in log:
            if e.accepted and e.status == "running" and e.worker:
                if "taken over" in e.reason and e.step in holder:
                    takeovers.append((task, e.step, holder[e.step], e.worker))
                holder[e.step] = e.worker
            if e.accepted and e.status == "done":
                done[e.step] = done.get(e.step, 0) + 1
        done_twice += [f"{task}/{name}" for name, n in done.items() if n > 1]
    total = sum(len(s) for _, s in rows)
    finished = sum(status == "done" for _, s in rows for _, status, _ in s)
    counts = {state: sum(v == state for v in workers.values()) for state in WORKER_STATES}
    notes = []
    if not workers:
        notes.append("No worker has been started yet: choose how many and press start.")
    else:
        notes.append(f"{counts['alive']} worker(s) alive, {counts['killed']} killed, {counts['finished']} finished; "
                     f"{finished} of {total} steps done.")
    for task, step, dead, heir in takeovers:
        how = "was killed" if workers.get(dead) == "killed" else "stopped renewing its lease"
        notes.append(f"{dead} {how} holding {task}/{step}; once its lease expired, {heir} took the step over.")
    killed_holding = [n for n, s in workers.items() if s == "killed"
                      and any(holder == n and status == "running" for _, st in rows for _, status, holder in st)]
    for name in sorted(killed_holding):
        if counts["alive"]:
            notes.append(f"{name} was killed while holding a step; nobody renews its lease now, so another worker "
                         "will take that step over when the lease runs out.")
        else:
            notes.append(f"{name} was killed while holding a step, and no worker is left alive to take it over: the "
                         f"step still names {name} as its holder, and when that lease runs out nobody is there to "
                         "claim it. Press 'add one' to start a worker on this same list and watch it take the step.")
    if total and finished == total:
        notes.append("Every step is done" + (" exactly once." if not done_twice else "."))
    if done_twice:
        notes.append(f"Recorded twice (this must never happen): {', '.join(done_twice)}.")
    return WorkersView(rows=rows, workers=dict(workers), takeovers=takeovers, notes=notes)


def workers_panel(*, dsn: str | None = None, schema: str = "worker_panel", tasks: int | None = None,
                  lease: float = 1.0, work_ms: float = 1500.0, timeout: float = 60.0) -> Any:
    """Start N workers on a fresh list of three-step tasks, kill one, add one, and watch.

    `tasks` defaults to two per worker (four at least), and each step takes `work_ms`: every worker then has about
    six steps of 1.5 s, so the list takes some ten seconds whatever N is, time enough to read the panel and kill.

    With `dsn` the list lives in PostgreSQL (schema `schema`, emptied on start); without it,
    in an SQLite file in a temporary folder of the panel's own. Each start uses a fresh schema
    (or file) and drops the previous one; `panel.stop()` kills the workers and drops the last.
    A second panel on the same `schema` (a re-run cell) starts cleanly too.
    """
    import os
    import time
    import uuid
    import weakref

    import ipywidgets as w

    from ...tasks.store import TaskStateStore
    from ..reconcile_worker import start_drainer
    from ..scratch import scratch_folder

    folder = None if dsn else scratch_folder("pm-workers")
    state: dict[str, Any] = {"procs": {}, "killed": set(), "round": 0}

    def where() -> dict[str, Any]:
        if dsn:
            return {"dsn": dsn, "schema": f"{schema}_{state['round']}"}
        assert folder is not None
        return {"db": os.path.join(folder, f"tasks{state['round']}.db")}

    def open_store() -> TaskStateStore:
        place = where()
        return TaskStateStore(dsn=place["dsn"], schema=place["schema"]) if dsn else TaskStateStore(place["db"])

    count = w.IntSlider(value=3, min=1, max=8, description="workers", continuous_update=False)
    start = w.Button(description="start", icon="play", tooltip="a fresh task list and N worker processes")
    kill = w.Button(description="kill one", icon="bolt", button_style="danger",
                    tooltip="SIGKILL a worker that holds a running step")
    add = w.Button(description="add one", icon="plus", tooltip="one more worker process on the same task list")
    look = w.Button(description="refresh", icon="refresh", tooltip="read the task list again")
    for widget, css in ((count, "pm-workers-count"), (start, "pm-workers-start"), (kill, "pm-workers-kill"),
                        (add, "pm-workers-add"), (look, "pm-workers-refresh")):
        widget.add_class(css)
    text = w.HTML()
    text.add_class("pm-workers-text")

    if dsn:
        schema = f"{schema}_{uuid.uuid4().hex[:6]}"  # this panel's own: a re-run cell gets another

    def worker_states() -> dict[str, str]:
        return {n: "killed" if n in state["killed"] else ("alive" if p.alive else "finished")
                for n, p in state["procs"].items()}

    def show(extra: str = "") -> None:
        if not state["procs"]:
            text.value = (f"<p>{shown(extra)}</p>" if extra else "") + workers_view({}, {}, {}).html()
            return
        with open_store() as store:
            ids = store.tasks()
            view = workers_view({t: store.step_details(t) for t in ids}, {t: store.events(t) for t in ids},
                                worker_states())
        text.value = (f"<p>{shown(extra)}</p>" if extra else "") + view.html()

    def kill_all() -> None:
        for proc in state["procs"].values():
            proc.kill()

    def drop_round() -> None:
        """The current round's task list goes away with its workers (PostgreSQL: the schema; SQLite: the file)."""
        if dsn and state["round"]:
            from ...postgres.scope import drop_schema

            drop_schema(dsn, where()["schema"])

    def stop_all() -> None:
        kill_all()
        try:
            drop_round()
        except Exception:  # the server may already be gone when the interpreter exits
            pass

    def on_start(_button: object = None) -> None:
        try:
            begin()
        except Exception as exc:  # say what went wrong in the panel; never leave it stuck
            kill_all()
            state["procs"], state["killed"] = {}, set()
            show(f"Could not start: {type(exc).__name__}: {exc}")

    def begin() -> None:
        kill_all()
        drop_round()
        state["round"] += 1
        state["procs"], state["killed"] = {}, set()
        drop_round()  # left by an earlier panel on the same schema (a re-run cell)
        jobs = tasks or max(4, 2 * count.value)
        with open_store() as store:
            for n in range(jobs):
                store.create_task(f"job-{n + 1}", "a job of three steps", ["fetch", "transform", "load"])
        for _ in range(count.value):
            launch()
        for proc in state["procs"].values():
            proc.wait_for("READY", timeout=timeout)
        time.sleep(min(1.0, work_ms / 1000 * 2))
        show(f"Started {count.value} worker process(es) on {jobs} tasks of three steps.")

    def launch() -> str:
        name = f"worker {len(state['procs']) + 1}"
        state["procs"][name] = start_drainer(name, lease=lease, work_ms=work_ms, **where())
        return name

    def on_add(_button: object = None) -> None:
        if not state["procs"]:
            show("No task list yet: press start first.")
            return
        name = launch()
        state["procs"][name].wait_for("READY", timeout=timeout)
        time.sleep(lease + 0.5)  # a lease left by a killed worker runs out, and the new one may claim its step
        show(f"Added {name} to the same task list, then waited {lease + 0.5:g} s.")

    def on_kill(_button: object = None) -> None:
        if not state["procs"]:
            show("Nothing to kill: press start first.")
            return
        with open_store() as store:
            holders = {s.lease_owner for t in store.tasks() for s in store.step_details(t) if s.status == "running"}
        alive = sorted(n for n, s in worker_states().items() if s == "alive" and n in holders)
        if not alive:
            show("Nothing was killed: no live worker holds a running step right now (when every step is done, "
                 "press start for a fresh list).")
            return
        victim = alive[0]
        state["procs"][victim].kill()
        state["killed"].add(victim)
        time.sleep(lease + 0.5)  # long enough for the lease to run out and another worker to take over
        show(f"Killed {victim} with SIGKILL while it held a step, then waited {lease + 0.5:g} s.")

    start.on_click(on_start)
    kill.on_click(on_kill)
    add.on_click(on_add)
    look.on_click(lambda _b: show())
    show()
    panel = _panel_class()("WorkersPanel", [w.HBox([count, start, kill, add, look]), text])
    panel.count, panel.text = count, text
    panel.buttons = {"start": start, "kill": kill, "add": add, "refresh": look}
    panel.stop = stop_all
    panel._folder = folder
    weakref.finalize(panel, stop_all)
    return panel

