"""Notebook 2 in a real JupyterLab: runs clean, and its widgets render and respond.

Marked `browser`; run with the rest by `make test`, alone by `make browser`. One module a notebook, so
pytest-xdist can give each worker its own notebooks (each worker starts its own JupyterLab).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from labdriver import run_clean, problems, screenshot_panel, wait_for_text

pytestmark = pytest.mark.browser


def test_02_recall_question_and_kinds(browser: Any, lab: Any, screenshot_dir: Path) -> None:
    page = run_clean(browser, lab, "02_long_term_recall.ipynb")
    try:
        wait_for_text(page, "pm-recall-text", "On 2026-09-18 Alice rejected the vendor Globex over late invoices.")
        question = page.locator(".pm-recall-query input")
        question.scroll_into_view_if_needed()
        question.fill("how do I reconcile invoices?")
        question.press("Enter")
        wait_for_text(page, "pm-recall-text", "how do I reconcile invoices?")
        for kind in ("episodic", "semantic"):  # leave only the habits
            page.locator(f".pm-recall-kind-{kind} input[type=checkbox]").uncheck()
        shown = wait_for_text(page, "pm-recall-text", "kinds: procedural")
        assert "To reconcile invoices, match each vendor invoice to its payment" in shown
        assert "Alice rejected the vendor Globex" not in shown
        screenshot_panel(page, "pm-panel:has(.pm-recall-text)", screenshot_dir / "02_recall_panel.png")
        assert not problems(page)
    finally:
        page.close()
