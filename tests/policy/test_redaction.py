"""Redaction by span (issue 23): a finding masks its whole value and every part of a secret that comes in parts.

The guarantee, checked on the marked corpora and on generated text: no run of a marked secret value longer than
half of it (at most 12 characters) survives outside a mask, and review(redact(text)) stores what is left.
"""

from __future__ import annotations

import random
import string

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from primer_memory.policy.corpora.loader import COUNTED_ONLY, cases
from primer_memory.policy.rules import findings, redact, redaction_spans, review


def longest_unmasked_run(text: str, value: str) -> int:
    """The longest run of `value`'s characters, at any place it occurs in `text`, that redact() leaves unmasked."""
    spans = redaction_spans(text)
    worst, pos = 0, text.find(value)
    while pos != -1:
        run = 0
        for i in range(pos, pos + len(value)):
            run = 0 if any(s <= i < e for s, e, _ in spans) else run + 1
            worst = max(worst, run)
        pos = text.find(value, pos + 1)
    return worst


def leaks(text: str, value: str) -> bool:
    return longest_unmasked_run(text, value) > min(len(value) // 2, 12)


# --------------------------------------------------------------------------- the findings of issue 23, one by one


def test_a_value_is_masked_to_its_end_not_where_the_pattern_stopped() -> None:
    assert redact("pw = Tr0ub4dor&3") == "pw = [REDACTED:password_assignment]"  # was "...]&3"
    assert redact("le mot de passe du wifi est Soleil2026!") == "le mot de passe du wifi est [REDACTED:password_phrase]"


def test_a_cards_security_code_and_expiry_go_with_its_number() -> None:
    out = redact("Amex 3782 822463 10005 CID 4821 exp 05/29")
    assert "4821" not in out and "05/29" not in out, out
    out = redact("Visa 4111 1111 1111 1111 exp 08/27 cvv 392")
    assert "08/27" not in out and "392" not in out, out


def test_an_access_keys_secret_goes_with_its_key_id() -> None:
    out = redact("AKIAQ3EGX7YRTKZP4LMN / wJalrXUtnFEMIK7MDENGbPxRfiCYzqhnwlmeabcd")
    assert "wJalrX" not in out and "AKIAQ3" not in out, out


def test_a_routing_number_goes_with_its_account() -> None:
    out = redact("routing 021000021, account 4400112233 at Chase")
    assert "021000021" not in out and "4400112233" not in out, out


def test_a_list_is_masked_whole_once_one_item_is_found() -> None:
    words = "abandon ability abstract access acid acoustic adapt advice afford agent album alcohol".split()
    assert all(w not in redact("passphrase is orbit velvet cactus drum") for w in ("velvet", "cactus", "drum"))
    assert all(w not in redact("wifi passphrase: orbit velvet cactus drum") for w in ("velvet", "drum"))
    out = redact("recovery phrase: " + " ".join(words))
    assert not any(w in out for w in words), out
    codes = ["48291734", "99210083", "55218890", "10293847", "55667788", "99112233"]
    for sep in ("\n", ", "):
        out = redact("Backup codes:\n" + sep.join(codes))
        assert not any(c in out for c in codes), out


def test_the_second_half_of_a_password_goes_with_the_first() -> None:
    """Two messages read as one text (the API sees both): once the first half is found, the labelled rest goes too."""
    for text, rest in (("User: the vault password starts with Kestrel!4\nUser: and ends with 47-Blue", "47-Blue"),
                       ("my wifi password is Blue-Fal93x\nsecond half: con-88!", "con-88!"),
                       ("password: Kestrel!4 (first part), the rest is zq-77", "zq-77")):
        out = redact(text)
        assert rest not in out and review(out).verdict == "store", out


def test_a_spelled_value_and_its_assembled_form_are_both_masked() -> None:
    for text in ("wifi password, spelled: kilo seven x-ray romeo two two, so K7XR22",
                 "the password is K7XR22, that is kilo seven x-ray romeo two two"):
        out = redact(text)
        assert "K7XR22" not in out and "x-ray romeo" not in out, out


def test_redaction_spans_are_what_redact_masks() -> None:
    text = "card 4111 1111 1111 1111, PIN: 4821, key AKIAUITM3KJG7ONJ6NBE"
    spans = redaction_spans(text)
    assert [name for _, _, name in spans] == ["card_number", "password_phrase", "aws_access_key_id"]
    assert spans == sorted(spans) and all(e <= s2 for (_, e, _), (s2, _, _) in zip(spans, spans[1:]))


# --------------------------------------------------------------------------- the marked corpora


def _open_secrets() -> list:
    """Marked secrets of every half but the held-out halves kept out of tuning (those are only counted, in
    benchmarks/bench_policy.py, and never printed)."""
    return [c for c in cases(labels=("secret",)) if c.values
            and not (c.half == "heldout" and c.source in COUNTED_ONLY)]


def test_every_template_secret_is_masked_whole_and_what_is_left_is_stored() -> None:
    """Class: the "ours" corpus, every secret format of the detectors filled into every template: each slot value
    is masked whole (no run over half of it survives) and review() stores the redacted text."""
    failed = [(c.family, v) for c in _open_secrets() if c.source == "ours" for v in c.values if leaks(c.text, v)]
    assert failed == []
    refused = [c.family for c in _open_secrets() if c.source == "ours" and review(redact(c.text)).verdict != "store"]
    assert refused == []


# Marked values in the open halves of the independent corpora that no detector finds at all (a second secret beside
# the one found: a Polish ID card number, a Mexican NSS, a German SV number in a table, a Swedish password after
# "lösenordet till wifi är", spoken Russian digits, "Amazon = <password>"). Redaction masks what is found; these
# are recall misses, counted here so the number can only go down.
OPEN_MISSES_FLOOR = 6


def test_independent_corpora_leave_no_value_that_was_found() -> None:
    """Class: hand-written texts by authors blind to the detectors (independent, third, and the tune halves of
    fourth to seventh), with their secret values marked: every value masked whole but the counted recall misses,
    and review() stores every redacted text. Messages give counts and sources only."""
    open_cases = [c for c in _open_secrets() if c.source != "ours"]
    leaking = [c for c in open_cases if any(leaks(c.text, v) for v in c.values)]
    assert len(leaking) <= OPEN_MISSES_FLOOR, sorted({c.source for c in leaking})
    refused = [c.source for c in open_cases if review(redact(c.text)).verdict != "store"]
    assert refused == []


# --------------------------------------------------------------------------- generated label-value texts

LABELS = ["password", "pw", "passwd", "Password", "PIN", "passcode", "wifi password", "mot de passe", "Passwort",
          "contraseña", "senha", "api_key", "secret", "DB_PASSWORD", "admin password", "passphrase"]
PUNCT = "&!?#$%*@+-_.~^"


@st.composite
def chosen_values(draw: st.DrawFn) -> str:
    letters = draw(st.text("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ", min_size=4, max_size=10))
    digits = draw(st.text(string.digits, min_size=2, max_size=5))
    punct = draw(st.text(PUNCT, min_size=1, max_size=4))
    return "".join(draw(st.permutations(list(letters + digits + punct))))


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(label=st.sampled_from(LABELS), sep=st.sampled_from([": ", " = ", "=", " is ", " -> "]), value=chosen_values(),
       quote=st.sampled_from(["", "'", '"']), before=st.sampled_from(["", "note: ", "Remember, my "]),
       after=st.sampled_from(["", ".", " and call me.", "!", "\nThanks"]))
def test_a_label_value_pair_is_masked_to_the_end_of_its_value(label: str, sep: str, value: str, quote: str,
                                                             before: str, after: str) -> None:
    """Class: `label <sep> value` with a random value of letters, digits and & ! ? # $ % * @ + - _ . ~ ^, quoted or
    not, before sentence punctuation or more text: once refused, the value is masked whole and the rest stored."""
    text = f"{before}{label}{sep}{quote}{value}{quote}{after}"
    assume(review(text).verdict == "refuse")
    assert not leaks(text, value), (text, redact(text))
    assert review(redact(text)).verdict == "store", redact(text)


def _luhn_complete(body: str) -> str:
    digits = [int(c) for c in body]
    total = sum(d if k % 2 == 1 else (d * 2 - 9 if d > 4 else d * 2) for k, d in enumerate(reversed(digits)))
    return body + str((10 - total % 10) % 10)


@st.composite
def card_records(draw: st.DrawFn) -> tuple[str, list[str]]:
    rng = random.Random(draw(st.integers(0, 2**32)))
    prefix = rng.choice(["4", "51", "52", "53", "54", "55"])
    card = _luhn_complete(prefix + "".join(rng.choice(string.digits) for _ in range(15 - len(prefix))))
    shown = draw(st.sampled_from([" ", "-", ""])).join(card[i:i + 4] for i in range(0, 16, 4))
    expiry, code = f"{rng.randrange(1, 13):02d}/{rng.randrange(26, 32)}", f"{rng.randrange(1000):03d}"
    joiner = draw(st.sampled_from([", ", " ", "\n", " / ", " · "]))
    expiry_label = draw(st.sampled_from(["exp ", "expires ", "valid thru ", "", "gültig bis ", "vence "]))
    code_label = draw(st.sampled_from(["cvv ", "CVC: ", "security code ", "CID ", "", "code "]))
    head = draw(st.sampled_from(["card ", "Visa: ", "tarjeta ", "pay with "]))
    return f"{head}{shown}{joiner}{expiry_label}{expiry}{joiner}{code_label}{code}", [shown, expiry, code]


@st.composite
def access_keys(draw: st.DrawFn) -> tuple[str, list[str]]:
    rng = random.Random(draw(st.integers(0, 2**32)))
    key = "AKIA" + "".join(rng.choice(string.ascii_uppercase + "234567") for _ in range(16))
    secret = "".join(rng.choice(string.ascii_letters + string.digits + "/+") for _ in range(40))
    form = draw(st.sampled_from(["key {k} secret {s}", "aws_access_key_id={k}\naws_secret_access_key={s}",
                                 "{k} / {s}", "id: {k}, secret: {s}", "AWS creds {k}:{s}"]))
    return form.format(k=key, s=secret), [key, secret]


@st.composite
def code_lists(draw: st.DrawFn) -> tuple[str, list[str]]:
    rng = random.Random(draw(st.integers(0, 2**32)))
    shape = draw(st.sampled_from(["dddd-dddd", "dddd dddd", "dddddddd", "aaaa-aaaa"]))
    codes = ["".join(rng.choice(string.digits) if c == "d" else rng.choice("abcdefghjkmnpqrstuvwxyz23456789")
                     if c == "a" else c for c in shape) for _ in range(draw(st.integers(2, 10)))]
    label = draw(st.sampled_from(["backup codes: ", "Recovery codes:\n", "2FA backup codes ", "scratch codes: "]))
    return label + draw(st.sampled_from([", ", "\n", "; ", "  ", "\n- "])).join(codes), codes


@st.composite
def phrases(draw: st.DrawFn) -> tuple[str, list[str]]:
    pool = "orbit velvet cactus drum maple tiger ocean violet candle mirror frost pilot galaxy garlic harbor".split()
    words = draw(st.lists(st.sampled_from(pool), min_size=4, max_size=24))
    label = draw(st.sampled_from(["passphrase: ", "seed phrase: ", "recovery phrase:\n", "my wallet seed words are "]))
    return label + draw(st.sampled_from([" ", "-", "\n"])).join(words), words


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=st.one_of(card_records(), access_keys(), code_lists(), phrases()))
# Found by this property: a dashed first code on the heading's line, its dash read as the heading's end.
@example(case=("2FA backup codes 3d5b-vqsb\nerrx-whmn\nms67-p4tc\nvazy-n37q",
               ["3d5b-vqsb", "errx-whmn", "ms67-p4tc", "vazy-n37q"]))
def test_every_part_of_a_secret_in_parts_is_masked(case: tuple[str, list[str]]) -> None:
    """Class: secrets that come in parts, generated: a card with its expiry and code (labelled in five languages
    or bare, any separator), an access key id with its secret, a list of 2-10 backup codes, a phrase of 4-24
    words: once the text is refused, no part survives and the rest is stored."""
    text, parts = case
    assume(review(text).verdict == "refuse")
    assert [p for p in parts if leaks(text, p)] == [], redact(text)
    assert review(redact(text)).verdict == "store", redact(text)


def test_a_finding_carries_the_span_of_the_whole_value() -> None:
    text = "pw = Tr0ub4dor&3"
    assert {text[f.start:f.end] for f in findings(text)} == {"Tr0ub4dor&3"}
