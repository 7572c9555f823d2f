"""Values public by their format are stored (issue 48), listed by format, and the gate that hides them is the one
view every detector reads.

Classes covered: for each public format, generated instances (a Bitcoin address is built with its checksum, an
Ethereum address, a DKIM record, a minisign key, an OAuth redirect, an AWS example key, a PEM placeholder) and the
vendors' documented example values; the formats that were public before the gate (SSH and PGP public keys, age
recipients, Nostr npub, WireGuard public keys) stay so. The safety side: a real secret beside any public value is
still refused and masked, and a near miss (a wrong checksum, an AWS key not ending in EXAMPLE) is not public.
"""

from __future__ import annotations

import ast
import base64
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory.policy import public
from primer_memory.policy.rules import findings, redact, review
from test_detect_tokens import _B58, b58check  # the base58check the wallet-key tests build with
from tests.code_structure import called, functions, modules, own_nodes

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _bitcoin(rng: random.Random) -> str:
    return b58check(bytes([rng.choice([0x00, 0x05])]) + rng.randbytes(20))


def _b64(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(_B64) for _ in range(n))


def _hex(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789abcdefABCDEF") for _ in range(n))


def _token(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789") for _ in range(n))


PUBLIC = {  # format: a sentence holding a generated public value of it
    "bitcoin address": lambda r: f"Send the refund to {_bitcoin(r)} please.",
    "ethereum address": lambda r: f"My ETH address is 0x{_hex(r, 40)}",
    "dkim public key": lambda r: f'default._domainkey TXT "v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A{_b64(r, 60)}" '
                                 f'"{_b64(r, 40)}"',
    "minisign public key": lambda r: f"untrusted comment: minisign public key {_hex(r, 16).upper()}\nRW{_b64(r, 54)}",
    "oauth state": lambda r: (f"Redirected to https://app.example.com/callback?code=abc&state={_token(r, 32)}"
                              f"&code_challenge={_token(r, 43)}"),
    "aws example key": lambda r: (f"aws_access_key_id = AKIA{_token(r, 9).upper()}EXAMPLE\n"
                                  f"aws_secret_access_key = {_b64(r, 30)}EXAMPLEKEY"),
    "pem placeholder": lambda r: r.choice(["-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
                                           "-----BEGIN OPENSSH PRIVATE KEY-----\n…\n-----END OPENSSH PRIVATE KEY-----",
                                           "-----BEGIN PRIVATE KEY-----\n<your key here>\n-----END PRIVATE KEY-----",
                                           "-----BEGIN EC PRIVATE KEY-----\n(redacted)\n-----END EC PRIVATE KEY-----"]),
    "documented example": lambda r: f"The docs show {r.choice(public.examples())} in every example.",
}
ALREADY_PUBLIC = {  # formats the detectors knew to be public before the gate; they stay stored
    "ssh public key": lambda r: f"My laptop's key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_b64(r, 43)} alice@laptop",
    "pgp public key": lambda r: f"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBGQ3b2E{_b64(r, 60)}\n-----END PGP PUBLIC "
                                f"KEY BLOCK-----",
    "age recipient": lambda r: "Encrypt to age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p",
    "nostr npub": lambda r: "Follow me: npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg",
    "wireguard public key": lambda r: f"[Peer]\nPublicKey = {base64.b64encode(r.randbytes(32)).decode()}\n"
                                      f"Endpoint = vpn.example.org:51820",
}
BECH32 = ("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq")


def test_every_public_format_is_listed_here() -> None:
    assert set(PUBLIC) == set(public.PUBLIC_FORMATS)


@pytest.mark.parametrize("name", sorted(PUBLIC))
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_public_value_is_stored_and_named_by_its_format(name: str, seed: int) -> None:
    text = PUBLIC[name](random.Random(seed))
    assert review(text).verdict == "store", text
    assert name in {f for _, _, f in public.public_spans(text)}, text


@pytest.mark.parametrize("name", sorted(ALREADY_PUBLIC))
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_formats_public_before_the_gate_stay_stored(name: str, seed: int) -> None:
    text = ALREADY_PUBLIC[name](random.Random(seed))
    assert review(text).verdict == "store", text


@pytest.mark.parametrize("address", BECH32)
def test_bech32_addresses_are_public(address: str) -> None:
    assert review(f"Pay to {address}").verdict == "store"


@pytest.mark.parametrize("name", sorted(PUBLIC))
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), where=st.sampled_from(["before", "after"]))
def test_a_real_secret_beside_a_public_value_is_still_refused_and_masked(name: str, seed: int, where: str) -> None:
    """The gate masks the public value only: a password on the next line is found, and redact() masks it."""
    rng = random.Random(seed)
    secret = f"Vq{_token(rng, 8)}7!x"
    line = f"my password is {secret}"
    text = f"{line}\n{PUBLIC[name](rng)}" if where == "before" else f"{PUBLIC[name](rng)}\n{line}"
    assert review(text).verdict == "refuse", text
    assert secret not in redact(text)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), at=st.integers(1, 30))
def test_near_misses_are_not_public(seed: int, at: int) -> None:
    """A Bitcoin address with one character changed fails its checksum; an AWS key id that does not end in EXAMPLE
    is a key: neither is hidden from the detectors."""
    rng = random.Random(seed)
    address = _bitcoin(rng)
    at = min(at, len(address) - 1)
    changed = address[:at] + next(c for c in _B58 if c != address[at]) + address[at + 1:]
    assert "bitcoin address" not in {f for _, _, f in public.public_spans(f"to {changed} now")}
    key_id = f"AKIA{_token(rng, 16).upper()}"
    assert any(f.detector == "aws_access_key_id" for f in findings(f"aws_access_key_id = {key_id}")), key_id


# ----------------------------------------------------------------------------- the one view

_GATE = "detector_view"
_READERS = {"read_all", "select"}  # functions that run detectors over a text they are given


def _takes_a_view(scope: ast.AST) -> bool:
    return isinstance(scope, ast.FunctionDef) and any(a.arg == "view" for a in scope.args.args)


def _around_the_view(tree: ast.Module) -> list[str]:
    """Functions that hand a text to a detector (`<detector>.find(...)`, read_all, the selector, or a helper that
    takes a `view`) without taking it from detector_view() in the same function; a helper taking `view` is
    judged at its callers."""
    helpers = {name.rsplit(".", 1)[-1] for name, scope in functions(tree) if _takes_a_view(scope)}
    bad = []
    for name, scope in functions(tree):
        if _takes_a_view(scope):
            continue
        calls = [n for n in own_nodes(scope) if isinstance(n, ast.Call)]
        reads = [c for c in calls if called(c) in _READERS | helpers or (
            called(c) == "find" and isinstance(c.func, ast.Attribute) and isinstance(c.func.value, ast.Name)
            and c.func.value.id in ("detector", "d"))]
        if reads and not any(called(c) == _GATE for c in calls):
            bad.append(name)
    return bad


def test_every_path_to_a_detector_reads_the_one_view() -> None:
    """Structure: in the policy's rules (where review, findings, redact and their helpers live) every function
    that runs detectors takes its text from detector_view(), which hides markers and public values alike."""
    tree = dict(modules())["policy/rules.py"]
    assert _around_the_view(tree) == []


def test_the_rule_catches_code_that_goes_around_the_view() -> None:
    sneaky = ast.parse("def fast(text):\n    return [d.find(text) for d in DETECTORS]\n"
                       "def spans(text):\n    return read_all(text, DETECTORS)\n"
                       "def fine(text):\n    view = detector_view(text)\n    return read_all(view, DETECTORS)\n"
                       "def helper(view):\n    return [d.find(view) for d in DETECTORS]\n"
                       "def through_a_helper(text):\n    return helper(text)\n")
    assert _around_the_view(sneaky) == ["fast", "spans", "through_a_helper"]


# ----------------------------------------------------------------------------- placeholders and password settings

_SETTING_NAMES = ["password_min_length", "PASSWORD_MAX_AGE_DAYS", "passwordHistory", "password.expiry.days",
                  "min_password_length", "PasswordComplexity", "password_lockout_attempts"]


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(_SETTING_NAMES), value=st.integers(0, 400), sep=st.sampled_from([" = ", ": ", "="]),
       prose=st.sampled_from(["", "Password policy: minimum length {v}, max age 90 days, history 24.\n",
                              "Passwords must rotate every {v} days; lockout after 5 attempts.\n"]))
def test_settings_that_name_a_password_policy_are_stored(name: str, value: int, sep: str, prose: str) -> None:
    """False-alarm class (issue 48): a setting or a sentence about the password policy, its value a number of
    characters, days or attempts, in a config line or in prose."""
    text = prose.format(v=value) + f"{name}{sep}{value}"
    assert review(text).verdict == "store", text


@pytest.mark.parametrize("text", [
    "Authorization: Bearer <token>", "curl -H 'Authorization: Bearer $API_TOKEN' https://api.example.com",
    "Set OPENAI_API_KEY=sk-... in your shell", "api_key: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    'token = "YOUR_API_KEY_HERE"', "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "SLACK_BOT_TOKEN=xoxb-your-token",
    "password: <your password here>", "secret_key = ${SECRET_KEY}",
])
def test_placeholders_are_stored(text: str) -> None:
    """False-alarm class (issue 48): where a secret goes, not a secret: angle brackets, variables, x-runs, ellipses,
    the words 'your ... here'."""
    assert review(text).verdict == "store", text
