"""The labelled corpora (JSON Lines data files) and the one loader that reads them; no detector imports this."""

from __future__ import annotations

from .loader import COUNTED_ONLY, SOURCES, Case, CorpusFileError, Score, cases, load, score, split_of


def __getattr__(name: str) -> object:
    if name == "CORPUS":
        from . import loader

        return loader.CORPUS
    raise AttributeError(name)


__all__ = ["CORPUS", "COUNTED_ONLY", "SOURCES", "Case", "CorpusFileError", "Score", "cases", "load", "score",
           "split_of"]
