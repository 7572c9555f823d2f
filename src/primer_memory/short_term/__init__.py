"""Notebook 1, short-term memory: a chat kept under a token budget, older turns folded into a summary.

`memory` holds ShortTermMemory; `chat` the chat-API messages and tool calls; `folding` the fold over
whole units; `summarizers` the summary makers; `tokens` the counters; `handoff` the written hand-off;
`prompt` what the model sees on one call.
"""

from __future__ import annotations

from .chat import CHAT_ROLES, ToolCall, tool_call
from .handoff import Handoff
from .memory import (
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
from .prompt import build_prompt, prompt_tokens, render_prompt
from .summarizers import RollingSummarizer, StandInModelSummarizer, SummaryBill
from .tokens import TokenizerUnavailable, bpe_tokens, token_table

__all__ = ["CHAT_ROLES", "ROLES", "ContextWindow", "Handoff", "InvalidBudget", "InvalidMessage", "InvalidSummary",
           "InvalidTokenCount", "Message", "PerMessageSummarizer", "RollingSummarizer", "ShortTermMemory",
           "StandInModelSummarizer", "SummaryBill", "TokenizerUnavailable", "ToolCall", "bpe_tokens", "build_prompt",
           "context_reference", "estimate_tokens", "first_sentence", "first_sentences", "prompt_tokens",
           "render_prompt", "token_curve", "token_table", "tool_call"]
