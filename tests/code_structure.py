"""Reading the package's own code with `ast`, for the tests of its structure (one gate per guarantee).

Not a test module: pytest does not collect it. `test_one_write_gate.py` and `test_one_prompt_renderer.py` walk
every module, every function and method, with these.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "primer_memory"


def modules() -> Iterator[tuple[str, ast.Module]]:
    """(path under the package, parsed module) for every module of the package, lessons included."""
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(PACKAGE).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, ast.AST]]:
    """(qualified name, node) for the module body and every function and method, each without nested defs."""
    yield prefix or "<module>", tree
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield from functions(node, f"{prefix}.{node.name}" if prefix else node.name)


def own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of one function (or the module body) that are not inside a nested function or class."""
    for node in ast.iter_child_nodes(scope):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        yield node
        yield from own_nodes(node)


def called(call: ast.Call) -> str:
    """The name a call calls: `f` for f(...), `m` for x.m(...), '' for anything else."""
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
