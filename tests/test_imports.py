"""The Python package's imports, read from the sources (DESIGN.md, "Layout"): no import circle
anywhere in ``ginrummy``; inside the store no private name (``_x``) imported from another
module; and outside the store only the store's public face (``ginrummy.store`` itself) is used.

Every import counts, wherever it stands: at the top, inside a function (a late import that
dodges a circle at run time is still a circle in the design) or under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

#: import circles known today, each as the sorted list of its modules, with the reason it is
#: still there. A circle listed here that is gone fails the test too (remove it from the list).
KNOWN_CIRCLES: list[list[str]] = []


@dataclass(frozen=True)
class Imported:
    """One name (or module) one module imports: the module it comes from, the name (``None``:
    the module itself, ``import x``), and the line."""

    module: str
    name: str | None
    line: int


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    out = {}
    for p in sorted((SRC / "ginrummy").rglob("*.py")):
        parts = list(p.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


MODULES = _modules()


def _imports(name: str, path: Path) -> list[Imported]:
    """What module ``name`` imports (absolute dotted names; relative imports resolved)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.extend(Imported(a.name, None, node.lineno) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out.extend(Imported(module, a.name, node.lineno) for a in node.names)
    return out


def _target(imp: Imported) -> str | None:
    """The package's module an import depends on (``from p import m`` with ``m`` a module of
    ``p``: ``p.m``), or None (outside the package)."""
    if imp.name is not None and f"{imp.module}.{imp.name}" in MODULES:
        return f"{imp.module}.{imp.name}"
    module = imp.module
    while module and module not in MODULES:
        module = module.rpartition(".")[0]
    return module or None


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        targets = {_target(i) for i in _imports(name, path)}
        graph[name] = {t for t in targets if t is not None and t != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_the_graph_is_read() -> None:
    """The reader sees the imports it must (else the tests below would pass on nothing)."""
    graph = import_graph()
    assert "ginrummy.store.games" in graph["ginrummy.store"]
    assert "ginrummy.store.schema" in graph["ginrummy.store.games"]
    assert any("ginrummy.store" in deps for name, deps in graph.items()
               if name.startswith("ginrummy.web"))
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle() -> None:
    found = circles(import_graph())
    new = [c for c in found if c not in KNOWN_CIRCLES]
    gone = [c for c in KNOWN_CIRCLES if c not in found]
    assert not new, f"import circles: {new}"
    assert not gone, f"circles gone, remove them from KNOWN_CIRCLES: {gone}"


STORE = "ginrummy.store"


def _in_store(name: str) -> bool:
    return name == STORE or name.startswith(STORE + ".")


@pytest.mark.parametrize("name", sorted(n for n in MODULES if _in_store(n)))
def test_the_store_imports_no_private_name(name: str) -> None:
    private = [f"{i.module}.{i.name} (line {i.line})" for i in _imports(name, MODULES[name])
               if i.name is not None and i.name.startswith("_") and not i.name.startswith("__")
               and _target(i) is not None]
    assert not private, f"{name} imports private names of other modules: {private}"


def test_the_schema_imports_no_repository() -> None:
    """The schema and its migrations stand alone: they import only the row types."""
    inside = {t for t in import_graph()[f"{STORE}.schema"] if _in_store(t)}
    assert inside <= {f"{STORE}.rows"}, inside


@pytest.mark.parametrize("name", sorted(n for n in MODULES if not _in_store(n)))
def test_only_the_stores_public_face_is_used_outside_it(name: str) -> None:
    path = MODULES[name]
    wrong = []
    for i in _imports(name, path):
        target = _target(i)
        if target is None or not _in_store(target):
            continue
        if target != STORE:
            wrong.append(f"line {i.line}: {target}")
        elif i.name is not None and i.name.startswith("_"):
            wrong.append(f"line {i.line}: {STORE}.{i.name}")
    # a private attribute of an object called ...store (``store._writer``)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                and not node.attr.startswith("__"):
            owner = node.value
            owner_name = owner.attr if isinstance(owner, ast.Attribute) else \
                owner.id if isinstance(owner, ast.Name) else ""
            if owner_name.lower().endswith("store"):
                wrong.append(f"line {node.lineno}: {owner_name}.{node.attr}")
    assert not wrong, f"{name} reaches inside the store: {wrong}"
