"""`agentkit eval --cases PATH --functions PATH` (or `--tools MODULE:FUNCTION`) scores a learner's own set, and says
what is wrong with a broken one."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

AGENTKIT = Path(sys.executable).with_name("agentkit")  # the script pip installed, as a learner runs it

TOOL = {"type": "function", "function": {
    "name": "add_expense", "description": "Record an expense: how much was spent, in euros, and on what.",
    "parameters": {"type": "object", "required": ["amount", "category"],
                   "properties": {"amount": {"type": "number", "description": "Euros spent, e.g. 12.5"},
                                  "category": {"type": "string", "enum": ["food", "travel", "books"],
                                               "description": "What it was spent on"}}}}}
CASES = [
    {"id": "add_1", "split": "train", "category": "single", "question": "I spent 12.5 euros on food.",
     "tools": ["add_expense"], "expected": [{"name": "add_expense", "arguments": {"amount": [12.5], "category": ["food"]}}]},
    {"id": "none_1", "split": "heldout", "category": "no_tool", "question": "Tell me a joke.",
     "tools": ["add_expense"], "expected": []},
]


def agentkit_eval(folder: Path, *arguments: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "MODEL_API_KEY": "", "MODEL": "offline"}
    return subprocess.run([str(AGENTKIT), "eval", *arguments], cwd=folder, env=environment,
                          capture_output=True, text=True, timeout=60)


def write_set(folder: Path, cases: list[dict]) -> None:
    (folder / "functions.json").write_text(json.dumps([TOOL]))
    (folder / "cases.jsonl").write_text("".join(json.dumps(case) + "\n" for case in cases))


@pytest.mark.skipif(not AGENTKIT.exists(), reason="agentkit is not installed as a script in this environment")
def test_own_files_are_scored_as_the_course_set_is(tmp_path):
    write_set(tmp_path, CASES)
    done = agentkit_eval(tmp_path, "--cases", "cases.jsonl", "--functions", "functions.json", "--show-failures")
    assert done.returncode == 0, done.stderr
    assert "| category | train | heldout |" in done.stdout and "| no_tool |" in done.stdout
    assert "2 cases:" in done.stdout and "| choose" not in done.stdout  # only this set's categories
    prompt = tmp_path / "prompt.txt"
    prompt.write_text("Answer in one sentence.")
    folder_form = agentkit_eval(tmp_path, "--cases", ".", "--functions", ".", "--system-prompt", str(prompt))
    assert folder_form.returncode == 0 and "2 cases:" in folder_form.stdout


@pytest.mark.skipif(not AGENTKIT.exists(), reason="agentkit is not installed as a script in this environment")
def test_a_broken_set_is_refused_with_what_to_fix(tmp_path):
    unknown_tool = {**CASES[0], "id": "bad", "tools": ["add_expense", "delete_everything"]}
    write_set(tmp_path, [CASES[0], unknown_tool])
    done = agentkit_eval(tmp_path, "--cases", "cases.jsonl", "--functions", "functions.json")
    assert done.returncode != 0 and "bad: delete_everything is offered but has no schema" in done.stderr
    write_set(tmp_path, [CASES[0], {**CASES[1], "split": "B"}])  # a split the table has no column for
    done = agentkit_eval(tmp_path, "--cases", "cases.jsonl", "--functions", "functions.json")
    assert done.returncode != 0 and "none_1: split 'B' is not one of train, heldout" in done.stderr
    (tmp_path / "cases.jsonl").write_text(json.dumps(CASES[0]) + "\n{\"id\": \"half\"}\n")
    done = agentkit_eval(tmp_path, "--cases", "cases.jsonl", "--functions", "functions.json")
    assert done.returncode != 0 and "line 2: not a case" in done.stderr and "Traceback" not in done.stderr
    done = agentkit_eval(tmp_path, "--cases", "missing.jsonl", "--functions", "functions.json")
    assert done.returncode != 0 and "missing.jsonl" in done.stderr and "Traceback" not in done.stderr


AGENT = '''
from agentkit import build_registry, tool


def tools(workspace):
    @tool
    def add_expense(amount: float, category: str) -> str:
        """Record an expense: how much was spent, in euros, and on what.

        Args:
            amount: Euros spent, e.g. 12.5
            category: What it was spent on
        """
        return "Recorded."

    return build_registry([add_expense])
'''


@pytest.mark.skipif(not AGENTKIT.exists(), reason="agentkit is not installed as a script in this environment")
def test_tools_give_the_schemas_and_a_case_without_tools_is_offered_them_all(tmp_path):
    (tmp_path / "my_agent.py").write_text(AGENT)
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps({k: v for k, v in case.items() if k != "tools"}) + "\n"
                                                  for case in CASES))
    done = agentkit_eval(tmp_path, "--cases", "cases.jsonl", "--tools", "my_agent:tools", "--show-failures")
    assert done.returncode == 0, done.stderr
    assert "2 cases:" in done.stdout and "| all | 1/1 (100%) | 1/1 (100%) |" in done.stdout, done.stdout
    both = agentkit_eval(tmp_path, "--cases", "cases.jsonl", "--tools", "my_agent:tools", "--functions", "x.json")
    assert both.returncode != 0 and "give --tools or --functions, not both" in both.stderr
    broken = agentkit_eval(tmp_path, "--cases", "cases.jsonl", "--tools", "my_agent:registry")
    assert broken.returncode != 0 and "has no function 'registry'" in broken.stderr and "Traceback" not in broken.stderr


@pytest.mark.skipif(not AGENTKIT.exists(), reason="agentkit is not installed as a script in this environment")
def test_a_wrong_setting_is_one_line_and_status_2(tmp_path):
    write_set(tmp_path, CASES)
    environment = {**os.environ, "MODEL_API_KEY": "", "MODEL": "offline/no_such_variant"}
    done = subprocess.run([str(AGENTKIT), "eval", "--cases", "cases.jsonl", "--functions", "functions.json"],
                          cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("agentkit eval: MODEL='offline/no_such_variant' names no variant")
    assert "Traceback" not in done.stderr
