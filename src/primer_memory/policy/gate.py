"""The write gate: one decision for every text a store keeps, whichever path it came by.

A memory is more than its content: its key, its source, the labels of the namespace it was filed under and the
path of a note are stored too, exported, and shown to the model beside it. So the gate reads all of them:

1. the write policy over the content (store, skip, refuse);
2. the policy over every other text field: a secret there refuses the write (a field is not a memory, so only
   a refusal counts; "not worth remembering" does not apply to a key);
3. the provenance rule (`provenance.admit`) over the result: only the user gives instructions, a user's redirect
   is held, and no field may read like an instruction or hide text.

Long-term memory and the notes tool each have one write path, and both call `decide`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .decision import STORE_REASON, PolicyDecision
from .provenance import PROVENANCES, admit, is_provenance

__all__ = ["Fields", "decide", "field_refusal"]

Fields = Mapping[str, "str | None"]
"""The texts stored beside the content, by what they are: {"key": ..., "source": ..., "label 1": ..., "path": ...}."""

_IN_FIELD = "refused: the memory's {field} would be stored and shown with it, and {reason}"


def field_refusal(review: Callable[[str], PolicyDecision], fields: Fields) -> PolicyDecision | None:
    """A refusal naming the first field the policy refuses (a secret in a key, a source, a label, a path), or None."""
    for field, value in fields.items():
        if not value:
            continue
        decision = review(value)
        if decision.verdict == "refuse":
            reason = decision.reason.removeprefix("refused: ")
            return PolicyDecision("refuse", _IN_FIELD.format(field=field, reason=reason), decision.detector)
    return None


def decide(review: Callable[[str], PolicyDecision], content: str, *, kind: str, provenance: str,
           fields: Fields | None = None, review_field: Callable[[str], PolicyDecision] | None = None,
           worth: bool = True) -> PolicyDecision:
    """Whether a write may be stored: the policy over the content and every field, then the provenance rule.

    `review` is the write policy; `review_field` the same policy for fields (a caller may cache it: keys and
    sources repeat). `provenance` must be named: there is no default, so no path can inherit the user's trust.
    With `worth=False` (a note, which is not a candidate memory) the policy's "skip" does not stop the write:
    only a refusal does, and the rest of the gate still runs.
    """
    if not is_provenance(provenance):
        raise ValueError(f"provenance must be one of {', '.join(map(repr, PROVENANCES))}; got {provenance!r:.60}")
    fields = dict(fields or {})
    decision = review(content) if content else PolicyDecision("store", STORE_REASON)
    if decision.verdict == "skip" and not worth:
        decision = PolicyDecision("store", STORE_REASON)
    if decision.verdict in ("skip", "refuse"):
        return decision
    refused = field_refusal(review_field or review, fields)
    if refused is not None:
        return refused
    key, source = fields.pop("key", None), fields.pop("source", None) or ""
    return admit(decision, kind, content, provenance, source=source, key=key, fields=fields)
