"""Tests and nbval run against the offline model, whatever a developer's .env says; property tests repeat."""

import gc
import inspect
import os

import pytest
from hypothesis import settings

# Set before any notebook kernel starts: kernels inherit this environment, and an empty
# MODEL_API_KEY in the environment wins over a key in .env (see agentkit.config.load_settings).
os.environ["MODEL_API_KEY"] = ""

# The same examples on every run and every machine, and no example database carried between runs: a red
# test run is a real failure that the next run repeats. Failing examples found once are pinned with @example.
settings.register_profile("repeatable", derandomize=True, database=None)
settings.load_profile("repeatable")


@pytest.fixture(autouse=True)
def _collect_garbage_before_async_tests(request: pytest.FixtureRequest) -> None:
    """An `AsyncOpenAI` client a test left open closes itself when collected, on whatever event loop is running then
    (the SDK's `__del__`); its sockets belong to a loop already closed, so that close fails inside the next async
    test. Collecting before each async test, with no loop running, keeps one test's leftovers out of another."""
    if inspect.iscoroutinefunction(getattr(request.node, "obj", None)):
        gc.collect()


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto` (pyproject's addopts): one worker more than the cores, since many tests wait rather than compute
    (terminals, servers, kernels starting, timeouts): on 2 cores, 3 workers finish in about 4 minutes, 2 in 4.6."""
    return (os.cpu_count() or 1) + 1
