"""Notebook 3's reading table: what the prose after it says must stay true of its rows."""

from __future__ import annotations

from primer_memory.lessons.policy_tables import READING_EXAMPLES, reading_table
from primer_memory.policy.registry import load_conditions
from primer_memory.policy.rules import DETECTORS


def test_the_table_shows_the_registry_the_catalogue_and_public_values_as_the_prose_reads_them() -> None:
    rows = {row[0]: row[1:] for row in reading_table().rows}
    assert set(rows) == set(READING_EXAMPLES)
    always = sum(1 for c in load_conditions().values() if not c.keywords and not c.needs)
    small_talk, cbu, bare, _, bitcoin, aws_example, aws_key = (rows[t] for t in READING_EXAMPLES)
    assert small_talk == (f"{always} of {len(DETECTORS)}", "none", "store")
    assert cbu[2] == "refuse (`catalogue_bank_account`)" and bare[2] == "store"
    assert bitcoin[1:] == ("bitcoin address", "store") and aws_example[1:] == ("aws example key", "store")
    assert aws_key[2] == "refuse (`aws_access_key_id`)"


def test_the_table_takes_any_sentences() -> None:
    [row] = reading_table(("my VPN password is hunter2",)).rows
    assert row[3] == "refuse (`password_phrase`)"
