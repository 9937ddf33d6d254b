"""A class on a real JupyterHub: a teacher and three students log in, each runs chapter 00 in their own kernel, and
one assignment goes through nbgrader's release, fetch, submit, collect and autograde across their servers.

The hub runs on 127.0.0.1 with its proxy from npm (configurable-http-proxy), the dummy authenticator and a local
process spawner (agentkit.classroom.local_hub); everything else goes through the hub's doors as people would
(agentkit.classroom.hub). The hub holds a class key, which no student's kernel may see. Skipped, saying why, where
jupyterhub or the proxy is not installed; CI installs both.
"""

from __future__ import annotations

import asyncio
import configparser
import json
import os
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from agentkit import cli
from agentkit.classroom.local_hub import LocalHub, missing_parts

if (missing := missing_parts()) is not None:
    pytest.skip(f"no local JupyterHub here: {missing}", allow_module_level=True)
pytest.importorskip("nbgrader", reason="the nbgrader round trip needs the classroom extra")
from agentkit.classroom.hub import Kernel, Student, log_in, run_notebook, start_server, upload  # noqa: E402

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
TEACHER, STUDENTS = "teacher", ["ada", "grace", "alan"]
CLASS_KEY = "sk-the-class-key-no-student-may-read"
ASSIGNMENT, EXERCISE_NOTEBOOK, COURSE_ID = "tool-use", "03_tool_registry.ipynb", "tool-use-class"


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("hub")
    with LocalHub(folder, [TEACHER, *STUDENTS], admins=[TEACHER], environment={"MODEL_API_KEY": CLASS_KEY}) as running:
        people = asyncio.run(_log_in_everyone(running.url))
        yield running, people
        started = running.processes()
        assert len(started) >= 2 + len(people), f"expected the hub, its proxy and {len(people)} servers: {started}"
    # Leaving the block stopped the hub; nothing it started may still run.
    assert running.leftovers == [], f"the hub left these running (now ended): {running.leftovers}"
    for pid in started:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def _log_in_everyone(url: str) -> dict[str, Student]:
    people = await asyncio.gather(*(log_in(url, name, "class") for name in [TEACHER, *STUDENTS]))
    await asyncio.gather(*(start_server(person) for person in people))
    return {person.name: person for person in people}


def test_hub_refuses_a_wrong_password(hub) -> None:
    running, _ = hub
    with pytest.raises(PermissionError, match="refused"):
        asyncio.run(log_in(running.url, "ada", "not the class password"))


def test_hub_students_run_chapter_00_in_their_own_kernels_without_the_class_key(hub) -> None:
    running, people = hub
    probe = ("import os, getpass\nprint(os.getcwd())\nprint(os.environ.get('JUPYTERHUB_USER'))\n"
             f"print({CLASS_KEY!r} in str(dict(os.environ)), 'MODEL_API_KEY' in os.environ)")

    async def one(student: Student) -> tuple[list, str]:
        await upload(student, NOTEBOOKS / "00_setup.ipynb", "course/00_setup.ipynb")
        ran = await run_notebook(student, NOTEBOOKS / "00_setup.ipynb", cwd="course")
        async with Kernel(student, "course") as kernel:
            return ran, (await kernel.run(probe)).printed

    results = asyncio.run(_gather(one(people[name]) for name in STUDENTS))
    stored = [_sanitized(_printed(cell)) for cell in _code_cells(NOTEBOOKS / "00_setup.ipynb")]
    for name, (ran, seen) in zip(STUDENTS, results, strict=True):
        assert [cell.error for cell in ran] == [None] * len(ran), name
        assert [_sanitized(cell.printed) for cell in ran] == stored, f"{name}'s chapter 00 printed something else"
        home = running.folder / "home" / name
        assert seen.splitlines() == [str(home / "course"), name, "False False"], name


def test_hub_nbgrader_release_fetch_submit_collect_autograde_across_the_class(hub, tmp_path: Path) -> None:
    running, people = hub
    exchange = running.folder / "exchange"
    exchange.mkdir(exist_ok=True)
    exchange.chmod(0o777)  # nbgrader's exchange: every account of the class writes to it
    teacher_copy = tmp_path / "teacher"
    shutil.copytree(NOTEBOOKS / "data", teacher_copy / "data")
    shutil.copy(NOTEBOOKS / EXERCISE_NOTEBOOK, teacher_copy)
    cli.main(["classroom", "nbgrader", str(tmp_path / "source" / ASSIGNMENT), "--course", str(teacher_copy)])
    config = tmp_path / "nbgrader_config.py"
    config.write_text(_nbgrader_config(exchange))
    solutions = {cell.metadata["nbgrader"]["grade_id"]: cell.source
                 for cell in nbformat.read(tmp_path / "source" / ASSIGNMENT / EXERCISE_NOTEBOOK, as_version=4).cells
                 if cell.metadata.get("nbgrader", {}).get("solution")}
    answers = {"ada": solutions, "grace": {"exercise-3-1": solutions["exercise-3-1"]}, "alan": {}}

    async def round_trip() -> dict:
        teacher = people[TEACHER]
        await upload(teacher, tmp_path / "source", "course/source")
        await upload(teacher, config, "course/nbgrader_config.py")
        async with Kernel(teacher, "course") as desk:
            await _nbgrader(desk, "generate_assignment", ASSIGNMENT)
            await _nbgrader(desk, "release_assignment", ASSIGNMENT)
            await _gather(_student_turn(people[name], config, answers[name]) for name in STUDENTS)
            await _nbgrader(desk, "collect", ASSIGNMENT)
            await _nbgrader(desk, "autograde", ASSIGNMENT, "--create")
            scores = await desk.run(
                "from nbgrader.api import Gradebook\nwith Gradebook('sqlite:///gradebook.db') as book:\n"
                f"    print(json.dumps({{s: book.find_submission({ASSIGNMENT!r}, s).score for s in {STUDENTS!r}}}))")
        assert scores.error is None, scores.error
        return json.loads(scores.printed.splitlines()[-1])

    assert asyncio.run(round_trip()) == {"ada": 2.0, "grace": 1.0, "alan": 0.0}
    release = nbformat.read(running.folder / "home" / "alan" / ASSIGNMENT / EXERCISE_NOTEBOOK, as_version=4)
    assert "BEGIN SOLUTION" not in "\n".join(cell.source for cell in release.cells), "a solution reached a student"


async def _student_turn(student: Student, config: Path, answers: dict[str, str]) -> None:
    """Fetch the assignment, answer some exercises in the fetched notebook, submit: all in the student's kernel."""
    await upload(student, config, "nbgrader_config.py")
    async with Kernel(student) as kernel:
        await _nbgrader(kernel, "fetch_assignment", ASSIGNMENT)
        answered = await kernel.run(
            f"import nbformat\npath = {ASSIGNMENT!r} + '/' + {EXERCISE_NOTEBOOK!r}\nanswers = {answers!r}\n"
            "notebook = nbformat.read(path, as_version=4)\nfor cell in notebook.cells:\n"
            "    grade_id = cell.metadata.get('nbgrader', {}).get('grade_id')\n"
            "    if grade_id in answers:\n        cell.source = answers[grade_id]\n"
            "nbformat.write(notebook, path)")
        assert answered.error is None, answered.error
        await _nbgrader(kernel, "submit", ASSIGNMENT)


async def _nbgrader(kernel: Kernel, *arguments: str) -> None:
    """Run an nbgrader command in a person's kernel (their account, their home), as they would in a terminal."""
    ran = await kernel.run(f"import json, subprocess, sys\ndone = subprocess.run([sys.executable, '-m', 'nbgrader', "
                           f"*{list(arguments)!r}], capture_output=True, text=True)\n"
                           "print(done.returncode)\nprint(done.stdout[-2000:] + done.stderr[-2000:])", timeout=600)
    assert ran.error is None and ran.printed.startswith("0\n"), f"nbgrader {' '.join(arguments)}: {ran.printed}{ran.error}"


def _nbgrader_config(exchange: Path) -> str:
    # deploy/jupyterhub/nbgrader_config.py says the same for a real hub; this hub's servers share one system account,
    # so a student's id is the hub's name for them (JUPYTERHUB_USER), not the account's.
    return (f"import os\nc = get_config()\nc.CourseDirectory.course_id = {COURSE_ID!r}\nc.Exchange.root = {str(exchange)!r}\n"
            "c.CourseDirectory.db_url = 'sqlite:///gradebook.db'\n"
            "if os.environ.get('JUPYTERHUB_USER') != 'teacher':\n"
            "    c.CourseDirectory.student_id = os.environ['JUPYTERHUB_USER']\n")


async def _gather(coroutines) -> list:
    return list(await asyncio.gather(*coroutines))


def _code_cells(notebook: Path) -> list:
    return [cell for cell in nbformat.read(notebook, as_version=4).cells if cell.cell_type == "code"]


def _printed(cell) -> str:
    return "".join(output.text for output in cell.outputs if output.output_type == "stream")


def _sanitized(text: str) -> str:
    """nbval's view of an output: the rules of notebooks/sanitize.cfg (clock times, temporary paths) applied."""
    rules = configparser.ConfigParser()
    rules.read(NOTEBOOKS / "sanitize.cfg")
    for section in rules.sections():
        text = re.sub(rules[section]["regex"], rules[section]["replace"], text)
    return text
