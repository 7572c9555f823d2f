"""Interactive panels for the notebooks.

Each panel is a thin ipywidgets shell around a pure function (`*_view`) that
takes plain values and returns what the panel shows, so tests drive the logic
without a browser. ipywidgets is imported inside the panel functions only.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .examples import invoice_chat
from .short_term import Message, ShortTermMemory, estimate_tokens

__all__ = ["BudgetView", "budget_view", "budget_panel"]


@functools.cache
def _panel_class() -> type:
    """A VBox whose plain-text form is short and stable (nbval compares it), named by the panel."""
    import ipywidgets as w

    class Panel(w.VBox):
        def __init__(self, name: str, children: list[Any], **kwargs: Any):
            super().__init__(children=children, **kwargs)
            self._panel_name = name
            self.add_class("pm-panel")

        def __repr__(self) -> str:
            return f"{self._panel_name}()"

    return Panel


def _preset_text_panel(name: str, options: list[tuple[str, str]], value: str, *, label: str, key: str,
                       css: tuple[str, str], render: Callable[[str], str], width: str = "720px") -> Any:
    """A preset dropdown that fills a text box, and an HTML view of `render(text)` (the policy and notes panels).

    CSS classes: pm-<css[0]>-preset, pm-<css[0]>-<css[1]> on the box, pm-<css[0]>-text on the view.
    """
    import ipywidgets as w

    values = [v for _, v in options]
    preset = w.Dropdown(options=options, value=value if value in values else values[0], description="preset",
                        layout=w.Layout(width="620px"))
    box = w.Text(value=value, description=label, continuous_update=False, layout=w.Layout(width=width))
    preset.add_class(f"pm-{css[0]}-preset")
    box.add_class(f"pm-{css[0]}-{css[1]}")
    out = w.HTML()
    out.add_class(f"pm-{css[0]}-text")

    def refresh(_change: object = None) -> None:
        out.value = render(box.value)

    def choose(_change: object = None) -> None:
        if preset.value:  # an empty preset means "type your own"
            box.value = preset.value

    preset.observe(choose, names="value")
    box.observe(refresh, names="value")
    refresh()
    panel = _panel_class()(name, [preset, box, out])
    panel.controls = {"preset": preset, key: box}
    panel.text = out
    return panel


def _messages_html(messages: list[Message]) -> str:
    rows = "".join(
        f"<tr><td><b>{html.escape(m['role'])}</b></td><td>{estimate_tokens(m['content'])}</td>"
        f"<td>{html.escape(m['content'])}</td></tr>"
        for m in messages
    )
    return f"<table class='pm-messages'><tr><th>role</th><th>tokens</th><th>text</th></tr>{rows}</table>"


# --------------------------------------------------------------------------- notebook 1: the budget


@dataclass(frozen=True)
class BudgetView:
    """What the budget panel shows for one position of its sliders."""

    budget: int
    keep_last: int
    turns: int
    summary: str
    messages: list[Message]
    tokens_sent: int
    history_tokens: int
    dropped_exchanges: int

    def html(self) -> str:
        """The panel's text part: counts, the summary and the messages sent."""
        summary = html.escape(self.summary) if self.summary else "<i>(no summary: everything fits)</i>"
        return (
            f"<div class='pm-budget-view'>"
            f"<p><b>{self.tokens_sent}</b> tokens sent of a budget of {self.budget} "
            f"(the whole history would be {self.history_tokens}). "
            f"Exchanges gone entirely: {self.dropped_exchanges}.</p>"
            f"<p><b>Summary</b> ({estimate_tokens(self.summary)} tokens): {summary}</p>"
            f"{_messages_html(self.messages)}</div>"
        )


def budget_view(budget: int, keep_last: int, turns: int) -> BudgetView:
    """Run the invoice chat for `turns` exchanges under the given budget and report what is sent."""
    memory = ShortTermMemory(budget, keep_last)
    memory.extend(invoice_chat(turns))
    window = memory.window()
    return BudgetView(
        budget=budget,
        keep_last=keep_last,
        turns=turns,
        summary=window.summary,
        messages=window.messages,
        tokens_sent=window.tokens,
        history_tokens=memory.history_tokens(),
        dropped_exchanges=window.dropped // 2,  # each exchange is two messages, dropped oldest first
    )


def budget_panel(budget: int = 110, keep_last: int = 4, turns: int = 6, *, max_turns: int = 40) -> Any:
    """Sliders for the budget, keep_last and the number of turns; redraws the figure and the context."""
    import ipywidgets as w

    from .figures import context_tokens, figure_png

    style = {"description_width": "90px"}
    layout = w.Layout(width="420px")
    budget_slider = w.IntSlider(value=budget, min=40, max=600, step=10, description="budget",
                                continuous_update=False, style=style, layout=layout)
    keep_slider = w.IntSlider(value=keep_last, min=1, max=12, description="keep_last",
                              continuous_update=False, style=style, layout=layout)
    turns_slider = w.IntSlider(value=turns, min=1, max=max_turns, description="turns",
                               continuous_update=False, style=style, layout=layout)
    budget_slider.add_class("pm-budget-slider")
    keep_slider.add_class("pm-keep-slider")
    turns_slider.add_class("pm-turns-slider")
    image = w.Image(format="png", layout=w.Layout(width="640px"))
    text = w.HTML()
    text.add_class("pm-budget-text")

    def redraw(_change: object = None) -> None:
        view = budget_view(budget_slider.value, keep_slider.value, turns_slider.value)
        text.value = view.html()
        fig = context_tokens(max_turns, budget_slider.value, keep_slider.value, mark_turn=turns_slider.value)
        image.value = figure_png(fig)

    for slider in (budget_slider, keep_slider, turns_slider):
        slider.observe(redraw, names="value")
    redraw()
    panel = _panel_class()("BudgetPanel", [w.HBox([w.VBox([budget_slider, keep_slider, turns_slider])]), image, text])
    panel.sliders = {"budget": budget_slider, "keep_last": keep_slider, "turns": turns_slider}
    panel.text = text
    panel.image = image
    return panel


# --------------------------------------------------------------------------- notebook 3: inject an adversarial query


@dataclass(frozen=True)
class AttackView:
    """What each design returns to one caller for one query, and whether anything leaked."""

    caller: str
    query: str
    naive: list[tuple[str, str]]  # (owner scope, content) from the global index
    partitioned: list[tuple[str, str]]  # (owner scope, content) from LongTermMemory

    @property
    def naive_leaks(self) -> list[str]:
        return [content for owner, content in self.naive if owner != self.caller]

    @property
    def partitioned_leaks(self) -> list[str]:
        return [content for owner, content in self.partitioned if owner != self.caller]

    def html(self) -> str:
        """Two columns, the naive global index beside the partitioned store, leaks in red."""

        def column(title: str, rows: list[tuple[str, str]]) -> str:
            items = "".join(
                f"<li style='color:{'#c0392b' if owner != self.caller else 'inherit'}'>"
                f"{'LEAK from ' + html.escape(owner) + ': ' if owner != self.caller else ''}{html.escape(text)}</li>"
                for owner, text in rows
            ) or "<li><i>(nothing)</i></li>"
            return f"<div style='flex:1;min-width:280px'><b>{title}</b><ul>{items}</ul></div>"

        verdict = (f"<b style='color:#c0392b'>The global index leaked {len(self.naive_leaks)} record(s) "
                   f"of other tenants.</b>" if self.naive_leaks else "The global index leaked nothing this time.")
        safe = ("The partitioned store returned only the caller's own records."
                if not self.partitioned_leaks else "<b>The partitioned store leaked: this is a bug.</b>")
        return (f"<div class='pm-attack-view'><p>Caller <code>{html.escape(self.caller)}</code> asks: "
                f"<code>{html.escape(self.query)}</code></p><div style='display:flex;gap:16px'>"
                f"{column('GlobalIndexStore (the wrong design)', self.naive)}"
                f"{column('LongTermMemory (partitioned)', self.partitioned)}</div><p>{verdict} {safe}</p></div>")


def attack_view(partitioned: Any, naive: Any, caller: Any, query: str, k: int = 3) -> AttackView:
    """Send one query, as one caller, to both designs."""
    return AttackView(
        caller=str(caller),
        query=query,
        naive=[(f"{h.tenant_id}/{h.user_id}", h.content) for h in naive.recall(caller, query, k=k)],
        partitioned=[(str(r.scope), r.content) for r in partitioned.recall(caller, query, k=k)],
    )


def attack_panel(partitioned: Any = None, naive: Any = None) -> Any:
    """Pick a preset attack or type your own query; see what each design returns, leaks in red."""
    import ipywidgets as w

    from .examples import ADVERSARIAL_QUERIES, SAFETY_MEMORIES, safety_world
    from .long_term import Scope

    if partitioned is None or naive is None:
        partitioned, naive = safety_world()
    callers = sorted({f"{t}/{u}" for (t, u), _ in SAFETY_MEMORIES})
    first_name, ((tenant, user), first_query) = next(iter(ADVERSARIAL_QUERIES.items()))
    preset = w.Dropdown(options=list(ADVERSARIAL_QUERIES), value=first_name, description="preset",
                        layout=w.Layout(width="520px"))
    caller = w.Dropdown(options=callers, value=f"{tenant}/{user}", description="caller")
    query = w.Text(value=first_query, description="query", continuous_update=False, layout=w.Layout(width="720px"))
    preset.add_class("pm-attack-preset")
    caller.add_class("pm-attack-caller")
    query.add_class("pm-attack-query")
    text = w.HTML()
    text.add_class("pm-attack-text")

    def refresh(_change: object = None) -> None:
        tenant_id, user_id = caller.value.split("/", 1)
        text.value = attack_view(partitioned, naive, Scope(tenant_id, user_id), query.value).html()

    def choose(_change: object = None) -> None:
        (tenant_id, user_id), preset_query = ADVERSARIAL_QUERIES[preset.value]
        with query.hold_trait_notifications(), caller.hold_trait_notifications():
            caller.value = f"{tenant_id}/{user_id}"
            query.value = preset_query
        refresh()

    preset.observe(choose, names="value")
    caller.observe(refresh, names="value")
    query.observe(refresh, names="value")
    refresh()
    panel = _panel_class()("AttackPanel", [preset, caller, query, text])
    panel.controls = {"preset": preset, "caller": caller, "query": query}
    panel.text = text
    return panel


# --------------------------------------------------------------------------- notebook 4: the crash simulator

_STATUS_COLOURS = {"pending": "#7f8c8d", "running": "#d68910", "done": "#1e8449", "failed": "#c0392b"}


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
    from .task_state import TaskStateStore

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

    from .examples import RECONCILE_TASK_ID
    from .task_state_worker import WorkerError, crash_points, start_worker

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


__all__ += ["CrashView", "crash_view", "crash_panel", "steps_html"]


# --------------------------------------------------------------------------- notebook 3: the write policy and the notes path box

_VERDICT_COLOURS = {"store": "#1e8449", "skip": "#7f8c8d", "refuse": "#c0392b"}


def _visible(text: str) -> str:
    """Show invisible and look-alike characters as escapes, so a NUL or a fullwidth dot can be seen."""
    import unicodedata

    out = []
    for ch in text:
        if ch == " " or (ch.isprintable() and unicodedata.normalize("NFKC", ch) == ch
                         and unicodedata.category(ch)[0] not in "CZ"):
            out.append(ch)
        else:
            out.append(ch.encode("unicode_escape").decode("ascii"))
    return "".join(out)


@dataclass(frozen=True)
class PolicyView:
    """The policy's decision on one sentence; holds the sentence only with every finding redacted."""

    redacted: str
    verdict: str
    reason: str
    detector: str | None

    def html(self) -> str:
        """Verdict in colour, the detector that decided, the reason, and the text as it could be shown."""
        colour = _VERDICT_COLOURS[self.verdict]
        detector = f" by <code>{html.escape(self.detector)}</code>" if self.detector else ""
        shown = (f"<p>The text with the finding masked: <code>{html.escape(self.redacted)}</code></p>"
                 if self.verdict == "refuse" else "")
        return (f"<div class='pm-policy-view'><p><b style='color:{colour}'>{self.verdict.upper()}</b>{detector}</p>"
                f"<p>{html.escape(self.reason)}</p>{shown}</div>")


def policy_view(text: str) -> PolicyView:
    """Run the write policy on one sentence (the sentence itself is kept only in redacted form)."""
    from .policy import redact, review

    decision = review(text)
    return PolicyView(redact(text), decision.verdict, decision.reason, decision.detector)


def policy_panel(text: str = "my VPN password is hunter2") -> Any:
    """Type a sentence or pick a preset; see whether memory would store, skip or refuse it, and why."""
    from .policy import POLICY_EXAMPLES

    options = [("(type your own)", "")] + [(label, sentence) for label, sentence in POLICY_EXAMPLES]
    return _preset_text_panel("PolicyPanel", options, text, label="text", key="text", css=("policy", "input"),
                              render=lambda value: policy_view(value).html())


@dataclass(frozen=True)
class NotesPathView:
    """What the notes tool does with one path: a listing or a note, a missing note, or a refusal and why."""

    path: str
    kind: str  # "folder", "note", "missing" (a safe path with nothing there) or "refused"
    text: str  # the listing or the numbered note, else the error message
    error: str = ""  # the exception's class name when not shown

    @property
    def accepted(self) -> bool:
        return self.kind != "refused"

    def html(self) -> str:
        """Accepted in green with what the tool returns; refused in red with the error's message."""
        path = f"<code>{html.escape(_visible(self.path))}</code>"
        if self.kind == "refused":
            head = f"<b style='color:#c0392b'>REFUSED</b> {path}: <b>{html.escape(self.error)}</b>"
            body = f"<p>{html.escape(self.text)}</p>"
        elif self.kind == "missing":
            head = f"<b style='color:#1e8449'>ACCEPTED</b> {path} (a safe path, but {html.escape(self.error)})"
            body = f"<p>{html.escape(self.text)}</p>"
        else:
            head = f"<b style='color:#1e8449'>ACCEPTED</b> {path} ({self.kind})"
            body = f"<pre>{html.escape(self.text)}</pre>"
        return f"<div class='pm-notes-view'><p>{head}</p>{body}</div>"


def notes_path_view(path: str, notes: Any) -> NotesPathView:
    """Ask `notes` (a MemoryNotes) to view `path` and report what came back, or why it was refused."""
    import os

    from .notes import NoteNotFound, NotesError

    try:
        shown = notes.view(path)
    except NoteNotFound as error:
        return NotesPathView(path, "missing", str(error), type(error).__name__)
    except NotesError as error:
        return NotesPathView(path, "refused", str(error), type(error).__name__)
    kind = "folder" if os.path.isdir(notes.locate(path)) else "note"
    return NotesPathView(path, kind, shown)


def notes_panel(notes: Any = None) -> Any:
    """A path box for the notes tool with preset escapes; shows the listing or note, or the refusal."""
    import os
    import tempfile

    from .notes import ATTACK_PATHS, example_notes

    folder = None
    if notes is None:
        folder = tempfile.TemporaryDirectory(prefix="pm-notes-")
        notes = example_notes(os.path.join(folder.name, "memories"), with_escape_link=True)
    options = [(f"{label}: {_visible(path)}", path) for label, path in ATTACK_PATHS]
    panel = _preset_text_panel("NotesPanel", options, ATTACK_PATHS[0][1], label="path", key="path",
                               css=("notes", "path"), render=lambda path: notes_path_view(path, notes).html(),
                               width="620px")
    panel.notes = notes
    panel._folder = folder  # keeps the temporary folder alive as long as the panel
    return panel


__all__ += ["PolicyView", "policy_view", "policy_panel", "NotesPathView", "notes_path_view", "notes_panel"]


# --------------------------------------------------------------------------- notebook 2: recall


@dataclass(frozen=True)
class RecallView:
    """What the recall panel shows: the ranked memories with the parts of each score, or why there are none."""

    query: str
    kinds: tuple[str, ...]
    w_recency: float
    w_importance: float
    rows: tuple[Any, ...]  # ScoredMemory, best first
    message: str = ""

    def html(self) -> str:
        """A table: rank, kind, memory, cosine, then each normalised part and the weighted score."""
        from .figures import KIND_COLOURS
        from .long_term import KIND_NAMES

        weights = (f"score = 1 &times; relevance + {self.w_recency:g} &times; recency + "
                   f"{self.w_importance:g} &times; importance")
        if self.w_recency == 0 and self.w_importance == 0:
            weights += " (both weights 0: plain cosine ranking, the same order as <code>recall()</code>)"
        head = (f"<p>Question: <code>{html.escape(self.query)}</code> &middot; kinds: "
                f"{html.escape(', '.join(self.kinds) or '(none)')}<br>{weights}</p>")
        if self.message:
            return f"<div class='pm-recall-view'>{head}<p><i>{html.escape(self.message)}</i></p></div>"
        body = "".join(
            f"<tr><td>{rank}</td>"
            f"<td style='color:{KIND_COLOURS[r.record.kind]}'><b>{r.record.kind}</b><br>"
            f"<small>{KIND_NAMES[r.record.kind]}</small></td>"
            f"<td>{html.escape(r.record.content)}</td><td>{r.cosine:.3f}</td><td>{r.relevance:.2f}</td>"
            f"<td>{r.recency:.2f}<br><small>{r.hours_since_access:g} h ago</small></td>"
            f"<td>{r.importance:.2f}<br><small>{r.record.importance}/10</small></td><td><b>{r.score:.2f}</b></td></tr>"
            for rank, r in enumerate(self.rows, start=1)
        )
        table = ("<table class='pm-recall-table'><tr><th>#</th><th>kind</th><th>memory</th><th>cosine</th>"
                 "<th>relevance</th><th>recency</th><th>importance</th><th>score</th></tr>"
                 f"{body}</table>")
        return f"<div class='pm-recall-view'>{head}{table}</div>"


def recall_view(memory: Any, scope: Any, query: str, kinds: tuple[str, ...] | list[str],
                w_recency: float = 0.0, w_importance: float = 0.0, k: int = 3) -> RecallView:
    """Rank the scope's memories for one question and one setting of the weights (relevance weight 1)."""
    kinds = tuple(kinds)

    def view(rows: tuple[Any, ...] = (), message: str = "") -> RecallView:
        return RecallView(query=query, kinds=kinds, w_recency=w_recency, w_importance=w_importance,
                          rows=rows, message=message)

    if not query.strip():
        return view(message="Type a question to recall memories.")
    if not kinds:
        return view(message="Tick at least one kind of memory to search.")
    rows = memory.recall_scored(scope, query, k=k, kinds=kinds, w_relevance=1.0,
                                w_recency=w_recency, w_importance=w_importance)
    if not rows:
        return view(message="No memory of these kinds in this scope.")
    if all(r.cosine == 0 for r in rows) and w_recency == 0 and w_importance == 0:
        return view(message="No memory shares a word with this question.")
    return view(tuple(rows))


def recall_panel(memory: Any = None, scope: Any = None, query: str = "what happened with Globex?", k: int = 3) -> Any:
    """A question box, kind checkboxes and recency/importance weights; shows the ranked memories and score parts."""
    import ipywidgets as w

    from .examples import alice_scope, alice_store
    from .long_term import KIND_NAMES, KINDS

    if memory is None:
        memory, scope = alice_store(), (alice_scope() if scope is None else scope)
    if scope is None:
        raise ValueError("recall_panel needs the scope to search when a memory store is given")
    box = w.Text(value=query, description="question", continuous_update=False,
                 style={"description_width": "80px"}, layout=w.Layout(width="520px"))
    box.add_class("pm-recall-query")
    checks = {kind: w.Checkbox(value=True, description=f"{kind} ({KIND_NAMES[kind]})", indent=False,
                               layout=w.Layout(width="220px")) for kind in KINDS}
    for kind, check in checks.items():
        check.add_class(f"pm-recall-kind-{kind}")
    kinds_row = w.HBox(list(checks.values()))
    kinds_row.add_class("pm-recall-kinds")
    style = {"description_width": "80px"}
    recency = w.FloatSlider(value=0.0, min=0.0, max=3.0, step=0.25, description="recency",
                            continuous_update=False, style=style, layout=w.Layout(width="420px"))
    importance = w.FloatSlider(value=0.0, min=0.0, max=3.0, step=0.25, description="importance",
                               continuous_update=False, style=style, layout=w.Layout(width="420px"))
    recency.add_class("pm-recall-recency")
    importance.add_class("pm-recall-importance")
    text = w.HTML()
    text.add_class("pm-recall-text")

    def redraw(_change: object = None) -> None:
        chosen = tuple(kind for kind, check in checks.items() if check.value)
        text.value = recall_view(memory, scope, box.value, chosen, recency.value, importance.value, k).html()

    for control in (box, recency, importance, *checks.values()):
        control.observe(redraw, names="value")
    redraw()
    panel = _panel_class()("RecallPanel", [box, kinds_row, recency, importance, text])
    panel.query = box
    panel.kinds = checks
    panel.sliders = {"recency": recency, "importance": importance}
    panel.text = text
    panel.memory = memory
    return panel


__all__ += ["RecallView", "recall_view", "recall_panel"]

__all__ += ["AttackView", "attack_view", "attack_panel"]
