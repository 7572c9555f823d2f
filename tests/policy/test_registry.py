"""The detector registry (issue 44): the one pass that picks detectors must never change what the policy finds.

A prefilter's known failure is a keyword that hides another: a text holding a detector's keyword that the pass
does not report (overlapping or nested keywords), or a keyword that is not in fact necessary. The differential
property runs the policy with the pass and without it (`every_detector=True`) and wants the same findings and
the same decision, over generated text built from every keyword and every detector's example, and over every
case of every corpus (compared, never printed: some halves are only ever counted).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from primer_memory.policy.corpora.loader import COUNTED_ONLY, SOURCES, load
from primer_memory.policy.registry import GATE_LIMIT, RegistryError, Selector, load_conditions
from primer_memory.policy.rules import DETECTORS, findings, review
from primer_memory.policy.scan import lowered, needs_digit

CONDITIONS = load_conditions()
KEYWORDS = sorted({w for c in CONDITIONS.values() for w in c.keywords})
EXAMPLES = [d.example for d in DETECTORS if d.example]
# Real secret values to build texts from: those of the corpora whose cases may be printed (a failing example is).
VALUES = sorted({v for source in SOURCES if source not in COUNTED_ONLY for case in load(source) for v in case.values})


def same_with_and_without_the_pass(text: str) -> None:
    assert findings(text) == findings(text, every_detector=True)
    assert review(text) == review(text, every_detector=True)


# --------------------------------------------------------------------------- the data


def test_every_detector_has_one_row_and_every_row_a_detector() -> None:
    assert list(CONDITIONS) == [d.name for d in DETECTORS]  # the same names, in the registry's order
    assert all(c.note.strip() for c in CONDITIONS.values())


@pytest.mark.parametrize("text, message", [
    ("name,words,note\n", "must start with the header"),
    ("detector,keywords,needs,note\naws_access_key_id,AKIA,,prefix\n", "lower case"),
    ("detector,keywords,needs,note\njwt,eyj| ,,x\n", "without surrounding spaces"),
    ("detector,keywords,needs,note\njwt,eyj||x,,x\n", "never empty"),
    ("detector,keywords,needs,note\njwt,eyj,,x\njwt,eyj,,x\n", "names jwt twice"),
    ("detector,keywords,needs,note\njwt,eyj,,\n", "has no note"),
    ("detector,keywords,needs,note\njwt,eyj,x\n", "has 3 fields, not 4"),
    ("detector,keywords,needs,note\njwt,eyj,letters,x\n", "needs 'letters'; the character classes are digit"),
])
def test_bad_registry_data_is_a_named_error(text: str, message: str) -> None:
    with pytest.raises(RegistryError, match=message):
        load_conditions(text)


def test_every_finder_wrapped_in_needs_digit_declares_the_digit_class() -> None:
    """The wrapper is the code's own statement that a finder needs a digit: the registry must not lose it."""
    wrapper = needs_digit(lambda text: None).__code__
    wrapped = {d.name for d in DETECTORS if getattr(d.find, "__code__", None) is wrapper}
    assert len(wrapped) > 40
    assert [n for n in sorted(wrapped) if "digit" not in CONDITIONS[n].needs] == []


def test_a_detector_without_a_row_or_a_row_without_a_detector_stops_the_import() -> None:
    partial = {name: c for name, c in CONDITIONS.items() if name != "jwt"}
    with pytest.raises(RegistryError, match=r"no row for \['jwt'\]"):
        Selector(DETECTORS, partial)
    extra = dict(CONDITIONS, ghost=CONDITIONS["jwt"])
    with pytest.raises(RegistryError, match=r"rows for no detector: \['ghost'\]"):
        Selector(DETECTORS, extra)


# --------------------------------------------------------------------------- the pass


def _joins() -> list[str]:
    """Every keyword alone, every keyword holding another (the outer one written), and every pair that overlaps (the
    end of one is the start of the other, by any length), joined over the overlap."""
    starting: dict[str, list[str]] = {}
    for word in KEYWORDS:
        for k in range(1, len(word)):
            starting.setdefault(word[:k], []).append(word)
    overlapping = [first + second[k:] for first in KEYWORDS for k in range(1, len(first))
                   for second in starting.get(first[-k:], ())]
    return KEYWORDS + overlapping


def _selects_every_keyword_it_holds(selector: Selector, shown: str) -> None:
    view = f"x {shown} y 7"  # 7: the digit some need
    low = lowered(view)
    wanted = set().union(*(OWNERS[w] for w in KEYWORDS if w in low))
    assert wanted <= {d.name for d in selector.select(view)}, shown


OWNERS = {w: {n for n, c in CONDITIONS.items() if w in c.keywords} for w in KEYWORDS}


def test_a_keyword_inside_or_overlapping_another_still_selects_its_detectors() -> None:
    """Class covered: every keyword alone, inside another, and overlapping another by any length, as written and in
    capitals (with a digit elsewhere, so the digit class removes none of their detectors). Every keyword the lowered
    text holds must select its detectors (a keyword whose capitals lower to other letters, as Turkish dotless i
    does, is then not in the text, and its finder, which reads the same lowered text, cannot fire either)."""
    selector = Selector(DETECTORS, CONDITIONS)
    joins = _joins()
    assert len(joins) > len(KEYWORDS) * 10  # the overlaps were found (19,000 with 820 keywords)
    for text in joins:
        for shown in (text, text.upper()):
            _selects_every_keyword_it_holds(selector, shown)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(KEYWORDS), min_size=2, max_size=4))
def test_keywords_written_side_by_side_select_all_their_detectors(words: list[str]) -> None:
    """Class covered: two to four keywords written with nothing between them, where the boundary may form others."""
    text = "".join(words)
    _selects_every_keyword_it_holds(Selector(DETECTORS, CONDITIONS), text)
    assert all(w in lowered(text) for w in words)


def test_long_texts_are_read_by_every_detector() -> None:
    selector = Selector(DETECTORS, CONDITIONS)
    assert selector.select("a" * (GATE_LIMIT + 1)) == tuple(DETECTORS)
    assert len(selector.select("a plain fact")) == len(selector.always) < len(DETECTORS)


_PIECES = st.one_of(
    st.sampled_from(KEYWORDS).map(lambda w: w.upper() if len(w) % 2 else w),
    st.sampled_from(EXAMPLES),
    st.sampled_from(VALUES),
    st.text("0123456789-_ .:/=@", min_size=1, max_size=12),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12),
    st.from_regex(r"[A-Za-z0-9_-]{8,48}", fullmatch=True),
    st.sampled_from(["password: ", "token=", "my key is ", "\n", " ", "Bearer ", "AKIA", "eyJ", "xoxb-", "SG."]),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_PIECES, min_size=1, max_size=10).map("".join))
def test_gated_findings_equal_ungated_on_generated_text(text: str) -> None:
    """Class covered: short texts (under the gate's limit) mixing keywords in any case, detector examples, real
    secret values from the printable corpora, separators, digits, random Unicode and token-like runs."""
    same_with_and_without_the_pass(text)


def _without_digits(text: str) -> str:
    return "".join(c for c in text if not c.isdecimal())  # str.isdecimal is re's \\d: Unicode category Nd


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_PIECES, min_size=1, max_size=10).map("".join).map(_without_digits))
def test_gated_findings_equal_ungated_on_text_without_a_digit(text: str) -> None:
    """Class covered: the generated texts above with every decimal digit (any script) removed, where the digit
    class skips more than half the detectors: numbers spelled out, letters-only ids and keys, keywords."""
    same_with_and_without_the_pass(text)


@pytest.mark.parametrize("source", SOURCES)
def test_gated_findings_equal_ungated_on_every_corpus_case(source: str) -> None:
    differ = [n for n, case in enumerate(load(source))  # type: ignore[arg-type]
              if findings(case.text) != findings(case.text, every_detector=True)
              or review(case.text) != review(case.text, every_detector=True)]
    assert differ == [], f"{len(differ)} cases of {source} differ with the pass (case numbers: {differ[:20]})"
