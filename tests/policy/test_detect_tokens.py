"""Tests for the token, URL, hash and key-file detectors (detect_tokens, detect_urls, detect_hashes).

Every sample is synthetic: made here from the documented shape with a seeded random generator, never
copied from a real key. Each format is found inside a few realistic lines; near misses (the prefix alone,
too short, wrong alphabet, placeholders, public keys, ids, checksums) are not.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from primer_memory.policy.detectors import hashes as dh
from primer_memory.policy.detectors import tokens as dt
from primer_memory.policy.detectors import urls as du
from primer_memory.policy.rules import DETECTORS

try:  # the regex parser moved in Python 3.11
    import re._parser as sre_parse  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse  # type: ignore[no-redef]

FINDERS = {name: finder for name, _, finder, _ in dt.TOKEN_DETECTORS}
ALNUM = string.ascii_letters + string.digits


# --------------------------------------------------------------------------- making samples from a shape


def _class_chars(items: list) -> str:
    chars = []
    for op, arg in items:
        if op is sre_parse.LITERAL:
            chars.append(chr(arg))
        elif op is sre_parse.RANGE:
            chars.extend(chr(c) for c in range(arg[0], arg[1] + 1))
        elif op is sre_parse.CATEGORY and arg is sre_parse.CATEGORY_DIGIT:
            chars.extend(string.digits)
        else:  # pragma: no cover - a shape this generator does not know
            raise NotImplementedError(op)
    return "".join(chars)


def _fill(parsed, rng: random.Random) -> str:
    """A string matching a parsed regex: repeats at their minimum (16 when free), first-seen alternatives random."""
    out = []
    for op, arg in parsed:
        if op is sre_parse.LITERAL:
            out.append(chr(arg))
        elif op is sre_parse.IN:
            out.append(rng.choice(_class_chars(arg)))
        elif op is sre_parse.CATEGORY and arg is sre_parse.CATEGORY_DIGIT:
            out.append(rng.choice(string.digits))
        elif op in (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT):
            low, high, sub = arg
            count = low if high == low else min(high, max(low, 16))
            out.extend(_fill(sub, rng) for _ in range(count))
        elif op is sre_parse.SUBPATTERN:
            out.append(_fill(arg[-1], rng))
        elif op is sre_parse.BRANCH:
            out.append(_fill(rng.choice(arg[1]), rng))
        else:  # pragma: no cover
            raise NotImplementedError(op)
    return "".join(out)


def sample_token(fmt: dt.TokenFormat, seed: int = 0) -> str:
    """A synthetic token of `fmt`'s documented shape that the format accepts."""
    rng = random.Random(f"{fmt.prefix}:{seed}")
    parsed = sre_parse.parse(fmt.rest)
    for _ in range(50):
        token = fmt.prefix + _fill(parsed, rng)
        if fmt.pattern.fullmatch(token) and fmt.accepts(token):
            return token
    raise AssertionError(f"no sample for {fmt.vendor}")  # pragma: no cover


def rand(n: int, alphabet: str = ALNUM, seed: str = "x") -> str:
    rng = random.Random(f"{seed}:{n}:{alphabet}")
    return "".join(rng.choice(alphabet) for _ in range(n))


def hexs(n: int, seed: str = "h") -> str:
    return rand(n, "0123456789abcdef", seed)


def uuid(seed: str) -> str:
    h = hexs(32, seed)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def b64(n: int, seed: str = "b") -> str:
    return base64.b64encode(random.Random(seed).randbytes(n)).decode()


CONTEXTS = (
    "export SERVICE_TOKEN={}\n",
    'curl -H "Authorization: Bearer {}" https://api.example.com/v1/me',
    "credentials:\n  api_key: '{}'\n  region: eu-west-1\n",
    "Use {} for the nightly deploy job.",
)


def assert_found(finder, secret: str, context: str = "The key is {} here.") -> None:
    text = context.format(secret)
    start = text.index(secret)
    span = finder(text)
    assert span is not None, f"{secret!r} not found in {text!r}"
    assert span[0] <= start + 4 and span[1] >= start + len(secret) - 4, (span, start, text)


# --------------------------------------------------------------------------- the vendor table


@pytest.mark.parametrize("fmt", dt.TOKEN_FORMATS, ids=lambda f: f"{f.vendor}:{f.prefix}")
def test_vendor_token_found_in_contexts(fmt: dt.TokenFormat) -> None:
    token = sample_token(fmt)
    for context in CONTEXTS:
        text = context.format(token)
        assert dt.find_vendor_token(text) == (text.index(token), text.index(token) + len(token)), (fmt, text)


@pytest.mark.parametrize("fmt", dt.TOKEN_FORMATS, ids=lambda f: f"{f.vendor}:{f.prefix}")
def test_vendor_token_near_misses(fmt: dt.TokenFormat) -> None:
    token = sample_token(fmt)
    rest = token[len(fmt.prefix):]
    misses = [
        f"the prefix {fmt.prefix} alone",
        f"too short: {fmt.prefix}{rest[:6]}",
        f"placeholder: {fmt.prefix}{'x' * len(rest)}",
        f"placeholder: {fmt.prefix}<token>",
        f"inside a longer word: abc{token}",
    ]
    if set(rest) <= set("0123456789abcdef"):
        misses.append("wrong alphabet: " + fmt.prefix + rest.translate(str.maketrans("0123456789abcdef", "ghijklmnopqrstuv")))
    for text in misses:
        assert dt.find_vendor_token(text) is None, (fmt, text)


def test_first_token_wins_and_tokens_inside_prose() -> None:
    first = sample_token(dt.TOKEN_FORMATS[3])
    second = sample_token(dt.TOKEN_FORMATS[0])
    text = f"rotate {first} and then {second} tonight"
    assert dt.find_vendor_token(text) == (7, 7 + len(first))


@pytest.mark.parametrize("text", [
    "pk_live_" + rand(24), "pk_test_" + rand(24),  # Stripe publishable keys
    "pk.eyJ1Ijoi" + rand(40) + "." + rand(22),  # Mapbox public token
    "rzp_live_" + rand(14), "sq0idp-" + rand(22),  # Razorpay key id, Square application id
    "NRJS-" + hexs(19), "sb_publishable_" + rand(32),  # browser-side keys
    "sha256:" + hexs(64), "commit " + hexs(40), uuid("u"),  # checksums, git SHAs, UUIDs
    "ghcr.io/acme/app@sha256:" + hexs(64),  # an image digest
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + rand(43) + " user@host",
    "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ" + rand(300, ALNUM + "+/") + " user@host",
    "-----BEGIN CERTIFICATE-----\nMIID" + rand(60, ALNUM + "+/") + "\n-----END CERTIFICATE-----",
    "The token budget is 300 and the path pattern is /patch/v1.0-beta.",
    "ya29 and sl. and dp. in a sentence; hvs.short; EAA; AKID; LTAI rocks",
])
def test_public_and_benign_strings_pass(text: str) -> None:
    for name, finder in FINDERS.items():
        assert finder(text) is None, (name, text)


def test_random_enough() -> None:
    assert dt.random_enough(rand(32))
    assert not dt.random_enough("x" * 32)
    assert not dt.random_enough("abcdefghijklmnopqrstuvwxyz012345")
    assert not dt.random_enough("0123456789abcdef0123456789abcdef")
    assert not dt.random_enough("YOUR_API_KEY_GOES_HERE_123456")
    assert not dt.random_enough("onlyletterswithoutanydigitsatall", mixed=True)


# --------------------------------------------------------------------------- keys known by an inner mark

MARKED = {
    "terraform": rand(14, seed="t") + ".atlasv1." + rand(66, ALNUM + "_-", "t"),
    "azure_ad": rand(3, seed="a") + "8Q~" + rand(34, ALNUM + "_~.-", "a"),
    "fcm": "AAAA" + rand(7, seed="f") + ":APA91b" + rand(134, ALNUM + "_-", "f"),
    "mailchimp": hexs(32, "m") + "-us21",
    "maxmind": rand(6, seed="mm") + "_" + rand(29, seed="mm") + "_mmk",
}


@pytest.mark.parametrize("key", MARKED.values(), ids=list(MARKED))
@pytest.mark.parametrize("context", CONTEXTS)
def test_marked_key_found(key: str, context: str) -> None:
    assert_found(dt.find_marked_key, key, context)


@pytest.mark.parametrize("text", [
    "set the locale to en-us", hexs(31) + "-us21", "0" * 32 + "-us1", "x" * 14 + ".atlasv1." + "y" * 66,
    "abc8Q~ short", "AAAA1234567:APA91b" + "z" * 10, "device token dGVzdA:APA91b" + rand(140, ALNUM, "d"),
    "abc" + MARKED["mailchimp"] + "x",
])
def test_marked_key_near_misses(text: str) -> None:
    assert dt.find_marked_key(text) is None


# --------------------------------------------------------------------------- labelled vendor secrets

AWS_SECRET = b64(30, "aws")
LABELLED = [
    f"aws_secret_access_key = {AWS_SECRET}",
    f'{{"AccessKeyId": "ASIA...", "SecretAccessKey": "{AWS_SECRET}"}}',
    f"export AWS_SECRET_KEY={AWS_SECRET}",
    f"aws_session_token = {b64(120, 'sess')}",
    f"DD_API_KEY={hexs(32, 'dd')}",
    f"datadog_app_key: {hexs(40, 'dda')}",
    f"Authorization: SSWS 00{rand(40, ALNUM + '_-', 'okta')}",
    f"X-Postmark-Server-Token: {uuid('pm')}",
    f"HEROKU_API_KEY={uuid('hk')}",
    f"TWILIO_AUTH_TOKEN={hexs(32, 'tw')}",
    f"X-Auth-Key: {hexs(37, 'cf')}",
    f"Cookie: _gitlab_session={hexs(32, 'gl')}",
    f"Ocp-Apim-Subscription-Key: {hexs(32, 'az')}",
    f"ALGOLIA_ADMIN_KEY='{hexs(32, 'al')}'",
]


@pytest.mark.parametrize("text", LABELLED)
def test_labelled_secret_found(text: str) -> None:
    span = dt.find_labelled_secret(text)
    assert span is not None
    value = text[span[0]:span[1]]
    assert len(value) >= 32 and value in text and not any(c.isspace() for c in value)


@pytest.mark.parametrize("text", [
    f"secret_key = {AWS_SECRET}",  # a 40-character value, but not under an AWS name
    f"the build id is {AWS_SECRET}", f"request {uuid('r')} failed", f"commit {hexs(40)}",
    "aws_secret_access_key = <your-secret-key>", "DD_API_KEY=${DATADOG_API_KEY}",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    f"HEROKU_API_KEY={'0' * 8}-0000-0000-0000-{'0' * 12}", "Authorization: SSWS 00" + "x" * 40,
])
def test_labelled_secret_near_misses(text: str) -> None:
    assert dt.find_labelled_secret(text) is None


# --------------------------------------------------------------------------- webhooks, signed URLs, otpauth

TEAMS = (f"https://contoso.webhook.office.com/webhookb2/{uuid('t1')}@{uuid('t2')}/IncomingWebhook/"
         f"{hexs(32, 't3')}/{uuid('t4')}")
WEBHOOKS = [
    TEAMS,
    f"https://outlook.office.com/webhook/{uuid('o1')}@{uuid('o2')}/IncomingWebhook/{hexs(32, 'o3')}/{uuid('o4')}",
    (f"https://chat.googleapis.com/v1/spaces/AAAA{rand(7, seed='g')}/messages?key={rand(39, seed='gk')}"
     f"&token={rand(43, ALNUM + '_-', 'gt')}%3D"),
    f"https://hooks.zapier.com/hooks/catch/{rand(7, string.digits, 'z')}/{rand(7, string.ascii_lowercase, 'z')}4/",
    f"https://maker.ifttt.com/trigger/door_open/with/key/{rand(22, ALNUM + '_-', 'if')}",
]


@pytest.mark.parametrize("url", WEBHOOKS)
@pytest.mark.parametrize("context", CONTEXTS[::3] + ('notify: "{}"',))
def test_webhook_found(url: str, context: str) -> None:
    text = context.format(url)
    span = du.find_webhook_url(text)
    assert span is not None and span[0] == text.index(url) and span[1] >= text.index(url) + len(url) - 4


@pytest.mark.parametrize("text", [
    "https://hooks.zapier.com/hooks/catch/...", "https://hooks.zapier.com/hooks/catch/123456/abcdef/",
    "https://chat.googleapis.com/v1/spaces/SPACE/messages?key=KEY&token=TOKEN",
    f"https://contoso.webhook.office.com/webhookb2/{uuid('a')}@{uuid('b')}/IncomingWebhook/{'0' * 32}/{uuid('c')}",
    "https://maker.ifttt.com/trigger/{event}/with/key/{your_key}", "see https://outlook.office.com/mail/inbox",
])
def test_webhook_near_misses(text: str) -> None:
    assert du.find_webhook_url(text) is None


SIGNED = [
    (("https://bucket.s3.amazonaws.com/report.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F20240101"
      "&X-Amz-Date=20240101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature="), hexs(64, "s3")),
    ("https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=sa%40p.iam&X-Goog-Signature=",
     hexs(512, "gcs")),
    ("https://d111111abcdef8.cloudfront.net/video.mp4?Expires=1700000000&Key-Pair-Id=K2JCJMDEHXQW5F&Signature=",
     rand(172, ALNUM + "~-", "cf")),
    ("https://bucket.s3.amazonaws.com/a.txt?AWSAccessKeyId=AKIA0000&Expires=1700000000&Signature=",
     rand(27, ALNUM, "v2") + "%3D"),
    ("https://bucket.s3.amazonaws.com/a.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Security-Token=",
     rand(300, ALNUM, "st") + "%2F" + rand(40, ALNUM, "st2")),
]


@pytest.mark.parametrize(("url", "secret"), SIGNED)
def test_signed_url_found(url: str, secret: str) -> None:
    text = f"Download it from {url}{secret} before noon."
    span = du.find_signed_url(text)
    assert span is not None and text[span[0]:span[1]] == secret


@pytest.mark.parametrize("text", [
    "https://example.com/doc?Signature=" + rand(40),  # no field naming a signing key
    "X-Amz-Signature=<signature>", "X-Amz-Signature=" + "0" * 64, "the signature= field is documented",
    "https://storage.googleapis.com/b/o?X-Goog-Signature=" + "ab" * 64,
])
def test_signed_url_near_misses(text: str) -> None:
    assert du.find_signed_url(text) is None


OTP_SEED = rand(32, string.ascii_uppercase + "234567", "otp")


@pytest.mark.parametrize("text", [
    f"otpauth://totp/ACME:alice@example.com?secret={OTP_SEED}&issuer=ACME",
    f"otpauth://totp/ACME:bob?issuer=ACME&algorithm=SHA1&digits=6&period=30&secret={OTP_SEED}",
    f"QR: otpauth://hotp/Example?secret={OTP_SEED.lower()}&counter=0",
    f"otpauth-migration://offline?data={b64(60, 'mig').replace('+', '%2B').replace('/', '%2F')}",
])
def test_otpauth_secret_found(text: str) -> None:
    span = du.find_otpauth_secret(text)
    assert span is not None and len(text[span[0]:span[1]]) >= 16


@pytest.mark.parametrize("text", [
    "otpauth://totp/ACME:alice?secret=JBSWY3DP&issuer=ACME",  # too short
    "otpauth://totp/ACME:alice?secret=YOURSECRETKEYHERE&issuer=ACME",
    "otpauth://totp/ACME:alice?secret=<secret>", "the otpauth scheme carries a secret parameter",
])
def test_otpauth_near_misses(text: str) -> None:
    assert du.find_otpauth_secret(text) is None


# --------------------------------------------------------------------------- password hashes

CRYPT = "./" + ALNUM
HASHES = {
    "bcrypt": "$2b$12$" + rand(53, CRYPT, "bc"),
    "bcrypt_y": "$2y$10$" + rand(53, CRYPT, "by"),
    "md5crypt": "$1$" + rand(8, CRYPT, "m1") + "$" + rand(22, CRYPT, "m2"),
    "htpasswd_apr1": "alice:$apr1$" + rand(8, CRYPT, "a1") + "$" + rand(22, CRYPT, "a2"),
    "shadow_sha512": "root:$6$" + rand(16, CRYPT, "s6") + "$" + rand(86, CRYPT, "s7") + ":19700:0:99999:7:::",
    "sha256crypt": "$5$rounds=5000$" + rand(16, CRYPT, "s5") + "$" + rand(43, CRYPT, "s55"),
    "yescrypt": "bob:$y$j9T$" + rand(22, CRYPT, "y1") + "$" + rand(43, CRYPT, "y2") + ":19800:0:99999:7:::",
    "argon2id": "$argon2id$v=19$m=65536,t=3,p=4$" + b64(16, "ar1").rstrip("=") + "$" + b64(32, "ar2").rstrip("="),
    "django_pbkdf2": "pbkdf2_sha256$870000$" + rand(22, seed="dj") + "$" + b64(32, "dj2"),
    "django_scrypt": "scrypt$16384$" + rand(22, seed="ds") + "$8$1$" + b64(64, "ds2"),
    "werkzeug": "pbkdf2:sha256:600000$" + rand(16, string.ascii_letters, "wz") + "$" + hexs(64, "wz"),
    "ldap_ssha": "userPassword: {SSHA}" + b64(24, "ss"),
    "htpasswd_sha": "carol:{SHA}" + b64(20, "sh"),
    "pwdump": "Administrator:500:aad3b435b51404eeaad3b435b51404ee:" + hexs(32, "nt") + ":::",
    "netntlmv2": "alice::CORP:1122334455667788:" + hexs(32, "nn") + ":" + hexs(180, "nb"),
    "mysql": "authentication_string: *" + hexs(40, "my").upper(),
    "postgres_scram": "SCRAM-SHA-256$4096:" + b64(16, "pg") + "$" + b64(32, "pg1") + ":" + b64(32, "pg2"),
}


@pytest.mark.parametrize("value", HASHES.values(), ids=list(HASHES))
def test_password_hash_found(value: str) -> None:
    for context in ("{}", "hash = '{}'\n", "INSERT INTO users VALUES ('ann', '{}');"):
        text = context.format(value)
        start = text.index(value)
        span = dh.find_password_hash(text)
        assert span is not None and start <= span[0] and span[1] <= start + len(value) and span[1] - span[0] >= 20


@pytest.mark.parametrize("text", [
    "$2b$12$" + "x" * 53, "$2b$12$tooshort", "prices: $5$ and $6$ each", "sha256:" + hexs(64),
    "git " + hexs(40), "md5 " + hexs(32), "x:authenticated:1:2:3:4:5:6:", "{SHA}", "{SSHA}short",
    "Administrator:500:" + "0" * 32 + ":" + "0" * 32 + ":::", "std::vector<int>::iterator", "*" + "0" * 40,
])
def test_password_hash_near_misses(text: str) -> None:
    assert dh.find_password_hash(text) is None


# --------------------------------------------------------------------------- private key material

WG_KEY = base64.b64encode(random.Random("wg").randbytes(32)).decode()


@pytest.mark.parametrize("text", [
    f"[Interface]\nAddress = 10.0.0.2/32\nPrivateKey = {WG_KEY}\nDNS = 1.1.1.1\n",
    f"[Peer]\nPublicKey = {b64(32, 'pub')}\nPresharedKey={WG_KEY}\n", f"private_key: PrivateKey = {WG_KEY}",
])
def test_wireguard_key_found(text: str) -> None:
    span = dh.find_wireguard_key(text)
    assert span is not None and text[span[0]:span[1]] == WG_KEY


@pytest.mark.parametrize("text", [f"[Peer]\nPublicKey = {WG_KEY}\n", "PrivateKey = <your private key>",
                                  f"PrivateKey = {WG_KEY[:-2]}"])
def test_wireguard_near_misses(text: str) -> None:
    assert dh.find_wireguard_key(text) is None


_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def b58check(payload: bytes) -> str:
    raw = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    number, out = int.from_bytes(raw, "big"), ""
    while number:
        number, digit = divmod(number, 58)
        out = _B58[digit] + out
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


def bech32(hrp: str, payload: bytes) -> str:
    acc = bits = 0
    data = []
    for byte in payload:
        acc, bits = acc << 8 | byte, bits + 8
        while bits >= 5:
            bits -= 5
            data.append(acc >> bits & 31)
    if bits:
        data.append(acc << (5 - bits) & 31)
    values, check = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp] + data + [0] * 6, 1
    for v in values:
        top, check = check >> 25, (check & 0x1FFFFFF) << 5 ^ v
        for i, g in enumerate((0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)):
            check ^= g if top >> i & 1 else 0
    check ^= 1
    return hrp + "1" + "".join(_BECH32[d] for d in data + [check >> 5 * (5 - i) & 31 for i in range(6)])


RNG_BYTES = random.Random("wallet").randbytes
WIF = b58check(b"\x80" + RNG_BYTES(32) + b"\x01")
XPRV = b58check(bytes.fromhex("0488ade4") + RNG_BYTES(9) + RNG_BYTES(32) + b"\0" + RNG_BYTES(32))
XPUB = b58check(bytes.fromhex("0488b21e") + RNG_BYTES(9) + RNG_BYTES(32) + b"\x02" + RNG_BYTES(32))
NSEC = bech32("nsec", RNG_BYTES(32))
NPUB = bech32("npub", RNG_BYTES(32))


@pytest.mark.parametrize("text", [
    f"importprivkey {WIF} rescan=false", f"wallet: {XPRV}", f"my nostr key is {NSEC}.",
    f"PRIVATE_KEY=0x{hexs(64, 'eth')}", f'{{"privateKey": "{hexs(64, "eth2")}"}}', f"deployer private key: 0x{hexs(64, 'e3')}",
])
def test_wallet_key_found(text: str) -> None:
    span = dh.find_wallet_key(text)
    assert span is not None and len(text[span[0]:span[1]]) >= 52


@pytest.mark.parametrize("text", [
    f"xpub for watching: {XPUB}", f"follow me {NPUB}", f"tx hash 0x{hexs(64, 'tx')}", f"sha256 {hexs(64)}",
    WIF[:-1] + ("2" if WIF[-1] != "2" else "3"),  # checksum broken
    NSEC[:-1] + ("q" if NSEC[-1] != "q" else "p"), "private_key=0x" + "0" * 64,
])
def test_wallet_key_near_misses(text: str) -> None:
    assert dh.find_wallet_key(text) is None


JWK_EC = json.dumps({"kty": "EC", "crv": "P-256", "x": rand(43, seed="jx"), "y": rand(43, seed="jy"),
                     "d": rand(43, ALNUM + "_-", "jd")})
JWK_OCT = json.dumps({"kty": "oct", "alg": "HS256", "k": rand(43, ALNUM + "_-", "jk")})


@pytest.mark.parametrize("text", [
    "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: \"2048-bit rsa\"\nP2/56wAAA" + rand(60, seed="s2")
    + "\n---- END SSH2 ENCRYPTED PRIVATE KEY ----",
    JWK_EC, f"keys = {JWK_OCT}",
    "untrusted comment: minisign encrypted secret key\nRWRTY0Iy" + b64(120, "mini"),
    "untrusted comment: signify secret key\n" + b64(100, "sig"),
])
def test_private_key_file_found(text: str) -> None:
    assert dh.find_private_key_file(text) is not None


@pytest.mark.parametrize("text", [
    json.dumps({"kty": "EC", "crv": "P-256", "x": rand(43), "y": rand(43)}),  # a public JWK
    "---- BEGIN SSH2 PUBLIC KEY ----\nComment: x\nAAAAB3NzaC1yc2E\n---- END SSH2 PUBLIC KEY ----",
    "untrusted comment: minisign public key\nRWQ" + b64(40), '{"d": "' + rand(43) + '"}',
])
def test_private_key_file_near_misses(text: str) -> None:
    assert dh.find_private_key_file(text) is None


# --------------------------------------------------------------------------- the registry entries


def test_token_detectors_table() -> None:
    names = [name for name, _, _, _ in dt.TOKEN_DETECTORS]
    assert len(names) == len(set(names)) and set(names) <= {d.name for d in DETECTORS}  # all in the registry
    for name, description, finder, example in dt.TOKEN_DETECTORS:
        assert description and example and callable(finder)


def _positives() -> list[tuple[str, str]]:
    out = [("vendor_token", sample_token(f)) for f in dt.TOKEN_FORMATS]
    out += [("marked_key", key) for key in MARKED.values()] + [("labelled_secret", t) for t in LABELLED]
    out += [("webhook_url", url) for url in WEBHOOKS] + [("password_hash", h) for h in HASHES.values()]
    return out


@pytest.mark.parametrize(("name", "text"), _positives())
def test_descriptions_never_hold_the_value(name: str, text: str) -> None:
    description = next(d for n, d, _, _ in dt.TOKEN_DETECTORS if n == name)
    span = FINDERS[name](text)
    assert span is not None and text[span[0]:span[1]] not in description


# --------------------------------------------------------------------------- properties

WORDS = st.sampled_from(["the", "deploy", "key", "for", "staging", "is", "rotated", "weekly", "please", "store"])


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400))
def test_finders_return_a_span_inside_any_text(text: str) -> None:
    for name, finder in FINDERS.items():
        span = finder(text)
        assert span is None or 0 <= span[0] < span[1] <= len(text), (name, text, span)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(dt.TOKEN_FORMATS), st.integers(0, 10_000), st.lists(WORDS, max_size=6),
       st.lists(WORDS, max_size=6), st.sampled_from([" ", "\n", "\t", ": ", "=", " '", ' "']))
def test_generated_token_between_words_is_found(fmt, seed, before, after, glue) -> None:
    token = sample_token(fmt, seed)
    text = " ".join(before) + glue + token + glue[-1].replace("=", " ") + " ".join(after)
    start = text.index(token)
    assert dt.find_vendor_token(text) == (start, start + len(token))


# --------------------------------------------------------------------------- adversarial inputs (correctness only)

MB = 1_000_000


def _fill_to(piece: str, size: int = MB) -> str:
    return (piece * (size // len(piece) + 1))[:size]


def _adversarial() -> dict[str, str]:
    rng = random.Random(1)
    inputs = {
        "random base64": base64.b64encode(rng.randbytes(750_000)).decode(),
        "random printable": "".join(rng.choices(string.printable, k=MB)),
        "a": "a" * MB, "$2b$": _fill_to("$2b$"), "sk-": _fill_to("sk-"), "BEGIN": _fill_to("-----BEGIN "),
        "0x hex": "0x" + rng.randbytes(MB // 2).hex(), "0x hex repeated": _fill_to("0x" + hexs(64) + " "),
        "AAAA": _fill_to("AAAA"), "key-": _fill_to("key-"), "colons": _fill_to(":"), "dollars": _fill_to("$"),
    }
    for prefix in ("dckr_pat_", "hvs.", "pul-", "pat", "EAA", "A" * 21, "$6$", "{SSHA}", ":500:", "otpauth://x/y?secret=",
                   "Q~", "-us", "SSWS ", "PrivateKey = "):
        inputs[f"{prefix} + junk"] = _fill_to(prefix + "x ")
    return inputs


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FINDERS))
def test_finders_on_adversarial_megabytes(name: str) -> None:
    finder = FINDERS[name]
    for label, text in _adversarial().items():
        span = finder(text)
        assert span is None or 0 <= span[0] < span[1] <= len(text), (name, label)


def test_a_hardhat_accounts_key_is_found_and_an_env_reference_is_not() -> None:
    """Round 3: `accounts: ['0x<64 hex>']` in a Hardhat config is the deployer's raw private key."""
    rng = random.Random(7)
    key = "".join(rng.choice("0123456789abcdef") for _ in range(64))
    finder = dict((name, find) for name, _, find, _ in dt.TOKEN_DETECTORS)["wallet_private_key"]
    assert finder(f"networks: {{ sepolia: {{ url: RPC, accounts: ['0x{key}'] }} }}") is not None
    assert finder("accounts: [process.env.PRIVATE_KEY]") is None
    assert finder(f"accounts: ['0x{'0' * 64}']") is None
