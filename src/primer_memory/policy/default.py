"""The default write policy, loaded on first use: memory can be imported, and recalled from, without the detectors."""

from __future__ import annotations

from .decision import PolicyDecision

__all__ = ["default_policy"]


def default_policy(content: str) -> PolicyDecision:
    """review(content), importing `review` on the first call: its detectors are built then, not at import."""
    from .rules import review

    return review(content)
