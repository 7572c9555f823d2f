"""The package's layout keeps its rules: no import circles, layers that run one way, small files, corpora as data.

These read the source (ast), so they hold for every import, including the ones inside functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "src" / "primer_memory"
PARTS = ("short_term", "long_term", "policy", "notes", "tasks")
SHARED = ("postgres", "file_paths")
TOP = ("lessons", "integrations")


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PKG.rglob("*.py"))}


def _imports(name: str, path: Path) -> set[str]:
    """Every primer_memory module `name` imports, at any depth of its code (relative imports resolved)."""
    is_pkg = path.name == "__init__.py"
    package = name.split(".") if is_pkg else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            # `from pkg import module` imports the module; `from module import name` imports the module
            targets = [f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in MODULES else stem for alias in node.names]
        else:
            continue
        found |= {t for t in targets if t in MODULES and t != name}
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _area(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_there_are_no_import_circles() -> None:
    """Depth-first search over every import edge between the package's modules finds no cycle."""
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(GRAPH[node]):
            if state.get(nxt) == 1:
                cycles.append(trail[trail.index(nxt):] + [nxt] if nxt in trail else [node, nxt])
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = 2

    for module in sorted(GRAPH):
        if module not in state:
            visit(module, [module])
    assert cycles == [], "import circles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_layers_run_one_way() -> None:
    """Shared modules import no part; a part never imports lessons or integrations; the parts form no circle."""
    wrong = []
    part_edges: set[tuple[str, str]] = set()
    for module, targets in GRAPH.items():
        area = _area(module)
        for target in targets:
            to = _area(target)
            if area in SHARED and to != area:
                wrong.append(f"{module} (shared) imports {target}")
            if area in PARTS and to in TOP:
                wrong.append(f"{module} (a part) imports {target}")
            if area in PARTS and to in PARTS and to != area:
                part_edges.add((area, to))
    assert wrong == []
    # the parts' own graph is acyclic: no part reaches back to itself through others
    for start in PARTS:
        seen, todo = set(), [b for a, b in part_edges if a == start]
        while todo:
            here = todo.pop()
            assert here != start, f"the parts import each other in a circle through {start}"
            if here not in seen:
                seen.add(here)
                todo += [b for a, b in part_edges if a == here]


def test_every_part_is_a_subpackage_and_the_top_holds_only_shared_modules() -> None:
    top_files = sorted(p.name for p in PKG.glob("*.py"))
    assert top_files == ["__init__.py", "__main__.py", "file_paths.py"]
    assert sorted(p.name for p in (PKG / "postgres").glob("*.py")) == ["__init__.py", "scope.py", "server.py",
                                                                       "session.py"]
    for part in PARTS + ("lessons",):
        assert (PKG / part / "__init__.py").is_file(), part


def test_no_part_imports_another_parts_storage_and_lessons_import_none() -> None:
    """Storage is each part's own: a part reaches another's data through its public calls, and PostgreSQL through
    the shared layer (`postgres`: server, scope, session), the one lifecycle every application connection uses.
    Lessons and integrations use the parts' public calls too, never a storage module."""
    wrong = []
    for module, targets in GRAPH.items():
        area = _area(module)
        for target in targets:
            parts = target.split(".")
            if "storage" not in parts[2:]:
                continue
            owner = parts[1]
            if area in TOP or (area in PARTS and owner != area):
                wrong.append(f"{module} imports {target}")
    assert wrong == []


def test_the_layering_rule_can_still_fail() -> None:
    """The rule above, on an edge that breaks it: tasks reaching into long-term memory's storage."""
    saved = GRAPH.get("primer_memory.tasks.store", set())
    GRAPH["primer_memory.tasks.store"] = saved | {"primer_memory.long_term.storage.postgres"}
    try:
        with pytest.raises(AssertionError):
            test_no_part_imports_another_parts_storage_and_lessons_import_none()
    finally:
        GRAPH["primer_memory.tasks.store"] = saved


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_file_is_over_500_lines(module: str) -> None:
    lines = MODULES[module].read_text(encoding="utf-8").count("\n")
    assert lines <= 500, f"{MODULES[module].relative_to(ROOT)} has {lines} lines; split it by idea"


def test_corpora_are_data_read_by_one_loader_and_no_detector_imports_them() -> None:
    corpora = PKG / "policy" / "corpora"
    assert sorted(p.name for p in corpora.glob("*.py")) == ["__init__.py", "loader.py"]
    assert len(list(corpora.glob("*.jsonl"))) >= 7
    readers = {m for m, targets in GRAPH.items() for t in targets if t.startswith("primer_memory.policy.corpora")}
    readers -= {"primer_memory.policy.corpora"}
    assert all(_area(m) == "lessons" for m in readers), f"only lessons may read the corpora, not {sorted(readers)}"


def test_the_package_face_exports_what_the_lesson_uses_and_nothing_from_lessons() -> None:
    face = GRAPH["primer_memory"]
    assert face and all(_area(t) in PARTS for t in face), sorted(face)


def test_lazy_names_are_the_functions_even_after_their_modules_are_imported() -> None:
    """A lazily exported name must not be shadowed by a submodule of the same name (the import system sets
    `package.<submodule>` when a submodule loads), so no subpackage has a module named like a name it exports."""
    import importlib

    for package in ("primer_memory", "primer_memory.policy", "primer_memory.integrations"):
        module = importlib.import_module(package)
        for name in getattr(module, "__all__", ()):
            assert not (PKG.parent / package.replace(".", "/") / f"{name}.py").exists(), f"{package}.{name}"
    import primer_memory.policy.rules  # noqa: F401  (loads the module that defines review)
    from primer_memory.policy import review

    assert callable(review) and review("thanks!").verdict == "skip"
