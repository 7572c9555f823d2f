"""Notebook 5's exercises: the row policy, the per-transaction scope, where erased text still lives, and HNSW recall."""

from __future__ import annotations

from typing import Any

from ._core import Exercise, register

__all__ = ["ERASURE_COPIES", "ForgedScope", "RECALL_CASES", "SCOPE_STATEMENTS", "recall_at_k", "row_visible", "verify"]


# --------------------------------------------------------------------------- 5.1: the signed-scope policy, in Python


class ForgedScope(Exception):
    """What the database's check raises for a scope that is present but not genuine (forged, expired, or signed for
    another transaction): the statement stops with an error."""


GENUINE = {"v2.c0ffee.acme.alice": ("acme", "alice"), "v2.beef01.acme.al": ("acme", "al"),
           "v2.f00d42.globex.carol": ("globex", "carol")}
"""Tokens a signer made, and the scope each carries (the real ones are HMAC-signed; here they are only opaque)."""


def verify(token: str) -> tuple[str, str]:
    """The database's `signed_scope()`, in Python: the (tenant, user) a genuine token carries; ForgedScope otherwise."""
    if token not in GENUINE:
        raise ForgedScope(f"the scope {token!r:.30} is not signed with this schema's key")
    return GENUINE[token]


def row_visible(row_tenant: str, row_user: str, settings: dict[str, str], verify: Any) -> bool:
    """May this transaction see this row? Only a genuine signed scope decides, and it must match both parts exactly.

    The plain settings (app.tenant_id, app.user_id) are anybody's to set: they decide nothing. No scope: no rows.
    A scope that is not genuine raises (verify's ForgedScope): the statement stops, it does not read as 'no rows'.
    """
    token = settings.get("app.scope")
    if not token:
        return False
    tenant, user = verify(token)
    return bool(tenant) and bool(user) and (row_tenant, row_user) == (tenant, user)


_ROWS = [("acme", "alice"), ("acme-corp", "alice"), ("ACME", "alice"), ("acme", "al"), ("%", "%"), ("globex", "carol"),
         ("", "")]  # a row written with no scope: plain equality would show it to every caller with none
_PLANTED = {"app.tenant_id": "acme", "app.user_id": "alice"}  # what injected SQL sets with set_config
_SETTINGS: list[tuple[str, dict[str, str]]] = [
    ("no scope set", {}),
    ("no scope set (an earlier transaction's ended: '')", {"app.scope": ""}),
    ("no signed scope, and app.tenant_id/app.user_id set to acme/alice by injected SQL", dict(_PLANTED)),
    ("acme/alice's signed scope", {"app.scope": "v2.c0ffee.acme.alice"}),
    ("acme/al's signed scope", {"app.scope": "v2.beef01.acme.al"}),
    ("globex/carol's signed scope, and app.tenant_id/app.user_id set to acme/alice by injected SQL",
     {"app.scope": "v2.f00d42.globex.carol", **_PLANTED}),
    ("a forged scope for acme/alice", {"app.scope": "v2.000000.acme.alice"}),
]


def _expected(row: tuple[str, str], settings: dict[str, str]) -> bool | None:
    """The reference answer; None where it must raise ForgedScope."""
    try:
        return row_visible(*row, settings, verify)
    except ForgedScope:
        return None


def _row_name(row: tuple[str, str]) -> str:
    """A row as the feedback names it; the row written with no scope has empty parts, shown as such."""
    return f"row {row[0]}/{row[1]}" if all(row) else "the row written with no scope (tenant '' and user '')"


def _check_policy(answer: Any) -> bool:
    if not callable(answer):
        print(f"Not yet: give a function row_visible(row_tenant, row_user, settings, verify); "
              f"got {type(answer).__name__}")
        return False
    for row in _ROWS:
        for label, settings in _SETTINGS:
            expected = _expected(row, settings)
            try:
                got = answer(*row, dict(settings), verify)
            except ForgedScope:
                if expected is None:
                    continue
                print(f"Not yet: {_row_name(row)} with {label}: your policy raised ForgedScope, but that scope "
                      "is genuine (or there is none). Call verify only on a non-empty app.scope.")
                return False
            if expected is None:
                print(f"Not yet: with {label}, your policy answered {got!r} instead of stopping. verify raises "
                      "ForgedScope for a scope that is not genuine: let it propagate. An attack that reads as "
                      "'no rows' looks like an empty result, and nobody hears of it.")
                return False
            if not isinstance(got, bool):
                print(f"Not yet: a policy answers True or False; for {_row_name(row)} yours returned "
                      f"{type(got).__name__} {got!r:.60}. (bool(...) turns a value into one.)")
                return False
            if got is not expected:
                print(f"Not yet: {_row_name(row)} with {label}: expected {expected}, your policy said {got!r}.")
                if got and "injected" in label:
                    print("app.tenant_id and app.user_id are plain settings: injected SQL sets them with set_config. "
                          "Only the scope verify returns may decide.")
                elif got and not settings.get("app.scope"):
                    print("With no scope set there must be no rows: a policy that shows this row leaks it to a "
                          "caller who has not said who they are.")
                elif got:
                    print("A policy that shows this row leaks it to another caller: both parts must match exactly "
                          "(no prefix, no case folding).")
                return False
    print(f"Right on all {len(_ROWS) * len(_SETTINGS)} cases: only a genuine signed scope decides, both parts match "
          "exactly, no scope means no rows, and a forged scope stops the statement.")
    print("In SQL the policy is (tenant_id, user_id) = (SELECT ... FROM signed_scope()): the check runs once a "
          "statement, as the schema's owner, with a key the application role cannot read.")
    return True


register(Exercise(
    id="5.1",
    title="write the signed-scope policy",
    checker=_check_policy,
    hints=("Read settings['app.scope'] (it may be missing or ''); a missing or empty scope means no rows. Never read "
           "app.tenant_id: injected SQL can set it.",
           "Ask verify(token) for (tenant, user) and let its ForgedScope propagate; then both parts must match the "
           "row's exactly: no startswith, no lower()."),
    solution=row_visible,
    notes=("current_setting('app.scope', true) returns NULL when the setting was never made, and '' after a "
           "transaction that made it ended; both must mean 'no rows'.",),
))


# --------------------------------------------------------------------------- 5.2: open a unit of work

SCOPE_STATEMENTS: dict[str, str] = {
    "a": "SET app.scope = '<token>'  -- the caller's token, signed when they logged in",
    "b": "SELECT set_config('app.scope', %s, false)  -- the caller's token, signed when they logged in",
    "c": "SELECT set_config('app.scope', %s, true)  -- the caller's token, signed when they logged in",
    "d": "SELECT <pins>, <this transaction>; then SELECT set_config('app.scope', %s, true)  -- a token signed now, "
         "for this transaction",
    "e": "SELECT set_config('app.tenant_id', %s, true)  -- the caller's tenant, from the login",
}
"""Candidate openings of a unit of work on a pooled connection, under the signed scope."""

_SCOPE_FEEDBACK = {
    "a": "SET lasts for the whole session, so the next caller who borrows this pooled connection starts with this "
         "caller's scope; and the token is pasted into the SQL text, not sent as a parameter.",
    "b": "false means 'for the session': the setting outlives the transaction and waits for the next pool user. "
         "And a token signed at login serves every transaction until it expires.",
    "c": "Local to the transaction and a bound parameter, good; but a token signed at login is a bearer secret for "
         "its whole lifetime: injected SQL that reads it can replay it in any other transaction. The store signs a "
         "token for one transaction, naming it (server process and start time), and the check refuses it anywhere "
         "else.",
    "e": "app.tenant_id is a plain setting: injected SQL in the same transaction can set it to any tenant. The "
         "policy reads only the signed scope.",
}


def _check_scope_statement(answer: Any) -> bool:
    if not isinstance(answer, str):
        print(f"Not yet: answer with one letter as a string, 'a' to 'e' (such as \"b\"); got {type(answer).__name__} "
              f"{answer!r:.60}.")
        return False
    choice = answer.strip().lower().strip("'\"()")
    if choice == "d":
        print("Right: the first statement pins the settings the unit relies on and names this transaction; the token "
              "is signed for it alone, sent as a parameter, and local (`true`), so it ends at COMMIT or ROLLBACK and "
              "a copy serves no other transaction. postgres.session.scoped_transaction does exactly this.")
        return True
    if choice in _SCOPE_FEEDBACK:
        print(f"Not yet: {_SCOPE_FEEDBACK[choice]}")
        return False
    print(f"Not yet: answer with one letter, 'a' to 'e'; got {answer!r}")
    return False


register(Exercise(
    id="5.2",
    title="open a unit of work under the signed scope",
    checker=_check_scope_statement,
    hints=("Three things matter: the token travels as a parameter, the setting ends with the transaction, and a "
           "copy of the token must be worthless anywhere else.",
           "The third argument of set_config is is_local; and what does the signature cover besides the scope?"),
    solution="d",
    stub=None,
))


# --------------------------------------------------------------------------- 5.3: where erased text still lives

ERASURE_COPIES = ("the table's heap file", "the table's indexes", "the write-ahead log", "base backups")
"""Places a deleted memory's text may still be, for exercise 5.3."""

_AFTER_REWRITE = {"the write-ahead log", "base backups"}


def _check_copies(answer: Any) -> bool:
    try:
        chosen = {str(item) for item in answer} if not isinstance(answer, str) else {answer}
    except TypeError:
        print(f"Not yet: give a set of places from ERASURE_COPIES; got {type(answer).__name__}")
        return False
    unknown = chosen - set(ERASURE_COPIES)
    if unknown:
        print(f"Not yet: {sorted(unknown)} are not in ERASURE_COPIES; pick from {list(ERASURE_COPIES)}")
        return False
    if chosen == _AFTER_REWRITE:
        print("Right: VACUUM FULL rewrote the table and its indexes into new files; the WAL segments still on disk "
              "and every backup taken before still hold the text. Per-user keys answer that: encrypt each user's "
              "text with their own key, and erasing the key makes every old copy unreadable (crypto-shredding).")
        return True
    if chosen & {"the table's heap file", "the table's indexes"}:
        print("Not yet: after VACUUM FULL the table and its indexes are new files written without the dead rows.")
    if _AFTER_REWRITE - chosen:
        print(f"Not yet: you left out {sorted(_AFTER_REWRITE - chosen)}; does a rewrite of the table reach them?")
    return False


register(Exercise(
    id="5.3",
    title="where erased text still lives",
    checker=_check_copies,
    hints=("The notebook read the table's own files after DELETE, after VACUUM and after VACUUM FULL.",
           "What replays every insert, and what was copied before the erasure?"),
    solution=set(_AFTER_REWRITE),
    stub=None,
))


# --------------------------------------------------------------------------- 5.4: how much did the walk miss?


def recall_at_k(exact_ids: Any, found_ids: Any, k: int) -> float:
    """The share of the true top k (the exact search's first k ids) that the approximate search's first k hold.

    Order does not count, an id counts once, and a partition with fewer than k records has fewer true neighbours:
    divide by how many there are (none: nothing could be missed, 1.0). An HNSW walk that returns fewer than k rows
    is not excused: the rows it did not return are misses.
    """
    truth = list(dict.fromkeys(exact_ids))[:k]
    if not truth:
        return 1.0
    return len(set(list(found_ids)[:k]) & set(truth)) / len(truth)


def _stub_recall_at_k(exact_ids: Any, found_ids: Any, k: int) -> float:
    """The share of the true top k that the approximate search's first k hold."""
    ...


RECALL_CASES: list[tuple[str, list[int], list[int], int]] = [
    ("the walk found 8 of the 10 true neighbours", list(range(10)), [0, 1, 2, 3, 4, 5, 6, 7, 40, 41], 10),
    ("the same 10 neighbours in another order", list(range(10)), list(range(9, -1, -1)), 10),
    ("a filtered walk returned only 4 rows, all right", list(range(10)), [0, 1, 2, 3], 10),
    ("a partition of 3 records: 3 true neighbours, all found", [5, 6, 7], [7, 5, 6], 10),
    ("the search returned one id three times", list(range(10)), [0, 0, 0, 1], 10),
    ("20 rows returned for k=5: only the first 5 count", [0, 1, 2, 3, 4], [9, 8, 7, 6, 5, 0, 1, 2, 3, 4], 5),
    ("an empty partition", [], [], 10),
]
"""Situations an HNSW comparison meets, each as (what happened, exact ids, found ids, k)."""

RECALL_MISTAKES: dict[str, tuple[Any, str]] = {
    "by k": (lambda e, f, k: len(set(f[:k]) & set(e[:k])) / k if k else 1.0,
             "you divided by k: a partition with fewer than k records has fewer true neighbours to find; divide by "
             "how many there are"),
    "by returned": (lambda e, f, k: len(set(f[:k]) & set(e[:k])) / len(f[:k]) if f else 1.0,
                    "you divided by the rows the search returned: that is precision, and a walk that returns 4 right "
                    "rows of 10 would score 1.0; divide by the true neighbours"),
    "in order": (lambda e, f, k: sum(a == b for a, b in zip(e[:k], f[:k])) / len(e[:k]) if e else 1.0,
                 "you compared position by position: recall asks whether a true neighbour was found at all, in any "
                 "order; compare sets"),
    "every copy": (lambda e, f, k: sum(i in set(e[:k]) for i in f[:k]) / len(e[:k]) if e else 1.0,
                   "you counted an id each time it came back: count each true neighbour once (a set)"),
    "past k": (lambda e, f, k: len(set(f) & set(e[:k])) / len(e[:k]) if e else 1.0,
               "you counted rows past the first k: a search asked for k is judged on its first k"),
}
"""Wrong formulas a learner writes, each with what it gets wrong: the checker names the one the answer matches."""


def _check_recall(answer: Any) -> bool:
    if not callable(answer):
        print(f"Not yet: give a function recall_at_k(exact_ids, found_ids, k); got {type(answer).__name__}.")
        return False
    right = 0
    for what, exact, found, k in RECALL_CASES:
        expected = recall_at_k(exact, found, k)
        try:
            got = answer(list(exact), list(found), k)
        except ZeroDivisionError:
            print(f"  wrong  {what}: your function divided by zero; with no true neighbours nothing could be "
                  "missed: return 1.0")
            continue
        except Exception as error:
            print(f"  wrong  {what}: your function raised {type(error).__name__}: {error}")
            continue
        if isinstance(got, (int, float)) and not isinstance(got, bool) and abs(got - expected) < 1e-9:
            right += 1
            print(f"  right  {what}: {expected:.2f}")
            continue
        said = next((message for formula, message in RECALL_MISTAKES.values()
                     if isinstance(got, (int, float)) and abs(formula(exact, found, k) - got) < 1e-9
                     and abs(formula(exact, found, k) - expected) > 1e-9), None)
        print(f"  wrong  {what}: you returned {got!r:.40}, expected {expected:.2f}" + (f"; {said}" if said else ""))
    print(f"{right} of {len(RECALL_CASES)} right.")
    if right == len(RECALL_CASES):
        print("Right. This is how the HNSW figures above were computed: the exact search is the truth, and each "
              "HNSW search is scored on the share of it that it found.")
    return right == len(RECALL_CASES)


register(Exercise(
    id="5.4",
    title="how much did the walk miss?",
    checker=_check_recall,
    hints=("The exact search's first k ids are the truth. Which of them are among the first k the HNSW search "
           "returned, whatever their order?",
           "Make both sets: set(exact_ids[:k]) and set(found_ids[:k]); divide the size of their intersection by how "
           "many true neighbours there are (and return 1.0 when there are none)."),
    solution=recall_at_k,
    stub=_stub_recall_at_k,
))
