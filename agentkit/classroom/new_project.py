"""`agentkit new NAME` (chapter 13): a project for an agent of your own, in `./NAME`, from the files in project_template/.

It works as made (its test passes, its cases score, `agentkit chat --tools NAME:tools` serves it) and says with
TODOs where your tools, tests and cases go. NAME becomes the module your tests and the commands import, so it
must be one a Python import can find: a refusal (ValueError) says why a name cannot be one.
"""

from __future__ import annotations

import importlib.util
import keyword
import re
import sys
from pathlib import Path

TEMPLATES = Path(__file__).with_name("project_template")

FILES = {  # template -> (the file it becomes, what it is for); {{name}} in a name or a text becomes NAME
    "README.md": ("README.md", "the commands that test, evaluate and serve your agent"),
    "agent.py.tmpl": ("{{name}}.py", "the agent's tools (an example, and TODOs for yours) and its policy"),
    "system_prompt.txt": ("system_prompt.txt", "the agent's instructions"),
    "test_agent.py.tmpl": ("test_{{name}}.py", "a test with a scripted model; yours go beside it"),
    "cases.jsonl": ("cases.jsonl", "evaluation cases for `agentkit eval --cases`"),
    "pyproject.toml": ("pyproject.toml", "pytest's settings for this folder"),
    "gitignore": (".gitignore", "what stays out of version control (.env, workspace/)"),
}

EXAMPLE_TOOL = "save_note"
"""The tool the template comes with: the checks of chapter 13 count the tools you add beside it."""


def name_problem(name: str) -> str | None:
    """Why `name` cannot name an agent project (its module is imported by that name), or None if it can."""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        suggestion = re.sub(r"\W+", "_", name.strip()).strip("_").lower()
        suggestion = f"_{suggestion}" if suggestion[:1].isdigit() else suggestion
        return (f"{name!r} cannot be a Python module name: use letters, digits and underscores, not starting with a "
                f"digit" + (f", e.g. {suggestion}" if suggestion else ""))
    if keyword.iskeyword(name):
        return f"{name!r} is a Python keyword, so `import {name}` cannot work: pick another name, e.g. my_{name}"
    found = importlib.util.find_spec(name)
    if name in sys.stdlib_module_names or (found is not None and found.origin is not None):  # a bare folder is no module
        return f"{name!r} is the name of a module Python already has, which yours would hide: pick another, e.g. my_{name}"
    return None


def new_project(name: str, parent: str | Path = ".") -> list[tuple[Path, str]]:
    """Write the project `parent/name`, refusing a bad name or a folder that exists and is not empty.

    Returns each file written with what it is for. A ValueError says what is wrong, before anything is written.
    """
    problem = name_problem(name)
    if problem:
        raise ValueError(problem)
    folder = Path(parent) / name
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ValueError(f"{folder} already exists and is not empty: nothing was changed; pick another name, or "
                         "move that folder away first")
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for template, (target, purpose) in FILES.items():
        text = (TEMPLATES / template).read_text(encoding="utf-8").replace("{{name}}", name)
        path = folder / target.replace("{{name}}", name)
        path.write_text(text, encoding="utf-8")
        written.append((path, purpose))
    return written
