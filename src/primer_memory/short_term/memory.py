"""Short-term memory: one conversation kept under a token budget.

A model keeps nothing between calls, so the application re-sends the
conversation every time. `ShortTermMemory` decides what is re-sent: every
message while they fit, otherwise the last few verbatim plus a summary of the
older ones that gets only the room the recent messages leave. Messages come in
the chat-API shape; a tool call and its results are kept or folded as one unit.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .chat import CHAT_ROLES, ROLES, InvalidMessage, Message, check_message, check_text, message_tokens
from .folding import (
    SUMMARY_PREFIX,
    TRUNCATION_MARKER,
    InvalidBudget,
    InvalidSummary,
    InvalidTokenCount,
    _copy,
    check_budget,
    check_summary,
    checked_counter,
    context_reference,
    cut_text,
    cut_unit,
    fold_slow,
    gallop,
)
from .summarizers import PerMessageSummarizer, RollingSummarizer, Summarizer, first_sentence, first_sentences
from .tokens import TokenCounter, estimate_tokens
from .withheld import WITHHELD, HeldTurns, refused

if TYPE_CHECKING:  # pragma: no cover
    from .handoff import Handoff

__all__ = [
    "CHAT_ROLES",
    "ROLES",
    "ContextWindow",
    "SUMMARY_PREFIX",
    "TRUNCATION_MARKER",
    "InvalidBudget",
    "InvalidMessage",
    "InvalidSummary",
    "InvalidTokenCount",
    "Message",
    "PerMessageSummarizer",
    "ShortTermMemory",
    "context_reference",
    "estimate_tokens",
    "first_sentence",
    "first_sentences",
    "token_curve",
]

START_ON = (None, "user")


@dataclass(frozen=True)
class ContextWindow:
    """What one call sends, with counts: messages folded into the summary, dropped entirely, and
    whether the newest message (or tool unit) had to be cut to fit."""

    summary: str
    messages: list[Message]
    summarized: int
    dropped: int
    truncated: bool
    held_back: int = 0  # a tool call still waiting for results, not sent until they are all in
    count: TokenCounter = field(default=estimate_tokens, repr=False, compare=False)

    @property
    def tokens(self) -> int:
        summary = self.count(self.summary) if self.summary else 0  # no summary is sent: it costs nothing, even
        return summary + sum(message_tokens(m, self.count) for m in self.messages)  # with a per-message overhead


def _as_message(turn: object, position: int) -> Message:
    """A (role, text) pair or a message dict, checked; the system role is handled by the caller."""
    if isinstance(turn, Mapping):
        return check_message(turn)
    if isinstance(turn, (str, bytes)) or not isinstance(turn, Sequence) or len(turn) != 2:
        raise InvalidMessage(f"turn {position} must be a (role, text) pair or a message dict, got {turn!r:.60}")
    role, text = turn
    if role not in CHAT_ROLES and role != "system":
        raise InvalidMessage(f"role must be one of {', '.join(map(repr, ROLES))} (or 'tool' with a tool_call_id, "
                             f"or 'system'); got {role!r}")
    if not isinstance(text, str):
        raise InvalidMessage(f"text must be a string, got {type(text).__name__}")
    if role == "system":
        return {"role": "system", "content": check_text(text, "the system message")}
    return check_message({"role": role, "content": text})


class ShortTermMemory:
    """One conversation under a token budget.

    What `context()` returns never costs more than `budget_tokens`: under
    budget everything is sent; over it the last `keep_last` messages are sent
    verbatim and the older ones are folded into a summary that gets only the
    room left. If the recent messages alone overflow, the oldest of them drop
    out; a single message (or tool call with its results) larger than the whole
    budget is cut with a visible marker, never split.
    """

    def __init__(self, budget_tokens: int, keep_last: int = 4, summarize: Summarizer | RollingSummarizer = first_sentences,
                 *, count_tokens: TokenCounter = estimate_tokens, start_on: str | None = None,
                 system: str | None = None):
        check_budget(budget_tokens, keep_last)
        if not callable(summarize):
            raise InvalidSummary(f"summarize must be a function of a list of messages, got {summarize!r}")
        if not callable(count_tokens):
            raise InvalidTokenCount(f"count_tokens must be a function of a text, got {count_tokens!r}")
        if start_on not in START_ON:
            raise InvalidBudget(f"start_on must be None or 'user', got {start_on!r}")
        if system is not None and not isinstance(system, str):
            raise InvalidMessage(f"system must be a string, got {type(system).__name__}")
        if system is not None:
            check_text(system, "the system message")
        self._budget = budget_tokens
        self._keep_last = keep_last
        self._summarize = summarize
        self._given_count = count_tokens
        # every count is checked (a whole number, 0 or more) except the lesson's own rule, which always gives one
        self._count = count_tokens if count_tokens is estimate_tokens else checked_counter(count_tokens)
        self._start_on = start_on
        self.system = system  # kept apart from the history: build_prompt puts it first
        self._reset()

    def _reset(self) -> None:
        self._messages: list[Message] = []
        self._prefix: list[int] = [0]  # running sums of message tokens
        self._units: list[int] = []  # index of each unit's first message
        self._open_calls: list[str] = []  # ids of the last tool call still waiting for a result
        self._pieces: list[str] = []  # per-message summary pieces, computed once, lazily
        self._piece_prefix: list[int] = [0]  # running sums of piece lengths
        self._fold_start = 0  # where the last fold's summary started: the next search begins there
        self._rolled_upto = 0  # rolling mode: messages before this are in the running summary
        self._rolling = ""
        self._note = ""  # a hand-off note that opens a fresh window
        self._held = HeldTurns(self._messages)  # turns no summary may take anything from, judged as they fold

    @property
    def budget_tokens(self) -> int:
        return self._budget

    @property
    def keep_last(self) -> int:
        return self._keep_last

    @property
    def summarize(self) -> Summarizer | RollingSummarizer:
        return self._summarize

    @property
    def count_tokens(self) -> TokenCounter:
        return self._given_count

    @property
    def handoff_note(self) -> str:
        """The note a hand-off left ('' if none): it opens the summary of the fresh window."""
        return self._note

    @property
    def messages(self) -> list[Message]:
        """Every message added, oldest first (a copy: editing it changes nothing here)."""
        return [_copy(m) for m in self._messages]

    def __len__(self) -> int:
        return len(self._messages)

    def __repr__(self) -> str:
        return (
            f"ShortTermMemory(budget_tokens={self._budget}, keep_last={self._keep_last}, "
            f"messages={len(self._messages)}, tokens={self.tokens()}, sent={self.sent_tokens()})"
        )

    # ------------------------------------------------------------------ adding messages

    def add(self, role: str, text: str, *, tool_calls: list[Any] | None = None,
            tool_call_id: str | None = None) -> None:
        """Append one turn; a bad role, text or tool field is refused and nothing changes.

        `add("system", text)` sets the system message, which is kept apart from the history.
        """
        if role == "system" and tool_calls is None and tool_call_id is None:
            self.add_message({"role": "system", "content": text})
            return
        message: dict[str, Any] = {"role": role, "content": text}
        if tool_calls is not None:
            message["tool_calls"] = tool_calls
        if tool_call_id is not None:
            message["tool_call_id"] = tool_call_id
        if role not in CHAT_ROLES:
            raise InvalidMessage(f"role must be one of {', '.join(map(repr, ROLES))} (or 'tool' with a "
                                 f"tool_call_id, or 'system'); got {role!r}")
        self._add_checked([check_message(message)])

    def add_message(self, message: Mapping[str, Any]) -> None:
        """Append one message in the chat-API shape (role, content, tool_calls, tool_call_id)."""
        if isinstance(message, Mapping) and message.get("role") == "system":
            if not isinstance(message.get("content"), str) or set(message) - {"role", "content"}:
                raise InvalidMessage("a system message is {'role': 'system', 'content': text}")
            self.system = check_text(message["content"], "the system message")
            return
        self._add_checked([check_message(message)])

    def extend(self, turns: Iterable[tuple[str, str] | Mapping[str, Any]]) -> None:
        """Add several turns, (role, text) pairs or message dicts; all are checked before any is added."""
        if turns is None or isinstance(turns, (str, bytes, Mapping)):
            raise InvalidMessage(f"extend needs a list of (role, text) turns, got {type(turns).__name__}")
        try:
            pending = list(turns)
        except TypeError:
            raise InvalidMessage(f"extend needs a list of (role, text) turns, got {type(turns).__name__}") from None
        checked = [_as_message(turn, i) for i, turn in enumerate(pending)]
        system = [m["content"] for m in checked if m["role"] == "system"]
        self._add_checked([m for m in checked if m["role"] != "system"])
        if system:
            self.system = system[-1]

    def _add_checked(self, messages: list[Message]) -> None:
        """Check the order of tool calls and results and count every message first, then append them.

        Counting comes before appending: a counter that fails or gives no whole number leaves the memory as it was.
        """
        open_calls = list(self._open_calls)
        last_is_call_unit = bool(self._messages) and (
            self._messages[self._units[-1]].get("tool_calls") is not None)
        for m in messages:
            if m["role"] == "tool":
                if not last_is_call_unit or m["tool_call_id"] not in open_calls:
                    expected = f"one of {open_calls}" if open_calls else "none: no tool call is waiting"
                    raise InvalidMessage(f"tool result {m['tool_call_id']!r} must follow the assistant turn that "
                                         f"called it; results expected now: {expected}")
                open_calls.remove(m["tool_call_id"])
            else:
                if open_calls:
                    raise InvalidMessage(f"tool call(s) {open_calls} have no result yet: add a tool message for "
                                         "each (an error text is a result too) before the next turn")
                open_calls = [c["id"] for c in m.get("tool_calls", ())]
                last_is_call_unit = bool(open_calls)
        costs = [message_tokens(m, self._count) for m in messages]
        for m, cost in zip(messages, costs):
            if m["role"] != "tool":
                self._units.append(len(self._messages))
            self._messages.append(m)
            self._prefix.append(self._prefix[-1] + cost)
        self._open_calls = open_calls

    def copy(self, budget_tokens: int | None = None, keep_last: int | None = None) -> ShortTermMemory:
        """The same conversation under other settings (a what-if), without re-checking every message."""
        other = ShortTermMemory(self._budget if budget_tokens is None else budget_tokens,
                                self._keep_last if keep_last is None else keep_last, self._summarize,
                                count_tokens=self._given_count, start_on=self._start_on, system=self.system)
        for name in ("_messages", "_prefix", "_units", "_open_calls", "_pieces", "_piece_prefix"):
            setattr(other, name, list(getattr(self, name)))  # messages are never edited in place, only appended
        other._held = HeldTurns(other._messages)  # judged afresh, on its own list: the pieces already hold the marks
        other._rolled_upto, other._rolling, other._note = self._rolled_upto, self._rolling, self._note
        return other

    # ------------------------------------------------------------------ counting

    def tokens(self) -> int:
        """The whole history's tokens (210 in the worked example): what sending everything would cost."""
        return self._prefix[-1]

    def history_tokens(self) -> int:
        """Same as `tokens()`: the whole history, the unmanaged baseline."""
        return self._prefix[-1]

    def sent_tokens(self) -> int:
        """What `context()` sends: summary plus messages, always <= budget_tokens (106 in the worked example)."""
        return self.window().tokens

    # ------------------------------------------------------------------ the window

    def context(self) -> tuple[str, list[Message]]:
        """The summary of older turns ('' if none) and the messages to send verbatim."""
        window = self.window()
        return window.summary, window.messages

    def window(self) -> ContextWindow:
        """`context()` with the bookkeeping a learner wants to see: what was folded, dropped, cut.

        With a rolling summarizer, building the window is when newly evicted messages are folded (one call).
        """
        end = self._units[-1] if self._open_calls else len(self._messages)  # a call still waiting is held back
        held = len(self._messages) - end
        units = self._units[: bisect.bisect_left(self._units, end)]
        note = self._note
        if note and self._count(note) > self._budget:  # a copy under a smaller budget: the note is cut to fit
            note = cut_text(note, self._budget, self._count)
        note_cost = self._count(note) if note else 0
        budget = self._budget - note_cost
        cost = self._cost
        if cost(0, end) <= budget:
            start = 0
        else:
            first = max(0, end - self._keep_last)
            u = bisect.bisect_right(units, first) - 1  # the unit holding that message: keep it whole
            while cost(units[u], end) > budget and u < len(units) - 1:
                u += 1
            start = units[u]
        if self._start_on == "user":
            u = bisect.bisect_left(units, start)
            while u < len(units) and self._messages[units[u]]["role"] != "user":
                u += 1
            start = units[u] if u < len(units) else end
        recent = [_copy(m) for m in self._messages[start:end]]
        truncated = False
        if cost(start, end) > budget:  # the newest unit alone is over the budget
            cut = cut_unit(recent, budget, self._count)
            if cut is None:
                start, recent = end, []
            else:
                recent, truncated = cut, True
        # the prefix sums hold what the recent turns cost as sent; only a cut unit is measured again
        room = budget - (sum(message_tokens(m, self._count) for m in recent) if truncated else cost(start, end))
        over = 0
        while True:
            if start == 0:
                summary, lo = "", 0
            elif isinstance(self._summarize, RollingSummarizer):
                summary, lo = self._fold_rolling(start, room - over), 0
                if not summary:
                    lo = start
            else:
                starts = units[: bisect.bisect_left(units, start)]
                summary, lo = self._fold(start, room - over, starts)
            if not (note and summary):
                summary = note or summary
                break
            joined = note + "\n" + summary  # the joining line can cost a token more than its parts
            extra = self._count(joined) - note_cost - self._count(summary)
            if extra <= 0:
                summary = joined
                break
            over += extra  # fold again into that much less room
        return ContextWindow(summary, recent, summarized=start - lo, dropped=lo, truncated=truncated,
                             held_back=held, count=self._count)

    def _cost(self, start: int, end: int) -> int:
        return self._prefix[end] - self._prefix[start]

    def _fold(self, end: int, room: int, starts: list[int]) -> tuple[str, int]:
        """Fold messages [0, end) into a summary that fits `room`, dropping the oldest units first."""
        summarizer = self._summarize
        if not isinstance(summarizer, PerMessageSummarizer):
            older = [_copy(m, WITHHELD) if self._held.reason(i) else m for i, m in enumerate(self._messages[:end])]
            return fold_slow(older, room, summarizer, self._count, starts)
        for position in range(len(self._pieces), end):
            message = self._messages[position]
            if self._held.known(position):
                message = _copy(message, WITHHELD)
            piece = check_summary(summarizer.piece(_copy(message)), "the summarizer's piece function")
            self._pieces.append(piece)
            self._piece_prefix.append(self._piece_prefix[-1] + len(piece))
        while True:  # judge the turns the summary would show (and the unit before): a withheld one changes its size
            lo = self._search(end, room, starts)
            if not starts or not self._withhold(starts[max(min(lo, len(starts) - 1) - 1, 0)], end):
                break
        if lo >= len(starts):
            return "", end
        self._fold_start = starts[lo]
        return SUMMARY_PREFIX + summarizer.separator.join(self._pieces[starts[lo]:end]), starts[lo]

    def _withhold(self, first: int, end: int) -> bool:
        """Judge turns [first, end) against the write policy; a withheld turn's piece becomes the marker's.
        True if anything new was learnt (the fold must be searched again)."""
        summarizer = self._summarize
        assert isinstance(summarizer, PerMessageSummarizer)
        learnt, changed = False, len(self._pieces)
        for position in range(first, end):
            learnt |= not self._held.judged(position)
            for marked in self._held.judge(position):
                learnt = True
                if marked < len(self._pieces):
                    withheld = _copy(self._messages[marked], WITHHELD)
                    self._pieces[marked] = check_summary(summarizer.piece(withheld), "the summarizer's piece function")
                    changed = min(changed, marked)
        for position in range(changed, len(self._pieces)):
            self._piece_prefix[position + 1] = self._piece_prefix[position] + len(self._pieces[position])
        return learnt

    def _search(self, end: int, room: int, starts: list[int]) -> int:
        """Index in `starts` of the first unit the summary of [start, end) fits `room` from (len(starts): none)."""
        sep = self._summarize.separator  # type: ignore[union-attr]

        def text(start: int) -> str:
            return SUMMARY_PREFIX + sep.join(self._pieces[start:end])

        if self._count is estimate_tokens:
            limit = 4 * room  # ceil(chars / 4) <= room  <=>  chars <= 4 * room

            def fits(start: int) -> bool:
                chars = len(SUMMARY_PREFIX) + self._piece_prefix[end] - self._piece_prefix[start]
                return chars + len(sep) * (end - start - 1) <= limit
        else:
            def fits(start: int) -> bool:
                return self._count(text(start)) <= room

        # the summary only shrinks as its start moves on, so the first start that fits is found by bisection;
        # a real counter is costly on long texts, so search outwards from where the last fold ended
        if self._count is estimate_tokens:
            lo, hi = 0, len(starts)
        else:
            lo, hi = gallop(len(starts), lambda i: fits(starts[i]),
                             bisect.bisect_left(starts, self._fold_start) if self._fold_start else len(starts) - 1)
        while lo < hi:
            mid = (lo + hi) // 2
            if fits(starts[mid]):
                hi = mid
            else:
                lo = mid + 1
        while lo < len(starts) and not fits(starts[lo]):  # a counter need not be monotone: check, never trust
            lo += 1
        return lo

    def _fold_rolling(self, end: int, room: int) -> str:
        """Rolling mode: fold the newly evicted messages into the running summary in one call."""
        summarizer = self._summarize
        assert isinstance(summarizer, RollingSummarizer)
        target = room - self._count(SUMMARY_PREFIX)
        if target <= 0:
            return ""  # no room now; the messages are folded on a later call that has room
        # a withheld turn reaches the model-written summary as the marker only
        new = [_copy(self._messages[i], WITHHELD if self._held.reason(i) else None)
               for i in range(self._rolled_upto, end)]
        if new:  # nothing new, no call: a summary already kept was cut to its room when it was kept
            rolling = check_summary(summarizer(self._rolling, new, max_tokens=target))
            if self._count(SUMMARY_PREFIX + rolling) > room:  # outgrew its room: re-summarize once
                rolling = check_summary(summarizer(rolling, [], max_tokens=target))
            if self._count(SUMMARY_PREFIX + rolling) > room:  # a summarizer that ignores max_tokens: cut, then keep
                rolling = cut_text(rolling, target, self._count)
            lines = rolling.split("; ")  # the summary is judged whole too: its oldest lines give way while refused
            while lines and refused("; ".join(lines)) is not None:
                lines.pop(0)
            rolling = "; ".join(lines)
            self._rolling, self._rolled_upto = rolling, end  # only text that passed the checks is kept
        if not self._rolling:
            return ""
        summary = SUMMARY_PREFIX + self._rolling
        return summary if self._count(summary) <= room else cut_text(summary, room, self._count)

    # ------------------------------------------------------------------ resetting

    def handoff(self, long_term: Any = None, scope: Any = None, *, max_note_tokens: int | None = None) -> Handoff:
        """Reset with a written hand-off: a short note of durable facts opens a fresh window.

        The facts go through the write policy; with `long_term` and `scope` they
        are also promoted to long-term memory (`LongTermMemory.remember`, which applies the policy).
        """
        from .handoff import write_handoff

        if max_note_tokens is None:
            max_note_tokens = max(self._budget // 4, 1)
        elif isinstance(max_note_tokens, bool) or not isinstance(max_note_tokens, int):
            raise InvalidBudget(f"max_note_tokens must be a whole number, got {max_note_tokens!r}")
        elif not 1 <= max_note_tokens <= self._budget:  # a note over the budget would break the budget
            raise InvalidBudget(f"max_note_tokens must be from 1 to budget_tokens ({self._budget}), "
                                f"got {max_note_tokens}")
        result = write_handoff(self._messages, self._note, max_note_tokens, self._count, long_term, scope)
        self._reset()
        self._note = result.note
        return result


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
        whole.append(memory.tokens())
        managed.append(memory.sent_tokens())
    return whole, managed
