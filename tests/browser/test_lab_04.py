"""Notebook 4 in a real JupyterLab: runs clean, and its widgets render and respond.

Marked `browser`; run with the rest by `make test`, alone by `make browser`. One module a notebook, so
pytest-xdist can give each worker its own notebooks (each worker starts its own JupyterLab).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from labdriver import run_clean, problems, screenshot_panel, wait_for_text

pytestmark = pytest.mark.browser


def test_04_crash_and_resume_buttons(browser: Any, lab: Any, screenshot_dir: Path) -> None:
    page = run_clean(browser, lab, "04_task_state.ipynb")
    try:
        panel = page.locator(".pm-panel", has=page.locator(".pm-crash-button")).first
        panel.scroll_into_view_if_needed()
        panel.locator(".pm-crash-step select").select_option(label="before match (a step boundary)")
        panel.locator(".pm-start-button").click()
        wait_for_text(page, "pm-crash-text", "paused before match", timeout_s=60)
        panel.locator(".pm-crash-button").click()
        shown = wait_for_text(page, "pm-crash-text", "Killed the worker with SIGKILL", timeout_s=60)
        assert "The first unfinished step is match" in shown
        assert "integrity_check: ok" in shown
        panel.locator(".pm-resume-button").click()
        shown = wait_for_text(page, "pm-crash-text", "Every step is done", timeout_s=60)
        assert "A new process opened the same file" in shown
        screenshot_panel(page, "pm-panel:has(.pm-crash-button)", screenshot_dir / "04_crash_panel.png")
        assert not problems(page)
    finally:
        page.close()
