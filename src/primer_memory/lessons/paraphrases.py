"""A labelled paraphrase set: 24 memories of a finance assistant, and questions that ask for them in other words.

Each memory has two questions written to avoid its content words (a
paraphrase, as a user would ask weeks later), plus off-topic questions that no
memory answers. The split into a tuning half and a held-out half is fixed here,
by position, before anything was measured: settings may be chosen on `tune()`
only, and `held_out()` reports how they generalise. Used by notebook 2 and
`benchmarks/bench_recall.py`.
"""

from __future__ import annotations

from typing import Any

__all__ = ["MEMORIES", "QUESTIONS", "OFF_TOPIC", "held_out", "tune"]

MEMORIES: tuple[tuple[str, str], ...] = (
    ("episodic", "On 2026-09-18 Alice rejected the vendor Globex over late invoices."),
    ("semantic", "Alice's fiscal year starts in April."),
    ("procedural", "To reconcile invoices, match each vendor invoice to its payment, then list mismatches."),
    ("semantic", "Alice approves travel for her team."),
    ("episodic", "On 2026-09-25 Alice approved the Initech invoice for 1,200 dollars."),
    ("procedural", "To book travel, check the team budget, then ask Alice to approve it."),
    ("semantic", "The office printer on floor three jams when the paper tray is overfilled."),
    ("semantic", "Bob is the contact for payroll questions."),
    ("procedural", "To onboard a new supplier, collect its tax form and bank details, then register it in the ERP."),
    ("episodic", "On 2026-08-30 the quarterly audit found two duplicate payments to Umbrella Ltd."),
    ("semantic", "Expense reports are due on the fifth working day of each month."),
    ("procedural", "To close the month, post accruals, run depreciation, then lock the ledger."),
    ("semantic", "Alice prefers short summaries with the total in the first line."),
    ("episodic", "On 2026-09-02 the bank changed the cut-off for same-day transfers to 2 pm."),
    ("semantic", "The company credit card limit is 5,000 euros per month."),
    ("procedural", "To request a refund, open a ticket with the order number and attach the receipt."),
    ("semantic", "Acme's headquarters are in Rotterdam."),
    ("episodic", "On 2026-07-14 Carol from Globex asked for invoices in euros instead of dollars."),
    ("procedural", "To renew a software licence, get two quotes and send them to procurement."),
    ("semantic", "Meetings with the finance team happen on Tuesday mornings."),
    ("episodic", "On 2026-09-10 the server room flooded and backups were restored from tape."),
    ("semantic", "Invoices above 10,000 euros need a second approver."),
    ("procedural", "To pay a foreign supplier, check the exchange rate, then schedule a SWIFT transfer."),
    ("semantic", "Alice is allergic to peanuts, so team lunches avoid them."),
)
"""(kind, content) in write order."""

QUESTIONS: tuple[tuple[str, int], ...] = (
    ("why did we stop working with Globex?", 0),
    ("which supplier got dropped for sending bills too slowly?", 0),
    ("when does Alice's budget year begin?", 1),
    ("in which month does the accounting period open?", 1),
    ("how do I check that every bill got paid?", 2),
    ("what is the procedure for comparing bills against settlements?", 2),
    ("who signs off on business trips for the team?", 3),
    ("whose permission do staff need before flying to a conference?", 3),
    ("what did Alice sign off for Initech?", 4),
    ("which payment to Initech got the green light last month?", 4),
    ("what are the steps to arrange a business trip?", 5),
    ("how should I plan a flight and hotel for work?", 5),
    ("why does the copier keep getting stuck?", 6),
    ("what is wrong with the machine that prints on the third level?", 6),
    ("who should I ask about my salary?", 7),
    ("who handles wages and pay slips?", 7),
    ("how do I add a new vendor to our systems?", 8),
    ("what paperwork is needed before we buy from a new company?", 8),
    ("what did the auditors discover this quarter?", 9),
    ("were any bills paid twice?", 9),
    ("when must I submit my spending claims?", 10),
    ("what is the deadline for reimbursement forms?", 10),
    ("what are the steps for the end-of-month closing?", 11),
    ("how do we finish the books at the end of each period?", 11),
    ("how does Alice like her reports written?", 12),
    ("what format does Alice want for updates?", 12),
    ("what time is the deadline for urgent wires now?", 13),
    ("did anything change about same-day money transfers at the bank?", 13),
    ("how much can I spend on the corporate card?", 14),
    ("what is the monthly cap on the company Visa?", 14),
    ("how do I get my money back for a purchase?", 15),
    ("what is the process to return an order and be reimbursed?", 15),
    ("where is Acme based?", 16),
    ("in which city is the main office?", 16),
    ("which currency does Globex want to be billed in?", 17),
    ("what did Carol ask about billing?", 17),
    ("how do I extend a subscription for an application?", 18),
    ("what is required before renewing software?", 18),
    ("when does the accounting group meet?", 19),
    ("what day is the weekly finance sync?", 19),
    ("what happened to the data centre in September?", 20),
    ("how were files recovered after the water damage?", 20),
    ("who else must approve a very large bill?", 21),
    ("what is the rule for big invoices?", 21),
    ("how do I send money to a supplier abroad?", 22),
    ("what are the steps for an international wire?", 22),
    ("what food should we avoid when ordering for the team?", 23),
    ("does Alice have any dietary restrictions?", 23),
)
"""(question, index into MEMORIES of the memory it asks for)."""

OFF_TOPIC: tuple[str, ...] = (
    "what is the capital of Australia?",
    "how tall is Mount Everest?",
    "who won the football match yesterday?",
    "what is a good recipe for pancakes?",
    "how many moons does Jupiter have?",
    "what is it?",
    "tell me a joke about cats",
    "how do plants turn sunlight into energy?",
)
"""Questions no memory answers: a relevance floor should let nothing through for these."""


def tune() -> tuple[list[tuple[str, int]], list[str]]:
    """The tuning half: questions and off-topic questions at even positions."""
    return list(QUESTIONS[0::2]), list(OFF_TOPIC[0::2])


def held_out() -> tuple[list[tuple[str, int]], list[str]]:
    """The held-out half: questions and off-topic questions at odd positions (never used to choose settings)."""
    return list(QUESTIONS[1::2]), list(OFF_TOPIC[1::2])


def labelled_store(embedder: object, memories: tuple[tuple[str, str], ...] = MEMORIES) -> tuple[Any, Any, list[str]]:
    """(memory, scope, ids): the memories in a fresh in-memory store with this embedder, every one stored (the set
    is about ranking, not the write policy), and their ids in the given order."""
    from ..long_term.memory import LongTermMemory
    from ..long_term.records import Scope
    from ..policy.rules import PolicyDecision

    scope = Scope("paraphrases", "bench")
    memory = LongTermMemory(embedder=embedder, policy=lambda _: PolicyDecision("store", "stored: labelled set"))  # type: ignore[arg-type]
    ids = [r.record.id for r in memory.remember_many(scope, [{"kind": k, "content": c} for k, c in memories],
                                                              provenance="user")]  # type: ignore[union-attr]
    return memory, scope, ids


def recall_at_1(embedder: object, questions: list[tuple[str, int]], memories: tuple[tuple[str, str], ...] = MEMORIES,
                ) -> list[tuple[str, int, int, float, float]]:
    """For each question: (question, target, recalled position, cosine of the target, best cosine of any other).

    The memories go into a fresh in-memory store with this embedder (every one is
    stored: the set is about ranking, not the write policy).
    """
    memory, scope, ids = labelled_store(embedder, memories)
    rows = []
    for question, target in questions:
        scores = {r.id: s for r, s in memory.similarities(scope, question)}
        recalled = memory.recall(scope, question, k=1)[0]
        others = max(s for rid, s in scores.items() if rid != ids[target])
        rows.append((question, target, ids.index(recalled.id), scores[ids[target]], others))
    return rows


__all__ += ["labelled_store", "recall_at_1"]
