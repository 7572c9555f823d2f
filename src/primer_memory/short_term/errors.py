"""The named errors of short-term memory, in one module that every other one may import (no circles)."""

from __future__ import annotations

__all__ = ["InvalidBudget", "InvalidMessage", "InvalidSummary", "InvalidTokenCount", "check_summary"]


class InvalidMessage(ValueError):
    """A turn the memory cannot store: an unknown role, text that is not a string, or not a (role, text) pair."""


class InvalidBudget(ValueError):
    """A token budget or keep_last that cannot work (zero, negative, not an int).

    Its subclasses name a helper that breaks the budget rule: a token counter or a summarizer.
    """


class InvalidTokenCount(InvalidBudget, TypeError):
    """The token counter failed, or gave something other than a whole number of tokens (0 or more) for a text."""


class InvalidSummary(InvalidBudget, TypeError):
    """The summarizer gave something other than text that can be sent (a str with a UTF-8 form)."""


def check_summary(summary: object, what: str = "the summarizer") -> str:
    """`summary` if it is text that can be sent; InvalidSummary naming what came back otherwise."""
    if not isinstance(summary, str):
        raise InvalidSummary(f"{what} returned {summary!r:.40} ({type(summary).__name__}); a summarizer must return "
                             "text (a str)")
    try:
        summary.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidSummary(f"{what} returned text holding a lone surrogate (half of a character), which has no UTF-8 "
                             "form and cannot be sent; return valid Unicode") from None
    return summary
