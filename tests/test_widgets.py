"""The budget panel's logic, driven in Python without a browser."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory.widgets import budget_panel, budget_view


def test_view_reproduces_the_worked_example() -> None:
    view = budget_view(110, 4, 6)
    assert view.tokens_sent == 106 and view.history_tokens == 210
    assert view.summary.startswith("Earlier in this conversation: Question 3 is about invoices")
    assert [m["content"][:10] for m in view.messages] == ["Question 5", "Answer 5 l", "Question 6", "Answer 6 l"]
    assert view.dropped_exchanges == 2
    html = view.html()
    assert "<b>106</b> tokens sent of a budget of 110" in html and "Exchanges gone entirely: 2" in html


def test_view_under_budget_says_so() -> None:
    view = budget_view(600, 4, 6)
    assert view.summary == "" and len(view.messages) == 12
    assert "no summary: everything fits" in view.html()


def test_view_escapes_html() -> None:
    assert "<script>" not in budget_view(110, 4, 6).html().replace("<table", "")


@given(st.integers(40, 600), st.integers(1, 12), st.integers(1, 40))
@settings(max_examples=60)
def test_view_never_exceeds_the_budget(budget: int, keep_last: int, turns: int) -> None:
    view = budget_view(budget, keep_last, turns)
    assert view.tokens_sent <= budget
    assert 0 <= view.dropped_exchanges <= turns


def test_panel_redraws_when_sliders_move() -> None:
    pytest.importorskip("ipywidgets")
    panel = budget_panel(budget=110, keep_last=4, turns=6)
    assert repr(panel) == "BudgetPanel()"
    first_text, first_image = panel.text.value, bytes(panel.image.value)
    assert "<b>106</b> tokens sent" in first_text and first_image.startswith(b"\x89PNG")
    panel.sliders["budget"].value = 300
    assert "no summary: everything fits" in panel.text.value  # 210 tokens fit in 300
    assert bytes(panel.image.value) != first_image
    panel.sliders["turns"].value = 40
    assert "tokens sent of a budget of 300" in panel.text.value and "<b>295</b>" not in panel.text.value
    panel.sliders["keep_last"].value = 6
    assert "<b>295</b> tokens sent of a budget of 300" in panel.text.value


def test_panel_sliders_have_the_classes_the_browser_test_uses() -> None:
    panel = budget_panel()
    assert "pm-budget-slider" in panel.sliders["budget"]._dom_classes
    assert "pm-budget-text" in panel.text._dom_classes
