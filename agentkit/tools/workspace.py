"""The workspace guard: every path a model proposes is resolved and kept inside one root folder.

`Workspace.resolve(path)` checks the text (`hardening/path_text.py`), follows every symlink on the way
(`hardening/paths.py`: `follow_links`), and refuses the result unless it `is_relative_to` the root. Each open then
walks the path again without following any symlink (`safe_open`), so a symlink swapped in between the check and
the use is refused too. What remains is said in chapter 05: hard links, the root itself being replaced, and the
shell tool, which this guard does not cover at all.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import AbstractContextManager, closing
from pathlib import Path

from agentkit.hardening.atomic import remove_stale_temporaries
from agentkit.hardening.path_text import WorkspaceError, check_path_text, pattern_segments
from agentkit.hardening.paths import follow_links, open_parent, safe_open
from agentkit.hardening.tree import matching
from agentkit.limits import quoted


class Workspace:
    """One root folder that the file tools may touch; nothing outside it is read or written."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        # Resolved once, now: a later `os.chdir` or a symlink swapped above the root changes nothing.
        self.root = Path(root).resolve(strict=True)
        if not self.root.is_dir():
            raise NotADirectoryError(f"workspace root {self.root} is not a folder")

    @classmethod
    def prepare(cls, root: str | os.PathLike[str]) -> Workspace:
        """The workspace at `root`, cleared of the temporaries of writes killed midway (by a process now gone)."""
        workspace = cls(root)
        remove_stale_temporaries(workspace.root)
        return workspace

    def __repr__(self) -> str:
        return f"Workspace({str(self.root)!r})"

    def resolve(self, path: str) -> Path:
        """The real, absolute path that `path` names inside the workspace, or `WorkspaceError` saying why not."""
        check_path_text(path)
        resolved = follow_links(self.root, path)
        if not resolved.is_relative_to(self.root):
            through = " through a symlink" if Path(os.path.normpath(self.root / path)).is_relative_to(self.root) else ""
            raise WorkspaceError(f"{quoted(path)} leads outside the workspace{through}; paths must stay inside the "
                                 "workspace root, for example 'notes.txt' or 'src/app.py'")
        return resolved

    def relative(self, path: Path) -> str:
        """How to show a resolved path to the model: relative to the root, with `/`, `.` for the root."""
        return path.relative_to(self.root).as_posix()

    def open(self, path: Path, flags: int, mode: int = 0o644) -> int:
        """`os.open` a path from `resolve` without following any symlink on the way; the caller closes the fd."""
        return safe_open(self.root, path, flags, mode)

    def open_parent(self, path: Path, *, make_folders: bool = False) -> AbstractContextManager[tuple[int, str]]:
        """`(folder_fd, name)` of a path from `resolve`, its parent opened the same way (`with`)."""
        return open_parent(self.root, path, make_folders=make_folders)

    def glob(self, pattern: str, too_deep: list[str] | None = None,
             left_out: list[tuple[str, str]] | None = None) -> Iterator[str]:
        """Paths matching `pattern`, relative to the root, sorted, found lazily; folders end with `/`.

        The walk never enters a symlink (`hardening/tree.py`), and lists one only if it leads inside. What is
        not searched (too deep) or not listed (no file tool could open it) is added to `too_deep`, `left_out`.
        """
        with closing(matching(self.root, pattern_segments(pattern), too_deep, left_out)) as found:
            for parts, is_folder, is_link in found:
                if not is_link or self._leads_inside("/".join(parts)):
                    yield "/".join(parts) + "/" * is_folder

    def _leads_inside(self, path: str) -> bool:
        try:
            return self.resolve(path).is_relative_to(self.root)
        except WorkspaceError:
            return False
