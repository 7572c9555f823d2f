"""Detectors for credentials stated in words or assigned in config: passwords, PINs, key=value secrets."""

from __future__ import annotations

import re

from .detect_phrases import _value_is_secret
from .policy_scan import (_AFTER_UNICODE_WORD, _TRAILING, Span, _high_entropy, _is_variable, _key_before,
                          _literal, _matches_folded, next_word)



# Found by the word at the key's end, then the whole key is read backwards and checked: fast to scan for.
_PASSWORD_ASSIGNMENT = re.compile(
    r"""(?:password|passwd|passphrase|pass|pwd|pw)["']?[ \t]*(?P<op>=|:)[ \t]*
        (?P<value>"[^"\n]{0,256}"|'[^'\n]{0,256}'|[^\s,;&"']+)""",
    re.I | re.X,
)
_PASSWORD_ASSIGNMENT_TRIGGER = ("pass", "pw")
_PASSWORD_KEY = re.compile(r"(?:[A-Za-z0-9]+[_.-])*(?:[A-Za-z0-9]*(?:password|passwd|passphrase)|pass|pwd|pw)", re.I)

def _find_password_assignment(text: str) -> Span | None:
    """Config and code: DB_PASSWORD=..., "password": "...", PGPASSWORD: ... (templates like ${X} pass)."""
    if "=" not in text and ":" not in text:
        return None
    for match in _matches_folded(_PASSWORD_ASSIGNMENT_TRIGGER, _PASSWORD_ASSIGNMENT, text):
        key = _key_before(text, match, _PASSWORD_KEY)
        if key is None:
            continue  # "bypass=", "compass:" end in 'pass' but are not password keys
        value = match.group("value")
        if _is_variable(value.rstrip(_TRAILING), key):
            continue
        if match.group("op") == "=":  # code and .env files: anything but a placeholder is a value
            if _literal(value) is not None:
                return match.span("value")
            continue
        if key.lower() in {"pass", "pwd", "pw"}:
            continue  # "single pass: ..." is prose; a bare short key only counts with '='
        if _value_is_secret(value, next_word(text, match.end())):  # "password: at least 12 characters" is prose
            return match.span("value")
    return None


_KEY_NAME = (r"(?:[A-Za-z0-9]+[_.-])*(?:secret|token|(?:api|access|secret|private|signing|encryption|master|"
             r"account|auth|app|client|session)[_-]?key|apikey|client[_-]?secret|auth|credentials?)")
_KEY_NAME_RE = re.compile(_KEY_NAME, re.I)
_SECRET_VALUE = r"""(?P<value>"[^"\n]{16,512}"|'[^'\n]{16,512}'|[^\s"'`,;]{16,512})"""
_SECRET_ASSIGNMENT = re.compile(r"""(?:secret|token|key|auth|credentials?)["']?[ \t]*[:=][ \t]*""" + _SECRET_VALUE,
                                re.I)
_AUTH_SCHEME = re.compile(r"(?:bearer|token|basic)[ \t]+" + _SECRET_VALUE, re.I)
_SECRET_TRIGGER = ("secret", "token", "key", "auth", "credential")
_AUTH_TRIGGER = ("bearer", "token", "basic")

def _find_secret_assignment(text: str) -> Span | None:
    """A random-looking value given to a key-like name: client_secret=..., "api_key": "...", Bearer ..."""
    assigned = "=" in text or ":" in text
    for match in _matches_folded(_SECRET_TRIGGER if assigned else (), _SECRET_ASSIGNMENT, text):
        if _key_before(text, match, _KEY_NAME_RE) is not None and _high_entropy(match.group("value")):
            return match.span("value")
    for match in _matches_folded(_AUTH_TRIGGER, _AUTH_SCHEME, text, _AFTER_UNICODE_WORD):
        if _high_entropy(match.group("value")):
            return match.span("value")
    return None


