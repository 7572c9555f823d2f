"""A semantic embedder that needs no download: WordLlama's static token embeddings, shipped in its wheel.

WordLlama (`wordllama` on PyPI, MIT) distils the input-token embeddings of large
language models into a small table: one 256-number vector per token of a
32k-token vocabulary (16 MB, inside the wheel). A text's vector is the average
of its tokens' vectors. Words used in the same contexts land close together, so
"budget year" finds "fiscal year" and "bill got paid" finds "invoice ... payment",
which the hashing embedder (spelling only) cannot do.

What it still cannot do: there is no attention, so word order and negation
barely move the vector ("approves" vs "does not approve"), numbers are just
tokens ("April" vs "July" differ little), and a name it never saw is split into
pieces with no meaning. A transformer sentence encoder (tens to hundreds of MB,
milliseconds per text on a CPU) handles order and negation much better.

The weights are read from the installed package with downloads disabled, so it
works offline; `wordllama` is imported only when the first embedder is built.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .embedding import EmbeddingError, encode_one

__all__ = ["SemanticEmbedder"]

_CONFIG = "l2_supercat"
_DIMS = (64, 128, 256)


@functools.cache
def _load_model(dim: int) -> tuple[Any, str]:
    """Load WordLlama's table once per process from the package directory, never from the network."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        import wordllama
        from wordllama import WordLlama
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise EmbeddingError(
            "SemanticEmbedder needs the wordllama package (pip install wordllama); "
            "HashingEmbedder works without it"
        ) from exc
    finally:  # wordllama calls logging.basicConfig on import: give the learner's logging back untouched
        for handler in root.handlers[:]:
            if handler not in handlers:
                root.removeHandler(handler)
        root.setLevel(level)
    package = Path(wordllama.__file__).parent
    try:
        # cache_dir=the package folder: the wheel keeps weights/ and tokenizers/ there, which is where
        # WordLlama looks inside a cache folder (its own "project root" lookup misses the tokenizer).
        model = WordLlama.load(_CONFIG, dim=256, trunc_dim=None if dim == 256 else dim,
                               cache_dir=package, disable_download=True)
    except FileNotFoundError as exc:  # pragma: no cover - a broken install
        raise EmbeddingError(f"the wordllama package has no {_CONFIG} weights in {package.name}/: {exc}") from exc
    return model, wordllama.__version__


class SemanticEmbedder:
    """Average of WordLlama token embeddings (l2_supercat), L2-normalised: meaning, roughly, with no model server.

    `dim` is 256 (the full table) or a truncation to 128 or 64 (the table is
    trained so its leading dimensions work alone). About 16 MB, loaded once per process.
    """

    def __init__(self, dim: int = 256):
        if isinstance(dim, bool) or dim not in _DIMS:
            raise EmbeddingError(f"dim must be one of {_DIMS}, got {dim!r}")
        self._model, version = _load_model(dim)
        self.dim = dim
        self.name = f"wordllama-{version}({_CONFIG},dim={dim})"

    def __repr__(self) -> str:
        return f"SemanticEmbedder(dim={self.dim})"

    def encode(self, text: str) -> np.ndarray:
        """One text's L2-normalised float32 vector (all zeros for a text with no tokens)."""
        return encode_one(self, text)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalised float32 row per text; an empty text gives a row of zeros."""
        if isinstance(texts, str):
            raise EmbeddingError("embed takes a list of texts; wrap a single text as [text]")
        texts = list(texts)
        for text in texts:
            if not isinstance(text, str):
                raise EmbeddingError(f"text to embed must be a string, got {type(text).__name__}")
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        raw = np.asarray(self._model.embed(texts, norm=False), dtype=np.float32)[:, : self.dim]
        raw = np.nan_to_num(raw, nan=0.0, posinf=0.0, neginf=0.0)
        norms = np.linalg.norm(raw.astype(np.float64), axis=1)
        out = np.zeros_like(raw)
        nonzero = norms > 0
        out[nonzero] = raw[nonzero] / norms[nonzero, None].astype(np.float32)
        return out
