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


# --------------------------------------------------------------------------- notebook 4: task state

RECONCILE_TASK_ID = "reconcile-september"
RECONCILE_GOAL = "Reconcile September's vendor invoices with the payments made"
RECONCILE_STEP_NAMES: tuple[str, ...] = ("fetch_invoices", "fetch_payments", "match")
RECONCILE_STEPS: tuple[tuple[str, str], ...] = (
    ("fetch_invoices", "count"),  # output must say how many: "4 invoices"
    ("fetch_payments", "count"),
    ("match", "text"),  # output is a short readable text: "all matched"
)
RECONCILE_OUTPUTS: dict[str, str] = {
    "fetch_invoices": "4 invoices",
    "fetch_payments": "3 payments",
    "match": "all matched",
}
# The lesson's worked example: what the model proposes, in order, and whether the code writes it.
RECONCILE_PROPOSALS: tuple[tuple[dict[str, str], bool], ...] = (
    ({"step": "fetch_invoices", "status": "done", "output": "4 invoices"}, True),
    ({"step": "match", "status": "done", "output": "all matched"}, False),  # current step is fetch_payments
    ({"step": "fetch_payments", "status": "done", "output": "3 payments"}, True),
)
RECONCILE_RESUMES_AT = "match"
__all__ += ["RECONCILE_TASK_ID", "RECONCILE_GOAL", "RECONCILE_STEP_NAMES", "RECONCILE_STEPS",
            "RECONCILE_OUTPUTS", "RECONCILE_PROPOSALS", "RECONCILE_RESUMES_AT"]
