"""Notebook 3 in a real JupyterLab: runs clean, and its widgets render and respond.

Marked `browser`; run with the rest by `make test`, alone by `make browser`. One module a notebook, so
pytest-xdist can give each worker its own notebooks (each worker starts its own JupyterLab).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from labdriver import run_clean, problems, screenshot_panel, wait_for_text

pytestmark = pytest.mark.browser


def test_03_adversarial_preset_and_notes_path(browser: Any, lab: Any, screenshot_dir: Path) -> None:
    page = run_clean(browser, lab, "03_safety_rules.ipynb")
    try:
        wait_for_text(page, "pm-attack-text", "LEAK from acme/alice: Acme plans to acquire Initech in Q4.")
        preset = page.locator(".pm-attack-preset select")
        preset.scroll_into_view_if_needed()
        preset.select_option(label="sibling tenant (acme sees acme-corp?)")
        shown = wait_for_text(page, "pm-attack-text", "Caller acme/alice asks: when are invoices paid?")
        assert "LEAK from acme-corp/dan" in shown
        assert "only the caller's own records" in shown
        screenshot_panel(page, "pm-panel:has(.pm-attack-text)", screenshot_dir / "03_attack_panel.png")
        page.locator(".pm-attack-caller select").select_option(label="globex/carol")
        query = page.locator(".pm-attack-query input")
        query.fill("which currency for invoices?")
        query.press("Enter")
        wait_for_text(page, "pm-attack-text", "leaked nothing this time")
        query.fill("")
        query.press("Enter")
        shown = wait_for_text(page, "pm-attack-text", "refused the query and searched nothing")
        assert "Globex prefers invoices in euros." not in shown  # the previous answer is not left on screen

        path = page.locator(".pm-notes-path input")
        path.scroll_into_view_if_needed()
        path.fill("/memories/../secrets.txt")
        path.press("Enter")
        shown = wait_for_text(page, "pm-notes-text", "REFUSED /memories/../secrets.txt")
        assert "UnsafePath" in shown and "'..' is not allowed" in shown
        path.fill("/memories")
        path.press("Enter")
        wait_for_text(page, "pm-notes-text", "ACCEPTED /memories (folder)")
        screenshot_panel(page, "pm-panel:has(.pm-notes-text)", screenshot_dir / "03_notes_panel.png")
        assert not problems(page)
    finally:
        page.close()
