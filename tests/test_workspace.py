"""The workspace guard: resolving, guarded opening (the TOCTOU mitigation) and the glob walk."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from agentkit.agent import open_workspace
from agentkit.hardening.atomic import process_start
from agentkit.hardening.paths import open_parent, safe_open
from agentkit.hardening.tree import SKIPPED_FOLDERS, TEMPORARY_SUFFIX, matches
from agentkit.tools.workspace import Workspace, WorkspaceError


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    root = tmp_path / "ws"
    (root / "notes").mkdir(parents=True)
    (root / "notes" / "todo.txt").write_text("buy milk\n")
    (tmp_path / "private").mkdir()
    (tmp_path / "private" / "secret.txt").write_text("TOP SECRET\n")
    return Workspace(root)


def test_root_is_resolved_once_at_construction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "ws").mkdir()
    monkeypatch.chdir(tmp_path)
    workspace = Workspace("ws")
    monkeypatch.chdir("/")
    assert workspace.root == (tmp_path / "ws").resolve()
    assert workspace.resolve("a.txt") == workspace.root / "a.txt"


def test_root_must_be_an_existing_folder(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        Workspace(tmp_path / "missing")
    (tmp_path / "file").write_text("")
    with pytest.raises(NotADirectoryError):
        Workspace(tmp_path / "file")


def test_inside_paths_resolve_to_real_paths(workspace: Workspace) -> None:
    root = workspace.root
    assert workspace.resolve("notes/todo.txt") == root / "notes" / "todo.txt"
    assert workspace.resolve("notes/../notes/./todo.txt") == root / "notes" / "todo.txt"
    assert workspace.resolve(str(root / "notes")) == root / "notes"  # absolute but inside is fine
    assert workspace.resolve("new/file.txt") == root / "new" / "file.txt"  # need not exist yet
    assert workspace.relative(workspace.resolve(".")) == "."
    assert workspace.relative(workspace.resolve("notes/todo.txt")) == "notes/todo.txt"


def test_a_symlink_that_stays_inside_is_followed(workspace: Workspace) -> None:
    (workspace.root / "shortcut").symlink_to("notes")
    assert workspace.resolve("shortcut/todo.txt") == workspace.root / "notes" / "todo.txt"


def test_refusals_say_what_is_wrong(workspace: Workspace) -> None:
    (workspace.root / "out").symlink_to("../private")
    cases = {
        "../private/secret.txt": "'../private/secret.txt' leads outside the workspace; paths must stay inside "
                                 "the workspace root, for example 'notes.txt' or 'src/app.py'",
        "out/secret.txt": "'out/secret.txt' leads outside the workspace through a symlink; paths must stay inside "
                          "the workspace root, for example 'notes.txt' or 'src/app.py'",
        "": "the path is empty; give a path relative to the workspace root, such as 'notes.txt'",
        "a\0b": "'a\\x00b' contains a NUL byte, which no file name can hold",
        "x" * 5000: "the path is 5,000 bytes long; a path may be at most 4,096 bytes",
        "\ud800": "'\\ud800' is not valid Unicode text (it holds a lone surrogate, as a name in bytes that are "
                  "not UTF-8 reads in Python; no file tool can take such a name)",
    }
    for path, message in cases.items():
        with pytest.raises(WorkspaceError) as caught:
            workspace.resolve(path)
        assert str(caught.value) == message


def test_symlink_loop_is_refused(workspace: Workspace) -> None:
    (workspace.root / "a").symlink_to("b")
    (workspace.root / "b").symlink_to("a")
    (workspace.root / "out").symlink_to("../private")
    for path in ["a", "b/x", "a/../notes", "a/../out/secret.txt", "notes/../a/.."]:
        with pytest.raises(WorkspaceError) as caught:
            workspace.resolve(path)
        assert str(caught.value) == (
            f"{path!r} goes through a symlink loop (more than 40 symlinks in a row); give a path to a real file "
            "or folder, such as 'notes.txt'"
        )


def test_a_loop_is_never_skipped_lexically(workspace: Workspace) -> None:
    # Path.resolve() on a loop gives up and returns the rest of the path as text: 'loop/../out' became 'out',
    # which then led outside without any check. '..' must apply to where 'loop' really leads.
    (workspace.root / "loop").symlink_to("loop")
    (workspace.root / "out").symlink_to("../private")
    with pytest.raises(WorkspaceError, match="symlink loop"):
        workspace.resolve("loop/../out")


def test_a_chain_of_forty_symlinks_is_followed_and_forty_one_is_a_loop(workspace: Workspace) -> None:
    for n in range(41):
        (workspace.root / f"link{n}").symlink_to(f"link{n + 1}" if n < 40 else "notes")
    assert workspace.resolve("link1/todo.txt") == workspace.root / "notes" / "todo.txt"  # 40 hops
    with pytest.raises(WorkspaceError, match="symlink loop"):
        workspace.resolve("link0/todo.txt")  # 41 hops


def test_symlinks_are_followed_one_name_at_a_time(workspace: Workspace) -> None:
    root = workspace.root
    (root / "deep" / "er").mkdir(parents=True)
    (root / "deep" / "er" / "up").symlink_to("../..")            # up leads to the root
    (root / "abs").symlink_to(root / "notes")                     # an absolute target inside
    (root / "file-link").symlink_to("notes/todo.txt")
    assert workspace.resolve("deep/er/up/notes/todo.txt") == root / "notes" / "todo.txt"
    with pytest.raises(WorkspaceError, match="leads outside the workspace through a symlink"):
        workspace.resolve("deep/er/up/..")  # '..' of where up really leads (the root), not of 'deep/er'
    assert workspace.resolve("abs/todo.txt") == root / "notes" / "todo.txt"
    assert workspace.resolve("file-link/..") == root / "notes"  # the folder of the file it leads to
    assert workspace.resolve("missing/../notes") == root / "notes"  # a name that does not exist is kept as text


def test_non_string_path_is_refused(workspace: Workspace) -> None:
    with pytest.raises(WorkspaceError, match="should be a string, not int"):
        workspace.resolve(3)  # type: ignore[arg-type]


def test_open_reads_a_guarded_path(workspace: Workspace) -> None:
    fd = safe_open(workspace.root, workspace.resolve("notes/todo.txt"), os.O_RDONLY)
    with open(fd, encoding="utf-8") as file:
        assert file.read() == "buy milk\n"


def test_open_refuses_the_root_and_a_file_used_as_folder(workspace: Workspace) -> None:
    with pytest.raises(WorkspaceError, match="'.' is the workspace root, a folder"):
        safe_open(workspace.root, workspace.resolve("."), os.O_RDONLY)
    with pytest.raises(WorkspaceError, match="'notes/todo.txt/x' goes through something that is not a folder"):
        safe_open(workspace.root, workspace.resolve("notes/todo.txt/x"), os.O_RDONLY)


def test_folder_swapped_for_symlink_after_the_check_is_refused(workspace: Workspace) -> None:
    checked = workspace.resolve("notes/todo.txt")  # the check passes: notes is a real folder
    (workspace.root / "notes").rename(workspace.root / "old-notes")
    (workspace.root / "notes").symlink_to(workspace.root.parent / "private")  # the attacker's swap
    (workspace.root.parent / "private" / "todo.txt").write_text("outside\n")
    with pytest.raises(WorkspaceError) as caught:
        safe_open(workspace.root, checked, os.O_RDONLY)
    assert str(caught.value) == (
        "'notes/todo.txt' changed while it was being opened (a symlink appeared on the way); refused"
    )


def test_file_swapped_for_symlink_after_the_check_is_refused(workspace: Workspace) -> None:
    checked = workspace.resolve("notes/todo.txt")
    (workspace.root / "notes" / "todo.txt").unlink()
    (workspace.root / "notes" / "todo.txt").symlink_to(workspace.root.parent / "private" / "secret.txt")
    with pytest.raises(WorkspaceError, match="changed while it was being opened"):
        safe_open(workspace.root, checked, os.O_RDONLY)


def test_open_parent_makes_missing_folders_only_when_asked(workspace: Workspace) -> None:
    target = workspace.resolve("a/b/c.txt")
    with pytest.raises(FileNotFoundError):
        with open_parent(workspace.root, target):
            pass
    with open_parent(workspace.root, target, make_folders=True) as (folder, name):
        assert name == "c.txt"
        assert os.path.samestat(os.fstat(folder), os.stat(workspace.root / "a" / "b"))


def _tree(root: Path, paths: list[str]) -> None:
    for path in paths:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text("")


def test_glob_yields_sorted_relative_paths_with_folders_marked(workspace: Workspace) -> None:
    _tree(workspace.root, ["a.txt", "a/b.txt", "a-b/c.txt", "B.txt", "src/x.py", "src/pkg/y.py"])
    found = list(workspace.glob("**"))
    assert found == sorted(found)
    assert found == ["B.txt", "a-b/", "a-b/c.txt", "a.txt", "a/", "a/b.txt", "notes/", "notes/todo.txt",
                     "src/", "src/pkg/", "src/pkg/y.py", "src/x.py"]
    assert list(workspace.glob("**/*.py")) == ["src/pkg/y.py", "src/x.py"]
    assert list(workspace.glob("src/*.py")) == ["src/x.py"]
    assert list(workspace.glob("./src//*.py")) == ["src/x.py"]
    assert list(workspace.glob("*")) == ["B.txt", "a-b/", "a.txt", "a/", "notes/", "src/"]


def test_glob_never_enters_skipped_folders(workspace: Workspace) -> None:
    _tree(workspace.root, [f"{folder}/inside.txt" for folder in SKIPPED_FOLDERS] + ["keep/inside.txt"])
    assert list(workspace.glob("**/inside.txt")) == ["keep/inside.txt"]
    assert list(workspace.glob(".git/*")) == []


def test_glob_does_not_enter_symlinked_folders_and_hides_links_out(workspace: Workspace) -> None:
    (workspace.root / "out").symlink_to("../private")
    (workspace.root / "secret-link").symlink_to("../private/secret.txt")
    (workspace.root / "shortcut").symlink_to("notes")
    assert list(workspace.glob("**")) == ["notes/", "notes/todo.txt", "shortcut"]


def test_glob_refuses_patterns_that_reach_outside(workspace: Workspace) -> None:
    for pattern, message in {
        "../*": "the pattern '../*' climbs out with '..'; glob only searches inside the workspace",
        "/etc/*": "the pattern '/etc/*' is absolute; glob patterns are relative to the workspace root, "
                  "for example '**/*.py'",
        "./": "the pattern './' names nothing; try '*' or '**/*.txt'",
        "": "the pattern is empty; give a pattern relative to the workspace root, such as '*.txt' or '**/*.py'",
        " ": "the pattern is empty; give a pattern relative to the workspace root, such as '*.txt' or '**/*.py'",
    }.items():
        with pytest.raises(WorkspaceError) as caught:
            list(workspace.glob(pattern))
        assert str(caught.value) == message


def test_glob_never_enters_a_folder_swapped_for_a_symlink_mid_walk(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The swap is made at the worst moment, every time: just after the walk has listed d/, before it enters d/sub/.
    base = workspace.root.parent
    _tree(workspace.root, ["d/sub/inside.txt"])
    _tree(base, ["private/sub/OUTSIDE-NAME.txt"])
    real_scandir = os.scandir

    def list_then_swap(fd):  # type: ignore[no-untyped-def]
        with real_scandir(fd) as listing:
            entries = list(listing)
        if {entry.name for entry in entries} == {"sub"} and not (workspace.root / "stash").exists():
            (workspace.root / "d").rename(workspace.root / "stash")
            (workspace.root / "d").symlink_to(base / "private")
        return _Listing(entries)

    monkeypatch.setattr(os, "scandir", list_then_swap)
    found = list(workspace.glob("**"))
    assert (workspace.root / "d").is_symlink()  # the swap did happen
    assert found == ["d/", "d/sub/", "d/sub/inside.txt", "notes/", "notes/todo.txt"]


class _Listing(list):  # type: ignore[type-arg]
    """What `os.scandir` returns, already read: a context manager that iterates its entries."""

    def __enter__(self) -> _Listing:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def test_glob_stopped_early_closes_its_folders(workspace: Workspace) -> None:
    _tree(workspace.root, ["a/b/c/d.txt", "e.txt"])
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(50):
        walk = workspace.glob("**")
        assert next(walk) == "a/"
        assert next(walk) == "a/b/"
        walk.close()
    assert len(os.listdir("/proc/self/fd")) == before


def _temporary(folder: Path, age: float | None) -> Path:
    """A leftover of `write_file`; `age` seconds older than this process (None: written just now)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f".0123456789ab{TEMPORARY_SUFFIX}"
    path.write_text("half a write")
    if age is not None:
        os.utime(path, (process_start() - age,) * 2)
    return path


def test_glob_never_lists_temporary_files(workspace: Workspace) -> None:
    _temporary(workspace.root, age=None)
    _temporary(workspace.root / "notes", age=None)
    for pattern in ["**", "*", ".*", "**/.*", f"**/*{TEMPORARY_SUFFIX}", "notes/*"]:
        assert not [path for path in workspace.glob(pattern) if path.endswith(TEMPORARY_SUFFIX)], pattern


def test_stale_temporaries_are_removed_when_a_workspace_opens(workspace: Workspace) -> None:
    root, base = workspace.root, workspace.root.parent
    stale = [_temporary(root, age=3600), _temporary(root / "notes" / "deep", age=1)]
    kept = [
        _temporary(root / "fresh", age=None),                 # a write going on now, in some live process
        _temporary(root / ".git", age=3600),                  # skipped folders are never entered
        _temporary(base / "private", age=3600),               # outside, behind a symlink: never followed
    ]
    (root / "out").symlink_to("../private")
    (root / f".link{TEMPORARY_SUFFIX}").symlink_to(kept[-1])  # a symlink named like one: not a temporary
    open_workspace(root)
    assert [path for path in stale if path.exists()] == []
    assert [path for path in kept if path.exists()] == kept
    assert (root / f".link{TEMPORARY_SUFFIX}").is_symlink()


def test_the_constructor_only_records_the_root_and_open_workspace_sweeps(workspace: Workspace) -> None:
    stale = _temporary(workspace.root / "notes", age=3600)
    assert Workspace(workspace.root).root == workspace.root
    assert stale.exists()  # the constructor walks nothing and deletes nothing
    assert open_workspace(workspace.root).root == workspace.root
    assert not stale.exists()


def test_the_process_start_is_in_the_past() -> None:
    assert time.time() - 7 * 24 * 3600 < process_start() <= time.time()


def test_glob_is_lazy(workspace: Workspace) -> None:
    _tree(workspace.root, [f"d{i}/f.txt" for i in range(5)])
    walk = workspace.glob("**/*.txt")
    assert next(walk) == "d0/f.txt"
    (workspace.root / "d3" / "g.txt").write_text("")  # seen: a folder is listed only when the walk gets there
    assert list(walk) == ["d1/f.txt", "d2/f.txt", "d3/f.txt", "d3/g.txt", "d4/f.txt", "notes/todo.txt"]


@pytest.mark.parametrize(
    ("path", "pattern", "expected"),
    [
        ("a.py", "*.py", True),
        ("src/a.py", "*.py", False),
        ("src/a.py", "**/*.py", True),
        ("a.py", "**/*.py", True),
        ("src/x/y/a.py", "src/**/a.py", True),
        ("src/a.py", "src/**/a.py", True),
        ("lib/a.py", "src/**/a.py", False),
        ("a/b/c", "**/b/**", True),
        ("a/c", "**/b/**", False),
        ("a/b", "a/?", True),
        ("a/bc", "a/?", False),
        ("a/b", "a/[bc]", True),
    ],
)
def test_pattern_matching(path: str, pattern: str, expected: bool) -> None:
    assert matches(tuple(path.split("/")), tuple(pattern.split("/"))) is expected
