"""Summarizers for short-term memory: the lesson's extractive one, and a rolling one that stands in for a model.

An extractive summarizer (`first_sentences`) is a function of the folded
messages: free, deterministic, and it loses whatever is not in a first
sentence. A rolling summarizer is what a model-backed summary looks like:
`summary_{n+1} = summarize(summary_n, newly_folded)`, one call per fold, each
call billed. `StandInModelSummarizer` behaves like a cheap model call (keeps
names, ids and numbers, pays a fixed instruction cost) without a network.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .chat import Message, message_tokens
from .errors import check_summary
from .tokens import TokenCounter, estimate_tokens

__all__ = ["PerMessageSummarizer", "RollingSummarizer", "StandInModelSummarizer", "SummaryBill", "Summarizer",
           "first_sentence", "first_sentences", "key_terms"]

Summarizer = Callable[[Sequence[Message]], str]


def _text(message: Message | str) -> str:
    if isinstance(message, str):
        return message
    if not message["content"] and message.get("tool_calls"):
        return "called " + ", ".join(c["function"]["name"] for c in message["tool_calls"])
    return message["content"]


def first_sentence(message: Message | str) -> str:
    """The text up to the first '. ', without its trailing period (a bare tool call reads 'called NAME')."""
    return _text(message).split(". ", 1)[0].rstrip(".")


class PerMessageSummarizer:
    """A summarizer that turns each message into one piece and joins the pieces.

    Because its length is the sum of the pieces plus separators,
    `ShortTermMemory` can work out how many older messages fit in the summary
    without re-joining the summary once per dropped message.
    """

    def __init__(self, piece: Callable[[Message], str], separator: str = "; ", name: str | None = None):
        self.piece = piece
        self.separator = separator
        self.__name__ = name or getattr(piece, "__name__", "summarizer")
        self.__doc__ = (
            f"Summarize messages as {getattr(piece, '__name__', 'piece')}(message) "
            f"for each, joined with {separator!r}."
        )

    def __call__(self, messages: Sequence[Message]) -> str:
        return self.separator.join(self.piece(m) for m in messages)

    def __repr__(self) -> str:
        return f"<summarizer {self.__name__}>"


first_sentences = PerMessageSummarizer(first_sentence, "; ", name="first_sentences")
"""The default summarizer: the first sentence of each message, joined with '; '."""


@dataclass(frozen=True)
class SummaryBill:
    """What a model-backed summary cost so far: calls, tokens read and tokens written."""

    calls: int
    input_tokens: int
    output_tokens: int

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens


class RollingSummarizer:
    """Folds newly evicted messages into the previous summary, one call per fold, and keeps the bill.

    Subclasses write `fold(summary, new, max_tokens)`; `ShortTermMemory` calls
    the summarizer as `summarizer(summary, new, max_tokens=room)` and, when a
    summary outgrows its room, again with no new messages to re-summarize it.
    """

    instruction_tokens = 0  # the fixed prompt a model call would carry

    def __init__(self, count: TokenCounter = estimate_tokens):
        self.count = count
        self.calls = 0
        self.input_tokens = 0
        self.output_tokens = 0

    def __call__(self, summary: str, new: Sequence[Message], *, max_tokens: int) -> str:
        self.calls += 1
        self.input_tokens += (self.instruction_tokens + self.count(summary)
                              + sum(message_tokens(m, self.count) for m in new))
        out = self.fold(summary, list(new), max_tokens)
        if not isinstance(out, str):  # counted below: refuse here, by name, what is not text
            check_summary(out, f"{type(self).__name__}.fold")
        self.output_tokens += self.count(out)
        return out

    def fold(self, summary: str, new: list[Message], max_tokens: int) -> str:
        raise NotImplementedError

    @property
    def bill(self) -> SummaryBill:
        return SummaryBill(self.calls, self.input_tokens, self.output_tokens)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.calls} calls, {self.input_tokens + self.output_tokens} tokens>"


_TERM = re.compile(r"[A-Z]{2,}-\d+|\d{4}-\d{2}-\d{2}|\d+(?:,\d{3})*(?:\.\d+)?|[A-Z]{2,}|[A-Z][a-z]+")
_STOP = frozenset("The A An It Its Our We I You Your My Please Has Have Is Are Was Were Does Do Did Can Could Will "
                  "Would Should What When Where Which Who How Why Yes No Thanks Thank Great Ok Okay Hi Hello Also "
                  "And But Or So Then This That These Those There Here Always Never Invoice Question Answer By "
                  "Earlier".split())


def key_terms(text: str) -> str:
    """The names, ids, dates and numbers of a text, in order, without repeats: what the stand-in keeps."""
    try:  # a tool result in JSON: read its values, not its keys
        data = json.loads(text)
        if isinstance(data, dict):
            text = " ".join(str(v) for v in data.values() if v is not None)
    except ValueError:
        pass
    seen: list[str] = []
    for term in _TERM.findall(text):
        if term not in _STOP and term not in seen:
            seen.append(term)
    return " ".join(seen)


_ID = re.compile(r"[A-Z]{2,}-\d+")
_SENTENCES = re.compile(r"(?<=[.!?])\s+")


class StandInModelSummarizer(RollingSummarizer):
    """A deterministic stand-in for a cheap summarizing model: no network, no key, a real bill.

    Each call reads the previous summary and the newly folded messages (plus a
    fixed 60-token instruction) and keeps one line of names, ids, dates and
    numbers per thing talked about, merging lines about the same id. To fit
    `max_tokens` it drops the oldest lines: it compresses, and it still forgets.
    """

    instruction_tokens = 60

    def fold(self, summary: str, new: list[Message], max_tokens: int) -> str:
        lines: dict[str, list[str]] = {}  # key (an id, or the line itself) -> terms, oldest line first
        for line in (line for line in summary.split("; ") if line):
            self._merge(lines, line.split())
        for message in new:
            texts = _SENTENCES.split(message["content"]) if message["content"] else []
            texts += [c["function"]["arguments"] for c in message.get("tool_calls", ())]
            for text in texts:
                terms = key_terms(text).split()
                if terms:
                    self._merge(lines, terms)
        kept = [" ".join(terms) for terms in lines.values()]
        while kept and self.count("; ".join(kept)) > max_tokens:
            kept.pop(0)
        return "; ".join(kept)

    @staticmethod
    def _merge(lines: dict[str, list[str]], terms: list[str]) -> None:
        """Add a line's terms; a line about an id already there joins it and becomes the newest."""
        key = next((t for t in terms if _ID.fullmatch(t)), " ".join(terms))
        merged = lines.pop(key, [])
        lines[key] = merged + [t for t in terms if t not in merged]
