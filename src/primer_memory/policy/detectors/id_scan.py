"""Scanning machinery the national-id detectors share: a byte view of the text, names nearby, dates.

Number formats are found in a byte copy of the text that keeps every position: digits, ASCII letters
and the separators numbers use stay, anything else becomes a space, and a space pads each end. A
pattern then starts with a literal space, the one place a number may begin, so `re` skips to spaces
in C instead of trying every digit of a long run. A second copy with digits as 0 and letters as A/a
answers "is this shape here at all?" with one substring search before any pattern runs.
"""

from __future__ import annotations

import datetime
import functools
import re
import string
from collections.abc import Callable, Iterator

from ..checksums import LATEST_BIRTH_DATE
from ..scan import Span, lowered

_KEPT = (string.digits + string.ascii_letters + "_.,/+-@$%").encode()
_VIEW = bytes(c if c in _KEPT else 32 for c in range(256))
_SHAPE = bytes.maketrans(
    (string.digits + string.ascii_uppercase + string.ascii_lowercase).encode(),
    b"0" * 10 + b"A" * 26 + b"a" * 26,
)
# What may not follow a number: more of a token, or a separator that goes on into one (1.5, 12-34).
END = rb"(?![0-9A-Za-z_@$%]|[.,/+-][0-9A-Za-z])"


@functools.lru_cache(maxsize=4)
def view(text: str) -> bytes:
    """`text` as bytes, one per character, padded with a space: view index i + 1 is text index i."""
    return b" " + text.encode("ascii", "replace").translate(_VIEW) + b" "


@functools.lru_cache(maxsize=4)
def shape(text: str) -> bytes:
    """The view with every digit as 0 and letters as A or a: b" 000000-0000" asks for YYMMDD-NNNN."""
    return view(text).translate(_SHAPE)


@functools.lru_cache(maxsize=4)
def folded_view(text: str) -> bytes:
    """The view in lower case (ASCII only, so positions stay): for patterns that start with a name."""
    return view(text).lower()


def has_digits(text: str) -> bool:
    """Whether `text` has an ASCII digit: ten substring searches in C, faster than one regex scan."""
    return any(d in text for d in "0123456789")


def has_shape(text: str, *pieces: bytes) -> bool:
    """Whether one of the shape `pieces` occurs: substring searches in C, the gate before any regex.

    A piece with a separator in it is searched for only if that separator occurs at all (one memchr).
    """
    found = shape(text)
    for piece in pieces:
        separator = piece.strip(b" 0Aa")[:1]
        if (not separator or separator in found) and piece in found:
            return True
    return False


class Names:
    """The names an identifier goes by, and whether one stands within reach of a number.

    Names of four letters or fewer (BSN, PAN, TFN) must be words of their own; longer ones may be
    part of a compound (Steueridentifikationsnummer, CPR-nummeret). `cased` names count only as
    written: "My Number" names the Japanese number, "my number" is usually a phone number.
    """

    def __init__(self, *words: str, cased: tuple[str, ...] = (), before: int = 40, after: int = 20) -> None:
        folded = tuple(w.lower() for w in words)
        self.words = folded + tuple(w.lower() for w in cased)
        self.before, self.after = before, after
        self.longest = max(map(len, self.words))
        parts = [rf"(?<![a-z]){re.escape(w)}(?![a-z])" if len(w) <= 4 else re.escape(w) for w in folded]
        self._folded = re.compile("|".join(parts)) if parts else None
        self._cased = re.compile("|".join(map(re.escape, cased))) if cased else None

    def present(self, text: str) -> bool:
        """Whether any name occurs at all (substring searches in C: most text stops here)."""
        return bool(_present(self.words, text))

    def count(self, text: str) -> int:
        low = lowered(text)
        return sum(low.count(w) for w in _present(self.words, text))

    def positions(self, text: str) -> list[int]:
        """Where the names start, in order (call when `count` is small: one step per name found)."""
        low = lowered(text)
        found = []
        for word in _present(self.words, text):
            pos = low.find(word)
            while pos != -1:
                found.append(pos)
                pos = low.find(word, pos + 1)
        return sorted(found)

    def near(self, text: str, start: int, end: int) -> bool:
        """A name ending at most `before` characters before `start`, or starting `after` after `end`."""
        low = lowered(text)
        lo, hi = max(0, start - self.before - self.longest), end + self.after + self.longest
        for pattern, within in ((self._folded, low), (self._cased, text)):
            if pattern is None:
                continue
            if any(m.end() >= start - self.before for m in pattern.finditer(within, lo, start)):
                return True
            found = pattern.search(within, end, hi)
            if found is not None and found.start() <= end + self.after:
                return True
        return False


@functools.lru_cache(maxsize=64)
def _present(words: tuple[str, ...], text: str) -> tuple[str, ...]:
    """The `words` that occur in lowered(text): found once, then counted or listed only for those."""
    low = lowered(text)
    return tuple(w for w in words if w in low)


def first_valid(pattern: re.Pattern[bytes], text: str, accept: Callable[[str], bool],
                names: Names | None = None, shapes: tuple[bytes, ...] = ()) -> Span | None:
    """The span of the first number `pattern` finds in the view that `accept` takes (and `names` has near).

    `pattern` starts with a literal space and group 1 is the number; `shapes` are shape pieces one of
    which any match contains, checked first (the shape is shared by all finders, the lowered text only
    by those with names). Each distinct number is judged once, as in
    policy_scan.first_accepted, so a megabyte of one number repeated costs one judgement.
    """
    if (shapes and not has_shape(text, *shapes)) or (names is not None and not names.present(text)):
        return None
    for value in _distinct(pattern, text):
        if accept(value.decode()):
            span = _placed(pattern, text, value, names)
            if span is not None:
                return span
    return None


def _distinct(pattern: re.Pattern[bytes], text: str) -> Iterator[bytes]:
    """The distinct numbers `pattern` finds in the view, in order of first appearance.

    findall builds one entry per copy, ~0.3 us each. A number repeated through a megabyte (70,000
    copies) is yielded once and then left out: if every number-like token is a copy of it (counted
    in C) nothing else is there; if not, a lookahead right after the leading space skips its copies
    inside the regex engine (followed by END, a copy is that number and no other match of ours).
    """
    found_view, seen = view(text), []
    search = pattern
    for _ in range(4):
        first = search.search(found_view)
        if first is None:
            return
        value = first.group(1)
        copies = sum(found_view.count(b" " + value + end) for end in (b" ", b",", b"."))  # " 1 1 " counts 1
        if copies < 64:
            break
        seen.append(value)
        yield value
        if copies == shape(text).count(b" " + value[:1].translate(_SHAPE)):
            return  # every token starting like it is a copy of it
        excluded = b"|".join(re.escape(v) for v in seen)
        search = re.compile(b" (?!(?:" + excluded + b")" + END + b")" + pattern.pattern[1:])
    for found in dict.fromkeys(search.findall(found_view)):
        yield found[0] if isinstance(found, tuple) else found


def _placed(pattern: re.Pattern[bytes], text: str, value: bytes, names: Names | None) -> Span | None:
    """Where `value` first stands as a whole number (with a name near, if `names`), in text positions.

    A number printed in groups must not follow another group of digits: "1234 123 456 789" is one longer run.

    With names, the loop runs over whichever is rarer, the number or its names, and the names around a
    copy are judged once per distinct stretch of text: a valid number repeated 50,000 times after
    125,000 names, none near it, costs a slice and a dict lookup per copy.
    """
    found_view = view(text)
    reach = len(value) + max(names.before, names.after) + names.longest if names else 0
    if names is None or names.count(text) >= found_view.count(value):
        windows: list[tuple[int, int]] = [(0, len(found_view))]
    else:
        windows = [(max(0, p - reach), p + reach) for p in names.positions(text)]
    judged: dict[str, bool] = {}
    for lo, hi in windows:
        pos = found_view.find(value, lo, hi)
        while pos != -1:
            around = text[pos - 1 - reach if pos > reach else 0:pos + reach + len(value)]
            if judged.get(around, True):
                match = pattern.match(found_view, pos - 1)
                if (match is not None and match.start(1) == pos and match.group(1) == value
                        and not (b" " in value and _joined(text, pos - 2))):  # not groups of a longer run
                    span = (pos - 1, pos - 1 + len(value))
                    if names is None or names.near(text, *span):
                        return span
                    judged[around] = False
            pos = found_view.find(value, pos + 1, hi)
    return None


def _joined(text: str, at: int) -> bool:
    """Whether the number starting after text[at] continues a run of digit groups: a digit, then one space or
    tab. A line break or punctuation ends the run ("DOB 12/03/1988" on one line, the number on the next)."""
    return at >= 1 and text[at] in " \t" and text[at - 1].isdigit()


_SEPARATORS = str.maketrans("", "", " .-+/")


def digits_of(value: str) -> str:
    """The digits of a printed number, its separators dropped."""
    return value.translate(_SEPARATORS)


def date_ok(year: int, month: int, day: int) -> bool:
    """Whether year-month-day is a real calendar date and not after LATEST_BIRTH_DATE: these are birth dates."""
    if not (1 <= month <= 12 and 1 <= day <= 31):  # most random digits stop here, before datetime
        return False
    try:
        return datetime.date(year, month, day) <= LATEST_BIRTH_DATE
    except ValueError:
        return False
