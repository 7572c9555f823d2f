"""The real small model (SmolLM2-135M-Instruct through xllamacpp): offline, deterministic, and never trusted.

`make model` installs it and CI runs these tests; on a machine without it they
are skipped, except under CI, where a missing model is a failure.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from primer_memory import LongTermMemory, Scope, ShortTermMemory
from primer_memory.integrations.model import Model, ModelSummarizer, StandInModel
from primer_memory.integrations.proposals import ProposalError, keep_proposals, parse_proposals
from primer_memory.lessons.examples import invoice_chat
from primer_memory.long_term.records import InvalidMemory

if not os.environ.get("CI"):
    pytest.importorskip("xllamacpp", reason="the real model is optional: `make model` installs it")

from primer_memory.integrations.llama import (
    LlamaModel,
    ModelCallError,
    ModelFileError,
    ModelNotInstalled,
    find_model_path,
)

ALICE = Scope("acme", "alice")
QUESTION = "When does Alice's fiscal year start?"
FISCAL = "Alice's fiscal year starts in April."
CHAT = [{"role": "user", "content": "Our fiscal year starts in July. My VPN password is hunter2. Thanks, great!"},
        {"role": "assistant", "content": "Noted."}]


@pytest.fixture(scope="session")
def model() -> LlamaModel:
    """The model, loaded once for the session: short replies keep the tests quick."""
    with LlamaModel(max_tokens=24) as loaded:
        yield loaded


def test_the_real_model_satisfies_the_protocol(model: LlamaModel) -> None:
    assert isinstance(model, Model) and isinstance(StandInModel(), Model)
    assert model.path == find_model_path() and model.path.suffix == ".gguf"


def test_greedy_decoding_gives_the_same_text_twice(model: LlamaModel) -> None:
    first = model.answer(QUESTION, recalled=[FISCAL])
    assert model.last is not None and model.last.completion_tokens > 0 and model.last.prompt_tokens > 0
    assert first.strip() and model.answer(QUESTION, recalled=[FISCAL]) == first
    assert json.dumps(FISCAL) in model.last.prompt[0]["content"]  # the memory went in through the renderer, quoted


def test_a_prompt_longer_than_the_context_is_a_named_error_not_a_crash(model: LlamaModel) -> None:
    with pytest.raises(ModelCallError, match="exceeds the available context size"):
        model.answer("word " * 3000)


_OFFLINE = textwrap.dedent("""
    import socket, sys

    def no_network(event, args):  # every connection or name lookup leaving this machine is refused
        if event == "socket.getaddrinfo" and args[0] not in ("localhost", "127.0.0.1", None):
            raise RuntimeError(f"network lookup attempted: {args[0]}")
        if event == "socket.connect" and isinstance(args[1], tuple) and args[1][0] not in ("127.0.0.1", "::1"):
            raise RuntimeError(f"network connection attempted: {args[1]}")

    sys.addaudithook(no_network)
    from primer_memory.integrations.llama import LlamaModel
    with LlamaModel(max_tokens=24) as model:
        print(model.answer(sys.argv[1], recalled=[sys.argv[2]]), end="")
""")


def _no_network_prefix() -> list[str]:
    """`unshare -rn` (a network namespace with no way out) where the kernel allows it; else the audit hook alone."""
    try:
        works = subprocess.run(["unshare", "-rn", "true"], capture_output=True, timeout=10, check=False).returncode == 0
    except (OSError, subprocess.SubprocessError):
        works = False
    return ["unshare", "-rn"] if works else []


def test_the_model_runs_offline_and_another_process_gets_the_same_text(model: LlamaModel) -> None:
    import primer_memory

    env = {**os.environ, "PYTHONPATH": str(Path(primer_memory.__file__).resolve().parents[1])}  # this package
    run = subprocess.run([*_no_network_prefix(), sys.executable, "-c", _OFFLINE, QUESTION, FISCAL],
                         capture_output=True, text=True, timeout=300, env=env, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout == model.answer(QUESTION, recalled=[FISCAL])


def test_whatever_the_model_proposes_the_code_decides(model: LlamaModel) -> None:
    memory = LongTermMemory()
    text = model.propose_facts(CHAT)
    report = keep_proposals(memory, ALICE, text)
    if report.error is None:  # it parsed: every entry went through the write policy
        assert len(report.results) == len(report.entries)
    else:
        assert isinstance(report.error, (ProposalError, InvalidMemory))
    assert not any("hunter2" in r["content"] for r in memory.export(ALICE))


def test_a_proposal_cut_off_by_the_token_limit_is_refused_by_name(model: LlamaModel) -> None:
    """Eight tokens cannot hold a list of memory objects: whatever the model wrote is refused, with its name."""
    from primer_memory.integrations.model import proposal_prompt

    reply = model.complete(proposal_prompt(CHAT), max_tokens=8)
    assert reply.completion_tokens <= 8
    with pytest.raises((ProposalError, InvalidMemory)) as refused:
        parse_proposals(reply.text)
    assert type(refused.value).__name__ in {"ProposalNotJSON", "ProposalShapeError"} or json.loads(reply.text) == []


def test_the_real_model_as_a_rolling_summarizer_keeps_the_budget(model: LlamaModel) -> None:
    summarizer = ModelSummarizer(model)
    memory = ShortTermMemory(90, keep_last=4, summarize=summarizer)  # the first exchange is folded
    memory.extend(invoice_chat(3))
    summary, messages = memory.context()
    assert memory.sent_tokens() <= 90 and len(messages) == 4
    assert summarizer.calls == 1 and summary.startswith("Earlier in this conversation: ")


def test_the_loopback_port_answers_nobody_else_and_closes_with_the_model() -> None:
    import urllib.error
    import urllib.request

    model = LlamaModel(max_tokens=4)
    address = model.loopback_address
    assert address is not None and address.startswith("http://127.0.0.1:")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{address}/v1/models", timeout=5)
    assert refused.value.code == 401
    model.close()
    assert model.loopback_address is None
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(f"{address}/health", timeout=5)
    with pytest.raises(ModelCallError, match="closed"):
        model.answer("Still there?")


def test_missing_pieces_get_named_errors_with_the_install_hint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PRIMER_MODEL_PATH", str(tmp_path / "nowhere.gguf"))
    with pytest.raises(ModelFileError, match="PRIMER_MODEL_PATH"):
        find_model_path()
    (tmp_path / "notes.gguf").write_text("not a model")
    monkeypatch.setenv("PRIMER_MODEL_PATH", str(tmp_path / "notes.gguf"))
    with pytest.raises(ModelFileError, match="not a GGUF file"):
        LlamaModel()
    monkeypatch.delenv("PRIMER_MODEL_PATH")
    monkeypatch.setattr("importlib.metadata.distribution", _not_installed)
    with pytest.raises(ModelNotInstalled, match="make model"):
        find_model_path()
    monkeypatch.setitem(sys.modules, "xllamacpp", None)  # what an uninstalled package looks like to import
    with pytest.raises(ModelNotInstalled, match="make model"):
        LlamaModel()


def _not_installed(name: str) -> None:
    import importlib.metadata

    raise importlib.metadata.PackageNotFoundError(name)


def test_an_answer_or_summary_its_token_limit_stopped_carries_the_visible_marker(model: LlamaModel) -> None:
    """Issue 50: the summary stopped mid-sentence at the model's cap with no marker, although notebook 6's 'what
    breaks' promises one. Whatever the model writes, the marker is there exactly when the limit stopped it."""
    from primer_memory.short_term.folding import TRUNCATION_MARKER

    stopped = 0
    for question in ("Explain in detail how a company closes its books at the end of a fiscal year.", "Hi"):
        answer = model.answer(question)
        assert answer.endswith(TRUNCATION_MARKER) == (model.last.finish_reason == "length"), (answer, model.last)
        stopped += model.last.finish_reason == "length"
    assert stopped >= 1, "the long question must run into the 24-token limit"
    summary = model.summarize("", CHAT, max_tokens=200)
    assert summary.endswith(TRUNCATION_MARKER) == (model.last.finish_reason == "length")
