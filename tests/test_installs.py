"""Two installs: a learner's (`.[course]`, README's "Run the course") pulls none of the teacher's or maintainer's tools,
which come with `.[dev]` (README's "Run every test", the command `.ci/run` runs).

What an extra pulls is read from the metadata of the packages installed here (the dev install holds every one of
them), following each requirement's extras and markers as pip does: no network, no resolver.
"""

import re
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
TEACHERS_TOOLS = {"nbgrader", "jupyterhub", "playwright", "sphinx", "myst-nb", "nbval", "pytest-xdist", "ruff"}
"""What a learner's JupyterLab should not show (nbgrader's menus and panels) or wait for (the hub, the browser
driver, the site's toolchain, the test runners)."""


def pulled(name: str, extras: set[str]) -> set[str]:
    """Every distribution that installing name[extras] brings, by canonical name (name itself included)."""
    seen: dict[str, set[str]] = {}
    todo = [(name, set(extras))]
    while todo:
        name, extras = todo.pop()
        key = canonicalize_name(name)
        if key in seen and extras <= seen[key]:
            continue
        seen[key] = seen.get(key, set()) | extras
        try:
            requires = distribution(name).requires or []
        except PackageNotFoundError:
            pytest.fail(f"{name} is required but not installed here: install the dev extra")
        for requirement in map(Requirement, requires):
            wanted = requirement.marker is None or any(requirement.marker.evaluate({"extra": extra})
                                                       for extra in seen[key] | {""})
            if wanted:
                todo.append((requirement.name, set(requirement.extras)))
    return set(seen)


def test_the_learners_install_brings_no_teachers_tool_and_every_chapters_library():
    course = pulled("agentkit", {"course"})
    assert course & TEACHERS_TOOLS == set()
    # 08's web page, 11's MCP, 12's frameworks, 13's tests of your own agent, and JupyterLab itself
    assert {"fastapi", "uvicorn", "mcp", "langchain-openai", "openai-agents", "pytest", "hypothesis", "jupyterlab"} <= course


def test_the_maintainers_install_brings_every_tool_the_tests_and_the_teacher_use():
    assert TEACHERS_TOOLS <= pulled("agentkit", {"dev"})


def fenced_commands(text: str) -> list[str]:
    return re.findall(r"```bash\n(.*?)\n```", text, re.S)


def test_readme_runs_the_course_with_the_learners_install_and_the_tests_with_the_maintainers():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = fenced_commands(readme)
    course = [command for command in commands if "jupyter lab" in command]
    tests = [command for command in commands if "pytest" in command]
    assert course and all("pip install -e \".[course]\"" in command for command in course), course
    assert tests and all("pip install -e \".[dev]\"" in command for command in tests), tests
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert ci in tests, ".ci/run runs README's test command as it is written"
    teaching = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    assert ".[dev]" in teaching and "nbgrader" in teaching
