"""An outside reviewer's attacks on the workspace guard and the file tools, through the dispatcher as a model sends them.

tests/test_security.py holds the escapes (`..`, absolute paths, symlinks, hard links, swaps during glob); this file
holds the rest of the list: /proc and /dev/fd aliases, races against read/write/edit, special files, sparse files,
file-system errors, concurrent edits, names that fake lines in a listing, and trees deeper than a process may hold open.
"""

from __future__ import annotations

import asyncio
import ctypes
import errno
import hashlib
import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from agentkit.calls import ToolCall
from agentkit.hardening.tree import MAX_WALK_DEPTH, TEMPORARY_SUFFIX
from agentkit.limits import Limits
from agentkit.tools import file_writing
from agentkit.tools.dispatcher import ToolResult, execute_tool
from agentkit.tools.filesystem import file_tools
from agentkit.tools.registry import build_registry
from agentkit.tools.workspace import Workspace

SECRET = "TOP SECRET: the launch code is 0000"


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    (tmp_path / "ws" / "notes").mkdir(parents=True)
    (tmp_path / "ws" / "notes" / "todo.txt").write_text("buy milk\n")
    (tmp_path / "private").mkdir()
    (tmp_path / "private" / "todo.txt").write_text(SECRET + "\n")
    return Workspace(tmp_path / "ws")


def call(workspace: Workspace, name: str, limits: Limits | None = None, **arguments: object) -> ToolResult:
    registry = build_registry(file_tools(workspace, limits or Limits()))
    return asyncio.run(execute_tool(registry, ToolCall.parse("", name, json.dumps(arguments))))


def outside(base: Path) -> str:
    return hashlib.sha256((base / "private" / "todo.txt").read_bytes()).hexdigest()


# Aliases of a path through /proc and /dev/fd: each is followed like any symlink, so only the inside is reached.


def test_proc_and_dev_fd_aliases_lead_only_where_their_link_leads(workspace: Workspace, tmp_path: Path) -> None:
    outside_fd = os.open(tmp_path / "private" / "todo.txt", os.O_RDONLY)
    inside_fd = os.open(workspace.root / "notes" / "todo.txt", os.O_RDONLY)
    try:
        for path in [f"/dev/fd/{outside_fd}", f"/proc/self/fd/{outside_fd}", f"/proc/{os.getpid()}/fd/{outside_fd}",
                     "/proc/self/cwd/../private/todo.txt", "/proc/self/root" + str(tmp_path / "private" / "todo.txt"),
                     "/proc/self/exe", "/proc/self/environ", "/dev/stdin", "/proc/self/fd/0"]:
            for tool, extra in [("read_file", {}), ("write_file", {"content": "pwned"})]:
                result = call(workspace, tool, path=path, **extra)
                assert result.is_error and "outside the workspace" in result.content, (path, result.content)
        # An alias that really leads inside is the inside file, and is shown by its own name.
        assert call(workspace, "read_file", path=f"/proc/self/fd/{inside_fd}").content.startswith("notes/todo.txt, line 1")
    finally:
        os.close(outside_fd)
        os.close(inside_fd)
    assert SECRET in (tmp_path / "private" / "todo.txt").read_text()


# Races: a folder or the file itself swapped for a symlink to outside, without pause, while the tools run.

_SWAPPER = """
import ctypes, sys
rename_exchange = ctypes.CDLL(None, use_errno=True).renameat2
print("ready", flush=True)
while rename_exchange(-100, sys.argv[1].encode(), -100, sys.argv[2].encode(), 2) == 0:  # AT_FDCWD, RENAME_EXCHANGE
    pass
"""


@pytest.mark.parametrize("swapped", ["notes", "notes/todo.txt"])
def test_read_write_and_edit_never_reach_outside_while_a_symlink_is_swapped_in(
    swapped: str, workspace: Workspace, tmp_path: Path
) -> None:
    if not hasattr(ctypes.CDLL(None), "renameat2"):
        pytest.skip("this C library has no renameat2 (glibc >= 2.28 has it)")
    real, link = workspace.root / swapped, workspace.root / (swapped + "-link")
    link.symlink_to(tmp_path / "private" / real.relative_to(workspace.root / "notes") if swapped != "notes"
                    else tmp_path / "private")
    before = outside(tmp_path)
    swapper = subprocess.Popen([sys.executable, "-c", _SWAPPER, real, link], stdout=subprocess.PIPE, text=True)
    registry = build_registry(file_tools(workspace))
    calls = [("read_file", {"path": "notes/todo.txt"}), ("write_file", {"path": "notes/todo.txt", "content": "x\n"}),
             ("edit_file", {"path": "notes/todo.txt", "old_text": "x", "new_text": "x"})]

    async def attack() -> list[ToolResult]:
        return [await execute_tool(registry,
            ToolCall.parse("", name, json.dumps(arguments))) for _ in range(300) for name, arguments in calls]

    try:
        assert swapper.stdout is not None and swapper.stdout.readline() == "ready\n"
        results = asyncio.run(attack())
        assert swapper.poll() is None  # still swapping at the end
    finally:
        swapper.kill()
        swapper.wait()
    assert outside(tmp_path) == before
    assert not [result.content for result in results if "launch code" in result.content]
    assert not [result.content for result in results if "internal error" in result.content]


# Special files and what the file system refuses: `Error:` results that say what happened, never "a bug in the tool".


def test_a_socket_is_not_a_regular_file(workspace: Workspace) -> None:
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(workspace.root / "sock"))
        for tool, extra in [("read_file", {}), ("edit_file", {"old_text": "a", "new_text": "b"}),
                            ("write_file", {"content": "x"})]:
            result = call(workspace, tool, path="sock", **extra)
            assert result.is_error and "'sock' is not a regular file" in result.content, (tool, result.content)


@pytest.mark.parametrize(("code", "said"), [(errno.EACCES, "Permission denied"), (errno.ENOSPC, "No space left"),
                                            (errno.EROFS, "Read-only file system"), (errno.EMFILE, "Too many open")])
def test_what_the_file_system_refuses_is_an_error_result_and_changes_nothing(
    code: int, said: str, workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As root, chmod cannot make a file unwritable, so the refusal is simulated where it would come from.
    real_open = os.open

    def refusing_open(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if str(path).endswith(TEMPORARY_SUFFIX) or (str(path) == "todo.txt" and not flags & os.O_DIRECTORY):
            raise OSError(code, os.strerror(code))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)
    for tool, extra in [("read_file", {}), ("write_file", {"content": "x"}),
                        ("edit_file", {"old_text": "milk", "new_text": "tea"})]:
        result = call(workspace, tool, path="notes/todo.txt", **extra)
        assert result.is_error, (tool, result.content)
        assert result.content.startswith("Error: 'notes/todo.txt' could not be"), result.content
        assert said in result.content and errno.errorcode[code] in result.content
        assert "bug in the tool" not in result.content
    assert (workspace.root / "notes" / "todo.txt").read_text() == "buy milk\n"
    assert [name for name in os.listdir(workspace.root / "notes")] == ["todo.txt"]


def test_a_sparse_file_is_refused_as_binary_without_reading_its_holes(workspace: Workspace) -> None:
    # 1 TB apparent size after one line: skipping to line 3 used to read the whole hole, for minutes.
    path = workspace.root / "sparse.log"
    path.write_text("line 1\n")
    os.truncate(path, 1 << 40)
    result = call(workspace, "read_file", path="sparse.log", offset=3)
    assert result.content == "Error: 'sparse.log' holds NUL bytes: it is a binary file, not text"


def test_size_caps_name_the_limit_and_who_can_raise_it(workspace: Workspace) -> None:
    (workspace.root / "big.txt").write_text("x" * 200)
    (workspace.root / "small.txt").write_text("x" * 60)
    limits = Limits(max_file_bytes=100)
    raise_it = "(Limits.max_file_bytes; only the user can raise it)"
    assert call(workspace, "write_file", limits, path="new.txt", content="x" * 101).content == (
        f"Error: content is 101 bytes; a file may be at most 100 bytes {raise_it}")
    assert call(workspace, "edit_file", limits, path="big.txt", old_text="x", new_text="y").content == (
        f"Error: 'big.txt' is larger than 100 bytes {raise_it}; edit_file does not rewrite files that large")
    assert call(workspace, "edit_file", limits, path="small.txt", old_text="x", new_text="yy", replace_all=True
                ).content == f"Error: the edited file would be 120 bytes; a file may be at most 100 bytes {raise_it}"
    assert (workspace.root / "small.txt").read_text() == "x" * 60


# Concurrent edits: two tasks editing one file at once must both land, or one must be told.


def test_concurrent_edits_of_one_file_all_land(workspace: Workspace) -> None:
    (workspace.root / "settings.txt").write_text("".join(f"key{n} = 0\n" for n in range(30)))
    registry = build_registry(file_tools(workspace))

    async def edit_all() -> list[ToolResult]:
        return await asyncio.gather(*[
            execute_tool(registry, ToolCall.parse("", "edit_file", json.dumps({"path": "settings.txt", "old_text": f"key{n} = 0",
                                                            "new_text": f"key{n} = 1"})))
            for n in range(30)])

    results = asyncio.run(edit_all())
    assert [result.content for result in results] == [f"Replaced 1 occurrence in settings.txt (line {n + 1})"
                                                      for n in range(30)]
    assert (workspace.root / "settings.txt").read_text() == "".join(f"key{n} = 1\n" for n in range(30))


def test_concurrent_whole_writes_end_as_one_whole_version(workspace: Workspace) -> None:
    registry = build_registry(file_tools(workspace))

    async def write_all() -> list[ToolResult]:
        return await asyncio.gather(*[
            execute_tool(registry,
                ToolCall.parse("", "write_file", json.dumps({"path": "data.txt", "content": str(n) * 200_000})))
            for n in range(10)])

    assert not [result for result in asyncio.run(write_all()) if result.is_error]
    content = (workspace.root / "data.txt").read_text()
    assert len(content) == 200_000 and len(set(content)) == 1
    assert sorted(os.listdir(workspace.root)) == ["data.txt", "notes"]  # no temporary left behind


def test_an_edit_refuses_when_another_program_changed_the_file_after_it_was_read(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = workspace.root / "notes" / "todo.txt"
    real_read_whole = file_writing.read_whole

    def read_then_someone_writes(*args: object, **kwargs: object) -> tuple[str, os.stat_result]:
        read = real_read_whole(*args, **kwargs)  # type: ignore[arg-type]
        path.write_text("buy milk\nand eggs\n")  # a shell command, say, in between
        return read

    monkeypatch.setattr(file_writing, "read_whole", read_then_someone_writes)
    result = call(workspace, "edit_file", path="notes/todo.txt", old_text="milk", new_text="tea")
    assert result.content == ("Error: 'notes/todo.txt' changed after edit_file read it (another program wrote to it), "
                              "so nothing was changed; call edit_file again")
    assert path.read_text() == "buy milk\nand eggs\n"


# Names: what a listing shows, and names the tools keep for themselves.


def test_glob_shows_names_with_line_breaks_or_invisible_characters_as_json_strings(workspace: Workspace) -> None:
    for name in ["a.txt\nsecret.txt", "b\u202etxt.exe", "c\u200b.txt", "\"quoted\".txt", "plain é.txt"]:
        (workspace.root / name).write_text("")
    listed = call(workspace, "glob", pattern="*").content.splitlines()
    assert listed == ["6 paths matching '*', sorted (a path with unusual characters is shown as a JSON string):",
                      '"\\"quoted\\".txt"', '"a.txt\\nsecret.txt"', '"b\\u202etxt.exe"', '"c\\u200b.txt"',
                      "notes/", "plain é.txt"]
    # The model copies the JSON string into its JSON arguments as it stands, and names the file exactly.
    arguments = '{"path": ' + listed[2] + '}'
    registry = build_registry(file_tools(workspace))
    assert asyncio.run(execute_tool(registry,
        ToolCall.parse("", "read_file", arguments))).content == "a.txt\nsecret.txt is empty (0 lines)"


def test_names_of_write_file_temporaries_are_refused(workspace: Workspace) -> None:
    # A file with that name would be hidden from glob and deleted as a leftover when the workspace is next opened.
    for tool, extra in [("write_file", {"content": "x"}), ("read_file", {}),
                        ("edit_file", {"old_text": "a", "new_text": "b"})]:
        result = call(workspace, tool, path=f"notes/plan{TEMPORARY_SUFFIX}", **extra)
        assert result.content == (f"Error: names ending in '{TEMPORARY_SUFFIX}' are kept for write_file's temporary "
                                  "files; choose another name, such as 'notes/plan.txt'"), result.content
    assert os.listdir(workspace.root / "notes") == ["todo.txt"]


@pytest.mark.parametrize("path", ["notes/todo.txt/", "notes/todo.txt/.", "notes/new.txt/", "notes/", "notes/."])
def test_a_path_written_as_a_folder_is_not_taken_as_a_file(path: str, workspace: Workspace) -> None:
    for tool, extra in [("read_file", {}), ("write_file", {"content": "x"}),
                        ("edit_file", {"old_text": "milk", "new_text": "tea"})]:
        result = call(workspace, tool, path=path, **extra)
        assert result.is_error and "names a folder" in result.content, (tool, result.content)
    assert sorted(os.listdir(workspace.root / "notes")) == ["todo.txt"]
    assert (workspace.root / "notes" / "todo.txt").read_text() == "buy milk\n"


# A tree deeper than a process may hold folders open.


def test_a_very_deep_tree_is_searched_to_a_bounded_depth_and_says_so(workspace: Workspace) -> None:
    deep = "/".join(["d"] * (MAX_WALK_DEPTH + 20))
    assert not call(workspace, "write_file", path=f"{deep}/found.txt", content="x").is_error
    shallow = "/".join(["d"] * 5)
    assert not call(workspace, "write_file", path=f"{shallow}/found.txt", content="x").is_error
    listed = call(workspace, "glob", pattern="**/found.txt").content.splitlines()
    limit = "/".join(["d"] * MAX_WALK_DEPTH)
    assert listed == ["1 path matching '**/found.txt', sorted:", f"{shallow}/found.txt",
                      f"[not searched: folders more than {MAX_WALK_DEPTH} deep, such as {limit}/; "
                      "read_file and write_file still reach a deeper file by its path]"]
    assert call(workspace, "read_file", path=f"{deep}/found.txt").content.endswith("1\tx\n[end of file]")


# Attacks that held already, kept so they go on holding.


def test_a_file_that_grows_while_it_is_read_gives_a_bounded_answer(workspace: Workspace) -> None:
    path = workspace.root / "live.log"
    path.write_text("start\n")
    stop = threading.Event()

    def append() -> None:
        with path.open("a") as log:
            while not stop.is_set():
                log.write("x" * 1000 + "\n")

    writer = threading.Thread(target=append)
    writer.start()
    try:
        results = [call(workspace, "read_file", path="live.log", offset=2) for _ in range(20)]
    finally:
        stop.set()
        writer.join()
    for result in results:
        assert not result.is_error and len(result.content) < Limits().max_read_chars + 500
        assert all(line.endswith("x" * 10) for line in result.content.splitlines()[1:-1])  # whole lines, or cut and said


def test_edits_keep_the_mode_and_count_overlapping_text_as_replace_does(workspace: Workspace) -> None:
    path = workspace.root / "run.sh"
    path.write_text("aaaa\n")
    path.chmod(0o4751)
    ambiguous = call(workspace, "edit_file", path="run.sh", old_text="aa", new_text="b")
    assert ambiguous.content.startswith("Error: old_text appears 2 times in 'run.sh'")  # "aaaa" holds "aa" twice, apart
    assert call(workspace, "edit_file", path="run.sh", old_text="aa", new_text="b", replace_all=True).content == (
        "Replaced 2 occurrences in run.sh (line 1)")
    assert path.read_text() == "bb\n" and path.stat().st_mode & 0o7777 == 0o4751


def test_special_files_through_an_inside_symlink_are_refused(workspace: Workspace) -> None:
    os.mkfifo(workspace.root / "pipe")
    (workspace.root / "to-pipe").symlink_to("pipe")
    (workspace.root / "zero").symlink_to("/dev/zero")
    for path in ("to-pipe", "zero"):
        for tool, extra in [("read_file", {}), ("write_file", {"content": "x"})]:
            result = call(workspace, tool, path=path, **extra)
            assert result.is_error and ("not a regular file" in result.content or "outside" in result.content), result
