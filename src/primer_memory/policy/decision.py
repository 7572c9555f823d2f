"""What the write policy answers: a verdict and a reason, in a module light enough for every part to import.

Kept apart from `review` (which builds every detector) so that long-term memory, provenance and the
adapters can name a decision without loading the detectors; they are built on the first review().
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["STORE_REASON", "PolicyDecision", "Verdict"]

STORE_REASON = "stored: a durable fact with no credential or sensitive identifier in it"


Verdict = Literal["store", "skip", "refuse", "confirm"]  # confirm: held until the user confirms (policy.provenance)


@dataclass(frozen=True)
class PolicyDecision:
    """The policy's answer for one candidate memory; `reason` never repeats a secret."""

    verdict: Verdict
    reason: str
    detector: str | None = None

    @property
    def stored(self) -> bool:
        return self.verdict == "store"
