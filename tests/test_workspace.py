"""The workspace guard: resolving, guarded opening (the TOCTOU mitigation) and the glob walk."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agentkit.tools.workspace import SKIPPED_FOLDERS, Workspace, WorkspaceError, _matches


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
        "\ud800": "'\\ud800' is not valid Unicode text (it holds a lone surrogate)",
    }
    for path, message in cases.items():
        with pytest.raises(WorkspaceError) as caught:
            workspace.resolve(path)
        assert str(caught.value) == message


def test_symlink_loop_is_refused(workspace: Workspace) -> None:
    (workspace.root / "a").symlink_to("b")
    (workspace.root / "b").symlink_to("a")
    with pytest.raises(WorkspaceError, match="'a' is a symlink loop"):
        workspace.resolve("a")


def test_non_string_path_is_refused(workspace: Workspace) -> None:
    with pytest.raises(WorkspaceError, match="should be a string, not int"):
        workspace.resolve(3)  # type: ignore[arg-type]


def test_open_reads_a_guarded_path(workspace: Workspace) -> None:
    fd = workspace.open(workspace.resolve("notes/todo.txt"), os.O_RDONLY)
    with open(fd, encoding="utf-8") as file:
        assert file.read() == "buy milk\n"


def test_open_refuses_the_root_and_a_file_used_as_folder(workspace: Workspace) -> None:
    with pytest.raises(WorkspaceError, match="'.' is the workspace root, a folder"):
        workspace.open(workspace.resolve("."), os.O_RDONLY)
    with pytest.raises(WorkspaceError, match="'notes/todo.txt/x' goes through something that is not a folder"):
        workspace.open(workspace.resolve("notes/todo.txt/x"), os.O_RDONLY)


def test_folder_swapped_for_symlink_after_the_check_is_refused(workspace: Workspace) -> None:
    checked = workspace.resolve("notes/todo.txt")  # the check passes: notes is a real folder
    (workspace.root / "notes").rename(workspace.root / "old-notes")
    (workspace.root / "notes").symlink_to(workspace.root.parent / "private")  # the attacker's swap
    (workspace.root.parent / "private" / "todo.txt").write_text("outside\n")
    with pytest.raises(WorkspaceError) as caught:
        workspace.open(checked, os.O_RDONLY)
    assert str(caught.value) == (
        "'notes/todo.txt' changed while it was being opened (a symlink appeared on the way); refused"
    )


def test_file_swapped_for_symlink_after_the_check_is_refused(workspace: Workspace) -> None:
    checked = workspace.resolve("notes/todo.txt")
    (workspace.root / "notes" / "todo.txt").unlink()
    (workspace.root / "notes" / "todo.txt").symlink_to(workspace.root.parent / "private" / "secret.txt")
    with pytest.raises(WorkspaceError, match="changed while it was being opened"):
        workspace.open(checked, os.O_RDONLY)


def test_open_parent_makes_missing_folders_only_when_asked(workspace: Workspace) -> None:
    target = workspace.resolve("a/b/c.txt")
    with pytest.raises(FileNotFoundError):
        with workspace.open_parent(target):
            pass
    with workspace.open_parent(target, make_folders=True) as (folder, name):
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
    }.items():
        with pytest.raises(WorkspaceError) as caught:
            list(workspace.glob(pattern))
        assert str(caught.value) == message


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
    assert _matches(tuple(path.split("/")), tuple(pattern.split("/"))) is expected
