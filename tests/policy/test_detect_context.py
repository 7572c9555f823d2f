"""Round-5 detectors: secrets known by their place (the next line, a table column, a notification, a cookie).

Every shape here was written for the test, not taken from a corpus; each positive has near misses that
use the same words and layouts without a secret.
"""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory.policy.rules import DETECTORS, review

BY_NAME = {d.name: d for d in DETECTORS}

FIRES = {
    "password_followup": ["ops: rotated the svc-backup password this morning\nnew value: Tide-Lamp-88x",
                          "> what's the wifi pw at the cabin?\n> Pine!Cone42",
                          "what's the alarm code?\n7713#", "Can someone share the VPN creds?\nsure: Vpn-Gr8-Access"],
    "login_pair": ["netflix: mom.family@mail.example / Sofa!Night77", "j.doe@corp.example:Spring2025!x"],
    "table_secret": ["site,username,password\nbank,ana.r,Rosa!2024\nmail,ana.r,Nube7777",
                     "| account | pin |\n|---|---|\n| savings | 4821 |", "name;cvv\nBob;913",
                     "title\tlogin\tpassword\nrouter\tadmin\tsunflower"],
    "one_time_code": ["738201 is your Acme login code", "842 615 est votre code Acme",
                      "Enter 30918 to confirm your e-mail", "G-551903 is your sign-in code"],
    "session_cookie": ["Cookie: PHPSESSID=9f2c1e7ab34d5f60718293a4b5c6d7e8; theme=dark",
                       "set-cookie: connect.sid=s%3AQk3bN7xT2mZp9LwR4vYc.Hh81; Path=/"],
    "account_password": ["root on the old NAS is still Nas!Root2019", "Set the router's admin to 'Rout3r-Key!' tonight",
                         "my tablet login is Velvet-Moth-55"],
    "passphrase_words": ["my vault passphrase is copper lantern meadow fiddle",
                         "app password for Thunderbird: wxyz abcd efgh ijkl"],
}

HARMLESS = [
    "I changed my password yesterday.\nTicket INC0048213 is closed.",
    "password reset requested\nRequest-ID: 7fA9c2Lm0QzT",
    "Password policy:\n- at least 12 characters\n- no reuse of Tr0ub4dor&3",
    "What's the wifi name at the cabin?\nPineCabin5G",
    "what's the login page?\nhttps://portal.example.com/Login2",
    "what is the code?\nSee the 2024 report",
    "Contact: support@acme.example / +1 415 555 0132",
    "email,name,plan\nana@x.example,Ana,Pro2024",
    "field,type\npassword,string\nusername,string",
    "| setting | value |\n|---|---|\n| password | ******** |",
    "site,user,password\nbank,ana.r,********\nmail,ana.r,(hidden)",
    "user;pin\nana;n/a\nbob;-",
    "In 2024 your PIN will expire after 90 days.",
    "2025 is your year to code more.",
    "session timeout = 1800000 ms",
    "The session_id column is indexed.",
    "The admin is Ana Lopez.",
    "root cause: Disk4 full on db-02",
    "login via SSO at https://sso.example.com",
    "login as svc-Deploy01 with your own key",
    "The passphrase must be four random words from the EFF list.",
    "The password is kept hashed using bcrypt.",
    "Meet me at gate 4: 1015 is when boarding starts.",
    "Use 2 cups of flour to bake the bread.",
]


@pytest.mark.parametrize(("name", "text"), [(n, t) for n, ts in FIRES.items() for t in ts])
def test_round_5_detector_finds_its_shape(name: str, text: str) -> None:
    assert BY_NAME[name].find(text) is not None, text
    assert review(text).verdict == "refuse"


@pytest.mark.parametrize("text", HARMLESS)
def test_round_5_near_misses_are_stored(text: str) -> None:
    decision = review(text)
    assert decision.verdict != "refuse", (text, decision.detector)


_ROUND_5 = tuple(FIRES)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=string.printable + "äöü密码|;\t", max_size=400))
def test_round_5_finders_return_a_span_inside_the_text(text: str) -> None:
    for name in _ROUND_5:
        span = BY_NAME[name].find(text)
        assert span is None or 0 <= span[0] < span[1] <= len(text)


def _chosen(rng: random.Random) -> str:
    """A chosen password: a capital, five small letters, a symbol, digits. Never 'xxx' (one seed in about 6,000
    drew 'Zoxxxx%805'): three x in a row is how a table masks a cell, so the finder reads it as a mask by design."""
    letters = "".join(rng.choice(string.ascii_lowercase.replace("x", "")) for _ in range(5))
    return rng.choice(string.ascii_uppercase) + letters + rng.choice("!#$%&*") + str(rng.randrange(10, 1000))


_COLUMNS = ["site", "user", "note", "url", "updated"]
_SECRET_COLUMNS = ["password", "Password", "pwd", "PIN", "mot de passe", "Passwort", "api_key"]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([",", ";", "\t", "|"]), st.sampled_from(_SECRET_COLUMNS),
       st.integers(0, 4), st.integers(1, 4))
def test_a_filled_secret_column_is_found_where_the_value_is(seed: int, delimiter: str, column: str, at: int,
                                                            rows: int) -> None:
    rng = random.Random(seed)
    header = rng.sample(_COLUMNS, 3)
    header.insert(min(at, 3), column)
    lines = [delimiter.join(header)]
    values = []
    for _ in range(rows):
        value = str(rng.randrange(1000, 10**6)) if column == "PIN" else _chosen(rng)
        row = [rng.choice(["bank", "mail", "ana", "2025-01-01"]) for _ in range(3)]
        row.insert(min(at, 3), value)
        values.append(value)
        lines.append(delimiter.join(row))
    text = "\n".join(lines)
    span = BY_NAME["table_secret"].find(text)
    assert span is not None and text[span[0]:span[1]] == values[0], text


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([",", ";", "\t", "|"]), st.sampled_from(_SECRET_COLUMNS),
       st.lists(st.sampled_from(["********", "xxxx", "<hidden>", "n/a", "", "-", "••••", "${PASSWORD}"]),
                min_size=1, max_size=4))
def test_a_masked_secret_column_is_not_a_secret(seed: int, delimiter: str, column: str, masks: list[str]) -> None:
    rng = random.Random(seed)
    lines = [delimiter.join(["site", column, "note"])]
    lines += [delimiter.join([rng.choice(["bank", "mail"]), mask, "shared"]) for mask in masks]
    assert BY_NAME["table_secret"].find("\n".join(lines)) is None


_NOTICES = ["{} is your verification code", "{} is your Acme code. Don't share it.", "{} est votre code de connexion",
            "{} ist Ihr Bestätigungscode", "{} es tu código de acceso", "Use {} to verify your account",
            "{} 是您的验证码"]


@settings(max_examples=200, deadline=None)
@given(st.integers(100_000, 99_999_999), st.sampled_from(_NOTICES), st.sampled_from(["", "SMS: ", "Fwd: "]))
def test_a_notification_code_is_found_where_it_is(code: int, template: str, prefix: str) -> None:
    text = prefix + template.format(code)
    span = BY_NAME["one_time_code"].find(text)
    assert span is not None and text[span[0]:span[1]] == str(code), text


@settings(max_examples=100, deadline=None)
@given(st.integers(1950, 2049), st.sampled_from(["In {} your PIN changed.", "{} is your year to code.",
                                                  "Since {} your password has not changed."]))
def test_a_year_is_not_a_notification_code(year: int, template: str) -> None:
    assert BY_NAME["one_time_code"].find(template.format(year)) is None


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([" / ", ":", " | "]))
def test_an_address_beside_a_chosen_password_is_found(seed: int, separator: str) -> None:
    rng = random.Random(seed)
    user = "".join(rng.choice(string.ascii_lowercase) for _ in range(6)) + "@mail.example"
    value = _chosen(rng)
    text = f"the shared login is {user}{separator}{value}, thanks"
    span = BY_NAME["login_pair"].find(text)
    assert span is not None and text[span[0]:span[1]] == value, text


ADVERSARIAL = ["password\n" * 20_000, "a@b.cd / " * 20_000, "site,password\n" * 20_000, "| pin |\n" * 20_000,
               "123456 is your " * 10_000, "sessionid=" * 20_000, "admin to " * 20_000, "passphrase: a b c " * 10_000,
               "what's the code?\n" * 10_000]


@pytest.mark.parametrize("text", ADVERSARIAL, ids=[t[:12] for t in ADVERSARIAL])
def test_round_5_finders_handle_long_adversarial_runs(text: str) -> None:
    for name in _ROUND_5:
        span = BY_NAME[name].find(text)
        assert span is None or 0 <= span[0] < span[1] <= len(text)


def _dense(word: str, lines: int, seed: int = 1) -> str:
    rng = random.Random(seed)
    return "".join(f"{word} reset\n{rng.randrange(10**8):08d} ok\n" for _ in range(lines))


@pytest.mark.parametrize("word", ["password", "code", "pin"])
def test_a_text_with_thousands_of_distinct_credential_places_is_refused_unread(word: str) -> None:
    """Past MAX_PLACES distinct places a detector would judge, the text is refused, never stored unread."""
    from primer_memory.policy.rules import TOO_DENSE, findings, redact
    from primer_memory.policy.scan import MAX_PLACES

    text = _dense(word, MAX_PLACES + 10)
    decision = review(text)
    assert (decision.verdict, decision.detector) == ("refuse", TOO_DENSE)
    assert "split the text" in decision.reason and "reset" not in decision.reason
    assert [f.detector for f in findings(text)] == [TOO_DENSE]
    assert redact(text) == f"[REDACTED:{TOO_DENSE}]"


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 300), st.sampled_from(["password", "code", "pin"]), st.integers(0, 10**6))
def test_a_note_with_a_few_hundred_credential_places_is_read(lines: int, word: str, seed: int) -> None:
    """Below the bound every place is read: the harmless lines are stored, one secret among them is found."""
    text = _dense(word, lines, seed)
    assert review(text).verdict == "store"
    secret = text + "the wifi password is Harbor!4412 now"
    assert review(secret).verdict == "refuse"
