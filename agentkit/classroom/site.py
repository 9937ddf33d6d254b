"""`agentkit site DIR`: the course as a static web site for readers, rendered from the notebooks' stored outputs.

Sphinx with myst-nb renders it. It is pure Python (the `site` extra), builds with no network at all, and
`nb_execution_mode = "off"` shows each notebook exactly as committed: the outputs nbval checks, never a new run.
(Jupyter Book 2's `mystmd` was the other candidate: it fetches its HTML theme from the web at build time, which
neither this machine nor CI can do.) The site is: an index with the course map, one page per chapter with its
outputs and Mermaid diagrams, every `docs/*.md` page (the glossary among them when it exists), and Sphinx's search.

A language is an `Edition`: a notebooks folder, a docs folder and a title. The default language is built into DIR,
any other into DIR/<code>, so a second language is one more entry in `EDITIONS` (its folders have the same layout).
Sphinx runs in a process of its own, so `import agentkit` never loads it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from argparse import Namespace
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Edition:
    """One language's course: where its notebooks and docs live (relative to the repository) and its site's title."""

    notebooks: str
    """folder of the chapters, NN_name.ipynb"""
    docs: str
    """folder of the docs pages, *.md (glossary.md among them, when it exists)"""
    title: str
    """the site's title"""
    language: str
    """Sphinx's `language` code (search stemming, the html lang attribute)"""


EDITIONS = {"en": Edition("notebooks", "docs", "Tool Use, from zero", "en")}
"""Every language the site can be built in; the first is the default, built at the site's root."""
DEFAULT_LANGUAGE = next(iter(EDITIONS))


class SiteError(RuntimeError):
    """The site did not build cleanly: Sphinx's warnings (a broken link, a page in no table of contents, ...)."""


def chapters(notebooks: Path) -> list[tuple[str, str]]:
    """(file stem, title) of every chapter, in order: the title is the notebook's first heading."""
    import nbformat  # here, so that the command line can load this module for its arguments at no cost

    found = []
    for path in sorted(notebooks.glob("[0-9][0-9]_*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        first = next((cell.source for cell in notebook.cells if cell.cell_type == "markdown"), "")
        title = next((line.lstrip("#").strip() for line in first.splitlines() if line.startswith("# ")), path.stem)
        found.append((path.stem, title))
    return found


def site_folder(out: str | Path, language: str = DEFAULT_LANGUAGE) -> Path:
    """Where a language's pages go: the default language at the root of `out`, another in out/<code>."""
    return Path(out) if language == DEFAULT_LANGUAGE else Path(out) / language


def course_root(root: str | Path | None = None) -> Path:
    """The course's folder: `root` if given; else this folder when it holds the notebooks, else the checkout this
    package was installed from (an editable install), so `agentkit site DIR` works from anywhere in a clone."""
    if root is not None:
        return Path(root)
    checkout = Path(__file__).resolve().parents[2]
    return Path.cwd() if (Path.cwd() / "notebooks").is_dir() or not (checkout / "notebooks").is_dir() else checkout


def build_site(out: str | Path, root: str | Path | None = None, language: str = DEFAULT_LANGUAGE) -> Path:
    """Render the course in `root` (a checkout: notebooks/ and docs/) to HTML in `out`; returns the index page."""
    if language not in EDITIONS:
        raise ValueError(f"no edition of the course in {language!r}: should be one of {', '.join(EDITIONS)}")
    edition, root = EDITIONS[language], course_root(root)
    notebooks, docs = root / edition.notebooks, root / edition.docs
    course = chapters(notebooks)
    if not course:
        raise ValueError(f"no chapters (NN_name.ipynb) in {notebooks}: run this from the course's folder or pass --root")
    target = site_folder(out, language)
    with tempfile.TemporaryDirectory(prefix="agentkit-site-") as scratch:
        # The pages keep the repository's layout, notebooks/ beside docs/, so a link such as ../docs/security.md
        # in a chapter resolves on the site as it does on GitHub.
        source = Path(scratch) / "source"
        (source / "notebooks").mkdir(parents=True)
        for stem, _ in course:
            _copy_chapter(notebooks / f"{stem}.ipynb", source / "notebooks")
        pages = sorted(docs.glob("*.md")) if docs.is_dir() else []
        if pages:
            (source / "docs").mkdir()
            for page in pages:
                shutil.copy(page, source / "docs")
        (source / "index.md").write_text(_index(edition, course, [page.stem for page in pages]), encoding="utf-8")
        (source / "conf.py").write_text("".join(f"{name} = {value!r}\n" for name, value in _configuration(edition).items()))
        # Sphinx runs in a process of its own: it registers its nodes in docutils' globals, once a process, and is
        # imported nowhere else, so `import agentkit` stays light and a second build in one process is clean.
        warnings = Path(scratch) / "warnings.txt"
        done = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-E", "-q", "--keep-going", "-w", str(warnings),
                               "-d", str(Path(scratch) / "doctrees"), str(source), str(target)],
                              capture_output=True, text=True)
        problems = (warnings.read_text(encoding="utf-8") if warnings.exists() else "").strip()
        # Name the files a person edits, not the scratch copies Sphinx read.
        problems = problems.replace(str(source / "notebooks"), str(notebooks)).replace(str(source / "docs"), str(docs))
        missing = re.search(r"No module named '?([\w.]+)|Could not import extension ([\w.]+)", done.stderr + problems)
        if missing:  # Sphinx itself, or one of its extensions: the `site` extra is not installed
            raise ModuleNotFoundError(missing[1] or missing[2], name=missing[1] or missing[2])
        if done.returncode != 0 or problems:
            raise SiteError("the site did not build cleanly; each line is a page or a link to fix:\n"
                            + (problems or done.stderr[-3000:]))
    return target / "index.html"


def _copy_chapter(notebook: Path, folder: Path) -> None:
    """Copy a chapter for Sphinx; an exercise's solution (and any cell collapsed in Jupyter) is collapsed on its page,
    so a reader meets the exercise before its answer, one click away."""
    import nbformat

    from agentkit.classroom.student import SOLUTION

    chapter = nbformat.read(notebook, as_version=4)
    for cell in chapter.cells:
        if SOLUTION in cell.metadata.get("tags", []) or cell.metadata.get("jupyter", {}).get("source_hidden"):
            cell.metadata["tags"] = [*cell.metadata.get("tags", []), "hide-input"]  # myst-nb's toggle
    nbformat.write(chapter, folder / notebook.name)


def _configuration(edition: Edition) -> dict:
    """Sphinx's settings: the conf.py written beside the pages (plain values only)."""
    return {
        "project": edition.title,
        "language": edition.language,
        "extensions": ["myst_nb", "sphinxcontrib.mermaid"],
        "nb_execution_mode": "off",  # the stored outputs, as committed and checked by nbval
        "myst_fence_as_directive": ["mermaid"],  # the notebooks' ```mermaid fences become diagrams
        "myst_heading_anchors": 3,  # links to a section (page.md#a-heading) resolve and are checked
        "html_theme": "furo",
        "html_title": edition.title,
        "html_copy_source": False,
        "html_show_copyright": False,
        "html_show_sourcelink": False,
        "exclude_patterns": [],
        "nb_merge_streams": True,  # one block for what a cell printed, as Jupyter shows it
        # A page whose headings skip a level reads fine; every other warning (a broken link first) fails the build.
        "suppress_warnings": ["myst.header"],
    }


def _index(edition: Edition, course: list[tuple[str, str]], docs: list[str]) -> str:
    """The home page: the course map (every chapter, in order), the docs pages, and the tables of contents."""
    glossary = [name for name in docs if name == "glossary"]
    guides = [name for name in docs if name != "glossary"]
    lines = [f"# {edition.title}", "",
             "A notebook course on how an LLM agent uses tools, one mechanism a chapter. Each page shows a notebook",
             "as committed, with the outputs of the offline model (a deterministic stand-in, not an LLM); to run it",
             "yourself, see the repository's README.", "", "## Course map", ""]
    lines += [f"- [{title}](notebooks/{stem}.ipynb)" for stem, title in course]
    lines += ["", "```{toctree}", ":hidden:", ":caption: Chapters", "", *[f"notebooks/{stem}" for stem, _ in course], "```"]
    for caption, names in (("Guides", guides), ("Glossary", glossary)):
        if names:
            lines += ["", f"## {caption}", "", *[f"- [](docs/{name}.md)" for name in names]]
            lines += ["", "```{toctree}", ":hidden:", f":caption: {caption}", "", *[f"docs/{name}" for name in names], "```"]
    return "\n".join(lines) + "\n"


def run_site_command(args: Namespace) -> None:
    """`agentkit site OUT`: build, then say where to open it; a missing extra or a broken link exits with the reason."""
    try:
        index = build_site(args.out, args.root, args.language)
    except ModuleNotFoundError as missing:
        sys.exit(f"agentkit site needs {missing.name}, which comes with the site extra: pip install -e '.[site]'")
    except (ValueError, SiteError) as error:
        sys.exit(f"agentkit site: {error}")
    print(f"wrote the site: open {index}")
