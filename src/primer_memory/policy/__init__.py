"""Notebook 3, the write policy: review / worth_remembering / redact, memory poisoning, and the detectors.

`review` holds the policy and the list of detectors; `scan` the spans and windows they share;
`poisoning` instruction-like content aimed at the model; `provenance` what a memory may become given where it
came from (user, assistant, tool, import); `boundary` the one renderer through which untrusted text becomes
prompt (quoted data in one block) and its parsers; `checksums` the check digits;
`detectors/` the detector families; `corpora/` the labelled data the policy is measured on.
"""

from __future__ import annotations

from .review import DETECTORS, PolicyDecision, detector_table, redact, review, worth_remembering

__all__ = ["DETECTORS", "PolicyDecision", "detector_table", "redact", "review", "worth_remembering"]
