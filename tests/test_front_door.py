"""Every command the docs tell a reader to type works through the installed script, refuses early, and ends cleanly.

The first test reads README.md, docs/*.md and the notebooks' prose for the commands they show, and fails
when one of them has no test here (or in tests/test_front_door_*.py) that runs it as a reader would.
"""

from __future__ import annotations

import asyncio
import csv
import importlib
import json
import re
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import nbformat
import openai
import pytest
from front_door import (
    EXERCISED,
    SCRIPT,
    Running,
    exercises,
    no_process_left,  # noqa: F401 (a fixture: nothing left running)
    run,
)
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parent.parent
CODE = re.compile(r"```.*?```|`[^`\n]+`", re.S)
"""Fenced blocks and inline code: where a reader is shown what to type."""
COMMAND = re.compile(r"(?:^|&&|;|\$ |!)\s*(?:[\w./-]*/)?(?:agentkit ((?:classroom )?[a-z][\w-]*)"
                     r"|python3? -m (agentkit[\w.]*))")
"""`agentkit <command>` (`classroom <edition>`) or `python -m agentkit...` where a shell command starts."""


def documented_commands() -> dict[str, set[str]]:
    """Each command the docs show a reader, and the files that show it."""
    texts = {path: path.read_text(encoding="utf-8") for path in [ROOT / "README.md", *sorted(ROOT.glob("docs/*.md"))]}
    for path in sorted(ROOT.glob("notebooks/**/*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        texts[path] = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    found: dict[str, set[str]] = {}
    for path, text in texts.items():
        for code in CODE.findall(text):
            for line in code.strip("`").splitlines():
                for match in COMMAND.finditer(line.split("  #")[0]):
                    command = match[1] or f"python -m {match[2]}"
                    found.setdefault(command, set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_documented_command_is_run_by_a_test_through_the_installed_script():
    for module in sorted(Path(__file__).parent.glob("test_front_door_*.py")):  # their tests register too
        importlib.import_module(module.stem)
    documented = documented_commands()
    assert {"serve", "chat", "web", "mcp", "eval", "refresh", "classroom student"} <= set(documented), documented
    untested = {command: sorted(files) for command, files in documented.items() if command not in EXERCISED}
    assert not untested, f"documented commands that no test runs through {SCRIPT.name}: {untested}"


def test_the_coverage_check_sees_a_command_missing_from_the_tests(monkeypatch):
    monkeypatch.delitem(EXERCISED, "serve")
    with pytest.raises(AssertionError, match="'serve'"):
        test_every_documented_command_is_run_by_a_test_through_the_installed_script()


def subcommands(*prefix: str) -> list[str]:
    shown = run(*prefix, "--help", cwd=ROOT).stdout
    return re.search(r"\{([\w,-]+)\}", shown)[1].split(",")


def test_every_subcommand_answers_help(tmp_path):
    names = [[name] for name in subcommands()] + [["classroom", name] for name in subcommands("classroom")]
    assert {"serve", "chat", "web", "mcp", "eval", "refresh", "classroom"} <= {name[0] for name in names}
    started = [(name, subprocess.Popen([str(SCRIPT), *name, "--help"], cwd=tmp_path, text=True,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)) for name in names]
    for name, process in started:  # all at once: on a busy machine a start takes minutes, and 600 s bounds only a hang
        out, err = process.communicate(timeout=600)
        assert (process.returncode, err) == (0, ""), name
        assert out.startswith(f"usage: agentkit {' '.join(name)} "), out
    assert not (tmp_path / "workspace").exists(), "--help creates nothing"


# ---- serve -------------------------------------------------------------------------------------------------

CLOCK = {"type": "function", "function": {"name": "get_current_time", "description": "The current time in a time zone",
                                          "parameters": {"type": "object", "properties": {"timezone": {"type": "string"}},
                                                         "required": ["timezone"]}}}


def ask_the_server(base_url: str) -> None:
    client = openai.OpenAI(base_url=base_url, api_key="any", max_retries=0, timeout=30)
    reply = client.chat.completions.create(model="offline", tools=[CLOCK],
                                           messages=[{"role": "user", "content": "What time is it in Tokyo?"}])
    (call,) = reply.choices[0].message.tool_calls
    assert (call.function.name, json.loads(call.function.arguments)) == ("get_current_time", {"timezone": "Asia/Tokyo"})


@exercises("serve")
@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["Ctrl-C", "SIGTERM"])
def test_serve_answers_a_tool_question_over_http_and_ends_with_one_line(tmp_path, number):
    server = Running("serve", "--port", "0", cwd=tmp_path)
    ask_the_server(re.search(r"http://\S+/v1", server.line_with("serving at"))[0])
    status, stderr = server.end(number)
    name = "Ctrl-C" if number == signal.SIGINT else "SIGTERM"
    assert (status, stderr) == (130, f"agentkit serve: stopped ({name})\n")


@exercises("python -m agentkit.offline")
def test_python_m_agentkit_offline_serves_the_same_model(tmp_path):
    server = Running("--port", "0", cwd=tmp_path, program=[sys.executable, "-m", "agentkit.offline"])
    ask_the_server(re.search(r"http://\S+/v1", server.line_with("serving at"))[0])
    assert server.end(signal.SIGINT) == (130, "python -m agentkit.offline: stopped (Ctrl-C)\n")


@exercises("python -m agentkit.classroom.timing")
def test_python_m_timing_prints_each_chapter_and_the_total_the_course_states():
    from agentkit.classroom.timing import course_times, hours_and_minutes

    done = subprocess.run([sys.executable, "-m", "agentkit.classroom.timing", str(ROOT / "notebooks")],
                          capture_output=True, text=True, timeout=120)
    times = course_times(ROOT / "notebooks")
    assert done.returncode == 0 and done.stderr == "", done
    rows = {line.split()[0]: line for line in done.stdout.splitlines()[1:]}
    optional = course_times(ROOT / "notebooks", optional=True)  # part three, after the total and outside it
    part_three = f"{min(optional)}-{max(optional)}"  # its own sum, on a line of its own
    assert list(rows) == [*times, "total", *optional, part_three]
    assert rows["total"].endswith(f"({hours_and_minutes(sum(t.minutes for t in times.values()))})")
    assert all(rows[chapter].endswith("(optional)") for chapter in optional)
    assert rows[part_three].endswith(f"({hours_and_minutes(sum(t.minutes for t in optional.values()))}, part three, optional)")


@pytest.mark.parametrize("command", ["serve", "web"])
def test_a_busy_port_is_refused_before_anything_is_made_or_printed(tmp_path, command):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        done = run(command, "--port", str(taken.getsockname()[1]), cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == "", done
    assert re.fullmatch(rf"agentkit {command}: cannot listen on 127\.0\.0\.1:\d+ \(.+\): .* --port N\n", done.stderr)
    assert list(tmp_path.iterdir()) == [], "no ./workspace, nothing at all"


# ---- mcp ---------------------------------------------------------------------------------------------------

@exercises("mcp")
def test_mcp_lists_its_tools_through_the_official_client(tmp_path):
    async def listed() -> list[str]:
        command = StdioServerParameters(command=str(SCRIPT), args=["mcp", "--workspace", str(tmp_path)])
        async with Client(stdio_client(command)) as client:
            return sorted(tool.name for tool in (await client.list_tools()).tools)

    assert asyncio.run(listed()) == ["bash", "edit_file", "get_current_time", "glob", "read_file", "write_file"]


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["Ctrl-C", "SIGTERM"])
def test_mcp_ends_at_the_first_signal_while_its_client_is_silent(tmp_path, number):
    server = Running("mcp", "--workspace", str(tmp_path), cwd=tmp_path)  # stdin stays open: a client that waits
    server.process.stdin.write('{"jsonrpc": "2.0", "id": 1, "method": "no/such"}\n')
    server.process.stdin.flush()
    server.line_with('"id":1')  # it serves
    status, stderr = server.end(number, timeout=10)
    name = "Ctrl-C" if number == signal.SIGINT else "SIGTERM"
    assert (status, stderr) == (130, f"agentkit mcp: stopped ({name})\n")


@pytest.mark.parametrize("command", ["web", "mcp", "chat"])
def test_a_workspace_that_cannot_be_made_is_refused_naming_the_flag(tmp_path, command):
    (tmp_path / "a-file").write_text("not a folder")
    port = ["--port", "0"] if command == "web" else []  # not 8001: another agentkit web may hold it
    done = run(command, *port, "--workspace", str(tmp_path / "a-file" / "workspace"), cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, ""), done
    assert re.fullmatch(rf"agentkit {command}: cannot use \S+ as the workspace \(.+\): .*--workspace PATH\n",
                        done.stderr)


@pytest.mark.parametrize(("command", "module", "extra"), [("web", "fastapi", "web"), ("mcp", "mcp", "mcp")])
def test_a_missing_extra_is_refused_naming_the_install_command(tmp_path, command, module, extra):
    hidden = tmp_path / "hidden" / module
    hidden.mkdir(parents=True)  # a package that is not there, as pip leaves it without the extra
    (hidden / "__init__.py").write_text(f"raise ModuleNotFoundError({f'No module named {module!r}'!r}, name={module!r})\n")
    done = run(command, cwd=tmp_path, PYTHONPATH=str(tmp_path / "hidden"))
    assert (done.returncode, done.stdout) == (2, ""), done
    assert done.stderr == f"agentkit {command}: needs {module}, which comes with the {extra} extra: " \
                          f"pip install -e '.[{extra}]'\n"
    assert not (tmp_path / "workspace").exists()


# ---- the course's other commands: one real, small job each ---------------------------------------------------

@exercises("eval")
def test_eval_scores_one_category(tmp_path):
    done = run("eval", "--category", "no_tool", "--split", "heldout", cwd=tmp_path)
    assert done.returncode == 0, done
    assert re.search(r"\| no_tool \| \d+/\d+ \(\d+%\) \|", done.stdout), done.stdout


@exercises("refresh")
def test_refresh_reexecutes_a_notebook_in_place(tmp_path):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# A"), nbformat.v4.new_code_cell("6 * 7")])
    nbformat.write(notebook, tmp_path / "a.ipynb")
    done = run("refresh", "a.ipynb", cwd=tmp_path)
    assert done.returncode == 0 and "refreshed a.ipynb" in done.stdout, done
    (cell,) = [cell for cell in nbformat.read(tmp_path / "a.ipynb", as_version=4).cells if cell.cell_type == "code"]
    assert cell.outputs[0]["data"]["text/plain"] == "42"


def test_refresh_of_a_notebook_that_raises_leaves_it_as_it_was_and_says_which_in_one_line(tmp_path):
    broken = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("raise ValueError('not today')")])
    nbformat.write(broken, tmp_path / "broken.ipynb")
    before = (tmp_path / "broken.ipynb").read_bytes()
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("6 * 7")]), tmp_path / "fine.ipynb")
    done = run("refresh", "broken.ipynb", "fine.ipynb", cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done
    assert "broken.ipynb left as it was: a cell raised ValueError: not today" in done.stderr, done.stderr
    assert "refreshed fine.ipynb" in done.stdout, "the other notebooks are still refreshed"
    assert (tmp_path / "broken.ipynb").read_bytes() == before


def test_main_called_from_a_thread_leaves_signals_to_the_caller(capsys):
    # A notebook cell runs `agentkit eval` as `await asyncio.to_thread(main, [...])` (chapter 13): signal handlers
    # can only be set in the main thread, so the command must not try.
    from agentkit.frontends.cli import main

    asyncio.run(asyncio.to_thread(main, ["eval", "--category", "no_tool", "--split", "heldout"]))
    assert "| no_tool |" in capsys.readouterr().out


@exercises("classroom student")
def test_classroom_student_takes_the_solutions_out(tmp_path):
    done = run("classroom", "student", str(ROOT / "notebooks"), "student", cwd=tmp_path)
    assert done.returncode == 0, done
    teacher = (ROOT / "notebooks" / "03_tool_registry.ipynb").read_text(encoding="utf-8")
    student = (tmp_path / "student" / "03_tool_registry.ipynb").read_text(encoding="utf-8")
    assert '"solution"' in teacher and student != teacher


@exercises("classroom grade")
def test_classroom_grade_grades_a_submission(tmp_path):
    (tmp_path / "submissions" / "ada").mkdir(parents=True)
    shutil.copy(ROOT / "notebooks" / "03_tool_registry.ipynb", tmp_path / "submissions" / "ada")
    done = run("classroom", "grade", "submissions", "--course", str(ROOT / "notebooks"), "--notebook",
               "03_tool_registry.ipynb", "--out", "grades.csv", cwd=tmp_path)
    assert done.returncode == 0, done
    with open(tmp_path / "grades.csv", newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert rows and {(row["student"], row["verdict"]) for row in rows} == {("ada", "pass")}, rows


@exercises("classroom nbgrader")
def test_classroom_nbgrader_writes_the_source_notebooks(tmp_path):
    course = tmp_path / "teacher"
    course.mkdir()
    shutil.copy(ROOT / "notebooks" / "03_tool_registry.ipynb", course)
    done = run("classroom", "nbgrader", "course/source/tool-use", "--course", str(course), cwd=tmp_path)
    assert done.returncode == 0, done
    assert (tmp_path / "course" / "source" / "tool-use" / "03_tool_registry.ipynb").is_file()


def test_sigterm_ends_a_serve_started_in_the_background_where_ctrl_c_is_ignored(tmp_path):
    ignoring = subprocess.Popen([str(SCRIPT), "serve", "--port", "0"], cwd=tmp_path, text=True, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        assert "serving at" in ignoring.stdout.readline()  # a shell's `agentkit serve &` ignores SIGINT like this
        ignoring.send_signal(signal.SIGTERM)
        assert ignoring.wait(timeout=20) == 130
        assert ignoring.stderr.read() == "agentkit serve: stopped (SIGTERM)\n"
    finally:
        ignoring.kill()
        ignoring.wait()
