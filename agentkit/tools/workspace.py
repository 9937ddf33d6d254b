"""The workspace guard: every path a model proposes is resolved and kept inside one root folder.

`resolve` follows every symlink itself and refuses what leads outside; each open then walks the path again without
following any (`safe_open` in `hardening/paths.py`), so a symlink swapped in after the check is refused too.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

from agentkit.errors import WorkspaceError
from agentkit.hardening.echo import quoted
from agentkit.hardening.path_text import check_path_text, pattern_segments
from agentkit.hardening.paths import follow_links
from agentkit.hardening.tree import matching


class Workspace:
    """One root folder that the file tools may touch; nothing outside it is read or written."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        # Resolved once, now: a later `os.chdir` or a symlink swapped above the root changes nothing.
        self.root = Path(root).resolve(strict=True)
        if not self.root.is_dir():
            raise NotADirectoryError(f"workspace root {self.root} is not a folder")

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

    def glob(self, pattern: str, too_deep: list[str] | None = None,
             left_out: list[tuple[str, str]] | None = None) -> Iterator[str]:
        """Paths matching `pattern`, relative to the root, sorted, found lazily; folders end with `/`. Symlinks are never
        entered, and listed only if they lead inside. Folders too deep to search go to `too_deep`; paths no file tool
        could open, to `left_out` (`hardening/tree.py`)."""
        with closing(matching(self.root, pattern_segments(pattern), too_deep, left_out)) as found:
            for parts, is_folder, is_link in found:
                if not is_link or self._leads_inside("/".join(parts)):
                    yield "/".join(parts) + "/" * is_folder

    def _leads_inside(self, path: str) -> bool:
        try:
            return self.resolve(path).is_relative_to(self.root)
        except WorkspaceError:
            return False
