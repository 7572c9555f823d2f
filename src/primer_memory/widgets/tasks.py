"""Notebook 4: the crash simulator."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ._common import _messages_html, _panel_class, _preset_text_panel  # noqa: F401


# --------------------------------------------------------------------------- notebook 4: the crash simulator

_STATUS_COLOURS = {"pending": "#7f8c8d", "running": "#d68910", "done": "#1e8449", "failed": "#c0392b"}

__all__ = ["CrashView", "crash_view", "crash_panel", "steps_html"]


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
        f"<tr><td>{s.position}</td><td><code>{html.escape(s.name)}</code></td>"
        f"<td style='color:{_STATUS_COLOURS.get(s.status, 'inherit')}'><b>{html.escape(s.status)}</b></td>"
        f"<td>{html.escape('' if s.output is None else str(s.output))}</td><td>{s.attempts}</td></tr>"
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
                 else f" <code>PRAGMA integrity_check</code>: {html.escape(self.integrity)}.")
        if not self.steps:
            where = "The file holds no task yet."
        elif self.next_step is None:
            where = "Every step is done."
        else:
            where = f"The first unfinished step is <code>{html.escape(self.next_step)}</code>."
        log = html.escape("\n".join(self.worker_lines)) or "(nothing yet)"
        return (f"<div class='pm-crash-view'><p>{html.escape(self.note)}</p><p>{where}{sound}</p>"
                f"{steps_html(self.steps)}<p><b>The worker printed</b></p>"
                f"<pre class='pm-worker-log'>{log}</pre></div>")


def crash_view(steps: list[Any], note: str, worker_lines: list[str] | tuple[str, ...] = (),
               integrity: str | None = None) -> CrashView:
    """Pure: what to show for these steps, this note and this worker output."""
    return CrashView(note=note, steps=list(steps), worker_lines=list(worker_lines), integrity=integrity)


def _read_file(path: Any, task_id: str) -> tuple[list[Any], str]:
    """The steps and integrity check, read by opening the file afresh, as a new process would."""
    from ..task_state import TaskStateStore

    with TaskStateStore(path) as store:
        steps = store.steps(task_id) if task_id in store.tasks() else []
        return steps, store.integrity_check()


def crash_panel(path: Any = None, *, crash_at: str | None = "before:match", timeout: float = 60.0) -> Any:
    """Start the reconcile job in a real process, kill it at a chosen point, resume it in a new one.

    `path` is the task file the panel owns: "start" replaces it. Without a
    path the panel uses a temporary folder of its own.
    """
    import os
    import tempfile
    import weakref

    import ipywidgets as w

    from ..examples import RECONCILE_TASK_ID
    from ..task_state_worker import WorkerError, crash_points, start_worker

    points = crash_points()
    folder = None
    if path is None:
        folder = tempfile.TemporaryDirectory(prefix="pm-crash-")
        path = os.path.join(folder.name, "tasks.db")
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
    state: dict[str, Any] = {"worker": None, "at": None}

    def show(note: str, lines: list[str] | tuple[str, ...] = ()) -> None:
        steps, integrity = _read_file(path, RECONCILE_TASK_ID)
        text.value = crash_view(steps, note, lines, integrity).html()

    def stop_worker() -> None:
        worker = state["worker"]
        if worker is not None:
            worker.kill()
        state["worker"], state["at"] = None, None

    def run(pause_at: str | None) -> tuple[str, list[str]]:
        """Start a worker and wait until it stops at `pause_at` or finishes; say where it is."""
        worker = start_worker(path, pause_at=pause_at, task_id=RECONCILE_TASK_ID)
        state["worker"] = worker
        try:
            line = worker.wait_for("PAUSED", "FINISHED", timeout=timeout)
        except WorkerError as error:
            stop_worker()
            return f"The worker failed: {error}", []
        if line.startswith("PAUSED"):
            state["at"] = line.split(" ", 1)[1]
            return (f"The worker process is paused {_point_label(state['at'])} and waits there. "
                    "Press crash to kill it.", worker.lines)
        worker.finish(timeout=timeout)
        lines = worker.lines
        stop_worker()
        return "The worker ran the job to the end and exited.", lines

    def on_start(_button: object = None) -> None:
        stop_worker()
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(f"{path}{suffix}"):
                os.remove(f"{path}{suffix}")
        note, lines = run(chooser.value)
        show("Started the job on an empty file. " + note, lines)

    def on_crash(_button: object = None) -> None:
        worker = state["worker"]
        if worker is None or not worker.alive:
            show("Nothing to crash: no worker is running. Press start (or resume) first.")
            return
        target = chooser.value
        if target is not None and points.index(target) > points.index(state["at"]):
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
        lines.append("(killed with SIGKILL)")
        where = _point_label(at) if at else "after it had finished"
        show(f"Killed the worker with SIGKILL {where}: no cleanup ran in it. "
             "The table is read by opening the file afresh, as a new process would.", lines)

    def on_resume(_button: object = None) -> None:
        worker = state["worker"]
        if worker is not None and worker.alive:
            show(f"The worker is still alive, paused {_point_label(state['at'])}. Press crash first.",
                 list(worker.lines))
            return
        note, lines = run(None)
        show("A new process opened the same file and carried on from its first unfinished step. " + note, lines)

    start.on_click(on_start)
    crash.on_click(on_crash)
    resume.on_click(on_resume)
    text.value = crash_view([], "Choose where to crash, then press start.").html()
    panel = _panel_class()("CrashPanel", [chooser, w.HBox([start, crash, resume]), text])
    panel.chooser = chooser
    panel.buttons = {"start": start, "crash": crash, "resume": resume}
    panel.text = text
    panel.stop = stop_worker
    panel._folder = folder  # keeps the temporary folder alive as long as the panel

    def _cleanup(state: dict[str, Any] = state) -> None:
        if state["worker"] is not None:
            state["worker"].kill()

    weakref.finalize(panel, _cleanup)
    return panel
