"""primer-memory: the code behind a Jupyter series on memory and state for LLM agents.

A model keeps nothing between calls; the application owns its memory. The series builds it one
part at a time, one subpackage a part: `short_term` (notebook 1), `long_term` (notebook 2),
`policy` and `notes` (notebook 3), `tasks` (notebook 4); `postgres` runs them on PostgreSQL
(notebook 5). `lessons` holds what only the notebooks need. This module is the package's face:
the lesson's names, nothing else.

Names are imported on first use (PEP 562), so `import primer_memory` loads no part until you
ask for one: `from primer_memory import ShortTermMemory` loads short-term memory only.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for type checkers and editors; at run time __getattr__ below imports on first use
    from .short_term import (
        CHAT_ROLES,
        ContextWindow,
        Handoff,
        InvalidBudget,
        InvalidMessage,
        InvalidSummary,
        InvalidTokenCount,
        Message,
        PerMessageSummarizer,
        ROLES,
        RollingSummarizer,
        ShortTermMemory,
        StandInModelSummarizer,
        SummaryBill,
        TokenizerUnavailable,
        ToolCall,
        bpe_tokens,
        build_prompt,
        context_reference,
        estimate_tokens,
        first_sentence,
        first_sentences,
        prompt_tokens,
        render_prompt,
        token_curve,
        token_table,
        tool_call,
    )
    from .long_term import (
        Embedder,
        EmbeddingError,
        ExportFileError,
        HashingEmbedder,
        InvalidMemory,
        InvalidQuery,
        KINDS,
        KIND_NAMES,
        LongTermMemory,
        MemoryRecord,
        RecordNotFound,
        Scope,
        ScopeError,
        ScoredMemory,
        SemanticEmbedder,
        StoreClosed,
        StoreFileError,
        StoreLocked,
        WriteConflict,
        WriteResult,
    )
    from .notes import (
        InvalidText,
        MemoryNotes,
        NoteConflict,
        NoteNotFound,
        NoteNotText,
        NoteTooLarge,
        NotesError,
        NotesSetupError,
        TextNotFound,
        TextNotUnique,
        UnsafePath,
    )
    from .policy import (
        DETECTORS,
        PolicyDecision,
        detector_table,
        redact,
        review,
        worth_remembering,
    )
    from .tasks import (
        ClockError,
        Event,
        InvalidTask,
        InvalidUpdate,
        Lease,
        LeaseError,
        LeaseExpired,
        LeaseHeld,
        STATUSES,
        Step,
        StoreBusy,
        StoreDamaged,
        TRANSITIONS,
        TaskFileError,
        TaskStateStore,
        UnknownTask,
        events_table,
        steps_table,
    )

__version__ = "0.1.0"

# where each of the lesson's names lives: one subpackage a part
_WHERE: dict[str, str] = {
    **dict.fromkeys((
        "CHAT_ROLES", "ContextWindow", "Handoff", "InvalidBudget", "InvalidMessage", "InvalidSummary",
        "InvalidTokenCount", "Message", "PerMessageSummarizer", "ROLES", "RollingSummarizer", "ShortTermMemory",
        "StandInModelSummarizer", "SummaryBill", "TokenizerUnavailable", "ToolCall", "bpe_tokens", "build_prompt",
        "context_reference", "estimate_tokens", "first_sentence", "first_sentences", "prompt_tokens",
        "render_prompt", "token_curve", "token_table", "tool_call",
    ), "short_term"),
    **dict.fromkeys((
        "Embedder", "EmbeddingError", "ExportFileError", "HashingEmbedder", "InvalidMemory", "InvalidQuery", "KINDS",
        "KIND_NAMES", "LongTermMemory", "MemoryRecord", "RecordNotFound", "Scope", "ScopeError", "ScoredMemory",
        "SemanticEmbedder", "StoreClosed", "StoreFileError", "StoreLocked", "WriteConflict", "WriteResult",
    ), "long_term"),
    **dict.fromkeys((
        "InvalidText", "MemoryNotes", "NoteConflict", "NoteNotFound", "NoteNotText", "NoteTooLarge", "NotesError",
        "NotesSetupError", "TextNotFound", "TextNotUnique", "UnsafePath",
    ), "notes"),
    **dict.fromkeys((
        "DETECTORS", "PolicyDecision", "detector_table", "redact", "review", "worth_remembering",
    ), "policy"),
    **dict.fromkeys((
        "ClockError", "Event", "InvalidTask", "InvalidUpdate", "Lease", "LeaseError", "LeaseExpired", "LeaseHeld",
        "STATUSES", "Step", "StoreBusy", "StoreDamaged", "TRANSITIONS", "TaskFileError", "TaskStateStore",
        "UnknownTask", "events_table", "steps_table",
    ), "tasks"),
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> object:
    """Import the part that holds `name` the first time it is asked for, then keep it here."""
    part = _WHERE.get(name)
    if part is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{part}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
