"""primer-memory: the code behind a Jupyter series on memory and state for LLM agents.

A model keeps nothing between calls; the application owns its memory. The
series builds the four parts one notebook at a time: short-term memory under
a budget, long-term typed records, the safety rules around them, and task
state that survives a crash.
"""

from __future__ import annotations

from .prompt import build_prompt, prompt_tokens, render_prompt
from .short_term import (
    ROLES,
    ContextWindow,
    InvalidBudget,
    InvalidMessage,
    InvalidSummary,
    InvalidTokenCount,
    Message,
    PerMessageSummarizer,
    ShortTermMemory,
    context_reference,
    estimate_tokens,
    first_sentence,
    first_sentences,
    token_curve,
)
from .chat import CHAT_ROLES, ToolCall, tool_call
from .handoff import Handoff
from .summarizers import RollingSummarizer, StandInModelSummarizer, SummaryBill
from .tokens import TokenizerUnavailable, bpe_tokens, token_table

# (more parts are imported below as each notebook's module lands)
from .embedding import Embedder, EmbeddingError, HashingEmbedder
from .semantic import SemanticEmbedder  # wordllama itself is imported only when one is built
from .long_term import (
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
from .notes import (
    InvalidText,
    MemoryNotes,
    NoteConflict,
    NoteNotFound,
    NoteNotText,
    NotesError,
    NotesSetupError,
    NoteTooLarge,
    TextNotFound,
    TextNotUnique,
    UnsafePath,
)
from .policy import DETECTORS, PolicyDecision, detector_table, redact, review, worth_remembering
from .task_state import (
    STATUSES,
    TRANSITIONS,
    ClockError,
    Event,
    InvalidTask,
    InvalidUpdate,
    Lease,
    LeaseError,
    LeaseExpired,
    LeaseHeld,
    Step,
    StoreBusy,
    StoreDamaged,
    TaskFileError,
    TaskStateStore,
    UnknownTask,
    events_table,
    steps_table,
)

__version__ = "0.1.0"
