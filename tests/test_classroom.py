"""The refresh command: re-executing a notebook gives a byte-identical file, offline whatever .env says."""

import json
import os
import re
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from agentkit.classroom import KERNEL_NAME, refresh
from agentkit.frontends import cli

refresh_module = sys.modules["agentkit.classroom.refresh"]  # the module: agentkit.classroom.refresh is the function

CONNECT = """\
from agentkit.config import load_settings, connect
settings = load_settings()
client = connect(settings)
print("offline:", settings.offline)"""
CHAT = """\
response = await client.chat.completions.create(
    model=settings.model, messages=[{"role": "user", "content": "What is the capital of France?"}])
print(response.choices[0].message.content)"""
TOOL = """\
clock = {"type": "function", "function": {"name": "get_current_time", "description": "current time in a time zone",
         "parameters": {"type": "object", "properties": {"timezone": {"type": "string"}}}}}
response = await client.chat.completions.create(
    model=settings.model, messages=[{"role": "user", "content": "What time is it in Tokyo?"}], tools=[clock])
print(response.choices[0].message.tool_calls[0].function.arguments, response.usage.approximate)"""
RAW = "print(response.model, response.id)"


def notebook(folder, *sources, name="lesson.ipynb"):
    """A small notebook as a learner's editor leaves it: timings, a foreign kernel, widget state."""
    cells = [new_markdown_cell("# A lesson"), *(new_code_cell(source) for source in sources)]
    for index, cell in enumerate(cells):
        cell.id = f"cell-{index}"  # fixed ids: two notebooks built alike are byte-comparable
    cells[1].metadata.update({"execution": {"iopub.execute_input": "2026-01-01T10:00:00.000Z"}, "scrolled": True})
    book = new_notebook(cells=cells, metadata={"kernelspec": {"name": "conda-env-x", "display_name": "x", "language": "python"},
                                                 "language_info": {"name": "python", "version": "3.11.7"}, "widgets": {}})
    path = folder / name
    nbformat.write(book, path)
    return path


def outputs(path):
    book = nbformat.read(path, as_version=4)
    return ["".join(o.get("text", "") for o in cell.outputs) for cell in book.cells if cell.cell_type == "code"]


def test_refresh_twice_gives_a_byte_identical_file(tmp_path, capsys):
    path = notebook(tmp_path, CONNECT, CHAT, TOOL)
    cli.main(["refresh", str(path)])
    assert capsys.readouterr().out == f"refreshed {path}\n"
    first = path.read_bytes()
    refresh(path)
    assert path.read_bytes() == first
    assert outputs(path) == ["offline: True\n", "The capital of France is Paris.\n", '{"timezone": "Asia/Tokyo"} True\n']


@pytest.fixture(scope="module")
def kernel_reports() -> dict:
    """What a real kernel of this environment says of itself (kernel_info), as JupyterLab hears it when it opens a
    notebook: the kernelspec it was started from, and its language_info."""
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name=KERNEL_NAME)
    try:
        reply = client.kernel_info(reply=True, timeout=60)["content"]
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    spec = manager.kernel_spec
    return {"kernelspec": {"display_name": spec.display_name, "language": spec.language, "name": KERNEL_NAME},
            "language_info": reply["language_info"]}


def test_refresh_leaves_only_the_metadata_the_kernel_reports_and_keeps_a_stored_python_version(tmp_path, kernel_reports):
    path = notebook(tmp_path, CONNECT, CHAT)  # a foreign kernelspec, widget state, a stored Python version 3.11.7
    refresh(path)
    book = json.loads(path.read_text())
    assert book["metadata"] == {"kernelspec": kernel_reports["kernelspec"],
                                "language_info": {**kernel_reports["language_info"], "version": "3.11.7"}}
    assert all(cell["metadata"] == {} for cell in book["cells"])
    assert '"execution":' not in path.read_text() and "iopub" not in path.read_text()
    assert [cell.get("execution_count") for cell in book["cells"]] == [None, 1, 2]
    nbformat.validate(nbformat.read(path, as_version=4))


@pytest.mark.parametrize("environment", [None, "sk-in-the-environment"], ids=["key only in .env", "key in environment too"])
def test_a_key_in_dotenv_does_not_reach_refreshed_outputs(tmp_path, monkeypatch, environment):
    (tmp_path / ".env").write_text("MODEL_API_KEY=sk-secret-from-dotenv\nMODEL=gpt-4o-mini\n")
    if environment is None:
        monkeypatch.delenv("MODEL_API_KEY", raising=False)
    else:
        monkeypatch.setenv("MODEL_API_KEY", environment)
    path = notebook(tmp_path, CONNECT, CHAT, "import os; print(repr(os.environ['MODEL_API_KEY']))")
    refresh(path)
    text = path.read_text()
    assert "sk-secret-from-dotenv" not in text and "sk-in-the-environment" not in text
    assert outputs(path) == ["offline: True\n", "The capital of France is Paris.\n", "''\n"]
    assert os.environ.get("MODEL_API_KEY") == environment  # the refresh put the caller's environment back


def test_a_failing_cell_leaves_the_notebook_untouched(tmp_path):
    path = notebook(tmp_path, CONNECT, "raise RuntimeError('broken lesson')")
    before = path.read_bytes()
    with pytest.raises(Exception, match="broken lesson"):
        refresh(path)
    assert path.read_bytes() == before


def test_dotenv_model_does_not_change_refreshed_outputs(tmp_path):
    plain, configured = tmp_path / "plain", tmp_path / "configured"
    plain.mkdir(), configured.mkdir()
    (configured / ".env").write_text("MODEL_API_KEY=sk-secret\nBASE_URL=https://api.deepseek.com/v1\nMODEL=deepseek-chat\n")
    paths = [notebook(folder, CONNECT, CHAT, RAW) for folder in (plain, configured)]
    for path in paths:
        refresh(path)
    assert paths[0].read_bytes() == paths[1].read_bytes()


class _FlakyClient:
    """A NotebookClient stand-in: each instance is one attempt; attempts fail with the errors given, then succeed."""

    errors: list[Exception] = []
    attempts = 0

    def __init__(self, *args, **kwargs) -> None:
        pass

    def execute(self) -> None:
        _FlakyClient.attempts += 1
        if _FlakyClient.errors:
            raise _FlakyClient.errors.pop(0)


@pytest.mark.parametrize(("errors", "attempts", "raises"), [
    ([RuntimeError("Kernel didn't respond in 60 seconds")], 2, False),
    ([RuntimeError("Address already in use (addr='tcp://127.0.0.1:40001')")], 2, False),
    ([RuntimeError("Kernel didn't respond in 60 seconds")] * 2, 2, True),  # a second failure is real
    ([RuntimeError("CellExecutionError: broken lesson")], 1, True),  # a cell's error is never retried
])
def test_a_kernel_that_never_started_is_started_once_more(monkeypatch, errors, attempts, raises):
    monkeypatch.setattr(refresh_module, "NotebookClient", _FlakyClient)
    monkeypatch.setattr(_FlakyClient, "errors", list(errors))
    monkeypatch.setattr(_FlakyClient, "attempts", 0)
    book = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")])
    if raises:
        with pytest.raises(RuntimeError):
            refresh_module.execute(book, ".")
    else:
        refresh_module.execute(book, ".")
    assert _FlakyClient.attempts == attempts


def test_a_kernel_passed_in_is_restarted_before_the_second_try(monkeypatch):
    class Kernel:
        restarts = 0

        def restart_kernel(self, now: bool) -> None:
            Kernel.restarts += 1

    monkeypatch.setattr(refresh_module, "NotebookClient", _FlakyClient)
    monkeypatch.setattr(_FlakyClient, "errors", [RuntimeError("Kernel didn't respond in 60 seconds")])
    monkeypatch.setattr(_FlakyClient, "attempts", 0)
    refresh_module.execute(nbformat.v4.new_notebook(), ".", kernel=Kernel())
    assert (_FlakyClient.attempts, Kernel.restarts) == (2, 1)


def test_refresh_writes_the_kernels_python_version_where_none_was_stored(tmp_path, kernel_reports):
    path = notebook(tmp_path, CONNECT)
    book = nbformat.read(path, as_version=4)
    del book.metadata["language_info"]["version"]
    nbformat.write(book, path)
    refresh(path)
    assert nbformat.read(path, as_version=4).metadata.language_info == kernel_reports["language_info"]


@pytest.mark.parametrize("edition", ["notebooks", "notebooks/zh"])
def test_every_notebook_stores_what_jupyterlab_writes_when_its_kernel_starts(edition, kernel_reports):
    """JupyterLab replaces kernelspec and language_info with the kernel's and marks the notebook changed unless they
    are equal: so an untouched notebook opens clean. Python's version is the one field that differs between machines;
    one version is stored for the whole course (refresh keeps it), so a learner on that Python opens every notebook clean."""
    root = Path(__file__).resolve().parent.parent
    versions = set()
    for path in sorted((root / edition).glob("[0-9][0-9]_*.ipynb")):
        metadata = nbformat.read(path, as_version=4).metadata
        assert metadata.kernelspec == kernel_reports["kernelspec"], path.name
        stored = dict(metadata.language_info)
        versions.add(stored.pop("version", None))
        assert stored == {key: value for key, value in kernel_reports["language_info"].items() if key != "version"}, path.name
    (version,) = versions
    assert re.fullmatch(r"3\.\d+\.\d+", version), version
