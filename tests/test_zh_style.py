"""The Chinese edition in one voice, as docs/zh_style.md sets it out: every Chinese text of the edition (each cell of
translations/zh/*.json and each docs/zh_*.md page) is parsed as the site parses it (CommonMark plus tables, with
markdown-it-py) and must have no line break inside a paragraph (a browser shows each as a stray space), no `**`
left as literal text (a bold CommonMark cannot close) nor punctuation inside the end of a bold, no glossary term in a
form the glossary's "avoid" column names (code spans and code blocks aside), and exercise headings in one form. A
failure names the chapter, the cell and the text around the fault; each check is shown failing on a bad sample."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = sorted((ROOT / "translations" / "zh").glob("*.json"))
ZH_DOCS = sorted((ROOT / "docs").glob("zh_*.md"))
GLOSSARY = ROOT / "docs" / "glossary.md"
MARKDOWN = MarkdownIt("commonmark").enable("table")
CODE = "\x00"
"""What a code span becomes in a paragraph's plain text: no term is matched across or inside it."""
EXERCISE = re.compile(r"练习\s*\d+\.\d+")
EXERCISE_FORM = re.compile(r"练习 \d+\.\d+：\S")
"""An exercise heading reads `练习 1.1：` (the bold around it aside), then its title or its task."""
GLOSS = re.compile(r"（[\x01-\x7f]+）")
"""A term's English in full-width parentheses on first use, 词元（token）: English, so no Chinese form is judged there."""
CLOSING_PUNCTUATION = "。，、；：！？"
"""full-width punctuation that goes after a bold, never inside its end"""
AROUND = 18
"""characters shown on each side of a fault"""


@dataclass(frozen=True)
class Term:
    """One row of docs/glossary.md: the forms to write, and the forms to avoid for the same concept."""

    english: str
    chinese: tuple[str, ...]
    avoid: tuple[str, ...]


def glossary_terms(text: str) -> list[Term]:
    """The glossary table's rows. Its columns are found by their headings: `中文` holds the forms to write (several
    terms separated by 、, a parenthesis explaining the one before it), `avoid` the forms not to write (— for none)."""
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in text.splitlines() if line.startswith("|")]
    header, body = rows[0], rows[2:]
    malformed = [row[0] for row in body if len(row) != len(header)]
    if malformed:
        raise ValueError(f"glossary rows without the table's {len(header)} columns: {malformed}")
    chinese, avoid = header.index("中文"), next(i for i, name in enumerate(header) if name.startswith("avoid"))
    terms = []
    for row in body:
        written = tuple(form.strip() for form in re.sub(r"（[^）]*）", "", row[chinese]).split("、") if form.strip())
        avoided = tuple(form.strip() for form in row[avoid].split("、") if form.strip() not in ("", "—"))
        terms.append(Term(row[0], written, avoided))
    return terms


def avoid_pattern(form: str) -> re.Pattern[str]:
    """A Latin form is a whole word, matched as written (`schema`, not `input_schema` nor `Schema`); a Chinese one
    matches anywhere, since Chinese has no spaces between words."""
    if form.isascii():
        return re.compile(rf"(?<![\w-]){re.escape(form)}(?![\w-])")
    return re.compile(re.escape(form))


def paragraphs(markdown: str) -> list[Token]:
    """Every inline run of prose the parser finds: paragraphs (list items' too), headings and table cells."""
    return [token for token in MARKDOWN.parse(markdown) if token.type == "inline"]


def plain_text(inline: Token) -> str:
    """The words a reader sees, markup gone: code spans become CODE, so nothing is matched inside them."""
    parts = []
    for child in inline.children or []:
        if child.type == "text":
            parts.append(child.content)
        elif child.type == "code_inline":
            parts.append(CODE)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
    return "".join(parts)


def around(text: str, start: int, end: int | None = None) -> str:
    """The fault with some text on each side, on one line."""
    end = start if end is None else end
    return ("…" + text[max(0, start - AROUND):end + AROUND] + "…").replace("\n", "⏎").replace(CODE, "`…`")


def line_breaks(inline: Token) -> list[str]:
    """A paragraph on more than one line: a soft or hard break, or a code span broken across two lines."""
    at = inline.content.find("\n")
    return [] if at < 0 else [f"a line break inside a paragraph (join the lines): {around(inline.content, at)}"]


def bold_faults(inline: Token) -> list[str]:
    """A `**` the parser left as text (it could not close it), and punctuation inside the end of a bold."""
    found, children = [], inline.children or []
    for before, child in zip([None, *children], children, strict=False):
        if child.type == "strong_close" and before is not None and before.type == "text" \
                and before.content[-1:] in CLOSING_PUNCTUATION:
            end = len(before.content)
            found.append(f"punctuation inside the end of a bold (write `**词**：`): {around(before.content, end)}")
        if child.type == "text" and "**" in child.content:
            at = child.content.index("**")
            found.append(f"a `**` CommonMark cannot close (write `**词**：`, punctuation outside the bold): "
                         f"{around(child.content, at, at + 2)}")
    return found


def avoided_forms(text: str, avoid: dict[str, re.Pattern[str]]) -> list[str]:
    """Each glossary term written in a form to avoid, in a paragraph's plain text (English glosses aside)."""
    text = GLOSS.sub(lambda gloss: "（" + " " * (len(gloss[0]) - 2) + "）", text)
    return [f"{form!r} is a form docs/glossary.md says to avoid: {around(text, match.start(), match.end())}"
            for form, pattern in avoid.items() for match in pattern.finditer(text)]


def exercise_heading(inline: Token, text: str) -> list[str]:
    """A paragraph that opens with a bold exercise number must read `练习 1.1：`."""
    first = next((child for child in inline.children or [] if child.type != "text" or child.content), None)
    if first is None or first.type != "strong_open" or not EXERCISE.match(text) or EXERCISE_FORM.match(text):
        return []
    return [f"an exercise heading not in the form `练习 1.1：`: {around(text, 0)}"]


def style_problems(markdown: str, avoid: dict[str, re.Pattern[str]]) -> list[str]:
    """What in one Chinese text breaks the guide, each with the text around it; `avoid` maps a form to its pattern."""
    found = []
    for inline in paragraphs(markdown):
        text = plain_text(inline)
        found += line_breaks(inline) + bold_faults(inline) + avoided_forms(text, avoid) + exercise_heading(inline, text)
    return found


@dataclass(frozen=True)
class ChineseText:
    where: str
    """the chapter and cell, or the docs page"""
    markdown: str


def chinese_texts() -> list[ChineseText]:
    texts = []
    for path in TRANSLATIONS:
        data = json.loads(path.read_text(encoding="utf-8"))
        texts += [ChineseText(f"{path.stem} cell {cell_id}", entry["zh"]) for cell_id, entry in data["cells"].items()]
        texts += [ChineseText(f"{path.stem} cell {entry['id']}", entry["zh"])  # markdown a translation adds
                  for entry in data.get("added", []) if entry["cell_type"] == "markdown"]
    texts += [ChineseText(f"docs/{path.name}", path.read_text(encoding="utf-8")) for path in ZH_DOCS]
    return texts


def unused_terms(terms: list[Term], edition: str) -> list[str]:
    """The forms the glossary prescribes that no chapter writes: a term to use, or to drop from the glossary."""
    return [f"{term.english}: {form}" for term in terms for form in term.chinese if form not in edition]


def located_problems(texts: list[ChineseText], avoid: dict[str, re.Pattern[str]]) -> list[str]:
    """Every fault in these texts, each prefixed by where it is: the chapter and cell, or the docs page."""
    return [f"{text.where}: {problem}" for text in texts for problem in style_problems(text.markdown, avoid)]


TERMS = glossary_terms(GLOSSARY.read_text(encoding="utf-8"))
AVOID = {form: avoid_pattern(form) for term in TERMS for form in term.avoid}
SOURCES = [path.stem for path in TRANSLATIONS] + [f"docs/{path.name}" for path in ZH_DOCS]


@pytest.mark.parametrize("source", SOURCES)
def test_zh_every_text_follows_the_style_guide(source: str) -> None:
    texts = [text for text in chinese_texts() if text.where == source or text.where.startswith(f"{source} cell ")]
    assert texts, f"{source}: no Chinese text found"
    found = located_problems(texts, AVOID)
    assert not found, f"{len(found)} places break docs/zh_style.md:\n" + "\n".join(found)


def test_zh_the_glossary_has_an_avoid_column_and_every_term_it_prescribes_is_used() -> None:
    assert len(TERMS) >= 40 and sum(bool(term.avoid) for term in TERMS) >= 8, "the glossary lists few forms to avoid"
    edition = "\n".join(text.markdown for text in chinese_texts() if not text.where.startswith("docs/"))
    unused = unused_terms(TERMS, edition)
    assert not unused, f"glossary terms no chapter uses (use them or drop them): {unused}"
    clashing = [f"{term.english}: {form}" for term in TERMS for form in term.chinese
                if any(AVOID[bad].search(form) for bad in AVOID)]
    assert not clashing, f"a prescribed form contains a form to avoid: {clashing}"


def test_zh_the_style_guide_exists_in_chinese_and_names_its_rules() -> None:
    guide = (ROOT / "docs" / "zh_style.md").read_text(encoding="utf-8")
    for rule in ("的", "地", "得", "docs/glossary.md", "**深入一步**：", "练习 1.1："):
        assert rule in guide, f"docs/zh_style.md does not mention {rule!r}"


# Each check can fail: a bad sample of each kind, and the text it is reported with.
SAMPLE_AVOID = {form: avoid_pattern(form) for form in ("令牌用量", "schema")}


@pytest.mark.parametrize(("sample", "reported"), [
    ("循环会重复这个来回，\n直到任务完成。", "a line break inside a paragraph"),
    ("- 列表项的第一行\n  续在下一行", "a line break inside a paragraph"),
    ("一个 `def f(text: str)\n-> int` 断在代码里", "a line break inside a paragraph"),
    ("**深入一步：**这些防御都在 `agentkit/hardening/` 里。", "a `**` CommonMark cannot close"),
    ("| 列 |\n|---|\n| **练习：**未闭合 |", "a `**` CommonMark cannot close"),
    ("本章统计令牌用量。", "'令牌用量' is a form docs/glossary.md says to avoid"),
    ("每个工具有一个 schema。", "'schema' is a form docs/glossary.md says to avoid"),
    ("**提取器模式。** 在 `response_format` 出现之前", "punctuation inside the end of a bold"),
    ("**练习 4.1.** 编写一个工具。", "an exercise heading not in the form"),
    ("**练习 3.1。** 用 `@tool` 定义一个工具。", "an exercise heading not in the form"),
])
def test_zh_each_check_fails_on_a_bad_sample(sample: str, reported: str) -> None:
    found = style_problems(sample, SAMPLE_AVOID)
    assert any(reported in problem for problem in found), found


@pytest.mark.parametrize("sample", [
    "每一段都在一行上，中文和 `code` 之间有空格。\n\n- 列表项各占一行\n- 第二项\n\n| 表 | 格 |\n|---|---|\n| 一 | 二 |",
    "**深入一步**：这些防御都在 `agentkit/hardening/` 里。",
    "**练习 1.1：第三个工具**。编写一个函数。\n\n**练习 4.1**：编写一个工具。",
    "代码里可以写 `input_schema` 和 `令牌用量`：\n\n```\nschema = 1\n令牌用量\n```",
    "词元用量与 Schema 都按术语表书写，练习 7.2 只是被引用。",
    "**严格模式 Schema**（strict schema）：第一次出现时括号里给出英文。",
])
def test_zh_text_written_to_the_guide_passes(sample: str) -> None:
    assert style_problems(sample, SAMPLE_AVOID) == []


def test_zh_a_glossary_row_without_every_column_is_refused() -> None:
    with pytest.raises(ValueError, match="token"):
        glossary_terms("| English | 中文 | avoid | chapter |\n|---|---|---|---|\n| token | 词元 | 00 |\n")


def test_zh_a_glossary_term_no_chapter_uses_is_named() -> None:
    terms = [Term("dispatcher", ("分发器",), ()), Term("hallucinated tool", ("幻觉工具",), ())]
    assert unused_terms(terms, "本章讲分发器。") == ["hallucinated tool: 幻觉工具"]


def test_zh_a_fault_is_reported_with_its_chapter_and_cell() -> None:
    found = located_problems([ChineseText("07_tool_policy cell 3981b050", "**深入一步：**这些防御")], AVOID)
    assert found and found[0].startswith("07_tool_policy cell 3981b050: ") and "深入一步" in found[0]


def test_zh_the_glossary_columns_are_read_by_their_headings() -> None:
    table = ("| English | 中文 | avoid | chapter |\n|---|---|---|---|\n"
             "| token | 词元（token）、词元用量 | 令牌数、令牌用量 | 00 |\n| tool | 工具 | — | 01 |\n")
    assert glossary_terms(table) == [Term("token", ("词元", "词元用量"), ("令牌数", "令牌用量")), Term("tool", ("工具",), ())]
