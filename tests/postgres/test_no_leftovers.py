"""Nothing left running: the embedded server and its folder go away with the process that started them.

Each test starts a real process (a plain Python process, or a Jupyter kernel as JupyterLab
and nbval start them) that starts the embedded server, ends it the way the issue saw it end
(SIGKILL, SIGTERM, a normal exit, JupyterLab stopped), and then waits a bounded time for every
server process of that folder and the folder itself to be gone.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from primer_memory import postgres

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

SRC = str(Path(postgres.__file__).resolve().parents[2])  # src/, above primer_memory/postgres/
START = ("import json, os, sys; from primer_memory.postgres import local_server; dsn = local_server(); "
         "print(json.dumps([os.getpid(), dsn]), flush=True); sys.stdin.read()")
BOUND = 40.0  # seconds: a fast shutdown takes about one; the watchdog notices within one


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != postgres.DSN_VARIABLE}  # the embedded server, always
    env["PYTHONPATH"] = SRC + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _folder(dsn: str) -> Path:
    """The server's folder, from the socket directory in its DSN (host=<folder>/pgdata)."""
    match = re.search(r"host=([^&\s]+)", dsn)
    assert match, dsn
    return Path(match.group(1)).parent


def _server_processes(folder: Path) -> list[int]:
    """Processes whose command line names the folder (the postmaster; its children name no folder)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if str(folder) in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return [pid for pid in found if pid != os.getpid()]


def _watchdogs(folder: Path) -> list[int]:
    found = []
    for pid in _server_processes(folder):
        try:
            if b"--watch" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            continue
    return found


def _wait_until_gone(folder: Path) -> tuple[list[int], bool]:
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        procs, exists = _server_processes(folder), folder.exists()
        if not procs and not exists:
            break
        time.sleep(0.25)
    return _server_processes(folder), folder.exists()


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM", "exit"])
def test_a_process_that_started_the_server_leaves_nothing_however_it_ends(how: str) -> None:
    proc = subprocess.Popen([sys.executable, "-c", START], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            env=_env(), text=True)
    try:
        pid, dsn = json.loads(proc.stdout.readline())  # type: ignore[union-attr]
        folder = _folder(dsn)
        assert folder.is_dir() and _server_processes(folder), "the server runs while its owner lives"
        if how == "exit":
            proc.stdin.close()  # type: ignore[union-attr]
        else:
            os.kill(pid, getattr(signal, how))
        proc.wait(timeout=60)
        procs, exists = _wait_until_gone(folder)
        assert procs == [], f"server processes of {folder} still run after the owner's {how}"
        assert not exists, f"{folder} is still on disk after the owner's {how}"
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM"])
def test_a_notebook_kernel_killed_outright_leaves_nothing(how: str) -> None:
    """nbval, the browser test and a stopped JupyterLab end kernels this way: the kernel runs no exit hook."""
    jupyter_client = pytest.importorskip("jupyter_client")
    manager = jupyter_client.KernelManager(kernel_name="python3")
    manager.start_kernel(env=_env())
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=60)
        said: list[str] = []
        client.execute_interactive(
            "from primer_memory.postgres import local_server\nprint(local_server())",
            output_hook=lambda msg: said.append(msg["content"].get("text", "")), timeout=120)
        folder = _folder("".join(said).strip())
        assert _server_processes(folder)
        os.kill(manager.provisioner.process.pid, getattr(signal, how))
        procs, exists = _wait_until_gone(folder)
        assert procs == [] and not exists, f"after {how} of the kernel: processes {procs}, folder left: {exists}"
    finally:
        client.stop_channels()
        if manager.is_alive():
            manager.shutdown_kernel(now=True)


def test_an_orphan_left_by_a_killed_watchdog_is_reaped_at_the_next_start(tmp_path: Path) -> None:
    """The second line of defence: owner and watchdog both SIGKILLed; the next reap finds the folder and clears it."""
    proc = subprocess.Popen([sys.executable, "-c", START], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            env=_env(), text=True, start_new_session=True)
    try:
        pid, dsn = json.loads(proc.stdout.readline())  # type: ignore[union-attr]
        folder = _folder(dsn)
        deadline = time.monotonic() + BOUND  # on a loaded machine /proc may show the new process a moment late
        while not (watchdogs := _watchdogs(folder)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(watchdogs) == 1, "one watchdog per server"
        os.kill(watchdogs[0], signal.SIGKILL)
        os.kill(pid, signal.SIGKILL)
        proc.wait(timeout=60)
        time.sleep(0.5)
        assert folder.is_dir() and _server_processes(folder), "with no watchdog the server outlives its owner"
        assert folder in postgres.orphaned_servers(folder.parent)
        assert folder in postgres.reap_orphans(folder.parent)
        procs, exists = _wait_until_gone(folder)
        assert procs == [] and not exists
    finally:
        if proc.poll() is None:
            proc.kill()


def test_a_live_server_is_never_reaped(pg_dsn: str) -> None:
    """The test session's own server has a live owner: reaping leaves it alone."""
    if os.environ.get(postgres.DSN_VARIABLE, "").strip():
        pytest.skip("a configured server is not ours to reap")
    folder = _folder(pg_dsn)
    assert folder not in postgres.orphaned_servers(folder.parent)
    postgres.reap_orphans(folder.parent)
    assert folder.is_dir() and _server_processes(folder)


def test_only_folders_whose_owners_are_gone_or_half_deleted_are_reaped(tmp_path: Path) -> None:
    """Unit test of the rule, on fake folders: dead owner, half-deleted (empty user list, no server), live owner,
    and a folder still being set up (nothing written yet) -- only the first two are orphans."""
    def folder(name: str, owner: int | None = None, handles: str | None = None) -> Path:
        path = tmp_path / (postgres.PREFIX + name)
        (path / "pgdata" / "base").mkdir(parents=True)
        if owner is not None:
            (path / postgres.OWNER_FILE).write_text(json.dumps({"pid": owner, "started": None}))
        if handles is not None:
            (path / "pgdata" / ".handle_pids.json").write_text(handles)
        return path

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    gone = folder("dead", owner=dead.pid)
    half = folder("half", handles="[]")
    live = folder("live", owner=os.getpid(), handles=f"[{os.getpid()}]")
    starting = folder("starting")
    assert postgres.orphaned_servers(tmp_path) == sorted([gone, half])
    assert sorted(postgres.reap_orphans(tmp_path)) == sorted([gone, half])
    assert not gone.exists() and not half.exists() and live.is_dir() and starting.is_dir()


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_stopping_jupyterlab_leaves_nothing(tmp_path: Path) -> None:
    """`make lab`, then Ctrl-C or a terminal closed: the server stops its kernels; their PostgreSQL goes too."""
    pytest.importorskip("jupyterlab")
    import urllib.request

    from jupyter_client import BlockingKernelClient

    port, token = _free_port(), uuid.uuid4().hex
    env = _env() | {"JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"), "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
                    "JUPYTER_DATA_DIR": str(tmp_path / "data")}
    lab = subprocess.Popen([sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
                            f"--IdentityProvider.token={token}", "--allow-root", f"--ServerApp.root_dir={tmp_path}"],
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/api"
    try:
        for _ in range(240):
            try:
                urllib.request.urlopen(f"{base}/status?token={token}", timeout=2)
                break
            except OSError:
                time.sleep(0.25)
        request = urllib.request.Request(f"{base}/kernels?token={token}", data=b"{}", method="POST",
                                         headers={"Content-Type": "application/json"})
        kernel_id = json.loads(urllib.request.urlopen(request, timeout=60).read())["id"]
        client = BlockingKernelClient(connection_file=str(tmp_path / "runtime" / f"kernel-{kernel_id}.json"))
        client.load_connection_file()
        client.start_channels()
        said: list[str] = []
        try:  # kernel_info, not wait_for_ready: without a manager, a slow heartbeat on a busy machine reads as dead
            client.kernel_info(reply=True, timeout=120)
            client.execute_interactive("from primer_memory.postgres import local_server\nprint(local_server())",
                                       output_hook=lambda msg: said.append(msg["content"].get("text", "")),
                                       timeout=120)
        finally:
            client.stop_channels()
        folder = _folder("".join(said).strip())
        assert _server_processes(folder)
        lab.send_signal(signal.SIGTERM)
        lab.wait(timeout=60)
        procs, exists = _wait_until_gone(folder)
        assert procs == [] and not exists, f"after JupyterLab stopped: processes {procs}, folder left: {exists}"
    finally:
        if lab.poll() is None:
            lab.kill()

