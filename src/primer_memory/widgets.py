"""Interactive panels for the notebooks.

Each panel is a thin ipywidgets shell around a pure function (`*_view`) that
takes plain values and returns what the panel shows, so tests drive the logic
without a browser. ipywidgets is imported inside the panel functions only.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from .examples import invoice_chat
from .short_term import Message, ShortTermMemory, estimate_tokens

__all__ = ["BudgetView", "budget_view", "budget_panel"]


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
