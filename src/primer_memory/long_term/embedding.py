"""Turning text into vectors, so memories can be recalled by similarity.

`Embedder` is the small interface the long-term store needs. `HashingEmbedder`
is the default: deterministic, numpy only, nothing to download. It hashes the
words of a text and their character n-grams into a fixed number of buckets and
L2-normalises the counts, so cosine similarity is one dot product.

What it cannot do: it sees spelling, not meaning. "invoice" and "invoices"
share n-grams and match; "when does Alice's budget year begin?" shares no word
with "Alice's fiscal year starts in April" beyond "year", and a paraphrase
with no shared word ("how do I check that every bill got paid?") scores
lower against the reconcile habit than against the travel habit, which
happens to share "check". And buckets are shared: different n-grams can
land in the same bucket, so texts with nothing in common still score a
little above zero (here, typically below 0.15). A sentence-embedding model closes that
gap at the cost of a model.
"""

from __future__ import annotations

import math
import re
import unicodedata
import zlib
from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol, runtime_checkable

import numpy as np

__all__ = [
    "Embedder",
    "EmbeddingError",
    "HashingEmbedder",
    "STOP_WORDS",
    "content_words",
    "cosine",
    "encode_one",
]


class EmbeddingError(ValueError):
    """An embedder was misconfigured or returned vectors of the wrong shape, type or scale."""


@runtime_checkable
class Embedder(Protocol):
    """What the long-term store needs from an embedding model.

    `name` identifies the model and its settings (a store on disk refuses to mix
    vectors from two embedders); `embed` returns one float32 row per text,
    L2-normalised, or all zeros for a text with nothing to embed; `encode` is
    the same for one text. (The store itself only ever calls `embed`.)
    """

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:  # pragma: no cover - a protocol
        ...

    def encode(self, text: str) -> np.ndarray:  # pragma: no cover - a protocol
        ...


STOP_WORDS: frozenset[str] = frozenset(
    """a about after again all am an and any are as at be been before being but by can could did do does
    doing for from had has have having he her here hers him his how i if in into is it its itself just me
    my no nor not of off on once only or our ours out over own same she should so some such than that the
    their theirs them then there these they this those through to too under until up very was we were what
    when where which while who whom why will with would you your yours""".split()
)
"""Function words carry no topic, so they are left out: "what happened with Globex?" is about Globex."""

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")


def content_words(text: str) -> list[str]:
    """The lower-cased words of `text` that carry meaning: no stop words, no possessive 's."""
    if not isinstance(text, str):
        raise EmbeddingError(f"text to embed must be a string, got {type(text).__name__}")
    text = unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")
    words = []
    for token in _WORD.findall(text):
        if token.endswith("'s"):
            token = token[:-2]
        token = token.replace("'", "")
        if token and token not in STOP_WORDS:
            words.append(token)
    return words


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    """Cosine similarity of two vectors (0.0 if either is all zeros)."""
    a64 = np.asarray(a, dtype=np.float64)
    b64 = np.asarray(b, dtype=np.float64)
    na, nb = float(np.linalg.norm(a64)), float(np.linalg.norm(b64))
    if na == 0.0 or nb == 0.0:
        return 0.0
    return float(a64 @ b64) / (na * nb)


class HashingEmbedder:
    """Hashed words plus character n-grams, L2-normalised: deterministic, numpy only.

    Each content word adds `word_weight` to its own bucket, and its G n-grams
    (of `<word>`) add `word_weight / sqrt(G)` each, so the n-grams together weigh
    as much as the word: "invoice" and "invoices" share most n-grams and land
    close (cosine about 0.4) while unrelated words share none. Buckets
    come from CRC-32, which is the same in every process (Python's `hash` is not).
    """

    def __init__(self, dim: int = 512, ngram_sizes: tuple[int, ...] = (3, 4), word_weight: float = 1.0):
        if isinstance(dim, bool) or not isinstance(dim, int) or dim < 16:
            raise EmbeddingError(f"dim must be a whole number of at least 16, got {dim!r}")
        sizes = tuple(ngram_sizes)
        if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 2 for n in sizes):
            raise EmbeddingError(f"ngram_sizes must be whole numbers of at least 2, got {ngram_sizes!r}")
        if not (isinstance(word_weight, (int, float)) and word_weight > 0):
            raise EmbeddingError(f"word_weight must be a positive number, got {word_weight!r}")
        self.dim = dim
        self.ngram_sizes = sizes
        self.word_weight = float(word_weight)
        self.name = f"hashing-v1(dim={dim},ngrams={','.join(map(str, sizes))},word_weight={self.word_weight:g})"
        self._features = lru_cache(maxsize=200_000)(self._word_features)

    def __repr__(self) -> str:
        return f"HashingEmbedder(dim={self.dim}, ngram_sizes={self.ngram_sizes}, word_weight={self.word_weight:g})"

    def clear_cache(self) -> None:
        """Forget the per-word feature cache (the store calls this when it erases a user: words are data too)."""
        self._features.cache_clear()

    def _bucket(self, feature: str) -> int:
        return zlib.crc32(feature.encode("utf-8")) % self.dim

    def _word_features(self, word: str) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """Buckets and weights for one word: the word itself, then its n-grams."""
        padded = f"<{word}>"
        grams = [padded[i : i + n] for n in self.ngram_sizes for i in range(len(padded) - n + 1)]
        buckets = [self._bucket("w:" + word)] + [self._bucket("g:" + g) for g in grams]
        share = self.word_weight / math.sqrt(len(grams)) if grams else 0.0
        weights = [self.word_weight] + [share] * len(grams)
        return tuple(buckets), tuple(weights)

    def features(self, text: str) -> dict[str, float]:
        """The named features of a text and their weights, before hashing (for reading, not for speed)."""
        out: dict[str, float] = {}
        for word in content_words(text):
            padded = f"<{word}>"
            grams = [padded[i : i + n] for n in self.ngram_sizes for i in range(len(padded) - n + 1)]
            out[word] = out.get(word, 0.0) + self.word_weight
            for g in grams:
                out[g] = out.get(g, 0.0) + self.word_weight / math.sqrt(len(grams))
        return out

    def slots(self, text: str) -> dict[int, list[str]]:
        """Which named features of a text land in each of the `dim` slots (for reading hash collisions: two
        texts that share no feature can still share slots, and every shared slot adds to their cosine)."""
        out: dict[int, list[str]] = {}
        for word in content_words(text):
            padded = f"<{word}>"
            grams = [padded[i : i + n] for n in self.ngram_sizes for i in range(len(padded) - n + 1)]
            out.setdefault(self._bucket("w:" + word), []).append(word)
            for g in grams:
                out.setdefault(self._bucket("g:" + g), []).append(g)
        return out

    def encode(self, text: str) -> np.ndarray:
        """One text's L2-normalised float32 vector (all zeros if it has no content words)."""
        return encode_one(self, text)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalised float32 row per text; a text with no content words gives a row of zeros."""
        if isinstance(texts, str):
            raise EmbeddingError("embed takes a list of texts; wrap a single text as [text]")
        texts = list(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            buckets: list[int] = []
            weights: list[float] = []
            for word in content_words(text):
                b, w = self._features(word)
                buckets.extend(b)
                weights.extend(w)
            if not buckets:
                continue
            counts = np.bincount(np.asarray(buckets, dtype=np.intp), weights=weights, minlength=self.dim)
            norm = float(np.sqrt(counts @ counts))
            out[row] = counts / norm
        return out


def encode_one(embedder: Embedder, text: str) -> np.ndarray:
    """One text's vector through `embed`: the shared body of every embedder's `encode`."""
    if not isinstance(text, str):
        raise EmbeddingError(f"encode takes one text (a string), got {type(text).__name__}; use embed for a list")
    return embedder.embed([text])[0]


def check_vectors(vectors: object, count: int, dim: int, who: str) -> np.ndarray:
    """Validate an embedder's output and return it as an L2-normalised float32 array of shape (count, dim).

    Called on every recall with one row, so it makes as few numpy calls as it can.
    """
    source = vectors if isinstance(vectors, np.ndarray) else np.asarray(vectors)
    if count == 1 and source.dtype == np.float32 and source.shape == (1, dim):  # one question: the hot path
        square = float(np.dot(source[0].astype(np.float64), source[0].astype(np.float64)))
        if not math.isfinite(square):
            raise EmbeddingError(f"{who} returned NaN or infinite values")
        return source * np.float32(1.0 / math.sqrt(square)) if square > 0 else source.copy()
    if source.shape != (count, dim):
        raise EmbeddingError(f"{who} returned shape {source.shape}; expected ({count}, {dim})")
    if source.dtype.kind != "f":
        raise EmbeddingError(f"{who} returned {source.dtype} values; expected floats")
    array = source.astype(np.float32, copy=True)
    squares = np.einsum("ij,ij->i", array, array, dtype=np.float64)
    if not np.isfinite(squares).all():
        raise EmbeddingError(f"{who} returned NaN or infinite values")
    if squares.all():
        array /= np.sqrt(squares).astype(np.float32)[:, None]
    else:
        nonzero = squares > 0
        array[nonzero] /= np.sqrt(squares[nonzero]).astype(np.float32)[:, None]
    return array
