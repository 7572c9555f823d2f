"""Notebook 2, long-term memory: typed records recalled by similarity, above one storage protocol.

`memory` holds LongTermMemory (write policy, supersession, ranking); `records` the value types
(Scope, MemoryRecord, WriteResult); `validation` the input checks; `embedding` and `semantic` the
embedders; `export` the export file; `storage/` one file a backend.
"""

from __future__ import annotations

from .embedding import Embedder, EmbeddingError, HashingEmbedder
from .memory import (
    KIND_NAMES,
    KINDS,
    ExportFileError,
    InvalidMemory,
    InvalidQuery,
    LongTermMemory,
    MemoryRecord,
    RecordNotFound,
    Scope,
    ScopeError,
    ScoredMemory,
    StoreClosed,
    StoreFileError,
    StoreLocked,
    WriteConflict,
    WriteResult,
)
from .semantic import SemanticEmbedder  # wordllama itself is imported only when one is built

__all__ = ["KIND_NAMES", "KINDS", "Embedder", "EmbeddingError", "ExportFileError", "HashingEmbedder", "InvalidMemory",
           "InvalidQuery", "LongTermMemory", "MemoryRecord", "RecordNotFound", "Scope", "ScopeError", "ScoredMemory",
           "SemanticEmbedder", "StoreClosed", "StoreFileError", "StoreLocked", "WriteConflict", "WriteResult"]
