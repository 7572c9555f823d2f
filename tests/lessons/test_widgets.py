"""The budget panel's logic, driven in Python without a browser: every sentence it prints is true everywhere."""

from __future__ import annotations

import functools
import re

import pytest

from primer_memory import estimate_tokens, first_sentence
from primer_memory.lessons.examples import invoice_chat
from primer_memory.short_term.memory import TRUNCATION_MARKER
from primer_memory.lessons.widgets import budget_panel, budget_view
from primer_memory.lessons.widgets.budget import budget_curves
from primer_memory.lessons.widgets.budget_chart import budget_chart_svg, nice_step

BUDGETS = range(40, 601, 10)  # the sliders' grid, exactly
KEEPS = range(1, 13)
TURNS = range(1, 41)


def _n(n: int, word: str) -> str:
    """A count with its noun, singular for one (what the panel prints)."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def test_view_reproduces_the_worked_example() -> None:
    view = budget_view(110, 4, 6)
    assert view.tokens_sent == 106 and view.history_tokens == 210
    assert view.summary.startswith("Earlier in this conversation: Question 3 is about invoices")
    assert [m["content"][:10] for m in view.messages] == ["Question 5", "Answer 5 l", "Question 6", "Answer 6 l"]
    assert view.dropped_exchanges == 2
    html = view.html()
    assert "<b>106</b> tokens sent of a budget of 110" in html and "Exchanges gone entirely: 2" in html
    assert "Gone entirely: 4 messages of 12, the oldest (exchanges 1 and 2)" in html


def test_view_under_budget_says_so() -> None:
    view = budget_view(600, 4, 6)
    assert view.summary == "" and len(view.messages) == 12
    assert "no summary: everything fits" in view.html()


def test_the_two_false_messages_the_issue_found_are_gone() -> None:
    view = budget_view(40, 4, 40)  # 39 exchanges gone, no summary
    assert "everything fits" not in view.html() and "Exchanges gone entirely: 39" in view.html()
    tiny = budget_view(1, 4, 1)  # the question is gone, the answer is cut
    assert "Gone entirely: 1 message of 2" in tiny.html() and "Exchanges gone entirely: 0" in tiny.html()
    assert "question 1, and its answer is cut down to the marker alone" in tiny.html()
    assert "too small for any of its text: only &#x27;[...&#x27; is sent" in tiny.html()


def test_view_escapes_html() -> None:
    assert "<script>" not in budget_view(110, 4, 6).html().replace("<table", "")


def _claims_hold(budget: int, keep: int, turns: int) -> None:
    """Check every sentence of one view against the chat itself, not against the view's own numbers."""
    view = budget_view(budget, keep, turns)
    html = view.html()
    chat = [text for _, text in invoice_chat(turns)]
    sent = [m["content"] for m in view.messages]
    where = f"budget={budget} keep_last={keep} turns={turns}"
    assert view.tokens_sent == estimate_tokens(view.summary) + sum(map(estimate_tokens, sent)) <= budget, where
    assert view.history_tokens == sum(map(estimate_tokens, chat)), where
    in_summary = [f"{first_sentence(t)};" in view.summary + ";" for t in chat]
    verbatim = [t in sent or (view.truncated and i == len(chat) - 1) for i, t in enumerate(chat)]
    gone = [not (s or v) for s, v in zip(in_summary, verbatim)]
    assert gone == [i < view.dropped for i in range(len(chat))], where  # the oldest, and only they
    assert view.dropped_exchanges == sum(gone[i] and gone[i + 1] for i in range(0, len(chat), 2)), where
    if view.dropped:
        assert f"Gone entirely: {view.dropped} message" in html and f"Exchanges gone entirely: {view.dropped_exchanges}." in html
        if view.dropped % 2 and view.marker_only and view.dropped == len(chat) - 1:
            assert f"question {view.dropped // 2 + 1}, and its answer is cut down to the marker alone" in html
        elif view.dropped % 2:
            assert f"question {view.dropped // 2 + 1} (but not its answer)" in html and not gone[view.dropped]
    else:
        assert "Nothing is gone entirely" in html and not any(gone), where
    if "everything fits" in html:
        assert view.history_tokens <= budget and sent == chat, where
    if view.summary:
        assert f"{sum(in_summary)} older message" in html, where
        assert (f"{_n(estimate_tokens(view.summary), 'token')}, in the "
                f"{_n(budget - sum(map(estimate_tokens, sent)), 'token')}") in html
    elif "no older message to fold" in html:
        assert len(sent) == len(chat), where
    elif "everything fits" not in html:
        older = chat[: len(chat) - len(sent)]
        assert older and view.newest_older_piece_tokens > view.room, where
        said = f"all {len(older)} older messages are gone" if len(older) > 1 else "the 1 older message is gone"
        assert said in html and all(gone[: len(older)]), where
    if view.truncated:
        assert len(sent) == 1 and len(chat[-1]) > 4 * budget, where
        if sent[0].endswith(TRUNCATION_MARKER):
            assert chat[-1].startswith(sent[0][: -len(TRUNCATION_MARKER)]) and "cut to fit" in html, where
        else:
            assert TRUNCATION_MARKER.strip().startswith(sent[0]) and "too small for any of its text" in html
    elif view.history_tokens > budget:
        match = re.search(r"the last (\d+) messages|the newest message", html)
        shown_count = int(match.group(1)) if match and match.group(1) else 1
        assert match and shown_count == len(sent) and sent == chat[len(chat) - len(sent):], where
        if "would break the budget" in html:  # one more recent message would not have fit
            assert len(sent) < keep and estimate_tokens(chat[-len(sent) - 1]) + sum(map(estimate_tokens, sent)) > budget


@pytest.mark.parametrize("budget", BUDGETS)
def test_every_message_is_true_on_the_whole_slider_grid(budget: int) -> None:
    for keep in KEEPS:
        for turns in TURNS:
            _claims_hold(budget, keep, turns)


@pytest.mark.parametrize("budget", [1, 2, 5, 9, 17, 18, 25, 35])
def test_every_message_is_true_below_the_sliders_too(budget: int) -> None:
    for keep in (1, 2, 4, 12):
        for turns in (1, 2, 3, 7, 40):
            _claims_hold(budget, keep, turns)


def test_curves_match_the_figure_numbers() -> None:
    whole, managed = budget_curves(40, 300, 6)
    assert whole[-1] == 1431 and managed[22:] == (295,) * 18


def test_chart_is_svg_with_both_curves_and_the_mark() -> None:
    whole, managed = budget_curves(40, 300, 6)
    svg = budget_chart_svg(whole, managed, 300, mark_turn=40, keep_last=6)
    assert svg.startswith("<svg") and svg.endswith("</svg>") and svg.count("<polyline") == 2
    assert "<circle" in svg and "first passed at turn 9" in svg and "1,500" in svg
    assert nice_step(1545) == 500 and nice_step(40, 8) == 5


def test_panel_redraws_when_sliders_move() -> None:
    pytest.importorskip("ipywidgets")
    panel = budget_panel(budget=110, keep_last=4, turns=6)
    assert repr(panel) == "BudgetPanel()"
    first_text, first_chart = panel.text.value, panel.chart.value
    assert "<b>106</b> tokens sent" in first_text and first_chart.startswith("<svg")
    panel.sliders["budget"].value = 300
    assert "no summary: everything fits" in panel.text.value  # 210 tokens fit in 300
    assert panel.chart.value != first_chart
    panel.sliders["turns"].value = 40
    assert "tokens sent of a budget of 300" in panel.text.value and "<b>295</b>" not in panel.text.value
    panel.sliders["keep_last"].value = 6
    assert "<b>295</b> tokens sent of a budget of 300" in panel.text.value
    assert panel.text.value == budget_view(300, 6, 40).html()


def test_panel_sliders_have_the_classes_the_browser_test_uses() -> None:
    panel = budget_panel()
    assert "pm-budget-slider" in panel.sliders["budget"]._dom_classes
    assert "pm-budget-text" in panel.text._dom_classes


# --------------------------------------------------------------------------- the tool-heavy preset


@functools.cache
def _tool_chat(turns: int) -> list[dict]:
    from primer_memory.lessons.examples import tool_chat

    return tool_chat(turns)


def _tool_claims_hold(budget: int, keep: int, turns: int) -> None:
    from primer_memory.short_term.chat import message_tokens, unit_starts
    from helpers import assert_accepted_by_a_chat_api

    view = budget_view(budget, keep, turns, "tools")
    html = view.html()
    chat = _tool_chat(turns)
    sent = view.messages
    where = f"tools: budget={budget} keep_last={keep} turns={turns}"
    assert view.tokens_sent == estimate_tokens(view.summary) + sum(map(message_tokens, sent)) <= budget, where
    assert view.history_tokens == sum(map(message_tokens, chat)), where
    assert_accepted_by_a_chat_api(sent, None)
    assert view.dropped + view.summarized + len(sent) == len(chat), where
    assert view.dropped in [0, *unit_starts(chat), len(chat)], where  # whole units go, never part of one
    assert view.dropped_exchanges == view.dropped // 5, where
    if view.dropped:
        assert f"Gone entirely: {view.dropped} message" in html and f"Turns gone entirely: {view.dropped // 5}." in html
        if view.dropped % 5:
            assert f"{view.dropped % 5} of the 5 messages of turn {view.dropped // 5 + 1}" in html, where
    else:
        assert "Nothing is gone entirely" in html, where
    if "everything fits" in html:
        assert view.history_tokens <= budget and len(sent) == len(chat), where
    if not view.truncated and sent:
        assert sent == chat[len(chat) - len(sent):], where
    if "rounded up" in html:
        assert len(sent) > keep, where
    match = re.search(r"the next older unit \((\d+) tokens\) would break the budget", html)
    if match:
        older = chat[: len(chat) - len(sent)]
        unit = older[unit_starts(older)[-1]:]
        assert int(match.group(1)) == sum(map(message_tokens, unit)), where
        assert sum(map(message_tokens, unit + sent)) > budget, where


@pytest.mark.parametrize("budget", BUDGETS)
def test_every_message_is_true_on_the_whole_grid_for_the_tool_heavy_preset(budget: int) -> None:
    for keep in KEEPS:
        for turns in TURNS:
            _tool_claims_hold(budget, keep, turns)


def test_tool_preset_shows_calls_and_results() -> None:
    view = budget_view(300, 4, 10, "tools")
    assert "calls get_invoice(" in view.html() and "result of call_10a" in view.html()


def test_panel_switches_to_the_tool_heavy_preset() -> None:
    pytest.importorskip("ipywidgets")
    panel = budget_panel(budget=300, keep_last=4, turns=10)
    panel.preset.value = "tools"
    assert panel.text.value == budget_view(300, 4, 10, "tools").html()
    assert "pm-budget-conversation" in panel.preset._dom_classes
