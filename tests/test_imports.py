"""Every module of agentkit imports alone, and no two modules import each other, however indirectly.

A cycle works only while something else imports its modules in the right order (the package's `__init__`), so
it breaks the day that order changes. The graph below counts what a plain AST walk of one file misses: the
imports under `if TYPE_CHECKING:`, and the `__init__` of every package on an imported module's path (importing
`agentkit.tools.contract` runs `agentkit/tools/__init__.py` first). Only the root `agentkit/__init__.py` is left
out as a target: it is the public API on top of everything, and no module of the package imports it for names.
"""

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "agentkit"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name), `__main__` scripts left out."""
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py")) if path.name != "__main__.py"}


def imports_at_load(source: str, here: str, is_package: bool) -> set[str]:
    """The agentkit modules that loading `source` (the module `here`) imports: at its top level, in a `try`, an
    `if` or `if TYPE_CHECKING:`; not inside a function, whose import runs only when it is called."""
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the package `here` is in (or is)
                    package = here.split(".")[: len(here.split(".")) - node.level + is_package]
                    base = ".".join(package + ([base] if base else []))
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in node.names)  # `from agentkit import frameworks`
            elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for field in ("body", "orelse", "finalbody", "handlers"):
                    visit([child for child in getattr(node, field, []) if isinstance(child, (ast.stmt, ast.excepthandler))])
            if isinstance(node, ast.ExceptHandler):
                visit(node.body)

    visit(ast.parse(source).body)
    return found


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """module -> the modules of `sources` it imports, each imported module's parent packages included (not the root)."""
    graph: dict[str, set[str]] = {}
    for name, (source, is_package) in sources.items():
        targets = set()
        inside = {".".join(name.split(".")[:end]) for end in range(1, name.count(".") + 2 - (not is_package))}
        for target in imports_at_load(source, name, is_package):
            parts = target.split(".")
            # Importing agentkit.tools.x runs agentkit/tools/__init__.py first, unless the importer is inside
            # agentkit.tools: then that package is already loading (Python loads a package before its modules).
            targets |= {".".join(parts[:end]) for end in range(2, len(parts) + 1)} - inside
        graph[name] = {target for target in targets if target in sources and target != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted: the import cycles."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def package_sources() -> dict[str, tuple[str, bool]]:
    return {name: (path.read_text(encoding="utf-8"), path.name == "__init__.py")
            for name, path in modules().items() if name != "agentkit"}


def test_no_import_cycle_among_agentkit_modules():
    assert cycles(import_graph(package_sources())) == []


def test_the_cycle_check_sees_a_cycle_through_a_package_init_and_type_checking():
    """The check can fail: the cycle of issue 35 (hardening importing the tools package, whose `__init__` imports
    hardening back) and one made only of type-checking imports are both found."""
    through_init = {
        "agentkit.tools": ("from agentkit.hardening.paths import follow\n", True),
        "agentkit.tools.contract": ("class ToolError(Exception): ...\n", False),
        "agentkit.hardening": ("", True),
        "agentkit.hardening.paths": ("from agentkit.tools.contract import ToolError\n", False),
    }
    assert cycles(import_graph(through_init)) == [["agentkit.hardening.paths", "agentkit.tools"]]
    typing_only = {
        "agentkit.events": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from agentkit.loop import Task\n", False),
        "agentkit.loop": ("from agentkit.events import Event\n", False),
    }
    assert cycles(import_graph(typing_only)) == [["agentkit.events", "agentkit.loop"]]
    lazy = {"agentkit.a": ("def f():\n    from agentkit.b import g\n", False), "agentkit.b": ("import agentkit.a\n", False)}
    assert cycles(import_graph(lazy)) == [], "an import inside a function runs when it is called, not at load"


def test_the_graph_sees_the_real_package():
    """The graph is not empty by mistake: known arrows of the package are in it."""
    graph = import_graph(package_sources())
    assert "agentkit.errors" in graph["agentkit.hardening.paths"]
    assert {"agentkit.tools", "agentkit.tools.contract"} <= graph["agentkit.tools.dispatcher"] | graph["agentkit.policy"]
    assert graph["agentkit.errors"] == set(), "the errors sit at the bottom: they import nothing of ours"


IMPORT_EACH_ALONE = """
import importlib, importlib.machinery, json, sys, types
root, names = sys.argv[1], json.loads(sys.argv[2])
failed = {}
for name in names:
    for loaded in [m for m in sys.modules if m == "agentkit" or m.startswith("agentkit.")]:
        del sys.modules[loaded]
    if name != "agentkit":  # the package's own __init__ left out: it must not be what makes the import work
        spec = importlib.machinery.ModuleSpec("agentkit", None, is_package=True)
        spec.submodule_search_locations = [root]
        package = importlib.util.module_from_spec(spec)
        sys.modules["agentkit"] = package
    try:
        importlib.import_module(name)
    except Exception as error:
        failed[name] = f"{type(error).__name__}: {error}"
print(json.dumps(failed))
"""


def test_every_module_imports_alone_in_a_fresh_interpreter():
    """Each module is imported after every agentkit module is forgotten and with an empty package `__init__`, so no
    earlier import can have put its dependencies in place (third-party libraries stay loaded: only our order counts).
    The modules are shared among a few interpreters that run side by side: each import runs a module's whole tree."""
    names = sorted(modules())
    workers = max(1, min(4, os.cpu_count() or 1))
    runs = [subprocess.Popen([sys.executable, "-c", "import importlib.util\n" + IMPORT_EACH_ALONE, str(PACKAGE),
                              json.dumps(names[start::workers])], stdout=subprocess.PIPE, text=True, cwd=PACKAGE.parent)
            for start in range(workers)]
    failed = {}
    for run in runs:
        out, _ = run.communicate()
        assert run.returncode == 0
        failed |= json.loads(out.splitlines()[-1])
    assert failed == {}


def test_the_import_check_sees_a_module_that_works_only_after_the_package_init(tmp_path):
    """The check can fail: in a package whose `__init__` imports `b` and then `a`, a module `a` that reads `b` off
    the package works through the `__init__`, and fails alone."""
    (tmp_path / "__init__.py").write_text("from agentkit import b, a\n")
    (tmp_path / "a.py").write_text("import agentkit\nVALUE = agentkit.b.VALUE\n")
    (tmp_path / "b.py").write_text("VALUE = 1\n")
    run = subprocess.run([sys.executable, "-c", "import importlib.util\n" + IMPORT_EACH_ALONE, str(tmp_path),
                          json.dumps(["agentkit.a", "agentkit.b"])], capture_output=True, text=True, check=True)
    assert list(json.loads(run.stdout.splitlines()[-1])) == ["agentkit.a"]


def test_every_public_name_comes_from_the_module_the_package_names_and_the_command_starts_without_the_sdk():
    """`agentkit/__init__.py` loads its public names on first use: each is found in its module, and loading the
    `agentkit` command's module (what the console script does before `main()` sets up Ctrl-C handling) imports
    neither the `openai` SDK nor pydantic, so a Ctrl-C while the command starts ends it with one line, not a traceback."""
    check = """
import sys, importlib
import agentkit.frontends.cli
heavy = sorted(name for name in ("openai", "pydantic", "jsonschema") if name in sys.modules)
import agentkit
wrong = [name for name, home in agentkit.HOME.items()
         if getattr(agentkit, name) is not getattr(importlib.import_module(home), name)]
print(heavy, wrong, sorted(agentkit.__all__) == agentkit.__all__, agentkit.tools.__name__)
"""
    run = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=True, cwd=PACKAGE.parent)
    assert run.stdout.split() == ["[]", "[]", "True", "agentkit.tools"]
