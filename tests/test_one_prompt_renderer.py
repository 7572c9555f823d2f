"""One prompt renderer, checked on the code's structure: no path around it exists in src/primer_memory.

Everything a model reads goes through `short_term/prompt.py` (`build_prompt`: the system message and the recent
turns as sent) and `policy/boundary.py` (the quoting). These tests read every module of the package with `ast`
(functions and methods included, lessons too) and fail when:
- a chat message (a dict with a "role" and a "content") is written anywhere but in the functions named below, each
  with the reason it may: they hold history turns, or they are the renderer itself;
- a model is called (`handle_chat_completions`, a `Model`'s `complete`) with anything but a prompt that a prompt
  builder made, or a prompt builder of `integrations.model` returns anything but `build_prompt(...)`.
Each rule is also run on a small piece of code that breaks it, so a rule that can no longer fail fails here.
"""

from __future__ import annotations

import ast

from code_structure import called as _name
from code_structure import functions as _functions, modules as _modules, own_nodes as _own_nodes

MESSAGE_WRITERS = {
    "short_term/prompt.py:build_prompt": "the renderer: the system message, then each recent turn as sent",
    "short_term/prompt.py:quoted_result": "a tool message whose content is the renderer's quoted block",
    "short_term/chat.py:check_message": "a clean copy of a history turn, checked on arrival",
    "short_term/chat.py:as_sent": "the renderer's rule for one turn: tool results quoted, arguments re-written",
    "short_term/folding.py:_copy": "a copy of a history turn (its text cut to the budget, or withheld)",
    "short_term/memory.py:_as_message": "a (role, text) pair becomes a history turn",
    "short_term/memory.py:ShortTermMemory.add": "add(role, text) becomes a history turn",
    "policy/boundary.py:parse_view": "reads a rendered view back, for tests and audits; sends nothing",
    "integrations/model.py:_plain": "history turns as role and text, handed to build_prompt by the builders below",
    "integrations/model.py:answer_prompt": "the question, the last turn of a prompt build_prompt renders",
    "integrations/model.py:summary_prompt": "the request, the last turn of a prompt build_prompt renders",
    "integrations/model.py:proposal_prompt": "the request, the last turn of a prompt build_prompt renders",
    "lessons/examples.py:tool_turn": "the lesson's agent chat: history fed to ShortTermMemory, never to a model",
    "lessons/exercises/short_term.py:check_last_sentences": "an exercise's chat, read by the learner's summarizer",
    "lessons/scripted_claude.py:scripted_client.reply": "the scripted API's answer (a canned model turn), which the "
                                                       "SDK receives; nothing is sent to a model",
}
"""Where a chat message may be written, and why. A new entry needs a reason of the same kind."""

PROMPT_BUILDERS = {"build_prompt", "answer_prompt", "summary_prompt", "proposal_prompt"}
MODEL_CALLS = {"handle_chat_completions", "complete"}
"""llama.cpp's chat endpoint, and `LlamaModel.complete`, the one method that reaches it."""
TRANSPORT = "integrations/llama.py:LlamaModel.complete"  # forwards the prompt it was given, built by a builder


def _writes_a_message(node: ast.AST) -> bool:
    """A dict display with the keys "role" and "content", or dict(role=..., content=...) (a PostgreSQL role's
    summary has a "role" but no "content")."""
    if isinstance(node, ast.Dict):
        keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
    elif isinstance(node, ast.Call) and _name(node) == "dict":
        keys = {k.arg for k in node.keywords}
    else:
        return False
    return {"role", "content"} <= keys


def message_writers(module: str, tree: ast.AST) -> set[str]:
    """`module:function` for every function (or module body) that writes a chat message."""
    return {f"{module}:{name}" for name, scope in _functions(tree)
            if any(_writes_a_message(n) for n in _own_nodes(scope))}


def unrendered_model_calls(module: str, tree: ast.AST) -> list[str]:
    """Model calls whose prompt is not a prompt builder's call (the transport forwards what it was given)."""
    bad = []
    for name, scope in _functions(tree):
        for node in _own_nodes(scope):
            if not (isinstance(node, ast.Call) and _name(node) in MODEL_CALLS):
                continue
            where = f"{module}:{name}"
            if _name(node) == "handle_chat_completions" and where == TRANSPORT:
                continue
            first = node.args[0] if node.args else None
            if not (isinstance(first, ast.Call) and _name(first) in PROMPT_BUILDERS):
                bad.append(f"{where} calls {_name(node)} at line {node.lineno} with no prompt builder's prompt")
    return bad


def builders_around_the_renderer(module: str, tree: ast.AST) -> list[str]:
    """Prompt builders (a *_prompt function of integrations.model) that return anything but build_prompt(...)."""
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name in PROMPT_BUILDERS - {"build_prompt"}:
            returns = [n for n in ast.walk(node) if isinstance(n, ast.Return)]
            if not returns or not all(isinstance(r.value, ast.Call) and _name(r.value) == "build_prompt"
                                      for r in returns):
                bad.append(f"{module}:{node.name} does not return build_prompt(...)")
    return bad


def test_chat_messages_are_written_only_where_named_and_why() -> None:
    found = set().union(*(message_writers(module, tree) for module, tree in _modules()))
    unnamed = found - set(MESSAGE_WRITERS)
    assert not unnamed, (f"{sorted(unnamed)} write chat messages: build prompts with build_prompt "
                         "(short_term/prompt.py), or name the function in MESSAGE_WRITERS with the reason it "
                         "holds history, not a prompt")
    assert not set(MESSAGE_WRITERS) - found, f"stale entries: {sorted(set(MESSAGE_WRITERS) - found)}"


def test_every_model_call_sends_a_prompt_the_renderer_built() -> None:
    bad = [b for module, tree in _modules() for b in unrendered_model_calls(module, tree)]
    bad += [b for module, tree in _modules() for b in builders_around_the_renderer(module, tree)]
    assert not bad, bad
    calls = [f"{m}:{n}" for m, tree in _modules() for n, scope in _functions(tree) for c in _own_nodes(scope)
             if isinstance(c, ast.Call) and _name(c) in MODEL_CALLS]
    assert TRANSPORT in calls and len(calls) >= 4  # the rule still sees the package's model calls


BREAKS_IT = '''
def sneak(model, page):
    prompt = [{"role": "system", "content": "Be nice."}, {"role": "tool", "content": page}]
    return model.complete(prompt)


def answer_prompt(question):
    return [dict(role="user", content=question)]
'''


def test_each_rule_fails_on_code_that_breaks_it() -> None:
    tree = ast.parse(BREAKS_IT)
    assert message_writers("agent.py", tree) == {"agent.py:sneak", "agent.py:answer_prompt"}
    assert unrendered_model_calls("agent.py", tree) == [
        "agent.py:sneak calls complete at line 4 with no prompt builder's prompt"]
    assert builders_around_the_renderer("agent.py", tree) == [
        "agent.py:answer_prompt does not return build_prompt(...)"]
