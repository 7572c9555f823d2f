"""Which turns of a chat nothing may be taken from: judged whole, and across joined windows of neighbouring turns.

Whatever outlives a turn (the summary of older turns, a hand-off note, a promoted fact) is built from turns this
module lets through. A turn the write policy refuses whole is withheld as a whole, never split into sentences that
pass alone; and a secret typed in two or three pieces ("51814192" / "76682798") is read across the pieces, so
every piece is withheld. `HeldTurns` judges a growing chat lazily, one turn at a time, so a summary that shows the
newest few turns pays for those turns only.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Sequence
from typing import Any
from .chat import Message

__all__ = ["JOINS", "WINDOW", "WITHHELD", "HeldTurns", "held_back", "refused", "split_secrets"]

JOINS = ("\n", " ", "")
"""How neighbouring turns are joined to be judged as one text: as separate lines, as one line, and run together,
so a number broken over two turns ("51814192" / "76682798") is read whole."""
WINDOW = 3  # a secret in parts is looked for across up to this many neighbouring turns
WITHHELD = "[withheld: the write policy refuses this turn]"
"""What a summary shows in place of a withheld turn: the turn was there, and nothing of it is kept."""


@functools.lru_cache(maxsize=4096)
def refused(text: str) -> str | None:
    """The write policy's reason if it refuses `text`, else None (the default policy is fixed: asked once a text)."""
    from ..policy.rules import review  # the policy loads its detectors on first use, not on import

    decision = review(text)
    return decision.reason if decision.verdict == "refuse" else None


@functools.lru_cache(maxsize=4096)
def _findings(text: str) -> tuple[Any, ...]:
    """What the policy's detectors find in `text`: a turn or a pair sits in many windows, and chats repeat."""
    from ..policy.rules import findings

    return tuple(findings(text))


class HeldTurns:
    """The turns of one chat that nothing may be taken from, each with the policy's reason, judged on demand.

    `messages` is the chat's own list; it may grow (never change) after this is made. `judge(i)` reads turn i
    alone and every window of two and three neighbouring turns that holds it, over the whole chat and over the
    user's turns alone (so a reply in between, "ok", does not hide a number typed in two halves). A window marks
    all its turns when its joined text holds a secret that no turn, and no pair of them, gives alone.
    """

    def __init__(self, messages: Sequence[Message]):
        self._messages = messages
        self._alone: dict[int, str | None] = {}  # judged turns -> the reason the policy refuses it whole, or None
        self.split: dict[int, str] = {}  # turns holding part of a secret split across a window -> the reason
        self._windows: set[tuple[int, ...]] = set()
        self._users: list[int] = []  # positions of the user's turns, extended as the chat grows
        self._seen = 0
        self._settled: set[int] = set()  # judged turns every window of which exists already: nothing new can come

    def reason(self, position: int) -> str | None:
        """The policy's reason if turn `position` is withheld, else None (its own refusal first, then a window's)."""
        self.judge(position)
        return self._alone[position] or self.split.get(position)

    def judged(self, position: int) -> bool:
        """Whether turn `position` has been read alone already."""
        return position in self._alone

    def known(self, position: int) -> str | None:
        """The reason turn `position` is withheld, if that is known already (nothing is judged here)."""
        return self._alone.get(position) or self.split.get(position)

    def judge(self, position: int) -> set[int]:
        """Judge turn `position` with every window that holds it; the positions this newly withholds.

        A turn judged while the chat was shorter is judged again with the windows that newer turns make.
        """
        if position in self._settled:
            return set()
        before = len(self.split)
        new = position not in self._alone
        if new:
            text = self._messages[position]["content"]
            self._alone[position] = refused(text) if text.strip() else None
        self._judge_windows(position)
        newly = set(list(self.split)[before:])  # dicts keep insertion order: the marks this call added
        return newly | ({position} if new and self._alone[position] else set())

    def judge_all(self) -> dict[int, str]:
        """Every withheld turn of the chat as it is now, with its reason."""
        held = {}
        for position in range(len(self._messages)):
            if (why := self.reason(position)) is not None:
                held[position] = why
        return held

    def _judge_windows(self, position: int) -> None:
        """Judge every window of two and three neighbouring turns that holds `position`, each once."""
        messages = self._messages
        for i in range(self._seen, len(messages)):
            if messages[i]["role"] == "user":
                self._users.append(i)
        self._seen = len(messages)
        orders: list[tuple[Sequence[int], int]] = [(range(len(messages)), position)]
        if messages[position]["role"] == "user" and len(self._users) < len(messages):
            orders.append((self._users, bisect.bisect_left(self._users, position)))
        if all(at + WINDOW - 1 < len(order) for order, at in orders):
            self._settled.add(position)
        for order, at in orders:
            for width in range(2, WINDOW + 1):
                for first in range(max(0, at - width + 1), min(at, len(order) - width) + 1):
                    window = tuple(order[first:first + width])
                    if window not in self._windows:
                        self._windows.add(window)
                        self._judge_window(window)

    def _judge_window(self, window: tuple[int, ...]) -> None:
        parts = [self._messages[i]["content"] for i in window]
        if any(not part.strip() for part in parts):
            return
        findings = _findings
        for joint in JOINS:
            joined = joint.join(parts)
            found = findings(joined)
            if not found:
                continue
            # what the turns give alone, and (for three) what each neighbouring pair gives: a window is marked only
            # when it needs all its turns, so a fact beside a two-turn secret is not withheld with it. A finding is
            # known by where it starts: run together, a value can run on into the next turn ("4827.Please"), and
            # that is still the one turn's secret, not a new one
            alone: set[tuple[str, int]] = set()
            at, starts = 0, []
            for part in parts:
                starts.append(at)
                alone |= {(f.detector, f.start + at) for f in findings(part)}
                at += len(part) + len(joint)
            if len(parts) == 3:
                for k in (0, 1):
                    pair = joint.join(parts[k:k + 2])
                    alone |= {(f.detector, f.start + starts[k]) for f in findings(pair)}
            if any((f.detector, f.start) not in alone for f in found):
                why = refused(joined)
                if why is not None:
                    for position in window:
                        self.split.setdefault(position, why)
                    return


def split_secrets(messages: Sequence[Message]) -> dict[int, str]:
    """Turns that hold part of a secret split across two or three neighbouring turns, each with the policy's
    reason (a turn refused whole is not in it unless a window needs it too)."""
    held = HeldTurns(messages)
    for position in range(len(messages)):
        held._judge_windows(position)
    return dict(sorted(held.split.items()))


def held_back(messages: Sequence[Message]) -> dict[int, str]:
    """Turns nothing may be taken from, with the policy's reason: a turn it refuses whole (never split into
    sentences that pass alone), and every turn of a secret split across neighbouring turns."""
    return HeldTurns(messages).judge_all()
