"""Notebook 1: the budget panel (short-term memory under a token budget)."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ._common import _messages_html, _panel_class, _preset_text_panel  # noqa: F401
from ..examples import invoice_chat
from ..short_term import Message, ShortTermMemory, estimate_tokens

__all__ = ["BudgetView", "budget_view", "budget_panel"]


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

    from ..figures import context_tokens, figure_png

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
