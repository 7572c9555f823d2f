"""Notebook 6's exercise: the namespace a graph node opens comes from authentication, never from the request."""

from __future__ import annotations

from typing import Any

from ._core import Exercise, register

__all__ = ["namespace_for"]


def namespace_for(identity: dict[str, str], config: dict[str, Any]) -> tuple[str, ...]:
    """The store namespace for this call: the verified tenant and user, then the collection. The config is ignored."""
    return (identity["tenant"], identity["user"], "memories")


# (identity from authentication, config as the request sent it): a forged id, a look-alike, a missing field
_CASES: list[tuple[dict[str, str], dict[str, Any]]] = [
    ({"tenant": "acme", "user": "alice"}, {"configurable": {"thread_id": "t-1", "user_id": "alice"}}),
    ({"tenant": "acme", "user": "alice"}, {"configurable": {"thread_id": "t-2", "tenant_id": "globex",
                                                            "user_id": "carol"}}),
    ({"tenant": "ACME", "user": "Alice"}, {"configurable": {"thread_id": "t-3", "user_id": "alice"}}),
    ({"tenant": "globex", "user": "carol"}, {"configurable": {"thread_id": "t-4"}}),
    ({"tenant": "acme-corp", "user": "dan"}, {}),
]


def _check_namespace(answer: Any) -> bool:
    if not callable(answer):
        print(f"Not yet: give a function namespace_for(identity, config) returning a tuple; got {type(answer).__name__}")
        return False
    for identity, config in _CASES:
        expected = namespace_for(identity, config)
        try:
            got = answer(dict(identity), {k: dict(v) for k, v in config.items()})
        except Exception as error:  # a learner's function: report, never raise
            print(f"Not yet: for {identity} with config {config} your function raised {type(error).__name__}: "
                  f"{error}. The identity always has tenant and user; the config may have neither.")
            return False
        if got != expected:
            forged = config.get("configurable", {})
            if isinstance(got, (tuple, list)) and tuple(got[:2]) == expected[:2]:
                print(f"Not yet: for {identity} your namespace was {got!r}. The tenant and user are right, taken from "
                      f"the verified identity; after them comes the collection, {expected[2]!r}, as in section 2's "
                      "node" + (", and a namespace is a tuple" if not isinstance(got, tuple) else "") + ".")
            elif isinstance(got, tuple) and len(got) >= 2 and (got[0], got[1]) in {
                    (forged.get("tenant_id"), forged.get("user_id")), (identity["tenant"], forged.get("user_id"))}:
                print(f"Not yet: for {identity} your namespace was {got!r}, taken from the request's config. Anyone "
                      "can send {'user_id': 'carol'} in a config: the store would open Carol's memories for them.")
            else:
                print(f"Not yet: for {identity} expected {expected!r}, your function returned {got!r}.")
            return False
    print(f"Right on all {len(_CASES)} calls: the verified tenant and user, exactly as given, then 'memories'.")
    print("The graph's config is the request's text: good for a thread id, never for whose memory opens.")
    return True


register(Exercise(
    id="6.1",
    title="whose memory does a node open?",
    checker=_check_namespace,
    hints=("The namespace must start with (tenant, user), and both must come from what authentication verified.",
           "config['configurable'] is whatever the caller sent; a forged user_id there must change nothing."),
    solution=namespace_for,
    notes=("LongTermStore refuses a namespace that names no scope; it cannot tell a forged scope from a real one. "
           "That is the application's job, done once, where the request is authenticated.",),
))
