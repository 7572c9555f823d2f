"""Notebook 5 in a real JupyterLab: runs clean, and its widgets render and respond.

Marked `browser`; run with the rest by `make test`, alone by `make browser`. One module a notebook, so
pytest-xdist can give each worker its own notebooks (each worker starts its own JupyterLab).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from labdriver import run_clean, problems, screenshot_panel, wait_for_text

pytestmark = pytest.mark.browser


@pytest.mark.postgres
def test_05_rls_caller_attack_and_forgotten_where(browser: Any, lab: Any, screenshot_dir: Path) -> None:
    page = run_clean(browser, lab, "05_beyond_one_machine.ipynb")
    try:
        shown = wait_for_text(page, "pm-rls-text", "RLS held: the application received 1 row(s)", timeout_s=60)
        assert "Globex prefers invoices in euros." in shown
        attack = page.locator(".pm-rls-attack select")
        attack.scroll_into_view_if_needed()
        attack.select_option(label="tenant prefix instead of equality (LangGraph #8478)")
        page.locator(".pm-rls-caller select").select_option(label="alice (acme)")
        shown = wait_for_text(page, "pm-rls-text", "Caller acme/alice; the application runs")
        assert "starts_with(tenant_id" in shown
        assert "Without the lock this SQL returns 1 row(s) of other users." in shown  # acme-corp/dan
        page.locator(".pm-rls-forgot input[type=checkbox]").check()
        shown = wait_for_text(page, "pm-rls-text", "Without the lock this SQL returns 4 row(s) of other users.")
        assert "RLS held: the application received 6 row(s), none of another user's." in shown
        screenshot_panel(page, "pm-panel:has(.pm-rls-text)", screenshot_dir / "05_rls_panel.png")

        wait_for_text(page, "pm-workers-text", "No worker has been started yet")
        start = page.locator(".pm-workers-start")
        start.scroll_into_view_if_needed()
        start.click()
        wait_for_text(page, "pm-workers-text", "Started 3 worker process(es) on 6 tasks", timeout_s=90)
        page.locator(".pm-workers-kill").click()
        shown = wait_for_text(page, "pm-workers-text", "with SIGKILL while it held a step", timeout_s=90)
        assert "1 killed" in shown
        page.locator(".pm-workers-add").click()
        wait_for_text(page, "pm-workers-text", "Added worker 4 to the same task list", timeout_s=90)
        assert not problems(page)
    finally:
        page.close()
