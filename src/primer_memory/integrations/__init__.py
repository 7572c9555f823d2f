"""Adapters that plug the series' memory into agent frameworks (LangGraph, Claude's memory tool) and a real model.

Each adapter lives in its own module and imports its framework only when that module
is imported, so `import primer_memory` never needs LangGraph or the Anthropic SDK.
The names below are loaded on first use; a missing framework raises
`IntegrationUnavailable`, which says which extra to install.

| name | module | framework (extra) |
|---|---|---|
| `SQLiteCheckpointSaver`, `PostgresCheckpointSaver` | `langgraph_checkpoint` | LangGraph (`[langgraph]`) |
| `LongTermStore` | `langgraph_store` | LangGraph (`[langgraph]`) |
| `NotesMemoryTool`, `AsyncNotesMemoryTool` | `claude_memory` | Anthropic SDK (`[anthropic]`) |
| `Model`, `StandInModel`, `ModelSummarizer` | `model` | none: the deterministic stand-in |
| `parse_proposals`, `keep_proposals` | `proposals` | none: what a model proposes, checked by code |
| `LlamaModel`, `find_model_path` | `llama` | xllamacpp and the SmolLM2 wheel (`make model`) |
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "AsyncNotesMemoryTool",
    "CheckpointError",
    "CheckpointScopeError",
    "IntegrationUnavailable",
    "keep_proposals",
    "LlamaModel",
    "Model",
    "ModelNotInstalled",
    "ModelSummarizer",
    "parse_proposals",
    "ProposalError",
    "StandInModel",
    "find_model_path",
    "LongTermStore",
    "MemoryNotStored",
    "MemoryToolError",
    "NotesMemoryTool",
    "PathRefused",
    "PolicyRefused",
    "PolicySkipped",
    "PostgresCheckpointSaver",
    "SQLiteCheckpointSaver",
    "SecretRefused",
    "require",
]

_INSTALL = {
    "langgraph": "pip install -e '.[langgraph]' (make test installs it for you)",
    "anthropic": "pip install -e '.[anthropic]' (make test installs it for you)",
}

# public name -> the module that defines it (imported on first use only)
_LAZY = {
    "CheckpointError": "langgraph_checkpoint",
    "CheckpointScopeError": "langgraph_checkpoint",
    "SQLiteCheckpointSaver": "langgraph_checkpoint",
    "PostgresCheckpointSaver": "langgraph_checkpoint",
    "LongTermStore": "langgraph_store",
    "MemoryNotStored": "langgraph_store",
    "PolicyRefused": "langgraph_store",
    "PolicySkipped": "langgraph_store",
    "NotesMemoryTool": "claude_memory",
    "AsyncNotesMemoryTool": "claude_memory",
    "MemoryToolError": "claude_memory",
    "PathRefused": "claude_memory",
    "SecretRefused": "claude_memory",
    "Model": "model",
    "StandInModel": "model",
    "ModelSummarizer": "model",
    "parse_proposals": "proposals",
    "keep_proposals": "proposals",
    "ProposalError": "proposals",
    "LlamaModel": "llama",
    "find_model_path": "llama",
    "ModelNotInstalled": "llama",
}


class IntegrationUnavailable(ImportError):
    """A framework an adapter needs is not installed; the message names the extra that brings it."""


def require(module: str, extra: str, what: str) -> Any:
    """Import `module`, or raise IntegrationUnavailable naming `what` needs it and how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise IntegrationUnavailable(
            f"{what} needs the {module.split('.')[0]!r} package, which is not installed; {_INSTALL[extra]}"
        ) from exc


def __getattr__(name: str) -> Any:
    """Load an adapter's public name on first use (PEP 562), so importing this package imports no framework."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'primer_memory.integrations' has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
