"""Secrets carried inside URLs: chat and automation webhooks, pre-signed links, one-time-password seeds.

Such a URL is a credential by itself (anyone holding it can post to the channel or read the object),
though no part of it looks like a key. Each finder starts from a fixed piece of the URL ('office.com/webhook',
'x-amz-signature=', 'otpauth') searched in the lower-cased text, so a text without it costs one str.find.
"""

from __future__ import annotations

import re

from .token_scan import first_of
from ..scan import Span, lowered

_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_URL_TAIL = r"[^\s\"'<>`]"

# (a fixed piece of the URL, the pattern from that piece on: group 1 the match, group "secret" its secret part)
_WEBHOOKS: tuple[tuple[str, re.Pattern[str]], ...] = (
    # Microsoft Teams incoming webhook (outlook.office.com or <tenant>.webhook.office.com)
    ("office.com/webhook", re.compile(
        rf"(office\.com/webhook(?:b2)?/{_UUID}@{_UUID}/incomingwebhook/(?P<secret>[0-9a-f]{{32}})/{_UUID})")),
    # Google Chat incoming webhook: the token parameter is the secret
    ("chat.googleapis.com/v1/spaces/", re.compile(
        r"(chat\.googleapis\.com/v1/spaces/[a-z0-9_-]{6,64}/messages\?"
        rf"{_URL_TAIL}{{0,200}}?token=(?P<secret>[a-z0-9_%=-]{{30,100}}))")),
    # Zapier catch hook: account id / hook code
    ("hooks.zapier.com/hooks/", re.compile(r"(hooks\.zapier\.com/hooks/catch/(?P<secret>\d{4,12}/[a-z0-9]{5,12})/?)")),
    # IFTTT Maker key
    ("maker.ifttt.com/", re.compile(
        r"(maker\.ifttt\.com/(?:trigger/[a-z0-9_.-]{1,64}/(?:json/)?with/key|use)/(?P<secret>[a-z0-9_-]{20,32}))")),
)


def _url_start(low: str, pos: int) -> int:
    """Where the URL around `pos` starts: after 'https://' when it is close before, else at `pos`."""
    scheme = low.rfind("://", max(0, pos - 80), pos)
    if scheme == -1:
        return pos
    start = scheme
    while start > 0 and low[start - 1].isalpha():
        start -= 1
    return start


def find_webhook_url(text: str) -> Span | None:
    """A Teams, Google Chat, Zapier or IFTTT webhook URL with its secret part (Slack and Discord: elsewhere)."""
    low = lowered(text)
    match = first_of(((piece, pattern, piece.startswith("hooks.zapier")) for piece, pattern in _WEBHOOKS), low)
    return None if match is None else (_url_start(low, match.start()), match.end())


# Pre-signed URLs: the signature (or a session token) is what lets anyone fetch the object.
_SIGNED: tuple[tuple[str, re.Pattern[str], bool], ...] = (
    ("x-amz-signature=", re.compile(r"(x-amz-signature=(?P<secret>[0-9a-f]{64}))(?![0-9a-z])"), False),
    ("x-amz-security-token=", re.compile(r"(x-amz-security-token=(?P<secret>[a-z0-9%+/=_-]{40,4000}))"), False),
    ("x-goog-signature=", re.compile(r"(x-goog-signature=(?P<secret>[0-9a-f]{64,1024}))(?![0-9a-z])"), False),
)
# Signature Version 2 (S3), Google's V2 and CloudFront: 'Signature=' in a URL that names the signing key.
_SIGNATURE_V2 = ("signature=", re.compile(r"([?&]signature=(?P<secret>[a-z0-9%+/=_~-]{20,1024}))"), False)
_NAMES_KEY = re.compile(r"[?&](?:awsaccesskeyid|googleaccessid|key-pair-id)=")


def find_signed_url(text: str) -> Span | None:
    """The signature of a pre-signed S3, GCS or CloudFront URL, or an STS session token in one."""
    low = lowered(text)
    rules = _SIGNED + ((_SIGNATURE_V2,) if "signature=" in low and _NAMES_KEY.search(low) else ())
    match = first_of(rules, low)
    return None if match is None else match.span("secret")


# otpauth://totp/Label?issuer=...&secret=BASE32: the label, then up to ten other parameters, then the seed.
_OTPAUTH = re.compile(r"(otpauth(?:-migration)?://[a-z]{1,12}(?:/[^\s?#]{0,256})?\?(?:[a-z0-9_.-]{1,32}=[^\s&#?]{0,256}&){0,10}"
                      r"(?:secret|data)=(?P<secret>[a-z0-9%+/=]{16,4000}))")


def find_otpauth_secret(text: str) -> Span | None:
    """The seed in an otpauth:// URI (a TOTP/HOTP QR code) or in an authenticator export (otpauth-migration)."""
    low = lowered(text)
    match = first_of((("otpauth", _OTPAUTH, True),), low)
    return None if match is None else match.span("secret")


# Round 6: Go's MySQL driver takes a DSN with no scheme: user:password@tcp(host:port)/db (also unix(...), udp(...)).
_DSN = re.compile(r"(?<![\w.:/@-])[\w.-]{1,64}:(?P<password>[^\s@:/\"'()]{3,128})@(?:tcp|tcp6|udp|unix)\(")


def find_dsn_credentials(text: str) -> Span | None:
    """A password in a driver DSN without a scheme: 'root:s3cret@tcp(127.0.0.1:3306)/shop'."""
    if "@" not in text or "(" not in text:
        return None
    for match in _DSN.finditer(text):
        password = match.group("password")
        if not (password.startswith(("<", "{", "$", "%(")) or set(password) <= set("*x.")):
            return match.span("password")
    return None
