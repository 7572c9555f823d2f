"""More vendors' token formats, from their documentation and public rule sets (gitleaks' descriptions).

Each finder starts from a fixed piece of the format (a prefix such as 'dop_v1_', or the '==' that
ends an Azure key) and checks the rest around it, so a scan costs one pass over the text.
"""

from __future__ import annotations

import base64
import binascii
import re

from ..scan import Span, _matches, _regex_finder

_NOT_TOKEN = re.compile(r"[A-Za-z0-9_-]")

_SAS_SIG = re.compile(r"sig=(?P<sig>[A-Za-z0-9%+/=]{30,})")
_SAS_FIELDS = re.compile(r"\b(?:sv|se|sp|spr|srt|ss)=")
_TWILIO = re.compile(r"SK[0-9a-fA-F]{32}(?![0-9A-Za-z])")
_DISCORD_MIDDLE = re.compile(r"\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}(?![A-Za-z0-9_-])")
_DISCORD_FIRST = re.compile(r"[MNO][A-Za-z0-9_-]{23,25}")
_DISCORD_WEBHOOK = re.compile(r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d{17,20}/"
                              r"[A-Za-z0-9_-]{60,}")
_TELEGRAM = re.compile(r":AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])")
_DIGITALOCEAN = re.compile(r"do[opr]_v1_[a-f0-9]{64}(?![A-Za-z0-9])")
_MAILGUN_KEY = re.compile(r"key-[a-f0-9]{32}(?![A-Za-z0-9])")
_MAILGUN_TAIL = re.compile(r"-[a-f0-9]{8}-[a-f0-9]{8}(?![A-Za-z0-9-])")
_DATABRICKS = re.compile(r"dapi[a-f0-9]{32}(?:-\d)?(?![A-Za-z0-9])")
_AGE = re.compile(r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}")
_GCP_SERVICE_ACCOUNT = re.compile(r"[\"']type[\"']\s*:\s*[\"']service_account[\"']")
_HEX = frozenset("0123456789abcdef")


_AZURE_KEY = re.compile(r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{86}==(?![A-Za-z0-9+/=])")  # the lookbehind keeps runs linear


def find_azure_storage_key(text: str) -> Span | None:
    """An Azure storage account key: 64 random bytes in base64, 86 characters then '=='."""
    if "==" not in text:
        return None
    for match in _AZURE_KEY.finditer(text):
        body = match.group()
        if text.endswith(("sha512-", "sha384-"), 0, match.start()):
            continue  # a subresource-integrity hash (package-lock.json, <script integrity=...>), published on purpose
        if any(c.isdigit() for c in body) and any(c.isupper() for c in body) and any(c.islower() for c in body):
            return match.span()
    return None


def find_azure_sas(text: str) -> Span | None:
    """A shared access signature: 'sig=' with a URL-encoded HMAC, next to the SAS fields (sv=, se=, sp=...)."""
    match = _SAS_SIG.search(text)
    if match is not None and _SAS_FIELDS.search(text) is not None:
        return match.span("sig")
    return None


def find_discord_token(text: str) -> Span | None:
    """A Discord bot token: base64 of the bot's numeric id, a 6-character timestamp, an HMAC."""
    for match in _matches(_DISCORD_MIDDLE, text):
        start = match.start()
        for length in (24, 25, 26):
            first = _DISCORD_FIRST.fullmatch(text, start - length, start) if start >= length else None
            if first is None or (start - length > 0 and _NOT_TOKEN.match(text, start - length - 1)):
                continue
            part = first.group()
            try:
                decoded = base64.b64decode(part + "=" * (-len(part) % 4), validate=False).decode("ascii")
            except (binascii.Error, UnicodeDecodeError, ValueError):
                continue
            if decoded.isdigit():
                return start - length, match.end()
    return None


def find_telegram_token(text: str) -> Span | None:
    """A Telegram bot token: the bot id (8-10 digits), a colon, then 35 characters starting 'AA'."""
    for match in _matches(_TELEGRAM, text):
        start = match.start()
        digits = 0
        while start - digits > 0 and text[start - digits - 1].isdigit() and digits < 11:
            digits += 1
        begin = start - digits
        in_api_url = text.endswith("/bot", 0, begin)  # https://api.telegram.org/bot<token>/sendMessage
        if 8 <= digits <= 10 and (in_api_url or not (begin > 0 and _NOT_TOKEN.match(text, begin - 1))):
            return begin, match.end()
    return None


def find_mailgun_key(text: str) -> Span | None:
    """Mailgun: 'key-' + 32 hex (older keys), or 32 hex-8 hex-8 hex (current private API keys)."""
    for match in _matches(_MAILGUN_KEY, text):
        if not (match.start() > 0 and _NOT_TOKEN.match(text, match.start() - 1)):
            return match.span()
    for match in _matches(_MAILGUN_TAIL, text):
        start = match.start() - 32
        if start >= 0 and all(c in _HEX for c in text[start:match.start()]) and not (
                start > 0 and _NOT_TOKEN.match(text, start - 1)):
            return start, match.end()
    return None


find_twilio = _regex_finder(_TWILIO, not_after=re.compile(r"[A-Za-z0-9]"))
find_discord_webhook = _regex_finder(_DISCORD_WEBHOOK)
find_digitalocean = _regex_finder(_DIGITALOCEAN, not_after=_NOT_TOKEN)
find_databricks = _regex_finder(_DATABRICKS, not_after=_NOT_TOKEN)
find_age_key = _regex_finder(_AGE, not_after=_NOT_TOKEN)
# A service-account key file, known by its "type": "service_account" field.
find_gcp_service_account = _regex_finder(_GCP_SERVICE_ACCOUNT, requires=("service_account",))
