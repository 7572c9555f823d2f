"""One normalised view of a text for the instruction and redirect checks, with every position traced back.

An instruction can be written so that a person and a model read it while a pattern does not: a zero-width joiner
or a soft hyphen inside "ignore", a Cyrillic "о" for a Latin "o", fullwidth or mathematical letters, an HTML
comment, or a JSON chat message ({"role": "system", "content": "..."}) pasted into a page. `normalised(text)`
undoes each of these, one original character at a time:

- invisible and formatting characters (Unicode category Cf, variation selectors, fillers) are dropped;
- each character is put in Unicode NFKC form (fullwidth `ｉ`, mathematical `𝐢` and the ligature `ﬁ` become ASCII);
- in a word that mixes ASCII letters with other scripts, each non-ASCII character Unicode's confusables table
  (TR39, shipped as data by `confusable-homoglyphs`) lists as looking like one ASCII character becomes that
  character ("ignоre" with a Cyrillic o); a word wholly in one script stays as it is, so Russian is still Russian.
  ASCII itself is never folded: the table maps 0 to O and 1 to l, and "2O26" or "l0gin" would read as other words;
- markup comments (`<!-- -->`) and JSON role objects are exposed as text on lines of their own ("system: ...").

`View.span()` maps a span of the view back to the original text, so a finding still masks the right characters.
The checks read the original first and the view only when it differs (`first_found`): what they found before is
found unchanged, and the view can only add. The table is read once, on the first non-ASCII text.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Callable
from importlib.resources import files

from .scan import Span

__all__ = ["View", "confusables", "first_found", "normalised"]

# Characters that show nothing but are not category Cf: variation selectors, Hangul and Khmer fillers, the
# combining grapheme joiner, Mongolian free variation selectors.
_INVISIBLE = re.compile("[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0"
                        "\U000e0100-\U000e01ef]")
_COMMENT = re.compile(r"<!--|-->")
_ROLE = re.compile(r'\{\s*"role"\s*:\s*"(?P<role>[a-z]{2,12})"\s*,\s*"content"\s*:\s*"', re.I)
_ROLE_END = re.compile(r'"\s*\}')
_ESCAPE = re.compile(r'\\(?:u(?P<hex>[0-9a-fA-F]{4})|(?P<char>["\\/bfnrt]))')
_ESCAPED = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_ORDER = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


@functools.cache
def confusables() -> dict[str, str]:
    """Every non-ASCII character TR39 lists as confusable with one ASCII character, mapped to it.

    A character listed with several (rare) goes to a lower-case letter first, then upper case, then a digit, then
    punctuation, so a letter of a word stays a letter.
    """
    table = json.loads(files("confusable_homoglyphs").joinpath("confusables.json").read_text(encoding="utf-8"))
    rank = {c: i for i, c in enumerate(_ORDER)}
    mapping: dict[str, str] = {}
    for target in sorted((t for t in table if len(t) == 1 and t.isascii() and t.isprintable() and t != " "),
                         key=lambda t: rank.get(t, len(rank))):
        for entry in table[target]:
            glyph = entry["c"].strip("\u200e\u200f")
            if len(glyph) == 1 and not glyph.isascii():
                mapping.setdefault(glyph, target)
    return mapping


def _character(char: str) -> str:
    """One original non-ASCII character as the view reads it: nothing if invisible, else its NFKC form."""
    if unicodedata.category(char) == "Cf" or _INVISIBLE.match(char):
        return ""
    return unicodedata.normalize("NFKC", char)


_LETTERS = re.compile(r"[^\W\d_]+")


def _unmixed(word: re.Match[str]) -> str:
    """A word mixing ASCII letters with another script's look-alikes ("ignоre" with a Cyrillic o), in ASCII; a word
    wholly in one script is left as it is, so Russian stays Russian, and Latin letters such as ç or ı are never
    touched (TR39's mixed-script rule)."""
    text = word.group()
    if text.isascii() or not any(c.isascii() for c in text):
        return text
    table = confusables()
    return "".join(table.get(c, c) if _foreign(c) else c for c in text)


@functools.lru_cache(maxsize=4096)
def _foreign(char: str) -> bool:
    """Whether a character is a letter of another script than Latin (Turkish ı, German ü and Polish ł are Latin)."""
    return not char.isascii() and not unicodedata.name(char, "").startswith("LATIN")


class _Table(dict[int, str]):
    """str.translate's table, filled on first sight of each character (a dict lookup in C from then on)."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        self[code] = value = char if code < 128 else _character(char)
        return value


_TABLE = _Table()


def _unescaped(match: re.Match[str]) -> str:
    if match.group("hex"):
        return chr(int(match.group("hex"), 16))
    return _ESCAPED.get(match.group("char"), match.group("char"))


def _marks(text: str) -> list[tuple[int, int, str]]:
    """(start, end, replacement): comments' delimiters as line breaks, a JSON role object as a line 'role: text'
    (its string escapes read), sorted; overlapping ones are dropped by _exposed."""
    marks = [(m.start(), m.end(), "\n") for m in _COMMENT.finditer(text)]
    for m in _ROLE.finditer(text):
        close = _ROLE_END.search(text, m.end())
        end = close.start() if close else len(text)
        marks.append((m.start(), m.end(), f"\n{m.group('role').lower()}: "))
        marks += [(m.end() + e.start(), m.end() + e.end(), _unescaped(e)) for e in _ESCAPE.finditer(text[m.end():end])]
        if close:
            marks.append((close.start(), close.end(), "\n"))
    return sorted(marks)


def _exposed(text: str) -> list[tuple[str, int, int]]:
    """The text as (piece, start, end) of the original it stands for: each replaced mark is one piece per character
    of its replacement, all standing for the whole mark; every other character is its own piece."""
    pieces: list[tuple[str, int, int]] = []
    at = 0
    for start, end, replacement in _marks(text):
        if start < at:
            continue  # a mark inside one already replaced: the first one wins
        pieces += [(c, i, i + 1) for i, c in enumerate(text[at:start], start=at)]
        pieces += [(c, start, end) for c in replacement]
        at = end
    pieces += [(c, i, i + 1) for i, c in enumerate(text[at:], start=at)]
    return pieces


def _has_markup(text: str) -> bool:
    return "<!--" in text or "-->" in text or '"role"' in text


class View:
    """A text as the instruction and redirect checks read it, and the way back to the original's positions."""

    def __init__(self, original: str):
        self.original = original
        self._pieces = _exposed(original) if _has_markup(original) else None  # kept for origin, read once
        exposed = "".join(c for c, _, _ in self._pieces) if self._pieces is not None else original
        # NFKC and invisible characters by table; then each mixed-script word's look-alikes, one for one, so the
        # positions the table gave stay
        self.text = exposed if exposed.isascii() else _LETTERS.sub(_unmixed, exposed.translate(_TABLE))

    @property
    def changed(self) -> bool:
        return self.text != self.original

    @functools.cached_property
    def origin(self) -> list[tuple[int, int]]:
        """For each character of the view, the original characters it stands for, as (start, end): built on first
        use, since only a finding in the view needs it."""
        pieces = self._pieces if self._pieces is not None else [(c, i, i + 1) for i, c in enumerate(self.original)]
        out: list[tuple[int, int]] = []
        for piece, start, end in pieces:
            out += [(start, end)] * len(piece.translate(_TABLE))
        return out

    def span(self, span: Span) -> Span:
        """The original characters a span of the view was made from (an empty span stays empty)."""
        start, end = span
        origin = self.origin
        if start >= len(origin):
            return len(self.original), len(self.original)
        first = origin[start][0]
        return (first, max(first, origin[end - 1][1])) if end > start else (first, first)


@functools.lru_cache(maxsize=8)
def normalised(text: str) -> View:
    """The normalised view of `text` (the same text, when it is ASCII with no comment and no role object)."""
    return View(text)


def first_found(find: Callable[[str], Span | None], text: str) -> Span | None:
    """`find` on the original text, then on its normalised view (the span traced back): the first that finds."""
    span = find(text)
    if span is not None or (text.isascii() and not _has_markup(text)):
        return span
    view = normalised(text)
    if not view.changed:
        return None
    found = find(view.text)
    return view.span(found) if found is not None else None
