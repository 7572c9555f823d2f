"""Notebook 2: the recall panel (question, kinds, embedder, relevance floor, recency and importance weights)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ._common import _panel_class, shown

__all__ = ["RecallView", "recall_view", "recall_panel"]


@dataclass(frozen=True)
class RecallView:
    """What the recall panel shows: the ranked memories with the parts of each score, notes, or why there are none."""

    query: str
    kinds: tuple[str, ...]
    w_recency: float
    w_importance: float
    rows: tuple[Any, ...]  # ScoredMemory, best first
    message: str = ""
    notes: tuple[str, ...] = ()
    min_score: float = 0.0
    embedder: str = ""

    def html(self) -> str:
        """A table: rank, kind, memory, cosine, then each normalised part and the weighted score."""
        from ..figures import KIND_COLOURS
        from ...long_term.memory import KIND_NAMES

        weights = (f"score = 1 &times; relevance + {self.w_recency:g} &times; recency + "
                   f"{self.w_importance:g} &times; importance")
        if self.w_recency == 0 and self.w_importance == 0:
            weights += " (both weights 0: plain cosine ranking, the same order as <code>recall()</code>)"
        floor = f" &middot; min_score {self.min_score:.2f}" if self.min_score > 0 else ""
        where = f" &middot; embedder: {shown(self.embedder)}" if self.embedder else ""
        head = (f"<p>Question: <code>{shown(self.query)}</code> &middot; kinds: "
                f"{shown(', '.join(self.kinds) or '(none)')}{where}{floor}<br>{weights}</p>")
        notes = "".join(f"<p class='pm-recall-note'><i>{shown(n)}</i></p>" for n in self.notes)
        if self.message:
            return f"<div class='pm-recall-view'>{head}<p><i>{shown(self.message)}</i></p>{notes}</div>"
        body = "".join(
            f"<tr><td>{rank}</td>"
            f"<td style='color:{KIND_COLOURS[r.record.kind]}'><b>{r.record.kind}</b><br>"
            f"<small>{KIND_NAMES[r.record.kind]}</small></td>"
            f"<td>{shown(r.record.content)}</td><td>{r.cosine:.3f}</td><td>{r.relevance:.2f}</td>"
            f"<td>{r.recency:.2f}<br><small>{r.hours_since_access:g} h ago</small></td>"
            f"<td>{r.importance:.2f}<br><small>{r.record.importance}/10</small></td><td><b>{r.score:.2f}</b></td></tr>"
            for rank, r in enumerate(self.rows, start=1)
        )
        table = ("<table class='pm-recall-table'><tr><th>#</th><th>kind</th><th>memory</th><th>cosine</th>"
                 "<th>relevance</th><th>recency</th><th>importance</th><th>score</th></tr>"
                 f"{body}</table>")
        return f"<div class='pm-recall-view'>{head}{notes}{table}</div>"


def recall_view(memory: Any, scope: Any, query: str, kinds: tuple[str, ...] | list[str],
                w_recency: float = 0.0, w_importance: float = 0.0, k: int = 3, min_score: float = 0.0,
                embedder: str = "") -> RecallView:
    """Rank the scope's memories for one question and one setting of the weights (relevance weight 1).

    Every sentence it adds is computed from the same numbers the table shows, so it
    holds for every input: when nothing shares anything with the question, when the
    floor lets nothing through, and what min-max scaling did to recency and importance.
    """
    from ...long_term.memory import RECENCY_DECAY

    kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)  # "procedural" is one kind, not ten letters

    def view(rows: tuple[Any, ...] = (), message: str = "", notes: tuple[str, ...] = ()) -> RecallView:
        return RecallView(query=query, kinds=kinds, w_recency=w_recency, w_importance=w_importance, rows=rows,
                          message=message, notes=notes, min_score=min_score, embedder=embedder)

    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        what = ("k=0 asks for no memories at all" if k == 0 and not isinstance(k, bool)
                else f"k={k!r} is not a number of memories")
        return view(message=f"Refused: {what}. k is how many memories to show, a whole number of at least 1 "
                            "(recall() refuses the same k).")
    if isinstance(min_score, bool) or not isinstance(min_score, (int, float)) or not -1 <= min_score <= 1:
        return view(message=f"Refused: min_score={min_score!r} is not a cosine. A floor is a number from -1 to 1 "
                            "(0 for none); recall() refuses this one with InvalidQuery.")
    if not query.strip():
        return view(message="Type a question to recall memories.")
    if not kinds:
        return view(message="Tick at least one kind of memory to search.")
    pairs = memory.similarities(scope, query, kinds)
    if not pairs:
        return view(message="No memory of these kinds in this scope.")
    best = max(s for _, s in pairs)
    floor = min_score if min_score > 0 else None
    if floor is not None and best < floor:
        return view(message=f"Nothing is relevant enough: the best cosine is {best:.3f}, below min_score "
                            f"{min_score:.2f}, so recall(..., min_score={min_score:g}) returns nothing.")
    ranked = memory.recall_scored(scope, query, k=len(pairs), kinds=kinds, w_relevance=1.0, w_recency=w_recency,
                                  w_importance=w_importance, min_score=floor)  # every candidate, best first
    rows = ranked[:k]
    notes: list[str] = []
    if best == 0:
        why = ("the order comes from recency and importance alone" if w_recency or w_importance
               else "every score ties, so the newest memories come first")
        notes.append(f"No memory shares anything with this question: every cosine is 0.000 and {why}. "
                     "Raise min_score above 0 to recall nothing instead.")
    raw = {"relevance": [r.cosine for r in ranked],
           "recency": [RECENCY_DECAY ** r.hours_since_access for r in ranked],
           "importance": [float(r.record.importance) for r in ranked]}
    flat = [name for name, values in raw.items() if max(values) == min(values) and not (name == "relevance"
                                                                                      and best == 0)]
    if len(ranked) == 1:
        notes.append("Only one memory is a candidate, so rescaling to 0..1 has nothing to compare it with: its "
                     "relevance, recency and importance each show 1.00 (0 for a part whose raw value is 0), "
                     "whatever its cosine, age or rating.")
    else:
        for name in flat:
            value = raw[name][0]
            notes.append(f"All {len(ranked)} candidates have the same raw {name} ({value:.3g}), so rescaling to "
                         f"0..1 has no range to stretch: each shows {1.0 if value > 0 else 0.0:.2f}, and {name} adds "
                         "the same to every score, so it cannot change the order.")
    weighted = [name for name, w in (("recency", w_recency), ("importance", w_importance)) if w and name not in flat]
    if weighted and len(ranked) > 1:
        spans = ", ".join(f"{name} from {min(raw[name]):.3g} to {max(raw[name]):.3g}" for name in weighted)
        notes.append(f"Each part is rescaled to 0..1 over the {len(ranked)} candidates (min-max): the lowest "
                     f"raw value becomes 0 and the highest 1, however close they are (raw {spans}).")
    return view(tuple(rows), notes=tuple(notes))


def recall_panel(memory: Any = None, scope: Any = None, query: str = "what happened with Globex?", k: int = 3) -> Any:
    """Question box, kind checkboxes, embedder switch, relevance floor and weights; shows the ranked memories.

    With no store given, Alice's memories are held twice, once per embedder
    (hashing and semantic), so the switch compares them on the same records.
    """
    import ipywidgets as w

    from ..examples import alice_scope, alice_store
    from ...long_term.memory import KIND_NAMES, KINDS

    if memory is None:
        from ...long_term.semantic import SemanticEmbedder

        scope = alice_scope() if scope is None else scope
        stores = {"hashing": alice_store(), "semantic": alice_store(embedder=SemanticEmbedder())}
    elif scope is None:
        raise ValueError("recall_panel needs the scope to search when a memory store is given")
    else:
        stores = {memory.embedder.name.split("(")[0]: memory}
    box = w.Text(value=query, description="question", continuous_update=False,
                 style={"description_width": "80px"}, layout=w.Layout(width="520px"))
    box.add_class("pm-recall-query")
    switch = w.ToggleButtons(options=list(stores), value=next(iter(stores)), description="embedder",
                             style={"description_width": "80px", "button_width": "100px"})
    switch.add_class("pm-recall-embedder")
    checks = {kind: w.Checkbox(value=True, description=f"{kind} ({KIND_NAMES[kind]})", indent=False,
                               layout=w.Layout(width="220px")) for kind in KINDS}
    for kind, check in checks.items():
        check.add_class(f"pm-recall-kind-{kind}")
    kinds_row = w.HBox(list(checks.values()))
    kinds_row.add_class("pm-recall-kinds")
    style = {"description_width": "80px"}

    def slider(name: str, maximum: float, step: float) -> Any:
        control = w.FloatSlider(value=0.0, min=0.0, max=maximum, step=step, description=name,
                                continuous_update=False, style=style, layout=w.Layout(width="420px"))
        control.add_class(f"pm-recall-{name.replace('_', '-')}")
        return control

    floor, recency, importance = slider("min_score", 0.5, 0.05), slider("recency", 3.0, 0.25), \
        slider("importance", 3.0, 0.25)
    text = w.HTML()
    text.add_class("pm-recall-text")

    def redraw(_change: object = None) -> None:
        chosen = tuple(kind for kind, check in checks.items() if check.value)
        text.value = recall_view(stores[switch.value], scope, box.value, chosen, recency.value, importance.value,
                                 k, min_score=floor.value, embedder=switch.value).html()

    for control in (box, switch, floor, recency, importance, *checks.values()):
        control.observe(redraw, names="value")
    redraw()
    panel = _panel_class()("RecallPanel", [box, switch, kinds_row, floor, recency, importance, text])
    panel.query = box
    panel.embedder = switch
    panel.kinds = checks
    panel.sliders = {"min_score": floor, "recency": recency, "importance": importance}
    panel.text = text
    panel.stores = stores
    panel.memory = stores[switch.value]
    return panel
