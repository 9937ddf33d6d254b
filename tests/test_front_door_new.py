"""`agentkit new NAME` through the installed script: the project it writes passes its own tests, its cases score, and
the `--tools NAME:tools` its README names loads in `agentkit chat`, driven in a real terminal as a learner would.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from front_door import (
    SCRIPT,
    environment,
    exercises,
    no_process_left,  # noqa: F401 (a fixture: nothing left running)
    run,
)

from agentkit.classroom.new_project import FILES, name_problem

NAME = "plant_log"


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """One project made by `agentkit new` for the tests of this module (each command it runs takes seconds)."""
    home = tmp_path_factory.mktemp("learner")
    made = run("new", NAME, cwd=home)
    assert (made.returncode, made.stderr) == (0, ""), made.stderr
    assert made.stdout.startswith(f"created {NAME}/:"), made.stdout
    return home / NAME


def readme_commands(project: Path) -> list[list[str]]:
    """The commands the project's README tells its reader to type, split into words."""
    blocks = re.findall(r"```\n(.*?)```", (project / "README.md").read_text(encoding="utf-8"), re.S)
    return [line.split() for block in blocks for line in block.splitlines() if line.strip()]


@exercises("new")
def test_the_project_has_every_file_and_no_placeholder_left(project):
    written = sorted(path.name for path in project.iterdir())
    assert written == sorted(target.replace("{{name}}", NAME) for target, _ in FILES.values())
    for path in project.iterdir():
        assert "{{" not in path.read_text(encoding="utf-8"), path.name
    assert ["python", "-m", "pytest"] in readme_commands(project)


def test_the_projects_own_tests_pass_with_its_own_settings(project):
    tests = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--rootdir", str(project)],
                           cwd=project, env=environment(project), capture_output=True, text=True, timeout=300)
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert re.search(r"\b1 passed\b", tests.stdout), tests.stdout
    assert not (project / ".pytest_cache").exists()


def test_its_cases_are_scored_by_the_eval_command_its_readme_names(project):
    (command,) = [words for words in readme_commands(project) if words[:2] == ["agentkit", "eval"]]
    assert command[command.index("--tools") + 1] == f"{NAME}:tools"
    scored = run(*command[1:], cwd=project)
    assert scored.returncode == 0, scored.stderr
    lines = (project / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    total = re.search(r"^\| all \| (\d+)/(\d+) .*\| (\d+)/(\d+) ", scored.stdout, re.M)
    assert total and int(total[2]) + int(total[4]) == len(lines), scored.stdout
    assert f"{len(lines)} cases:" in scored.stdout


def test_the_tools_its_readme_names_load_in_agentkit_chat_and_are_used(project):
    (command,) = [words for words in readme_commands(project) if words[:2] == ["agentkit", "chat"]]
    child = pexpect.spawn(str(SCRIPT), command[1:], cwd=str(project), env=environment(project.parent), encoding="utf-8",
                          codec_errors="replace", timeout=60, dimensions=(50, 250))
    child.expect_exact("you> ")
    child.sendline("Save a note: water the fern on Sunday")
    child.expect_exact("you> ")
    printed = child.before.replace("\r\n", "\n")
    assert '-> save_note {"text": "water the fern on Sunday"}' in printed, printed
    assert "<- Saved the note: water the fern on Sunday" in printed, printed
    child.sendline("/exit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert (project / "workspace" / "notes.txt").read_text() == "water the fern on Sunday\n"


def test_a_folder_that_is_not_empty_is_left_alone_with_status_2(tmp_path):
    (tmp_path / NAME).mkdir()
    (tmp_path / NAME / "mine.txt").write_text("keep me")
    refused = run("new", NAME, cwd=tmp_path)
    assert refused.returncode == 2
    assert refused.stderr == (f"agentkit new: {NAME} already exists and is not empty: nothing was changed; pick another "
                              "name, or move that folder away first\n")
    assert [path.name for path in (tmp_path / NAME).iterdir()] == ["mine.txt"]


@pytest.mark.parametrize(("name", "says"), [
    ("my-agent", "cannot be a Python module name: use letters, digits and underscores, not starting with a digit, "
                 "e.g. my_agent"),
    ("2048", "cannot be a Python module name"),
    ("class", "is a Python keyword"),
    ("json", "is the name of a module Python already has"),
    ("openai", "is the name of a module Python already has"),
])
def test_a_name_that_cannot_be_a_module_is_refused_with_what_to_write(tmp_path, name, says):
    assert says in name_problem(name)
    refused = run("new", name, cwd=tmp_path)
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr.startswith(f"agentkit new: {name!r} ") and says in refused.stderr
    assert not any(tmp_path.iterdir()), "nothing is written for a refused name"


def test_an_empty_folder_of_that_name_is_used(tmp_path):
    (tmp_path / NAME).mkdir()
    assert run("new", NAME, cwd=tmp_path).returncode == 0
    assert (tmp_path / NAME / f"{NAME}.py").is_file()
    cases = [json.loads(line) for line in (tmp_path / NAME / "cases.jsonl").read_text().splitlines()]
    assert {case["category"] for case in cases} == {"choose", "no_tool"}
