"""`agentkit site`: the course rendered from its stored outputs, every chapter and docs page, and no broken link.

The site is built once, both editions (English at the root, Chinese in zh/), through the command line, from this
checkout; a few small made-up courses show that a notebook is never executed, that a broken link fails the build
and that a single-edition build has no language switch.
"""

from __future__ import annotations

import functools
import html
import http.server
import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
import pytest

from agentkit.classroom import SOLUTION
from agentkit.classroom.site import (
    EDITIONS,
    SiteError,
    build_site,
    build_sites,
    chapters,
    course_root,
    han_grams,
    site_folder,
)
from agentkit.classroom.site_mermaid import LICENCE, SCRIPT
from agentkit.frontends import cli

pytest.importorskip("myst_nb", reason="agentkit site needs the site extra")

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS, DOCS = ROOT / "notebooks", ROOT / "docs"
CHINESE = ROOT / EDITIONS["zh"].notebooks
HAN = re.compile(r"[\u4e00-\u9fff]")


class Page(HTMLParser):
    """The ids a page defines and the local addresses it refers to (href and src)."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("id", "name") and value:
                self.ids.add(value)
            elif name in ("href", "src") and value and not urlsplit(value).scheme and not value.startswith("//"):
                self.links.append(value)


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def text(path: Path) -> str:
    """What a reader sees of a page: its text without tags, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8")))


def broken_links(site: Path) -> list[str]:
    """Every local href/src of every page whose file is missing, or whose #fragment names no id in its target."""
    pages = {path.resolve(): parse(path) for path in site.rglob("*.html")}
    broken = []
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{path.relative_to(site.resolve())}: {link} (no such file)")
            elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in pages[target].ids:
                broken.append(f"{path.relative_to(site.resolve())}: {link} (no such anchor)")
    return broken


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    cli.main(["site", str(out), "--root", str(ROOT)])
    return out


def test_every_chapter_has_a_page_and_the_index_lists_them_in_order(site: Path) -> None:
    course = chapters(NOTEBOOKS)
    assert [stem for stem, _ in course] == sorted(path.stem for path in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    index = parse(site / "index.html")
    listed = [link for link in index.links if link.startswith("notebooks/")]
    for stem, title in course:
        assert (site / "notebooks" / f"{stem}.html").is_file(), stem
        assert f"notebooks/{stem}.html" in listed, f"the course map does not link {stem}"
        assert title.replace("`", "") in text(site / "index.html"), f"the course map does not name {title!r}"
    first = [listed.index(f"notebooks/{stem}.html") for stem, _ in course]
    assert first == sorted(first), "the course map lists the chapters out of order"


def test_every_docs_page_is_on_the_site_and_the_glossary_when_there_is_one(site: Path) -> None:
    index = parse(site / "index.html")
    for page in DOCS.glob("*.md"):
        assert (site / "docs" / f"{page.stem}.html").is_file(), page.name
        assert f"docs/{page.stem}.html" in index.links, f"the index does not link {page.name}"


def test_no_internal_link_is_broken_in_either_edition(site: Path) -> None:
    assert len(list(site.rglob("*.html"))) > len(chapters(NOTEBOOKS))
    assert len(list((site / "zh").rglob("*.html"))) > len(chapters(CHINESE))
    assert broken_links(site) == []  # both editions: the checker walks zh/ too, and the switch links between them


def test_the_chinese_edition_has_a_page_per_chapter_in_chinese_linked_from_its_index(site: Path) -> None:
    course = chapters(CHINESE)
    assert [stem for stem, _ in course] == [stem for stem, _ in chapters(NOTEBOOKS)]
    index = parse(site / "zh" / "index.html")
    assert EDITIONS["zh"].title in text(site / "zh" / "index.html")
    for stem, title in course:
        page = site / "zh" / "notebooks" / "zh" / f"{stem}.html"
        assert f"notebooks/zh/{stem}.html" in index.links, f"the Chinese course map does not link {stem}"
        assert HAN.search(title) and title.replace("`", "") in text(page), stem
        assert len(HAN.findall(text(page))) > 500, f"{stem}: the page is not the Chinese chapter"
    assert 'lang="zh-CN"' in (site / "zh" / "index.html").read_text(encoding="utf-8")
    guides = [link for link in index.links if link.startswith("docs/") and link != "docs/glossary.html"]
    chinese = [f"docs/{page.stem}.html" for page in sorted(DOCS.glob("zh_*.md"))]
    assert chinese and guides[:len(chinese)] == chinese, "the Chinese index does not list the Chinese docs pages first"


def test_each_index_switches_to_the_other_edition(site: Path) -> None:
    english, chinese = site / "index.html", site / "zh" / "index.html"
    for here, there, name in ((english, chinese, "中文版"), (chinese, english, "English")):
        switch = re.search(r'<p class="language-switch">(.*?)</p>', here.read_text(encoding="utf-8"))
        assert switch and name in switch[1], f"{here.relative_to(site)} has no link named {name}"
        href = re.search(r'href="([^"]+)"', switch[1])[1]
        assert (here.parent / href).resolve() == there.resolve(), href


def test_a_single_edition_build_has_no_language_switch(tmp_path: Path) -> None:
    course = made_up_course(tmp_path / "course")
    (english,) = build_sites(tmp_path / "out", course)  # no notebooks/zh: only the edition that exists is built
    assert "language-switch" not in english.read_text(encoding="utf-8")
    assert not (tmp_path / "out" / "zh").exists()


def test_chapter_pages_show_the_stored_outputs_and_the_diagrams(site: Path) -> None:
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        page = html.unescape((site / "notebooks" / f"{path.stem}.html").read_text(encoding="utf-8"))
        printed = [line.strip() for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs
                   if output.output_type == "stream" for line in output.text.splitlines() if len(line.strip()) > 12]
        assert printed and printed[0] in page and printed[-1] in page, path.name
        diagrams = sum(cell.source.count("```mermaid") for cell in notebook.cells if cell.cell_type == "markdown")
        assert len(re.findall(r"<pre\s+class=\"mermaid\"", page)) == diagrams, path.name


def test_a_chapters_attached_pictures_are_files_beside_its_page(site: Path) -> None:
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        attached = [name for cell in nbformat.read(path, as_version=4).cells for name in cell.get("attachments", {})]
        page = (site / "notebooks" / f"{path.stem}.html").read_text(encoding="utf-8")
        for name in attached:
            assert "attachment:" not in page, path.name
            shown = re.findall(rf'<img[^>]+src="([^"]*{re.escape(path.stem)}-{re.escape(name)})"', page)
            assert shown and (site / "notebooks" / unquote(shown[0])).stat().st_size > 1000, (path.name, name)


def test_solutions_are_collapsed_on_the_site(site: Path) -> None:
    solutions = 0
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        hidden = [cell for cell in nbformat.read(path, as_version=4).cells if SOLUTION in cell.metadata.get("tags", [])
                  or cell.metadata.get("jupyter", {}).get("source_hidden")]
        page = (site / "notebooks" / f"{path.stem}.html").read_text(encoding="utf-8")
        assert page.count("tag_hide-input") == len(hidden), path.name
        solutions += len(hidden)
    assert solutions > 0


def test_a_collapsed_solutions_hint_names_the_control_of_where_it_is_read(site: Path) -> None:
    """The notebooks tell a reader to click JupyterLab's "..." (or its blue bar); the site has a bar of its own."""
    for code, edition in EDITIONS.items():
        for path in sorted((ROOT / edition.notebooks).glob("[0-9][0-9]_*.ipynb")):
            cells = nbformat.read(path, as_version=4).cells
            if not any(SOLUTION in cell.metadata.get("tags", []) for cell in cells):
                continue
            markdown = "\n".join(cell.source for cell in cells if cell.cell_type == "markdown")
            assert edition.hint[0] in markdown, f"{path.name}: its hint is not worded as the site expects"
            page = text(site_folder(site, code) / edition.notebooks / f"{path.stem}.html")
            page = page.translate(str.maketrans("“”", '""')) if code == "en" else page  # Sphinx's smart quotes
            assert edition.hint[1] in page, path.name
            assert edition.code_toggle[0].format(type="source") in page, path.name
            assert not re.search(r"blue bar|蓝色竖条|\.\.\.[\"”] that stands", page), path.name


def test_the_site_has_search(site: Path) -> None:
    assert (site / "search.html").is_file()
    assert "dispatcher" in (site / "searchindex.js").read_text(encoding="utf-8").lower()


def search_index(site: Path) -> dict:
    script = (site / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(script[script.index("(") + 1:script.rindex(")")])


def test_the_chinese_site_finds_a_chapter_by_a_chinese_word(site: Path) -> None:
    """Every Chinese chapter title's pairs of characters are indexed for its page, as the search box splits a query."""
    index = search_index(site / "zh")
    for stem, title in chapters(CHINESE):
        doc = index["docnames"].index(f"notebooks/zh/{stem}")
        pairs = [gram for gram in han_grams(title) if len(gram) == 2]
        assert pairs, title
        for pair in pairs:
            found = [index[kind].get(pair, []) for kind in ("terms", "titleterms")]
            assert any(doc == docs or doc in ([docs] if isinstance(docs, int) else docs) for docs in found), (stem, pair)
    script = (site / "zh" / "_static" / "language_data.js").read_text(encoding="utf-8")
    stemmer = re.search(r"window\.Stemmer = (\w+);", script)[1]
    assert re.search(rf"\bvar {stemmer}\s*=", script), f"the search page names a stemmer it never defines: {stemmer}"
    assert "var splitQuery" in script


def made_up_course(root: Path, link: str = "") -> Path:
    """A one-chapter course whose only code cell would fail if run, with its output stored."""
    (root / "notebooks").mkdir(parents=True)
    cell = nbformat.v4.new_code_cell("raise SystemExit('executed')")
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="the stored output, 42\n")]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(f"# 00 · Only chapter\n\n{link}"), cell])
    notebook.metadata["language_info"] = {"name": "python"}
    nbformat.write(notebook, root / "notebooks" / "00_only.ipynb")
    return root


def test_a_notebook_is_rendered_as_stored_never_run_and_docs_are_optional(tmp_path: Path) -> None:
    index = build_site(tmp_path / "out", made_up_course(tmp_path / "course"))
    page = (tmp_path / "out" / "notebooks" / "00_only.html").read_text(encoding="utf-8")
    assert "the stored output, 42" in page and index.is_file()
    assert not (tmp_path / "out" / "docs").exists()


def test_the_glossary_gets_its_own_part_of_the_index_and_the_other_docs_theirs(tmp_path: Path) -> None:
    course = made_up_course(tmp_path / "course", "See the [glossary](../docs/glossary.md#dispatcher).")
    (course / "docs").mkdir()
    (course / "docs" / "glossary.md").write_text("# Glossary\n\n## dispatcher\n\nTurns a call into a result.\n")
    (course / "docs" / "guide.md").write_text("# A guide\n\nBack to the [chapter](../notebooks/00_only.ipynb).\n")
    build_site(tmp_path / "out", course)
    index = text(tmp_path / "out" / "index.html")
    assert index.index("Guides") < index.index("A guide") < index.index("Glossary", index.index("A guide"))
    assert "docs/glossary.html" in parse(tmp_path / "out" / "index.html").links
    assert broken_links(tmp_path / "out") == []


def test_a_broken_link_fails_the_build_and_says_where(tmp_path: Path) -> None:
    with pytest.raises(SiteError, match="missing"):
        build_site(tmp_path / "out", made_up_course(tmp_path / "course", "[gone](../docs/missing.md)"))


def test_an_unknown_language_or_an_empty_folder_is_refused_with_what_is_valid(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # refused before Mermaid is looked for
    for build in (build_site, build_sites):
        with pytest.raises(ValueError, match="should be one of en"):
            build(tmp_path / "out", ROOT, **({"language": "xx"} if build is build_site else {"languages": ["en", "xx"]}))
    with pytest.raises(ValueError, match="no chapters"):
        build_site(tmp_path / "out", tmp_path)
    assert not (tmp_path / "cache").exists()


def test_without_a_root_the_course_is_this_folder_or_else_this_clone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert course_root() == ROOT  # run from elsewhere: the clone the package was installed from
    (tmp_path / "notebooks").mkdir()
    assert course_root() == tmp_path and course_root("given") == Path("given")


# ---- the diagrams, in a browser with no network -------------------------------------------------------------


def test_no_page_loads_from_the_network_and_every_diagram_page_loads_mermaid_from_the_site(site: Path) -> None:
    remote = re.compile(r"""<script[^>]*\ssrc="(?:https?:)?//|<link[^>]*\shref="(?:https?:)?//[^"]*\.css|"""
                        r"""\bimport\b[^;]*?\bfrom\s*["'](?:https?:)?//""")
    assert [str(page.relative_to(site)) for page in site.rglob("*.html") if remote.search(page.read_text("utf-8"))] == []
    diagrams = [page for page in site.rglob("*.html") if 'class="mermaid"' in page.read_text("utf-8")]
    assert len(diagrams) >= 2 * len(chapters(NOTEBOOKS)) - 2  # nearly every chapter has one, in both editions
    for page in diagrams:
        scripts = parse(page).links
        assert any(link.split("?")[0].endswith(f"_static/{SCRIPT}") for link in scripts), page.relative_to(site)
    for static in (site / "_static", site / "zh" / "_static"):
        assert (static / SCRIPT).is_file() and "MIT" in (static / LICENCE).read_text("utf-8")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # a plain static server, minus its line a request
        pass


@contextmanager
def static_server(folder: Path) -> Iterator[str]:
    """A plain static file server for `folder` on 127.0.0.1 (as `python -m http.server` is); its address."""
    handler = functools.partial(QuietHandler, directory=str(folder))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}"
        finally:
            server.shutdown()


def test_diagrams_render_as_svg_with_the_network_off_from_disk_and_from_a_static_server(site: Path) -> None:
    """A chapter opened from disk (English) and one served by a plain static server (Chinese), every request that is
    not to this machine refused: each diagram is drawn (an SVG), none is left as its source text. Every diagram page
    loads the same script (the test above), so two pages stand for all of them and keep the test quick."""
    from test_web import BROWSER_ARGS, CHROMIUM, WAIT

    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium); .ci/run installs it")
    from playwright.sync_api import sync_playwright

    refused: list[str] = []

    def offline(route) -> None:  # the network is off: only this machine's files and servers answer
        if urlsplit(route.request.url).hostname in (None, "", "127.0.0.1", "localhost"):
            return route.continue_()
        refused.append(route.request.url)
        return route.abort("internetdisconnected")

    with sync_playwright() as playwright, static_server(site) as served:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS, timeout=WAIT * 1000)
        context = browser.new_context()
        context.route("**/*", offline)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        for address in ((site / "notebooks" / "08_agent_loop.html").as_uri(), f"{served}/zh/notebooks/zh/04_dispatcher.html"):
            page.goto(address)
            diagrams = page.locator("pre.mermaid")
            assert diagrams.count() >= 1, address
            page.wait_for_function("n => document.querySelectorAll('pre.mermaid svg').length === n",
                                   arg=diagrams.count(), timeout=WAIT * 3000)
            assert "flowchart" not in diagrams.first.inner_text(), f"{address}: a diagram shows as its source text"
        browser.close()
    assert errors == [] and refused == [], (errors, refused)


def test_without_npm_or_a_cached_copy_the_build_says_what_is_missing_and_how_to_get_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    course = made_up_course(tmp_path / "course")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # nothing fetched yet
    monkeypatch.setenv("PATH", str(tmp_path / "no-tools"))  # and no npm to fetch it with
    with pytest.raises(SystemExit, match=r"agentkit site: .*Mermaid .*npm is not installed.*apt-get install npm.*--mermaid"):
        cli.main(["site", str(tmp_path / "out"), "--root", str(course)])
    assert not (tmp_path / "out").exists()

    given = tmp_path / "mermaid.min.js"
    given.write_text("/* Mermaid, got another way */")
    cli.main(["site", str(tmp_path / "out"), "--root", str(course), "--mermaid", str(given)])
    assert (tmp_path / "out" / "_static" / SCRIPT).read_text() == given.read_text()
    assert "MIT" in (tmp_path / "out" / "_static" / LICENCE).read_text()
