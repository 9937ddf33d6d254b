"""Real attacks on the workspace guard, the file tools and the shell tool. Every one must fail safely.

Layout of every test (tmp_path):
    ws/               the workspace root, with symlinks planted in it by an "attacker"
    private/          outside: secret.txt must never be read, nothing here may change
    ws-private/       outside, and its name starts with the root's name (defeats a startswith check)
"""

from __future__ import annotations

import asyncio
import ctypes
import hashlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import tracemalloc
from contextlib import suppress
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from agentkit.calls import ToolCall
from agentkit.hardening.tree import TEMPORARY_SUFFIX
from agentkit.limits import Limits
from agentkit.tools.dispatcher import execute_tool
from agentkit.tools.filesystem import file_tools
from agentkit.tools.registry import build_registry
from agentkit.tools.shell import run_command, shell_tool
from agentkit.tools.workspace import Workspace, WorkspaceError

SECRET = "TOP SECRET: the launch code is 0000"


def make_layout(base: Path) -> Workspace:
    root = base / "ws"
    (root / "notes").mkdir(parents=True)
    (root / "notes" / "todo.txt").write_text("buy milk\n")
    for folder in ("private", "ws-private"):
        (base / folder).mkdir()
        (base / folder / "secret.txt").write_text(SECRET + "\n")
    links = {
        "out": "../private",                       # a folder outside
        "secret-link": "../private/secret.txt",    # a file outside
        "chain1": "chain2", "chain2": "chain3", "chain3": "../private/secret.txt",  # a chain of links
        "dangling": "../private/not-yet.txt",      # points outside at something that does not exist yet
        "abs-link": str(base / "private"),          # absolute target
        "passwd": "/etc/passwd",
        "loop-a": "loop-b", "loop-b": "loop-a",
        "notes/up": "../..",                       # a link in a subfolder that climbs two levels
        "inner": "out",                            # an inside-looking link to a link that leads out
    }
    for name, target in links.items():
        (root / name).symlink_to(target)
    return Workspace(root)


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    return make_layout(tmp_path)


def outside_snapshot(base: Path) -> dict[str, str]:
    """Every file outside the workspace root with a hash of its content."""
    return {
        str(path.relative_to(base)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(base.rglob("*"))
        if path.is_file() and not path.is_symlink() and not path.is_relative_to(base / "ws")
    }


ESCAPES = [
    # Paths that name something outside the root, or nothing usable: the guard must refuse each one.
    # "{base}" is the folder that holds the workspace, so absolute paths point at the real secret.
    "../private/secret.txt", "../../etc/passwd", "../" * 40 + "etc/passwd", "..", "../", "./..",
    "/etc/passwd", "//etc/passwd", "/../../etc/passwd", "/proc/self/environ", "/proc/self/root/etc/passwd",
    "/dev/zero", "{base}/private/secret.txt", "{base}/ws/../private/secret.txt",
    "notes/../../private/secret.txt", "a/b/c/../../../../private/secret.txt", ".//..//private//secret.txt",
    "notes/./../.././private/secret.txt", "~/../../private/secret.txt",
    "../ws-private/secret.txt", "{base}/ws-private/secret.txt",                         # startswith trap
    "../PRIVATE/secret.txt", "../Private/Secret.txt", "/ETC/passwd",                    # case variants
    "out", "out/secret.txt", "out/./secret.txt", "out/../out/secret.txt", "notes/../out/secret.txt",
    "secret-link", "chain1", "chain2", "chain1/", "dangling", "abs-link/secret.txt", "passwd",
    "notes/up/private/secret.txt", "notes/up", "inner/secret.txt",
    "loop-a", "loop-b/x", "loop-a/../out", "loop-a/../out/secret.txt", "loop-b/../secret-link",   # a loop, then ..
    "loop-a/../../private/secret.txt", "notes/up/../private/secret.txt",
    "secret.txt\0.png", "../private/secret.txt\0", "\0", "", "   ", "x" * 5000, "a/" + "b" * 300,
    "\ud800/secret.txt",
]


def escapes(base: Path) -> list[str]:
    return [path.replace("{base}", str(base)) for path in ESCAPES]


LOOKALIKES = [
    # Each looks like an escape, but on Linux it is only an odd name inside the workspace.
    "\u2025/private/secret.txt",        # two dot leader
    "\uff0e\uff0e/private/secret.txt",  # fullwidth full stops
    "..\u200b/private/secret.txt",      # zero-width space after ..
    "..\\private\\secret.txt",          # backslashes are not separators here
    "%2e%2e/private/secret.txt",        # URL encoding is not decoded by the file system
    "..%2fprivate%2fsecret.txt",
    ".../private/secret.txt",           # three dots is just a name
    "OUT/secret.txt",                   # case variant of a link: no such name on a case-sensitive disk
    "~/private/secret.txt",             # no ~ expansion
    "notes/todo.txt/..",                # resolves lexically to notes, inside
]


def test_there_are_at_least_forty_escape_attempts() -> None:
    assert len(set(ESCAPES)) >= 40


@pytest.mark.parametrize("path", ESCAPES, ids=lambda path: repr(path)[:40])
def test_the_guard_refuses(path: str, workspace: Workspace, tmp_path: Path) -> None:
    with pytest.raises(WorkspaceError):
        workspace.resolve(path.replace("{base}", str(tmp_path)))


@pytest.mark.parametrize("path", LOOKALIKES, ids=repr)
def test_a_lookalike_stays_inside(path: str, workspace: Workspace) -> None:
    assert workspace.resolve(path).is_relative_to(workspace.root)


def call(registry: dict, name: str, arguments: dict) -> tuple[bool, str]:  # type: ignore[type-arg]
    result = asyncio.run(execute_tool(registry, ToolCall.parse("", name, json.dumps(arguments))))
    return result.is_error, result.content


@pytest.mark.parametrize("tool", ["read_file", "write_file", "edit_file"])
def test_every_file_tool_refuses_every_escape(tool: str, workspace: Workspace, tmp_path: Path) -> None:
    registry = build_registry(file_tools(workspace))
    before = outside_snapshot(tmp_path)
    extra = {"read_file": {}, "write_file": {"content": "pwned"},
             "edit_file": {"old_text": "TOP SECRET", "new_text": "pwned"}}[tool]
    for path in escapes(tmp_path):
        if path == "\ud800/secret.txt":
            continue  # json.dumps cannot send a lone surrogate; the guard test above covers it
        is_error, content = call(registry, tool, {"path": path, **extra})
        assert is_error, (path, content)
        assert content.startswith("Error: ")
        assert "launch code" not in content
    assert outside_snapshot(tmp_path) == before
    assert not (tmp_path / "private" / "not-yet.txt").exists()


def test_file_tools_on_lookalikes_touch_only_the_inside(workspace: Workspace, tmp_path: Path) -> None:
    registry = build_registry(file_tools(workspace))
    before = outside_snapshot(tmp_path)
    for path in LOOKALIKES:
        for tool, extra in [("read_file", {}), ("write_file", {"content": "x"}),
                            ("edit_file", {"old_text": "x", "new_text": "y"})]:
            _, content = call(registry, tool, {"path": path, **extra})
            assert "launch code" not in content
    assert outside_snapshot(tmp_path) == before


@pytest.mark.parametrize(
    "pattern",
    ["../*", "../**", "../private/*", "**/../../*", "*/../../private/*", "/etc/*", "/**", "./../*",
     "notes/../../*", "**/secret.txt", "out/*", "out/**", "chain1", "*secret*", "abs-link/*", "notes/up/**",
     "**/**/*", "inner/*"],
)
def test_glob_patterns_cannot_reach_outside(pattern: str, workspace: Workspace) -> None:
    registry = build_registry(file_tools(workspace))
    _, content = call(registry, "glob", {"pattern": pattern, "max_results": 200})
    listed = content.splitlines()[1:]  # the first line repeats the pattern
    assert not [line for line in listed if "secret" in line or "private" in line]
    try:
        found = list(workspace.glob(pattern))
    except WorkspaceError:
        return
    for path in found:
        assert os.path.realpath(workspace.root / path).startswith(str(workspace.root) + os.sep), path


SEGMENTS = st.sampled_from(["..", ".", "", "out", "chain1", "notes", "up", "secret.txt", "private", "ws",
                            "ws-private", "dangling", "loop-a", "inner", "~", "\0", "\u2025", "passwd"])
PATHS = st.one_of(
    st.text(max_size=60),
    st.lists(SEGMENTS, max_size=12).map("/".join),
    st.lists(SEGMENTS, max_size=12).map(lambda parts: "/" + "/".join(parts)),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=PATHS)
@example(path="loop-a/../out")  # found at random once: Path.resolve() gave up on the loop and returned ws/out
@example(path="loop-a/../out/secret.txt")
def test_any_path_is_refused_or_really_inside(path: str, workspace: Workspace) -> None:
    try:
        resolved = workspace.resolve(path)
    except WorkspaceError:
        return
    assert resolved.is_relative_to(workspace.root)
    assert Path(os.path.realpath(resolved)).is_relative_to(workspace.root)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pattern=st.one_of(st.text(max_size=30), st.lists(st.one_of(SEGMENTS, st.sampled_from(["*", "**", "?"])),
                                                        max_size=6).map("/".join)))
def test_any_glob_pattern_finds_only_inside_paths(pattern: str, workspace: Workspace) -> None:
    try:
        found = list(workspace.glob(pattern))
    except WorkspaceError:
        return
    for path in found:
        real = Path(os.path.realpath(workspace.root / path))
        assert real.is_relative_to(workspace.root), path


_SWAPPER = """
import ctypes, sys
rename_exchange = ctypes.CDLL(None, use_errno=True).renameat2
print("ready", flush=True)
while rename_exchange(-100, sys.argv[1].encode(), -100, sys.argv[2].encode(), 2) == 0:  # AT_FDCWD, RENAME_EXCHANGE
    pass
"""


def test_glob_never_lists_outside_names_while_a_folder_is_swapped(workspace: Workspace, tmp_path: Path) -> None:
    # An attacker (say, a command the shell tool started) swaps a folder and a symlink to outside, atomically
    # and without pause, in another process, while glob walks. Before the walk used folder descriptors, about
    # one glob in seven listed names from outside. Whatever the timing, none may ever be listed.
    if not hasattr(ctypes.CDLL(None), "renameat2"):
        pytest.skip("this C library has no renameat2 (glibc >= 2.28 has it)")
    for depth in ("", "a/", "a/b/"):
        for n in range(20):
            for top, name in ((tmp_path / "ws" / "swap", "inside"), (tmp_path / "elsewhere", "LEAKED")):
                (top / depth).mkdir(parents=True, exist_ok=True)
                (top / depth / f"{name}-{n}.txt").write_text("")
    (tmp_path / "ws" / "swap-link").symlink_to(tmp_path / "elsewhere")
    swapper = subprocess.Popen([sys.executable, "-c", _SWAPPER, tmp_path / "ws" / "swap", tmp_path / "ws" / "swap-link"],
                               stdout=subprocess.PIPE, text=True)
    try:
        assert swapper.stdout is not None and swapper.stdout.readline() == "ready\n"
        listed = [list(workspace.glob("swap/**")) for _ in range(3000)]
        assert swapper.poll() is None  # it was still swapping when the last glob ended
    finally:
        swapper.kill()
        swapper.wait()
    assert [path for paths in listed for path in paths if "LEAKED" in path] == []
    assert any(len(paths) > 60 for paths in listed)  # and some walks did go all the way down the real folder


def test_a_hard_link_to_an_outside_file_cannot_be_written(workspace: Workspace, tmp_path: Path) -> None:
    # A hard link is the outside file under a name inside: no symlink, nothing a path check can see.
    os.link(tmp_path / "private" / "secret.txt", workspace.root / "notes" / "linked.txt")
    registry = build_registry(file_tools(workspace))
    before = outside_snapshot(tmp_path)
    for tool, extra in [("write_file", {"content": "pwned"}), ("edit_file", {"old_text": "TOP", "new_text": "pwned"})]:
        is_error, content = call(registry, tool, {"path": "notes/linked.txt", **extra})
        assert is_error and content.startswith("Error: 'notes/linked.txt' has 2 hard links"), content
    assert outside_snapshot(tmp_path) == before
    assert os.path.samefile(workspace.root / "notes" / "linked.txt", tmp_path / "private" / "secret.txt")
    # What a path guard cannot stop: reading it. Chapter 05 and docs/security.md say so; a container or a
    # separate user that cannot see the outside file is what defends against this.
    assert "launch code" in call(registry, "read_file", {"path": "notes/linked.txt"})[1]


# Atomic write: a writer killed in the middle of writing.

_KILLED_WRITER = """
import os, sys, time
from agentkit.tools.file_writing import write_file
from agentkit.tools.workspace import Workspace

real_write = os.write
def write_half_then_hang(fd, data):
    written = real_write(fd, bytes(data[: len(data) // 2]))
    print("mid-write", flush=True)
    time.sleep(60)  # killed here
    return written

if sys.argv[2] == "atomic":
    os.write = write_half_then_hang
    write_file(Workspace(sys.argv[1]), "data.txt", "NEW " * 500_000)
else:  # the naive way: open the target for writing, which empties it first
    with open(os.path.join(sys.argv[1], "data.txt"), "w") as file:
        file.write("NEW " * 250_000)
        file.flush()
        print("mid-write", flush=True)
        time.sleep(60)
"""


def kill_writer_mid_write(root: Path, how: str) -> None:
    writer = subprocess.Popen([sys.executable, "-c", _KILLED_WRITER, str(root), how], stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout is not None and writer.stdout.readline() == "mid-write\n"
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait()
    assert writer.returncode == -signal.SIGKILL


def test_a_killed_atomic_writer_leaves_the_old_content(tmp_path: Path) -> None:
    (tmp_path / "data.txt").write_text("OLD CONTENT\n")
    kill_writer_mid_write(tmp_path, "atomic")
    assert (tmp_path / "data.txt").read_text() == "OLD CONTENT\n"
    leftovers = [path for path in tmp_path.iterdir() if path.name.endswith(TEMPORARY_SUFFIX)]
    assert len(leftovers) == 1 and 0 < leftovers[0].stat().st_size < 2_000_000  # killed part way through
    assert list(Workspace(tmp_path).glob("**")) == ["data.txt"]  # never listed
    # The next process that opens the workspace removes it. (The stamp is set back an hour, because the
    # process start it is compared with is known to the second only.)
    os.utime(leftovers[0], (time.time() - 3600,) * 2)
    subprocess.run([sys.executable, "-c", "import sys; from agentkit.agent import open_workspace; "
                    "open_workspace(sys.argv[1])", str(tmp_path)], check=True)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["data.txt"]


def test_a_killed_naive_writer_destroys_the_old_content(tmp_path: Path) -> None:
    (tmp_path / "data.txt").write_text("OLD CONTENT\n")
    kill_writer_mid_write(tmp_path, "naive")
    assert (tmp_path / "data.txt").read_text() == "NEW " * 250_000  # old content gone, new one half there


# Shell: hostile commands.


def is_running(pid: int) -> bool:
    """Alive and not a zombie (a killed orphan stays a zombie until its new parent reaps it)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def wait_until_gone(pids: list[int], seconds: float = 5.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while (alive := [pid for pid in pids if is_running(pid)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    return alive


def pids_in(output: bytes) -> list[int]:
    return [int(word) for word in output.split() if word.isdigit()]


def test_timeout_kills_children_and_grandchildren(tmp_path: Path) -> None:
    command = ("sleep 300 & echo $!; bash -c 'sleep 300 & echo $! > inner.pid; sleep 300' & echo $!; "
               "until [ -s inner.pid ]; do sleep 0.01; done; cat inner.pid; sleep 300")
    result = run_command(command, tmp_path, timeout=3.0, keep=1000)
    pids = pids_in(bytes(result.stdout.head))
    assert result.exit_code is None and len(pids) >= 3
    assert wait_until_gone(pids) == []


def test_background_jobs_are_stopped_when_the_command_ends(tmp_path: Path) -> None:
    result = run_command("nohup sleep 300 >/dev/null 2>&1 & echo $!", tmp_path, timeout=10, keep=1000)
    assert result.exit_code == 0
    assert wait_until_gone(pids_in(bytes(result.stdout.head))) == []


def test_a_trap_cannot_stop_the_kill(tmp_path: Path) -> None:
    result = run_command("trap '' TERM INT HUP; echo $$; sleep 300", tmp_path, timeout=0.5, keep=1000)
    assert result.exit_code is None
    assert wait_until_gone(pids_in(bytes(result.stdout.head))) == []


def test_a_process_that_leaves_the_group_is_killed_and_reported(tmp_path: Path) -> None:
    # The child writes its id once it has left the group; bash waits for that, so the kill cannot come first.
    command = ("setsid bash -c 'echo $$ > escaped.pid; exec sleep 300' & "
               "until [ -s escaped.pid ]; do sleep 0.01; done; cat escaped.pid")
    result = run_command(command, tmp_path, timeout=10, keep=1000)
    pids = pids_in(bytes(result.stdout.head))
    try:
        assert len(pids) == 1 and wait_until_gone(pids) == []
        assert result.killed == (f"{pids[0]} sleep 300",) and result.for_model(1000).endswith(f"{pids[0]} sleep 300")
    finally:
        for pid in pids:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_endless_output_stays_under_a_memory_bound(tmp_path: Path) -> None:
    size = 200_000_000
    tracemalloc.start()
    try:
        result = run_command(f"head -c {size} /dev/zero | tr '\\0' x", tmp_path, timeout=60, keep=4000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.exit_code == 0 and result.stdout.total == size
    assert peak < 2_000_000  # 200 MB went through; memory held a few chunks
    assert " bytes cut from the middle ...]" in result.for_model(8000)


def test_an_endless_writer_is_timed_out_with_bounded_output(tmp_path: Path) -> None:
    # On a loaded machine `yes` may not have started before a short timeout: wait for output, not for a time.
    for timeout in (0.5, 2, 8):
        result = run_command("yes", tmp_path, timeout=timeout, keep=100)
        if result.stdout.total > 1000:
            break
    assert result.exit_code is None
    assert result.stdout.total > 1000 and len(result.stdout.head) == len(result.stdout.tail) == 100


def test_closing_the_output_does_not_end_the_wait_early(tmp_path: Path) -> None:
    result = run_command("exec >&- 2>&-; sleep 0.3; exit 7", tmp_path, timeout=10, keep=100)
    assert result.exit_code == 7


def test_killing_its_own_group_returns(tmp_path: Path) -> None:
    assert run_command("kill -9 0", tmp_path, timeout=10, keep=100).exit_code == -9


def test_secrets_in_the_parent_environment_do_not_reach_the_shell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secrets = {"MODEL_API_KEY": "sk-live-111", "OPENAI_API_KEY": "sk-live-222", "GITHUB_TOKEN": "ghp_333",
               "db_password": "hunter2", "AWS_SECRET_ACCESS_KEY": "aws-444", "my_Api_Key": "k-555"}
    for name, value in secrets.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("HARMLESS_SETTING", "visible")
    text = asyncio.run(shell_tool(Workspace(tmp_path), Limits(max_output_chars=100_000), ["HARMLESS_SETTING"]).handler(
        {"command": "env; cat /proc/self/environ | tr '\\0' '\\n'"}
    ))
    assert "HARMLESS_SETTING=visible" in text
    for name, value in secrets.items():
        assert value not in text and name not in text


def test_the_shell_is_not_confined_to_the_workspace(workspace: Workspace, tmp_path: Path) -> None:
    # Not a defence, a fact the course teaches: the guard covers the file tools, never the shell.
    text = asyncio.run(shell_tool(workspace).handler({"command": "cat ../private/secret.txt"}))
    assert "launch code" in text


def test_secret_lookalike_commands_run_as_written(tmp_path: Path) -> None:
    text = asyncio.run(shell_tool(Workspace(tmp_path)).handler({"command": textwrap.dedent("""\
        echo s''udo; c=$(printf 'r%s' m); echo $c -rf /""")}))
    assert text == "exit code: 0\nstdout:\nsudo\nrm -rf /\nstderr: (empty)"
