"""Reset a long chat with a written hand-off: a short note of durable facts opens a fresh window.

Durable facts are the user's own statements that the write policy would
store (not questions, not small talk, never a secret). They can also be
promoted to long-term memory, through `LongTermMemory.remember`, which applies
the same policy: the model proposes nothing here, the code decides.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .chat import Message
from .folding import cut_text
from .summarizers import first_sentence
from .tokens import TokenCounter

__all__ = ["HANDOFF_PREFIX", "Handoff", "durable_facts", "write_handoff"]

HANDOFF_PREFIX = "Hand-off note: "
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class Handoff:
    """What a hand-off wrote: the note, the facts in it, what the policy refused, and what was promoted."""

    note: str
    facts: list[str]
    refused: list[tuple[str, str]]  # (sentence, the policy's reason)
    messages_before: int
    promoted: list[Any] = field(default_factory=list)  # WriteResult per fact, when long-term memory was given


def durable_facts(messages: Sequence[Message]) -> tuple[list[str], list[tuple[str, str]]]:
    """The user's statements the write policy would store, and the ones it refuses (with its reason)."""
    from ..policy.review import review

    facts: list[str] = []
    refused: list[tuple[str, str]] = []
    for message in messages:
        if message["role"] != "user":
            continue
        for sentence in _SENTENCE_END.split(message["content"].strip()):
            sentence = sentence.strip()
            if not sentence or sentence.endswith("?") or sentence.rstrip(".") in facts:
                continue
            decision = review(sentence)
            if decision.stored:
                facts.append(sentence.rstrip("."))
            elif decision.verdict == "refuse":
                refused.append((sentence, decision.reason))
    return facts, refused


def write_handoff(messages: Sequence[Message], previous_note: str, max_note_tokens: int, count: TokenCounter,
                  long_term: Any = None, scope: Any = None) -> Handoff:
    """The note for a fresh window: earlier facts carried over, then this window's, then where we were."""
    facts, refused = durable_facts(messages)
    carried: list[str] = []
    if previous_note.startswith(HANDOFF_PREFIX):  # facts from an earlier hand-off carry over
        carried = [f for f in previous_note[len(HANDOFF_PREFIX):].split(". Where we were: ")[0].split("; ") if f]
    facts = list(dict.fromkeys([*carried, *facts]))
    last_user = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
    where = f". Where we were: {first_sentence(last_user)}" if last_user else ""
    kept = list(facts)

    def note() -> str:
        return HANDOFF_PREFIX + "; ".join(kept) + where

    while kept and count(note()) > max_note_tokens:  # the oldest facts give way first
        kept.pop(0)
    text = cut_text(note(), max_note_tokens, count)
    promoted = []
    if long_term is not None:
        promoted = [long_term.remember(scope, "semantic", fact, source="hand-off") for fact in facts]
    return Handoff(text, kept, refused, len(messages), promoted)
