"""Redaction by span: a finding owns the whole value, and every part of a secret that comes in parts.

Detectors report where they fired, often only the core of a value ('Tr0ub4dor' of 'Tr0ub4dor&3', the card number
but not its CVV, one code of a list). `whole_spans` grows each finding to what a reader would mark, by four rules
that hold for any detector: (1) the value runs to its natural end (the closing quote, the end of the token, or the
end of a `label: value` line); (2) companions: once a record holds a secret, its labelled parts are masked too
(a card's expiry and CVV, an access key's secret, a routing number, `password`/`pin`/`secret` fields, the other
half of a split password); (3) lists: a code or word found in a list takes the whole list with it; (4) echoes: the
same value written again elsewhere in the text, or spelled out and then assembled, is masked wherever it appears.
Each rule reads a bounded window around a finding, or scans the whole text once and keeps what lies near one,
so the cost is linear in the length of the text and the number of findings.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable

from .checksums import luhn_valid

Found = tuple[int, int, str]  # start, end, detector name
Marked = tuple[int, int, int, str]  # start, end, rank (lower names a merged group), detector name

__all__ = ["Found", "Marked", "extend_value", "merge", "whole_spans"]

_QUOTES = {'"': '"', "'": "'", "`": "`", "“": "”", "‘": "’", "«": "»", "„": "“", "「": "」", "『": "』", "‹": "›"}
_CLOSING_QUOTES = frozenset("\"'`”’»“」』›")
_OPENERS = {")": "(", "]": "[", "}": "{", ">": "<"}
_FORWARD_STOP = frozenset(",;") | _CLOSING_QUOTES
_BACKWARD_STOP = frozenset(":=,;([{<>/|@#") | frozenset(_QUOTES)
_URL_STOP = frozenset("@/?#")  # a URL's password ends where its host or path begins (a raw '@' is never in it)
_URL_DETECTORS = frozenset({"url_credentials", "dsn_credentials"})
_SENTENCE_PUNCT = ".,:;"
_REACH = 300  # how far a record reaches either side of a finding, at most
_LINE_VALUE_MAX = 80

# Detectors whose value is a password, passphrase, PIN or answer: after a `label:` their value may run to the line's end.
_PASSWORD_LIKE = frozenset({
    "password_phrase", "password_assignment", "password_nearby", "wifi_key", "security_answer", "passphrase_words",
    "account_password", "loose_credential", "password_followup", "recovery_secret", "credential_file_line",
    "secret_assignment", "code_nearby", "entry_code", "cli_password", "table_secret", "login_pair", "spoken_digits",
})
_CARD = frozenset({"card_number", "dictated_digits"})
_ACCESS_KEY = frozenset({"aws_access_key_id"})
_BANK = frozenset({"bank_account", "iban"})
_MRZ = frozenset({"mrz"})
_PART_NAMES = frozenset({"secret_part", "card_expiry", "card_code", "access_key_secret", "routing_number"})

_LABEL_SEP = r"[\"']?\s*(?:[:=：]|\bis\b|\bwas\b|\best\b|\bist\b|\bes\b|->|→)\s*"
# (2) Labelled parts that are secret wherever a record already holds a secret: the labels as each language writes
# them (from the languages themselves, not from any corpus text).
_SECRET_LABEL = re.compile(
    r"(?<![\w-])(?:(?:pass(?:word|wd|code|phrase)?|pwd|pin|otp|cvv2?|cvc2?|cid|csc|secret(?:[ _-]?(?:access[ _-]?)?key)?|"
    r"api[ _-]?key|access[ _-]?key|private[ _-]?key(?:[ _-]?id)?|client[ _-]?secret|token|auth[ _-]?token|"
    r"security[ _-]?code|card[ _-]?code|(?:first|second|other|last|remaining)[ _-]+(?:half|part)|the[ _-]rest|"
    r"mot[ _-]de[ _-]passe|passwort|kennwort|contraseña|senha|"
    r"clave|wachtwoord|lösenord|salasana|пароль|密码|暗証番号|パスワード|비밀번호)"
    r"(?![\w-])" + _LABEL_SEP + r"|(?<![\w-])(?:ends|starts|begins|continues)\s+with\s+)")
# A card's companions: the expiry (MM/YY) and the 3-4 digit security code, labelled or right after the number.
_DIGIT_WORD = (r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|cero|uno|dos|tres|cuatro|cinco|seis|siete|"
               r"ocho|nueve|null|eins|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zéro|un|deux|trois|quatre|cinq|"
               r"sept|huit|neuf)")
_EXPIRY = re.compile(r"(?<![\d/.-])(?:0[1-9]|1[0-2])\s?[/-]\s?(?:20)?\d{2}(?![\d/-]|\.\d)")
_CVV_LABEL = re.compile(
    r"(?<![\w])(?:cvv2?|cvc2?|cid|csc|cvn|cav2|security\s+code|card\s+code|sec\.?\s*code|code|c[oó]digo(?:\s+de\s+"
    r"seguran[cç]a|\s+de\s+seguridad)?|cryptogramme(?:\s+visuel)?|prüf(?:nummer|ziffer|code)|kartenprüfnummer|"
    r"on\s+the\s+back|back|安全码|セキュリティコード|보안\s*코드|mã\s+bảo\s+mật)(?![\w])[^\d\n]{0,24}?"
    rf"(?P<value>\d{{3,4}}(?!\d)|{_DIGIT_WORD}(?:[\s,.-]+{_DIGIT_WORD}){{2,3}}\b)", re.I)
# A card number's digits, unspaced or in groups of four (Amex 4-6-5): whichever detector found the record.
_CARD_RUN = re.compile(r"(?<![\d.,-])(?:\d{13,19}|\d{4}(?:[ -]\d{4}){2}[ -]\d{1,7}|\d{4}[ -]\d{6}[ -]\d{5})(?![\d-]|[.,]\d)")
_TRAILING_CODE = re.compile(r"[\s,;/|·•-]{1,4}(?P<value>\d{3,4})(?![\d/.-])")
_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")
_ROUTING = re.compile(r"(?:\b(?:routing|aba|rtn|sort\s*code|bsb|transit|ifsc|blz)\b\s*(?:number|no\.?|#|code)?\s*[:#]?"
                      r"\s*|⑆\s?)(?P<value>[A-Z0-9][A-Z0-9-]{4,10}[0-9])(?![\w-])", re.I)
_MRZ_LINE = re.compile(r"[A-Z0-9<]{28,46}")
_K8S_SECRET = re.compile(r"^kind:\s*Secret\s*$", re.M)

# (3) Lists: numbering or bullets between items, commas, 'and'.
_LIST_GAP = re.compile(r"[ \t]*(?:[,;/|·•]|\band\b|\bund\b|\bet\b|\by\b|\be\b)?[ \t]*"
                       r"(?:\r?\n[ \t]*(?:[-*•]|\d{1,2}[.)])?[ \t]*)?(?:\d{1,2}[.)][ \t]*)?")
_GAP_CHARS = frozenset(" \t\r\n,;/|·•")
_PHRASE_LABEL = re.compile(r"phrase|seed|mnemonic|words|frase|wörter|mots|palabras|parole|woorden|słowa|слова|"
                           r"cụm từ|フレーズ|助记词|단어|recovery|backup|codes|códigos|codici", re.I)
_WORD = re.compile(r"[^\W\d_]{2,15}")
_CODE_TOKEN = re.compile(r"(?=[^\s]*\d)[A-Za-z0-9]{2,12}(?:[- ][A-Za-z0-9]{2,12}){0,3}")
_MAX_LIST = 48

# (4) Spelled values: what the spelling assembles to.
_SPELLED = {w: c for c, words in {
    "0": "zero oh cero null zéro", "1": "one uno eins un", "2": "two dos zwei deux", "3": "three tres drei trois",
    "4": "four cuatro vier quatre", "5": "five cinco fünf cinq", "6": "six seis sechs", "7": "seven siete sieben sept",
    "8": "eight ocho acht huit", "9": "nine nueve neun neuf"}.items() for w in words.split()}
_SPELLED |= {w: w[0] for w in ("alfa alpha bravo charlie delta echo foxtrot golf hotel india juliett juliet kilo lima "
                               "mike november oscar papa quebec romeo sierra tango uniform victor whiskey x-ray xray "
                               "yankee zulu").split()}
_SPELLED_ITEM = "(?:" + "|".join(sorted(map(re.escape, _SPELLED), key=len, reverse=True)) + r"|[A-Za-z0-9])"
_SPELLED_RUN = re.compile(rf"(?<![\w-]){_SPELLED_ITEM}(?:[\s,.;:/·•-]+{_SPELLED_ITEM}){{3,}}(?![\w-])", re.I)
_TOKEN = re.compile(r"\S+")
_PUNCT = "\"'`“”‘’«».,;:!?()[]{}<>"


_LINE_REACH = 2048  # a line longer than this is read as if it broke here (a one-line megabyte stays linear)


def _line_bounds(text: str, pos: int) -> tuple[int, int]:
    """The line around `pos`, at most _LINE_REACH characters either side of it."""
    lo, hi = max(0, pos - _LINE_REACH), min(len(text), pos + _LINE_REACH)
    start = text.rfind("\n", lo, pos)
    end = text.find("\n", pos, hi)
    return (lo if start == -1 else start + 1), (hi if end == -1 else end)


def extend_value(text: str, start: int, end: int, name: str) -> tuple[int, int]:
    """(1) The span of the whole value around a finding: to the closing quote, the token's end, or a label line's end."""
    n = len(text)
    if start > 0 and text[start - 1] in _QUOTES:
        close = text.find(_QUOTES[text[start - 1]], max(start, end - 1), _line_bounds(text, start)[1])
        if close != -1:
            return start, max(end, close)
    stop = _FORWARD_STOP | (_URL_STOP if name in _URL_DETECTORS else frozenset())
    e = end
    while e < n and not text[e].isspace() and text[e] not in stop:
        opener = _OPENERS.get(text[e])
        if opener is not None and text.count(opener, start, e) <= text.count(text[e], start, e):
            break
        e += 1
    while e > end and text[e - 1] in _SENTENCE_PUNCT:
        e -= 1
    s = start
    while s > 0 and text[start].isalnum() and not text[s - 1].isspace() and text[s - 1] not in _BACKWARD_STOP:
        s -= 1  # (only a span that starts inside a value is grown back: one that starts at a separator is whole)
    if name in _PASSWORD_LIKE:
        e = _to_line_end(text, s, e)
    return s, max(e, end)


_AFTER_LABEL = re.compile(r"[:=：]\s*$")
_WORDS_ONLY = re.compile(r"[^\S\n]+[\w'’&!?#$%*@+-]+(?:[^\S\n]+[\w'’&!?#$%*@+-]+)*[^\S\n]*")


def _to_line_end(text: str, start: int, end: int) -> int:
    """After `label:` (or `label =`) a value of plain words runs to the end of its line (a passphrase has spaces)."""
    line_start, line_end = _line_bounds(text, start)
    if not _AFTER_LABEL.search(text, line_start, start) or line_end - end > _LINE_VALUE_MAX:
        return end
    rest = _WORDS_ONLY.fullmatch(text, end, line_end)
    return line_end - (len(rest.group()) - len(rest.group().rstrip())) if rest else end


class _Near:
    """Whether a span lies within `reach` of one of `spans` in the same paragraph, in O(log n) per question.

    Candidates for every companion rule are found by one scan of the whole text each and kept only where a
    finding is near, instead of rescanning a window around every finding (which made 5,000 findings slow).
    """

    def __init__(self, text: str, spans: Iterable[tuple[int, int]], reach: int, blanks: list[int]) -> None:
        ordered = sorted(spans)
        self.starts = [s for s, _ in ordered]
        self.max_end: list[int] = []
        for _, e in ordered:
            self.max_end.append(max(e, self.max_end[-1]) if self.max_end else e)
        self.reach, self.blanks, self.size = reach, blanks, len(text)

    def __bool__(self) -> bool:
        return bool(self.starts)

    def __call__(self, start: int, end: int) -> bool:
        k = bisect.bisect_right(self.blanks, start)  # the paragraph: between two blank lines
        para_lo = self.blanks[k - 1] if k else 0
        para_hi = self.blanks[k] if k < len(self.blanks) else self.size
        lo, hi = max(start - self.reach, para_lo), min(end + self.reach, para_hi)
        i = bisect.bisect_right(self.starts, hi) - 1
        return i >= 0 and self.max_end[i] > lo


def companions(text: str, found: list[Found], secret: frozenset[str]) -> list[Marked]:
    """(2) The other parts of secrets that come in parts: labelled fields, a card's expiry and code, an access
    key's secret, a routing number, the other lines of a machine-readable zone, a Secret manifest's fields."""
    blanks = [m.start() for m in re.finditer(r"\n[ \t]*\n", text)]
    secrets = [(s, e) for s, e, name in found if name in secret]
    if not secrets:
        return []
    out: list[Marked] = []
    rank = 2 * len(found)
    near_secret = _Near(text, secrets, _REACH, blanks)
    for match in _SECRET_LABEL.finditer(text):
        value_start = match.end()
        if value_start < len(text) and text[value_start] in _QUOTES:
            value_start += 1
        if value_start < len(text) and not text[value_start].isspace() and near_secret(match.start(), value_start):
            out.append((*extend_value(text, value_start, value_start + 1, "password_phrase"), rank, "secret_part"))
    cards = [(s, e) for s, e, name in found if name in _CARD or (name in secret and _is_card_number(text[s:e]))]
    cards += [m.span() for m in _CARD_RUN.finditer(text) if _is_card_number(m.group()) and near_secret(*m.span())]
    out += [(s, e, rank, "card_number") for s, e in cards]  # (a card found by another detector keeps its name)
    near_card = _Near(text, cards, 120, blanks)
    if near_card:
        for match in _EXPIRY.finditer(text):
            if near_card(*match.span()):
                out.append((*match.span(), rank, "card_expiry"))
                code = _TRAILING_CODE.match(text, match.end())
                if code:
                    out.append((*code.span("value"), rank, "card_code"))
        for start, end in cards:
            code = _TRAILING_CODE.match(text, end)
            if code and not _EXPIRY.match(text, code.start("value")):
                out.append((*code.span("value"), rank, "card_code"))
        out += [(*m.span("value"), rank, "card_code") for m in _CVV_LABEL.finditer(text) if near_card(*m.span())]
    for names, pattern, group, part in ((_ACCESS_KEY, _AWS_SECRET, 0, "access_key_secret"),
                                        (_BANK, _ROUTING, "value", "routing_number")):
        near = _Near(text, [(s, e) for s, e, name in found if name in names], _REACH, blanks)
        if near:
            out += [(*m.span(group), rank, part) for m in pattern.finditer(text) if near(*m.span())]
    for start, end, name in found:
        if name in _MRZ:
            out += [(s, e, rank, name) for s, e in _mrz_lines(text, start, end)]
    manifest = _K8S_SECRET.search(text)
    if manifest is not None:
        for start, _, name in found:
            if name in secret and start >= manifest.start():
                out += [(s, e, rank, name) for s, e in _secret_manifest_values(text, start)]
                break
    return out


def _is_card_number(value: str) -> bool:
    """A value that is a payment card number whichever detector found it (a table cell, a dictated run)."""
    digits = "".join(c for c in value if c.isdigit())
    if not 13 <= len(digits) <= 19 or any(c.isalpha() for c in value):
        return False
    return luhn_valid(digits)  # judged by python-stdnum, like every card check


def _mrz_lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A machine-readable zone is one value of two or three lines: the lines beside a found one go with it."""
    spans = []
    line_start, line_end = _line_bounds(text, start)
    pos = line_start - 1
    for _ in range(2):  # the lines above
        if pos <= 0:
            break
        s, e = _line_bounds(text, pos - 1 if text[pos] == "\n" else pos)
        if _MRZ_LINE.fullmatch(text[s:e].strip()):
            spans.append((s, e))
            pos = s - 1
        else:
            break
    pos = max(line_end, end)
    for _ in range(2):  # the lines below
        if pos >= len(text):
            break
        s, e = _line_bounds(text, pos + 1)
        if _MRZ_LINE.fullmatch(text[s:e].strip()):
            spans.append((s, e))
            pos = e
        else:
            break
    return spans


_YAML_FIELD = re.compile(r"^(?P<indent>[ \t]+)[\w.-]+:[ \t]*(?P<value>\S.*?)[ \t]*$", re.M)


def _secret_manifest_values(text: str, start: int) -> list[tuple[int, int]]:
    """A Kubernetes Secret's data block holds secrets only: a finding in it takes every field of the block."""
    head = max(text.rfind("\ndata:", 0, start), text.rfind("\nstringData:", 0, start))
    if head == -1:
        return []
    spans = []
    for match in _YAML_FIELD.finditer(text, text.index("\n", head + 1) + 1):
        spans.append(match.span("value"))
        if len(spans) > _MAX_LIST:
            break
    return spans


_ITEM_SPLIT = re.compile(r"(?:\s*[,;]\s*|\s+)")


def _shape_key(value: str) -> str:
    """A code's layout: where its separators are; digits only, or letters and digits in any order."""
    if any(c.isalpha() for c in value):
        return "".join("x" if c.isalnum() else c for c in value)
    return "".join("9" if c.isdigit() else c for c in value)


def _shape(value: str) -> re.Pattern[str]:
    """The pattern of codes laid out like `value` (a code with no separator must still hold a digit)."""
    key = _shape_key(value)
    body = "".join("[A-Za-z0-9]" if c == "x" else "[0-9]" if c == "9" else re.escape(c) for c in key)
    digit = "" if any(not c.isalnum() for c in value) else "(?=[A-Za-z]*[0-9])"
    return re.compile(rf"(?<![\w-]){digit}{body}(?![\w-])")


def _item_pattern(item: str, words: bool) -> re.Pattern[str] | None:
    """What the next item of a list like this one looks like: a code of the same layout, or a plain word."""
    if _CODE_TOKEN.fullmatch(item):
        return _shape(item)
    if words and _WORD.fullmatch(item):
        return _WORD
    return None


def list_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(3) The rest of a list one item of which was found: codes of the same layout, or the words of a phrase."""
    items = [i for i in _ITEM_SPLIT.split(text[start:end].strip()) if i]
    if not items:
        return []
    line_start = _line_bounds(text, start)[0]
    words = _PHRASE_LABEL.search(text, max(line_start, start - 60), end) is not None or (
        len(items) >= 4 and all(_WORD.fullmatch(i) for i in items[-4:]))
    spans = []
    item = _item_pattern(items[-1], words)
    pos = end
    for _ in range(_MAX_LIST if item is not None else 0):  # forward: a gap of separators, then a like item
        gap = _LIST_GAP.match(text, pos)
        nxt = item.match(text, gap.end()) if gap else None
        if nxt is None or nxt.end() == pos:
            break
        pos = nxt.end()
    if pos > end:
        spans.append((end, pos))  # the gaps too: one marker for the list, and its length is not told
    item = _item_pattern(items[0], words=False)  # backward codes only: the words before a phrase are its label
    if item is None:
        return spans
    pos = start
    for _ in range(_MAX_LIST):  # backward, token by token: the item before the gap before `pos`
        gap_start = pos
        while gap_start > 0 and text[gap_start - 1] in _GAP_CHARS:
            gap_start -= 1
        token_start = gap_start
        while token_start > 0 and not text[token_start - 1].isspace() and text[token_start - 1] not in ",;":
            token_start -= 1
        if (gap_start == pos or item.fullmatch(text, token_start, gap_start) is None
                or _LIST_GAP.fullmatch(text, gap_start, pos) is None):
            break
        pos = token_start
    if pos < start:
        spans.append((pos, start))
    return spans


def _assembled(value: str) -> str | None:
    """What a spelled-out value assembles to ('K as in kilo, seven' -> no; 'kilo seven x-ray' -> 'k7x'), if it is one."""
    parts = [p for p in re.split(r"[\s,.;:/·•-]+", value.lower().replace("x-ray", "xray")) if p]
    if len(parts) < 4:
        return None
    chars = [_SPELLED.get(p, p if len(p) == 1 and p.isalnum() else None) for p in parts]
    return None if any(c is None for c in chars) else "".join(chars)  # type: ignore[arg-type]


def echoes(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(4) Every other place a masked value (or what its spelling assembles to) is written as a whole token."""
    wanted: set[str] = set()
    for s, e in spans:
        value = text[s:e].strip()
        if not value.strip("*"):
            continue
        if len(value) >= 5 and " " not in value:
            wanted.add(value.lower())
        assembled = _assembled(value)
        if assembled is not None and len(assembled) >= 4:
            wanted.add(assembled)
    if not wanted:
        return []
    found = [m.span() for m in _SPELLED_RUN.finditer(text) if _assembled(m.group()) in wanted]
    for token in _TOKEN.finditer(text):
        word = token.group()
        core = word.strip(_PUNCT)
        if core.lower() in wanted:
            start = token.start() + len(word) - len(word.lstrip(_PUNCT))
            found.append((start, start + len(core)))
    return found


def whole_spans(text: str, found: Iterable[Found], secret: frozenset[str]) -> list[Marked]:
    """Each finding grown to its whole value, plus the parts that come with it; `secret` names the secret detectors.

    Each span carries a rank: a finding's own span ranks by its order, a part found beside it after every finding,
    so a merged group is named by the detector that found it, not by a neighbour's companion rule.
    """
    found = list(found)
    grown: list[Found] = []
    out: list[Marked] = []
    for rank, (start, end, name) in enumerate(found):
        s, e = extend_value(text, start, end, name) if name in secret else (start, end)
        grown.append((s, e, name))
        out.append((s, e, rank, name))
    out += companions(text, grown, secret)
    later = 2 * len(found)
    out += [(a, b, later, name) for s, e, _, name in list(out) if name in secret or name in _PART_NAMES
            for a, b in list_spans(text, s, e)]
    values = [(s, e) for s, e, _, name in out if name in secret or name in _PART_NAMES]
    out += [(a, b, 3 * len(found), "repeated_secret") for a, b in echoes(text, values)]
    return [span for span in out if span[1] > span[0]]


def merge(spans: Iterable[Marked]) -> list[Found]:
    """Overlapping or touching spans as one, named by the best-ranked span in it: sorted once, built in one pass."""
    merged: list[list] = []
    for s, e, rank, name in sorted(spans):
        if merged and s <= merged[-1][1]:
            last = merged[-1]
            last[1] = max(last[1], e)
            if rank < last[2]:
                last[2:] = [rank, name]
        else:
            merged.append([s, e, rank, name])
    return [(s, e, name) for s, e, _, name in merged]
