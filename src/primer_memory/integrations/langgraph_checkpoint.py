"""A LangGraph checkpointer on the series' own storage: an SQLite file, or PostgreSQL with row-level security.

A graph compiled with `checkpointer=` writes one checkpoint per super-step and each
task's writes as it finishes (`put_writes`); after a crash, the next `invoke` with the
same `thread_id` resumes from the last checkpoint and reuses the writes of tasks that
had already finished, so no node's result is recorded twice. That is notebook 4's
guarantee (a run survives a crash and resumes at the first unfinished step), given to
any LangGraph graph.

Every row carries a tenant. A saver is bound to one tenant (from the authentication
layer, never from the graph's config); on PostgreSQL the database enforces it with
row-level security on the tenant signed for each transaction, as notebook 5 does for
memories (`checkpoint_backends` says why the policy reads the tenant and no user). Channel values are stored once per
(channel, version), as LangGraph's own savers do; versions carry a random fraction so two
forks of one thread never overwrite each other's values.

Passes `langgraph-checkpoint-conformance` (put, put_writes, get_tuple, list, delete_thread,
delete_for_runs, copy_thread, prune). Not `DeltaChannel`-aware: `prune(keep_latest)` keeps
one checkpoint per namespace, so do not prune threads of graphs that use `DeltaChannel`.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

from . import require

require("langgraph.checkpoint.base", "langgraph", "The LangGraph checkpointer")

from langchain_core.runnables import RunnableConfig  # noqa: E402
from langgraph.checkpoint.base import (  # noqa: E402
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    get_checkpoint_id,
    get_checkpoint_metadata,
)

from .checkpoint_backends import (  # noqa: E402
    Backend,
    CheckpointError,
    CheckpointScopeError,
    PostgresBackend,
    SQLiteBackend,
    Tx,
    check_tenant,
)

__all__ = ["CheckpointError", "CheckpointScopeError", "PostgresCheckpointSaver", "SQLiteCheckpointSaver",
           "TableCheckpointSaver"]

_EMPTY = "empty"  # the type stored for a channel listed in new_versions that holds no value

# Statements with `?` placeholders ({t} is the table prefix); the PostgreSQL backend turns `?` into `%s`.
_CHECKPOINT_COLUMNS = "thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, " \
                      "metadata_type, metadata"
SQL = {
    "put": "INSERT INTO {t}checkpoints (tenant_id, thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id,"
           " type, checkpoint, metadata_type, metadata, run_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
           " ON CONFLICT (tenant_id, thread_id, checkpoint_ns, checkpoint_id) DO UPDATE SET"
           " parent_checkpoint_id = excluded.parent_checkpoint_id, type = excluded.type,"
           " checkpoint = excluded.checkpoint, metadata_type = excluded.metadata_type,"
           " metadata = excluded.metadata, run_id = excluded.run_id",
    "put_blob": "INSERT INTO {t}blobs (tenant_id, thread_id, checkpoint_ns, channel, version, type, blob)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id, thread_id, checkpoint_ns, channel, version)"
                " DO NOTHING",
    "put_write": "INSERT INTO {t}writes (tenant_id, thread_id, checkpoint_ns, checkpoint_id, task_id, idx,"
                 " channel, type, blob, task_path) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                 " ON CONFLICT (tenant_id, thread_id, checkpoint_ns, checkpoint_id, task_id, idx) DO NOTHING",
    "upsert_write": "INSERT INTO {t}writes (tenant_id, thread_id, checkpoint_ns, checkpoint_id, task_id, idx,"
                    " channel, type, blob, task_path) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (tenant_id, thread_id, checkpoint_ns, checkpoint_id, task_id, idx) DO UPDATE"
                    " SET channel = excluded.channel, type = excluded.type, blob = excluded.blob,"
                    " task_path = excluded.task_path",
    "one": f"SELECT {_CHECKPOINT_COLUMNS} FROM {{t}}checkpoints WHERE tenant_id = ? AND thread_id = ?"
           " AND checkpoint_ns = ? AND checkpoint_id = ?",
    "latest": f"SELECT {_CHECKPOINT_COLUMNS} FROM {{t}}checkpoints WHERE tenant_id = ? AND thread_id = ?"
              " AND checkpoint_ns = ? ORDER BY checkpoint_id DESC LIMIT 1",
    "list": f"SELECT {_CHECKPOINT_COLUMNS} FROM {{t}}checkpoints WHERE tenant_id = ?",
    "blob": "SELECT type, blob FROM {t}blobs WHERE tenant_id = ? AND thread_id = ? AND checkpoint_ns = ?"
            " AND channel = ? AND version = ?",
    "writes": "SELECT task_id, channel, type, blob FROM {t}writes WHERE tenant_id = ? AND thread_id = ?"
              " AND checkpoint_ns = ? AND checkpoint_id = ? ORDER BY task_path, task_id, idx",
    "delete_writes": "DELETE FROM {t}writes WHERE tenant_id = ? AND thread_id = ?",
    "delete_blobs": "DELETE FROM {t}blobs WHERE tenant_id = ? AND thread_id = ?",
    "delete_checkpoints": "DELETE FROM {t}checkpoints WHERE tenant_id = ? AND thread_id = ?",
    "run_checkpoints": "SELECT thread_id, checkpoint_ns, checkpoint_id FROM {t}checkpoints WHERE tenant_id = ?"
                       " AND run_id = ?",
    "delete_one": "DELETE FROM {t}checkpoints WHERE tenant_id = ? AND thread_id = ? AND checkpoint_ns = ?"
                  " AND checkpoint_id = ?",
    "delete_one_writes": "DELETE FROM {t}writes WHERE tenant_id = ? AND thread_id = ? AND checkpoint_ns = ?"
                         " AND checkpoint_id = ?",
    "copy_checkpoints": "INSERT INTO {t}checkpoints (tenant_id, thread_id, checkpoint_ns, checkpoint_id,"
                        " parent_checkpoint_id, type, checkpoint, metadata_type, metadata, run_id)"
                        " SELECT tenant_id, ?, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint,"
                        " metadata_type, metadata, run_id FROM {t}checkpoints WHERE tenant_id = ? AND thread_id = ?"
                        " ON CONFLICT DO NOTHING",
    "copy_blobs": "INSERT INTO {t}blobs (tenant_id, thread_id, checkpoint_ns, channel, version, type, blob)"
                  " SELECT tenant_id, ?, checkpoint_ns, channel, version, type, blob FROM {t}blobs"
                  " WHERE tenant_id = ? AND thread_id = ? ON CONFLICT DO NOTHING",
    "copy_writes": "INSERT INTO {t}writes (tenant_id, thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel,"
                   " type, blob, task_path) SELECT tenant_id, ?, checkpoint_ns, checkpoint_id, task_id, idx, channel,"
                   " type, blob, task_path FROM {t}writes WHERE tenant_id = ? AND thread_id = ? ON CONFLICT DO NOTHING",
    "namespaces": "SELECT DISTINCT checkpoint_ns FROM {t}checkpoints WHERE tenant_id = ? AND thread_id = ?",
    "older": "SELECT checkpoint_id FROM {t}checkpoints WHERE tenant_id = ? AND thread_id = ? AND checkpoint_ns = ?"
             " AND checkpoint_id < ?",
    "ns_blobs": "SELECT channel, version FROM {t}blobs WHERE tenant_id = ? AND thread_id = ? AND checkpoint_ns = ?",
    "delete_blob": "DELETE FROM {t}blobs WHERE tenant_id = ? AND thread_id = ? AND checkpoint_ns = ? AND channel = ?"
                   " AND version = ?",
}
PRUNE_STRATEGIES = ("keep_latest", "delete")


class TableCheckpointSaver(BaseCheckpointSaver[str]):
    """The checkpointer's logic over three tables (checkpoints, blobs, writes); a backend keeps the rows.

    Use `SQLiteCheckpointSaver(path)` or `PostgresCheckpointSaver(dsn, tenant=...)`.
    Async methods run the same code in a worker thread, so an event loop is never blocked.
    """

    def __init__(self, backend: Backend, *, tenant: str, serde: Any = None, owns_backend: bool = True):
        super().__init__(serde=serde)
        self._backend = backend
        self.tenant = check_tenant(tenant)
        self._owns = owns_backend
        self._sql = {name: backend.sql(text) for name, text in SQL.items()}

    # ----------------------------------------------------------------- housekeeping

    def for_tenant(self, tenant: str) -> TableCheckpointSaver:
        """The same storage seen as another tenant (shares the connection); closing it leaves this one open."""
        return type(self)._bound(self._backend, tenant, self.serde)

    @classmethod
    def _bound(cls, backend: Backend, tenant: str, serde: Any) -> TableCheckpointSaver:
        saver = TableCheckpointSaver.__new__(cls)
        TableCheckpointSaver.__init__(saver, backend, tenant=tenant, serde=serde, owns_backend=False)
        return saver

    def close(self) -> None:
        """Let go of the storage (committed checkpoints are already stored)."""
        if self._owns:
            self._backend.close()

    def __enter__(self) -> TableCheckpointSaver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._backend.label}, tenant={self.tenant!r})"

    def get_next_version(self, current: str | int | float | None, channel: None = None) -> str:
        """A version that sorts after `current`, with a random fraction so concurrent forks never collide."""
        if current is None:
            number = 0
        elif isinstance(current, (int, float)):
            number = int(current)
        else:
            number = int(str(current).split(".")[0])
        return f"{number + 1:032}.{random.random():016}"

    # ----------------------------------------------------------------- writing

    def put(self, config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata,
            new_versions: ChannelVersions) -> RunnableConfig:
        """Store one checkpoint: new channel values as blobs, the rest as one row (all in one transaction)."""
        conf = config["configurable"]
        thread_id, ns = str(conf["thread_id"]), conf.get("checkpoint_ns", "")
        body = dict(checkpoint)
        values = body.pop("channel_values", {})
        meta = get_checkpoint_metadata(config, metadata)
        kind, data = self.serde.dumps_typed(body)
        meta_kind, meta_data = self.serde.dumps_typed(meta)
        run_id = meta.get("run_id")
        blobs = [
            (self.tenant, thread_id, ns, channel, str(version),
             *(self.serde.dumps_typed(values[channel]) if channel in values else (_EMPTY, b"")))
            for channel, version in new_versions.items()
        ]
        with self._backend.transaction(self.tenant) as tx:
            if blobs:
                tx.many(self._sql["put_blob"], blobs)
            tx.run(self._sql["put"], (self.tenant, thread_id, ns, checkpoint["id"], conf.get("checkpoint_id"),
                                      kind, data, meta_kind, meta_data, None if run_id is None else str(run_id)))
        return {"configurable": {"thread_id": thread_id, "checkpoint_ns": ns, "checkpoint_id": checkpoint["id"]}}

    def put_writes(self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str,
                   task_path: str = "") -> None:
        """Store a task's writes against a checkpoint; a repeated (task, index) is kept once (special ones replaced)."""
        conf = config["configurable"]
        key = (self.tenant, str(conf["thread_id"]), conf.get("checkpoint_ns", ""), conf["checkpoint_id"])
        plain, special = [], []
        for idx, (channel, value) in enumerate(writes):
            index = WRITES_IDX_MAP.get(channel, idx)
            row = (*key, task_id, index, channel, *self.serde.dumps_typed(value), task_path)
            (special if index < 0 else plain).append(row)
        with self._backend.transaction(self.tenant) as tx:
            if plain:
                tx.many(self._sql["put_write"], plain)
            if special:
                tx.many(self._sql["upsert_write"], special)

    # ----------------------------------------------------------------- reading

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """The checkpoint named by the config, or the thread's latest in that namespace; None when there is none."""
        conf = config["configurable"]
        thread_id, ns = str(conf["thread_id"]), conf.get("checkpoint_ns", "")
        checkpoint_id = get_checkpoint_id(config)
        with self._backend.transaction(self.tenant, write=False) as tx:
            if checkpoint_id:
                row = tx.one(self._sql["one"], (self.tenant, thread_id, ns, checkpoint_id))
            else:
                row = tx.one(self._sql["latest"], (self.tenant, thread_id, ns))
            return None if row is None else self._tuple(tx, row)

    def list(self, config: RunnableConfig | None, *, filter: dict[str, Any] | None = None,
             before: RunnableConfig | None = None, limit: int | None = None) -> Iterator[CheckpointTuple]:
        """Checkpoints newest first, narrowed by thread, namespace, id, `before`, metadata `filter` and `limit`."""
        return iter(self._list(config, filter, before, limit))

    def _list(self, config: RunnableConfig | None, filter: dict[str, Any] | None,
              before: RunnableConfig | None, limit: int | None) -> list[CheckpointTuple]:
        clauses, params = [], [self.tenant]
        conf = (config or {}).get("configurable", {})
        if conf.get("thread_id") is not None:
            clauses.append(" AND thread_id = ?")
            params.append(str(conf["thread_id"]))
        if conf.get("checkpoint_ns") is not None:
            clauses.append(" AND checkpoint_ns = ?")
            params.append(conf["checkpoint_ns"])
        if conf.get("checkpoint_id"):
            clauses.append(" AND checkpoint_id = ?")
            params.append(conf["checkpoint_id"])
        if before is not None and get_checkpoint_id(before):
            clauses.append(" AND checkpoint_id < ?")
            params.append(get_checkpoint_id(before))
        statement = self._sql["list"] + self._backend.sql("".join(clauses)) + " ORDER BY checkpoint_id DESC, thread_id"
        if limit is not None and not filter:
            statement += f" LIMIT {max(int(limit), 0)}"  # an int, formatted as one: never text from the caller
        found: list[CheckpointTuple] = []
        with self._backend.transaction(self.tenant, write=False) as tx:
            for row in tx.all(statement, tuple(params)):
                if limit is not None and len(found) >= limit:
                    break
                if filter:
                    meta = self.serde.loads_typed((row[6], row[7]))
                    if not all(meta.get(k) == v for k, v in filter.items()):
                        continue
                found.append(self._tuple(tx, row))
        return found

    def _tuple(self, tx: Tx, row: Sequence[Any]) -> CheckpointTuple:
        thread_id, ns, checkpoint_id, parent_id, kind, data, meta_kind, meta_data = row
        body = self.serde.loads_typed((kind, bytes(data)))
        values: dict[str, Any] = {}
        for channel, version in body.get("channel_versions", {}).items():
            blob = tx.one(self._sql["blob"], (self.tenant, thread_id, ns, channel, str(version)))
            if blob is not None and blob[0] != _EMPTY:
                values[channel] = self.serde.loads_typed((blob[0], bytes(blob[1])))
        writes = [(task_id, channel, self.serde.loads_typed((wkind, bytes(wdata))))
                  for task_id, channel, wkind, wdata in tx.all(self._sql["writes"],
                                                                (self.tenant, thread_id, ns, checkpoint_id))]
        here = {"thread_id": thread_id, "checkpoint_ns": ns}
        return CheckpointTuple(
            config={"configurable": {**here, "checkpoint_id": checkpoint_id}},
            checkpoint={**body, "channel_values": values},
            metadata=self.serde.loads_typed((meta_kind, bytes(meta_data))),
            parent_config={"configurable": {**here, "checkpoint_id": parent_id}} if parent_id else None,
            pending_writes=writes,
        )

    # ----------------------------------------------------------------- deleting and copying

    def delete_thread(self, thread_id: str) -> None:
        """Erase every checkpoint, value and write of the thread (this tenant's only), in one transaction."""
        with self._backend.transaction(self.tenant) as tx:
            self._delete_thread(tx, str(thread_id))
        self._backend.after_erase()

    def _delete_thread(self, tx: Tx, thread_id: str) -> None:
        for name in ("delete_writes", "delete_blobs", "delete_checkpoints"):
            tx.run(self._sql[name], (self.tenant, thread_id))

    def delete_for_runs(self, run_ids: Sequence[str]) -> None:
        """Erase the checkpoints (and their writes) that these runs created."""
        with self._backend.transaction(self.tenant) as tx:
            for run_id in run_ids:
                for thread_id, ns, checkpoint_id in tx.all(self._sql["run_checkpoints"], (self.tenant, str(run_id))):
                    key = (self.tenant, thread_id, ns, checkpoint_id)
                    tx.run(self._sql["delete_one_writes"], key)
                    tx.run(self._sql["delete_one"], key)
        self._backend.after_erase()

    def copy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        """Copy a thread whole (every checkpoint, value and write) under a new thread id, in one transaction."""
        with self._backend.transaction(self.tenant) as tx:
            for name in ("copy_checkpoints", "copy_blobs", "copy_writes"):
                tx.run(self._sql[name], (str(target_thread_id), self.tenant, str(source_thread_id)))

    def prune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        """`keep_latest`: each namespace keeps its newest checkpoint and the values it uses; `delete`: all goes."""
        if strategy not in PRUNE_STRATEGIES:
            raise CheckpointError(f"unknown prune strategy {strategy!r}; use one of {', '.join(PRUNE_STRATEGIES)}")
        with self._backend.transaction(self.tenant) as tx:
            for thread_id in map(str, thread_ids):
                if strategy == "delete":
                    self._delete_thread(tx, thread_id)
                    continue
                for (ns,) in tx.all(self._sql["namespaces"], (self.tenant, thread_id)):
                    self._keep_latest(tx, thread_id, ns)
        self._backend.after_erase()

    def _keep_latest(self, tx: Tx, thread_id: str, ns: str) -> None:
        latest = tx.one(self._sql["latest"], (self.tenant, thread_id, ns))
        if latest is None:
            return
        for (old,) in tx.all(self._sql["older"], (self.tenant, thread_id, ns, latest[2])):
            tx.run(self._sql["delete_one_writes"], (self.tenant, thread_id, ns, old))
            tx.run(self._sql["delete_one"], (self.tenant, thread_id, ns, old))
        used = {(c, str(v)) for c, v in self.serde.loads_typed((latest[4], bytes(latest[5])))
                .get("channel_versions", {}).items()}
        unused = [(self.tenant, thread_id, ns, c, v) for c, v in tx.all(self._sql["ns_blobs"], (self.tenant, thread_id, ns))
                  if (c, v) not in used]
        if unused:
            tx.many(self._sql["delete_blob"], unused)

    # ----------------------------------------------------------------- async: the same code in a worker thread

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        return await asyncio.to_thread(self.get_tuple, config)

    async def alist(self, config: RunnableConfig | None, *, filter: dict[str, Any] | None = None,
                    before: RunnableConfig | None = None, limit: int | None = None) -> AsyncIterator[CheckpointTuple]:
        for item in await asyncio.to_thread(self._list, config, filter, before, limit):
            yield item

    async def aput(self, config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata,
                   new_versions: ChannelVersions) -> RunnableConfig:
        return await asyncio.to_thread(self.put, config, checkpoint, metadata, new_versions)

    async def aput_writes(self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str,
                          task_path: str = "") -> None:
        await asyncio.to_thread(self.put_writes, config, writes, task_id, task_path)

    async def adelete_thread(self, thread_id: str) -> None:
        await asyncio.to_thread(self.delete_thread, thread_id)

    async def adelete_for_runs(self, run_ids: Sequence[str]) -> None:
        await asyncio.to_thread(self.delete_for_runs, run_ids)

    async def acopy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        await asyncio.to_thread(self.copy_thread, source_thread_id, target_thread_id)

    async def aprune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        await asyncio.to_thread(self.prune, thread_ids, strategy=strategy)


class SQLiteCheckpointSaver(TableCheckpointSaver):
    """Checkpoints in one SQLite file (WAL, full sync, deleted content overwritten with zeros)."""

    def __init__(self, path: Any, *, tenant: str = "local", serde: Any = None, timeout: float = 30.0):
        super().__init__(SQLiteBackend(path, timeout=timeout), tenant=tenant, serde=serde)

    @property
    def path(self) -> str:
        """The file as the caller named it."""
        return self._backend.label


class PostgresCheckpointSaver(TableCheckpointSaver):
    """Checkpoints in PostgreSQL, one tenant per saver, isolated by row-level security (as notebook 5's memories).

    `dsn` is an administrator's (default: `primer_memory.postgres.local_server()`): setup runs with it
    once, then the saver connects as the application role, which owns nothing and cannot bypass RLS, and signs its
    tenant's scope in every transaction (with `app_dsn=`, no setup runs: give the schema's `signing_key=`).
    """

    def __init__(self, dsn: str | None = None, *, tenant: str, schema: str = "primer_checkpoints",
                 serde: Any = None, app_dsn: str | None = None, pool_size: int = 4, signing_key: bytes | None = None):
        super().__init__(PostgresBackend(dsn, schema=schema, app_dsn=app_dsn, pool_size=pool_size,
                                         signing_key=signing_key), tenant=tenant, serde=serde)

    @property
    def schema(self) -> str:
        return self._backend.schema
