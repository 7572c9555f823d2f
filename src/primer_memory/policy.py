"""The write policy: what may go into long-term memory.

Memory is read back into every future prompt and every export, so the code,
not the model, decides what is written. Small talk is skipped; anything that
looks like a credential or a sensitive identifier is refused.

A single keyword regex ("password|token|secret") both misses real keys (an AWS
key id contains none of those words) and refuses harmless sentences ("the token
budget is 300"). Instead each known credential format has its own detector, and
the checks that can be exact are exact (Luhn for card numbers, mod-97 for IBANs,
a JSON header for JWTs). The detectors live in one registry, `DETECTORS`, so a
notebook can show them as a table. A refusal names the detector that fired; its
reason is a fixed sentence per detector, so it can never repeat the secret.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "DETECTORS",
    "POLICY_EXAMPLES",
    "Detector",
    "Finding",
    "PolicyDecision",
    "detector_table",
    "findings",
    "iban_valid",
    "luhn_valid",
    "redact",
    "review",
    "worth_remembering",
]

Verdict = Literal["store", "skip", "refuse"]


@dataclass(frozen=True)
class PolicyDecision:
    """The policy's answer for one candidate memory; `reason` never repeats a secret."""

    verdict: Verdict
    reason: str
    detector: str | None = None

    @property
    def stored(self) -> bool:
        return self.verdict == "store"


@dataclass(frozen=True)
class Finding:
    """Where one detector fired: offsets into the text, never the matched text itself."""

    detector: str
    start: int
    end: int


Span = tuple[int, int]


@dataclass(frozen=True)
class Detector:
    """One credential or identifier format: a name, what it catches, and a function finding it."""

    name: str
    description: str
    find: Callable[[str], Span | None]
    example: str = ""

    @property
    def reason(self) -> str:
        """The refusal text for this detector: built from the description only, never from the input."""
        return (
            f"refused: looks like {self.description} (detector: {self.name}); "
            "credentials and sensitive identifiers are never written to memory"
        )


# --------------------------------------------------------------------------- helpers


def _matches(pattern: re.Pattern[str], text: str, not_after: re.Pattern[str] | None = None) -> Iterator[re.Match[str]]:
    """Matches of `pattern`, skipping any that start right after a character matching `not_after`.

    This is a leading lookbehind done in Python: a pattern that starts with a lookbehind
    stops `re` from jumping ahead to the pattern's first literal, which made scans ~20x slower.
    """
    pos = 0
    while (match := pattern.search(text, pos)) is not None:
        start = match.start()
        if not_after is not None and start > 0 and not_after.match(text, start - 1):
            pos = start + 1
            continue
        yield match
        pos = max(match.end(), start + 1)


def _matches_folded(trigger: re.Pattern[str], pattern: re.Pattern[str], text: str,
                    not_after: re.Pattern[str] | None = None) -> Iterator[re.Match[str]]:
    """Matches of a case-insensitive `pattern`, tried only where `trigger` (lowercase, case-sensitive) hits.

    re.IGNORECASE turns off re's fast skip to a literal (a 4 KB scan went from ~30us to ~280us), so the
    cheap lowercase `trigger` finds the candidate positions in text.lower() and `pattern` is matched there.
    """
    lowered = text.lower()
    if len(lowered) != len(text):  # a few characters change length when lowered: positions would drift
        yield from _matches(pattern, text, not_after)
        return
    pos = 0
    while (hit := trigger.search(lowered, pos)) is not None:
        start = hit.start()
        pos = start + 1
        if not_after is not None and start > 0 and not_after.match(text, start - 1):
            continue
        match = pattern.match(text, start)
        if match is not None:
            yield match
            pos = max(match.end(), pos)


def _regex_finder(pattern: re.Pattern[str], check: Callable[[re.Match[str]], bool] | None = None,
                  group: int | str = 0, not_after: re.Pattern[str] | None = None) -> Callable[[str], Span | None]:
    """A finder that returns the span of the first match of `pattern` accepted by `check`."""

    def find(text: str) -> Span | None:
        for match in _matches(pattern, text, not_after):
            if check is None or check(match):
                return match.span(group)
        return None

    return find


# What may not come right before a match (it would be the middle of a longer word or token).
_AFTER_ALNUM = re.compile(r"[A-Za-z0-9]")
_AFTER_WORD = re.compile(r"[A-Za-z0-9_]")
_AFTER_TOKEN = re.compile(r"[A-Za-z0-9_-]")
_AFTER_TOKEN_DOT = re.compile(r"[A-Za-z0-9_.-]")
_AFTER_SCHEME = re.compile(r"[A-Za-z0-9+.-]")
_AFTER_NUMBER = re.compile(r"[\w.,]")
_AFTER_SSN = re.compile(r"[\d-]")
_AFTER_UNICODE_WORD = re.compile(r"\w")


def _entropy(value: str) -> float:
    """Shannon entropy in bits per character: random keys score high, words and numbers low."""
    counts = Counter(value)
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _has_letter_and_digit(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def luhn_valid(digits: str) -> bool:
    """The Luhn checksum every payment card number carries (one typo in ten slips through)."""
    if not digits.isdigit():
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def iban_valid(iban: str) -> bool:
    """ISO 13616: a known country, that country's length, and the mod-97 check equal to 1."""
    compact = iban.replace(" ", "").upper()
    country = compact[:2]
    if _IBAN_LENGTHS.get(country) != len(compact) or not compact[2:4].isdigit() or not compact.isalnum():
        return False
    rearranged = compact[4:] + compact[:4]
    number = "".join(str(int(ch, 36)) for ch in rearranged)
    return int(number) % 97 == 1


# Lengths from the SWIFT IBAN registry; an unknown country or a wrong length is not an IBAN.
_IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BI": 27, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27,
    "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27,
    "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22,
    "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32,
    "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19,
    "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23, "PK": 24,
    "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24, "SC": 31,
    "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25, "SV": 28, "TL": 23,
    "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}

# Issuer prefixes and lengths of the big card networks: a Luhn-valid number must also look issued.
_CARD_NETWORKS: tuple[tuple[re.Pattern[str], frozenset[int]], ...] = tuple(
    (re.compile(prefix), frozenset(lengths))
    for prefix, lengths in (
        (r"4", (13, 16, 19)),                                       # Visa
        (r"5[1-5]|2(?:2[2-9][1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720)", (16,)),  # Mastercard
        (r"3[47]", (15,)),                                          # American Express
        (r"6011|64[4-9]|65", (16, 17, 18, 19)),                     # Discover
        (r"35(?:2[89]|[3-8]\d)", (16, 17, 18, 19)),                 # JCB
        (r"3(?:0[0-5]|[689])", (14, 15, 16, 17, 18, 19)),           # Diners Club
        (r"62", (16, 17, 18, 19)),                                  # UnionPay
    )
)


def _card_issued(digits: str) -> bool:
    return any(p.match(digits) and len(digits) in lengths for p, lengths in _CARD_NETWORKS)


# --------------------------------------------------------------------------- format detectors

_PRIVATE_KEY = re.compile(r"-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----")
_AWS_KEY_ID = re.compile(r"(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)"
                         r"[A-Z0-9]{16}(?![A-Za-z0-9])")
_GITHUB = re.compile(r"(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{60,251})"
                     r"(?![A-Za-z0-9_])")
_GITLAB = re.compile(r"gl(?:pat|dt|rt|ptt|cbt|ft|imt|oas|soat|agent)-[A-Za-z0-9_.-]{20,}")
_SLACK = re.compile(
    r"(?:xox[abposre]|xoxe\.xox[bp]|xapp)-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+"
    r"|https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{20,}"
)
_STRIPE = re.compile(r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,}")
_GOOGLE = re.compile(r"AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])")
_SK_KEY = re.compile(r"sk-[A-Za-z0-9_-]{20,}")
_SK_RUN = re.compile(r"[A-Za-z0-9]{20,}")
_PACKAGE = re.compile(r"(?:npm_[A-Za-z0-9]{36}|pypi-AgE[A-Za-z0-9_-]{50,})(?![A-Za-z0-9_])")
_HUGGINGFACE = re.compile(r"hf_[A-Za-z]{34}(?![A-Za-z0-9_])")
_SENDGRID = re.compile(r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])")
_JWT = re.compile(r"(eyJ[A-Za-z0-9_-]{8,})\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*")
_URL_CREDENTIALS = re.compile(
    r"[A-Za-z][A-Za-z0-9+.-]{1,15}://[^\s:/@?#]+:(?P<password>[^\s/@]+)@[^\s/@?#]+"
)
_CARD = re.compile(r"\d(?:[ -]?\d){11,22}(?!\w)")
_SSN = re.compile(r"(\d{3})-(\d{2})-(\d{4})(?![\d-])")
_SSN_TRIGGER = re.compile(r"ssn|social security")
_SSN_NAMED = re.compile(r"(?:ssn|social security (?:number|no\.?|#))\W{0,5}(\d{3})[ -]?(\d{2})[ -]?(\d{4})\b", re.I)
_IBAN = re.compile(r"[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]{1,4}){3,8}(?![A-Za-z0-9])")


def _sk_check(match: re.Match[str]) -> bool:
    """OpenAI/Anthropic-style keys hold a long random run; 'sk-learn-extras' does not."""
    return any(_has_letter_and_digit(run) for run in _SK_RUN.findall(match.group()))


def _jwt_check(match: re.Match[str]) -> bool:
    """A JWT's first part is base64url JSON with an algorithm or a type."""
    header = match.group(1)
    try:
        decoded = json.loads(base64.urlsafe_b64decode(header + "=" * (-len(header) % 4)))
    except (binascii.Error, ValueError):
        return False
    return isinstance(decoded, dict) and ("alg" in decoded or "typ" in decoded)


def _find_card(text: str) -> Span | None:
    """Runs of 13-19 digits (grouped by spaces or dashes or not) with an issuer prefix and a valid Luhn sum.

    Digits inside a valid IBAN are the account number, not a card, so those runs are left to the IBAN detector.
    """
    ibans: list[Span] | None = None
    for match in _matches(_CARD, text, _AFTER_NUMBER):
        if ibans is None:
            ibans = list(_iban_spans(text))
        if any(s < match.end() and match.start() < e for s, e in ibans):
            continue
        raw = match.group()
        groups = re.split(r"[ -]", raw)
        # A run may swallow a neighbouring number ("... 1111 2026"), so try every window of whole groups.
        offsets, pos = [], match.start()
        for g in groups:
            offsets.append(pos)
            pos += len(g) + 1
        for i in range(len(groups)):
            for j in range(len(groups), i, -1):
                digits = "".join(groups[i:j])
                if 13 <= len(digits) <= 19 and _card_issued(digits) and luhn_valid(digits):
                    return offsets[i], offsets[j - 1] + len(groups[j - 1])
    return None


def _ssn_issued(match: re.Match[str]) -> bool:
    """Area 000, 666 and 900-999, group 00 and serial 0000 are never issued."""
    area, group, serial = match.groups()
    return area not in ("000", "666") and not area.startswith("9") and group != "00" and serial != "0000"


def _find_ssn(text: str) -> Span | None:
    """A dashed SSN (078-05-1120), or nine digits right after the words SSN / social security number."""
    for match in _matches(_SSN, text, _AFTER_SSN):
        if _ssn_issued(match):
            return match.span()
    for match in _matches_folded(_SSN_TRIGGER, _SSN_NAMED, text, _AFTER_UNICODE_WORD):
        if _ssn_issued(match):
            return match.span()
    return None


def _find_iban(text: str) -> Span | None:
    """A country code, two check digits and the account part, valid under mod-97 at the country's length."""
    return next(_iban_spans(text), None)


def _iban_spans(text: str) -> Iterator[Span]:
    for match in _matches(_IBAN, text, _AFTER_ALNUM):
        raw = match.group()
        country = raw[:2].upper()
        length = _IBAN_LENGTHS.get(country)
        if length is None:
            continue
        compact_len, end = 0, match.start()
        for k, ch in enumerate(raw):  # cut the match where it reaches the country's length
            if ch != " ":
                compact_len += 1
            if compact_len == length:
                end = match.start() + k + 1
                break
        else:
            continue
        if iban_valid(text[match.start():end]):
            yield match.start(), end


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
_PLACEHOLDER = re.compile(
    r"""^(?:<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|\$[A-Za-z_][A-Za-z0-9_]*|%\([^)]*\)s|%s|\*+|x{3,}|X{3,}|\.{3,}|…
         |true|false|null|none|nil|undefined|str|string|bytes|int|bool
         |redacted|\[redacted(?::[a-z_]+)?\]|\[hidden\])$""",
    re.I | re.X,
)
_QUOTED = re.compile(r"""^(?:"([^"]*)"|'([^']*)'|`([^`]*)`|“([^”]*)”)$""")
# Code, not a literal: a call, an index, or a dotted name without digits (os.environ, self.password).
_CODE_REFERENCE = re.compile(r"\S*[(\[]\S*|[A-Za-z_]+(?:\.[A-Za-z_]+)+")
_TRAILING = ".,;:!?)"


def _is_placeholder(value: str) -> bool:
    return not value or bool(_PLACEHOLDER.match(value))


def _literal(raw: str) -> str | None:
    """The literal a raw value stands for, or None for a placeholder or (unquoted) a piece of code."""
    quoted = _QUOTED.match(raw)
    if quoted:
        inner = next(g for g in quoted.groups() if g is not None).strip()
        return None if _is_placeholder(inner) else inner
    value = raw.rstrip(_TRAILING)
    if _is_placeholder(value) or _CODE_REFERENCE.fullmatch(value):
        return None
    return value


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


def _is_url_placeholder(password: str) -> bool:
    """'https://user:password@host' in documentation names the slot instead of filling it."""
    return _literal(password) is None or password.lower() in {"password", "passwd", "pass", "pwd", "pw", "secret"}


_PASSWORD_WORD = re.compile(r"pass(?:word|wd|phrase)|pwd", re.I)


def _is_variable(value: str, key: str) -> bool:
    """In code, `self.password = password` or `"password": password_hash` passes a variable, not a literal."""
    return (value.isidentifier() and key.lower().endswith(value.lower())) or (
        value.isidentifier() and "_" in value and _PASSWORD_WORD.search(value) is not None
    )


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
_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


def _key_before(text: str, match: re.Match[str], name: re.Pattern[str]) -> str | None:
    """The whole key name that ends with the matched word ('DB_PASSWORD', 'client_secret'), if it is one."""
    start = end = match.start()
    while start > 0 and text[start - 1] in _KEY_CHARS:
        start -= 1
    while text[end] in _KEY_CHARS:  # the word ends before the quote, space or operator the pattern requires
        end += 1
    key = text[start:end]
    return key if name.fullmatch(key) else None


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
_SEGMENT_SPLIT = re.compile(r"[_.-]")


def _high_entropy(value: str) -> bool:
    """Machine-generated: 16+ characters mixing letters and digits at 3+ bits each, not an identifier of words.

    'created_at_2024_desc' has digits and letters too, but every part is a word or a number.
    """
    literal = _literal(value)
    if literal is None or len(literal) < 16 or any(c.isspace() for c in literal):
        return False
    value = literal
    if not _has_letter_and_digit(value) or _entropy(value) < 3.0:
        return False
    return any(not (part.isalpha() or part.isdigit()) for part in _SEGMENT_SPLIT.split(value) if part)


def _find_secret_assignment(text: str) -> Span | None:
    """A random-looking value given to a key-like name: client_secret=..., "api_key": "...", Bearer ..."""
    for match in _matches_folded(_SECRET_TRIGGER, _SECRET_ASSIGNMENT, text):
        if _key_before(text, match, _KEY_NAME_RE) is not None and _high_entropy(match.group("value")):
            return match.span("value")
    for match in _matches_folded(_AUTH_TRIGGER, _AUTH_SCHEME, text, _AFTER_UNICODE_WORD):
        if _high_entropy(match.group("value")):
            return match.span("value")
    return None


# --------------------------------------------------------------------------- the registry

DETECTORS: tuple[Detector, ...] = (
    Detector("private_key_block", "a PEM private-key block", _regex_finder(_PRIVATE_KEY),
             "-----BEGIN RSA PRIVATE KEY-----"),
    Detector("aws_access_key_id", "an AWS access key id", _regex_finder(_AWS_KEY_ID, not_after=_AFTER_ALNUM),
             "AKIA + 16 characters"),
    Detector("github_token", "a GitHub token", _regex_finder(_GITHUB, not_after=_AFTER_WORD),
             "ghp_ + 36 characters, github_pat_..."),
    Detector("gitlab_token", "a GitLab token", _regex_finder(_GITLAB, not_after=_AFTER_TOKEN),
             "glpat- + 20 characters"),
    Detector("slack_token", "a Slack token or webhook URL", _regex_finder(_SLACK, not_after=_AFTER_TOKEN),
             "xoxb-..., https://hooks.slack.com/services/..."),
    Detector("stripe_key", "a Stripe secret, restricted or webhook key",
             _regex_finder(_STRIPE, not_after=_AFTER_WORD), "sk_live_..., rk_test_..., whsec_..."),
    Detector("google_api_key", "a Google API key", _regex_finder(_GOOGLE, not_after=_AFTER_TOKEN),
             "AIza + 35 characters"),
    Detector("sk_api_key", "an OpenAI- or Anthropic-style sk- API key",
             _regex_finder(_SK_KEY, _sk_check, not_after=_AFTER_TOKEN_DOT), "sk-..., sk-proj-..., sk-ant-..."),
    Detector("package_registry_token", "an npm or PyPI token", _regex_finder(_PACKAGE, not_after=_AFTER_WORD),
             "npm_..., pypi-AgE..."),
    Detector("huggingface_token", "a Hugging Face token", _regex_finder(_HUGGINGFACE, not_after=_AFTER_WORD),
             "hf_ + 34 letters"),
    Detector("sendgrid_key", "a SendGrid API key", _regex_finder(_SENDGRID, not_after=_AFTER_WORD),
             "SG.<22>.<43>"),
    Detector("jwt", "a JSON Web Token", _regex_finder(_JWT, _jwt_check, not_after=_AFTER_TOKEN),
             "eyJ... . eyJ... . signature"),
    Detector("url_credentials", "a URL with a password in it",
             _regex_finder(_URL_CREDENTIALS, lambda m: not _is_url_placeholder(m.group("password")), "password",
                           _AFTER_SCHEME),
             "postgres://user:pass@host"),
    Detector("iban", "an IBAN (mod-97 valid)", _find_iban, "GB82 WEST 1234 5698 7654 32"),
    Detector("card_number", "a payment card number (Luhn-valid)", _find_card, "4111 1111 1111 1111"),
    Detector("us_ssn", "a US Social Security number", _find_ssn, "078-05-1120"),
    Detector("password_phrase", "a password, passcode or PIN stated in words", _find_password_phrase,
             "my VPN password is hunter2"),
    Detector("password_assignment", "a password assigned in config or code", _find_password_assignment,
             "DB_PASSWORD=..."),
    Detector("secret_assignment", "a random-looking secret assigned to a key-like name", _find_secret_assignment,
             "client_secret=<16+ random characters>"),
)

# Sentences for the notebook's policy panel: the lesson's three, then the cases a keyword regex gets wrong.
POLICY_EXAMPLES: tuple[tuple[str, str], ...] = (
    ("small talk", "thanks, great!"),
    ("a password", "my VPN password is hunter2"),
    ("a durable fact", "Alice approves travel for her team."),
    ("'token' as in text", "The token budget is 300."),
    ("'secret' as in santa", "The secret santa draw is on Friday."),
    ("where a PIN is, not what", "The PIN code of the office printer is on the wiki."),
    ("a key with no keyword", "AKIAIOSFODNN7EXAMPLE is the key id in the runbook"),
    ("a test card number", "card 4111 1111 1111 1111, exp 12/30"),
    ("a card number failing Luhn", "Order 4111111111111112 failed the checksum."),
    ("an IBAN", "IBAN GB82 WEST 1234 5698 7654 32"),
    ("a password in a URL", "mysql://root:toor@10.0.0.5/shop"),
    ("thanks, then a fact", "Thanks! Our fiscal year starts in April."),
)


def detector_table() -> list[dict[str, str]]:
    """The registry as rows (name, what it catches, an example shape) for a notebook table."""
    return [{"detector": d.name, "catches": d.description, "example": d.example} for d in DETECTORS]


def findings(content: str) -> list[Finding]:
    """Every detector that fires on `content`, in registry order, with where it fired."""
    found = []
    for detector in DETECTORS:
        span = detector.find(content)
        if span is not None:
            found.append(Finding(detector.name, *span))
    return found


def redact(content: str) -> str:
    """`content` with every finding replaced by [REDACTED:<detector>], for showing refused text safely."""
    out = content
    for detector in DETECTORS:  # re-run after each replacement so overlapping findings cannot leave pieces
        for _ in range(len(content) + 1):  # a bound as a safety net: placeholders are never found again
            span = detector.find(out)
            if span is None:
                break
            out = out[: span[0]] + f"[REDACTED:{detector.name}]" + out[span[1]:]
    return out


# --------------------------------------------------------------------------- small talk

# Pleasantries and filler. A message made only of these carries nothing durable.
_PLEASANTRIES = frozenset("""
thanks thank thx ty tysm tyvm cheers ta you u ya so very much many a lot lots again just and for the
help helps helped helpful that's thats that this is it's its it was were all
great good nice cool awesome perfect excellent brilliant wonderful amazing fantastic lovely super neat
ok okay k kk alright right sure yes yeah yep yup no nope nah fine agreed exactly absolutely totally indeed
hi hello hey hiya howdy morning afternoon evening night day weekend have
bye goodbye later soon see talk tomorrow take care
got gotcha noted understood makes sense sounds works work will do done np problem worries welcome
you're youre i i'm im we we're glad happy to hear love appreciate appreciated
lol haha hah hehe hmm hm oh ah wow yay there everyone folks guys
""".split())
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
_SMALL_TALK_MAX_WORDS = 12


def _is_small_talk(text: str) -> bool:
    """Only pleasantries, punctuation or emoji, and short: 'thanks, great!' yes; 'thanks, the vendor is Globex' no."""
    words = _WORD.findall(text.lower().replace("\u2019", "'"))
    return len(words) <= _SMALL_TALK_MAX_WORDS and all(w in _PLEASANTRIES for w in words)


# --------------------------------------------------------------------------- the policy

SKIP_REASON = "skipped: small talk, nothing durable to remember"
STORE_REASON = "stored: a durable fact with no credential or sensitive identifier in it"


def review(content: str) -> PolicyDecision:
    """Decide whether `content` should be stored, skipped or refused, and why.

    Refusal is checked first, so a secret wrapped in a pleasantry is still refused.
    """
    if not isinstance(content, str):
        raise TypeError(f"content must be a string, got {type(content).__name__}")
    for detector in DETECTORS:
        if detector.find(content) is not None:
            return PolicyDecision("refuse", detector.reason, detector.name)
    if _is_small_talk(content):
        return PolicyDecision("skip", SKIP_REASON, "small_talk")
    return PolicyDecision("store", STORE_REASON)


def worth_remembering(content: str) -> tuple[bool, str]:
    """The lesson's call: (should it be stored?, why)."""
    decision = review(content)
    return decision.stored, decision.reason
