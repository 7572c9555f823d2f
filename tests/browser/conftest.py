"""JupyterLab in headless Chromium: fixtures that start and stop everything the browser test needs.

A JupyterLab server on 127.0.0.1 with a random token and a temporary root
holding copies of the notebooks (the committed ones are never touched), and
Debian's Chromium driven by Playwright. Every wait is bounded and fails with
a message that says what did not happen.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
SERVER_START_SECONDS = 90
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def _chromium() -> str | None:
    for candidate in (os.environ.get("PRIMER_CHROMIUM"), shutil.which("chromium"), "/usr/bin/chromium"):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def _missing(reason: str) -> None:
    """In CI a missing browser is a failure (it must not pass silently); on a laptop, a skip that says why."""
    if os.environ.get("CI"):
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Lab:
    url: str
    token: str
    root: Path
    log: Path

    def notebook_url(self, name: str) -> str:
        return f"{self.url}/lab/tree/{name}?token={self.token}&reset"


@pytest.fixture(scope="session")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """A JupyterLab server with copies of the notebooks, stopped at the end of the session."""
    root = tmp_path_factory.mktemp("lab-root")
    for notebook in sorted(NOTEBOOKS.glob("*.ipynb")):
        shutil.copy(notebook, root / notebook.name)
    settings = tmp_path_factory.mktemp("lab-settings")
    news = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    news.parent.mkdir(parents=True)
    news.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    workspaces = tmp_path_factory.mktemp("lab-workspaces")
    port, token = _free_port(), secrets.token_hex(16)
    log = root.parent / "jupyterlab.log"
    env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(settings), JUPYTERLAB_WORKSPACES_DIR=str(workspaces))
    command = [
        sys.executable, "-m", "jupyterlab", "--no-browser",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
        "--ServerApp.allow_root=True", "--LabApp.expose_app_in_browser=True",
        "--LabApp.extension_manager=readonly",
    ]
    with log.open("w") as log_file:
        server = subprocess.Popen(command, stdout=log_file, stderr=subprocess.STDOUT, env=env, cwd=root,
                                  start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_SECONDS
        while True:
            if server.poll() is not None:
                pytest.fail(f"JupyterLab exited with code {server.returncode}:\n{log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"JupyterLab did not answer within {SERVER_START_SECONDS}s:\n{log.read_text()[-3000:]}")
            time.sleep(0.5)
        yield Lab(url, token, root, log)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=15)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's Chromium, headless, driven by Playwright (never a browser Playwright downloads)."""
    executable = _chromium()
    if executable is None:
        _missing("Chromium not found: install Debian's package (apt-get install chromium) or set PRIMER_CHROMIUM")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed: pip install -e '.[browser]'")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_FLAGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    """Where screenshots go: build/screenshots, or the folder named by PRIMER_SCREENSHOTS (docs/img for the README)."""
    folder = Path(os.environ.get("PRIMER_SCREENSHOTS", ROOT / "build" / "screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
