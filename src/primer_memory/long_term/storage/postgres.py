"""Long-term memory storage on PostgreSQL + pgvector, isolated by row-level security.

The database, not the application, keeps tenants apart: every table that holds
memory content has row-level security ENABLEd and FORCEd, with one policy
"this row's tenant and user are those of the scope whose signature the database
checked" (`primer_memory.postgres.scope`). The application connects as a role that is neither
superuser, nor owner, nor BYPASSRLS, and every unit of work starts with
`SELECT set_config('app.scope', <signed scope>, true)` (the `true` makes it local
to the transaction, so a pooled connection never carries one caller's scope into
the next). With no scope set every query sees zero rows: it fails closed; a
forged or expired scope stops the statement.

Setup runs as an administrator (the DSN of `primer_memory.postgres.local_server()`
or your own): it creates the extension, the two roles, the schema, applies the
append-only MIGRATIONS and records the version. It is idempotent and serialised
by an advisory lock, so many processes may call it at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from ..records import MemoryRecord, Scope, StoreFileError, WriteConflict
from ..validation import stored_record_problem
from . import NewRecord, TextKey, record_id
from ..lexical import terms
from .pg_lexical import LexicalMixin
from .pg_search import COLUMNS as _COLUMNS
from .pg_search import CURRENT as _CURRENT
from .pg_search import MINE as _MINE
from .pg_search import (  # noqa: F401 - the search statements, importable from here as before
    SQL_HNSW_SETTINGS,
    SQL_SCAN,
    SQL_SEARCH_EXACT,
    SQL_SEARCH_HNSW,
    TIE_BAND,
    HnswSettings,
    SearchMixin,
)
from ...postgres.session import (APP_ROLE, SCOPE_SQL, SessionPins, application_dsn, connect_pool, extension_schema,
                      scope_settings, scoped_transaction, search_path)
from ...postgres.scope import ScopeSigner, SignedScope
from .postgres_schema import (MIGRATIONS, OWNER_ROLE, SCHEMA_VERSION, PostgresSetupError, check_schema, drop_schema,
                              setup, setup_store, table_names)

__all__ = [
    "APP_ROLE",
    "HnswSettings",
    "MIGRATIONS",
    "OWNER_ROLE",
    "SCOPE_SQL",
    "SCHEMA_VERSION",
    "PostgresStore",
    "ScopeSigner",
    "SignedScope",
    "PostgresSetupError",
    "application_dsn",
    "connect_pool",
    "drop_schema",
    "scope_settings",
    "scoped_transaction",
    "setup",
    "setup_store",
    "table_names",
]

SQL_ERASURES = "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM {s}.erasures"
SQL_COUNT_ERASURE = "SELECT nextval('{s}.erasures')"
SQL_SCOPE = f"SELECT next_seq, generation FROM {{s}}.scopes WHERE {_MINE}"
SQL_LOCK_SCOPE = (  # creates the scope's row or takes its lock: writes to one scope queue up, across processes
    "INSERT INTO {s}.scopes (tenant_id, user_id, next_seq, generation) VALUES (%(t)s, %(u)s, 1, %(g)s)"
    " ON CONFLICT (tenant_id, user_id) DO UPDATE SET next_seq = {s}.scopes.next_seq RETURNING next_seq, generation"
)
SQL_SET_NEXT_SEQ = f"UPDATE {{s}}.scopes SET next_seq = %(n)s WHERE {_MINE}"
SQL_RECORDS = f"SELECT {_COLUMNS} FROM {{s}}.records WHERE {_MINE} ORDER BY seq"
SQL_KEY_RECORDS = f"SELECT {_COLUMNS} FROM {{s}}.records WHERE {_MINE} AND key = %(key)s ORDER BY seq"
SQL_GET = f"SELECT {_COLUMNS} FROM {{s}}.records WHERE {_MINE} AND id = %(id)s"
SQL_LOOKUP = (
    f"SELECT {_COLUMNS} FROM {{s}}.records WHERE {_MINE} AND {_CURRENT}"
    " AND (key = ANY(%(keys)s) OR content = ANY(%(texts)s)) ORDER BY seq"
)
SQL_INSERT = (
    "INSERT INTO {s}.records (tenant_id, user_id, seq, id, kind, content, key, source, superseded_by,"
    " importance, created_at, last_access, embedding, provenance, terms)"
    " VALUES (%(t)s, %(u)s, %(seq)s, %(id)s, %(kind)s, %(content)s, %(key)s, %(source)s, %(sup)s,"
    " %(importance)s, %(created)s, %(created)s, %(vec)s, %(provenance)s, %(terms)s)"
)
SQL_SUPERSEDE = f"UPDATE {{s}}.records SET superseded_by = %(sup)s WHERE {_MINE} AND id = %(id)s AND {_CURRENT}"
SQL_TOUCH = f"UPDATE {{s}}.records SET last_access = %(when)s WHERE {_MINE} AND id = ANY(%(ids)s)"
SQL_LOCK_RECORD = f"SELECT {_COLUMNS} FROM {{s}}.records WHERE {_MINE} AND id = %(id)s FOR UPDATE"
SQL_DELETE = f"DELETE FROM {{s}}.records WHERE {_MINE} AND id = %(id)s"
SQL_TOMBSTONE = (
    f"UPDATE {{s}}.records SET content = '', embedding = NULL, terms = NULL, forgotten = true"
    f" WHERE {_MINE} AND id = %(id)s"
)
SQL_DELETE_USER = f"DELETE FROM {{s}}.records WHERE {_MINE}"
SQL_DELETE_SCOPE = f"DELETE FROM {{s}}.scopes WHERE {_MINE}"

# --------------------------------------------------------------------------- the backend


class PostgresStore(SearchMixin, LexicalMixin):
    """The `MemoryStore` protocol on PostgreSQL: every call is one transaction, bound to the caller's scope by RLS.

    Nothing is cached between calls, so many application processes can share one
    server. `dsn` is an administrator's (for setup; default: `local_server()`);
    the store then connects as the application role. Each unit of work carries the
    caller's scope signed by `signer` (the key setup provisioned); with `app_dsn=` (no
    setup) give that key as `signing_key=`. Search is exact over the partition while it
    holds at most `exact_limit` records, else HNSW with `hnsw` (`HnswSettings`: ef_search,
    iterative scan, max_scan_tuples); search and explain live in `pg_search.SearchMixin`.
    """

    label = "PostgreSQL"
    durable = True

    def __init__(
        self,
        dsn: str | None = None,
        *,
        embedder_name: str,
        dim: int,
        schema: str = "primer_memory",
        app_dsn: str | None = None,
        app_password: str | None = None,
        exact_limit: int = 100_000,
        pool_size: int = 4,
        signing_key: bytes | None = None,
        hnsw: HnswSettings | None = None,
    ):
        import os

        from ...postgres import APP_PASSWORD_VARIABLE, local_server

        if app_dsn is None:
            admin = local_server() if dsn is None else dsn
            password = app_password or os.environ.get(APP_PASSWORD_VARIABLE) or None
            _, signing_key = setup_store(admin, schema=schema, dim=dim, embedder_name=embedder_name,
                                         app_password=password)
            app_dsn = application_dsn(admin, app_password=password)
        elif signing_key is None:
            raise PostgresSetupError("with app_dsn= (no setup run here) give the schema's signing key as signing_key=; "
                                     "read it as the administrator with primer_memory.postgres.scope.read_signing_key(admin_dsn, schema)")
        self.signer = ScopeSigner(signing_key)
        self.dim, self.schema, self.exact_limit = dim, check_schema(schema), exact_limit
        if hnsw is not None and not isinstance(hnsw, HnswSettings):
            raise ValueError(f"hnsw must be HnswSettings(ef_search=..., ...), got {hnsw!r}")
        self.hnsw = hnsw or HnswSettings()
        self._sql: dict[str, Any] = {}
        try:
            self.pool = connect_pool(app_dsn, max_size=pool_size)
        except Exception as exc:  # psycopg_pool reports a failed login as a timeout: say what to check
            raise PostgresSetupError(f"the application role could not connect ({type(exc).__name__}: {exc}); on a "
                                     "server that wants passwords set PRIMER_PG_APP_PASSWORD") from exc
        with self.pool.connection() as conn:
            bypass = conn.execute("SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user")
            if bypass.fetchone()[0]:
                self.pool.close()
                raise PostgresSetupError("the application connected as a role that bypasses row-level security; "
                                         f"connect as {APP_ROLE} (give the administrator DSN as dsn=)")
            self.pins = SessionPins(search_path=search_path(self.schema, *extension_schema(conn)))

    def __repr__(self) -> str:
        return f"PostgresStore(schema={self.schema!r})"

    def q(self, template: str) -> Any:
        """A statement of this module with the store's schema filled in (composed once, then reused)."""
        composed = self._sql.get(template)
        if composed is None:
            from psycopg import sql

            composed = self._sql[template] = sql.SQL(template).format(s=sql.Identifier(self.schema))
        return composed

    def _unit(self, scope: Scope) -> Any:
        return scoped_transaction(self.pool, self.signer, scope, self.pins)

    def _record(self, scope: Scope, row: Sequence[Any]) -> MemoryRecord:
        rid, seq, kind, content, key, source, sup, imp, created, last, gone, origin = row[:12]
        record = MemoryRecord(rid, scope, kind, content, key, source, seq, sup, imp, created, last, gone, origin)
        problem = stored_record_problem(record)  # the rules of a write: a row edited in SQL is reported, not recalled
        if problem is not None:
            raise StoreFileError(f"schema {self.schema!r} holds a damaged record ({scope}, seq {seq!r}): {problem}. "
                                 "It was changed outside this library; nothing was returned or changed")
        return record

    # ----------------------------------------------------------------- reading

    def records(self, scope: Scope, key: str | None = None) -> list[MemoryRecord]:
        params = {"t": scope.tenant_id, "u": scope.user_id, "key": key}
        with self._unit(scope) as conn:
            rows = conn.execute(self.q(SQL_RECORDS if key is None else SQL_KEY_RECORDS), params).fetchall()
        return [self._record(scope, row) for row in rows]

    def get(self, scope: Scope, record_id: str) -> MemoryRecord | None:
        with self._unit(scope) as conn:
            row = conn.execute(self.q(SQL_GET), {"t": scope.tenant_id, "u": scope.user_id, "id": record_id}).fetchone()
        return None if row is None else self._record(scope, row)

    def lookup(
        self, scope: Scope, keys: Iterable[str], texts: Iterable[TextKey]
    ) -> tuple[dict[str, MemoryRecord], dict[TextKey, MemoryRecord]]:
        keys, texts = list(keys), list(texts)
        if not keys and not texts:
            return {}, {}
        params = {"t": scope.tenant_id, "u": scope.user_id, "keys": keys, "texts": [c for _, _, c in texts]}
        with self._unit(scope) as conn:
            rows = [self._record(scope, row) for row in conn.execute(self.q(SQL_LOOKUP), params)]
        wanted_keys, wanted_texts = set(keys), set(texts)
        by_key = {r.key: r for r in rows if r.key is not None and r.key in wanted_keys}
        by_text = {t: r for r in rows if (t := (r.kind, r.key, r.content)) in wanted_texts}
        return by_key, by_text

    def last_seq(self, scope: Scope) -> int:
        with self._unit(scope) as conn:
            row = conn.execute(self.q(SQL_SCOPE), {"t": scope.tenant_id, "u": scope.user_id}).fetchone()
        return 0 if row is None else int(row[0]) - 1

    # ----------------------------------------------------------------- writing

    def write(self, scope: Scope, new: Sequence[NewRecord], vectors: np.ndarray) -> list[MemoryRecord]:
        from psycopg.errors import UniqueViolation

        mine = {"t": scope.tenant_id, "u": scope.user_id}
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        with self._unit(scope) as conn:
            generation = conn.execute(self.q(SQL_ERASURES)).fetchone()[0]
            seq, generation = conn.execute(self.q(SQL_LOCK_SCOPE), {**mine, "g": generation}).fetchone()
            made: list[MemoryRecord] = []
            for plan in new:
                when = float(seq) if plan.created_at is None else plan.created_at
                made.append(MemoryRecord(record_id(scope, seq, generation), scope, plan.kind, plan.content, plan.key,
                                         plan.source, seq, None, plan.importance, when, when,
                                         provenance=plan.provenance))
                seq += 1
            superseded: dict[str, str] = {}
            for plan, record in zip(new, made):
                if isinstance(plan.supersedes, int):
                    superseded[made[plan.supersedes].id] = record.id
                elif plan.supersedes is not None:
                    superseded[plan.supersedes] = record.id
            made = [replace(r, superseded_by=superseded.get(r.id)) for r in made]
            fresh = {r.id for r in made}
            for old, sup in superseded.items():  # first: the old value stops being current
                if old in fresh:  # superseded within this batch: inserted with its link already
                    continue
                if conn.execute(self.q(SQL_SUPERSEDE), {**mine, "sup": sup, "id": old}).rowcount != 1:
                    raise WriteConflict(f"record {old!r} is no longer current in {scope}; write again")
            try:
                with conn.cursor() as cur:
                    cur.executemany(self.q(SQL_INSERT), [
                        {**mine, "seq": r.seq, "id": r.id, "kind": r.kind, "content": r.content, "key": r.key,
                         "source": r.source, "sup": r.superseded_by, "importance": r.importance,
                         "created": r.created_at, "vec": vectors[i], "provenance": r.provenance,
                         "terms": terms(r.content)}
                        for i, r in enumerate(made)
                    ])
            except UniqueViolation as exc:
                raise WriteConflict(f"another writer stored a current value for the same key or text in {scope} "
                                    "meanwhile; nothing was written, write again") from exc
            conn.execute(self.q(SQL_SET_NEXT_SEQ), {**mine, "n": seq})
        return made

    def touch(self, scope: Scope, record_ids: Sequence[str], when: float) -> None:
        with self._unit(scope) as conn:
            conn.execute(self.q(SQL_TOUCH), {"t": scope.tenant_id, "u": scope.user_id, "when": when,
                                             "ids": list(record_ids)})

    def forget(self, scope: Scope, record_id: str, *, tombstone: bool) -> MemoryRecord | None:
        params = {"t": scope.tenant_id, "u": scope.user_id, "id": record_id}
        with self._unit(scope) as conn:
            row = conn.execute(self.q(SQL_LOCK_RECORD), params).fetchone()
            if row is None:
                return None
            conn.execute(self.q(SQL_TOMBSTONE if tombstone else SQL_DELETE), params)
        return self._record(scope, row)

    def delete_user(self, scope: Scope) -> int:
        params = {"t": scope.tenant_id, "u": scope.user_id}
        with self._unit(scope) as conn:
            count = conn.execute(self.q(SQL_DELETE_USER), params).rowcount
            conn.execute(self.q(SQL_DELETE_SCOPE), params)
            conn.execute(self.q(SQL_COUNT_ERASURE))
        return count

    def close(self) -> None:
        self.pool.close()

