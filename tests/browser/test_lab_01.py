"""Notebook 1 in a real JupyterLab: runs clean, and its widgets render and respond.

Marked `browser`; run with the rest by `make test`, alone by `make browser`. One module a notebook, so
pytest-xdist can give each worker its own notebooks (each worker starts its own JupyterLab).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from primer_memory.lessons.widgets import budget_view
from primer_memory.lessons.widgets.budget import CONVERSATIONS

from labdriver import run_clean, problems, screenshot_panel, set_slider, wait_for_text

pytestmark = pytest.mark.browser


def test_01_budget_slider(browser: Any, lab: Any, screenshot_dir: Path) -> None:
    page = run_clean(browser, lab, "01_short_term_memory.ipynb")
    try:
        wait_for_text(page, "pm-budget-text", "106 tokens sent of a budget of 110")
        set_slider(page, "pm-budget-slider", 300)
        wait_for_text(page, "pm-budget-text", "tokens sent of a budget of 300")
        wait_for_text(page, "pm-budget-text", "no summary: everything fits")
        set_slider(page, "pm-turns-slider", 40)
        expected = budget_view(300, 4, 40)  # the pure function the panel displays
        shown = wait_for_text(page, "pm-budget-text", f"{expected.tokens_sent} tokens sent of a budget of 300")
        assert expected.gone_text() in shown
        assert expected.summary in shown
        set_slider(page, "pm-budget-slider", 110)
        set_slider(page, "pm-turns-slider", 6)
        wait_for_text(page, "pm-budget-text", "106 tokens sent of a budget of 110")
        screenshot_panel(page, "pm-panel", screenshot_dir / "01_budget_panel.png")
        page.locator(".pm-budget-conversation select").first.select_option(label=CONVERSATIONS["tools"])
        tools = budget_view(110, 4, 6, "tools")
        shown = wait_for_text(page, "pm-budget-text", f"{tools.tokens_sent} tokens sent of a budget of 110")
        assert tools.gone_text() in shown and "calls get_invoice" in shown
        assert not problems(page)
    finally:
        page.close()
