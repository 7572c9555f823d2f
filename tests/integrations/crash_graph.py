"""A small LangGraph graph run in its own process by the kill-and-resume test (not collected by pytest).

    python crash_graph.py run|resume BACKEND WHERE THREAD SIDE_EFFECTS

BACKEND is `sqlite` (WHERE: the file) or `postgres` (WHERE: the schema; the server is PRIMER_PG_DSN).
Each node appends its name to the state and a line to SIDE_EFFECTS (fsync'd), so the test can
count how often each node really ran. `slow` hangs the first time it runs (the test kills the
process then); `fast` runs beside it in the same super-step and finishes first.
"""

from __future__ import annotations

import json
import operator
import os
import sys
import time
from typing import Annotated, TypedDict


class State(TypedDict):
    log: Annotated[list[str], operator.add]


def _ran(name: str) -> None:
    with open(sys.argv[5], "a", encoding="utf-8") as handle:
        handle.write(name + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def _node(name: str):
    def node(state: State) -> dict:
        _ran(name)
        if name == "slow":
            marker = sys.argv[5] + ".slow-started"
            if not os.path.exists(marker):
                open(marker, "w").close()
                time.sleep(600)  # the test kills the process here
        return {"log": [name]}
    return node


def build(saver):
    from langgraph.graph import END, START, StateGraph

    graph = StateGraph(State)
    for name in ("prepare", "fast", "slow", "finish"):
        graph.add_node(name, _node(name))
    graph.add_edge(START, "prepare")
    graph.add_edge("prepare", "fast")
    graph.add_edge("prepare", "slow")
    graph.add_edge(["fast", "slow"], "finish")
    graph.add_edge("finish", END)
    return graph.compile(checkpointer=saver)


def saver_for(backend: str, where: str):
    from primer_memory.integrations import PostgresCheckpointSaver, SQLiteCheckpointSaver

    if backend == "sqlite":
        return SQLiteCheckpointSaver(where, tenant="acme")
    return PostgresCheckpointSaver(tenant="acme", schema=where)


def main() -> None:
    mode, backend, where, thread = sys.argv[1:5]
    saver = saver_for(backend, where)
    app = build(saver)
    config = {"configurable": {"thread_id": thread}}
    result = app.invoke({"log": []} if mode == "run" else None, config)
    print(json.dumps(result["log"]))
    saver.close()


if __name__ == "__main__":
    main()
