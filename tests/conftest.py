"""Fixtures the tests that start commands share (the helpers they call are in front_door.py)."""

import os
import random
import signal

import pytest
from front_door import processes_with


@pytest.fixture
def marker():
    """A unique `sleep` duration (about five minutes), for a test to find its command by; whatever still runs with it
    is killed after the test."""
    marker = f"300.{random.randrange(10**8, 10**9)}"
    yield marker
    for pid in processes_with(marker):
        os.kill(pid, signal.SIGKILL)
