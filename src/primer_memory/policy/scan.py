"""The scanning machinery every detector shares: linear scans, placeholders, entropy.

Each detector is one named format with a finder that returns where it fired. The helpers here keep
every scan linear in the text (no pattern is retried at every position of a long run) and decide
what counts as a literal value rather than a placeholder, a variable or a description.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

Span = tuple[int, int]


@dataclass(frozen=True)
class Detector:
    """One credential or identifier format: a name, what it catches, and a function finding it."""

    name: str
    description: str
    find: Callable[[str], Span | None]
    example: str = ""
    why: str = "credentials and sensitive identifiers are never written to memory"
    kind: str = "secret"  # "secret" or "poisoning": which measure in the benchmark it belongs to
    fallback: bool = False  # a last resort: findings() reports it only where no other detector found that value

    @property
    def reason(self) -> str:
        """The refusal text for this detector: built from the description only, never from the input."""
        return f"refused: looks like {self.description} (detector: {self.name}); {self.why}"


# --------------------------------------------------------------------------- helpers


def _matches(pattern: re.Pattern[str], text: str, not_after: re.Pattern[str] | None = None) -> Iterator[re.Match[str]]:
    """Matches of `pattern`, skipping any that start right after a character matching `not_after`.

    This is a leading lookbehind done in Python: a pattern that starts with a lookbehind
    stops `re` from jumping ahead to the pattern's first literal, which made scans ~20x slower.
    """
    pos = 0
    while (match := pattern.search(text, pos)) is not None:
        start = match.start()
        if not_after is not None and start > 0 and not_after.match(text, start - 1):
            pos = start + 1
            continue
        yield match
        pos = max(match.end(), start + 1)


def _matches_folded(triggers: tuple[str, ...], pattern: re.Pattern[str], text: str,
                    not_after: re.Pattern[str] | None = None) -> Iterator[re.Match[str]]:
    """Matches of a case-insensitive `pattern`, tried only where one of the lowercase `triggers` starts.

    re.IGNORECASE turns off re's fast skip to a literal (a 4 KB scan went from ~30us to ~280us), and
    an alternation of triggers is scanned position by position, so the triggers are found with
    str.find in the cached lowered text (about 0.5 ms per MB each) and `pattern` is matched there.
    """
    end = 0
    for start in positions(text, triggers):
        if start < end or (not_after is not None and start > 0 and not_after.match(text, start - 1)):
            continue
        match = pattern.match(text, start)
        if match is not None:
            yield match
            end = match.end()


def first_accepted(pattern: re.Pattern[str], text: str, accept: Callable[[str], bool]) -> re.Match[str] | None:
    """The first match of `pattern` whose text `accept` takes, each distinct text judged once.

    findall collects the matches and dict.fromkeys drops repeats, both in C, so a megabyte of one
    number repeated costs one Python judgement rather than one per match (~66,000 per MB). Any
    context the pattern needs is inside it as lookarounds; if it has groups, group 1 is the whole match.
    """
    for found in dict.fromkeys(pattern.findall(text)):
        candidate = found[0] if isinstance(found, tuple) else found
        if accept(candidate):
            return _first_match_of(pattern, text, candidate)
    return None


def _first_match_of(pattern: re.Pattern[str], text: str, candidate: str) -> re.Match[str]:
    """Where `pattern` first matches exactly `candidate` (findall saw it, so it is there)."""
    match = match_of(pattern, text, candidate)
    if match is None:
        raise AssertionError(f"{pattern.pattern!r} found {candidate!r} but it is not in the text")
    return match


def match_of(pattern: re.Pattern[str], text: str, candidate: str) -> re.Match[str] | None:
    """Where `pattern` first matches exactly `candidate` in `text`, or None if it does nowhere."""
    pos = text.find(candidate)
    while pos != -1:
        match = pattern.match(text, pos)
        if match is not None and match.group() == candidate:
            return match
        pos = text.find(candidate, pos + 1)
    return None


def _regex_finder(pattern: re.Pattern[str], check: Callable[[re.Match[str]], bool] | None = None,
                  group: int | str = 0, not_after: re.Pattern[str] | None = None,
                  requires: tuple[str, ...] = ()) -> Callable[[str], Span | None]:
    """A finder that returns the span of the first match of `pattern` accepted by `check`.

    `requires`: literal pieces one of which every match contains; text holding none is passed over
    with str.find, much faster than a regex that starts with an alternation or a character class.
    """

    def find(text: str) -> Span | None:
        if requires and not any(piece in text for piece in requires):
            return None
        for match in _matches(pattern, text, not_after):
            if check is None or check(match):
                return match.span(group)
        return None

    return find


# What may not come right before a match (it would be the middle of a longer word or token).
_AFTER_ALNUM = re.compile(r"[A-Za-z0-9]")
_AFTER_WORD = re.compile(r"[A-Za-z0-9_]")
_AFTER_TOKEN = re.compile(r"[A-Za-z0-9_-]")
_AFTER_TOKEN_DOT = re.compile(r"[A-Za-z0-9_.-]")
_AFTER_NUMBER = re.compile(r"[\w.,]")
_AFTER_UNICODE_WORD = re.compile(r"\w")


def _entropy(value: str) -> float:
    """Shannon entropy in bits per character: random keys score high, words and numbers low."""
    counts = Counter(value)
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _has_letter_and_digit(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


# YAML tags that fetch the value from elsewhere are references too: Home Assistant's and ESPHome's "!secret wifi_key",
# Ansible's "!vault", CloudFormation's "!Ref" (added after the fifth corpus's held-out measurement showed the first).
_PLACEHOLDER = re.compile(
    r"""^(?:<[^>]*>|\$\{.*|\{\{.*|\$\(.*|\$__\w+\{.*|\$[A-Za-z_][A-Za-z0-9_]*|%\([^)]*\)s|%s|\*+|x{3,}|X{3,}|\.{3,}|…
         |true|false|null|none|nil|undefined|str|string|bytes|int|bool
         |redacted|\[redacted(?::[a-z_]+)?\]|\[hidden\]|your[_-].*|<your.*
         |!(?:secret|vault|env_var|env|include|ref|sub|getatt)\b.*)$""",
    re.I | re.X,
)
_QUOTED = re.compile(r"""^(?:"([^"]*)"|'([^']*)'|`([^`]*)`|“([^”]*)”)$""")
# Code, not a literal: a call, an index, or a dotted name without digits (os.environ, self.password).
_CODE_REFERENCE = re.compile(r"\S*[(\[]\S*|[A-Za-z_]+(?:\.[A-Za-z_]+)+")
_TRAILING = ".,;:!?)"


def _is_placeholder(value: str) -> bool:
    return not value or bool(_PLACEHOLDER.match(value))


def _literal(raw: str) -> str | None:
    """The literal a raw value stands for, or None for a placeholder or (unquoted) a piece of code."""
    quoted = _QUOTED.match(raw)
    if quoted:
        inner = next(g for g in quoted.groups() if g is not None).strip()
        return None if _is_placeholder(inner) else inner
    value = raw.rstrip(_TRAILING)
    if _is_placeholder(value) or _CODE_REFERENCE.fullmatch(value):
        return None
    return value


_PASSWORD_WORD = re.compile(r"pass(?:word|wd|phrase)|pwd", re.I)


def _is_variable(value: str, key: str) -> bool:
    """In code, `self.password = password` or `"password": password_hash` passes a variable, not a literal."""
    return (value.isidentifier() and key.lower().endswith(value.lower())) or (
        value.isidentifier() and "_" in value and _PASSWORD_WORD.search(value) is not None
    )


_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


def _key_before(text: str, match: re.Match[str], name: re.Pattern[str]) -> str | None:
    """The whole key name that ends with the matched word ('DB_PASSWORD', 'client_secret'), if it is one."""
    start = end = match.start()
    while start > 0 and text[start - 1] in _KEY_CHARS:
        start -= 1
    while text[end] in _KEY_CHARS:  # the word ends before the quote, space or operator the pattern requires
        end += 1
    key = text[start:end]
    return key if name.fullmatch(key) else None


_SEGMENT_SPLIT = re.compile(r"[_.-]")


def _high_entropy(value: str) -> bool:
    """Machine-generated: 16+ characters mixing letters and digits at 3+ bits each, not an identifier of words.

    'created_at_2024_desc' has digits and letters too, but every part is a word or a number.
    """
    literal = _literal(value)
    if literal is None or len(literal) < 16 or any(c.isspace() for c in literal):
        return False
    value = literal
    if not _has_letter_and_digit(value) or _entropy(value) < 3.0:
        return False
    return any(not (part.isalpha() or part.isdigit()) for part in _SEGMENT_SPLIT.split(value) if part)



_NEXT_WORD = re.compile(r"\s*(\S{1,64})")


def next_word(text: str, pos: int) -> str:
    """The word after `pos` (bounded, so a scan never reads to the end of the text for each candidate)."""
    match = _NEXT_WORD.match(text, pos)
    return match.group(1) if match else ""


@functools.lru_cache(maxsize=4)
def lowered(text: str) -> str:
    """`text` in lower case with every position kept (a few characters lengthen when lowered: those stay as they are).

    Cached: every detector of one review() asks for the same text.
    """
    return lower_in_place(text)


def lower_in_place(text: str) -> str:
    """lowered() without the cache, for short windows that must not push the whole text out of it."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


@functools.lru_cache(maxsize=4)
def characters(text: str) -> frozenset[str]:
    """The distinct characters of lowered(text): a word using any other character cannot occur in it."""
    return frozenset(lowered(text))


def positions(text: str, words: tuple[str, ...]) -> list[int]:
    """Sorted start positions of any of `words` in lowered(text).

    A short text is read once for every detector's words together (see _Vocabulary). A long one is
    searched word by word with str.find, which skips through a megabyte far faster than a regex of a
    hundred alternatives; words
    with a character the text lacks are skipped without a search (140 password words in twenty scripts
    cost one pass for the character set instead of 140 passes over the text).
    """
    if len(text) <= _SHORT_TEXT:
        return _positions_in_one_pass(text, words)
    return _positions_by_find(text, words)


_SHORT_TEXT = 1024  # below this one pass finds every detector's words in the text; above, str.find per word


class _Vocabulary:
    """Every word any detector has asked positions() for, and where each occurs in one text.

    Detectors share many words ("password", "pin", "code") and most occur in no short fact at all, so a text is
    read once for all of them: one Aho-Corasick pass (pyahocorasick, every occurrence, overlapping ones too) over
    the lowered text finds each word and its starts, as `str.find` from every position would. Each positions()
    call then only picks its words out of the few that occur. Registering a new word list rebuilds the automaton.
    """

    def __init__(self) -> None:
        self.lists: dict[tuple[str, ...], frozenset[str]] = {}
        self.automaton: object | None = None
        self.last: tuple[str | None, dict[str, list[int]]] = (None, {})  # one attribute: threads see a whole pair

    def words(self, words: tuple[str, ...]) -> frozenset[str]:
        known = self.lists.get(words)
        if known is None:
            import ahocorasick

            known = frozenset(w for w in words if w)
            self.lists[words] = known
            automaton = ahocorasick.Automaton()
            for word in frozenset().union(*self.lists.values()):
                automaton.add_word(word, len(word))
            automaton.make_automaton()
            self.automaton, self.last = automaton, (None, {})  # the index of the last text lacks the new words
        return known

    def occurring(self, low: str) -> dict[str, list[int]]:
        text, present = self.last
        if low is not text and low != text:
            present = {}
            if self.automaton is not None:
                for end, length in self.automaton.iter(low):  # type: ignore[attr-defined]
                    word = low[end - length + 1:end + 1]
                    starts = present.get(word)
                    if starts is None:
                        present[word] = [end - length + 1]
                    else:
                        starts.append(end - length + 1)
            self.last = (low, present)
        return present


_VOCABULARY = _Vocabulary()


def vocabulary(words: tuple[str, ...]) -> frozenset[str]:
    """Add `words` to the one pass that reads every short text (positions() asks it too); the same words as a set,
    to give words_in()."""
    return _VOCABULARY.words(words)


def words_in(text: str, known: frozenset[str]) -> list[str]:
    """Those of `known` (from vocabulary()) that occur in lowered(text): read from the one pass positions() then
    reuses, so a text is read once for selecting detectors and for the detectors' own triggers."""
    return [word for word in _VOCABULARY.occurring(lowered(text)) if word in known]


def _positions_in_one_pass(text: str, words: tuple[str, ...]) -> list[int]:
    """positions() for short text: the starts of those of `words` that occur, from the shared per-text index."""
    wanted = _VOCABULARY.words(words)
    occurring = _VOCABULARY.occurring(lowered(text))
    found = [start for word, starts in occurring.items() if word in wanted for start in starts]
    return sorted(set(found)) if found else found


def _positions_by_find(text: str, words: tuple[str, ...]) -> list[int]:
    """positions() for long text: str.find per word, each word searched once per text for every detector."""
    low = lowered(text)
    present = characters(text)
    known = _word_starts(text)
    found: set[int] = set()
    for word, base, offset in _plan(words):
        if not present.issuperset(word):
            continue  # (a base has fewer characters than the words made from it, so it is never skipped alone)
        starts = known.get(word)
        if starts is None:
            if base is None:
                starts = []
                pos = low.find(word)
                while pos != -1:
                    starts.append(pos)
                    pos = low.find(word, pos + 1)
            else:  # 'password' occurs only where 'pass' does: check those places instead of searching again
                starts = [p - offset for p in known[base] if p >= offset and low.startswith(word, p - offset)]
            known[word] = starts
        found.update(starts)
    return sorted(found)


@functools.lru_cache(maxsize=64)
def _plan(words: tuple[str, ...]) -> tuple[tuple[str, str | None, int], ...]:
    """`words` shortest first, each with a shorter word of the list inside it (and where), if it has one."""
    plan: list[tuple[str, str | None, int]] = []
    bases: list[str] = []
    for word in sorted(set(words), key=len):
        base = next((b for b in bases if b in word), None)
        if base is None:
            bases.append(word)
        plan.append((word, base, word.index(base) if base is not None else 0))
    return tuple(plan)


@functools.lru_cache(maxsize=4)
def _word_starts(text: str) -> dict[str, list[int]]:
    """Where each word searched so far starts in lowered(text): detectors share many words ("password", "pin",
    "code"), and one search over a megabyte of random text costs about 0.7 ms, so each word is searched once."""
    return {}


def first_in_windows(source: str, starts: list[int], before: int, after: int,
                     judge: Callable[[str], Span | None]) -> Span | None:
    """The first span `judge` finds in the windows source[p - before:p + after] around each start p.

    Each distinct window is judged once: the windows are cut and deduplicated in C (a list
    comprehension and dict.fromkeys), so a megabyte of one repeated phrase costs one judgement and
    no Python work per repeat beyond the cut. Windows near the start are padded with NUL on the
    left, so the trigger always sits at index `before` of what `judge` sees.
    """
    pad = "\0" * before
    windows = [source[p - before:p + after] if p >= before else pad[p:] + source[:p + after] for p in starts]
    hit = _first_judged(starts, windows, judge)
    if hit is None:
        return None
    p, span = hit
    return span[0] + p - before, span[1] + p - before


# How many distinct places one detector judges in one text. A memory is a fact of a few sentences: it has a handful.
# A text with thousands of credential words, each before different text, would cost Python work per place (about
# 10 us each, several detectors per word: 40,000 lines of "password reset" / "<random number>" took 2-3 s per MB),
# so past this many the text is refused unread, never stored unread.
MAX_PLACES = 2048


class TooDense(Exception):
    """More distinct places to judge in one text than the policy reads (MAX_PLACES): refused, not stored."""


def check_places(count: int) -> None:
    """Raise TooDense when one detector would judge more than MAX_PLACES distinct places."""
    if count > MAX_PLACES:
        raise TooDense(f"{count} distinct places to judge; the policy reads at most {MAX_PLACES} in one text")


def _first_judged(starts: list[int], windows: list[str],
                  judge: Callable[[str], Span | None]) -> tuple[int, Span] | None:
    """The first start whose window `judge` finds a span in, with that span; each distinct window judged once."""
    distinct = dict.fromkeys(windows)
    check_places(len(distinct))
    verdicts = {window: judge(window) for window in distinct}
    if all(span is None for span in verdicts.values()):
        return None
    return next((p, verdicts[w]) for p, w in zip(starts, windows) if verdicts[w] is not None)  # type: ignore[misc]


def scan_windows(text: str, triggers: tuple[str, ...], judge: Callable[[str], Span | None],
                 before: int, after: int) -> Span | None:
    """Run `judge` on the lowered window around each trigger word, once per distinct window.

    Slow patterns (case-insensitive, many alternatives) then read a few hundred characters per
    trigger instead of the whole text, and a run of identical windows costs one judgement (the
    windows are cut and deduplicated in C, as in first_in_windows).
    """
    low = lowered(text)
    starts = positions(text, triggers)
    # A window cut from the middle of the text starts with NUL, so `^` in a judged pattern means the real start.
    windows = ["\0" + low[p - before:p + after] if p > before else low[:p + after] for p in starts]
    hit = _first_judged(starts, windows, judge)
    if hit is None:
        return None
    p, span = hit
    shift = p - before - 1 if p > before else 0
    return span[0] + shift, span[1] + shift


_DIGIT = re.compile(r"\d")


@functools.lru_cache(maxsize=4)
def has_digit(text: str) -> bool:
    """Whether `text` holds any digit: detectors of numbers skip digit-free text with this one cached scan."""
    return _DIGIT.search(text) is not None


_LONG_TOKEN = re.compile(r"[^\s\"'`,;]{16}")


@functools.lru_cache(maxsize=4)
def has_long_token(text: str) -> bool:
    """Whether `text` has 16 characters in a row with no space, quote, comma or semicolon: keys need that many."""
    return _LONG_TOKEN.search(text) is not None


def has_upper(text: str) -> bool:
    """Whether `text` has a capital letter (any cased character that lowering changes): ids in capitals need one."""
    return lowered(text) != text


def needs_digit(find: Callable[[str], Span | None]) -> Callable[[str], Span | None]:
    """A finder that returns None at once for text without a digit (cards, ids and codes all have digits)."""
    @functools.wraps(find)
    def wrapped(text: str) -> Span | None:
        return find(text) if has_digit(text) else None
    return wrapped
