"""read_file, write_file, edit_file and glob: the exact texts the model sees, and the tool definitions."""

from __future__ import annotations

import asyncio
import errno
import json
import os
import threading
import tracemalloc
from pathlib import Path

import pytest

from agentkit.agent import open_workspace
from agentkit.calls import ToolCall
from agentkit.hardening.tree import TEMPORARY_SUFFIX
from agentkit.limits import Limits
from agentkit.tools.contract import ToolError
from agentkit.tools.dispatcher import execute_tool
from agentkit.tools.file_reading import glob, read_file
from agentkit.tools.file_writing import edit_file, write_file
from agentkit.tools.filesystem import file_tools
from agentkit.tools.registry import build_registry
from agentkit.tools.workspace import Workspace


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    (tmp_path / "ws").mkdir()
    return Workspace(tmp_path / "ws")


def put(workspace: Workspace, path: str, content: str | bytes) -> Path:
    target = workspace.root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(content if isinstance(content, bytes) else content.encode())
    return target


# read_file


def test_read_whole_file_with_line_numbers(workspace: Workspace) -> None:
    put(workspace, "notes.txt", "one\ntwo\nthree\n")
    assert read_file(workspace, "notes.txt") == (
        "notes.txt, lines 1-3:\n     1\tone\n     2\ttwo\n     3\tthree\n[end of file]"
    )


def test_read_a_window_says_where_to_continue(workspace: Workspace) -> None:
    put(workspace, "notes.txt", "one\ntwo\nthree\nfour")
    assert read_file(workspace, "notes.txt", offset=2, limit=2) == (
        "notes.txt, lines 2-3:\n     2\ttwo\n     3\tthree\n[more lines follow: continue with offset=4]"
    )
    assert read_file(workspace, "notes.txt", offset=4) == "notes.txt, line 4:\n     4\tfour\n[end of file]"


def test_offsets_land_on_the_right_line_across_blocks(workspace: Workspace) -> None:
    lines = [f"{n}:" + "é" * (n % 97) for n in range(1, 20_001)]  # multi-byte text, ~1.5 MB
    put(workspace, "many.txt", "\n".join(lines) + "\n")
    for offset in (1, 2, 999, 4_321, 19_999, 20_000):
        text = read_file(workspace, "many.txt", offset=offset, limit=1)
        assert text.splitlines()[1] == f"{offset:>6}\t{lines[offset - 1]}"


def test_crlf_lines_are_shown_without_the_carriage_return(workspace: Workspace) -> None:
    put(workspace, "win.txt", b"a\r\nb\r\n")
    assert read_file(workspace, "win.txt") == "win.txt, lines 1-2:\n     1\ta\n     2\tb\n[end of file]"


def test_read_empty_file_and_offset_past_the_end(workspace: Workspace) -> None:
    put(workspace, "empty.txt", "")
    put(workspace, "two.txt", "a\nb\n")
    assert read_file(workspace, "empty.txt") == "empty.txt is empty (0 lines)"
    put(workspace, "no-newline.txt", "a\nb")
    for path, offset in [("two.txt", 3), ("two.txt", 5), ("no-newline.txt", 3), ("no-newline.txt", 9)]:
        with pytest.raises(ToolError) as caught:
            read_file(workspace, path, offset=offset)
        assert str(caught.value) == f"'{path}' has 2 lines; offset={offset} is past its end"
    assert read_file(workspace, "no-newline.txt", offset=2) == "no-newline.txt, line 2:\n     2\tb\n[end of file]"


def test_read_stops_at_the_character_cap(workspace: Workspace) -> None:
    put(workspace, "notes.txt", "one\ntwo\nthree\n")
    assert read_file(workspace, "notes.txt", limits=Limits(max_read_chars=9)) == (
        "notes.txt, lines 1-3:\n     1\tone\n     2\ttwo\n     3\tt\n"
        "[line 3 is cut: read_file returns at most 9 characters a call; continue with offset=4]"
    )


def test_read_one_huge_line_is_cut(workspace: Workspace) -> None:
    put(workspace, "line.txt", "x" * 100_000)
    assert read_file(workspace, "line.txt", limits=Limits(max_read_chars=5)) == (
        "line.txt, line 1:\n     1\txxxxx\n"
        "[line 1 is cut: read_file returns at most 5 characters a call; continue with offset=2]"
    )


def test_read_refuses_what_is_not_text(workspace: Workspace) -> None:
    put(workspace, "image.png", b"\x89PNG\r\n\x1a\n\x00\x00")
    put(workspace, "zeros.bin", b"abc\x00def\n")
    put(workspace, "latin1.txt", "café\n".encode("latin-1"))
    (workspace.root / "folder").mkdir()
    cases = {
        "image.png": "'image.png' is not UTF-8 text (it may be a binary file); read_file only reads text",
        "zeros.bin": "'zeros.bin' holds NUL bytes: it is a binary file, not text",
        "latin1.txt": "'latin1.txt' is not UTF-8 text (it may be a binary file); read_file only reads text",
        "folder": "'folder' is a folder; use glob (for example 'folder/*') to list what a folder holds",
        "missing.txt": "'missing.txt' does not exist; use glob to see which files there are",
    }
    for path, message in cases.items():
        with pytest.raises(ToolError) as caught:
            read_file(workspace, path)
        assert str(caught.value) == message


def test_read_does_not_hang_on_a_fifo(workspace: Workspace) -> None:
    os.mkfifo(workspace.root / "pipe")
    with pytest.raises(ToolError, match="'pipe' is not a regular file"):
        read_file(workspace, "pipe")


def test_read_with_limit_reads_only_the_start_of_a_huge_file(workspace: Workspace) -> None:
    # 8 GB apparent size: text at the start, then a hole. Reading it all would need gigabytes of memory.
    path = put(workspace, "huge.log", "".join(f"line {n}\n" for n in range(1, 101)))
    os.truncate(path, 8 * 1024**3)
    tracemalloc.start()
    try:
        text = read_file(workspace, "huge.log", limit=20)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert text.startswith("huge.log, lines 1-20:\n     1\tline 1\n")
    assert text.endswith("    20\tline 20\n[more lines follow: continue with offset=21]")
    assert peak < 1_000_000


# write_file


def test_write_creates_folders_and_says_how_many_bytes(workspace: Workspace) -> None:
    assert write_file(workspace, "a/b/note.txt", "héllo\n") == "Wrote 7 bytes to a/b/note.txt (new file)"
    assert (workspace.root / "a/b/note.txt").read_text() == "héllo\n"
    assert write_file(workspace, "a/b/note.txt", "bye") == "Wrote 3 bytes to a/b/note.txt (replaced its old content)"
    assert (workspace.root / "a/b/note.txt").read_text() == "bye"
    assert sorted(os.listdir(workspace.root / "a/b")) == ["note.txt"]  # no temporary file left behind


def test_write_keeps_permissions_and_writes_through_an_inside_symlink(workspace: Workspace) -> None:
    script = put(workspace, "run.sh", "echo old\n")
    script.chmod(0o751)
    (workspace.root / "link.sh").symlink_to("run.sh")
    assert write_file(workspace, "link.sh", "echo new\n") == "Wrote 9 bytes to run.sh (replaced its old content)"
    assert (workspace.root / "link.sh").is_symlink()
    assert script.read_text() == "echo new\n"
    assert script.stat().st_mode & 0o777 == 0o751


def test_write_refuses_a_folder_and_too_much_content(workspace: Workspace) -> None:
    (workspace.root / "folder").mkdir()
    with pytest.raises(ToolError, match=r"^'folder' is a folder; write_file only writes files$"):
        write_file(workspace, "folder", "x")
    cap = r"^content is 11 bytes; a file may be at most 10 bytes \(Limits.max_file_bytes; only the user can raise it\)$"
    with pytest.raises(ToolError, match=cap):
        write_file(workspace, "big.txt", "x" * 11, limits=Limits(max_file_bytes=10))
    assert not (workspace.root / "big.txt").exists()


def test_a_concurrent_reader_sees_old_or_new_never_half(workspace: Workspace) -> None:
    old, new = "a" * 3_000_000, "b" * 3_000_000
    path = put(workspace, "data.txt", old)
    seen: set[str] = set()
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            seen.add(path.read_text()[::100_000])

    thread = threading.Thread(target=reader)
    thread.start()
    for content in (new, old, new):
        write_file(workspace, "data.txt", content)
    stop.set()
    thread.join()
    assert seen <= {old[::100_000], new[::100_000]}


def test_a_failed_write_leaves_the_old_file_and_no_temporary(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = put(workspace, "data.txt", "old\n")
    real_write = os.write

    def disk_full_halfway(fd: int, data: bytes) -> int:
        real_write(fd, bytes(data[: len(data) // 2]))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", disk_full_halfway)
    with pytest.raises(OSError, match="No space left"):
        write_file(workspace, "data.txt", "new content\n")
    assert path.read_text() == "old\n"
    assert os.listdir(workspace.root) == ["data.txt"]


def test_a_live_write_keeps_its_temporary_when_another_workspace_opens(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Opening a workspace removes temporaries older than this process; one being written right now is not.
    halfway, resume = threading.Event(), threading.Event()
    real_write = os.write

    def pause_halfway(fd: int, data: bytes) -> int:
        if threading.current_thread().name != "writer" or halfway.is_set():
            return real_write(fd, data)
        written = real_write(fd, bytes(data[: len(data) // 2]))
        halfway.set()
        resume.wait(timeout=60)
        return written

    monkeypatch.setattr(os, "write", pause_halfway)
    results: list[str] = []
    writer = threading.Thread(name="writer", target=lambda: results.append(write_file(workspace, "big.txt", "x" * 1000)))
    writer.start()
    try:
        assert halfway.wait(timeout=60)
        assert [name for name in os.listdir(workspace.root) if name.endswith(TEMPORARY_SUFFIX)]
        open_workspace(workspace.root)
    finally:
        resume.set()
        writer.join()
    assert results == ["Wrote 1,000 bytes to big.txt (new file)"]
    assert os.listdir(workspace.root) == ["big.txt"]


def test_write_and_edit_refuse_a_file_with_hard_links(workspace: Workspace) -> None:
    path = put(workspace, "a.txt", "shared\n")
    os.link(path, workspace.root / "b.txt")
    refusal = ("'b.txt' has 2 hard links (names for the same file), and another name may be outside the workspace, "
               "so {tool} does not change it; write the new content to a new path instead, for example 'b.txt.new'")
    with pytest.raises(ToolError) as caught:
        write_file(workspace, "b.txt", "changed\n")
    assert str(caught.value) == refusal.format(tool="write_file")
    with pytest.raises(ToolError) as caught:
        edit_file(workspace, "b.txt", "shared", "changed")
    assert str(caught.value) == refusal.format(tool="edit_file")
    assert path.read_text() == "shared\n" and os.path.samefile(path, workspace.root / "b.txt")
    assert read_file(workspace, "b.txt") == "b.txt, line 1:\n     1\tshared\n[end of file]"  # reading is allowed
    assert write_file(workspace, "b.txt.new", "changed\n") == "Wrote 8 bytes to b.txt.new (new file)"


# edit_file


def test_edit_replaces_a_unique_text(workspace: Workspace) -> None:
    put(workspace, "app.cfg", "[server]\ntimeout = 30\n")
    assert edit_file(workspace, "app.cfg", "timeout = 30", "timeout = 60") == (
        "Replaced 1 occurrence in app.cfg (line 2)"
    )
    assert (workspace.root / "app.cfg").read_text() == "[server]\ntimeout = 60\n"


def test_edit_refuses_absent_and_ambiguous_text_with_the_count(workspace: Workspace) -> None:
    put(workspace, "app.cfg", "[server]\ntimeout = 30\n[client]\ntimeout = 30\n")
    with pytest.raises(ToolError) as caught:
        edit_file(workspace, "app.cfg", "timeout = 30", "timeout = 60")
    assert str(caught.value) == (
        "old_text appears 2 times in 'app.cfg' (lines 2, 4); include more of the surrounding text to make it "
        "unique, or pass occurrence=N (1 to 2) or replace_all=true"
    )
    with pytest.raises(ToolError) as caught:
        edit_file(workspace, "app.cfg", "timeout=30", "timeout = 60")
    assert str(caught.value) == (
        "old_text was not found in 'app.cfg' (0 occurrences); read the file and copy the text exactly, "
        "with its spaces and line breaks"
    )
    with pytest.raises(ToolError) as caught:
        edit_file(workspace, "app.cfg", "timeout = 30", "x", occurrence=3)
    assert str(caught.value) == (
        "occurrence=3, but old_text appears 2 times in 'app.cfg' (lines 2, 4); occurrence should be 1 to 2"
    )
    assert (workspace.root / "app.cfg").read_text() == "[server]\ntimeout = 30\n[client]\ntimeout = 30\n"


def test_edit_a_chosen_occurrence_or_all(workspace: Workspace) -> None:
    put(workspace, "app.cfg", "[server]\ntimeout = 30\n[client]\ntimeout = 30\n")
    assert edit_file(workspace, "app.cfg", "timeout = 30", "timeout = 5", occurrence=2) == (
        "Replaced 1 occurrence in app.cfg (line 4)"
    )
    assert (workspace.root / "app.cfg").read_text() == "[server]\ntimeout = 30\n[client]\ntimeout = 5\n"
    assert edit_file(workspace, "app.cfg", "timeout = ", "wait = ", replace_all=True) == (
        "Replaced 2 occurrences in app.cfg (lines 2, 4)"
    )
    assert (workspace.root / "app.cfg").read_text() == "[server]\nwait = 30\n[client]\nwait = 5\n"


def test_edit_keeps_crlf_line_endings(workspace: Workspace) -> None:
    put(workspace, "win.txt", b"a = 1\r\nb = 2\r\n")
    edit_file(workspace, "win.txt", "b = 2", "b = 3")
    assert (workspace.root / "win.txt").read_bytes() == b"a = 1\r\nb = 3\r\n"


def test_edit_refuses_bad_requests(workspace: Workspace) -> None:
    put(workspace, "a.txt", "abc")
    put(workspace, "b.bin", b"\xff\xfe")
    put(workspace, "big.txt", "x" * 20)
    for kwargs, message in [
        ({"path": "a.txt", "old_text": "", "new_text": "x"}, "old_text is empty; copy the exact text to replace "
                                                             "from the file"),
        ({"path": "a.txt", "old_text": "a", "new_text": "x", "occurrence": 1, "replace_all": True},
         "give occurrence or replace_all=true, not both"),
        ({"path": "b.bin", "old_text": "a", "new_text": "x"},
         "'b.bin' is not UTF-8 text (it may be a binary file); edit_file only edits text"),
        ({"path": "big.txt", "old_text": "x", "new_text": "y"},
         "'big.txt' is larger than 10 bytes (Limits.max_file_bytes; only the user can raise it); edit_file does not "
         "rewrite files that large"),
        ({"path": "none.txt", "old_text": "a", "new_text": "x"},
         "'none.txt' does not exist; use glob to see which files there are"),
    ]:
        with pytest.raises(ToolError) as caught:
            edit_file(workspace, limits=Limits(max_file_bytes=10), **kwargs)
        assert str(caught.value) == message


# glob


def test_glob_lists_sorted_and_says_when_it_stopped(workspace: Workspace) -> None:
    for name in ["b.py", "a.py", "src/c.py", "README.md"]:
        put(workspace, name, "")
    assert glob(workspace, "**/*.py") == "3 paths matching '**/*.py', sorted:\na.py\nb.py\nsrc/c.py"
    assert glob(workspace, "*.md") == "1 path matching '*.md', sorted:\nREADME.md"
    assert glob(workspace, "**/*.py", max_results=2) == (
        "First 2 paths matching '**/*.py', sorted. Stopped there: more paths match; "
        "narrow the pattern to see the others.\na.py\nb.py"
    )
    assert glob(workspace, "**/*.py", max_results=3).startswith("3 paths")
    assert glob(workspace, "**/*.rs") == (
        "No paths match '**/*.rs' (glob never searches .git, .hg, .mypy_cache, .pytest_cache, .svn, .tox, "
        ".venv, __pycache__, node_modules, venv)"
    )


def _make_deep(root: Path, names: list[str]) -> None:
    """Folders below `root`, made one level at a time: the whole path may be longer than Linux lets one call name."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for name in names:
            os.mkdir(name, dir_fd=fd)
            fd, parent = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd), fd
            os.close(parent)
        os.close(os.open("deepest.txt", os.O_WRONLY | os.O_CREAT, dir_fd=fd))
    finally:
        os.close(fd)


def test_glob_never_lists_a_path_that_read_file_refuses_and_says_why_one_is_left_out(workspace: Workspace) -> None:
    # Names in bytes that are not UTF-8 (Latin-1 é, a lone 0xFF), as another program may leave them, and a path
    # longer than Linux's PATH_MAX: glob and read_file must agree on every one of them.
    root = os.fsencode(workspace.root)
    for name in (b"caf\xe9.txt", b"ok.txt", b"sub/ok.txt", b"\xff/inside.txt", b"sub/x\xffy.txt"):
        os.makedirs(os.path.dirname(root + b"/" + name), exist_ok=True)
        with open(root + b"/" + name, "w") as file:
            file.write("text\n")
    _make_deep(workspace.root, ["d" * 250] * 20)  # 5,000 bytes of folders
    listing = glob(workspace, "**/*.txt")
    shown = listing.splitlines()
    assert shown[:3] == ["2 paths matching '**/*.txt', sorted:", "ok.txt", "sub/ok.txt"]
    assert shown[3] == ("[left out: 4 paths that no file tool can open, such as b'caf\\xe9.txt': its name is not "
                        "UTF-8 text; the user, or a shell command, can rename it]")
    registry = build_registry(file_tools(workspace))
    for path in shown[1:3]:  # everything listed reads
        assert not asyncio.run(execute_tool(registry, ToolCall.parse("", "read_file", json.dumps({"path": path})))).is_error
    left_out: list[tuple[str, str]] = []
    assert list(workspace.glob("**/*.txt", left_out=left_out)) == ["ok.txt", "sub/ok.txt"]
    # Each path left out is one read_file refuses: the folder named b'\xff' is not entered, its file not listed.
    assert [path.count("/") for path, _ in left_out] == [0, 17, 1, 1]  # the first folder past PATH_MAX is not entered
    for path, why in left_out:
        with pytest.raises(ToolError) as refused:
            read_file(workspace, path.rstrip("/") + ("/inside.txt" if path.endswith("/") else ""))
        assert ("not valid Unicode text" in str(refused.value)) == why.endswith("its name is not UTF-8 text")


def test_glob_default_cap_comes_from_limits(workspace: Workspace) -> None:
    for n in range(5):
        put(workspace, f"f{n}.txt", "")
    assert glob(workspace, "*.txt", limits=Limits(max_glob_results=3)).startswith("First 3 paths")


# the tool definitions, through the registry and dispatcher


def test_file_tools_definitions(workspace: Workspace) -> None:
    tools = {tool.name: tool for tool in file_tools(workspace, Limits(max_glob_results=50))}
    assert list(tools) == ["read_file", "write_file", "edit_file", "glob"]
    assert {name: tool.needs_confirmation for name, tool in tools.items()} == {
        "read_file": False, "write_file": True, "edit_file": True, "glob": False,
    }
    for tool in tools.values():
        assert tool.parameters["additionalProperties"] is False
        assert set(tool.parameters["required"]) <= set(tool.parameters["properties"])
    assert tools["glob"].parameters["properties"]["max_results"]["maximum"] == 50


def test_the_model_is_shown_each_default_and_bound_from_the_signatures(workspace: Workspace) -> None:
    tools = {tool.name: tool for tool in file_tools(workspace, Limits(max_glob_results=50))}
    shown = {name: {argument: {key: value for key, value in schema.items() if key != "description"}
                    for argument, schema in tool.parameters["properties"].items()} for name, tool in tools.items()}
    assert shown["read_file"] == {"path": {"type": "string"}, "offset": {"type": "integer", "default": 1, "minimum": 1},
                                  "limit": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "default": None}}
    assert shown["glob"]["max_results"] == {"type": "integer", "default": 50, "maximum": 50, "minimum": 1}
    assert shown["edit_file"]["old_text"] == {"type": "string", "minLength": 1}
    assert shown["edit_file"]["replace_all"] == {"type": "boolean", "default": False}
    assert [tool.parameters["required"] for tool in tools.values()] == [
        ["path"], ["path", "content"], ["path", "old_text", "new_text"], ["pattern"]]


@pytest.mark.parametrize(("name", "arguments", "problem"), [
    ("read_file", {"path": "n.txt", "limit": 0}, "argument 'limit': 0 is less than the minimum of 1"),
    ("edit_file", {"path": "n.txt", "old_text": "a", "new_text": "b", "occurrence": 0},
     "argument 'occurrence': 0 is less than the minimum of 1"),
    ("glob", {"pattern": "*", "max_results": 51}, "argument 'max_results': 51 is greater than the maximum of 50"),
])
def test_a_bound_broken_is_named_to_the_model(workspace: Workspace, name: str, arguments: dict, problem: str) -> None:
    registry = build_registry(file_tools(workspace, Limits(max_glob_results=50)))
    assert run(registry, name, **arguments).content == (
        f"Error: arguments for '{name}' do not match its parameters (1 problem):\n- {problem}")


def run(registry: dict, name: str, **arguments: object):  # type: ignore[no-untyped-def]
    return asyncio.run(execute_tool(registry, ToolCall.parse("", name, json.dumps(arguments))))


def test_tools_through_the_dispatcher(workspace: Workspace) -> None:
    registry = build_registry(file_tools(workspace))
    assert run(registry, "write_file", path="n.txt", content="hi\n").content == "Wrote 3 bytes to n.txt (new file)"
    assert run(registry, "read_file", path="n.txt").content == "n.txt, line 1:\n     1\thi\n[end of file]"
    assert run(registry, "edit_file", path="n.txt", old_text="hi", new_text="ho").content == (
        "Replaced 1 occurrence in n.txt (line 1)"
    )
    assert run(registry, "glob", pattern="*").content == "1 path matching '*', sorted:\nn.txt"
    refused = run(registry, "read_file", path="../n.txt")
    assert refused.is_error
    assert refused.content.startswith("Error: '../n.txt' leads outside the workspace")
    bad = run(registry, "read_file", path="n.txt", offset=0, mode="fast")
    assert bad.is_error and "unexpected argument: 'mode'" in bad.content and "offset" in bad.content
