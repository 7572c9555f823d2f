"""Secrets known by what they open rather than by a password word: entry codes, recovery codes, seeds, bank details.

Added in round 2 from the tune half of the independent corpus, where each of these was missed:
"punch 55190 at the keypad", "the lockbox opens with 3-8-1-6", "the code to get in the building is
4471#", "2FA backup codes: 4829-1734, ...",
an authenticator setup key, a wallet's recovery phrase, and a routing number with its account.
Each finder looks for its fixed words first (str.find in the lowered text) and reads a bounded
window around them, judged once per distinct window, so the cost stays linear whatever the input.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..checksums import valid
from ..scan import Span, scan_windows
from ..wordlist import labels
from .values import looks_chosen

_CODE = r"\d{3,8}[#*]?|\d{1,2}(?:[- ]\d{1,2}){2,5}"  # a PIN-like code, or a combination 3-8-1-6 / 12-34-56

# "punch 55190 at the keypad", "enter 4471 on the keypad", "key in 0000# at the keypad"
_KEYPAD = re.compile(rf"\b(?:punch|enter|type|key|tap)\s+(?:in\s+)?(?P<value>{_CODE})\s+(?:at|on|into|in)\s+"
                     r"(?:the\s+)?keypad")
# "buzz 2B then enter 6530 at the lobby panel", "to get into my phone swipe up and type 903127" (round 3)
_TYPE_AT = re.compile(rf"\b(?:punch|enter|type|key|tap|dial)\s+(?:in\s+)?(?P<value>{_CODE})\s+(?:at|on|into|in)\s+"
                      r"(?:the\s+)?(?:[a-z]+\s+)?(?:panel|door|gate|intercom|lock|pad|keypad|box)\b")
_TO_UNLOCK = re.compile(r"\b(?:unlock|get\s+in(?:to)?|open)\b[^.\n]{0,40}?\b(?:punch|enter|type|key\s+in|tap|dial)\s+"
                        r"(?:in\s+)?(?P<value>\d{4,8}[#*]?)(?![\w-])")
# "the lockbox on the porch opens with 3-8-1-6", "the padlock opens with 0815"
_OPENS_WITH = re.compile(rf"\b(?:lock\s?box|key\s?safe|key\s?box|padlock|safe|locker|gate|door|lock)\b[^.\n]{{0,40}}?"
                         rf"\bopens?\s+with\s+(?:the\s+code\s+)?(?P<value>{_CODE})(?![\w-])")
# "the code to get in the building is 4471#", "the code for opening the shed: 2209"
_CODE_TO = re.compile(rf"\bcode\s+(?:to|for)\s+(?:get(?:ting)?\s+in(?:to)?|open(?:ing)?|enter(?:ing)?|unlock(?:ing)?)\b"
                      rf"[^.\n:]{{0,40}}?(?:\s+is|:)\s*(?P<value>{_CODE})(?![\w-])")
# "the PDF is locked with 1984Q7zz": a chosen-looking value after locked/protected/encrypted with.
_LOCKED_WITH = re.compile(r"\b(?:locked|protected|encrypted|secured)\s+with\s+(?:the\s+)?(?:password\s+)?"
                          r"(?P<value>[^\s,;]{5,63}[^\s,;.!?)])")

# "encrypted with AES-256" names a cipher, not a password.
_CIPHER = re.compile(r"(?:aes|rsa|sha|chacha|salsa|3?des|blowfish|twofish|camellia|tls|ssl|wpa|wep|pgp|gpg|ecc|ecdsa"
                     r"|ed25519|x25519|md5|argon2|bcrypt|scrypt|pbkdf2|xts|gcm|cbc)[\w.-]*", re.I)

Check = tuple[re.Pattern[str], Callable[[re.Match[str]], bool]]


def _any(match: re.Match[str]) -> bool:
    return True


def _has_digit(match: re.Match[str]) -> bool:
    return any(c.isdigit() for c in match.group("value"))


def _chosen_not_cipher(match: re.Match[str]) -> bool:
    value = match.group("value")
    return looks_chosen(value) and _has_digit(match) and not _CIPHER.fullmatch(value)


def _first_span(window: str, checks: tuple[Check, ...]) -> Span | None:
    """The value's span of the first pattern that matches in `window` and passes its check."""
    for pattern, accept in checks:
        match = pattern.search(window)
        if match is not None and accept(match):
            return match.span("value")
    return None


_ENTRY_CHECKS: tuple[Check, ...] = ((_KEYPAD, _any), (_TYPE_AT, _any), (_TO_UNLOCK, _any), (_OPENS_WITH, _any),
                                    (_CODE_TO, _any),
                                    (_LOCKED_WITH, _chosen_not_cipher))
_ENTRY_TRIGGERS = ("keypad", "open", "unlock", "get in", "punch", "enter", "type", "tap", "dial", "code to", "code for",
                   "locked with", "protected with", "encrypted with",
                   "secured with")


def find_entry_code(text: str) -> Span | None:
    """A code given by what it opens: a keypad, a lockbox or safe, a locked file."""
    return scan_windows(text, _ENTRY_TRIGGERS, lambda w: _first_span(w, _ENTRY_CHECKS), before=80, after=80)


# "backup codes: 4829-1734, 9921-0083", "recovery codes: e608c-321ac, ..." (a list of codes, each with a digit)
_CODE_ITEM = r"[a-z0-9]{4,10}(?:[- ][a-z0-9]{4,10})?"
# Separated by commas, spaces or lines, maybe numbered ("1. 8070 2150") (round 4: lists on lines, no colon).
_ITEM_GAP = r"(?:\s*[,;]\s*|[ \t]+|\s*\n\s*(?:\d{1,2}[.)]\s+)?)"
# Round 6: a line of advice may stand between the heading and the codes ("Keep these in a safe place."): words with
# a space between them, so a first code of letters alone ("svzn-xatp") is read as a code, not skipped as advice.
# The list may also start on the heading's line with no separator ("backup codes 3d5b-vqsb" then a code a line):
# tried first, so the dash inside that first code is not read as the heading's end, leaving the code unmasked.
_RECOVERY = re.compile(r"\b(?:backup|recovery|scratch|2fa|mfa)\s+codes?\b(?:[ \t]+(?=[a-z0-9]*\d)|[^:\n]{0,40}"
                       r"(?:[:\-–]|\n)(?:(?=[^\n\d:]{0,60}\n)[^\n]*?[^\s:][ \t]+[^\s:][^\n]*\n)?\s*"
                       rf"(?:\d{{1,2}}[.)]\s+)?)(?P<value>{_CODE_ITEM}(?:{_ITEM_GAP}{_CODE_ITEM})+)")
# An authenticator (TOTP) secret: base32, 16+ characters, often in groups of four.
_OTP_SEED = re.compile(r"\b(?:(?:setup|secret|totp|otp|2fa|mfa|authenticator)\s+(?:key|secret|seed)\b[^:\n]{0,50}"
                       r"|authenticator\b[^:\n]{0,30}:)[:=]?\s*"  # round 6: "... key in your authenticator app:"
                       r"(?P<value>[a-z2-7]{4}(?: ?[a-z2-7]{4}){3,15})(?![a-z2-7])")
# A wallet's recovery (seed) phrase: 12 to 24 lowercase words after its name.
_SEED_PHRASE = re.compile(r"\b(?:(?:recovery|seed|mnemonic|backup|secret)\s+(?:phrase|words)|wallet)\b[^:\n]{0,40}"
                          r"[:\-–]\s*"
                          r"(?P<value>[a-z]{3,8}(?:\s+[a-z]{3,8}){11,23})\b")

# A recovery key printed in groups (round 3): BitLocker's eight groups of six digits, each a multiple of 11 (Microsoft's
# format), or an Apple-style key of 4-character groups.
_RECOVERY_KEY = re.compile(r"\brecovery\s+key\b[^:\n]{0,20}[:=]?\s*"
                           r"(?P<value>\d{6}(?:-\d{6}){7}|[a-z0-9]{4}(?:-[a-z0-9]{4}){5,7})"
                           r"(?![\w-])")


def _recovery_key(match: re.Match[str]) -> bool:
    groups = match.group("value").split("-")
    if all(g.isdigit() for g in groups):
        return valid("bitlocker_key", match.group("value"))
    return any(c.isdigit() for c in match.group("value")) and any(c.isalpha() for c in match.group("value"))


def _codes_with_digits(value: str) -> bool:
    """Every listed code has a digit (words such as 'are stored in the vault' are not codes), or (round 6) three or
    more codes of one length, most with a digit: Steam's 'R9CYW RQAHL RE8SD' has a code of letters only."""
    codes = [c for c in re.split(r"[\s,;]+(?:\d{1,2}[.)]\s+)?", value) if c]
    with_digit = sum(any(ch.isdigit() for ch in code) for code in codes)
    if len(codes) >= 2 and with_digit == len(codes):
        return True
    return len(codes) >= 3 and len({len(c) for c in codes}) == 1 and with_digit * 2 > len(codes)


# Round 6: a seed phrase written as a numbered sheet ("1. wild 2. excuse ...") or in labelled rows ("words 1-6: ...").
_SEED_SHEET = re.compile(r"\b(?:seed|mnemonic|recovery\s+phrase|secret\s+phrase|backup\s+sheet|wallet|ledger|trezor|"
                         r"metamask|words?\s+1\b)"
                         r"[^\n]{0,40}?(?P<value>(?:[\s:.)\-–]*(?:\d{1,2}[.):-]?|words?\s+\d{1,2}\s*-\s*\d{1,2}:)?"
                         r"\s*[a-z]{3,8}\b){12,24})")
# Round 8: the seed phrase named in other languages, its words still the English BIP-39 list's ("Frase semilla de la
# billetera: ...", "Kripto cüzdan yedek kelimeleri: ..."); the names are words.csv's, purpose "recovery_words".
_SEED_NAMES_ELSEWHERE = labels("recovery_words")
_SEED_ELSEWHERE = re.compile("(?:" + "|".join(map(re.escape, _SEED_NAMES_ELSEWHERE)) + r")[^:：\n]{0,40}[:：]\s*"
                             r"(?P<value>[a-z]{3,8}(?:\s+[a-z]{3,8}){11,23})\b")
_NOT_SEED = frozenset("""the and for with you your our are was were this that from have has not but all can will
into about what when which their there they them then than been also some more just like over only very""".split())


def _seed_sheet(match: re.Match[str]) -> bool:
    """Twelve to twenty-four plain words once numbers and labels are dropped, hardly any of them function words."""
    words = [w for w in re.findall(r"[a-z]+", match.group("value")) if w not in ("word", "words")]
    return len(words) >= 12 and sum(w in _NOT_SEED for w in words) <= 1


_RECOVERY_CHECKS: tuple[Check, ...] = ((_RECOVERY_KEY, _recovery_key), (_SEED_SHEET, _seed_sheet),
    (_RECOVERY, lambda m: _codes_with_digits(m.group("value"))),
    (_OTP_SEED, _has_digit), (_SEED_PHRASE, _any), (_SEED_ELSEWHERE, _seed_sheet))
_RECOVERY_TRIGGERS = ("backup", "recovery", "scratch", "2fa", "mfa", "setup", "secret", "totp", "otp",
                      "authenticator", "seed", "mnemonic", "wallet", "ledger", "trezor", "metamask", "words 1",
                      "word 1", *_SEED_NAMES_ELSEWHERE)  # each pattern above starts with one of these


def find_recovery_secret(text: str) -> Span | None:
    """Account recovery material: a list of backup codes, an authenticator setup key, a wallet seed phrase."""
    return scan_windows(text, _RECOVERY_TRIGGERS, lambda w: _first_span(w, _RECOVERY_CHECKS), before=0, after=300)


# A US routing (ABA) number, valid under its 3-7-1 checksum, with the account number next to it.
_ROUTING = re.compile(r"\b(?:routing|aba|rtn)\s*(?:number|no\.?|#)?\s*:?\s*(?P<aba>\d{9})\b[^\n]{0,40}?"
                      r"\b(?:account|acct|acc)\.?\s*(?:number|no\.?|#)?\s*:?\s*(?P<value>\d{4,17})\b")
# A Canadian cheque: transit (branch), institution and account numbers together.
_CHEQUE = re.compile(r"\btransit\s*(?:number|no\.?|#)?\s*:?\s*\d{5}\b[^\n]{0,40}?\binstitution\s*(?:number|no\.?|#)?"
                     r"\s*:?\s*\d{3}\b[^\n]{0,40}?\baccount\s*(?:number|no\.?|#)?\s*:?\s*(?P<value>\d{5,12})\b")


def aba_valid(routing: str) -> bool:
    """The ABA routing-number check (weights 3, 7, 1), judged by stdnum.us.rtn."""
    return len(routing) == 9 and valid("us_rtn", routing)


# A Japanese account: the bank (銀行), then the account type (普通 ordinary, 当座 current) and 7 digits (round 3).
_JP_ACCOUNT = re.compile(r"(?:銀行|ゆうちょ)[^\n]{0,30}?(?:普通|当座)(?:預金)?\s*(?:口座)?\s*(?:番号)?\s*[:：]?\s*"
                         r"(?P<value>\d{7})(?!\d)")
# Any country: an account number (6-20 digits) after its name, with a bank named nearby (round 3, from general
# knowledge of how people write bank details, not from a corpus): "Kontonummer 1234 5678 90, Sparkasse, BLZ ...".
_ACCOUNT = re.compile(r"(?:account\s*(?:number|no\.?|#)|acct\.?\s*(?:no\.?|#)?|a/c\.?\s*(?:no\.?|#|number)?|kontonummer|konto-nr\.?|"
                      r"num[ée]ro de compte|n° de compte|n[uú]mero de (?:la )?cuenta|n[uú]mero da conta|"
                      r"numero (?:di|del) conto|conto corrente|rekeningnummer|numer konta|номер сч[её]та|"
                      r"р/с|口座番号|账号|帐号|账户|계좌번호|hesap (?:no|numarası))\s*[:=#]?\s*"
                      r"(?P<value>\d[\d -]{4,24}\d)(?![\w-])")
_BANK_WORD = re.compile(r"bank|banco|banque|banca|銀行|银行|은행|sort code|routing|bsb|swift|\bbic\b|iban|branch|"
                        r"agência|agencia|sucursal|filial|clabe|ifsc|\bblz\b|sparkasse|volksbank|girokonto|"
                        r"checking|savings|chase|barclays|hsbc|santander|wells fargo|ing\b")


def _bank_account(match: re.Match[str]) -> bool:
    digits = sum(c.isdigit() for c in match.group("value"))
    return 6 <= digits <= 20 and _BANK_WORD.search(match.string) is not None


# Round 6: a cheque's MICR line (⑆ routing ⑆ account ⑈), and a Mexican CLABE (18 digits, weights 3-7-1) by name.
_MICR = re.compile(r"⑆\s?(?P<aba>\d{9})\s?⑆\s*(?P<value>\d[\d ]{3,16}\d)\s?⑈")
_CLABE = re.compile(r"\bclabe\b[^\d\n]{0,40}(?P<value>(?<!\d)\d{3}[ -]?\d{3}[ -]?\d{11}[ -]?\d(?!\d))")


def clabe_valid(clabe: str) -> bool:
    """Banxico's CLABE check (weights 3, 7, 1 mod 10): an own check, as python-stdnum has no CLABE."""
    return valid("mx_clabe", clabe)


_BANK_CHECKS: tuple[Check, ...] = ((_ROUTING, lambda m: aba_valid(m.group("aba"))), (_CHEQUE, _any),
                                   (_MICR, lambda m: aba_valid(m.group("aba"))),
                                   (_CLABE, lambda m: clabe_valid(m.group("value"))),
                                   (_JP_ACCOUNT, _any), (_ACCOUNT, _bank_account))
_BANK_TRIGGERS = ("routing", "aba", "rtn", "transit", "⑆", "clabe", "銀行", "ゆうちょ", "account", "acct", "a/c", "konto", "compte",
                  "cuenta", "conta", "conto", "rekeningnummer", "numer konta", "сч", "р/с", "口座番号", "账号", "帐号",
                  "账户", "계좌번호", "hesap")


def find_bank_account(text: str) -> Span | None:
    """Bank account details that move money: a valid routing number with its account, a cheque's three numbers."""
    return scan_windows(text, _BANK_TRIGGERS, lambda w: _first_span(w, _BANK_CHECKS), before=120, after=160)
