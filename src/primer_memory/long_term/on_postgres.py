"""Long-term memory on PostgreSQL in one call: the notebook 5 entry point (same API, isolation by row-level security)."""

from __future__ import annotations

from typing import Any

from ..postgres import local_server
from .embedding import HashingEmbedder
from .memory import LongTermMemory
from .storage.pg_search import HnswSettings
from .storage.postgres import PostgresStore, drop_schema

__all__ = ["HnswSettings", "memory_on_postgres"]


def memory_on_postgres(
    dsn: str | None = None,
    *,
    schema: str = "primer_memory",
    embedder: Any = None,
    policy: Any = None,
    clock: Any = None,
    exact_limit: int = 100_000,
    fresh: bool = False,
    pool_size: int = 4,
) -> LongTermMemory:
    """A `LongTermMemory` whose records live in PostgreSQL: same API, isolation enforced by row-level security.

    `dsn` is an administrator's (default: PRIMER_PG_DSN, else the embedded server);
    setup runs with it, then the memory connects as the application role. `fresh`
    drops the schema first (every memory in it is deleted). `pool_size` caps the application role's
    connections from this process. `HnswSettings` (re-exported here) tunes the store's approximate search.
    """
    embedder = HashingEmbedder() if embedder is None else embedder
    if fresh:
        drop_schema(local_server() if dsn is None else dsn, schema)
    store = PostgresStore(dsn, embedder_name=embedder.name, dim=embedder.dim, schema=schema, exact_limit=exact_limit,
                          pool_size=pool_size)
    return LongTermMemory(embedder, policy=policy, clock=clock, store=store)
