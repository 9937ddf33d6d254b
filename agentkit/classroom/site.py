"""`agentkit site DIR`: the course as a static web site for readers, rendered from the notebooks' stored outputs.

Sphinx with myst-nb renders it (the `site` extra; Jupyter Book 2's `mystmd` fetches its theme at build time), with
Mermaid shipped in the site so diagrams need no network (`site_mermaid`); `nb_execution_mode = "off"` shows each
notebook as committed, the outputs nbval checks. The site is: an index with the course map, one page per chapter,
every `docs/*.md` page (the glossary among them when it exists), and Sphinx's search.

A language is an `Edition`: a notebooks folder, a docs folder, a title and the index page's words. The default
language is built into DIR, any other into DIR/<code>; `agentkit site DIR` builds every edition whose chapters exist,
and each index links the others built in the same run (its language switch).
"""

from __future__ import annotations

import base64
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
from argparse import Namespace
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from agentkit.classroom.site_mermaid import MERMAID_VERSION, SCRIPT, MermaidMissing, classic_script, mermaid_folder


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
    """Sphinx's `language` code (its own labels, search's word splitting, the html lang attribute)"""
    name: str
    """the edition's name in its own language: the text of a language switch's link to it"""
    intro: str
    """the index page's opening paragraph"""
    captions: tuple[str, str, str] = ("Course map", "Guides", "Glossary")
    """the index page's headings: the chapters, the docs pages, the glossary"""
    code_toggle: tuple[str, str] = ("Show code cell {type}", "Hide code cell {type}")
    """the labels of the bar that stands for a collapsed cell on the site (myst-nb's; {type} is "source")"""
    hint: tuple[str, str] = ('click the "..." or the blue bar left of it',
                             'click the "Show code cell source" bar that stands in its place')
    """how every chapter tells a reader to open a collapsed solution (JupyterLab's control), and what the site says"""


_ENGLISH_INTRO = ("A notebook course on how an LLM agent uses tools, one mechanism a chapter. Each page shows a notebook\n"
                  "as committed, with the outputs of the offline model (a deterministic stand-in, not an LLM); to run it\n"
                  "yourself, see the repository's README.")
_CHINESE_INTRO = ("一门讲 LLM 智能体如何使用工具的 notebook 课程，每章一个机制。每页展示提交时的 notebook 及离线模型"
                  "（确定性的替身，不是真正的 LLM）的输出；想自己运行，请看仓库的 README。指南中的中文页面排在前面，"
                  "其余为英文；术语表中英对照。")
EDITIONS = {
    "en": Edition("notebooks", "docs", "Tool Use, from zero", "en", "English", _ENGLISH_INTRO),
    # zh_CN, not zh: Sphinx has its labels ("搜索", "上一页") under zh_CN; both codes index with its Chinese word splitter
    # (jieba, when installed). The docs pages are shared; the Chinese index lists the Chinese ones (docs/zh_*.md) first.
    "zh": Edition("notebooks/zh", "docs", "工具调用，从零开始", "zh_CN", "中文版", _CHINESE_INTRO,
                  ("课程地图", "指南", "术语表"), ("显示代码", "隐藏代码"), ("点击“...”或它左侧的蓝色竖条",
                  "点击它所在位置的“显示代码”横条")),
}
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


def editions_to_build(root: str | Path | None = None) -> list[str]:
    """Every edition with chapters here: the default always (the site's root), another when its folder holds chapters."""
    root = course_root(root)
    return [code for code, edition in EDITIONS.items()
            if code == DEFAULT_LANGUAGE or any((root / edition.notebooks).glob("[0-9][0-9]_*.ipynb"))]


def build_sites(out: str | Path, root: str | Path | None = None, languages: list[str] | None = None,
                mermaid: str | Path | None = None) -> list[Path]:
    """Build several editions into `out` (all of this course's, by default), each index linking the others; returns
    the index pages, the default language's first when it is built. `mermaid`: a mermaid.min.js to ship (see
    `site_mermaid`); by default the cached npm release, which build_site looks for once its arguments are checked."""
    languages = editions_to_build(root) if languages is None else languages
    with mermaid_folder(mermaid) if mermaid is not None else nullcontext() as static:
        return [build_site(out, root, code, alongside=[other for other in languages if other != code], static=static)
                for code in languages]


def build_site(out: str | Path, root: str | Path | None = None, language: str = DEFAULT_LANGUAGE,
               alongside: list[str] = (), static: Path | None = None) -> Path:
    """Render one edition of the course in `root` (a checkout: notebooks/ and docs/) to HTML in `out` (the default
    language) or out/<code>; its index links the `alongside` editions, built into the same `out`. Returns the index.
    `static`: a folder copied into the site's `_static/`, Mermaid's files (`site_mermaid.mermaid_folder`'s by default)."""
    _known([language, *alongside])
    edition, root = EDITIONS[language], course_root(root)
    notebooks, docs = root / edition.notebooks, root / edition.docs
    course = chapters(notebooks)
    if not course:
        raise ValueError(f"no chapters (NN_name.ipynb) in {notebooks}: run this from the course's folder or pass --root")
    if static is None:  # checked first: a mistyped language or folder costs no download
        with mermaid_folder() as static:
            return build_site(out, root, language, alongside, static)
    target = site_folder(out, language)
    switch = [(code, Path(os.path.relpath(site_folder(out, code), target), "index.html").as_posix())
              for code in alongside]
    with tempfile.TemporaryDirectory(prefix="agentkit-site-") as scratch:
        # The pages keep the repository's layout, notebooks/ (or notebooks/zh/) beside docs/, so a link such as
        # ../docs/security.md (../../docs/security.md) in a chapter resolves on the site as it does on GitHub.
        source = Path(scratch) / "source"
        chapter_folder = source / edition.notebooks
        chapter_folder.mkdir(parents=True)
        for stem, _ in course:
            _copy_chapter(notebooks / f"{stem}.ipynb", chapter_folder, edition)
        pages = sorted(docs.glob("*.md")) if docs.is_dir() else []
        if pages:
            (source / edition.docs).mkdir(parents=True, exist_ok=True)
            for page in pages:
                shutil.copy(page, source / edition.docs)
        index = _index(edition, course, [page.stem for page in pages], switch)
        (source / "index.md").write_text(index, encoding="utf-8")
        settings = _configuration(edition, static)
        (source / "conf.py").write_text("".join(f"{name} = {value!r}\n" for name, value in settings.items()))
        # Sphinx runs in a process of its own: it registers its nodes in docutils' globals, once a process, and is
        # imported nowhere else, so `import agentkit` stays light and a second build in one process is clean.
        warnings = Path(scratch) / "warnings.txt"
        done = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-E", "-q", "--keep-going", "-w", str(warnings),
                               "-d", str(Path(scratch) / "doctrees"), str(source), str(target)],
                              capture_output=True, text=True)
        problems = (warnings.read_text(encoding="utf-8") if warnings.exists() else "").strip()
        # Name the files a person edits, not the scratch copies Sphinx read.
        problems = problems.replace(str(chapter_folder), str(notebooks)).replace(str(source / edition.docs), str(docs))
        missing = re.search(r"No module named '?([\w.]+)|Could not import extension ([\w.]+)", done.stderr + problems)
        if missing:  # Sphinx itself, or one of its extensions: the `site` extra is not installed
            raise ModuleNotFoundError(missing[1] or missing[2], name=missing[1] or missing[2])
        if done.returncode != 0 or problems:
            raise SiteError("the site did not build cleanly; each line is a page or a link to fix:\n"
                            + (problems or done.stderr[-3000:]))
    return target / "index.html"


def _known(languages: list[str]) -> None:
    if unknown := [code for code in languages if code not in EDITIONS]:
        raise ValueError(f"no edition of the course in {unknown[0]!r}: should be one of {', '.join(EDITIONS)}")


def _copy_chapter(notebook: Path, folder: Path, edition: Edition) -> None:
    """Copy a chapter for Sphinx: solutions (and cells collapsed in Jupyter) collapse on its page, hints name its control;
    a cell's attached picture (![...](attachment:chat.png)) becomes a file beside the page, since Sphinx reads files."""
    import nbformat

    from agentkit.classroom.student import SOLUTION

    chapter = nbformat.read(notebook, as_version=4)
    for cell in chapter.cells:
        if SOLUTION in cell.metadata.get("tags", []) or cell.metadata.get("jupyter", {}).get("source_hidden"):
            cell.metadata["tags"] = [*cell.metadata.get("tags", []), "hide-input"]  # myst-nb's toggle
        if cell.cell_type == "markdown":
            cell.source = cell.source.replace(*edition.hint)
        for name, data in cell.pop("attachments", {}).items():
            (folder / f"{notebook.stem}-{name}").write_bytes(base64.b64decode(next(iter(data.values()))))
            cell.source = cell.source.replace(f"](attachment:{name})", f"]({notebook.stem}-{name})")
    nbformat.write(chapter, folder / notebook.name)


def _configuration(edition: Edition, static: Path) -> dict:
    """Sphinx's settings: the conf.py written beside the pages (plain values only)."""
    return {
        "project": edition.title,
        "language": edition.language,
        "extensions": ["myst_nb", "sphinxcontrib.mermaid", __name__, f"{__name__}_labels"],  # Chinese search, theme labels
        "nb_execution_mode": "off",  # the stored outputs, as committed and checked by nbval
        "myst_fence_as_directive": ["mermaid"],  # the notebooks' ```mermaid fences become diagrams
        "myst_heading_anchors": 3,  # links to a section (page.md#a-heading) resolve and are checked
        "html_theme": "furo",
        "html_title": edition.title,
        "html_copy_source": False, "html_show_copyright": False, "html_show_sourcelink": False,
        "exclude_patterns": [],
        "nb_merge_streams": True,  # one block for what a cell printed, as Jupyter shows it
        "nb_code_prompt_show": edition.code_toggle[0],  # the bar of a collapsed solution, as `hint` names it
        "nb_code_prompt_hide": edition.code_toggle[1],
        # Mermaid from the site's own _static/ (see site_mermaid): diagrams render offline and from file://.
        "html_static_path": [str(static)],
        "mermaid_use_local": SCRIPT,
        "mermaid_version": MERMAID_VERSION,
        # A page whose headings skip a level reads fine; every other warning (a broken link first) fails the build.
        "suppress_warnings": ["myst.header"],
    }


def _index(edition: Edition, course: list[tuple[str, str]], docs: list[str], switch: list[tuple[str, str]] = ()) -> str:
    """The home page: the language switch (a link to each other edition built alongside), the course map (every
    chapter, in order), the docs pages, and the tables of contents."""
    chapter_map, guides_caption, glossary_caption = edition.captions
    glossary = [name for name in docs if name == "glossary"]
    # This edition's own pages first (zh_*.md on the Chinese index); sorted() is stable, so the rest keep their order.
    own = f"{edition.language[:2]}_"
    guides = sorted((name for name in docs if name != "glossary"), key=lambda name: not name.startswith(own))
    lines = [f"# {edition.title}", ""]
    if switch:  # raw HTML: the other edition is another Sphinx project, which a Markdown link would check in this one
        links = " · ".join(f'<a href="{html.escape(href)}" hreflang="{code}">{html.escape(EDITIONS[code].name)}</a>'
                           for code, href in switch)
        lines += [f'<p class="language-switch">{links}</p>', ""]
    lines += [edition.intro, "", f"## {chapter_map}", ""]
    lines += [f"- [{title}]({edition.notebooks}/{stem}.ipynb)" for stem, title in course]
    lines += ["", "```{toctree}", ":hidden:", f":caption: {chapter_map}", "",
              *[f"{edition.notebooks}/{stem}" for stem, _ in course], "```"]
    for caption, names in ((guides_caption, guides), (glossary_caption, glossary)):
        if names:
            lines += ["", f"## {caption}", "", *[f"- []({edition.docs}/{name}.md)" for name in names]]
            lines += ["", "```{toctree}", ":hidden:", f":caption: {caption}", "",
                      *[f"{edition.docs}/{name}" for name in names], "```"]
    return "\n".join(lines) + "\n"


# Chinese search without a dictionary: Sphinx's zh splitter finds Chinese words only with jieba installed (else it
# indexes the Latin words alone). So each run of Han characters is also indexed as its characters and its pairs of
# neighbours (bigrams), and the search box splits a query the same way: 调度器 is found as 调度 and 度器 together.
_HAN = r"\u3400-\u9fff\uf900-\ufaff"  # the CJK ideographs: a character class in Python and in JavaScript
_SPLIT_QUERY_JS = f"""
var splitQuery = (query) => query.split(/[^\\p{{Letter}}\\p{{Number}}_\\p{{Emoji_Presentation}}]+/gu)
  .flatMap((word) => word.split(/([{_HAN}]+)/u)).filter((part) => part)
  .flatMap((part) => !/[{_HAN}]/u.test(part) || part.length == 1 ? [part]
    : Array.from(part.slice(1), (next, i) => part[i] + next));
"""


def han_grams(text: str) -> list[str]:
    """The characters and neighbouring pairs of every run of Han characters in `text`, as the index holds them."""
    grams = []
    for run in re.findall(f"[{_HAN}]+", text):
        grams += [*run, *(run[i:i + 2] for i in range(len(run) - 1))]
    return grams


def setup(app) -> dict:  # app: Sphinx's application (conf.py lists this module as an extension)
    """Register the Chinese search language that indexes han_grams, in the Sphinx process only."""
    from sphinx.search.zh import SearchChinese

    class SearchChineseGrams(SearchChinese):
        js_splitter_code = _SPLIT_QUERY_JS
        # Sphinx 9 names the page's stemmer `{language_name}Stemmer`: ChineseStemmer does not exist, and the search
        # page stops on it; the zh splitter stems with the English stemmer (its Latin words), so that is its name.
        language_name = "English"

        def split(self, input: str) -> list[str]:
            return [*super().split(input), *han_grams(input)]

        def word_filter(self, word: str) -> bool:
            return super().word_filter(word) or bool(re.fullmatch(f"[{_HAN}]", word))

    app.add_search_language(SearchChineseGrams)
    app.connect("html-page-context", classic_script, priority=900)  # after sphinxcontrib-mermaid's handler (500)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def run_site_command(args: Namespace) -> None:
    """`agentkit site OUT [--language X]`: build every edition (or X), say where to open each; errors exit with why."""
    languages = editions_to_build(args.root) if args.language is None else [args.language]
    try:
        indexes = build_sites(args.out, args.root, languages, args.mermaid)
    except ModuleNotFoundError as missing:
        sys.exit(f"agentkit site needs {missing.name}, which comes with the site extra: pip install -e '.[site]'")
    except (ValueError, SiteError, MermaidMissing) as error:
        sys.exit(f"agentkit site: {error}")
    for code, index in zip(languages, indexes, strict=True):
        print(f"wrote the site ({EDITIONS[code].name}): open {index}")
