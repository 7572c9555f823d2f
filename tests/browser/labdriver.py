"""Small, bounded helpers for driving a notebook in JupyterLab through Playwright."""

from __future__ import annotations

from typing import Any

KERNEL_IDLE = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const kernel = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!kernel && kernel.status === 'idle';
}"""

ALL_RUN = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const kernel = w.sessionContext.session.kernel;
  const prompts = [...document.querySelectorAll('.jp-Notebook .jp-InputArea-prompt')];
  return kernel.status === 'idle' && prompts.length > 0 && prompts.every(p => !p.textContent.includes('*'));
}"""

ERROR_SELECTORS = {
    "stderr or traceback output": '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]',
    "widget that failed to display": "text=Error displaying widget",
    "widget shown as plain text (no widget manager)": "text=/^[A-Za-z]+Panel\\(\\)$/",
}


def open_notebook(browser: Any, lab: Any, name: str, *, timeout_s: float = 90) -> Any:
    """Open one notebook in a fresh page and wait until its kernel is idle."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(30_000)
    page.goto(lab.notebook_url(name))
    try:
        page.wait_for_function(KERNEL_IDLE, timeout=timeout_s * 1000)
    except Exception as error:
        raise AssertionError(f"{name}: the kernel did not become idle within {timeout_s}s ({error})") from None
    return page


def run_all_cells(page: Any, name: str, *, timeout_s: float = 300) -> None:
    """Run every cell, as a learner would with Run > Run All Cells, and wait until all have finished."""
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_timeout(1000)
    try:
        page.wait_for_function(ALL_RUN, timeout=timeout_s * 1000)
    except Exception as error:
        raise AssertionError(f"{name}: cells were still running after {timeout_s}s ({error})") from None


def problems(page: Any) -> list[str]:
    """Everything on the page that a learner would read as something gone wrong."""
    found = []
    for what, selector in ERROR_SELECTORS.items():
        for element in page.locator(selector).all():
            found.append(f"{what}: {(element.text_content() or '')[:500]}")
    return found


def set_slider(page: Any, css_class: str, value: int) -> None:
    """Type a value into an ipywidgets slider's readout (as a learner can) and confirm it."""
    readout = page.locator(f".{css_class} .widget-readout")
    readout.scroll_into_view_if_needed()
    readout.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(str(value))
    page.keyboard.press("Enter")


def wait_for_text(page: Any, css_class: str, text: str, *, timeout_s: float = 30) -> str:
    """Wait until the element with `css_class` contains `text`; fail with what it shows instead."""
    locator = page.locator(f".{css_class}").first
    # textContent, not innerText: JupyterLab skips rendering cells scrolled out of view, and innerText of
    # skipped content is empty. The check is exact and case-sensitive, unlike Playwright's has_text.
    check = """([selector, text]) => {
      const element = document.querySelector(selector);
      return !!element && element.textContent.includes(text);
    }"""
    try:
        page.wait_for_function(check, arg=[f".{css_class}", text], timeout=timeout_s * 1000)
    except Exception:
        shown = locator.text_content() if locator.count() else "(element not found)"
        raise AssertionError(f"expected .{css_class} to show {text!r} within {timeout_s}s; it shows:\n{shown[:800]}") from None
    return locator.text_content() or ""


def screenshot_panel(page: Any, css_class: str, path: Any) -> None:
    """A screenshot of one widget panel (for the README), scrolled into view first."""
    panel = page.locator(f".{css_class}").first
    panel.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    panel.screenshot(path=str(path))


def run_clean(browser: Any, lab: Any, name: str) -> Any:
    """Open a notebook, run every cell, and fail on any traceback, stderr output or widget that did not render."""
    page = open_notebook(browser, lab, name)
    run_all_cells(page, name)
    found = problems(page)
    assert not found, f"{name} shows problems in JupyterLab:\n" + "\n".join(found)
    return page
