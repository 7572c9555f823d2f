"""Notebook 1: the budget panel (short-term memory under a token budget).

`budget_view` is the panel's logic as a pure function; every sentence it
writes is derived from what `ShortTermMemory.window()` reports, so each one is
true at every slider position (tests walk the whole slider grid).
"""

from __future__ import annotations

import functools
import html
from dataclasses import dataclass
from typing import Any

from ._common import _messages_html, _panel_class
from ..examples import invoice_chat
from ..short_term import SUMMARY_PREFIX, TRUNCATION_MARKER, Message, ShortTermMemory, estimate_tokens, first_sentences, token_curve

__all__ = ["BudgetView", "budget_view", "budget_panel", "budget_curves"]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


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
    dropped_exchanges: int  # exchanges with every message gone (neither summarized nor sent)
    total_messages: int = 0
    summarized: int = 0  # older messages folded into the summary
    dropped: int = 0  # oldest messages gone entirely
    truncated: bool = False  # the newest message was cut to fit
    room: int = 0  # tokens the recent messages leave for the summary
    newest_older_piece_tokens: int = 0  # what a summary of only the newest older message would cost

    @property
    def over_budget(self) -> bool:
        return self.history_tokens > self.budget

    @property
    def older(self) -> int:
        """Messages older than the ones sent word for word."""
        return self.total_messages - len(self.messages)

    @property
    def marker_only(self) -> bool:
        """The newest message was cut so far that none of its text is left, only (part of) the marker."""
        return self.truncated and not self.messages[0]["content"].endswith(TRUNCATION_MARKER)

    def gone_text(self) -> str:
        """Which messages are gone entirely, in exchanges (a question and its answer)."""
        if self.dropped == 0:
            return "Nothing is gone entirely: every message is sent word for word or folded into the summary."
        whole, half = divmod(self.dropped, 2)
        parts = []
        if whole:
            parts.append({1: "exchange 1", 2: "exchanges 1 and 2"}.get(whole, f"exchanges 1 to {whole}"))
        if half:
            if self.dropped == self.total_messages - 1 and self.marker_only:
                parts.append(f"question {whole + 1}, and its answer is cut down to the marker alone")
            else:
                parts.append(f"question {whole + 1} (but not its answer)")
        return (f"Gone entirely: {_plural(self.dropped, 'message')} of {self.total_messages}, the oldest "
                f"({' and '.join(parts)}). Exchanges gone entirely: {self.dropped_exchanges}.")

    def summary_text(self) -> str:
        """The summary, or why there is none."""
        if self.summary:
            return (f"<b>Summary</b> ({estimate_tokens(self.summary)} tokens, in the {self.room} tokens the recent "
                    f"messages leave; {_plural(self.summarized, 'older message')} folded): "
                    f"{html.escape(self.summary)}")
        if not self.over_budget:
            return "<b>Summary</b>: <i>(no summary: everything fits)</i>"
        if self.older == 0:
            return "<b>Summary</b>: <i>(no summary: there is no older message to fold)</i>"
        return (f"<b>Summary</b>: <i>(no summary: the recent messages leave {self.room} tokens, and a summary of "
                f"even the newest older message would cost {self.newest_older_piece_tokens}, so all "
                f"{_plural(self.older, 'older message')} are gone)</i>")

    def verbatim_text(self) -> str:
        """How many recent messages go word for word, and why fewer than keep_last when that happens."""
        n = len(self.messages)
        if not self.over_budget:
            return f"Sent word for word: all {_plural(n, 'message')}."
        if self.marker_only:
            return (f"Sent word for word: nothing. The newest message alone is over the budget, and the budget is "
                    f"too small for any of its text: only {html.escape(repr(self.messages[0]['content']))} is sent.")
        if self.truncated:
            return (f"Sent word for word: none in full. The newest message alone is over the budget, so it is cut "
                    f"to fit, marked <i>[...truncated to fit the budget]</i>.")
        text = f"Sent word for word: the last {_plural(n, 'message')} (keep_last is {self.keep_last})"
        if n < min(self.keep_last, self.total_messages):
            text += f"; the {_plural(min(self.keep_last, self.total_messages) - n, 'older one')} would break the budget"
        return text + "."

    def html(self) -> str:
        """The panel's text part: counts, the summary and the messages sent."""
        return (
            f"<div class='pm-budget-view'>"
            f"<p><b>{self.tokens_sent}</b> tokens sent of a budget of {self.budget} "
            f"(the whole history would be {self.history_tokens}). {self.gone_text()}</p>"
            f"<p>{self.summary_text()}</p><p>{self.verbatim_text()}</p>"
            f"{_messages_html(self.messages)}</div>"
        )


def budget_view(budget: int, keep_last: int, turns: int) -> BudgetView:
    """Run the invoice chat for `turns` exchanges under the given budget and report what is sent."""
    memory = ShortTermMemory(budget, keep_last)
    memory.extend(invoice_chat(turns))
    window = memory.window()
    everything = memory.messages
    older = everything[: len(everything) - len(window.messages)]
    recent_cost = sum(estimate_tokens(m["content"]) for m in window.messages)
    newest_piece = estimate_tokens(SUMMARY_PREFIX + first_sentences(older[-1:])) if older else 0
    return BudgetView(
        budget=budget,
        keep_last=keep_last,
        turns=turns,
        summary=window.summary,
        messages=window.messages,
        tokens_sent=window.tokens,
        history_tokens=memory.tokens(),
        dropped_exchanges=window.dropped // 2,  # each exchange is two messages, dropped oldest first
        total_messages=len(everything),
        summarized=window.summarized,
        dropped=window.dropped,
        truncated=window.truncated,
        room=budget - recent_cost,
        newest_older_piece_tokens=newest_piece,
    )


@functools.lru_cache(maxsize=256)
def budget_curves(max_turns: int, budget: int, keep_last: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Tokens sent per turn for the invoice chat (whole history, managed), cached per slider position."""
    whole, managed = token_curve((invoice_chat(t)[-2:] for t in range(1, max_turns + 1)), budget, keep_last)
    return tuple(whole), tuple(managed)


def budget_panel(budget: int = 110, keep_last: int = 4, turns: int = 6, *, max_turns: int = 40) -> Any:
    """Sliders for the budget, keep_last and the number of turns; redraws the chart and the context."""
    import ipywidgets as w

    from .budget_chart import budget_chart_svg

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
    chart = w.HTML(layout=w.Layout(width="660px"))
    chart.add_class("pm-budget-chart")
    text = w.HTML()
    text.add_class("pm-budget-text")

    def redraw(_change: object = None) -> None:
        b, k, t = budget_slider.value, keep_slider.value, turns_slider.value
        text.value = budget_view(b, k, t).html()
        whole, managed = budget_curves(max_turns, b, k)
        chart.value = budget_chart_svg(whole, managed, b, mark_turn=t, keep_last=k)

    for slider in (budget_slider, keep_slider, turns_slider):
        slider.observe(redraw, names="value")
    redraw()
    panel = _panel_class()("BudgetPanel", [w.HBox([w.VBox([budget_slider, keep_slider, turns_slider])]), chart, text])
    panel.sliders = {"budget": budget_slider, "keep_last": keep_slider, "turns": turns_slider}
    panel.text = text
    panel.chart = chart
    return panel
