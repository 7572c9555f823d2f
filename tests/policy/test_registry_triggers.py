"""The registry's keywords for detectors that start from a trigger list (issue 44, step 2).

Each detector below finds nothing unless one of its trigger words occurs in the lowered text: its finder's only
paths start at `positions(text, TRIGGERS)` or `Names.present(text)` (read in its module: the list is named
here). So the registry's keywords for it are those words, shortened to the fewest that every trigger contains.
This test holds the registry to the code: every trigger word must contain one of the detector's keywords, so a
word added to a list in code and not to the registry fails here, naming it. The differential property
(test_registry.py) holds the findings equal with and without the pass besides.
"""

from __future__ import annotations

import pytest

from primer_memory.policy.detectors import (codes, context, documents, health, ids, lines, loose, nearby, phrases,
                                            spoken, tokens)
from primer_memory.policy.registry import load_conditions

TRIGGERED_BY: dict[str, list[tuple[str, ...]]] = {
    "password_phrase": [phrases._TRIGGERS],
    "loose_credential": [loose._TRIGGERS],
    "spoken_digits": [spoken._TRIGGERS],
    "driving_licence": [documents._LICENCE_NAMES.words],
    "document_number": [documents._DOCUMENT_WORDS],
    "code_nearby": [nearby._CODE_TRIGGERS],
    "wifi_key": [nearby._WIFI_TRIGGERS],
    "security_answer": [nearby._SECURITY_WORDS],
    "password_nearby": [nearby._PASSWORD_TRIGGERS],
    "password_followup": [context._PASSWORD_TRIGGERS, context._ASKED],
    "table_secret": [context._COLUMN_TRIGGERS],
    "one_time_code": [context._NOTICE_TRIGGERS, context._USE_TRIGGERS],
    "session_cookie": [context._COOKIE_NAMES],
    "account_password": [context._ACCOUNT_WORDS],
    "passphrase_words": [context._PHRASE_WORDS],
    "insurance_member_id": [health._MEMBER_WORDS],
    "passport_number": [ids._PASSPORT_WORDS],
    "entry_code": [codes._ENTRY_TRIGGERS],
    "recovery_secret": [codes._RECOVERY_TRIGGERS],
    "bank_account": [codes._BANK_TRIGGERS],
    # Every prefix of a vendor format (its finder looks for nothing else; the prefixes are ASCII, so a prefix in
    # the text is its lower case in the lowered text).
    "vendor_token": [tuple(f.prefix for f in tokens.TOKEN_FORMATS)],
    # Each path of find_cli_password: a flag after its command's name, a long --password flag, or a command
    # secret's own words; the Spring log path needs the word "value" (it is skipped without it).
    "cli_password": [lines._MYSQL_NAMES, ("sshpass", "login", "curl", "wget", "http", "--", "value"),
                     *(words for words, pattern in lines._COMMAND_SECRETS if pattern is not lines._SPRING_VALUE)],
}
"""Detector -> the trigger lists its finder starts from (any of them)."""

NOTES = {
    "password_phrase": "a credential word in any of its languages (phrases._TRIGGERS): the finder reads only after one",
    "loose_credential": "a credential or code word (loose._TRIGGERS): the finder reads only around one",
    "spoken_digits": "a word for a PIN, code or number (spoken._TRIGGERS): read-out digits are judged only after one",
    "driving_licence": "a driving licence's name in any of its languages (documents._LICENCE_NAMES)",
    "document_number": "an identity document's name (documents._DOCUMENT_WORDS)",
    "code_nearby": "a word for what a code opens (nearby._CODE_TRIGGERS)",
    "wifi_key": "a Wi-Fi word (nearby._WIFI_TRIGGERS)",
    "security_answer": "a security question's words (nearby._SECURITY_WORDS)",
    "password_nearby": "a password word (nearby._PASSWORD_TRIGGERS)",
    "password_followup": "a password word or what is asked for (context._PASSWORD_TRIGGERS and _ASKED)",
    "table_secret": "a secret column's name (context._COLUMN_TRIGGERS)",
    "one_time_code": "a code word or a verb that uses one (context._NOTICE_TRIGGERS and _USE_TRIGGERS)",
    "session_cookie": "a session cookie's name (context._COOKIE_NAMES)",
    "account_password": "an account's name: login, admin, root (context._ACCOUNT_WORDS)",
    "passphrase_words": "a passphrase or app password word (context._PHRASE_WORDS)",
    "insurance_member_id": "a health plan's member word (health._MEMBER_WORDS)",
    "passport_number": "a passport's name in any of its languages (ids._PASSPORT_WORDS)",
    "entry_code": "a word for what a code opens or how it is entered (codes._ENTRY_TRIGGERS)",
    "recovery_secret": "a recovery, backup or seed word (codes._RECOVERY_TRIGGERS)",
    "bank_account": "a bank account's words: routing, transit, account in its languages (codes._BANK_TRIGGERS)",
    "vendor_token": "a vendor format's fixed prefix (tokens.TOKEN_FORMATS)",
    "cli_password": "a command's name, a long flag's '--', a command secret's own words, or 'value' (lines.py)",
}
CONDITIONS = load_conditions()


@pytest.mark.parametrize("detector", sorted(TRIGGERED_BY))
def test_every_trigger_word_contains_one_of_the_detectors_keywords(detector: str) -> None:
    keywords = CONDITIONS[detector].keywords
    assert keywords, f"{detector} starts from a trigger list but declares no keyword"
    words = {w.strip().lower() for triggers in TRIGGERED_BY[detector] for w in triggers}
    uncovered = sorted(w for w in words if not any(k in w for k in keywords))
    assert uncovered == [], (f"{detector}: trigger words the registry's keywords miss {uncovered[:10]}; "
                             "add them to its row in detectors/registry.csv")


def test_each_trigger_list_is_what_its_finder_reads() -> None:
    """A wrong answer this test must catch: a registry row that names a list its finder does not read."""
    assert set(NOTES) == set(TRIGGERED_BY)
    assert all(CONDITIONS[name].note.startswith(NOTES[name]) for name in TRIGGERED_BY)
