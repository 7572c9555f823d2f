"""What a model proposes to remember, checked by code before the write policy sees it.

A model's proposal is text. It becomes memories only if it parses as a JSON
list of objects with the allowed fields, every entry passes long-term memory's
own input checks, and then the write policy stores it (durable), skips it
(small talk) or refuses it (a secret). The model cannot choose the source, the
importance or the provenance of what it proposes: they are set here, by the code,
and the provenance is the assistant's, so a proposal never becomes a standing
instruction (a procedural memory) or an instruction the user did not give.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..long_term.records import InvalidMemory, Scope, WriteResult
from ..long_term.validation import check_entries

__all__ = ["MODEL_PROVENANCE", "MODEL_SOURCE", "PROPOSAL_FIELDS", "ProposalError", "ProposalNotJSON", "ProposalReport",
           "ProposalShapeError", "keep_proposals", "parse_proposals"]

MODEL_SOURCE = "model proposal"
MODEL_PROVENANCE = "assistant"
"""Who a proposal comes from: the model, never the user, whatever the proposal says."""
PROPOSAL_FIELDS = ("kind", "content", "key")
"""What a model may say about a memory; source and importance are the code's to set."""

_FENCE = re.compile(r"\A```(?:json)?[ \t]*\n(.*)\n```\Z", re.DOTALL)


class ProposalError(ValueError):
    """A model's proposal that is refused whole, before anything is written."""


class ProposalNotJSON(ProposalError):
    """The proposal is not JSON at all (or is cut off, as output that hit its token limit is)."""


class ProposalShapeError(ProposalError):
    """The proposal is JSON, but not a list of objects with string fields kind, content and optionally key."""


def parse_proposals(text: object, *, source: str = MODEL_SOURCE) -> list[dict[str, Any]]:
    """The memories a model proposed, checked whole: ProposalNotJSON, ProposalShapeError or InvalidMemory if not.

    One surrounding ```json fence is allowed (models add it); anything else
    around the JSON is refused. Every entry gets `source` and the provenance
    "assistant", set by the code.
    """
    if not isinstance(text, str):
        raise ProposalShapeError(f"a proposal is the model's text, got {type(text).__name__}")
    stripped = text.strip()
    fenced = _FENCE.match(stripped)
    body = fenced.group(1) if fenced else stripped
    try:
        data = json.loads(body)
    except ValueError as error:
        raise ProposalNotJSON(f"the proposal is not JSON ({error.args[0] if error.args else error}); "
                              f"expected a list like [{{\"kind\": \"semantic\", \"content\": \"...\"}}], "
                              f"got {_preview(text)}") from None
    if not isinstance(data, list):
        raise ProposalShapeError(f"the proposal must be a JSON list of memories, got a JSON {_json_type(data)}: "
                                 f"{_preview(body)}")
    entries = []
    for i, item in enumerate(data):
        if not isinstance(item, dict):
            raise ProposalShapeError(f"memory {i} must be an object with kind and content, got a JSON "
                                     f"{_json_type(item)}: {_preview(json.dumps(item))}")
        extra = sorted(set(item) - set(PROPOSAL_FIELDS))
        if extra:
            raise ProposalShapeError(f"memory {i} has the field {extra[0]!r}; a model may give only "
                                     f"{', '.join(PROPOSAL_FIELDS)} (source and importance are set by the code)")
        for field in PROPOSAL_FIELDS:
            value = item.get(field)
            if field in item and not (isinstance(value, str) or (field == "key" and value is None)):
                raise ProposalShapeError(f"memory {i}: {field} must be a string, got a JSON {_json_type(value)}: "
                                         f"{_preview(json.dumps(value))}")
        entries.append({"kind": item.get("kind"), "content": item.get("content"), "key": item.get("key"),
                        "source": source, "provenance": MODEL_PROVENANCE})
    check_entries(entries)  # long-term memory's own checks: kind, empty content, key, lone surrogates
    return entries


@dataclass(frozen=True)
class ProposalReport:
    """What became of one proposal: the entries that parsed, what the write policy did with each, or the error."""

    text: str
    entries: list[dict[str, Any]]
    results: list[WriteResult]
    error: ProposalError | InvalidMemory | None = None

    @property
    def stored(self) -> list[str]:
        return [e["content"] for e, r in zip(self.entries, self.results) if r.stored]

    def lines(self) -> list[str]:
        """One line per decision, for printing: the whole proposal refused, or each entry's verdict."""
        if self.error is not None:
            return [f"refused whole: {type(self.error).__name__}: {self.error}"]
        if not self.entries:
            return ["nothing proposed"]
        return [f"{'stored' if r.stored else 'not stored'}: {e['content']!r} ({r.reason})"
                for e, r in zip(self.entries, self.results)]


def keep_proposals(memory: Any, scope: Scope, text: str, *, source: str = MODEL_SOURCE) -> ProposalReport:
    """Parse a model's proposal and hand what parses to `memory.remember_many`, where the write policy decides."""
    try:
        entries = parse_proposals(text, source=source)
    except (ProposalError, InvalidMemory) as error:
        return ProposalReport(text, [], [], error)
    results = memory.remember_many(scope, entries, provenance=MODEL_PROVENANCE) if entries else []
    return ProposalReport(text, entries, results)


def _json_type(value: object) -> str:
    names: Iterable[tuple[type, str]] = ((bool, "boolean"), (dict, "object"), (list, "list"), (str, "string"),
                                         (int, "number"), (float, "number"))
    return next((name for kind, name in names if isinstance(value, kind)), "null")


def _preview(text: str, limit: int = 60) -> str:
    one_line = " ".join(text.split())
    return repr(one_line if len(one_line) <= limit else one_line[:limit] + "...")
