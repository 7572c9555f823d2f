"""Benchmark the LangGraph adapters against LangGraph's own in-memory ones, ratios in one run.

Compared on the same items, questions and graph:
  - `LongTermStore.put` / `.search(query=...)` / `.get` (in memory, and on an SQLite file) against LangGraph's
    `InMemoryStore` given the same embedder (the project's HashingEmbedder, as an `embed` function), so the
    ratio is what the write policy, supersession and the partitioned memory cost, not a different embedding;
  - a compiled StateGraph looping N steps with `SQLiteCheckpointSaver` against `InMemorySaver`: what a durable
    checkpoint (a transaction with full sync per step) costs.

Usage: python benchmarks/bench_integrations.py [--items N] [--queries Q] [--steps S]
"""

from __future__ import annotations

import argparse
import operator
from pathlib import Path
from typing import Annotated, TypedDict

import numpy as np
from timing import best_of, scratch, size  # benchmarks/ is on the path when a script here is run

from primer_memory import HashingEmbedder, LongTermMemory
from primer_memory.integrations import LongTermStore, SQLiteCheckpointSaver

SEED = 20261204
WORDS = ("invoice payment vendor fiscal year euros reconcile match ledger audit travel approve budget quarter "
         "refund contract supplier deadline currency receipt").split()


def facts(n: int, rng: np.random.Generator) -> list[dict]:
    return [{"fact": " ".join(rng.choice(WORDS, 7)) + f" item {i}.", "n": i} for i in range(n)]


def bench_store(items: int, queries: int, folder: Path) -> None:
    from langgraph.store.memory import InMemoryStore

    rng = np.random.default_rng(SEED)
    values = facts(items, rng)
    questions = [" ".join(rng.choice(WORDS, 4)) for _ in range(queries)]
    embedder = HashingEmbedder()
    ns = ("acme", "alice", "memories")

    def embed(texts: list[str]) -> list[list[float]]:
        return embedder.embed(list(texts)).tolist()

    stores = {
        "LangGraph InMemoryStore": lambda: InMemoryStore(index={"dims": embedder.dim, "embed": embed}),
        "LongTermStore (in memory)": lambda: LongTermStore(LongTermMemory(embedder), provenance="assistant"),
        "LongTermStore (SQLite file)": lambda: LongTermStore(LongTermMemory(embedder, path=folder / f"m{rng.integers(1e9)}.db"),
                                                               provenance="assistant"),
    }
    rows = []
    for name, make in stores.items():
        store = make()
        put = best_of(1, lambda: [store.put(ns, f"k{i}", v) for i, v in enumerate(values)]) / items
        search = best_of(3, lambda: [store.search(ns[:2], query=q, limit=10) for q in questions]) / queries
        get = best_of(3, lambda: [store.get(ns, f"k{i}") for i in range(0, items, 7)]) / len(range(0, items, 7))
        top = [i.key for i in store.search(ns[:2], query=questions[0], limit=3)]
        rows.append((name, put, search, get, top))
    base = rows[0]
    print(f"store: {items} items in one namespace, {queries} questions (best of 3 for search and get)")
    print(f"{'store':<30}{'put/item':>12}{'ratio':>8}{'search':>12}{'ratio':>8}{'get':>12}{'ratio':>8}  top 3 of q0")
    for name, put, search, get, top in rows:
        print(f"{name:<30}{put * 1e3:>10.3f}ms{put / base[1]:>7.1f}x{search * 1e3:>10.3f}ms{search / base[2]:>7.1f}x"
              f"{get * 1e3:>10.3f}ms{get / base[3]:>7.1f}x  {top}")


class Count(TypedDict):
    n: int
    log: Annotated[list[int], operator.add]


def bench_checkpointer(steps: int, folder: Path) -> None:
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, StateGraph

    def tick(state: Count) -> dict:
        return {"n": state["n"] + 1, "log": [state["n"]]}

    graph = StateGraph(Count)
    graph.add_node("tick", tick)
    graph.add_edge(START, "tick")
    graph.add_conditional_edges("tick", lambda s: END if s["n"] >= steps else "tick")
    savers = {"LangGraph InMemorySaver": InMemorySaver, "SQLiteCheckpointSaver": None}
    results = []
    for name in savers:
        runs = iter(range(10))

        def once() -> None:
            run = next(runs)
            saver = InMemorySaver() if name.startswith("LangGraph") else SQLiteCheckpointSaver(folder / f"c{run}.db")
            app = graph.compile(checkpointer=saver)
            out = app.invoke({"n": 0, "log": []}, {"configurable": {"thread_id": "t"}, "recursion_limit": steps + 10})
            assert out["n"] == steps

        results.append((name, best_of(3, once) / steps))
    print(f"\ncheckpointer: a graph of one node looping {steps} steps (best of 3), per step")
    for name, seconds in results:
        print(f"{name:<30}{seconds * 1e3:>10.3f}ms{seconds / results[0][1]:>7.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=size(1000, 10))
    parser.add_argument("--queries", type=int, default=size(50, 3))
    parser.add_argument("--steps", type=int, default=size(100, 3))
    args = parser.parse_args()
    with scratch("integrations") as folder:  # its files go when the run ends
        bench_store(args.items, args.queries, folder)
        bench_checkpointer(args.steps, folder)


if __name__ == "__main__":
    main()
