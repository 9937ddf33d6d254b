"""Your own agent on the command line (chapter 13): `--tools module:function`, `--policy module:NAME` and
`--system-prompt FILE`, checked.

`agentkit chat`, `agentkit web` and `agentkit mcp` take all three (`agentkit eval` the tools and the prompt: it
scores the model's first calls, which no policy runs); each mistake is a `LoadError` (a ValueError) that says what to
write instead.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import ModuleType

from agentkit.config import ConfigError
from agentkit.policy import ToolPolicy
from agentkit.tools.contract import ToolDefinition
from agentkit.tools.registry import build_registry
from agentkit.tools.workspace import Workspace


class LoadError(ConfigError):
    """Your `--tools`, `--policy` or `--system-prompt` cannot be used: the message says what to write instead, and
    `key` and `values` say it for a front end in the person's language (`frontends.messages.error_for_the_person`)."""


def read_system_prompt(path: str | Path) -> str:
    """A system prompt from a text file (`--system-prompt FILE`); a ValueError that says why if it cannot be one."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise LoadError(f"cannot read the system prompt from {path}: {error}; give a UTF-8 text file", "prompt unreadable",
                        path=path, error=error) from None
    if not text.strip():
        raise LoadError(f"the system prompt file {path} is empty: write the agent's instructions in it", "prompt empty",
                        path=path)
    return text.strip()


Tools = Callable[[Workspace], dict[str, ToolDefinition]]
"""Your agent's tools for a workspace: what `--tools module:function` names, after `load_tools` has checked it."""


def load_tools(spec: str) -> Tools:
    """`module:function` or `path/to/file.py:function` -> your function, which takes the workspace and returns the registry.

    The function may return a registry (`build_registry([...])`) or a list of `ToolDefinition`s; a module name is
    looked up from the current folder first, as `python -m` would. A ValueError says what is wrong.
    """
    module, name = _imported("--tools", spec, "function", "naming a function that takes the workspace and returns "
                                                          "your registry")
    factory = getattr(module, name, None)
    if not callable(factory):
        names = sorted(n for n, v in vars(module).items()
                       if callable(v) and not isinstance(v, type) and not n.startswith("_"))  # a class makes no registry
        raise LoadError(f"--tools {spec!r}: {module.__name__} has no function {name!r}; its functions: {', '.join(names)}",
                        "no function", spec=spec, module=module.__name__, name=name, names=", ".join(names))

    def tools(workspace: Workspace) -> dict[str, ToolDefinition]:
        made = factory(workspace)
        if isinstance(made, Mapping):
            made = made.values()
        if not isinstance(made, Iterable):
            raise LoadError(f"--tools {spec!r} returned {type(made).__name__}: return build_registry([...]) or a list of "
                            "tools", "not a registry", spec=spec, type=type(made).__name__)
        return build_registry(made)  # checked as the course's registry is: names, duplicates, schemas

    return tools


def load_policy(spec: str) -> ToolPolicy:
    """`module:NAME` or `file.py:NAME` -> the `ToolPolicy` named NAME there (`agentkit new`'s module has `POLICY`).

    The tools it names are checked against the registry when a `ToolExecutor` is made with both.
    """
    module, name = _imported("--policy", spec, "NAME", "naming a ToolPolicy, e.g. my_agent:POLICY")
    policy = getattr(module, name, None)
    if not isinstance(policy, ToolPolicy):
        names = sorted(n for n, v in vars(module).items() if isinstance(v, ToolPolicy))
        raise LoadError(f"--policy {spec!r}: {module.__name__}.{name} is "
                        f"{'missing' if policy is None else 'a ' + type(policy).__name__}, not a ToolPolicy; "
                        f"its policies: {', '.join(names) or '(none: write POLICY = ToolPolicy(...) in it)'}",
                        "no policy" if policy is None else "not a policy", spec=spec, module=module.__name__, name=name,
                        type=type(policy).__name__, names=", ".join(names) or "—")
    return policy


def _imported(flag: str, spec: str, what: str, naming: str) -> tuple[ModuleType, str]:
    """The module and the name in `module:name` or `file.py:name`; a module is looked up from the current folder
    first, as `python -m` would. A ValueError says what to write instead."""
    where, _, name = spec.rpartition(":")
    if not where or not name.isidentifier():
        example = f"my_agent:{'tools' if flag == '--tools' else 'POLICY'}"
        raise LoadError(f"{flag} {spec!r}: write module:{what} ({example}) or file.py:{what}, {naming}", "spec", flag=flag,
                        spec=spec, what=what, example=example)
    try:
        if where.endswith(".py"):
            path = Path(where).resolve()
            found = importlib.util.spec_from_file_location(path.stem, path)
            if found is None or found.loader is None:
                raise ImportError(f"{path} is not a Python file")
            if path.stem in sys.modules and getattr(sys.modules[path.stem], "__file__", None) == str(path):
                return sys.modules[path.stem], name  # --tools and --policy from one file: one module, run once
            module = importlib.util.module_from_spec(found)
            sys.modules[path.stem] = module  # as an import would, so that pickling and dataclasses find it
            found.loader.exec_module(module)
        else:
            if str(Path.cwd()) not in sys.path:
                sys.path.insert(0, str(Path.cwd()))
            module = importlib.import_module(where)
    except (ImportError, OSError) as error:
        raise LoadError(f"{flag} {spec!r}: cannot import {where}: {error}", "import", flag=flag, spec=spec, where=where,
                        error=error) from None
    return module, name
