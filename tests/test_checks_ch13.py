"""Chapter 13's checks pass any project with two working tools, a passing test of one and five sound cases; they say
"todo" for the project as `agentkit new` wrote it, and what is wrong with the others."""

import asyncio
import json

import pytest

from agentkit.checks.ch13 import check_exercise_13_1, check_exercise_13_2, check_exercise_13_3
from agentkit.classroom.new_project import new_project

NAME = "plants"

TOOLS = '''
import json
from pathlib import Path

from agentkit import Limits, ToolError, ToolPolicy, build_registry, tool

SYSTEM_PROMPT = Path(__file__).with_name("system_prompt.txt").read_text()
POLICY = ToolPolicy(limits=Limits(max_tool_calls_per_task=4))


def tools(workspace):
    log = workspace.root / "log.json"

    def entries():
        return json.loads(log.read_text()) if log.exists() else {}

    @tool
    def water_plant(plant: str, day: str) -> str:
        """Record that a plant was watered on a given day.

        Args:
            plant: Which plant, e.g. "fern".
            day: The date, YYYY-MM-DD.
        """
        if len(day) != 10:
            raise ToolError(f"day must be YYYY-MM-DD, got {day!r}")
        log.write_text(json.dumps({**entries(), plant: day}))
        return f"Watered the {plant} on {day}."

    @tool
    def last_watered(plant: str) -> str:
        """When a plant was last watered.

        Args:
            plant: Which plant, e.g. "fern".
        """
        return entries().get(plant, "never")

    return build_registry([water_plant, last_watered])
'''

TEST = '''


def test_a_watering_is_read_back(tmp_path):
    run(tmp_path, "I watered the fern", [call("water_plant", plant="fern", day="2026-03-02"), "Noted."])
    task, model = run(tmp_path, "When?", [call("last_watered", plant="fern"), "On 2 March."])
    assert model.requests[1]["messages"][-1]["content"] == "2026-03-02"
'''


def case(id, question, *calls, split="train"):
    return {"id": id, "split": split, "category": "choose" if calls else "no_tool", "question": question,
            "expected": [{"name": name, "arguments": arguments} for name, arguments in calls]}


CASES = [case("w1", "I watered the fern on 2026-03-02", ("water_plant", {"plant": ["fern"], "day": ["2026-03-02"]})),
         case("w2", "Basil watered 2026-03-05", ("water_plant", {"plant": ["basil"], "day": ["2026-03-05"]}), split="heldout"),
         case("l1", "When did I last water the fern?", ("last_watered", {"plant": ["fern"]})),
         case("l2", "Last watering of the basil?", ("last_watered", {"plant": ["basil"]}), split="heldout"),
         case("n1", "What is the capital of Portugal?")]


@pytest.fixture
def project(tmp_path):
    new_project(NAME, tmp_path)
    return tmp_path / NAME


def finished(project):
    """The project with the reference answers: two tools, a test of them, five cases (the example's dropped)."""
    (project / f"{NAME}.py").write_text(TOOLS)
    tests = project / f"test_{NAME}.py"
    tests.write_text(tests.read_text().split("\n\n\ndef test_")[0] + TEST)
    (project / "cases.jsonl").write_text("".join(json.dumps(c) + "\n" for c in CASES))
    return project


def run(check, project, capsys):
    passed = asyncio.run(check({"project": project, "NAME": NAME}))
    return passed, capsys.readouterr().out


def test_the_reference_answers_pass(project, capsys):
    for check in (check_exercise_13_1, check_exercise_13_2, check_exercise_13_3):
        passed, printed = run(check, finished(project), capsys)
        assert passed, printed


def test_the_project_as_agentkit_new_wrote_it_is_todo(project, capsys):
    for check in (check_exercise_13_1, check_exercise_13_2, check_exercise_13_3):
        passed, printed = run(check, project, capsys)
        assert not passed and printed.startswith("[todo]"), printed


def replace(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


@pytest.mark.parametrize(("change", "hint"), [
    (lambda p: replace(p / f"{NAME}.py", "[water_plant, last_watered]", "[water_plant]"),
     "1 tool of yours (water_plant); write two"),
    (lambda p: replace(p / f"{NAME}.py", '"""When a plant was last watered.', '"""Last.'),
     "last_watered's description is 'Last.'"),
    (lambda p: replace(p / f"{NAME}.py", 'plant: Which plant, e.g. "fern".\n        """\n        return',
                       '"""\n        return'),
     "raised ToolDefinitionError: Tool 'last_watered': argument 'plant' is not described"),
    (lambda p: replace(p / f"{NAME}.py", "return build_registry([water_plant, last_watered])", "return 'water_plant'"),
     "must return build_registry"),
])
def test_exercise_13_1_says_what_is_wrong(project, capsys, change, hint):
    change(finished(project))
    passed, printed = run(check_exercise_13_1, project, capsys)
    assert not passed and hint in printed, printed


def test_exercise_13_2_fails_a_test_that_fails_or_names_no_tool_of_yours(project, capsys):
    finished(project)
    replace(project / f"test_{NAME}.py", '== "2026-03-02"', '== "2026-03-03"')
    passed, printed = run(check_exercise_13_2, project, capsys)
    assert not passed and "python -m pytest in plants/ does not pass: 1 failed" in printed, printed
    replace(project / f"test_{NAME}.py", TEST.replace('== "2026-03-02"', '== "2026-03-03"'),
            "\n\n\ndef test_nothing():\n    assert True\n")
    passed, printed = run(check_exercise_13_2, project, capsys)
    assert not passed and "name none of your tools (last_watered, water_plant)" in printed, printed


@pytest.mark.parametrize(("cases", "hint"), [
    (CASES[:4], "4 case(s) of yours; write at least 5"),
    ([*CASES, CASES[0]], "share an id"),
    ([*CASES, case("x", "Water it", ("water_plant", {"plant": ["fern"]}))], "list every declared parameter"),
    ([*CASES, case("x", "Water it", ("water_plant", {"plant": ["fern"], "day": [12]}))], "is not a valid 'day'"),
    ([*CASES, case("x", "Prune it", ("prune", {}))], "prune is expected but not offered"),
    ([c for c in CASES if c["id"] != "l1" and c["id"] != "l2"] + [case("n2", "Hi?"), case("n3", "Hello?")],
     "no case of yours expects a call to last_watered"),
    ([c for c in CASES if c["id"] != "n1"] + [case("w3", "Water the fig on 2026-01-01",
                                                   ("water_plant", {"plant": ["fig"], "day": ["2026-01-01"]}))],
     "no case of yours checks abstention"),
])
def test_exercise_13_3_says_what_is_wrong(project, capsys, cases, hint):
    finished(project)
    (project / "cases.jsonl").write_text("".join(json.dumps(c) + "\n" for c in cases))
    passed, printed = run(check_exercise_13_3, project, capsys)
    assert not passed and hint in printed, printed


def test_a_missing_project_says_to_run_agentkit_new_again(tmp_path, capsys):
    passed, printed = run(check_exercise_13_1, tmp_path / NAME, capsys)
    assert not passed and "run the cell with `agentkit new` again" in printed
