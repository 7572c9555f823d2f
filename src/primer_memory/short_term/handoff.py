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
from .withheld import JOINS, WINDOW, held_back, split_secrets
from .withheld import refused as _refused

__all__ = ["HANDOFF_PREFIX", "JOINS", "WINDOW", "Handoff", "durable_facts", "held_back", "split_secrets",
           "where_we_were", "write_handoff"]

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


def durable_facts(messages: Sequence[Message], held: dict[int, str] | None = None
                  ) -> tuple[list[str], list[tuple[str, str]]]:
    """The user's statements the write policy would store, and the ones it refuses (with its reason).

    A turn the policy refuses whole, or that holds part of a secret split across turns, gives no fact at all
    (`held_back`, computed here unless the caller has it): its sentences are not judged one by one.
    """
    from ..policy.rules import review

    facts: list[str] = []
    refused: list[tuple[str, str]] = []
    split = held_back(messages) if held is None else held
    for position, message in enumerate(messages):
        if message["role"] != "user":
            continue
        if position in split:
            refused.append((message["content"], split[position]))
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


def where_we_were(messages: Sequence[Message], held: dict[int, str] | None = None) -> str:
    """The first sentence of the newest user turn that the policy does not refuse ('' if none): the note's last line."""
    split = held_back(messages) if held is None else held
    for position in range(len(messages) - 1, -1, -1):
        if messages[position]["role"] != "user":
            continue
        if position in split:
            return ""
        for sentence in _SENTENCE_END.split(messages[position]["content"].strip()):
            line = first_sentence(sentence.strip())
            if line and _refused(line) is None:
                return line
        return ""
    return ""


def write_handoff(messages: Sequence[Message], previous_note: str, max_note_tokens: int, count: TokenCounter,
                  long_term: Any = None, scope: Any = None) -> Handoff:
    """The note for a fresh window: earlier facts carried over, then this window's, then where we were.

    Every part passed the policy, and so does the note as written (judged whole, so facts that join into a secret
    are caught too): while the policy refuses it, the oldest fact gives way, then the last line.
    """
    held = held_back(messages)  # once: both the facts and the last line leave these turns out
    facts, refused = durable_facts(messages, held)
    carried: list[str] = []
    if previous_note.startswith(HANDOFF_PREFIX):  # facts from an earlier hand-off carry over
        carried = [f for f in previous_note[len(HANDOFF_PREFIX):].split(". Where we were: ")[0].split("; ") if f]
    facts = list(dict.fromkeys([*carried, *facts]))
    last = where_we_were(messages, held)
    where = f". Where we were: {last}" if last else ""
    kept = list(facts)

    def note() -> str:
        return HANDOFF_PREFIX + "; ".join(kept) + where

    while kept and count(note()) > max_note_tokens:  # the oldest facts give way first
        kept.pop(0)
    text = cut_text(note(), max_note_tokens, count)
    while _refused(text) is not None and (kept or where):  # the whole note is judged as well as its parts
        if kept:
            kept.pop(0)
        else:
            where = ""
        text = cut_text(note(), max_note_tokens, count)
    if _refused(text) is not None:
        text = ""
    promoted = []
    if long_term is not None:
        # the facts are the user's own sentences (durable_facts reads user turns only): the user's provenance
        promoted = [long_term.remember(scope, "semantic", fact, source="hand-off", provenance="user")
                    for fact in facts]
    return Handoff(text, kept, refused, len(messages), promoted)
