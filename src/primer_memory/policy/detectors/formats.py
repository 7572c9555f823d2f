"""Detectors for vendors' token formats and key files, each from the vendor's documented shape."""

from __future__ import annotations

import base64
import binascii
import json
import re

from ..scan import _has_letter_and_digit, _literal


_PRIVATE_KEY = re.compile(r"-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----")
_PRIVATE_KEY_END = re.compile(r"-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----")
_KEY_BODY_LINE = re.compile(r"[ \t]*(?:[A-Za-z0-9+/=]+|[A-Za-z-]+: [^\n]*)[ \t]*(?:\n|$)")
_PUTTY = re.compile(r"PuTTY-User-Key-File-\d+: ")
_PUTTY_END = re.compile(r"Private-MAC: [0-9a-fA-F]+")


def find_key_block(text: str) -> tuple[int, int] | None:
    """A PEM or PuTTY private key, header to footer, so redaction masks the body too.

    A paste cut before its footer runs to the last line that still looks like key material
    (base64 lines, or 'Name: value' headers such as Proc-Type and PuTTY's Public-Lines).
    """
    for header, footer in ((_PRIVATE_KEY, _PRIVATE_KEY_END), (_PUTTY, _PUTTY_END)):
        start_match = header.search(text)
        if start_match is None:
            continue
        end_match = footer.search(text, start_match.end())
        if end_match is not None:
            return start_match.start(), end_match.end()
        end = text.find("\n", start_match.end())
        if end == -1:
            return start_match.start(), len(text)
        pos = end + 1
        while pos < len(text) and (line := _KEY_BODY_LINE.match(text, pos)) is not None and line.end() > pos:
            end, pos = line.end(), line.end()
        return start_match.start(), end if text[end - 1:end] != "\n" else end - 1
    return None
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
# Found from the "://" (a fixed string), then the scheme is checked backwards: see find_url_credentials.
_URL_AFTER_SCHEME = re.compile(r"://[^\s:/@?#]{0,256}:(?P<password>[^\s/@]{1,256})@[^\s/@?#]")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{1,31}")  # "postgresql+psycopg2" is 19
_SCHEME_CHAR = re.compile(r"[A-Za-z0-9+.-]")


# Oracle's JDBC form has no "//" before the user: jdbc:oracle:thin:scott/tiger@//host:1521/SID.
_JDBC_ORACLE = re.compile(r"jdbc:oracle:[a-z]{1,8}:[^\s/@:]{1,64}/(?P<password>[^\s/@]{1,128})@")


def find_url_credentials(text: str) -> tuple[int, int] | None:
    """scheme://user:password@host, any scheme, the user may be empty (redis://:pw@host); placeholders pass."""
    if "jdbc:oracle:" in text:
        for match in _JDBC_ORACLE.finditer(text):
            if not _is_url_placeholder(match.group("password")):
                return match.span("password")
    for match in _URL_AFTER_SCHEME.finditer(text):
        start = match.start()
        begin = start
        while begin > 0 and start - begin < 32 and _SCHEME_CHAR.match(text, begin - 1):
            begin -= 1
        if begin > 0 and _SCHEME_CHAR.match(text, begin - 1):
            continue  # a scheme longer than 32 characters: not one
        scheme = _SCHEME.search(text, begin, start)
        if scheme is None or scheme.end() != start:
            continue
        if not _is_url_placeholder(match.group("password")):
            return match.span("password")
    return None

def varied(match: re.Match[str]) -> bool:
    """A real token is random: 10+ distinct characters. 'ghp_xxxx...' in a README is filler (round 3)."""
    return len(set(match.group())) >= 10


def slack_check(match: re.Match[str]) -> bool:
    """Slack tokens carry numeric team and user ids: 'xoxb-your-bot-token' in docs has no digit (round 3)."""
    token = match.group()
    return token.startswith("https://") or (varied(match) and any(c.isdigit() for c in token[5:]))


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


def _is_url_placeholder(password: str) -> bool:
    """'https://user:password@host' in documentation names the slot instead of filling it."""
    return (_literal(password) is None or password.lower() in {"password", "passwd", "pass", "pwd", "pw", "secret"}
            or (password.startswith("{") and password.endswith("}")))  # an f-string or template slot: {password}

