"""The lesson's worked examples as data, shared by the notebooks, the tests and `python -m primer_memory`.

Keeping them in one place means a number quoted in a notebook is the number
the tests check.
"""

from __future__ import annotations

__all__ = ["INVOICE_QUESTION", "INVOICE_ANSWER", "invoice_exchange", "invoice_chat"]

INVOICE_QUESTION = "Question {i} is about invoices. Please include the vendor name and amount."
INVOICE_ANSWER = "Answer {i} lists the invoice. It shows vendor, amount and due date."


def invoice_exchange(i: int) -> list[tuple[str, str]]:
    """Exchange number i of the invoice chat: a user question and the assistant's answer."""
    return [("user", INVOICE_QUESTION.format(i=i)), ("assistant", INVOICE_ANSWER.format(i=i))]


def invoice_chat(exchanges: int) -> list[tuple[str, str]]:
    """The first `exchanges` exchanges of the invoice chat, as (role, text) turns."""
    return [turn for i in range(1, exchanges + 1) for turn in invoice_exchange(i)]
