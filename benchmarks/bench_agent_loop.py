"""An agent loop of 2,000 messages with tool calls: ShortTermMemory against LangChain's trim_messages.

Each step adds one message and builds the window for the next call, as an
agent loop does. The peer is `langchain_core.messages.trim_messages(strategy="last")`
on the same messages with the same token counter (it trims, it does not
summarize). Also counted: windows a chat API would reject (a tool result
without its call, or a call without all its results), and, for the rolling
stand-in summarizer, summarizer calls per step (goal: at most one).

langchain-core is a benchmark-only peer, never a package dependency:
  .venv/bin/pip install langchain-core     (or run this script with --install)
Run: .venv/bin/python benchmarks/bench_agent_loop.py [--messages 2000] [--install]
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import time
from pathlib import Path

from primer_memory import ShortTermMemory, StandInModelSummarizer, bpe_tokens
from primer_memory.short_term.chat import message_tokens
from primer_memory.lessons.examples import tool_chat

BUDGET, KEEP_LAST = 1_000, 6


def invalid(window: list[dict]) -> bool:
    """True when a chat API would reject this window's tool messages."""
    waiting: list[str] = []
    if window and window[0]["role"] == "tool":
        return True
    for m in window:
        if m["role"] == "tool":
            if m["tool_call_id"] not in waiting:
                return True
            waiting.remove(m["tool_call_id"])
        else:
            if waiting:
                return True
            waiting = [c["id"] for c in m.get("tool_calls", ())]
    return bool(waiting)


def model_steps(messages: list[dict]) -> list[bool]:
    """For each step, whether every tool call so far has its results: where an agent loop calls the model."""
    flags, waiting = [], 0
    for m in messages:
        waiting += len(m.get("tool_calls", ())) - (m["role"] == "tool")
        flags.append(waiting == 0)
    return flags


def run_memory(messages: list[dict], **kwargs: object) -> tuple[float, int, ShortTermMemory]:
    memory = ShortTermMemory(BUDGET, keep_last=KEEP_LAST, **kwargs)  # type: ignore[arg-type]
    windows = []
    start = time.perf_counter()
    for m in messages:
        memory.add_message(m)
        windows.append(memory.context()[1])
    seconds = time.perf_counter() - start
    bad = sum(step and invalid(w) for step, w in zip(model_steps(messages), windows))  # type: ignore[arg-type]
    return seconds, bad, memory


def run_langchain(messages: list[dict], start_on: str | None) -> tuple[float, int]:
    from langchain_core.messages import convert_to_messages, trim_messages

    def as_dict(m: object) -> dict:
        role = {"human": "user", "ai": "assistant", "tool": "tool"}[m.type]  # type: ignore[attr-defined]
        out = {"role": role, "content": m.content}  # type: ignore[attr-defined]
        if getattr(m, "tool_calls", None):
            out["tool_calls"] = [{"id": c["id"]} for c in m.tool_calls]  # type: ignore[attr-defined]
        if role == "tool":
            out["tool_call_id"] = m.tool_call_id  # type: ignore[attr-defined]
        return out

    lc = convert_to_messages(messages)
    for i, m in enumerate(lc):
        m.id = str(i)  # type: ignore[attr-defined]  (survives the copies trim_messages makes)
    counted = {str(i): message_tokens(d) for i, d in enumerate(messages)}  # the same counter as the memory

    def count(window: list) -> int:  # type: ignore[type-arg]
        return sum(counted[m.id] for m in window)

    history: list[object] = []
    windows = []
    start = time.perf_counter()
    for m in lc:
        history.append(m)
        windows.append(trim_messages(history, max_tokens=BUDGET, token_counter=count, strategy="last",
                                     start_on=start_on))
    seconds = time.perf_counter() - start
    bad = sum(step and invalid([as_dict(w) for w in window]) for step, window in zip(model_steps(messages), windows))
    return seconds, bad


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=2_000)
    parser.add_argument("--install", action="store_true", help="pip-install langchain-core into this venv if missing")
    args = parser.parse_args()
    messages = tool_chat(args.messages // 5)
    n = len(messages)
    try:
        importlib.import_module("langchain_core")
    except ImportError:
        if not args.install:
            print("langchain-core is not installed; the peer is skipped. Install it for this benchmark only:\n"
                  f"  {sys.executable} -m pip install langchain-core   (or run with --install)\n")
        else:
            lock = Path(__file__).resolve().parent.parent / "requirements.lock"  # the version `make` would install
            subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "-c", str(lock), "langchain-core"],
                           check=True)
    print(f"{n:,} messages ({n // 5} agent turns: question, two tool calls, two results, answer), budget {BUDGET}, "
          f"keep_last {KEEP_LAST}; one add + one window per message\n")
    base_start = time.perf_counter()
    sent: list[dict] = []
    for m in messages:
        sent.append(m)
        list(sent)  # "send everything": copying the list is the least any loop does
    base = time.perf_counter() - base_start
    rows = [("send everything (no budget)", base, 0, None)]
    calls_to_model = sum(model_steps(messages))
    t, bad, _ = run_memory(messages)
    rows.append(("ShortTermMemory, first_sentences", t, bad, None))
    t, bad, _ = run_memory(messages, start_on="user")
    rows.append(("ShortTermMemory, start_on='user'", t, bad, None))
    t, bad, _ = run_memory(messages, start_on="user", count_tokens=bpe_tokens)
    rows.append(("ShortTermMemory, start_on='user', cl100k", t, bad, None))
    stand_in = StandInModelSummarizer()
    t, bad, _ = run_memory(messages, summarize=stand_in, start_on="user")
    rows.append(("ShortTermMemory, rolling stand-in", t, bad, stand_in.calls / n))
    try:
        for start_on in (None, "human"):
            t, bad = run_langchain(messages, start_on)
            rows.append((f"trim_messages(last, start_on={start_on!r})", t, bad, None))
    except ImportError:
        pass
    peer = next((seconds for label, seconds, _, _ in rows if label.startswith("trim_messages")), None)
    print(f"{'':42} {'us/step':>9} {'trim_messages / this':>21} {'rejected requests':>18} {'summarizer calls/step':>22}")
    for label, seconds, bad, calls in rows:
        per = seconds / n * 1e6
        ratio = f"{peer / seconds:20.1f}x" if peer else f"{'-':>21}"
        calls_text = f"{calls:.3f}" if calls is not None else "-"
        print(f"{label:42} {per:9.1f} {ratio} {bad:>9} of {calls_to_model:<5} {calls_text:>16}")
    print("(rejected requests: windows a chat API would refuse, counted at the steps where every tool call so far "
          "has its results, i.e. where an agent loop calls the model)")
    print(f"\nrolling stand-in bill: {stand_in.bill.calls} calls, {stand_in.bill.input_tokens:,} tokens read, "
          f"{stand_in.bill.output_tokens:,} written")


if __name__ == "__main__":
    main()
