"""The Chinese docs pages, docs/zh_*.md. A page that translates an English one says so on its first line, with the hash
of the English page it was made from (`<!-- translates: docs/security.md sha256: … -->`, the hash as
translations/zh/*.json records one for each cell): once the English page changes, its test fails naming the page, the
command that shows what changed and the line to write. A translation keeps the English page's headings, code (spans
and blocks) and links. The pages written for Chinese readers are linked from README's Chinese quick start."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from agentkit.classroom.edition import english_hash

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
MARKDOWN = MarkdownIt("commonmark").enable("table")
TRANSLATES = re.compile(r"\A<!-- translates: (docs/[\w.-]+\.md) sha256: ([0-9a-f]{16}) -->\n")
TRANSLATED = ("going_deeper_02_native_tool_calling", "going_deeper_08_agent_loop", "security")
"""English pages that must have a Chinese translation, docs/zh_<name>.md."""
WRITTEN_IN_CHINESE = ("zh_pitfalls", "zh_providers")
"""Pages with no English original, for what Chinese readers meet; README's Chinese quick start links them."""


@dataclass(frozen=True)
class Shape:
    """What a translation keeps of its English page: the words change, these do not."""

    headings: tuple[str, ...]
    """each heading's level (h1, h2, ...), in order"""
    blocks: tuple[str, ...]
    """each code block, as written"""
    spans: frozenset[str]
    """the code spans"""
    links: frozenset[str]
    """the link targets, a Chinese page's own counterparts read as the English ones"""


def english_target(href: str) -> str:
    """A link in a Chinese page may point to the Chinese counterpart of what the English links: notebooks/zh/NN.ipynb
    for notebooks/NN.ipynb, zh_x.md for x.md. Both count as the same link."""
    href = re.sub(r"notebooks/zh/", "notebooks/", href)
    return re.sub(r"(^|/)zh_([\w.-]+\.md)", r"\1\2", href)


def shape(markdown: str) -> Shape:
    headings, blocks, spans, links = [], [], set(), set()
    for token in MARKDOWN.parse(markdown):
        if token.type == "heading_open":
            headings.append(token.tag)
        elif token.type in ("fence", "code_block"):
            blocks.append(token.content)
        for child in token.children or []:
            if child.type == "code_inline":
                spans.add(child.content)
            elif child.type == "link_open":
                links.add(english_target(str(child.attrs["href"])))
    return Shape(tuple(headings), tuple(blocks), frozenset(spans), frozenset(links))


def differences(english: str, chinese: str) -> list[str]:
    """How a translation's shape differs from its English page's; none when it keeps every heading, code and link."""
    en, zh = shape(english), shape(chinese)
    found = []
    if en.headings != zh.headings:
        found.append(f"headings {list(zh.headings)}, the English has {list(en.headings)}")
    if en.blocks != zh.blocks:
        changed = [block.splitlines()[0] if block else "" for block in set(en.blocks) ^ set(zh.blocks)]
        found.append(f"{len(zh.blocks)} code blocks, the English has {len(en.blocks)}; not the same: {changed}")
    for what, mine, theirs in (("code span", zh.spans, en.spans), ("link", zh.links, en.links)):
        if theirs - mine:
            found.append(f"{what}s of the English missing: {sorted(theirs - mine)}")
        if mine - theirs:
            found.append(f"{what}s the English does not have: {sorted(mine - theirs)}")
    return found


def translation_problems(page: Path, root: Path = ROOT) -> list[str]:
    """Why a Chinese page is not the current translation of the English page its first line names."""
    text = page.read_text(encoding="utf-8")
    header = TRANSLATES.match(text)
    where = page.relative_to(root).as_posix()
    if header is None:
        return [f"{where}: its first line should name the English page it translates: "
                "<!-- translates: docs/NAME.md sha256: HASH -->"]
    source, recorded = header.groups()
    english = root / source
    if not english.is_file():
        return [f"{where} translates {source}, which does not exist"]
    now = english_hash(english.read_text(encoding="utf-8"))
    if recorded != now:
        return [f"{where} translates {source}, which changed since (recorded {recorded}, now {now}). See what changed: "
                f"git diff $(git log -1 --format=%h -- {where}) -- {source}; bring the Chinese up to date, then write "
                f"its first line as: <!-- translates: {source} sha256: {now} -->"]
    return [f"{where} (translating {source}): {problem}"
            for problem in differences(english.read_text(encoding="utf-8"), text[header.end():])]


TRANSLATIONS = sorted(page for page in DOCS.glob("zh_*.md") if page.read_text(encoding="utf-8").startswith("<!-- translates:"))


@pytest.mark.parametrize("page", TRANSLATIONS, ids=lambda page: page.stem)
def test_zh_docs_each_translation_is_current_and_keeps_the_english_headings_code_and_links(page: Path) -> None:
    assert translation_problems(page) == []


@pytest.mark.parametrize("name", TRANSLATED)
def test_zh_docs_the_going_deeper_pages_and_the_threat_model_are_translated(name: str) -> None:
    page = DOCS / f"zh_{name}.md"
    assert page.is_file(), f"docs/{name}.md has no Chinese translation, docs/zh_{name}.md"
    assert TRANSLATES.match(page.read_text(encoding="utf-8"))[1] == f"docs/{name}.md"


def test_zh_docs_the_pages_for_chinese_readers_are_linked_from_the_chinese_quick_start() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick_start = readme.split("## 中文快速入门", 1)[1].split("\n## ", 1)[0]
    for name in (*WRITTEN_IN_CHINESE, *(f"zh_{name}" for name in TRANSLATED)):
        assert (DOCS / f"{name}.md").is_file(), name
        assert f"](docs/{name}.md)" in quick_start, f"README's 中文快速入门 does not link docs/{name}.md"


# Each check can fail: a stale page, a page that lost a heading, a code span or a link, and one with no header.
def course(tmp_path: Path, english: str, chinese: str) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text(english, encoding="utf-8")
    header = f"<!-- translates: docs/guide.md sha256: {english_hash(english)} -->\n"
    (tmp_path / "docs" / "zh_guide.md").write_text(header + chinese, encoding="utf-8")
    return tmp_path / "docs" / "zh_guide.md"


ENGLISH = "# Guide\n\nRun `agentkit chat`, see [security](security.md).\n\n## More\n\n```\nagentkit web\n```\n"
CHINESE = "# 指南\n\n运行 `agentkit chat`，见[威胁模型](zh_security.md)。\n\n## 更多\n\n```\nagentkit web\n```\n"


def test_zh_docs_a_faithful_translation_passes_and_may_link_the_chinese_counterparts(tmp_path: Path) -> None:
    assert translation_problems(course(tmp_path, ENGLISH, CHINESE), tmp_path) == []


def test_zh_docs_a_translation_goes_stale_when_its_english_page_changes(tmp_path: Path) -> None:
    page = course(tmp_path, ENGLISH, CHINESE)
    (tmp_path / "docs" / "guide.md").write_text(ENGLISH + "\nOne more sentence.\n", encoding="utf-8")
    [problem] = translation_problems(page, tmp_path)
    new = english_hash(ENGLISH + "\nOne more sentence.\n")
    assert problem.startswith("docs/zh_guide.md translates docs/guide.md, which changed since")
    assert "git diff $(git log -1 --format=%h -- docs/zh_guide.md) -- docs/guide.md" in problem
    assert f"<!-- translates: docs/guide.md sha256: {new} -->" in problem


@pytest.mark.parametrize(("chinese", "reported"), [
    (CHINESE.replace("## 更多", "更多"), "headings"),
    (CHINESE.replace("`agentkit chat`", "agentkit chat"), "code spans of the English missing: ['agentkit chat']"),
    (CHINESE.replace("`agentkit chat`", "`agentkit chat --lang zh`"), "code spans the English does not have"),
    (CHINESE.replace("agentkit web\n```", "agentkit web --port 1\n```"), "code blocks"),
    (CHINESE.replace("(zh_security.md)", "(teaching.md)"), "links of the English missing: ['security.md']"),
])
def test_zh_docs_a_translation_that_drops_or_changes_what_it_must_keep_is_named(
        tmp_path: Path, chinese: str, reported: str) -> None:
    found = translation_problems(course(tmp_path, ENGLISH, chinese), tmp_path)
    assert any(reported in problem and problem.startswith("docs/zh_guide.md") for problem in found), found


def test_zh_docs_a_page_without_its_header_is_named(tmp_path: Path) -> None:
    page = course(tmp_path, ENGLISH, CHINESE)
    page.write_text(CHINESE, encoding="utf-8")
    assert "its first line should name the English page" in translation_problems(page, tmp_path)[0]
