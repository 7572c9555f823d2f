"""Detectors for credentials stated in words or assigned in config: passwords, PINs, key=value secrets."""

from __future__ import annotations

import re

from .policy_scan import (_AFTER_UNICODE_WORD, _QUOTED, _TRAILING, Span, _high_entropy, _is_variable, _key_before,
                          _literal, _matches, _matches_folded)


# --------------------------------------------------------------------------- phrase detectors

# Words that describe a password rather than being one: "the password is on the wiki", "... is required".
_DESCRIPTIVE = frozenset("""
a an the on in at by of for to from with without under inside behind into onto via per
not no never always still now also only just too very so quite really already usually
this that it its these those whatever what which who where when how why same different
new old strong weak long short secure insecure complex simple hard easy valid invalid
correct incorrect wrong right blank empty missing optional mandatory unknown known
case case-sensitive sensitive insensitive due available unavailable there here somewhere
personal shared unique temporary permanent automatic manual mine yours theirs ours his hers
being been be one your my our their his her see ask check call contact use found
bad good fine ok okay
""".split())
# A number or word followed by one of these describes a length: "the PIN is 4 digits", "... is four characters long".
_UNITS = frozenset("characters character chars char digits digit letters letter symbols words long minimum min max "
                   "maximum".split())
# Stand-ins that are not a value: templates, environment references, masks, booleans.

def _value_is_secret(raw: str, next_word: str, *, numeric_only: bool = False) -> bool:
    """Judge the word after "password is": a value (hunter2) or a description (on the wiki, required, 12 chars)."""
    value = _literal(raw)
    if value is None:
        return False
    if _QUOTED.match(raw):
        return True
    if numeric_only:  # a PIN is digits; "the pin is loose" is about a pin
        return value.isdigit() and 3 <= len(value) <= 12 and next_word.lower() not in _UNITS
    if next_word.lower() in _UNITS:
        return False
    lowered = value.lower()
    if lowered in _DESCRIPTIVE:
        return False
    if value.isalpha() and value.islower() and lowered.endswith(("ed", "ing", "ly")):
        return False  # participles and adverbs: "stored", "expiring", "randomly generated"
    return True


_PASSWORD_PHRASE = re.compile(
    r"""(?P<word>pass(?:word|wd|code|phrase)s?|pwd|pin(?:[ -]?(?:code|number))?|wi-?fi\s+key)\b
        (?:\s+(?:for|of|to|on|at)\s+[\w .'&-]{1,40}?)?
        \s*(?:\b(?:(?:is|was|has\s+been|will\s+be)\s+(?:now\s+)?)?(?:changed|set|reset|updated)\s+to\b
             |\bis\s+now\b|\bwill\s+be\b|\bis\b|\bwas\b|\bbecomes\b|(?P<op>:|=)|->)
        \s*(?P<value>"[^"\n]{1,128}"|'[^'\n]{1,128}'|`[^`\n]{1,128}`|“[^”\n]{1,128}”|[^\s"'`“]+)
        (?:\s+(?P<next>[\w-]+))?""",
    re.I | re.X,
)


_PASSWORD_PHRASE_TRIGGER = re.compile(r"pass|pwd|pin|wi")


def _find_password_phrase(text: str) -> Span | None:
    """'my VPN password is hunter2', 'PIN: 4821', 'the passcode for the door is 7731'."""
    for match in _matches_folded(_PASSWORD_PHRASE_TRIGGER, _PASSWORD_PHRASE, text, _AFTER_UNICODE_WORD):
        word = match.group("word").lower()
        numeric = word.startswith("pin")
        value = match.group("value")
        if match.group("op") and _is_variable(value.rstrip(_TRAILING), word):
            continue
        if _value_is_secret(value, match.group("next") or "", numeric_only=numeric):
            start = match.start("value")
            return start, start + len(value if _QUOTED.match(value) else value.rstrip(_TRAILING))
    return None


# Found by the word at the key's end, then the whole key is read backwards and checked: fast to scan for.
_PASSWORD_ASSIGNMENT = re.compile(
    r"""(?:password|passwd|passphrase|pass|pwd|pw)["']?[ \t]*(?P<op>=|:)[ \t]*
        (?P<value>"[^"\n]{0,256}"|'[^'\n]{0,256}'|[^\s,;&"']+)""",
    re.I | re.X,
)
_PASSWORD_ASSIGNMENT_TRIGGER = re.compile(r"pass|pw")
_PASSWORD_KEY = re.compile(r"(?:[A-Za-z0-9]+[_.-])*(?:[A-Za-z0-9]*(?:password|passwd|passphrase)|pass|pwd|pw)", re.I)

def _find_password_assignment(text: str) -> Span | None:
    """Config and code: DB_PASSWORD=..., "password": "...", PGPASSWORD: ... (templates like ${X} pass)."""
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
        rest = text[match.end():].split(None, 1)
        if _value_is_secret(value, rest[0] if rest else ""):  # "password: at least 12 characters" is prose
            return match.span("value")
    return None


_KEY_NAME = (r"(?:[A-Za-z0-9]+[_.-])*(?:secret|token|(?:api|access|secret|private|signing|encryption|master|"
             r"account|auth|app|client|session)[_-]?key|apikey|client[_-]?secret|auth|credentials?)")
_KEY_NAME_RE = re.compile(_KEY_NAME, re.I)
_SECRET_VALUE = r"""(?P<value>"[^"\n]{16,512}"|'[^'\n]{16,512}'|[^\s"'`,;]{16,512})"""
_SECRET_ASSIGNMENT = re.compile(r"""(?:secret|token|key|auth|credentials?)["']?[ \t]*[:=][ \t]*""" + _SECRET_VALUE,
                                re.I)
_AUTH_SCHEME = re.compile(r"(?:bearer|token|basic)[ \t]+" + _SECRET_VALUE, re.I)
_SECRET_TRIGGER = re.compile(r"secret|token|key|auth|credential")
_AUTH_TRIGGER = re.compile(r"bearer|token|basic")

def _find_secret_assignment(text: str) -> Span | None:
    """A random-looking value given to a key-like name: client_secret=..., "api_key": "...", Bearer ..."""
    for match in _matches_folded(_SECRET_TRIGGER, _SECRET_ASSIGNMENT, text):
        if _key_before(text, match, _KEY_NAME_RE) is not None and _high_entropy(match.group("value")):
            return match.span("value")
    for match in _matches_folded(_AUTH_TRIGGER, _AUTH_SCHEME, text, _AFTER_UNICODE_WORD):
        if _high_entropy(match.group("value")):
            return match.span("value")
    return None


