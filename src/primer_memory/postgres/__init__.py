"""The shared PostgreSQL layer, used by every part that keeps data in PostgreSQL; it imports no part.

`server`: the embedded server (or PRIMER_PG_DSN), its clean-up, and what notebook 5 inspects on it;
`scope`: the roles, the signed scope and the tables it guards; `session`: the one lifecycle every application
connection goes through (a pool reset on return, nothing prepared on the server, settings pinned, the scope signed
for each transaction). The server's names are importable from here, as before the layer was a package.
"""

from __future__ import annotations

from typing import Any

from . import server
from .server import (
    APP_PASSWORD_VARIABLE,
    DSN_VARIABLE,
    PostgresUnavailable,
    ServerFilesUnreadable,
    compact,
    files_contain,
    is_schema_name,
    local_server,
    orphaned_servers,
    process_alive,
    process_started,
    reap_orphans,
    role_summary,
    server_summary,
    statistics_contain,
    stop_local_server,
    vacuum,
    wal_contains,
)

__all__ = list(server.__all__)


def __getattr__(name: str) -> Any:
    """The server module's other names (its constants and state), read live rather than copied at import."""
    return getattr(server, name)
