"""The write policy: what may go into long-term memory.

Memory is read back into every future prompt and every export, so the code,
not the model, decides what is written. Small talk is skipped; anything that
looks like a credential or a sensitive identifier is refused.

(Interface fixed here; the detectors are filled in by the notebook-3 work.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["PolicyDecision", "review", "worth_remembering"]

Verdict = Literal["store", "skip", "refuse"]


@dataclass(frozen=True)
class PolicyDecision:
    """The policy's answer for one candidate memory; `reason` never repeats a secret."""

    verdict: Verdict
    reason: str
    detector: str | None = None

    @property
    def stored(self) -> bool:
        return self.verdict == "store"


_SMALL_TALK = re.compile(r"^\W*(thanks?|thank you|great|ok(ay)?|cool|nice|hi|hello|bye)\b[\W\w]{0,20}$", re.I)
_PASSWORD = re.compile(r"\b(password|passcode|pin)\b\s*(is|:|=)", re.I)


def review(content: str) -> PolicyDecision:
    """Decide whether `content` should be stored, skipped or refused, and why."""
    if not isinstance(content, str):
        raise TypeError(f"content must be a string, got {type(content).__name__}")
    text = content.strip()
    if _PASSWORD.search(text):
        return PolicyDecision("refuse", "refused: looks like a credential (password phrase)", "password_phrase")
    if not text or _SMALL_TALK.match(text):
        return PolicyDecision("skip", "skipped: small talk, nothing durable to remember", "small_talk")
    return PolicyDecision("store", "stored: a durable fact with no credential in it")


def worth_remembering(content: str) -> tuple[bool, str]:
    """The lesson's call: (should it be stored?, why)."""
    decision = review(content)
    return decision.stored, decision.reason
