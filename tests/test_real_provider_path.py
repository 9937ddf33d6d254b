"""Every notebook also runs unchanged on the real-provider path: a key set, BASE_URL pointing at an HTTP server.

The server is the offline model on 127.0.0.1, so this needs no network and no key, yet `connect()` takes the
branch a learner with OpenAI, DeepSeek or Ollama takes: a real `AsyncOpenAI` over real HTTP. Outputs are not
compared (ids and timings differ from the stored ones); every cell must run without an error.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest

from agentkit.classroom import execute
from agentkit.offline import OfflineModel, OfflineServer

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


class CountingModel(OfflineModel):
    """The offline model, counting the requests that reached it over HTTP."""

    requests = 0

    def respond(self, request: dict) -> object:
        CountingModel.requests += 1
        return super().respond(request)


@pytest.fixture(scope="module")
def provider() -> str:
    with OfflineServer(CountingModel()) as server:
        yield server.base_url


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_against_an_http_provider(path: Path, provider: str, monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path) -> None:
    monkeypatch.setenv("MODEL_API_KEY", "sk-local-test-key")
    monkeypatch.setenv("BASE_URL", provider)
    monkeypatch.setenv("MODEL", "offline")
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    copy = tmp_path / "notebooks"  # its own copy: nbval may be running the same chapter in place in another worker
    shutil.copytree(path.parent, copy, ignore=shutil.ignore_patterns("scratch", ".ipynb_checkpoints"))
    notebook = nbformat.read(copy / path.name, as_version=4)
    before = CountingModel.requests
    execute(notebook, copy, timeout=120)
    assert CountingModel.requests > before, "the notebook never used the provider it was given"
