"""Notebook 3, the write policy: review / worth_remembering / redact, memory poisoning, and the detectors.

`rules` holds review(), the policy, and the list of detectors; `decision` what it answers; `scan` the spans and
windows they share; `poisoning` instruction-like content aimed at the model; `provenance` what a memory may
become given where it came from (user, assistant, tool, import); `boundary` the one renderer through which
untrusted text becomes prompt (quoted data in one block) and its parsers; `checksums` the check digits;
`detectors/` the detector families; `corpora/` the labelled data the policy is measured on.

The names below are imported on first use (PEP 562): importing `policy.boundary` or `policy.decision`
builds no detector; the first review() does.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .decision import PolicyDecision
    from .rules import DETECTORS, detector_table, redact, review, worth_remembering

__all__ = ["DETECTORS", "PolicyDecision", "detector_table", "redact", "review", "worth_remembering"]
_WHERE = {"PolicyDecision": "decision", **dict.fromkeys(
    ("DETECTORS", "detector_table", "redact", "review", "worth_remembering"), "rules")}


def __getattr__(name: str) -> object:
    """Import the module that holds `name` the first time it is asked for."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
