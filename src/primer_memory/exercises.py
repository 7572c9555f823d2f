"""Checkers for the notebooks' exercises: they print feedback and never raise.

A learner's attempt may be wrong in any way (it may even crash), so each
checker catches everything and says what it saw, in words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .examples import invoice_chat
from .short_term import Message, ShortTermMemory, first_sentences

__all__ = ["check_summarizer", "check_last_sentence_summarizer"]

Summarize = Callable[[Sequence[Message]], str]
CASES = [(exchanges, budget, keep) for exchanges in (3, 6, 20) for budget in (60, 110, 300) for keep in (2, 4)]


def _run(summarize: Summarize, exchanges: int, budget: int, keep: int):  # -> ContextWindow
    memory = ShortTermMemory(budget, keep_last=keep, summarize=summarize)
    memory.extend(invoice_chat(exchanges))
    return memory.window()


def check_summarizer(summarize: Summarize) -> None:
    """Run a summarizer on 18 chats and budgets; report the budget and how much history it keeps."""
    try:
        sample = summarize([{"role": "user", "content": "Hello there. How are you?"}])
    except Exception as error:  # a learner's function may fail in any way: report it, don't raise
        print(f"Not yet: calling your summarizer on one message raised {error!r}")
        return
    if not isinstance(sample, str):
        print(f"Not yet: a summarizer must return a string, yours returned {type(sample).__name__}")
        return
    over, kept, default_kept = [], 0, 0
    for exchanges, budget, keep in CASES:
        try:
            window = _run(summarize, exchanges, budget, keep)
        except Exception as error:
            print(f"Not yet: with {exchanges} exchanges and budget {budget} your summarizer raised {error!r}")
            return
        if window.tokens > budget:
            over.append((exchanges, budget, window.tokens))
        kept += window.summarized
        default_kept += _run(first_sentences, exchanges, budget, keep).summarized
    if over:
        print(f"The budget was broken in {len(over)} cases, e.g. {over[0]}: please report this as a bug!")
        return
    print(f"The budget held in all {len(CASES)} cases -- it always will: the fold drops old messages")
    print("until the summary fits, whatever the summarizer writes. That is the point of doing it in code.")
    print(f"Older messages your summaries kept, over all cases: {kept} (first_sentences keeps {default_kept}).")
    if kept < default_kept:
        print("Yours keeps fewer: its pieces are longer, so fewer fit in the room left.")
    elif kept > default_kept:
        print("Yours keeps more: shorter pieces, more history -- but is each piece still useful?")


def check_last_sentence_summarizer(summarize: Summarize) -> None:
    """The exercise: keep only the last sentence of each message, joined with '; '."""
    messages = [{"role": r, "content": t} for r, t in invoice_chat(2)]
    expected = ("Please include the vendor name and amount; It shows vendor, amount and due date; "
                "Please include the vendor name and amount; It shows vendor, amount and due date")
    try:
        got = summarize(messages)
    except Exception as error:
        print(f"Not yet: your summarizer raised {error!r}")
        return
    if got == expected:
        print("Right: the last sentence of each message, trailing period stripped, joined with '; '.")
        check_summarizer(summarize)
        return
    print("Not yet. For the first two exchanges we expected:")
    print("  ", expected)
    print("and your summarizer returned:")
    print("  ", got)
