"""Notebook 3: the attack panel, the write-policy panel and the notes path box."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ._common import _messages_html, _panel_class, _preset_text_panel, shown, visible  # noqa: F401


# --------------------------------------------------------------------------- notebook 3: inject an adversarial query

__all__ = ["AttackView", "attack_view", "attack_panel", "PolicyView", "policy_view", "policy_panel", "NotesPathView", "notes_path_view", "notes_panel"]


@dataclass(frozen=True)
class AttackView:
    """What each design returns to one caller for one query, and whether anything leaked."""

    caller: str
    query: str
    naive: list[tuple[str, str]]  # (owner scope, content) from the global index
    partitioned: list[tuple[str, str]]  # (owner scope, content) from LongTermMemory
    refused: str = ""  # why LongTermMemory refused the query (an empty query), else ""

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
                f"{'LEAK from ' + shown(owner) + ': ' if owner != self.caller else ''}{shown(text)}</li>"
                for owner, text in rows
            ) or "<li><i>(nothing)</i></li>"
            return f"<div style='flex:1;min-width:280px'><b>{title}</b><ul>{items}</ul></div>"

        return (f"<div class='pm-attack-view'><p>Caller <code>{shown(self.caller)}</code> asks: "
                f"<code>{shown(self.query)}</code></p><div style='display:flex;gap:16px'>"
                f"{column('GlobalIndexStore (the wrong design)', self.naive)}"
                f"{column('LongTermMemory (partitioned)', self.partitioned)}</div>"
                f"<p>{self._verdicts_html()}</p></div>")

    def _verdicts_html(self) -> str:
        first, second = self.messages()  # the first carries its own markup; the second is plain text
        return f"{first} {shown(second, quote=False)}"

    def messages(self) -> list[str]:
        """The verdict sentences under the columns; each is true of the rows above it (tested over a grid)."""
        n = len(self.naive_leaks)
        if n:
            first = (f"<b style='color:#c0392b'>The global index leaked {n} record{'s' if n != 1 else ''} "
                     f"of other tenants.</b>")
        elif self.naive:
            first = (f"The global index leaked nothing this time: its {len(self.naive)} "
                     f"record{'s are' if len(self.naive) != 1 else ' is'} the caller's own.")
        else:
            first = "The global index leaked nothing this time: it returned nothing."
        if self.refused:
            second = f"LongTermMemory refused the query and searched nothing: {self.refused}"
        elif self.partitioned_leaks:
            second = "The partitioned store leaked: this is a bug."
        elif not self.partitioned:
            second = "The partitioned store returned no records."
        else:
            second = f"The partitioned store returned only the caller's own records: {len(self.partitioned)} of them."
        return [first, second]


def attack_view(partitioned: Any, naive: Any, caller: Any, query: str, k: int = 3) -> AttackView:
    """Send one query, as one caller, to both designs; a query LongTermMemory refuses is reported, not raised."""
    from ...long_term.memory import InvalidQuery

    naive_rows = [(f"{h.tenant_id}/{h.user_id}", h.content) for h in naive.recall(caller, query, k=k)]
    try:
        rows = [(str(r.scope), r.content) for r in partitioned.recall(caller, query, k=k)]
    except InvalidQuery as error:
        return AttackView(str(caller), query, naive_rows, [], refused=str(error))
    return AttackView(str(caller), query, naive_rows, rows)


def attack_panel(partitioned: Any = None, naive: Any = None) -> Any:
    """Pick a preset attack or type your own query; see what each design returns, leaks in red."""
    import ipywidgets as w

    from ..examples import ADVERSARIAL_QUERIES, SAFETY_MEMORIES, safety_world
    from ...long_term.memory import Scope

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
        try:
            text.value = attack_view(partitioned, naive, Scope(tenant_id, user_id), query.value).html()
        except Exception as error:  # a callback must never raise into the front end, nor leave a stale result
            reason = f"{shown(type(error).__name__)}: {shown(str(error))}"
            text.value = (f"<div class='pm-attack-view'><p><b>Could not run this query</b> ({reason}); "
                          f"nothing is shown.</p></div>")

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

# --------------------------------------------------------------------------- notebook 3: the write policy and the notes path box

_VERDICT_COLOURS = {"store": "#1e8449", "skip": "#7f8c8d", "refuse": "#c0392b"}


def _visible(text: str) -> str:
    """A path as the notes panel shows it: invisible and look-alike characters as escapes (a NUL, a fullwidth dot)."""
    return visible(text, lookalikes=True)


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
        detector = f" by <code>{shown(self.detector)}</code>" if self.detector else ""
        masked = (f"<p>The text with the finding masked: <code>{shown(self.redacted)}</code></p>"
                  if self.verdict == "refuse" else "")
        return (f"<div class='pm-policy-view'><p><b style='color:{colour}'>{self.verdict.upper()}</b>{detector}</p>"
                f"<p>{shown(self.reason)}</p>{masked}</div>")


def policy_view(text: str) -> PolicyView:
    """Run the write policy on one sentence (the sentence itself is kept only in redacted form)."""
    from ...policy.rules import redact, review

    if not text.strip():  # review() calls it small talk; the panel should say there is nothing to judge yet
        return PolicyView("", "skip", "Nothing to judge yet: type a sentence, or pick a preset.", None)
    decision = review(text)
    return PolicyView(redact(text), decision.verdict, decision.reason, decision.detector)


def policy_panel(text: str = "my VPN password is hunter2") -> Any:
    """Type a sentence or pick a preset; see whether memory would store, skip or refuse it, and why."""
    from ...policy.rules import POLICY_EXAMPLES

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
        path = f"<code>{shown(self.path, lookalikes=True)}</code>"
        if self.kind == "refused":
            head = f"<b style='color:#c0392b'>REFUSED</b> {path}: <b>{shown(self.error)}</b>"
            body = f"<p>{shown(self.text)}</p>"
        elif self.kind == "missing":
            head = f"<b style='color:#1e8449'>ACCEPTED</b> {path} (a safe path, but {shown(self.error)})"
            body = f"<p>{shown(self.text)}</p>"
        else:
            head = f"<b style='color:#1e8449'>ACCEPTED</b> {path} ({self.kind})"
            body = f"<pre>{shown(self.text, lines=True)}</pre>"
        return f"<div class='pm-notes-view'><p>{head}</p>{body}</div>"


def notes_path_view(path: str, notes: Any) -> NotesPathView:
    """Ask `notes` (a MemoryNotes) to view `path` and report what came back, or why it was refused."""
    import os

    from ...notes.tool import NoteNotFound, NotesError

    try:
        listing = notes.view(path)
    except NoteNotFound as error:
        return NotesPathView(path, "missing", str(error), type(error).__name__)
    except NotesError as error:
        return NotesPathView(path, "refused", str(error), type(error).__name__)
    kind = "folder" if os.path.isdir(notes.locate(path)) else "note"
    return NotesPathView(path, kind, listing)


def notes_panel(notes: Any = None) -> Any:
    """A path box for the notes tool with preset escapes; shows the listing or note, or the refusal."""
    import os

    from ...notes.tool import ATTACK_PATHS, example_notes
    from ..scratch import scratch_folder

    folder = None
    if notes is None:
        folder = scratch_folder("pm-notes")
        notes = example_notes(os.path.join(folder, "memories"), with_escape_link=True)
    options = [(f"{label}: {_visible(path)}", path) for label, path in ATTACK_PATHS]
    panel = _preset_text_panel("NotesPanel", options, ATTACK_PATHS[0][1], label="path", key="path",
                               css=("notes", "path"), render=lambda path: notes_path_view(path, notes).html(),
                               width="620px")
    panel.notes = notes
    panel._folder = folder  # removed at exit, or by the next panel if this kernel is killed
    return panel
