"""Notebook 5's exercises: the row policy, the per-transaction scope, and where erased text still lives."""

from __future__ import annotations

from typing import Any

from ._core import Exercise, register

__all__ = ["row_visible", "SCOPE_STATEMENTS", "ERASURE_COPIES"]


# --------------------------------------------------------------------------- 5.1: the row policy, in Python


def row_visible(row_tenant: str, row_user: str, setting_tenant: str | None, setting_user: str | None) -> bool:
    """May this transaction see this row? Only when both parts were set and match exactly (no scope: no rows)."""
    if not setting_tenant or not setting_user:
        return False
    return row_tenant == setting_tenant and row_user == setting_user


_ROWS = [("acme", "alice"), ("acme-corp", "alice"), ("ACME", "alice"), ("acme", "al"), ("%", "%"), ("globex", "carol"),
         ("", "")]  # a row written with no scope: plain equality would show it to every caller with none
_SETTINGS = [(None, None), ("", ""), ("acme", None), ("acme", ""), ("acme", "alice"), ("acme", "al"),
             ("%", "%"), ("ACME", "alice"), ("globex", "carol"), ("acme%", "alice")]


def _check_policy(answer: Any) -> bool:
    if not callable(answer):
        print(f"Not yet: give a function row_visible(row_tenant, row_user, setting_tenant, setting_user); "
              f"got {type(answer).__name__}")
        return False
    for (rt, ru) in _ROWS:
        for (st, su) in _SETTINGS:
            expected = row_visible(rt, ru, st, su)
            got = answer(rt, ru, st, su)
            if not isinstance(got, bool):
                print(f"Not yet: a policy answers True or False; for row {rt}/{ru} yours returned "
                      f"{type(got).__name__} {got!r:.60}. (bool(...) turns a value into one.)")
                return False
            if got is not expected:
                unset = "no scope set" if not st or not su else f"scope {st}/{su}"
                print(f"Not yet: row {rt}/{ru} with {unset}: expected {expected}, your policy said {got!r}.")
                if not expected and got:
                    print("A policy that shows this row leaks it to another caller (or to a caller with no scope).")
                return False
    print(f"Right on all {len(_ROWS) * len(_SETTINGS)} cases: exact match on both parts, and no scope means no rows.")
    print("In SQL the store checks a signed scope, refuses an empty one, and a CHECK constraint keeps rows with an "
          "empty tenant or user out of the table: '' never matches, so no scope means no rows.")
    return True


register(Exercise(
    id="5.1",
    title="write the row policy",
    checker=_check_policy,
    hints=("A row is visible only when both parts of the scope were set (not None, not '') and both match exactly.",
           "No startswith, no lower(), no LIKE: 'acme' and 'acme-corp' are strangers, and so are 'acme' and 'ACME'."),
    solution=row_visible,
    notes=("current_setting('app.tenant_id', true) returns NULL when the setting was never made, and '' after a "
           "transaction that made it ended; both must mean 'no rows'.",),
))


# --------------------------------------------------------------------------- 5.2: set the scope for one transaction

SCOPE_STATEMENTS: dict[str, str] = {
    "a": "SET app.tenant_id = 'acme'",
    "b": "SELECT set_config('app.tenant_id', %s, false)",
    "c": "SELECT set_config('app.tenant_id', %s, true)",
    "d": "SELECT * FROM records WHERE tenant_id = %s",
}
"""Candidate first statements of a unit of work on a pooled connection."""

_SCOPE_FEEDBACK = {
    "a": "SET lasts for the whole session: the next caller who borrows this pooled connection inherits Acme's scope. "
         "And it pastes the name into the SQL text.",
    "b": "false means 'for the session': the setting outlives the transaction and leaks to the next pool user.",
    "d": "A WHERE clause is what a bug can drop; RLS needs the scope set in the transaction, not in the query.",
}


def _check_scope_statement(answer: Any) -> bool:
    if not isinstance(answer, str):
        print(f"Not yet: answer with one letter as a string, 'a' to 'd' (such as \"b\"); got {type(answer).__name__} "
              f"{answer!r:.60}.")
        return False
    choice = answer.strip().lower().strip("'\"()")
    if choice == "c":
        print("Right: a bound parameter (never pasted text), and `true` makes it local to this transaction, so it "
              "vanishes at COMMIT or ROLLBACK and a pooled connection never carries it to the next caller.")
        return True
    if choice in _SCOPE_FEEDBACK:
        print(f"Not yet: {_SCOPE_FEEDBACK[choice]}")
        return False
    print(f"Not yet: answer with one letter, 'a' to 'd'; got {answer!r}")
    return False


register(Exercise(
    id="5.2",
    title="set the scope for one transaction",
    checker=_check_scope_statement,
    hints=("Two things matter: the name travels as a parameter, and the setting ends with the transaction.",
           "The third argument of set_config is is_local."),
    solution="c",
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
