"""The package's layers, checked against its import graph (no module imports from a layer above its own), and its modules' length.

The table below is the structure picture of docs/teaching.md ("The package's layers") in data: every module of
agentkit/ belongs to exactly one layer, and a module may import only from its own layer or from a lower one.
Imports inside functions count too: a lazy import is still an arrow.
"""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "agentkit"

LAYERS: list[tuple[str, tuple[str, ...]]] = [  # lowest first
    ("tools", ("_jsonschema_import", "limits", "asking", "tools")),
    ("offline model", ("offline",)),
    ("teaching core", ("config", "manual", "function_line", "recovery", "text_calls", "replies", "stream_chunks", "streaming",
                       "messages", "decisions", "policy", "events", "turn", "tool_calls", "loop", "transcript", "agent",
                       "history")),
    ("chapter extensions", ("evaluation", "mcp", "mcp_client", "frameworks")),
    ("classroom", ("checks", "classroom")),
    ("front ends", ("cli", "commands", "chat", "terminal", "line_editing", "web", "interrupts", "reexec", "undumpable", "visible",
                    "__init__")),
]
"""(layer, the top-level modules or subpackages of agentkit in it). `agentkit/__init__.py` re-exports the public
names, so it sits on top; `import agentkit` for the package's path is allowed anywhere."""


def layer_of(module: str) -> int:
    """The index in LAYERS of `agentkit.x.y`'s layer, found by its first part `x`."""
    first = module.split(".")[1] if "." in module else "__init__"
    for index, (_, members) in enumerate(LAYERS):
        if first in members:
            return index
    raise AssertionError(f"agentkit.{first} is in no layer of tests/test_layers.py: add it to LAYERS")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" and len(parts) > 2 else parts)


def imported(source: str) -> set[str]:
    """Every agentkit module the module `source` imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("agentkit.")}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("agentkit."):
                found.add(node.module)
            elif node.module == "agentkit":  # `from agentkit import frameworks`: the names are modules
                found |= {f"agentkit.{alias.name}" for alias in node.names}
    return found


def upward_imports() -> list[str]:
    arrows = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        here = layer_of(name)
        for target in sorted(imported(path.read_text(encoding="utf-8"))):
            if layer_of(target) > here:
                arrows.append(f"{name} ({LAYERS[here][0]}) imports {target} ({LAYERS[layer_of(target)][0]})")
    return arrows


def test_every_module_is_in_a_layer():
    for path in PACKAGE.rglob("*.py"):
        layer_of(module_name(path))


def test_no_module_imports_from_a_layer_above_its_own():
    assert upward_imports() == []


def test_the_check_sees_an_upward_arrow():
    """The check can fail: the arrow it was written for (offline/__main__ importing the CLI) counts as upward."""
    assert imported("def main():\n    from agentkit.cli import main\n") == {"agentkit.cli"}
    assert imported("from agentkit import frameworks\nimport agentkit\n") == {"agentkit.frameworks"}
    assert layer_of("agentkit.cli") > layer_of("agentkit.offline.__main__")
    assert layer_of("agentkit.chat") > layer_of("agentkit.loop") > layer_of("agentkit.tools.dispatcher")


FRONT_ENDS = ("chat", "web")
"""The two front ends around the loop: what both need (the course agent, the task's stop) lives below them."""


def test_the_front_ends_do_not_import_each_other():
    arrows = [f"{module_name(path)} imports {target}"
              for front in FRONT_ENDS for path in sorted(PACKAGE.glob(f"{front}*.py")) + sorted(PACKAGE.glob(f"{front}/*.py"))
              for target in sorted(imported(path.read_text(encoding="utf-8")))
              if target.split(".")[1] in FRONT_ENDS and target.split(".")[1] != front]
    assert arrows == []


MAX_MODULE_LINES = 300
"""A module a learner reads in one sitting: every line counts, docstrings and blanks too. The design's ceiling
(COURSE_DESIGN section 2, issue 26 item 6): 200 had been met by splitting one idea across files at the cap."""

def module_lines() -> dict[str, int]:
    return {str(path.relative_to(PACKAGE)): len(path.read_text(encoding="utf-8").splitlines())
            for path in sorted(PACKAGE.rglob("*.py"))}


def test_every_module_fits_in_one_sitting():
    over = {name: lines for name, lines in module_lines().items() if lines > MAX_MODULE_LINES}
    assert not over, f"modules over {MAX_MODULE_LINES} lines: {over}"
