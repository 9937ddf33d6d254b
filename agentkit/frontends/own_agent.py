"""Your own agent on the command line (chapter 13): `--tools module:function` and `--system-prompt FILE`, checked.

`agentkit chat`, `agentkit web`, `agentkit mcp` and `agentkit eval` take them; each mistake is a ValueError that
says what to write instead.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from agentkit.tools.contract import ToolDefinition
from agentkit.tools.registry import build_registry
from agentkit.tools.workspace import Workspace


def read_system_prompt(path: str | Path) -> str:
    """A system prompt from a text file (`--system-prompt FILE`); a ValueError that says why if it cannot be one."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read the system prompt from {path}: {error}; give a UTF-8 text file") from None
    if not text.strip():
        raise ValueError(f"the system prompt file {path} is empty: write the agent's instructions in it")
    return text.strip()


Tools = Callable[[Workspace], dict[str, ToolDefinition]]
"""Your agent's tools for a workspace: what `--tools module:function` names, after `load_tools` has checked it."""


def load_tools(spec: str) -> Tools:
    """`module:function` or `path/to/file.py:function` -> your function, which takes the workspace and returns the registry.

    The function may return a registry (`build_registry([...])`) or a list of `ToolDefinition`s; a module name is
    looked up from the current folder first, as `python -m` would. A ValueError says what is wrong.
    """
    where, _, name = spec.rpartition(":")
    if not where or not name.isidentifier():
        raise ValueError(f"--tools {spec!r}: write module:function (my_agent:tools) or file.py:function, "
                         "naming a function that takes the workspace and returns your registry")
    try:
        if where.endswith(".py"):
            path = Path(where).resolve()
            found = importlib.util.spec_from_file_location(path.stem, path)
            if found is None or found.loader is None:
                raise ImportError(f"{path} is not a Python file")
            module = importlib.util.module_from_spec(found)
            sys.modules[path.stem] = module  # as an import would, so that pickling and dataclasses find it
            found.loader.exec_module(module)
        else:
            if str(Path.cwd()) not in sys.path:
                sys.path.insert(0, str(Path.cwd()))
            module = importlib.import_module(where)
    except (ImportError, OSError) as error:
        raise ValueError(f"--tools {spec!r}: cannot import {where}: {error}") from None
    factory = getattr(module, name, None)
    if not callable(factory):
        names = sorted(n for n, v in vars(module).items() if callable(v) and not n.startswith("_"))
        raise ValueError(f"--tools {spec!r}: {where} has no function {name!r}; its functions: {', '.join(names)}")

    def tools(workspace: Workspace) -> dict[str, ToolDefinition]:
        made = factory(workspace)
        if isinstance(made, Mapping):
            made = made.values()
        if not isinstance(made, Iterable):
            raise ValueError(f"--tools {spec!r} returned {type(made).__name__}: return build_registry([...]) "
                             "or a list of tools")
        return build_registry(made)  # checked as the course's registry is: names, duplicates, schemas

    return tools
