"""Short-term memory: one conversation kept under a token budget.

A model keeps nothing between calls, so the application re-sends the
conversation every time. `ShortTermMemory` decides what is re-sent: every
message while they fit, otherwise the last few verbatim plus a summary of the
older ones that gets only the room the recent messages leave.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypedDict

__all__ = [
    "ROLES",
    "ContextWindow",
    "SUMMARY_PREFIX",
    "TRUNCATION_MARKER",
    "InvalidBudget",
    "InvalidMessage",
    "Message",
    "PerMessageSummarizer",
    "ShortTermMemory",
    "context_reference",
    "estimate_tokens",
    "first_sentence",
    "first_sentences",
    "token_curve",
]

ROLES: tuple[str, ...] = ("user", "assistant")
SUMMARY_PREFIX = "Earlier in this conversation: "
TRUNCATION_MARKER = " [...truncated to fit the budget]"


class Message(TypedDict):
    """One chat turn, in the shape chat APIs expect."""

    role: str
    content: str


Summarizer = Callable[[Sequence[Message]], str]


class InvalidBudget(ValueError):
    """A token budget or keep_last that cannot work (zero, negative, not an int)."""


class InvalidMessage(ValueError):
    """A turn the memory cannot store: an unknown role, text that is not a string, or not a (role, text) pair."""


def estimate_tokens(text: str) -> int:
    """Estimate tokens as characters / 4, rounded up; an empty text costs 0.

    Real tokenizers differ by model; a fixed rule keeps every number in the
    series reproducible without downloading one.
    """
    if not isinstance(text, str):
        raise InvalidMessage(f"estimate_tokens needs a string, got {type(text).__name__}")
    return -(-len(text) // 4)


def _text(message: Message | str) -> str:
    return message if isinstance(message, str) else message["content"]


def first_sentence(message: Message | str) -> str:
    """The text up to the first '. ', without its trailing period."""
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


def _check_budget(budget_tokens: object, keep_last: object) -> None:
    for name, value in (("budget_tokens", budget_tokens), ("keep_last", keep_last)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidBudget(f"{name} must be a whole number, got {value!r}")
        if value < 1:
            raise InvalidBudget(f"{name} must be at least 1, got {value}")


def _check_message(role: object, text: object) -> None:
    if role not in ROLES:
        raise InvalidMessage(f"role must be one of {', '.join(map(repr, ROLES))}; got {role!r}")
    if not isinstance(text, str):
        raise InvalidMessage(f"text must be a string, got {type(text).__name__}")


def _truncate(message: Message, budget_tokens: int) -> Message:
    """Cut one message to the budget, ending with a visible marker."""
    limit = 4 * budget_tokens
    marker = TRUNCATION_MARKER
    if len(marker) >= limit:
        content = marker.strip()[:limit]
    else:
        content = message["content"][: limit - len(marker)] + marker
    return {"role": message["role"], "content": content}


def _fold_slow(older: Sequence[Message], room: int, summarize: Summarizer) -> tuple[str, int]:
    """The lesson's fold: drop the oldest message until the summary fits in `room`.

    Returns the summary ('' if nothing fits) and how many of the oldest messages were dropped.
    """
    for start in range(len(older)):
        summary = SUMMARY_PREFIX + summarize(older[start:])
        if estimate_tokens(summary) <= room:
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
) -> tuple[str, list[Message]]:
    """The rule written out in the most direct way: the specification `ShortTermMemory` is tested against.

    It re-joins and re-measures the summary once per dropped message, so it
    is quadratic in the length of the chat; `benchmarks/` compares the two.
    """
    _check_budget(budget_tokens, keep_last)
    tokens = [estimate_tokens(m["content"]) for m in messages]
    if sum(tokens) <= budget_tokens:
        return "", [dict(m) for m in messages]  # type: ignore[misc]
    start = _recent_start(tokens, budget_tokens, keep_last)
    recent: list[Message] = [dict(m) for m in messages[start:]]  # type: ignore[misc]
    if sum(tokens[start:]) > budget_tokens:
        recent = [_truncate(recent[-1], budget_tokens)]
    room = budget_tokens - sum(estimate_tokens(m["content"]) for m in recent)
    return _fold_slow(messages[:start], room, summarize)[0], recent


@dataclass(frozen=True)
class ContextWindow:
    """What one call sends, with counts: messages folded into the summary, dropped entirely, and
    whether the newest message had to be cut to fit."""

    summary: str
    messages: list[Message]
    summarized: int
    dropped: int
    truncated: bool

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.summary) + sum(estimate_tokens(m["content"]) for m in self.messages)


class ShortTermMemory:
    """One conversation under a token budget.

    What `context()` returns never costs more than `budget_tokens`: under
    budget everything is sent; over it the last `keep_last` messages are sent
    verbatim and the older ones are folded into a summary that gets only the
    room left. If the recent messages alone overflow, the oldest of them drop
    out; a single message larger than the whole budget is truncated with a
    visible marker.
    """

    def __init__(self, budget_tokens: int, keep_last: int = 4, summarize: Summarizer = first_sentences):
        _check_budget(budget_tokens, keep_last)
        if not callable(summarize):
            raise TypeError(f"summarize must be a function of a list of messages, got {summarize!r}")
        self._budget = budget_tokens
        self._keep_last = keep_last
        self._summarize = summarize
        self._messages: list[Message] = []
        self._tokens: list[int] = []
        self._token_prefix: list[int] = [0]  # running sums of message tokens
        self._pieces: list[str] = []  # per-message summary pieces, computed once, lazily
        self._piece_prefix: list[int] = [0]  # running sums of piece lengths

    @property
    def budget_tokens(self) -> int:
        return self._budget

    @property
    def keep_last(self) -> int:
        return self._keep_last

    @property
    def summarize(self) -> Summarizer:
        return self._summarize

    @property
    def messages(self) -> list[Message]:
        """Every message added, oldest first (a copy: editing it changes nothing here)."""
        return [dict(m) for m in self._messages]  # type: ignore[misc]

    def __len__(self) -> int:
        return len(self._messages)

    def __repr__(self) -> str:
        return (
            f"ShortTermMemory(budget_tokens={self._budget}, keep_last={self._keep_last}, "
            f"messages={len(self._messages)}, tokens={self.tokens()}, sent={self.sent_tokens()})"
        )

    def add(self, role: str, text: str) -> None:
        """Append one turn; a bad role or non-string text is refused and nothing changes."""
        _check_message(role, text)
        self._append(role, text)

    def extend(self, turns: Iterable[tuple[str, str]]) -> None:
        """Add several (role, text) turns; all are checked before any is added."""
        if turns is None or isinstance(turns, (str, bytes, dict)):
            raise InvalidMessage(f"extend needs a list of (role, text) turns, got {type(turns).__name__}")
        try:
            pending = list(turns)
        except TypeError:
            raise InvalidMessage(f"extend needs a list of (role, text) turns, got {type(turns).__name__}") from None
        checked: list[tuple[str, str]] = []
        for position, turn in enumerate(pending):
            if isinstance(turn, (str, bytes, dict)) or not isinstance(turn, Sequence) or len(turn) != 2:
                raise InvalidMessage(f"turn {position} must be a (role, text) pair, got {turn!r:.60}")
            role, text = turn
            _check_message(role, text)
            checked.append((role, text))
        for role, text in checked:
            self._append(role, text)

    def _append(self, role: str, text: str) -> None:
        cost = estimate_tokens(text)
        self._messages.append({"role": role, "content": text})
        self._tokens.append(cost)
        self._token_prefix.append(self._token_prefix[-1] + cost)

    def tokens(self) -> int:
        """The whole history's tokens (210 in the worked example): what sending everything would cost."""
        return self._token_prefix[-1]

    def history_tokens(self) -> int:
        """Same as `tokens()`: the whole history, the unmanaged baseline."""
        return self._token_prefix[-1]

    def sent_tokens(self) -> int:
        """What `context()` sends: summary plus messages, always <= budget_tokens (106 in the worked example)."""
        return self.window().tokens

    def context(self) -> tuple[str, list[Message]]:
        """The summary of older turns ('' if none) and the messages to send verbatim."""
        window = self.window()
        return window.summary, window.messages

    def window(self) -> ContextWindow:
        """`context()` with the bookkeeping a learner wants to see: what was folded, dropped, cut."""
        n = len(self._messages)
        if self._token_prefix[-1] <= self._budget:
            return ContextWindow("", self.messages, summarized=0, dropped=0, truncated=False)
        start = _recent_start(self._tokens, self._budget, self._keep_last)
        recent: list[Message] = [dict(m) for m in self._messages[start:]]  # type: ignore[misc]
        recent_cost = self._token_prefix[n] - self._token_prefix[start]
        if recent_cost > self._budget:
            recent = [_truncate(recent[-1], self._budget)]
            recent_cost = estimate_tokens(recent[0]["content"])
        room = self._budget - recent_cost
        if isinstance(self._summarize, PerMessageSummarizer):
            summary, lo = self._fold_fast(start, room)
        else:
            summary, lo = _fold_slow(self._messages[:start], room, self._summarize)
        truncated = recent_cost < self._token_prefix[n] - self._token_prefix[start]
        return ContextWindow(summary, recent, summarized=start - lo, dropped=lo, truncated=truncated)

    def _fold_fast(self, end: int, room: int) -> tuple[str, int]:
        """Same result as `_fold_slow`, found by binary search over cached piece lengths."""
        summarizer = self._summarize
        assert isinstance(summarizer, PerMessageSummarizer)
        for message in self._messages[len(self._pieces) : end]:
            piece = summarizer.piece(message)
            self._pieces.append(piece)
            self._piece_prefix.append(self._piece_prefix[-1] + len(piece))
        sep = len(summarizer.separator)
        limit = 4 * room  # ceil(chars / 4) <= room  <=>  chars <= 4 * room

        def chars(start: int) -> int:
            count = end - start
            return len(SUMMARY_PREFIX) + self._piece_prefix[end] - self._piece_prefix[start] + sep * (count - 1)

        # chars(start) only shrinks as start grows, so the first start that fits is found by bisection.
        lo, hi = 0, end
        while lo < hi:
            mid = (lo + hi) // 2
            if chars(mid) <= limit:
                hi = mid
            else:
                lo = mid + 1
        if lo >= end:
            return "", end
        return SUMMARY_PREFIX + summarizer.separator.join(self._pieces[lo:end]), lo


def token_curve(
    exchanges: Iterable[Sequence[tuple[str, str]]],
    budget_tokens: int,
    keep_last: int = 4,
    summarize: Summarizer = first_sentences,
) -> tuple[list[int], list[int]]:
    """Tokens sent after each exchange: (the whole history, the managed context)."""
    memory = ShortTermMemory(budget_tokens, keep_last, summarize)
    whole: list[int] = []
    managed: list[int] = []
    for exchange in exchanges:
        memory.extend(exchange)
        whole.append(memory.history_tokens())
        managed.append(memory.sent_tokens())
    return whole, managed
