"""One small `Model` protocol for the three things the series asks of a model, and its deterministic stand-in.

The series' notebooks run on stand-ins so every output is the same on every run.
A real model (`integrations.llama.LlamaModel`) implements the same three calls:
fold a conversation into a rolling summary, propose facts worth remembering (as
JSON text the code then checks), and answer a question with or without recalled
memories. Every prompt is built by the package's renderer (`build_prompt`), and
nothing a model proposes is written until `integrations.proposals` and the write
policy say so: the model proposes, the code decides.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

from ..short_term.chat import Message
from ..short_term.folding import cut_text
from ..short_term.prompt import build_prompt
from ..short_term.summarizers import RollingSummarizer, StandInModelSummarizer
from ..short_term.tokens import TokenCounter, estimate_tokens

__all__ = ["ANSWER_SYSTEM", "PROPOSE_REQUEST", "PROPOSE_SYSTEM", "SUMMARY_REQUEST", "SUMMARY_SYSTEM", "Model",
           "ModelSummarizer", "StandInModel", "answer_prompt", "proposal_prompt", "summary_prompt"]

ANSWER_SYSTEM = "You are a helpful assistant."
"""Kept plain on purpose: a 135M model follows a short system line better than a long one."""

SUMMARY_SYSTEM = ("You summarize conversations. Keep every name, id, date and amount. "
                  "Reply with one or two short sentences.")
SUMMARY_REQUEST = "Summarize the conversation above, together with the summary so far."
PROPOSE_SYSTEM = ('You turn a conversation into memories. Reply only with JSON like '
                  '[{"kind": "semantic", "content": "Alice likes tea."}].')
PROPOSE_REQUEST = "List the facts worth remembering from the conversation above, as JSON."


@runtime_checkable
class Model(Protocol):
    """What the series asks of a model; the stand-in and a real model both answer these three calls."""

    name: str

    def summarize(self, summary: str, new: Sequence[Message], *, max_tokens: int) -> str:
        """The summary so far with the newly folded messages folded in, at most `max_tokens` tokens."""
        ...

    def propose_facts(self, messages: Sequence[Message]) -> str:
        """Facts worth remembering, as the model wrote them (JSON text); `parse_proposals` decides what they are."""
        ...

    def answer(self, question: str, *, recalled: Iterable[object] = (), summary: str = "",
               messages: Sequence[Message] = ()) -> str:
        """A reply to `question`, given the recalled memories, the summary and the recent messages."""
        ...


def _plain(messages: Sequence[Message]) -> list[Message]:
    """Messages as role and text only: a bare tool call reads 'called NAME', as the summarizers read it."""
    plain: list[Message] = []
    for message in messages:
        text = message["content"]
        if not text and message.get("tool_calls"):
            text = "called " + ", ".join(c["function"]["name"] for c in message["tool_calls"])
        plain.append({"role": message["role"], "content": text})
    return plain


def answer_prompt(question: str, *, recalled: Iterable[object] = (), summary: str = "",
                  messages: Sequence[Message] = ()) -> list[Message]:
    """The prompt for an answer: recalled memories and the summary in the system message, the question last."""
    return build_prompt(ANSWER_SYSTEM, summary, [*_plain(messages), {"role": "user", "content": question}],
                        recalled=recalled)


def summary_prompt(summary: str, new: Sequence[Message]) -> list[Message]:
    """The prompt for one fold: the summary so far in the system message, the newly folded turns, the request."""
    return build_prompt(SUMMARY_SYSTEM, f"Summary so far: {summary}" if summary else "",
                        [*_plain(new), {"role": "user", "content": SUMMARY_REQUEST}])


def proposal_prompt(messages: Sequence[Message]) -> list[Message]:
    """The prompt asking for facts to remember: the conversation, then the request for JSON."""
    return build_prompt(PROPOSE_SYSTEM, "", [*_plain(messages), {"role": "user", "content": PROPOSE_REQUEST}])


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


class StandInModel:
    """The deterministic stand-in the notebooks use: no network, no weights, the same output on every run.

    It summarizes as `StandInModelSummarizer` does (names, ids, dates and
    amounts), proposes every statement the user made (small talk and secrets
    too: a model proposes whatever it read), and answers from the first
    recalled memory, or says it does not know.
    """

    name = "stand-in"

    def __init__(self, count: TokenCounter = estimate_tokens):
        self._summarizer = StandInModelSummarizer(count)

    def summarize(self, summary: str, new: Sequence[Message], *, max_tokens: int) -> str:
        return self._summarizer.fold(summary, list(new), max_tokens)

    def propose_facts(self, messages: Sequence[Message]) -> str:
        facts = [sentence.strip() for message in messages if message["role"] == "user"
                 for sentence in _SENTENCE_END.split(message["content"].strip())
                 if sentence.strip() and not sentence.strip().endswith("?")]
        return json.dumps([{"kind": "semantic", "content": fact} for fact in dict.fromkeys(facts)])

    def answer(self, question: str, *, recalled: Iterable[object] = (), summary: str = "",
               messages: Sequence[Message] = ()) -> str:
        first = next(iter(recalled), None)
        if first is None:
            return "I don't know: nothing about that is in my prompt."
        return f"From memory: {first if isinstance(first, str) else getattr(first, 'content', first)}"

    def __repr__(self) -> str:
        return "<StandInModel>"


class ModelSummarizer(RollingSummarizer):
    """Any `Model` as the rolling summarizer of `ShortTermMemory`: one model call per fold, billed.

    The model's text is cut to `max_tokens` with the visible marker, so a model
    that ignores its length limit still never pushes the window over budget.
    """

    def __init__(self, model: Model, count: TokenCounter = estimate_tokens):
        super().__init__(count)
        self.model = model
        self.instruction_tokens = count(SUMMARY_SYSTEM) + count(SUMMARY_REQUEST)

    def fold(self, summary: str, new: list[Message], max_tokens: int) -> str:
        text = self.model.summarize(summary, new, max_tokens=max_tokens)
        return cut_text(" ".join(text.split()), max_tokens, self.count)
