"""Secrets the blind corpus of issue 48 found missed whole, by class: a Wi-Fi QR code's payload, an SSN written
with spaces after a connector, and the password of a `net use` command line. Each generated; each near miss
(no key, no password, a placeholder) stored."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from primer_memory.policy.rules import findings, redact, review

# Keys as people choose them: a word or two, digits, maybe a symbol ("Gr33nTea!42", "sunset-harbor-1987").
_KEYS = st.builds(lambda word, other, digits, symbol: word.capitalize() + other + symbol + digits,
                  st.sampled_from(["sunset", "harbor", "maple", "kestrel", "orchid", "granite", "tulip", "cobalt"]),
                  st.sampled_from(["", "Tea", "-bay", "Wolf", "_nest"]), st.text("0123456789", min_size=2, max_size=4),
                  st.sampled_from(["", "!", "$", "#", "-"]))
_NAMES = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz-_0123456789"), min_size=3, max_size=12)


@settings(max_examples=60, deadline=None)
@given(key=_KEYS, network=_NAMES, order=st.permutations(["T:WPA", "S:{net}", "P:{key}", "H:false"]))
def test_a_wifi_qr_payload_is_refused_in_any_field_order(key: str, network: str, order: list[str]) -> None:
    """Class covered: the ZXing WIFI: payload, its fields in any order, any key of 8-24 typed characters with a
    letter and a digit (judged as every Wi-Fi key is)."""
    assume(key not in network)
    text = "Scan this: WIFI:" + ";".join(order).format(net=network, key=key) + ";;"
    assert any(f.detector == "wifi_key" for f in findings(text)), text
    assert key not in redact(text)


def test_a_wifi_payload_without_a_key_is_stored() -> None:
    for text in ("WIFI:S:Guest;T:nopass;P:;;", "The guest network's QR code starts with WIFI: and names no key.",
                 "The QR code encodes WIFI:T:WPA;S:<network>;P:<password>;; with your own values."):
        assert review(text).verdict == "store", text


@settings(max_examples=60, deadline=None)
@given(area=st.integers(1, 665).filter(lambda a: a != 666), group=st.integers(1, 99), serial=st.integers(1, 9999),
       connector=st.sampled_from([" is ", ": ", " - ", " was ", " # "]),
       label=st.sampled_from(["SSN", "social security number", "Social Security No."]))
def test_an_ssn_with_spaces_after_a_connector_is_refused(area: int, group: int, serial: int, connector: str,
                                                        label: str) -> None:
    """Class covered: an issued SSN written with spaces (or none) after its label and a short connector."""
    text = f"My {label}{connector}{area:03d} {group:02d} {serial:04d}."
    assert review(text).verdict == "refuse", text


def test_the_words_social_security_without_a_number_are_stored() -> None:
    assert review("The social security office is 3 km away; number 12 on the map.").verdict == "store"


@settings(max_examples=40, deadline=None)
@given(password=_KEYS, before=st.booleans(), drive=st.sampled_from(["", "Z: ", "X: "]))
def test_a_net_use_password_is_refused_on_either_side_of_user(password: str, before: bool, drive: str) -> None:
    """Class covered: `net use` with the password positional before or after /user:DOMAIN\\NAME."""
    share = r"\\fs01\finance"
    text = (f"net use {drive}{share} {password} /user:ACME\\bob" if before
            else f"net use {drive}{share} /user:ACME\\bob {password}")
    assert any(f.detector == "cli_password" for f in findings(text)), text
    assert password not in redact(text)


def test_net_use_without_a_password_is_stored() -> None:
    for text in (r"net use Z: \\fs01\share /persistent:yes", r"net use Z: \\fs01\share * /user:ACME\bob"):
        assert review(text).verdict == "store", text


_HEX = st.text("0123456789abcdef", min_size=32, max_size=64).filter(
    lambda h: sum(c.isdigit() for c in h) >= 6 and sum(c.isalpha() for c in h) >= 6)


@settings(max_examples=60, deadline=None)
@given(value=_HEX, name=st.sampled_from(["signing secret", "shared secret", "webhook signing secret", "HMAC key",
                                         "encryption key", "master key", "client secret", "app secret", "API key"]),
       words=st.sampled_from(["", " for the partner API", " of the webhook", " (staging)"]),
       connector=st.sampled_from([" ", ": ", " is ", " = "]), upper=st.booleans())
def test_a_long_hex_secret_under_any_key_name_is_refused(value: str, name: str, words: str, connector: str,
                                                        upper: bool) -> None:
    """Class covered: 32-64 hex digits (letters and digits mixed) after a name ending in 'secret' or 'key', a few
    words between or none, with ':', 'is', '=' or no connector at all."""
    value = value.upper() if upper else value
    text = f"The {name}{words}{connector}{value}"
    assert review(text).verdict == "refuse", text
    assert value not in redact(text)


@settings(max_examples=60, deadline=None)
@given(value=_HEX, name=st.sampled_from(["public key", "key ID", "key fingerprint", "secret santa list hash",
                                         "key rotation commit", "signing key SHA256", "key version"]),
       connector=st.sampled_from([" ", ": ", " is "]))
def test_a_long_hex_value_named_public_is_stored(value: str, name: str, connector: str) -> None:
    """False-alarm class: the same values where the name says they are public (a public key, an id, a fingerprint,
    a hash or a commit)."""
    text = f"The {name}{connector}{value}"
    assert review(text).verdict == "store", text
