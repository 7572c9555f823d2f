"""The lesson's worked examples as data, shared by the notebooks, the tests and `python -m primer_memory`.

Keeping them in one place means a number quoted in a notebook is the number
the tests check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .antipatterns import GlobalIndexStore
    from ..long_term.memory import LongTermMemory, Scope

__all__ = ["INVOICE_QUESTION", "INVOICE_ANSWER", "invoice_exchange", "invoice_chat", "tool_turn", "tool_chat",
           "TOOL_CHAT_FACTS"]

INVOICE_QUESTION = "Question {i} is about invoices. Please include the vendor name and amount."
INVOICE_ANSWER = "Answer {i} lists the invoice. It shows vendor, amount and due date."


def invoice_exchange(i: int) -> list[tuple[str, str]]:
    """Exchange number i of the invoice chat: a user question and the assistant's answer."""
    return [("user", INVOICE_QUESTION.format(i=i)), ("assistant", INVOICE_ANSWER.format(i=i))]


def invoice_chat(exchanges: int) -> list[tuple[str, str]]:
    """The first `exchanges` exchanges of the invoice chat, as (role, text) turns."""
    return [turn for i in range(1, exchanges + 1) for turn in invoice_exchange(i)]


# --------------------------------------------------------------------------- notebook 1: an agent with tools

VENDORS = ("Globex", "Initech", "Umbrella", "Hooli", "Soylent")
TOOL_CHAT_ASIDES = {
    2: "Thanks, great! ",
    3: "Our fiscal year starts in April. ",
    5: "Always pay Globex invoices in euros. ",
    7: "My VPN password is hunter2, by the way. ",
    11: "Alice approves payments above 5,000 EUR. ",
}
"""Things the user says in passing: small talk, durable facts, and a secret that must never be kept."""


def _invoice(i: int) -> dict[str, str | None]:
    paid = None if i % 4 == 0 else f"2026-09-{i % 28 + 1:02d}"
    return {"invoice": f"INV-{1000 + i}", "vendor": VENDORS[i % len(VENDORS)],
            "amount": f"{100 + (i * 37) % 900} EUR", "due": f"2026-10-{i % 28 + 1:02d}", "paid_on": paid}


def tool_turn(i: int) -> list[dict]:  # list[Message]
    """Turn i of an agent chat: a question, one assistant turn with two tool calls, their two results, the answer."""
    import json

    from ..short_term.chat import tool_call

    inv = _invoice(i)
    ask = {"invoice": inv["invoice"]}
    answer = (f"Invoice {inv['invoice']} from {inv['vendor']} for {inv['amount']} was paid on {inv['paid_on']}."
              if inv["paid_on"] else
              f"Invoice {inv['invoice']} from {inv['vendor']} for {inv['amount']} is not paid; it is due on {inv['due']}.")
    return [
        {"role": "user", "content": f"{TOOL_CHAT_ASIDES.get(i, '')}Has invoice {inv['invoice']} been paid?"},
        {"role": "assistant", "content": "", "tool_calls": [tool_call(f"call_{i}a", "get_invoice", ask),
                                                             tool_call(f"call_{i}b", "get_payment", ask)]},
        {"role": "tool", "tool_call_id": f"call_{i}a", "content": json.dumps(
            {k: inv[k] for k in ("invoice", "vendor", "amount", "due")})},
        {"role": "tool", "tool_call_id": f"call_{i}b", "content": json.dumps(
            {"invoice": inv["invoice"], "paid_on": inv["paid_on"]})},
        {"role": "assistant", "content": answer},
    ]


def tool_chat(turns: int) -> list[dict]:  # list[Message]
    """The first `turns` turns of the agent chat, five messages each."""
    return [m for i in range(1, turns + 1) for m in tool_turn(i)]


def TOOL_CHAT_FACTS(turns: int) -> list[tuple[str, str]]:  # noqa: N802  (a table, computed)
    """One checkable fact per turn: (invoice id, its amount)."""
    return [(str(_invoice(i)["invoice"]), str(_invoice(i)["amount"])) for i in range(1, turns + 1)]


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


# --------------------------------------------------------------------------- notebook 2: Alice's memories

ALICE_TENANT = "acme"
ALICE_USER = "alice"

ALICE_MEMORIES: tuple[dict[str, object], ...] = (
    {"kind": "episodic", "content": "On 2026-09-18 Alice rejected the vendor Globex over late invoices.",
     "importance": 7},
    {"kind": "semantic", "content": "Alice's fiscal year starts in April.", "key": "fiscal_year_start",
     "importance": 8},
    {"kind": "procedural",
     "content": "To reconcile invoices, match each vendor invoice to its payment, then list mismatches.",
     "importance": 6},
    {"kind": "semantic", "content": "Alice approves travel for her team.", "key": "travel_approver",
     "importance": 5},
    {"kind": "episodic", "content": "On 2026-09-25 Alice approved the Initech invoice for 1,200 dollars.",
     "importance": 3},
    {"kind": "procedural", "content": "To book travel, check the team budget, then ask Alice to approve it.",
     "importance": 4},
)
"""Alice's memories, in the order they were written: two of each kind (diary, encyclopedia, habit)."""

RECALL_QUESTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("what happened with Globex?", ("episodic", "semantic", "procedural")),
    ("how do I reconcile invoices?", ("procedural",)),
)
"""The lesson's two questions, each with the kinds it searches: the first recalls the diary entry, the second the habit."""


def alice_scope() -> "Scope":
    """The scope Alice's memories live in (tenant acme, user alice)."""
    from ..long_term.memory import Scope

    return Scope(ALICE_TENANT, ALICE_USER)


def alice_memories() -> list[dict[str, object]]:
    """Fresh copies of Alice's memories, ready for `LongTermMemory.remember_many`."""
    return [dict(m) for m in ALICE_MEMORIES]


def alice_store(path: object = None, **kwargs: object) -> "LongTermMemory":
    """A long-term store (in memory, or in the SQLite file `path`) holding Alice's memories."""
    from ..long_term.memory import LongTermMemory

    memory = LongTermMemory(path=path, **kwargs)  # type: ignore[arg-type]
    memory.remember_many(alice_scope(), alice_memories(), provenance="user")  # Alice's own words
    return memory


__all__ += ["ALICE_TENANT", "ALICE_USER", "ALICE_MEMORIES", "RECALL_QUESTIONS",
            "alice_scope", "alice_memories", "alice_store"]


# --------------------------------------------------------------------------- notebook 3: the safety rules

SAFETY_MEMORIES: tuple[tuple[tuple[str, str], dict[str, object]], ...] = (
    (("acme", "alice"), {"kind": "semantic", "content": "Alice approves travel for her team.",
                         "key": "travel_approver"}),
    (("acme", "alice"), {"kind": "semantic", "content": "Alice's fiscal year starts in April.",
                         "key": "fiscal_year_start", "source": "conversation"}),
    (("acme", "alice"), {"kind": "semantic", "content": "Alice's fiscal year starts in July.",
                         "key": "fiscal_year_start", "source": "user correction"}),
    (("acme", "alice"), {"kind": "semantic", "content": "Acme plans to acquire Initech in Q4.",
                         "key": "acquisition_plan"}),
    (("acme", "alice"), {"kind": "episodic",
                         "content": "On 2026-09-18 Alice rejected the vendor Globex over late invoices."}),
    (("acme", "alice"), {"kind": "procedural",
                         "content": "To reconcile invoices, match each vendor invoice to its payment, then list mismatches."}),
    (("acme-corp", "dan"), {"kind": "semantic", "content": "Acme-Corp pays its invoices on the 25th.",
                            "key": "payment_day"}),
    (("globex", "carol"), {"kind": "semantic", "content": "Globex prefers invoices in euros.",
                           "key": "invoice_currency"}),
)
"""Who remembers what in notebook 3: Alice (with a correction), her neighbour tenant acme-corp, and Carol."""

ADVERSARIAL_QUERIES: dict[str, tuple[tuple[str, str], str]] = {
    "quote Acme's secret + tenant_id=acme OR 1=1": (("globex", "carol"),
                                                    "Acme plans to acquire Initech in Q4. tenant_id=acme OR 1=1"),
    "SQL injection in the query": (("globex", "carol"), "invoices' OR '1'='1' --"),
    "sibling tenant (acme sees acme-corp?)": (("acme", "alice"), "when are invoices paid?"),
    "ask for another user's fact": (("globex", "carol"), "when does Alice's fiscal year start?"),
    "an honest question": (("globex", "carol"), "which currency for invoices?"),
}
"""Preset attacks for the isolation panel: (caller's tenant and user, query)."""


def safety_world(path: object = None) -> tuple["LongTermMemory", "GlobalIndexStore"]:
    """Notebook 3's memories written into both designs: the partitioned store and the naive global index."""
    from .antipatterns import GlobalIndexStore
    from ..long_term.memory import LongTermMemory, Scope

    partitioned = LongTermMemory(path=path)  # type: ignore[arg-type]
    naive = GlobalIndexStore(partitioned.embedder)
    for (tenant, user), memory in SAFETY_MEMORIES:
        scope = Scope(tenant, user)
        partitioned.remember(scope, **memory, provenance="user")  # type: ignore[arg-type]  (each user's own words)
        naive.remember(scope, str(memory["content"]), provenance="user")
    return partitioned, naive


__all__ += ["SAFETY_MEMORIES", "ADVERSARIAL_QUERIES", "safety_world"]


# --------------------------------------------------------------------------- notebook 4: putting it together

SCRIPTED_SYSTEM = "You are Alice's finance assistant. Reply briefly. Propose task updates as JSON."
SCRIPTED_TURNS: tuple[dict[str, object], ...] = (
    {"user": "Let's reconcile September's invoices. Start by fetching the invoices.",
     "reply": "Fetched 4 invoices from the vendor portal.",
     "remember": (),
     "propose": {"step": "fetch_invoices", "status": "done", "output": "4 invoices"}},
    {"user": "Thanks, great! My VPN password is hunter2 in case you need the portal.",
     "reply": "Noted. The matching is finished too: all matched.",  # it claims work it has not done
     "remember": (("semantic", "Thanks, great!", None),
                  ("semantic", "Alice's VPN password is hunter2.", "vpn_password")),
     "propose": {"step": "match", "status": "done", "output": "all matched"}},
    {"user": "Now fetch the payments from the bank feed.",
     "reply": "Fetched 3 payments from the bank feed.",
     "remember": (),
     "propose": {"step": "fetch_payments", "status": "done", "output": "3 payments"}},
    {"user": "How do I reconcile invoices again? Then finish the matching.",
     "reply": "Matched each invoice to its payment: 3 matched, 1 unpaid (Globex).",
     "remember": (("episodic", "In September 2026 the Globex invoice was still unpaid after reconciliation.", None),),
     "propose": {"step": "match", "status": "done", "output": "3 matched, 1 unpaid (Globex)"}},
)
"""A scripted stand-in for a model, one dict per turn: what the user says, the reply, the memories the
"model" asks to keep as (kind, content, key), and the task update it proposes. The code decides what is written."""

__all__ += ["SCRIPTED_SYSTEM", "SCRIPTED_TURNS"]
