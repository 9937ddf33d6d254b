"""Mermaid, shipped with the site: its diagrams render from `file://` and from any static server, with no network.

sphinxcontrib-mermaid turns each ```mermaid fence into a `<pre class="mermaid">` and, by default, loads Mermaid from a
CDN, so a site read offline, on a class network that blocks the CDN, or after the CDN changed showed every diagram as
its source text. Its `mermaid_use_local` does not help from disk: it imports Mermaid as an ES module, and a browser
refuses every module import on a `file://` page (its origin is null). So the site gets Mermaid's own single-file
build, `dist/mermaid.min.js` (a plain script that sets `window.mermaid`), in its `_static/` beside Mermaid's licence
(MIT), and the extension's page script takes Mermaid from there instead of importing it (`classic_script`).

The file comes from npm's `mermaid` package, pinned, fetched once with `npm pack` into a cache
(`~/.cache/agentkit/`, or `$XDG_CACHE_HOME/agentkit/`) and checked against its SHA-256; `agentkit site --mermaid FILE`
takes a copy got another way. Without either, the build stops and says what is missing and how to get it.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

MERMAID_VERSION = "11.12.1"
"""npm's `mermaid` release the site ships; sphinxcontrib-mermaid's page script is written for Mermaid 11."""
MERMAID_SHA256 = "198b19442f86f0b46a17e56d3abf744c3a28a3427e66fa8dada3b589a77babcc"
"""Of that release's `dist/mermaid.min.js`: what `npm pack` brings is checked against it before the site uses it."""
SCRIPT, LICENCE = "mermaid.min.js", "mermaid.LICENSE.txt"
"""The two files in the site's `_static/`: Mermaid, and its MIT licence, which has to travel with every copy."""
MODULE_IMPORT = re.compile(r"^import mermaid from [^;\n]+;$", re.MULTILINE)
"""The line of sphinxcontrib-mermaid's page script that imports Mermaid as a module (the only line `classic_script`
changes)."""


class MermaidMissing(RuntimeError):
    """The site's copy of Mermaid could not be found or fetched; the message says how to get it."""


def cache_folder() -> Path:
    """Where the fetched release is kept between builds: one folder per version, under the user's cache."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "agentkit" / f"mermaid-{MERMAID_VERSION}"


@contextmanager
def mermaid_folder(given: str | Path | None = None) -> Iterator[Path]:
    """A folder holding SCRIPT and LICENCE, for Sphinx to copy into the site's `_static/`: `given` (a mermaid.min.js
    got another way) with a note on its licence, in a scratch folder for the block; else the cached release, fetched
    with npm the first time."""
    if given is None:
        folder = cache_folder()
        if not (folder / SCRIPT).is_file() or _sha256(folder / SCRIPT) != MERMAID_SHA256:
            fetch(folder)
        yield folder
        return
    given = Path(given)
    if not given.is_file():
        raise MermaidMissing(f"--mermaid {given}: no such file; it should be dist/{SCRIPT} of npm's mermaid package")
    with tempfile.TemporaryDirectory(prefix="agentkit-mermaid-") as scratch:
        shutil.copy(given, Path(scratch) / SCRIPT)
        (Path(scratch) / LICENCE).write_text("Mermaid is MIT-licensed: see the LICENSE file of npm's mermaid package "
                                             "(https://github.com/mermaid-js/mermaid/blob/develop/LICENSE).\n")
        yield Path(scratch)


def fetch(folder: Path) -> None:
    """`npm pack mermaid@MERMAID_VERSION`, then its two files into `folder` (each written beside and renamed over, so
    two builds at once never see half a file)."""
    npm = shutil.which("npm")
    how = (f"the site's diagrams need Mermaid {MERMAID_VERSION} (mermaid.min.js, MIT), which comes from npm's mermaid "
           f"package and is kept in {folder} after the first build")
    if npm is None:
        raise MermaidMissing(f"{how}; npm is not installed: install it (sudo apt-get install npm) and build again, or run "
                             f"`npm pack mermaid@{MERMAID_VERSION}` elsewhere and pass its package/dist/{SCRIPT} as "
                             f"--mermaid FILE")
    with tempfile.TemporaryDirectory(prefix="agentkit-mermaid-") as scratch:
        packed = subprocess.run([npm, "pack", f"mermaid@{MERMAID_VERSION}", "--silent", "--pack-destination", scratch],
                                capture_output=True, text=True, timeout=600, cwd=scratch)
        tarballs = list(Path(scratch).glob("mermaid-*.tgz"))
        if packed.returncode != 0 or not tarballs:
            problem = (packed.stderr.strip().splitlines() or ["no tarball written"])[-1]
            raise MermaidMissing(f"{how}; `npm pack mermaid@{MERMAID_VERSION}` failed ({problem}): connect to the npm "
                                 f"registry and build again, or pass a copy of its package/dist/{SCRIPT} as --mermaid FILE")
        with tarfile.open(tarballs[0]) as package:  # read two members by name: nothing else of the archive is written
            script = package.extractfile(f"package/dist/{SCRIPT}").read()
            licence = package.extractfile("package/LICENSE").read()
    if hashlib.sha256(script).hexdigest() != MERMAID_SHA256:
        raise MermaidMissing(f"{how}; npm's mermaid@{MERMAID_VERSION} did not have the expected SHA-256 "
                             f"{MERMAID_SHA256}: not used")
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in ((LICENCE, licence), (SCRIPT, script)):  # the script last: its presence means both are there
        partial = folder / f".{name}.{os.getpid()}"
        partial.write_bytes(content)
        os.replace(partial, folder / name)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def classic_script(app, pagename: str, templatename: str, context: dict, doctree) -> None:
    """On a page with a diagram (html-page-context, after sphinxcontrib-mermaid's own handler): load SCRIPT as a plain
    script, and run the extension's page script with `window.mermaid` in place of its module import."""
    scripts = context.get("script_files", [])
    for script in list(scripts):
        body = script.attributes.get("body", "")
        if MODULE_IMPORT.search(body):
            scripts.remove(script)
            app.add_js_file(SCRIPT, priority=script.priority)  # a plain script runs before any module script
            app.add_js_file(None, body=MODULE_IMPORT.sub("const mermaid = window.mermaid;", body, count=1),
                            priority=script.priority, type="module")
