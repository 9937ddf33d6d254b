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
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import nbformat
import pytest

from agentkit.classroom.local_hub import LocalHub, free_port, missing_parts
from agentkit.frontends import cli

if (missing := missing_parts()) is not None:
    pytest.skip(f"no local JupyterHub here: {missing}", allow_module_level=True)
pytest.importorskip("nbgrader", reason="the nbgrader round trip needs the classroom extra")
from agentkit.classroom.hub import Kernel, Student, log_in, run_notebook, start_server, upload  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS, DEPLOY = ROOT / "notebooks", ROOT / "deploy" / "jupyterhub"
TEACHER, STUDENTS = "teacher", ["ada", "grace", "alan"]
CLASS_KEY = "sk-the-class-key-no-student-may-read"
ASSIGNMENT, EXERCISE_NOTEBOOK, COURSE_ID = "tool-use", "03_tool_registry.ipynb", "tool-use-class"


class Provider(BaseHTTPRequestHandler):
    """A stand-in for the class's provider: answers a chat completion only when given the class key."""

    keys: list[str] = []

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        Provider.keys.append(self.headers.get("Authorization", ""))
        ok = self.path == "/v1/chat/completions" and self.headers.get("Authorization") == f"Bearer {CLASS_KEY}"
        body = json.dumps({"id": "c1", "object": "chat.completion", "created": 0, "model": "class-model",
                           "choices": [{"index": 0, "finish_reason": "stop",
                                        "message": {"role": "assistant", "content": "answered through the relay"}}]}
                          if ok else {"error": {"message": "bad key"}}).encode()
        self.send_response(200 if ok else 401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("hub")
    provider = ThreadingHTTPServer(("127.0.0.1", 0), Provider)
    threading.Thread(target=provider.serve_forever, daemon=True).start()
    # The hub holds the class key twice over: as the relay's key (deploy/jupyterhub/class_config.py) and as a plain
    # MODEL_API_KEY in its own environment, which a careless setup would hand on to the students.
    environment = {"MODEL_API_KEY": CLASS_KEY, "CLASS_MODEL_API_KEY": CLASS_KEY, "CLASS_MODEL": "class-model",
                   "CLASS_BASE_URL": f"http://127.0.0.1:{provider.server_port}/v1", "CLASS_RELAY_PORT": str(free_port())}
    with LocalHub(folder, [TEACHER, *STUDENTS], admins=[TEACHER], environment=environment,
                  configs=[DEPLOY / "class_config.py"]) as running:
        # The relay's port was free when picked; until the relay listens on it, a student's server started now could
        # be given the same port, and the class model would then be asked of that server (a 403, once in CI).
        _wait_until_listening(int(environment["CLASS_RELAY_PORT"]), running)
        people = asyncio.run(_log_in_everyone(running.url))
        yield running, people
        started = running.processes()
        assert len(started) >= 2 + len(people), f"expected the hub, its proxy and {len(people)} servers: {started}"
    # Leaving the block stopped the hub; nothing it started may still run.
    provider.shutdown()
    assert running.leftovers == [], f"the hub left these running (now ended): {running.leftovers}"
    for pid in started:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def _wait_until_listening(port: int, running: LocalHub, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise TimeoutError(f"the class relay was not listening on port {port} after {seconds:.0f} s:\n"
                       f"{running.log.read_text()[-3000:]}")


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


def test_hub_class_model_goes_through_the_relay_with_a_students_own_token(hub) -> None:
    running, people = hub
    use_the_class_model = (
        "import os\nfrom agentkit.config import connect, load_settings\nos.makedirs('with-class-model', exist_ok=True)\n"
        f"open('with-class-model/.env', 'w').write({(DEPLOY / 'class.env').read_text()!r})\nos.chdir('with-class-model')\n"
        "settings = load_settings()\nreply = await connect(settings).chat.completions.create(\n"
        "    model=settings.model, messages=[{'role': 'user', 'content': 'hello'}])\n"
        "print(settings.offline, settings.model, reply.choices[0].message.content)\n"
        f"print({CLASS_KEY!r} in open('/proc/self/environ').read() + str(settings))")
    guess = ("import openai, os\nbogus = openai.OpenAI(api_key='a-guessed-token', base_url=os.environ['CLASS_BASE_URL'])\n"
             "try:\n    bogus.models.list()\nexcept openai.APIStatusError as error:\n    print(error.status_code)")

    async def one(student: Student) -> tuple[str, str]:
        async with Kernel(student) as kernel:
            return (await kernel.run(use_the_class_model)), (await kernel.run(guess))

    used, guessed = asyncio.run(one(people["grace"]))
    assert used.error is None and guessed.error is None, (used, guessed)
    assert used.printed.splitlines() == ["False class-model answered through the relay", "False"]
    assert guessed.printed.strip() == "403"  # a token the hub does not know is refused before the provider
    assert Provider.keys and set(Provider.keys) == {f"Bearer {CLASS_KEY}"}


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
