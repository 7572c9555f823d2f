"""Each notebook in a real JupyterLab: runs clean, and its widgets render and respond.

Marked `browser`; run with the rest by `make test`, alone by `make browser`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from primer_memory.lessons.widgets import budget_view
from primer_memory.lessons.widgets.budget import CONVERSATIONS

from labdriver import open_notebook, problems, run_all_cells, screenshot_panel, set_slider, wait_for_text

pytestmark = pytest.mark.browser


def _run_clean(browser: Any, lab: Any, name: str) -> Any:
    page = open_notebook(browser, lab, name)
    run_all_cells(page, name)
    found = problems(page)
    assert not found, f"{name} shows problems in JupyterLab:\n" + "\n".join(found)
    return page


def test_01_budget_slider(browser: Any, lab: Any, screenshot_dir: Path) -> None:
    page = _run_clean(browser, lab, "01_short_term_memory.ipynb")
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


def test_04_crash_and_resume_buttons(browser: Any, lab: Any, screenshot_dir: Path) -> None:
    page = _run_clean(browser, lab, "04_task_state.ipynb")
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


def test_03_adversarial_preset_and_notes_path(browser: Any, lab: Any, screenshot_dir: Path) -> None:
    page = _run_clean(browser, lab, "03_safety_rules.ipynb")
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


def test_02_recall_question_and_kinds(browser: Any, lab: Any, screenshot_dir: Path) -> None:
    page = _run_clean(browser, lab, "02_long_term_recall.ipynb")
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


@pytest.mark.postgres
def test_05_rls_caller_attack_and_forgotten_where(browser: Any, lab: Any, screenshot_dir: Path) -> None:
    page = _run_clean(browser, lab, "05_beyond_one_machine.ipynb")
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
        assert not problems(page)
    finally:
        page.close()
