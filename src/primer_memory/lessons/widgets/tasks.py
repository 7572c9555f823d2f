"""Notebook 4: the crash simulator."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ._common import _messages_html, _panel_class, _preset_text_panel, shown  # noqa: F401


# --------------------------------------------------------------------------- notebook 4: the crash simulator

_STATUS_COLOURS = {"pending": "#7f8c8d", "running": "#d68910", "done": "#1e8449", "failed": "#c0392b"}

__all__ = ["CrashView", "crash_decision", "crash_view", "crash_panel", "resume_note", "steps_html"]


def _point_label(point: str | None) -> str:
    """A crash point in words: where the worker stands when it is killed there."""
    if point is None:
        return "no crash: run to the end"
    if point == "creating":
        return "while creating the task (inside its transaction)"
    where, step = point.split(":", 1)
    return {
        "before": f"before {step} (a step boundary)",
        "running": f"during {step} (marked running, work not reported)",
        "writing": f"inside the write of {step} done (before COMMIT)",
    }[where]


def steps_html(steps: list[Any]) -> str:
    """The steps of a task as an HTML table, one row per step, the status coloured."""
    if not steps:
        return "<p class='pm-steps-table'><i>(no task in the file)</i></p>"
    rows = "".join(
        f"<tr><td>{s.position}</td><td><code>{shown(s.name)}</code></td>"
        f"<td style='color:{_STATUS_COLOURS.get(s.status, 'inherit')}'><b>{shown(s.status)}</b></td>"
        f"<td>{shown('' if s.output is None else str(s.output))}</td><td>{s.attempts}</td></tr>"
        for s in steps
    )
    return (f"<table class='pm-steps-table'><tr><th>#</th><th>step</th><th>status</th><th>output</th>"
            f"<th>attempts</th></tr>{rows}</table>")


@dataclass(frozen=True)
class CrashView:
    """What the crash simulator shows after one action: a note, the steps as the file has them, the worker's output."""

    note: str
    steps: list[Any]
    worker_lines: list[str]
    integrity: str | None = None

    @property
    def next_step(self) -> str | None:
        return next((s.name for s in self.steps if s.status != "done"), None)

    def html(self) -> str:
        """The note, the steps table read from the file, and what the worker printed."""
        sound = ("" if self.integrity is None
                 else f" <code>PRAGMA integrity_check</code>: {shown(self.integrity)}.")
        if not self.steps:
            where = "The file holds no task yet."
        elif self.next_step is None:
            where = "Every step is done."
        else:
            where = f"The first unfinished step is <code>{shown(self.next_step)}</code>."
        log = shown("\n".join(self.worker_lines), lines=True) or "(nothing yet)"
        return (f"<div class='pm-crash-view'><p>{shown(self.note)}</p><p>{where}{sound}</p>"
                f"{steps_html(self.steps)}<p><b>The worker printed</b></p>"
                f"<pre class='pm-worker-log'>{log}</pre></div>")


def crash_view(steps: list[Any], note: str, worker_lines: list[str] | tuple[str, ...] = (),
               integrity: str | None = None) -> CrashView:
    """Pure: what to show for these steps, this note and this worker output."""
    return CrashView(note=note, steps=list(steps), worker_lines=list(worker_lines), integrity=integrity)


def crash_decision(chosen: str | None, paused_at: str | None, alive: bool,
                   points: list[str] | None = None, *, last: str | None = None) -> tuple[str, str]:
    """Pure: what the crash button does, ("kill" | "run_on" | "refuse", why), for the chooser and the worker's state.

    "no crash" selected never kills; a point later than where the worker waits runs it on first;
    an earlier (or the same) point kills it where it stands, and the note says so. `last` says how the last
    worker ended ("killed", "finished" or None: none has run), so a refusal names the button that helps.
    """
    if not alive:
        if last == "killed":
            return "refuse", ("Nothing to crash: the worker was already killed. Press resume to carry on in a new "
                              "process, or start to begin again.")
        if last == "finished":
            return "refuse", "Nothing to crash: the job ran to the end. Press start to run it again."
        return "refuse", "Nothing to crash: no worker is running. Press start first."
    if chosen is None:
        return "refuse", ("Nothing was killed: the crash point is set to \"no crash\". Choose a point to crash at, "
                          "then press crash again.")
    if points is not None and paused_at in points and chosen in points and \
            points.index(chosen) > points.index(paused_at):
        return "run_on", "The worker first ran on to the chosen point."
    if chosen == paused_at:
        return "kill", ""
    return "kill", (f"The worker is already past the chosen point, so it is killed where it waits: "
                    f"{_point_label(paused_at)}.")


def resume_note(before: list[Any], after: list[Any], finished: bool) -> str:
    """Pure: what a resume did, told from the file before and after (never claims to carry on from nothing)."""
    first = next((s.name for s in before if s.status != "done"), None)
    if not before:
        head = ("The file held no task (the crash came before the task was created, or nothing ran yet), so the "
                "new process created it and started from the first step.")
    elif first is None:
        return "Every step was already done, so the new process found nothing to do and exited."
    else:
        head = f"A new process opened the same file and carried on from its first unfinished step, {first}."
    if not finished:
        return head + " It did not finish: see what it printed."
    return head + " It ran the job to the end and exited."


def _read_file(path: Any, task_id: str) -> tuple[list[Any], str]:
    """The steps and integrity check, read by opening the file afresh, as a new process would."""
    import os

    from ...tasks.store import TaskStateStore

    if not os.path.exists(path):
        return [], "ok (no file yet)"
    with TaskStateStore(path) as store:
        steps = store.step_details(task_id) if task_id in store.tasks() else []
        return steps, store.integrity_check()


def crash_panel(path: Any = None, *, crash_at: str | None = "before:match", timeout: float = 60.0) -> Any:
    """Start the reconcile job in a real process, kill it at a chosen point, resume it in a new one.

    `path` is the task file the panel owns: "start" replaces it. Without a
    path the panel uses a temporary folder of its own.
    """
    import os
    import weakref

    import ipywidgets as w

    from ..examples import RECONCILE_TASK_ID
    from ..reconcile_worker import WorkerError, crash_points, start_worker
    from ..scratch import scratch_folder

    points = crash_points()
    folder = None
    if path is None:
        folder = scratch_folder("pm-crash")
        path = os.path.join(folder, "tasks.db")
    chooser = w.Dropdown(options=[(_point_label(p), p) for p in points] + [(_point_label(None), None)],
                         value=crash_at, description="crash", layout=w.Layout(width="520px"))
    chooser.add_class("pm-crash-step")
    start = w.Button(description="start", icon="play",
                     tooltip="start the job in a new process; it stops at the chosen point")
    crash = w.Button(description="crash", icon="bolt", button_style="danger", tooltip="SIGKILL the worker")
    resume = w.Button(description="resume", icon="repeat", tooltip="a new process carries on from the file")
    for button, name in ((start, "pm-start-button"), (crash, "pm-crash-button"), (resume, "pm-resume-button")):
        button.add_class(name)
    text = w.HTML()
    text.add_class("pm-crash-text")
    state: dict[str, Any] = {"worker": None, "at": None, "count": 0, "last": None, "lines": []}

    def show(note: str, lines: list[str] | tuple[str, ...] = ()) -> None:
        steps, integrity = _read_file(path, RECONCILE_TASK_ID)
        text.value = crash_view(steps, note, lines, integrity).html()

    def stop_worker() -> None:
        worker = state["worker"]
        if worker is not None:
            worker.kill()
        state["worker"], state["at"] = None, None

    def run(pause_at: str | None) -> tuple[str, list[str], bool]:
        """Start a worker and wait until it stops at `pause_at` or finishes; say where it is."""
        state["count"] += 1
        worker = start_worker(path, pause_at=pause_at, task_id=RECONCILE_TASK_ID,
                              worker=f"worker {chr(ord('A') + (state['count'] - 1) % 26)}")
        state["worker"] = worker
        try:
            line = worker.wait_for("PAUSED", "FINISHED", timeout=timeout)
        except WorkerError as error:
            stop_worker()
            return f"The worker failed: {error}", [], False
        if line.startswith("PAUSED"):
            state["at"] = line.split(" ", 1)[1]
            return (f"The worker process is paused {_point_label(state['at'])} and waits there. "
                    "Press crash to kill it.", worker.lines, False)
        worker.finish(timeout=timeout)
        lines = worker.lines
        stop_worker()
        state["last"], state["lines"] = "finished", list(lines)
        return "The worker ran the job to the end and exited.", lines, True

    def on_start(_button: object = None) -> None:
        stop_worker()
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(f"{path}{suffix}"):
                os.remove(f"{path}{suffix}")
        state["count"], state["last"], state["lines"] = 0, None, []
        note, lines, _ = run(chooser.value)
        show("Started the job on an empty file. " + note, lines)

    def on_crash(_button: object = None) -> None:
        worker = state["worker"]
        alive = worker is not None and worker.alive
        action, why = crash_decision(chooser.value, state["at"], alive, points, last=state["last"])
        if action == "refuse":
            show(why, list(worker.lines) if alive else state["lines"])  # what the last worker printed stays
            return
        target = chooser.value
        if action == "run_on":
            worker.send(f"pause {target}")  # run on to the chosen point first
            try:
                line = worker.wait_for("PAUSED", "FINISHED", timeout=timeout)
            except WorkerError as error:
                stop_worker()
                show(f"The worker failed: {error}")
                return
            state["at"] = line.split(" ", 1)[1] if line.startswith("PAUSED") else None
        at, lines = state["at"], list(worker.lines)
        stop_worker()
        if at is None:
            state["last"], state["lines"] = "finished", lines
            show("The worker finished the job before it reached the chosen point; nothing was left to kill.", lines)
            return
        lines.append("(killed with SIGKILL)")
        state["last"], state["lines"] = "killed", lines
        show(f"{why + ' ' if why else ''}Killed the worker with SIGKILL {_point_label(at)}: no cleanup ran in it. "
             "The table is read by opening the file afresh, as a new process would.", lines)

    def on_resume(_button: object = None) -> None:
        worker = state["worker"]
        if worker is not None and worker.alive:
            show(f"The worker is still alive, paused {_point_label(state['at'])}. Press crash first.",
                 list(worker.lines))
            return
        before, _ = _read_file(path, RECONCILE_TASK_ID)
        note, lines, finished = run(None)
        show(resume_note(before, _read_file(path, RECONCILE_TASK_ID)[0], finished), lines)

    start.on_click(on_start)
    crash.on_click(on_crash)
    resume.on_click(on_resume)
    text.value = crash_view([], "Choose where to crash, then press start.").html()
    panel = _panel_class()("CrashPanel", [chooser, w.HBox([start, crash, resume]), text])
    panel.chooser = chooser
    panel.buttons = {"start": start, "crash": crash, "resume": resume}
    panel.text = text
    panel.stop = stop_worker
    panel._folder = folder  # removed at exit, or by the next panel if this kernel is killed

    def _cleanup(state: dict[str, Any] = state) -> None:
        if state["worker"] is not None:
            state["worker"].kill()

    weakref.finalize(panel, _cleanup)
    return panel
