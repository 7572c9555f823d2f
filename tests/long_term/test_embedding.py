"""The default embedder: deterministic, normalised, close for shared words, blind to paraphrase."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer_memory.long_term.embedding import (
    STOP_WORDS,
    Embedder,
    EmbeddingError,
    HashingEmbedder,
    check_vectors,
    content_words,
    cosine,
)
from primer_memory.lessons.examples import ALICE_MEMORIES


@pytest.fixture(scope="module")
def embedder() -> HashingEmbedder:
    return HashingEmbedder()


def test_satisfies_the_protocol(embedder: HashingEmbedder) -> None:
    assert isinstance(embedder, Embedder)
    assert embedder.dim == 512
    assert "dim=512" in embedder.name


def test_rows_are_float32_unit_vectors(embedder: HashingEmbedder) -> None:
    vectors = embedder.embed(["Alice's fiscal year starts in April.", "To reconcile invoices, match them."])
    assert vectors.dtype == np.float32
    assert vectors.shape == (2, 512)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-6)
    assert (vectors >= 0).all()  # unsigned buckets: cosine is never negative, 0 means nothing in common


def test_text_with_no_content_words_gives_zeros(embedder: HashingEmbedder) -> None:
    vectors = embedder.embed(["", "what is it?", "...", "the and of"])
    assert not vectors.any()


def test_content_words_drop_stop_words_and_possessives() -> None:
    assert content_words("What happened with Globex?") == ["happened", "globex"]
    assert content_words("Alice's fiscal year") == ["alice", "fiscal", "year"]
    assert content_words("ALICE\u2019s Year") == ["alice", "year"]
    assert "with" in STOP_WORDS and "globex" not in STOP_WORDS


def test_same_vector_every_time_and_in_a_new_process(embedder: HashingEmbedder) -> None:
    text = "On 2026-09-18 Alice rejected the vendor Globex over late invoices."
    first = embedder.embed([text])[0]
    assert np.array_equal(first, HashingEmbedder().embed([text])[0])
    code = (
        "import numpy as np; from primer_memory.long_term.embedding import HashingEmbedder;"
        f"v = HashingEmbedder().embed([{text!r}])[0]; print(np.flatnonzero(v).tolist(), float(v.sum()))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONHASHSEED": "12345"}).stdout.split("] ")
    assert out[0] + "]" == str(np.flatnonzero(first).tolist())
    assert float(out[1]) == pytest.approx(float(first.sum()), rel=1e-6)


def test_word_forms_are_close_and_unrelated_words_are_not(embedder: HashingEmbedder) -> None:
    invoice, invoices, travel = embedder.embed(["invoice", "invoices", "travel"])
    assert cosine(invoice, invoices) > 0.3
    assert cosine(invoice, travel) < 0.1


def test_the_lesson_questions_find_their_memories(embedder: HashingEmbedder) -> None:
    texts = [str(m["content"]) for m in ALICE_MEMORIES]
    matrix = embedder.embed(texts)
    globex = matrix @ embedder.embed(["what happened with Globex?"])[0]
    assert ALICE_MEMORIES[int(np.argmax(globex))]["kind"] == "episodic"
    reconcile = matrix @ embedder.embed(["how do I reconcile invoices?"])[0]
    assert "reconcile" in texts[int(np.argmax(reconcile))]


def test_a_paraphrase_without_shared_words_is_missed(embedder: HashingEmbedder) -> None:
    """The documented limit: it sees spelling, not meaning."""
    texts = [str(m["content"]) for m in ALICE_MEMORIES]
    scores = embedder.embed(texts) @ embedder.embed(["how do I check that every bill got paid?"])[0]
    habit = next(i for i, t in enumerate(texts) if "reconcile" in t)
    assert scores[habit] < 0.1
    assert int(np.argmax(scores)) != habit


def test_features_are_readable(embedder: HashingEmbedder) -> None:
    features = embedder.features("Globex invoices")
    assert features["globex"] == 1.0
    assert "<gl" in features and "ces>" in features


def test_clear_cache_keeps_results(embedder: HashingEmbedder) -> None:
    before = embedder.embed(["vendor payment"])
    embedder.clear_cache()
    assert np.array_equal(before, embedder.embed(["vendor payment"]))


@pytest.mark.parametrize(
    "kwargs",
    [{"dim": 8}, {"dim": 512.0}, {"dim": True}, {"ngram_sizes": (1,)}, {"ngram_sizes": ("3",)}, {"word_weight": 0}],
)
def test_bad_settings_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(EmbeddingError):
        HashingEmbedder(**kwargs)  # type: ignore[arg-type]


def test_a_bare_string_or_non_string_is_refused(embedder: HashingEmbedder) -> None:
    with pytest.raises(EmbeddingError, match="list of texts"):
        embedder.embed("one text")
    with pytest.raises(EmbeddingError, match="must be a string"):
        embedder.embed([42])  # type: ignore[list-item]


def test_check_vectors_normalises_and_refuses_bad_output() -> None:
    out = check_vectors(np.array([[3.0, 4.0], [0.0, 0.0]]), 2, 2, "test")
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, [[0.6, 0.8], [0.0, 0.0]])
    with pytest.raises(EmbeddingError, match="shape"):
        check_vectors(np.zeros((1, 3)), 2, 3, "test")
    with pytest.raises(EmbeddingError, match="NaN"):
        check_vectors(np.array([[np.nan, 1.0]]), 1, 2, "test")
    with pytest.raises(EmbeddingError, match="floats"):
        check_vectors(np.array([[1, 2]]), 1, 2, "test")


def test_cosine_of_zero_vectors_is_zero() -> None:
    assert cosine(np.zeros(3), np.ones(3)) == 0.0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=40), min_size=1, max_size=5))
def test_any_text_embeds_to_a_unit_or_zero_row(texts: list[str]) -> None:
    vectors = HashingEmbedder(dim=64).embed(texts)
    norms = np.linalg.norm(vectors, axis=1)
    assert np.all((np.abs(norms - 1) < 1e-5) | (norms == 0))


# --------------------------------------------------------------------------- encode, and the semantic embedder

from pathlib import Path  # noqa: E402

from primer_memory import Embedder, LongTermMemory, Scope, SemanticEmbedder, StoreFileError  # noqa: E402


@pytest.fixture(scope="module")
def semantic() -> SemanticEmbedder:
    return SemanticEmbedder()


def test_encode_is_one_row_of_embed(embedder: HashingEmbedder, semantic: SemanticEmbedder) -> None:
    for model in (embedder, semantic):
        assert isinstance(model, Embedder)
        text = "Alice's fiscal year starts in April."
        np.testing.assert_array_equal(model.encode(text), model.embed([text])[0])
        with pytest.raises(EmbeddingError, match="one text"):
            model.encode(["a list"])  # type: ignore[arg-type]


def test_semantic_embedder_finds_paraphrases_the_hashing_one_misses(semantic: SemanticEmbedder) -> None:
    fact, habit, travel = ("Alice's fiscal year starts in April.",
                           "To reconcile invoices, match each vendor invoice to its payment, then list mismatches.",
                           "To book travel, check the team budget, then ask Alice to approve it.")
    budget_year = semantic.encode("when does Alice's budget year begin?")
    assert cosine(budget_year, semantic.encode(fact)) == pytest.approx(0.75, abs=0.01)
    bills = semantic.encode("how do I check that every bill got paid?")
    assert cosine(bills, semantic.encode(habit)) > cosine(bills, semantic.encode(travel))
    hashing = HashingEmbedder()
    assert cosine(hashing.encode("how do I check that every bill got paid?"), hashing.encode(habit)) < \
        cosine(hashing.encode("how do I check that every bill got paid?"), hashing.encode(travel))


def test_semantic_embedder_refuses_bad_input(semantic: SemanticEmbedder) -> None:
    with pytest.raises(EmbeddingError, match="list of texts"):
        semantic.embed("one text")
    with pytest.raises(EmbeddingError, match="must be a string"):
        semantic.embed([42])  # type: ignore[list-item]
    with pytest.raises(EmbeddingError, match="dim"):
        SemanticEmbedder(dim=100)
    assert semantic.embed([]).shape == (0, 256)
    assert not semantic.encode("").any()
    assert SemanticEmbedder(dim=64).encode("invoice").shape == (64,)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.text(max_size=40), min_size=1, max_size=5))
def test_semantic_rows_are_unit_or_zero(texts: list[str]) -> None:
    vectors = SemanticEmbedder().embed(texts)
    norms = np.linalg.norm(vectors, axis=1)
    assert vectors.dtype == np.float32 and np.all((np.abs(norms - 1) < 1e-5) | (norms == 0))


def test_a_store_file_refuses_vectors_from_another_embedder(tmp_path: Path, semantic: SemanticEmbedder) -> None:
    path = tmp_path / "one-embedder.db"
    with LongTermMemory(path=path) as memory:
        memory.remember(Scope("acme", "alice"), "semantic", "Alice likes tea.")
    with pytest.raises(StoreFileError, match="embedder"):
        LongTermMemory(path=path, embedder=semantic)
    other = tmp_path / "semantic.db"
    LongTermMemory(path=other, embedder=semantic).close()
    with pytest.raises(StoreFileError, match="wordllama"):
        LongTermMemory(path=other)


OFFLINE = """
import socket, sys
def refuse(*args, **kwargs):
    raise OSError("network disabled for this test")
socket.socket.connect = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse
import primer_memory
assert "wordllama" not in sys.modules, "import primer_memory must not import wordllama"
embedder = primer_memory.SemanticEmbedder()
print(embedder.name, embedder.encode("when does the budget year begin?").shape)
"""


def test_semantic_embedder_works_offline_and_loads_lazily(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "0",
           "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    out = subprocess.run([sys.executable, "-c", OFFLINE], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("wordllama-") and "(256,)" in out.stdout
    assert not (tmp_path / ".cache").exists()  # nothing was fetched into a cache


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=80))
def test_slots_name_exactly_the_slots_a_text_fills(text: str) -> None:
    """Class of input: any text. `slots` is for reading hash collisions, so it must name the very slots `encode`
    fills, no more and no fewer (weights that cancel to exactly zero do not occur: every weight is positive)."""
    embedder = HashingEmbedder()
    assert set(embedder.slots(text)) == set(np.flatnonzero(embedder.encode(text)).tolist())
