"""The text of a path or glob pattern the model proposed, checked before it reaches a file system (chapter 05).

The attack: a path no file system takes (empty, a NUL byte as in `secret.txt\\0.png`, not Unicode, longer than
Linux allows), a pattern that is absolute or climbs with `..`, and a file name that fakes a line of a listing
(a line break, characters that do not show). The tests that prove it: tests/test_workspace.py,
tests/test_workspace_attacks.py, tests/test_security.py.

Each is refused with what to write instead. Where the path leads is `Workspace.resolve`'s job (`paths.py`).
"""

from __future__ import annotations

import json
import os

from agentkit.errors import WorkspaceError
from agentkit.hardening.echo import echo, quoted

MAX_PATH_BYTES = 4096
"""Linux's PATH_MAX: a longer path cannot be opened anyway, so it is refused with a clear message first."""
MAX_NAME_BYTES = 255
"""Linux's NAME_MAX: the longest single file or folder name."""

_EXAMPLES = {"path": "'notes.txt'", "pattern": "'*.txt' or '**/*.py'"}


def check_path_text(path: object, what: str = "path") -> None:
    """Refuse path strings (or glob patterns: `what`) that no file system would take, before they reach one."""
    if not isinstance(path, str):
        raise WorkspaceError(f"the {what} should be a string, not {type(path).__name__}")
    if not path.strip():
        raise WorkspaceError(f"the {what} is empty; give a {what} relative to the workspace root, "
                             f"such as {_EXAMPLES[what]}")
    if "\0" in path:
        raise WorkspaceError(f"{quoted(path)} contains a NUL byte, which no file name can hold")
    if not _is_unicode(path):
        raise WorkspaceError(f"{quoted(path)} is not valid Unicode text (it holds a lone surrogate, as a name in "
                             "bytes that are not UTF-8 reads in Python; no file tool can take such a name)")
    size = len(path.encode("utf-8"))
    if size > MAX_PATH_BYTES:
        raise WorkspaceError(f"the {what} is {size:,} bytes long; a {what} may be at most {MAX_PATH_BYTES:,} bytes")
    longest = max(path.split("/"), key=lambda name: len(name.encode("utf-8")))
    if len(longest.encode("utf-8")) > MAX_NAME_BYTES:
        raise WorkspaceError(f"a name in the {what} is longer than {MAX_NAME_BYTES} bytes: {quoted(longest)}")


def unusable(path: str) -> str | None:
    """Why no file tool would take `path`, an existing path, in a few words; None if they would.

    A name on disk can be one that the tools refuse: bytes that are not UTF-8 (Python reads them as lone
    surrogates), a path longer than Linux's own limit. `glob` asks this of every path it would list, so it
    never lists a path that read_file then refuses: the verdict is `check_path_text`'s own.
    """
    try:
        check_path_text(path)
    except WorkspaceError as error:
        if not _is_unicode(path):
            return f"{echo(repr(os.fsencode(path)))}: its name is not UTF-8 text"
        return f"{quoted(path)}: {error}"
    return None


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def pattern_segments(pattern: str) -> tuple[str, ...]:
    """A glob pattern split at `/`, refused if it is absolute or climbs with `..`."""
    check_path_text(pattern, "pattern")
    if pattern.startswith("/"):
        raise WorkspaceError(f"the pattern {quoted(pattern)} is absolute; glob patterns are relative to the workspace root, "
                             "for example '**/*.py'")
    segments: list[str] = []
    for segment in pattern.split("/"):
        if segment == "..":
            raise WorkspaceError(
                f"the pattern {quoted(pattern)} climbs out with '..'; glob only searches inside the workspace"
            )
        if segment not in ("", ".") and not (segment == "**" and segments[-1:] == ["**"]):
            segments.append(segment)
    if not segments:
        raise WorkspaceError(f"the pattern {quoted(pattern)} names nothing; try '*' or '**/*.txt'")
    return tuple(segments)


def listed_path(path: str) -> str:
    """A path as one line of a listing. A name may hold a line break (faking a second path), or characters that
    do not show (zero-width, right-to-left); such a path is shown as a JSON string, ready to send back as is."""
    return json.dumps(path) if not path.isprintable() or path.startswith('"') else path
