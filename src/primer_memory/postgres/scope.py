"""A scope the application role cannot forge: tenant and user signed with a key only the administrator can read.

Row-level security keyed on a plain setting (`set_config('app.tenant_id', ...)`) stops a
forgotten or wrong WHERE clause, but not SQL that can set the value itself: injected text
running as the application role calls `set_config` too. So the setting holds a *signed*
scope (tenant, user, expiry, HMAC-SHA256), and every policy asks `{s}.signed_scope()`, a
SECURITY DEFINER function owned by the schema's owner, to check the signature with a key
kept in a table the application role may not read. Injected SQL can read the caller's own
token, never make one for another tenant. As PostgREST and Supabase verify a JWT's claims
before SQL runs; built-in `sha256()` only (pgcrypto is not needed).

A token is also bound to the one transaction it was signed for: the signature covers the
server process and the transaction's start time (`TRANSACTION_SQL`, read at the start of each
unit of work), and the check compares both. A token copied out of its transaction (read by
injected SQL, left in a session, logged) is refused in every other transaction, on this
connection or any other, before it expires.

The process that authenticates requests holds the key (`ScopeSigner`) and signs each
caller's scope; the database role the application logs in as never sees it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "APP_ROLE",
    "DEFAULT_TTL",
    "OWNER_ROLE",
    "SCOPE_SETTING",
    "SCOPE_SQL",
    "SIGNED_POLICY",
    "TENANT_NOT_EMPTY",
    "TENANT_POLICY",
    "TRANSACTION_ID",
    "TRANSACTION_SQL",
    "ScopeSigner",
    "SignedScope",
    "UnsignableScope",
    "application_dsn",
    "drop_schema",
    "NOT_EMPTY",
    "install_signed_scope",
    "new_key",
    "read_signing_key",
    "secure_table",
]

APP_ROLE = "primer_app"
"""The role the application logs in as: LOGIN, NOSUPERUSER, NOBYPASSRLS, owns nothing, cannot read the key."""
OWNER_ROLE = "primer_owner"
"""Owns the schemas, tables, key and verifying function (NOLOGIN); FORCE ROW LEVEL SECURITY binds even it."""

SCOPE_SETTING = "app.scope"
SCOPE_SQL = "SELECT set_config('app.scope', %s, true)"
"""Sets the caller's signed scope, local to this transaction (after `TRANSACTION_SQL` named the transaction)."""
TRANSACTION_ID = "pg_backend_pid(), (extract(epoch FROM transaction_timestamp()) * 1000000)::bigint"
TRANSACTION_SQL = f"SELECT {TRANSACTION_ID}"
"""This transaction, as the check sees it: the server process and the transaction's start in microseconds."""
DEFAULT_TTL = 300.0
"""Seconds a signed scope stays valid (checked against the server's clock at the start of each transaction)."""
_VERSION = "v2"

SIGNED_POLICY = "(tenant_id, user_id) = (SELECT v.tenant_id, v.user_id FROM {s}.signed_scope() v)"
"""Each row is visible and writable only in the scope whose signature the database checked (once a statement)."""
NOT_EMPTY = "CHECK (tenant_id <> '' AND user_id <> '')"
TENANT_POLICY = "tenant_id = (SELECT v.tenant_id FROM {s}.signed_scope() v)"
"""For rows that belong to a tenant and no user (the LangGraph checkpointer's): the signed tenant alone decides."""
TENANT_NOT_EMPTY = "CHECK (tenant_id <> '')"


class UnsignableScope(ValueError):
    """A scope the signer refuses: an empty or non-string tenant or user, or a key too short to be secret."""


@dataclass(frozen=True)
class SignedScope:
    """Whose rows a transaction may touch, with the signature the database checks; the token is a bearer secret."""

    tenant_id: str
    user_id: str
    expires: int
    token: str = field(repr=False)

    def __str__(self) -> str:
        return f"{self.tenant_id}/{self.user_id} (signed)"


def _message(tenant_id: str, user_id: str, expires: int, transaction: tuple[int, int]) -> str:
    """What is signed: version, expiry, the transaction (server process, start in microseconds) and both names as
    hex (no separator inside a name can shift a field)."""
    backend, started = transaction
    return f"{_VERSION}.{expires}.{int(backend)}.{int(started)}.{tenant_id.encode().hex()}.{user_id.encode().hex()}"


class ScopeSigner:
    """Signs scopes with the store's key (HMAC-SHA256); held by the process that authenticates callers."""

    def __init__(self, key: bytes, *, ttl: float = DEFAULT_TTL, clock: Any = time.time):
        if not isinstance(key, bytes) or len(key) < 32:
            raise UnsignableScope("the signing key must be at least 32 random bytes (setup provisions one)")
        if not ttl > 0:
            raise UnsignableScope(f"ttl must be a positive number of seconds, got {ttl!r}")
        self._key, self.ttl, self._clock = key, float(ttl), clock

    def __repr__(self) -> str:  # never the key
        return f"ScopeSigner(ttl={self.ttl:g})"

    def __reduce__(self) -> Any:
        raise TypeError("a ScopeSigner holds the signing key and is not pickled; pass the key explicitly")

    def check(self, scope: Any) -> tuple[str, str]:
        """The scope's (tenant_id, user_id) if it can be signed; UnsignableScope if a part is empty or not a str."""
        tenant, user = getattr(scope, "tenant_id", None), getattr(scope, "user_id", None)
        for part, value in (("tenant_id", tenant), ("user_id", user)):
            if type(value) is not str or not value:
                raise UnsignableScope(f"{part} must be a non-empty string to be signed, got {value!r}: an unset "
                                      "scope is refused, never signed")
        return tenant, user  # type: ignore[return-value]

    def sign(self, scope: Any, transaction: tuple[int, int], *, ttl: float | None = None) -> SignedScope:
        """The caller's scope (anything with tenant_id and user_id), signed for one transaction (what
        `TRANSACTION_SQL` returned in it) and to expire `ttl` seconds from now."""
        tenant, user = self.check(scope)
        if (not isinstance(transaction, tuple) or len(transaction) != 2
                or not all(type(n) is int for n in transaction)):
            raise UnsignableScope(f"a scope is signed for one transaction: give what TRANSACTION_SQL returned in it "
                                  f"(server process, start), got {transaction!r:.60}")
        expires = int(self._clock() + (self.ttl if ttl is None else ttl)) + 1
        message = _message(tenant, user, expires, transaction)
        mac = hmac.new(self._key, message.encode(), hashlib.sha256).hexdigest()
        return SignedScope(tenant, user, expires, f"{message}.{mac}")

    def bind(self, conn: Any, scope: Any, *, ttl: float | None = None) -> SignedScope:
        """Sign the scope for the transaction `conn` is in, and set it there (two statements, one round trip each)."""
        transaction = tuple(conn.execute(TRANSACTION_SQL).fetchone())
        signed = self.sign(scope, transaction, ttl=ttl)  # type: ignore[arg-type]
        conn.execute(SCOPE_SQL, (signed.token,))
        return signed


def new_key() -> bytes:
    """32 bytes from the operating system's random source."""
    return secrets.token_bytes(32)


# --------------------------------------------------------------------------- in the database

# Standard HMAC (RFC 2104): the key's ipad/opad blocks are computed once, in SQL, when the key is stored.
_DDL = (
    "CREATE TABLE {s}.scope_key (one boolean PRIMARY KEY DEFAULT true CHECK (one),"
    " key bytea NOT NULL CHECK (length(key) >= 32), inner_pad bytea NOT NULL, outer_pad bytea NOT NULL)",
    """CREATE FUNCTION {s}.hmac_pad(key bytea, pad integer) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
      SELECT decode(string_agg(lpad(to_hex(get_byte(p.k, i) # pad), 2, '0'), '' ORDER BY i), 'hex')
      FROM (SELECT CASE WHEN length(key) > 64 THEN sha256(key) ELSE key END AS k0) s,
           LATERAL (SELECT s.k0 || decode(repeat('00', 64 - length(s.k0)), 'hex') AS k) p,
           generate_series(0, 63) AS i
    $$""",
    """CREATE FUNCTION {s}.hmac_sha256(key bytea, msg bytea) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
      SELECT sha256({s}.hmac_pad(key, 92) || sha256({s}.hmac_pad(key, 54) || msg))
    $$""",
)
# Returns (NULL, NULL) when no scope is set or a part is empty: no rows. A token that is present but not signed with
# this key, expired, malformed, or signed for another transaction is an error: someone is trying, and it stops.
# Created or replaced at every setup, so a schema made for an older token format checks the current one.
_CHECK = (
    """CREATE OR REPLACE FUNCTION {s}.signed_scope(OUT tenant_id text, OUT user_id text)
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    DECLARE
      token text := current_setting('app.scope', true);
      parts text[];
      pads record;
    BEGIN
      IF token IS NULL OR token = '' THEN
        RETURN;
      END IF;
      parts := string_to_array(token, '.');
      -- only the shape the signature needs: every other field is read after the signature proved the signer wrote it
      -- (no regular expressions: they were most of this function's time)
      IF cardinality(parts) <> 7 OR parts[1] <> 'v2' OR length(parts[7]) <> 64
         OR translate(parts[7], '0123456789abcdef', '') <> '' THEN
        RAISE EXCEPTION 'the scope in app.scope is not a signed scope' USING ERRCODE = 'insufficient_privilege';
      END IF;
      SELECT k.inner_pad, k.outer_pad INTO pads FROM {s}.scope_key k;
      -- compare digests of both MACs: how long the comparison takes says nothing about the right one
      IF pads IS NULL OR sha256(sha256(pads.outer_pad || sha256(pads.inner_pad
             || convert_to(array_to_string(parts[1:6], '.'), 'UTF8')))) <> sha256(decode(parts[7], 'hex')) THEN
        RAISE EXCEPTION 'the scope in app.scope is not signed with this schema''s key'
          USING ERRCODE = 'insufficient_privilege';
      END IF;
      IF parts[2]::bigint <= extract(epoch FROM now()) THEN
        RAISE EXCEPTION 'the signed scope expired; sign the caller''s scope again'
          USING ERRCODE = 'insufficient_privilege';
      END IF;
      IF parts[3] <> pg_backend_pid()::text
         OR parts[4] <> ((extract(epoch FROM transaction_timestamp()) * 1000000)::bigint)::text THEN
        RAISE EXCEPTION 'the signed scope was made for another transaction; sign the caller''s scope for this one'
          USING ERRCODE = 'insufficient_privilege';
      END IF;
      IF parts[5] = '' OR parts[6] = '' THEN
        RETURN;
      END IF;
      tenant_id := convert_from(decode(parts[5], 'hex'), 'UTF8');
      user_id := convert_from(decode(parts[6], 'hex'), 'UTF8');
    END $$""",
    "REVOKE ALL ON FUNCTION {s}.signed_scope() FROM PUBLIC",
)


def install_signed_scope(cur: Any, schema: str, *, owner_role: str = OWNER_ROLE, app_role: str = APP_ROLE) -> bytes:
    """Create the key table and functions in `schema` (once), let `app_role` call the check; return the key.

    Runs as an administrator inside setup's transaction; the objects are created by and owned by `owner_role`.
    """
    from psycopg import sql

    quoted = sql.Identifier(schema).as_string(cur)
    cur.execute(sql.SQL("SET LOCAL ROLE {}").format(sql.Identifier(owner_role)))
    if cur.execute("SELECT to_regclass(%s) IS NULL", (f"{quoted}.scope_key",)).fetchone()[0]:
        for statement in _DDL:
            cur.execute(statement.replace("{s}", quoted).encode())
        cur.execute(f"INSERT INTO {quoted}.scope_key (key, inner_pad, outer_pad)"
                    f" VALUES (%(k)s, {quoted}.hmac_pad(%(k)s, 54), {quoted}.hmac_pad(%(k)s, 92))".encode(),
                    {"k": new_key()})
    for statement in _CHECK:
        cur.execute(statement.replace("{s}", quoted).encode())
    cur.execute(sql.SQL("GRANT EXECUTE ON FUNCTION {}.signed_scope() TO {}").format(
        sql.Identifier(schema), sql.Identifier(app_role)))
    key = cur.execute(f"SELECT key FROM {quoted}.scope_key".encode()).fetchone()[0]
    cur.execute("RESET ROLE")
    return bytes(key)


def read_signing_key(admin_dsn: str, schema: str) -> bytes:
    """The schema's signing key, read as the administrator (for a process that signs scopes but ran no setup)."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        return bytes(admin.execute(sql.SQL("SELECT key FROM {}.scope_key").format(sql.Identifier(schema))).fetchone()[0])


def secure_table(cur: Any, schema: str, table: str, *, policy: str = "signed_scope", check: str = SIGNED_POLICY,
                 not_empty: str = NOT_EMPTY) -> None:
    """ENABLE and FORCE row-level security on `table` with a signed-scope policy (`check`; replacing any older
    policy), and refuse empty tenants and users (`not_empty`). Does nothing (takes no lock) when already so."""
    from psycopg import sql

    ident = sql.Identifier
    target = sql.SQL("{}.{}").format(ident(schema), ident(table))
    regclass = target.as_string(cur)
    enabled, forced = cur.execute("SELECT relrowsecurity, relforcerowsecurity FROM pg_class WHERE oid = %s::regclass",
                                  (regclass,)).fetchone()
    if not enabled:
        cur.execute(sql.SQL("ALTER TABLE {} ENABLE ROW LEVEL SECURITY").format(target))
    if not forced:
        cur.execute(sql.SQL("ALTER TABLE {} FORCE ROW LEVEL SECURITY").format(target))
    old = [name for (name,) in cur.execute("SELECT polname FROM pg_policy WHERE polrelid = %s::regclass",
                                           (regclass,)).fetchall()]
    for name in old:
        if name != policy:
            cur.execute(sql.SQL("DROP POLICY {} ON {}").format(ident(name), target))
    if policy not in old:
        condition = sql.SQL(check).format(s=ident(schema))
        cur.execute(sql.SQL("CREATE POLICY {} ON {} USING ({}) WITH CHECK ({})").format(
            ident(policy), target, condition, condition))
    name = f"{table}_scope_not_empty"
    if not cur.execute("SELECT 1 FROM pg_constraint WHERE conrelid = %s::regclass AND conname = %s",
                       (regclass, name)).fetchone():
        cur.execute(sql.SQL("ALTER TABLE {} ADD CONSTRAINT {} " + not_empty).format(target, ident(name)))


def hide_from_statistics(cur: Any, schema: str, relation: str, columns: tuple[str, ...]) -> None:
    """Statistics target 0 on these columns of a table or index: ANALYZE never samples their values.

    Once set, nothing is locked again. Statistics gathered before stay until `clear_statistics` (erasure does it).
    """
    from psycopg import sql

    target = sql.SQL("{}.{}").format(sql.Identifier(schema), sql.Identifier(relation))
    rows = cur.execute("SELECT c.relkind, a.attnum, a.attname, a.attstattarget FROM pg_attribute a"
                       " JOIN pg_class c ON c.oid = a.attrelid WHERE a.attrelid = %s::regclass AND a.attnum > 0",
                       (target.as_string(cur),)).fetchall()
    for kind, number, name, stattarget in rows:
        if name in columns and stattarget != 0:
            column = sql.Identifier(name) if kind == "r" else sql.Literal(number)  # an index column goes by number
            verb = "ALTER TABLE" if kind == "r" else "ALTER INDEX"
            cur.execute(sql.SQL(verb + " {} ALTER COLUMN {} SET STATISTICS 0").format(target, column))


def clear_statistics(cur: Any, schema: str, relation: str, columns: tuple[str, ...]) -> None:
    """Remove what ANALYZE kept of these columns (PostgreSQL 18's pg_clear_attribute_stats)."""
    for column in columns:
        cur.execute("SELECT pg_clear_attribute_stats(%s, %s, %s, false)", (schema, relation, column))


class PostgresSetupError(RuntimeError):
    """The server cannot host the store: no pgvector, a foreign schema, a newer version, another embedder."""


def ensure_role(cur: Any, role: str, login: bool, password: str | None) -> None:
    """Create the role if missing; refuse one that exists with powers that would defeat RLS (never alter those)."""
    from psycopg import sql

    row = cur.execute("SELECT rolsuper, rolbypassrls, rolcanlogin FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
    if row is None:  # new roles are NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE by default
        cur.execute(sql.SQL("CREATE ROLE {} " + ("LOGIN" if login else "NOLOGIN")).format(sql.Identifier(role)))
    elif row[0] or row[1]:
        raise PostgresSetupError(f"role {role} exists and is a superuser or BYPASSRLS: row-level security would not "
                                 "bind it. Drop it, or pass other role names to setup()")
    elif row[2] != login:
        cur.execute(sql.SQL("ALTER ROLE {} " + ("LOGIN" if login else "NOLOGIN")).format(sql.Identifier(role)))
    if password is not None:  # ALTER ROLE takes no bind parameters; Literal quotes it safely
        cur.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(sql.Identifier(role), sql.Literal(password)))


def own_schema(cur: Any, schema: str, *, owner_role: str = OWNER_ROLE, app_role: str = APP_ROLE,
               app_password: str | None = None) -> None:
    """The two roles, and `schema` owned by `owner_role` (created if missing; a schema someone else owns is refused)."""
    from psycopg import sql

    ensure_role(cur, owner_role, login=False, password=None)
    ensure_role(cur, app_role, login=True, password=app_password)
    if not cur.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()[0]:
        cur.execute(sql.SQL("GRANT {} TO CURRENT_USER").format(sql.Identifier(owner_role)))  # a managed admin
    cur.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {} AUTHORIZATION {}").format(
        sql.Identifier(schema), sql.Identifier(owner_role)))
    owner = cur.execute("SELECT nspowner::regrole::text FROM pg_namespace WHERE nspname = %s", (schema,)).fetchone()
    if owner is None or owner[0] != owner_role:
        raise PostgresSetupError(f"schema {schema!r} exists and is owned by {owner[0] if owner else '?'}, "
                                 f"not {owner_role}; pick another schema name")
    cur.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(sql.Identifier(schema), sql.Identifier(app_role)))


def drop_schema(admin_dsn: str, schema: str) -> None:
    """Remove a schema and everything in it, as the administrator (tests, notebooks and benchmarks clean up so)."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def application_dsn(admin_dsn: str, *, app_role: str = APP_ROLE, app_password: str | None = None) -> str:
    """The administrator's DSN with the application role as the user (same host, port and database)."""
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    params = conninfo_to_dict(admin_dsn)
    params.pop("password", None)
    if app_password is not None:
        params["password"] = app_password
    params["user"] = app_role
    return make_conninfo(**params)
