"""Figures for the notebooks. matplotlib is imported inside each function so the package imports fast."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from .examples import invoice_exchange
from ..short_term.memory import token_curve

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from collections.abc import Sequence

    from ..long_term.memory import LongTermMemory, Scope

__all__ = ["context_tokens", "figure_png"]


def figure_png(fig: "Figure") -> bytes:
    """Render a figure to PNG bytes (for an Image widget, or a notebook's output)."""
    import io

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()


@functools.cache
def _notebook_figure_class() -> type:
    """A matplotlib Figure that Jupyter shows as a PNG; built on first use so matplotlib loads lazily."""
    from matplotlib.figure import Figure

    class NotebookFigure(Figure):
        alt = ""
        """What the figure shows, in words: its alt text on slides and its plain-text output (screen readers)."""

        def _repr_png_(self) -> bytes:
            return figure_png(self)

        def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> tuple[dict, dict] | None:
            if not self.alt:
                return None  # Jupyter's usual PNG and repr
            import base64

            png = base64.b64encode(figure_png(self)).decode("ascii")
            return {"image/png": png, "text/plain": self.alt}, {"image/png": {"alt": self.alt}}

    return NotebookFigure


def _new_figure(width: float = 7.0, height: float = 3.6) -> "Figure":
    """A figure not owned by pyplot (nothing global, nothing shown twice) that Jupyter shows as a PNG."""
    return _notebook_figure_class()(figsize=(width, height), dpi=100, layout="constrained")


def context_tokens(turns: int = 40, budget: int = 300, keep_last: int = 6, *, mark_turn: int | None = None) -> "Figure":
    """Tokens sent per call, whole history vs managed, for the invoice chat.

    `mark_turn` highlights one turn (the widget uses it to show where the sliders are).
    """
    whole, managed = token_curve((invoice_exchange(i) for i in range(1, turns + 1)), budget, keep_last)
    x = list(range(1, turns + 1))
    fig = _new_figure()
    ax = fig.add_subplot()
    ax.plot(x, whole, color="#c0392b", marker=".", label="send the whole history")
    ax.plot(x, managed, color="#2471a3", marker=".", label=f"managed (keep_last={keep_last})")
    over = next((t for t, w in zip(x, whole) if w > budget), None)
    passed = f" (first passed at turn {over})" if over is not None else " (never passed)"
    ax.axhline(budget, color="#555555", linestyle="--", linewidth=1, label=f"budget = {budget} tokens{passed}")
    if over is not None:
        ax.axvline(over, color="#999999", linestyle=":", linewidth=1)
    if mark_turn is not None and 1 <= mark_turn <= turns:
        ax.plot([mark_turn], [managed[mark_turn - 1]], "o", color="#2471a3", markersize=10, fillstyle="none")
    ax.set_xlabel("turn (one question and one answer)")
    ax.set_ylabel("tokens sent on this call")
    ax.annotate(f"{whole[-1]:,}", (turns, whole[-1]), xytext=(-4, 6), textcoords="offset points",
                ha="right", fontsize=9, color="#c0392b")
    ax.annotate(f"{managed[-1]:,}", (turns, managed[-1]), xytext=(-4, -14), textcoords="offset points",
                ha="right", fontsize=9, color="#2471a3")
    ax.set_title("The whole history grows every turn; a budget keeps each call flat", fontsize=11)
    ax.set_ylim(0, max(max(whole), budget) * 1.08)
    ax.legend(loc="upper left", frameon=False)
    crossing = f", passing the {budget}-token budget at turn {over}" if over is not None else ", never above the budget"
    fig.alt = (f"Line chart of the tokens sent on each call over {turns} turns of the invoice chat. Sending the whole "
               f"history grows every turn, to {whole[-1]:,} tokens at turn {turns}{crossing}; managed memory "
               f"(keep_last={keep_last}) stays flat, at most {max(managed):,} tokens and {managed[-1]:,} at turn "
               f"{turns}.")
    return fig


def isolation_scores(store: "LongTermMemory", caller: "Scope", query: str, scopes: "list[Scope]") -> "Figure":
    """The query's similarity to every memory in the whole system, marking which ones the caller's search can see.

    Only this figure scores records outside the caller's partition: the real
    recall path never does. `scopes` lists every scope in the system.
    """
    import numpy as np

    records = [(scope, r) for scope in scopes for r in store.export(scope)]
    vectors = store.embedder.embed([r["content"] for _, r in records])
    scores = vectors @ store.embedder.embed([query])[0]
    order = np.argsort(-scores, kind="stable")
    fig = _new_figure(8.0, 0.45 * len(records) + 1.4)
    ax = fig.add_subplot()
    labels, colours, hatches = [], [], []
    for i in order:
        scope, record = records[i]
        inside = scope == caller
        text = record["content"] if len(record["content"]) <= 48 else record["content"][:46] + "…"
        labels.append(f"{scope}: {text}")
        colours.append("#2471a3" if inside else "#d5d8dc")
        hatches.append("" if inside else "//")
    bars = ax.barh(range(len(order)), [scores[i] for i in order], color=colours, edgecolor="#7f8c8d")
    for bar, hatch in zip(bars, hatches):
        bar.set_hatch(hatch)
    ax.bar_label(bars, fmt="%.3f", fontsize=7, padding=2)  # the numbers the prose quotes, on the bars
    ax.set_xlim(min(0.0, float(scores.min()) * 1.12), max(1.0, float(scores.max()) * 1.12))
    ax.set_yticks(range(len(order)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("cosine similarity to the query")
    ax.set_title(f"Every memory in the system vs. the query of {caller}", fontsize=10)
    from matplotlib.patches import Patch

    ax.legend(handles=[Patch(color="#2471a3", label=f"in {caller}'s partition: searched"),
                       Patch(facecolor="#d5d8dc", edgecolor="#7f8c8d", hatch="//",
                             label="other partitions: never scored by recall")],
              loc="lower right", fontsize=8, frameon=False)
    top = records[order[0]]
    own = [i for i in order if records[i][0] == caller]
    memories = f"{len(own)} memor{'y' if len(own) == 1 else 'ies'}"
    seen = (f"recall searches only {caller}'s partition, which holds {memories}; its best scores "
            f"{scores[own[0]]:.3f} ({records[own[0]][1]['content']!r})" if own else
            f"{caller}'s partition holds no memory, and recall searches no other")
    fig.alt = (f"Horizontal bar chart: the cosine similarity of the query {query!r} to each of the {len(records)} "
               f"memories in the whole system, highest first. The highest, {scores[order[0]]:.3f}, is {top[0]}'s "
               f"{top[1]['content']!r}; {seen}. Bars of other partitions are hatched: recall never scores them.")
    return fig


# --------------------------------------------------------------------------- notebook 2: recall by similarity

KIND_COLOURS = {"episodic": "#2471a3", "semantic": "#d68910", "procedural": "#229954"}
"""One colour per kind of memory (diary blue, encyclopedia amber, habit green), shared by figures and widgets."""


def _short(text: str, width: int = 44) -> str:
    return text if len(text) <= width else text[: width - 3].rstrip() + "..."


def recall_scores(
    memory: "LongTermMemory | None" = None,
    scope: "Scope | None" = None,
    questions: "Sequence[tuple[str, Sequence[str]]] | None" = None,
) -> "Figure":
    """For each question, one bar per memory of the scope (cosine similarity), coloured by kind.

    Kinds the question does not search are drawn faded and hatched; the recalled
    memory (the tallest searched bar) is outlined and labelled. Defaults: Alice's
    memories and the lesson's two questions.
    """
    from matplotlib.patches import Patch

    from .examples import RECALL_QUESTIONS, alice_scope, alice_store
    from ..long_term.memory import KIND_NAMES, KINDS

    if memory is None:
        memory = alice_store()
        scope = alice_scope() if scope is None else scope
    if scope is None:
        raise ValueError("recall_scores needs the scope whose memories to draw when a memory store is given")
    questions = list(RECALL_QUESTIONS if questions is None else questions)
    first = memory.similarities(scope, questions[0][0]) if questions else []
    records = [r for r, _ in first]
    fig = _new_figure(9.0, 1.0 + 0.42 * max(len(records), 1) * 1.0 + 0.3)
    axes = fig.subplots(1, len(questions), sharey=True, squeeze=False)[0]
    labels = [f"{i}. {_short(r.content)}" for i, r in enumerate(records, start=1)]
    y = list(range(len(records)))[::-1]
    said = []
    for ax, (question, kinds) in zip(axes, questions):
        scores = dict((r.id, s) for r, s in memory.similarities(scope, question))
        recalled = memory.recall(scope, question, k=1, kinds=tuple(kinds))
        best = recalled[0].id if recalled else None
        said.append(f"For {question!r} (kinds {', '.join(kinds)}) recall returns "
                    + (f"{recalled[0].content!r}, {scores[best]:.3f}" if recalled else "nothing"))
        for yi, record in zip(y, records):
            searched = record.kind in kinds
            value = scores.get(record.id, 0.0)
            ax.barh(yi, value, color=KIND_COLOURS[record.kind], alpha=1.0 if searched else 0.25,
                    hatch=None if searched else "//", edgecolor="#1b2631" if record.id == best else "none",
                    linewidth=2 if record.id == best else 0)
            if record.id == best:
                ax.annotate("recalled", (value, yi), xytext=(4, -3), textcoords="offset points", fontsize=9,
                            fontweight="bold", color="#1b2631")
        filt = "" if tuple(kinds) == tuple(KINDS) else f"\nkinds={tuple(kinds)}"
        ax.set_title(f"\u201c{question}\u201d{filt}", fontsize=10)
        ax.set_xlabel("cosine similarity to the question")
        ax.set_xlim(0, max([*scores.values(), 0.1]) * 1.35)
    axes[0].set_yticks(y, labels, fontsize=8)
    handles = [Patch(color=KIND_COLOURS[k], label=f"{k} ({KIND_NAMES[k]})") for k in KINDS]
    handles.append(Patch(facecolor="#cccccc", hatch="//", edgecolor="#888888", label="kind not searched"))
    fig.legend(handles=handles, loc="outside lower center", ncols=4, fontsize=8, frameon=False)
    fig.alt = (f"Bar charts, one per question: the cosine similarity of each of the scope's {len(records)} memories to "
               f"the question, coloured by kind, kinds the question does not search hatched. "
               + ". ".join(said) + ".")
    return fig


__all__ += ["KIND_COLOURS", "recall_scores"]


def embedder_comparison(rows: "dict[str, list[tuple[str, int, int, float, float]]]") -> "Figure":
    """Per question and embedder, how far the right memory's cosine is above (or below) the best wrong one.

    `rows` maps an embedder's label to `paraphrases.recall_at_1(...)` rows for the
    same questions. A bar right of zero means that embedder recalled the right memory.
    """
    names = list(rows)
    questions = [q for q, *_ in rows[names[0]]]
    colours = ["#909497", "#2471a3", "#229954", "#d68910"]
    fig = _new_figure(9.0, 0.9 + 0.36 * len(questions) * max(len(names), 1) / 1.6)
    ax = fig.add_subplot()
    height = 0.8 / max(len(names), 1)
    for j, name in enumerate(names):
        margins = [target_cos - other for _, _, _, target_cos, other in rows[name]]
        ys = [len(questions) - 1 - i + (len(names) / 2 - j - 0.5) * height for i in range(len(questions))]
        hits = sum(recalled == target for _, target, recalled, _, _ in rows[name])
        ax.barh(ys, margins, height=height * 0.95, color=colours[j % len(colours)],
                label=f"{name}: {hits} of {len(questions)} recalled first")
    ax.axvline(0, color="#1b2631", linewidth=1)
    ax.set_yticks(range(len(questions))[::-1], [_short(q, 52) for q in questions], fontsize=8)
    ax.set_xlabel("cosine of the right memory minus the best wrong one (> 0: recalled first)")
    ax.set_title("Paraphrased questions about Alice's memories: spelling vs meaning", fontsize=11)
    fig.legend(loc="outside lower center", ncols=len(names), fontsize=8, frameon=False)
    counts = ", ".join(f"{name} recalls {sum(r == t for _, t, r, _, _ in rows[name])} of {len(questions)} first"
                       for name in names)
    fig.alt = (f"Bar chart of {len(questions)} paraphrased questions: for each embedder, the right memory's cosine "
               f"minus the best wrong one's, where right of zero means the right memory is recalled first: {counts}.")
    return fig


__all__ += ["embedder_comparison"]
