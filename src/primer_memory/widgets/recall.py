"""Notebook 2: the recall panel."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ._common import _messages_html, _panel_class, _preset_text_panel  # noqa: F401


# --------------------------------------------------------------------------- notebook 2: recall

__all__ = ["RecallView", "recall_view", "recall_panel"]


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
        from ..figures import KIND_COLOURS
        from ..long_term import KIND_NAMES

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

    from ..examples import alice_scope, alice_store
    from ..long_term import KIND_NAMES, KINDS

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
