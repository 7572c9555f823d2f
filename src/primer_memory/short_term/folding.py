"""The pieces of the short-term rule: cutting a text to a budget with a visible marker, and folding into a summary.

`context_reference` writes the lesson's rule out in the most direct way, for
plain user/assistant chats; `ShortTermMemory` is tested against it.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping, Sequence

from .chat import Message, message_tokens
from .errors import InvalidBudget, InvalidSummary, InvalidTokenCount, check_summary
from .summarizers import Summarizer, first_sentences
from .tokens import TokenCounter, estimate_tokens
from .withheld import WITHHELD, held_back

__all__ = ["SUMMARY_PREFIX", "TRUNCATION_MARKER", "InvalidBudget", "InvalidSummary", "InvalidTokenCount",
           "check_budget", "check_summary", "checked_counter", "context_reference", "cut_text", "cut_unit", "fold_slow"]

SUMMARY_PREFIX = "Earlier in this conversation: "
TRUNCATION_MARKER = " [...truncated to fit the budget]"


def checked_counter(count: TokenCounter) -> TokenCounter:
    """`count`, checked on every call: a whole number of tokens, 0 or more, or InvalidTokenCount saying what came back.

    A negative or missing count would let a window over the budget through, so it is refused, never trusted.
    """

    def checked(text: str) -> int:
        try:
            tokens = count(text)
        except Exception as error:  # the caller's function: name it, keep its error as the cause
            raise InvalidTokenCount(f"count_tokens raised {type(error).__name__} ({error}) for the text "
                                    f"{text!r:.60}; a counter must give a whole number of tokens for any text") from error
        if isinstance(tokens, bool) or not isinstance(tokens, numbers.Integral) or tokens < 0:
            raise InvalidTokenCount(f"count_tokens returned {tokens!r:.40} ({type(tokens).__name__}) for the text "
                                    f"{text!r:.60}; a counter must give a whole number of tokens, 0 or more")
        return int(tokens)

    checked.__wrapped__ = count  # type: ignore[attr-defined]
    return checked


def check_budget(budget_tokens: object, keep_last: object) -> None:
    """Refuse a budget or keep_last that is not a whole number of at least 1."""
    for name, value in (("budget_tokens", budget_tokens), ("keep_last", keep_last)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidBudget(f"{name} must be a whole number, got {value!r}")
        if value < 1:
            raise InvalidBudget(f"{name} must be at least 1, got {value}")


def _longest_prefix(text: str, fits: object) -> str:
    """The longest prefix p of `text` with fits(p), by bisection, then checked (counters need not be monotone)."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(text[:mid]):  # type: ignore[operator]
            lo = mid
        else:
            hi = mid - 1
    while lo > 0 and not fits(text[:lo]):  # type: ignore[operator]
        lo -= 1
    return text[:lo]


def cut_text(text: str, max_tokens: int, count: TokenCounter = estimate_tokens) -> str:
    """`text` cut to at most `max_tokens`, ending with the visible marker (or as much of the marker as fits)."""
    if count(text) <= max_tokens:
        return text
    if count(TRUNCATION_MARKER) <= max_tokens:
        return _longest_prefix(text, lambda p: count(p + TRUNCATION_MARKER) <= max_tokens) + TRUNCATION_MARKER
    return _longest_prefix(TRUNCATION_MARKER.strip(), lambda p: count(p) <= max_tokens)


def _copy(message: Message, content: str | None = None) -> Message:
    clean: Message = {"role": message["role"], "content": message["content"] if content is None else content}
    if "tool_calls" in message:
        clean["tool_calls"] = [{"id": c["id"], "type": c["type"], "function": dict(c["function"])}
                               for c in message["tool_calls"]]
    if "tool_call_id" in message:
        clean["tool_call_id"] = message["tool_call_id"]
    return clean


def cut_unit(unit: Sequence[Message], budget: int, count: TokenCounter = estimate_tokens) -> list[Message] | None:
    """A unit too big for the budget, cut to fit and never split; None if even its bare call cannot fit.

    A single message is cut with the marker. A tool call keeps every message:
    its results share what the call leaves, the largest cut first, each ending
    with the marker. Sizes are as sent (`message_tokens`: a result quoted as data).
    """
    def cut(message: Message, share: int) -> Message:
        return _copy(message, cut_text(message["content"], share,
                                       lambda text: message_tokens(_copy(message, text), count)))

    if len(unit) == 1:
        single = cut(unit[0], budget)
        return [single] if message_tokens(single, count) <= budget else None
    head, results = unit[0], list(unit[1:])
    left = budget - message_tokens(head, count)
    if left < 0:
        return None
    costs = [message_tokens(m, count) for m in results]
    shares = [0] * len(results)
    order = sorted(range(len(results)), key=lambda i: costs[i])
    for position, i in enumerate(order):  # water-filling: small results keep all, the rest share what is left
        shares[i] = min(costs[i], left // (len(results) - position))
        left -= shares[i]
    kept = [_copy(head)] + [cut(m, share) for m, share in zip(results, shares)]
    return kept if sum(message_tokens(m, count) for m in kept) <= budget else None


def fold_slow(older: Sequence[Message], room: int, summarize: Summarizer, count: TokenCounter = estimate_tokens,
              starts: Sequence[int] | None = None) -> tuple[str, int]:
    """The lesson's fold: drop the oldest message (or unit) until the summary fits in `room`.

    Returns the summary ('' if nothing fits) and how many of the oldest messages were dropped.
    """
    for start in (range(len(older)) if starts is None else starts):
        summary = SUMMARY_PREFIX + check_summary(summarize(older[start:]))
        if count(summary) <= room:
            return summary, start
    return "", len(older)


def _recent_start(tokens: Sequence[int], budget_tokens: int, keep_last: int) -> int:
    """Index of the first recent message kept: the last keep_last, minus the oldest while they overflow."""
    start = max(0, len(tokens) - keep_last)
    cost = sum(tokens[start:])
    while cost > budget_tokens and start < len(tokens) - 1:
        cost -= tokens[start]
        start += 1
    return start


def context_reference(
    messages: Sequence[Message],
    budget_tokens: int,
    keep_last: int = 4,
    summarize: Summarizer = first_sentences,
    *,
    held: Mapping[int, str] | None = None,
) -> tuple[str, list[Message]]:
    """The rule written out in the most direct way, for user/assistant chats: what `ShortTermMemory` must match.

    It re-joins and re-measures the summary once per dropped message, so it
    is quadratic in the length of the chat; `benchmarks/` compares the two.
    A turn the write policy withholds (`withheld.held_back`, judged here over
    the whole chat unless `held` gives it) is summarized as the marker only.
    """
    check_budget(budget_tokens, keep_last)
    held = held_back(messages) if held is None else held
    tokens = [estimate_tokens(m["content"]) for m in messages]
    if sum(tokens) <= budget_tokens:
        return "", [_copy(m) for m in messages]
    start = _recent_start(tokens, budget_tokens, keep_last)
    recent = [_copy(m) for m in messages[start:]]
    if sum(tokens[start:]) > budget_tokens:
        recent = [_copy(recent[-1], cut_text(recent[-1]["content"], budget_tokens))]
    room = budget_tokens - sum(estimate_tokens(m["content"]) for m in recent)
    older = [_copy(m, WITHHELD) if i in held else m for i, m in enumerate(messages[:start])]
    return fold_slow(older, room, summarize)[0], recent


def gallop(n: int, fits: Callable[[int], bool], hint: int) -> tuple[int, int]:
    """Bounds (lo, hi) of the first i in [0, n) with fits(i), searching outwards from `hint` in doubling steps.

    Assumes fits is monotone (false, then true); the caller checks the answer. hi == n means none fits.
    """
    if n == 0:
        return 0, 0
    h = min(max(hint, 0), n - 1)
    step = 1
    if fits(h):
        hi = h
        while h - step >= 0 and fits(h - step):
            hi = h - step
            step *= 2
        return max(h - step + 1, 0), hi
    lo = h + 1
    while h + step < n and not fits(h + step):
        lo = h + step + 1
        step *= 2
    return lo, min(h + step, n)
