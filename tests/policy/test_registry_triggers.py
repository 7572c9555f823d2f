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

from primer_memory.policy.detectors import (codes, context, documents, hashes, health, national,
                                            lines, loose, nearby, phrases, spoken, tokens, values, words)
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
    "password_nearby": [values.PASSWORD_TRIGGERS],
    "password_followup": [values.PASSWORD_TRIGGERS, context._ASKED],
    "table_secret": [context._COLUMN_TRIGGERS],
    "one_time_code": [context._NOTICE_TRIGGERS, context._USE_TRIGGERS],
    "session_cookie": [context._COOKIE_NAMES],
    "account_password": [context._ACCOUNT_WORDS],
    "passphrase_words": [context._PHRASE_WORDS],
    "insurance_member_id": [health._MEMBER_WORDS],
    "passport_number": [documents._PASSPORT_WORDS],
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
    # Identifiers judged only next to their names: every first_valid call of the finder passes its Names, and
    # first_valid returns at once when Names.present finds none.
    **{name: [names.words for names in lists] for name, lists in {
        **{n.name: [f.names for f in n.forms] for n in national.national_ids().values()
           if all(f.names is not None for f in n.forms)},
        }.items()},
    # Fixed pieces a finder asks for before anything else: every Swiss AHV number starts 756, every Emirates ID
    # 784, and a BitLocker key is eight dashed groups.
    "ch_ahv": [("756",)],
    "ae_emirates_id": [("784",)],
    "bitlocker_key": [("-",)],
    # The fixed pieces each always-run finder asked for first, by hand, before this registry existed.
    "mrz": [("<<",)],
    "private_key_block": [("-----BEGIN ", "PuTTY-User-Key-File-")],
    "private_key_file": [("---- BEGIN SSH2 ", '"kty"', "untrusted comment: ")],
    "password_hash": [("$", "::"), tuple(piece for piece, _ in hashes._OTHER_HASHES)],
    "url_credentials": [("://", "jdbc:oracle:")],
    "encoded_private_key": [(words._PEM_IN_BASE64,)],
    "encoded_password": [("b64", "base64")],
    "byte_array_key": [("[",)],
    "marked_key": [tuple(mark for mark, _ in tokens._MARKED)],
    "labelled_secret": [tuple(piece for piece, _, _ in tokens._LABELLED)],
    "wireguard_private_key": [("privatekey", "presharedkey")],
    "password_assignment": [("=", ":")],
    "credential_file_line": [("login", ":", "user", "/")],
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
    "password_nearby": "a password word (values.PASSWORD_TRIGGERS)",
    "password_followup": "a password word or what is asked for (values.PASSWORD_TRIGGERS and context._ASKED)",
    "table_secret": "a secret column's name (context._COLUMN_TRIGGERS)",
    "one_time_code": "a code word or a verb that uses one (context._NOTICE_TRIGGERS and _USE_TRIGGERS)",
    "session_cookie": "a session cookie's name (context._COOKIE_NAMES)",
    "account_password": "an account's name: login, admin, root (context._ACCOUNT_WORDS)",
    "passphrase_words": "a passphrase or app password word (context._PHRASE_WORDS)",
    "insurance_member_id": "a health plan's member word (health._MEMBER_WORDS)",
    "passport_number": "a passport's name in any of its languages (documents._PASSPORT_WORDS)",
    "entry_code": "a word for what a code opens or how it is entered (codes._ENTRY_TRIGGERS)",
    "recovery_secret": "a recovery, backup or seed word (codes._RECOVERY_TRIGGERS)",
    "bank_account": "a bank account's words: routing, transit, account in its languages (codes._BANK_TRIGGERS)",
    "vendor_token": "a vendor format's fixed prefix (tokens.TOKEN_FORMATS)",
    "cli_password": "a command's name, a long flag's '--', a command secret's own words, or 'value' (lines.py)",
    **{name: "the identifier's names (national_ids.toml): a number counts only next to one"
       for name in ("nl_bsn", "de_steuer_id", "se_personnummer", "dk_cpr", "pl_pesel", "pt_nif", "ie_ppsn", "ro_cnp",
                    "gr_amka", "ru_snils", "ru_inn", "ua_rnokpp", "cz_rodne_cislo", "in_pan", "jp_my_number", "au_tfn",
                    "au_medicare", "tr_kimlik", "il_teudat_zehut", "id_nik", "gb_nhs_number", "ca_health_number",
                    "hu_taj_or_tax_id", "ca_sin")},
    "ch_ahv": "every AHV number starts 756 (its finder returns at once without it)",
    "ae_emirates_id": "every Emirates ID starts 784 (its finder returns at once without it)",
    "bitlocker_key": "a BitLocker key is dashed groups (its finder returns at once without a '-')",
    "mrz": "a machine-readable zone's filler '<<' (its finder returns at once without it)",
    "private_key_block": "a PEM or PuTTY key's header (its finder reads from one)",
    "private_key_file": "an SSH2 key's header, a JWK's kty, or a minisign key's comment (its finder asks for each)",
    "password_hash": "a crypt hash's '$', a NetNTLM or pwdump line's '::', or another hash's fixed piece (hashes.py)",
    "url_credentials": "a URL's '://' or an Oracle JDBC string (its finder reads from one)",
    "encoded_private_key": "'-----BEGIN' in base64 (words._PEM_IN_BASE64)",
    "encoded_password": "the word b64 or base64 (its finder returns at once without one)",
    "byte_array_key": "an array's '[' (its finder returns at once without one)",
    "marked_key": "a key's inner mark (tokens._MARKED)",
    "labelled_secret": "a vendor label's fixed piece (tokens._LABELLED)",
    "wireguard_private_key": "WireGuard's PrivateKey or PresharedKey",
    "password_assignment": "an assignment's '=' or ':' (its finder returns at once without one)",
    "credential_file_line": "a file line's ':', 'login', 'user' or ' / ' (each of its patterns holds one)",
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


NEEDS_CHECKED_BY = {"digit": ("has_digit", "needs_digit", "_FOUR_DICTATED"), "long_token": ("has_long_token",),
                    "non_ascii": ("isascii",)}
"""What a finder's code calls to test each character class: a row may need a class only if its finder tests it."""


def test_a_class_a_row_needs_is_tested_by_its_finder() -> None:
    """Class covered: every registry row with a character class. A row that needs a class its finder never tests
    (a wrong answer this catches: 'long_token' on a detector of short codes) fails, naming the detector."""
    import inspect

    from primer_memory.policy.rules import DETECTORS

    untested = []
    for detector in DETECTORS:
        finder = getattr(detector.find, "__wrapped__", None)
        source = "needs_digit" if finder is not None else inspect.getsource(detector.find)
        untested += [(detector.name, need) for need in CONDITIONS[detector.name].needs
                     if not any(check in source for check in NEEDS_CHECKED_BY[need])]
    assert untested == []
