"""Notebook 1: the budget panel (short-term memory under a token budget).

`budget_view` is the panel's logic as a pure function; every sentence it
writes is derived from what `ShortTermMemory.window()` reports, so each one is
true at every slider position (tests walk the whole slider grid).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from ._common import _panel_class, shown
from ...short_term.chat import message_tokens, unit_starts
from ..examples import invoice_chat, tool_chat
from ...short_term.memory import SUMMARY_PREFIX, TRUNCATION_MARKER, Message, ShortTermMemory, estimate_tokens, first_sentences, token_curve

__all__ = ["CONVERSATIONS", "BudgetView", "BudgetViewError", "budget_view", "budget_panel", "budget_curves"]


CONVERSATIONS: dict[str, str] = {
    "invoices": "invoice chat (the worked example): a question and an answer per turn",
    "tools": "tool-heavy conversation: a question, two tool calls, their results and an answer per turn",
}
"""The panel's presets: which conversation runs under the sliders."""
PER_TURN = {"invoices": 2, "tools": 5}


class BudgetViewError(ValueError):
    """A setting the budget panel cannot show; the message says which and what is allowed."""


def _check_settings(budget: object, keep_last: object, turns: object, conversation: object) -> None:
    """Refuse what no slider position means, by name, instead of showing a view of nothing or a clamped one."""
    for name, value in (("budget", budget), ("keep_last", keep_last), ("turns", turns)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise BudgetViewError(f"{name} must be a whole number of at least 1, got {value!r}")
    if conversation not in CONVERSATIONS:
        raise BudgetViewError(f"conversation must be one of {', '.join(map(repr, CONVERSATIONS))}, "
                              f"got {conversation!r}")


def _conversation(name: str, turns: int) -> list[Any]:
    if name not in CONVERSATIONS:
        raise ValueError(f"conversation must be one of {sorted(CONVERSATIONS)}, got {name!r}")
    return invoice_chat(turns) if name == "invoices" else tool_chat(turns)


def _messages_table(messages: list[Message]) -> str:
    """The messages sent, one row each; a tool call shows what it calls, a result which call it answers."""
    rows = []
    for m in messages:
        text = shown(m["content"])
        if m.get("tool_calls"):
            calls = ", ".join(f"{c['function']['name']}({c['function']['arguments']})" for c in m["tool_calls"])
            text = (text + " " if text else "") + f"<i>calls {shown(calls)}</i>"
        if m.get("tool_call_id"):
            text = f"<i>result of {shown(m['tool_call_id'])}:</i> {text}"
        rows.append(f"<tr><td><b>{shown(m['role'])}</b></td><td>{message_tokens(m)}</td><td>{text}</td></tr>")
    return ("<table class='pm-messages'><tr><th>role</th><th>tokens</th><th>text</th></tr>"
            + "".join(rows) + "</table>")


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
    newest_older_piece_tokens: int = 0  # what a summary of only the newest older unit would cost
    conversation: str = "invoices"
    next_unit_tokens: int = 0  # what the newest unit not sent word for word costs (0 if none)

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
        """Which messages are gone entirely: whole exchanges (or turns), and part of the next one."""
        if self.dropped == 0:
            return "Nothing is gone entirely: every message is sent word for word or folded into the summary."
        per = PER_TURN[self.conversation]
        whole, part = divmod(self.dropped, per)
        word = "exchange" if self.conversation == "invoices" else "turn"
        parts = []
        if whole:
            parts.append({1: f"{word} 1", 2: f"{word}s 1 and 2"}.get(whole, f"{word}s 1 to {whole}"))
        if part and self.conversation == "invoices":
            if self.dropped == self.total_messages - 1 and self.marker_only:
                parts.append(f"question {whole + 1}, and its answer is cut down to the marker alone")
            else:
                parts.append(f"question {whole + 1} (but not its answer)")
        elif part:
            parts.append(f"{part} of the {per} messages of turn {whole + 1}")
        label = "Exchanges" if self.conversation == "invoices" else "Turns"
        return (f"Gone entirely: {_plural(self.dropped, 'message')} of {self.total_messages}, the oldest "
                f"({' and '.join(parts)}). {label} gone entirely: {self.dropped_exchanges}.")

    def summary_text(self) -> str:
        """The summary, or why there is none."""
        if self.summary:
            return (f"<b>Summary</b> ({_plural(estimate_tokens(self.summary), 'token')}, in the "
                    f"{_plural(self.room, 'token')} the recent messages leave; "
                    f"{_plural(self.summarized, 'older message')} folded): "
                    f"{shown(self.summary)}")
        if not self.over_budget:
            return "<b>Summary</b>: <i>(no summary: everything fits)</i>"
        if self.older == 0:
            return "<b>Summary</b>: <i>(no summary: there is no older message to fold)</i>"
        gone = ("the 1 older message is gone" if self.older == 1
                else f"all {self.older} older messages are gone")
        return (f"<b>Summary</b>: <i>(no summary: the recent messages leave {_plural(self.room, 'token')}, and a "
                f"summary of even the newest older {'message' if self.conversation == 'invoices' else 'unit'} would "
                f"cost {_plural(self.newest_older_piece_tokens, 'token')}, so {gone})</i>")

    def verbatim_text(self) -> str:
        """How many recent messages go word for word, and why not exactly keep_last when that happens."""
        n = len(self.messages)
        if not self.over_budget:
            return "Sent word for word: the 1 message." if n == 1 else f"Sent word for word: all {n} messages."
        if self.marker_only:
            return (f"Sent word for word: nothing. The newest message alone is over the budget, and the budget is "
                    f"too small for any of its text: only {shown(repr(self.messages[0]['content']))} is sent.")
        if self.truncated and n == 1:
            return (f"Sent word for word: none in full. The newest message alone is over the budget, so it is cut "
                    f"to fit, marked <i>[...truncated to fit the budget]</i>.")
        if self.truncated:
            results = "its 1 result" if n - 1 == 1 else f"all {n - 1} of its results"
            return (f"Sent word for word: the newest tool call with {results}, which together are "
                    f"over the budget, so the results are cut to fit, marked <i>[...truncated to fit the "
                    f"budget]</i>; a call is never sent without its results.")
        if n == 0:
            return ("Sent word for word: nothing. The newest tool call alone is over the budget, and a call cannot "
                    "be sent without its results, so it is folded into the summary.")
        last = "the newest message" if n == 1 else f"the last {n} messages"
        text = f"Sent word for word: {last} (keep_last is {self.keep_last}"
        if n > self.keep_last:
            text += ", rounded up so that a tool call keeps all its results"
        text += ")"
        if self.next_unit_tokens and n < min(self.keep_last, self.total_messages):
            text += (f"; the next older {'message' if self.conversation == 'invoices' else 'unit'} "
                     f"({_plural(self.next_unit_tokens, 'token')}) would break the budget")
        return text + "."

    def html(self) -> str:
        """The panel's text part: counts, the summary and the messages sent."""
        return (
            f"<div class='pm-budget-view'>"
            f"<p><b>{self.tokens_sent}</b> {'token' if self.tokens_sent == 1 else 'tokens'} sent of a budget of "
            f"{self.budget} (the whole history would be {self.history_tokens}). {self.gone_text()}</p>"
            f"<p>{self.summary_text()}</p><p>{self.verbatim_text()}</p>"
            f"{_messages_table(self.messages)}</div>"
        )


@functools.lru_cache(maxsize=128)
def _filled(conversation: str, turns: int) -> ShortTermMemory:
    """The conversation loaded once per (preset, turns); each view copies it under its own settings."""
    memory = ShortTermMemory(1)
    memory.extend(_conversation(conversation, turns))
    return memory


def budget_view(budget: int, keep_last: int, turns: int, conversation: str = "invoices") -> BudgetView:
    """Run a conversation for `turns` turns under the given budget and report what is sent.

    Every setting must be a whole number of at least 1 (BudgetViewError otherwise): a view of zero turns, or of
    a setting quietly moved into range, would describe something nobody asked for.
    """
    _check_settings(budget, keep_last, turns, conversation)
    memory = _filled(conversation, turns).copy(budget, keep_last)
    window = memory.window()
    everything = memory.messages
    older = everything[: len(everything) - len(window.messages)]
    units = unit_starts(older)
    newest_unit = older[units[-1]:] if units else []
    recent_cost = sum(message_tokens(m) for m in window.messages)
    newest_piece = estimate_tokens(SUMMARY_PREFIX + first_sentences(newest_unit)) if newest_unit else 0
    return BudgetView(
        budget=budget,
        keep_last=keep_last,
        turns=turns,
        summary=window.summary,
        messages=window.messages,
        tokens_sent=window.tokens,
        history_tokens=memory.tokens(),
        dropped_exchanges=window.dropped // PER_TURN[conversation],  # the oldest go first, whole turns
        total_messages=len(everything),
        summarized=window.summarized,
        dropped=window.dropped,
        truncated=window.truncated,
        room=budget - recent_cost,
        newest_older_piece_tokens=newest_piece,
        conversation=conversation,
        next_unit_tokens=sum(message_tokens(m) for m in newest_unit),
    )


@functools.lru_cache(maxsize=256)
def budget_curves(max_turns: int, budget: int, keep_last: int,
                  conversation: str = "invoices") -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Tokens sent per turn (whole history, managed), cached per slider position."""
    per = PER_TURN[conversation]
    chat = _conversation(conversation, max_turns)
    whole, managed = token_curve((chat[per * t: per * (t + 1)] for t in range(max_turns)), budget, keep_last)
    return tuple(whole), tuple(managed)


def budget_panel(budget: int = 110, keep_last: int = 4, turns: int = 6, *, max_turns: int = 40,
                 conversation: str = "invoices") -> Any:
    """A conversation preset and sliders for the budget, keep_last and turns; redraws the chart and the context."""
    import ipywidgets as w

    from .budget_chart import budget_chart_svg

    _check_settings(budget, keep_last, turns, conversation)
    if not isinstance(max_turns, int) or isinstance(max_turns, bool) or max_turns < 1:
        raise BudgetViewError(f"max_turns must be a whole number of at least 1, got {max_turns!r}")
    max_turns = max(max_turns, turns)  # each slider's range includes what was asked for: nothing is clamped
    style = {"description_width": "90px"}
    layout = w.Layout(width="420px")
    preset = w.Dropdown(options=[(label, key) for key, label in CONVERSATIONS.items()], value=conversation,
                        description="conversation", style=style, layout=w.Layout(width="640px"))
    budget_slider = w.IntSlider(value=budget, min=min(40, budget), max=max(600, budget), step=10, description="budget",
                                continuous_update=False, style=style, layout=layout)
    keep_slider = w.IntSlider(value=keep_last, min=1, max=max(12, keep_last), description="keep_last",
                              continuous_update=False, style=style, layout=layout)
    turns_slider = w.IntSlider(value=turns, min=1, max=max_turns, description="turns",
                               continuous_update=False, style=style, layout=layout)
    preset.add_class("pm-budget-conversation")
    budget_slider.add_class("pm-budget-slider")
    keep_slider.add_class("pm-keep-slider")
    turns_slider.add_class("pm-turns-slider")
    chart = w.HTML(layout=w.Layout(width="660px"))
    chart.add_class("pm-budget-chart")
    text = w.HTML()
    text.add_class("pm-budget-text")

    def redraw(_change: object = None) -> None:
        b, k, t, c = budget_slider.value, keep_slider.value, turns_slider.value, preset.value
        text.value = budget_view(b, k, t, c).html()
        whole, managed = budget_curves(max_turns, b, k, c)
        chart.value = budget_chart_svg(whole, managed, b, mark_turn=t, keep_last=k,
                                       x_label="turn (" + CONVERSATIONS[c].split(": ")[1].replace(" per turn", "") + ")")

    for control in (preset, budget_slider, keep_slider, turns_slider):
        control.observe(redraw, names="value")
    redraw()
    panel = _panel_class()("BudgetPanel", [preset, w.VBox([budget_slider, keep_slider, turns_slider]), chart, text])
    panel.sliders = {"budget": budget_slider, "keep_last": keep_slider, "turns": turns_slider}
    panel.preset = preset
    panel.text = text
    panel.chart = chart
    return panel
