"""The Chinese site's interface is Chinese: the theme's own labels (Next, Previous, On this page, Back to top), which
Sphinx's zh_CN catalogue lacks, come from agentkit/classroom/site_labels.py; the English site keeps English ones."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("furo")
pytest.importorskip("myst_parser")

ENGLISH_LABELS = ("Next", "Previous", "On this page", "Back to top", "Made with")


def built(tmp_path: Path, language: str) -> str:
    """A two-page furo site in `language`, built as agentkit.classroom.site configures it; the second page's HTML."""
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text(f"language = {language!r}\nhtml_theme = 'furo'\n"
                                    "extensions = ['myst_parser', 'agentkit.classroom.site_labels']\n")
    (source / "index.md").write_text("# 首页\n\n```{toctree}\nchapter\n```\n", encoding="utf-8")
    (source / "chapter.md").write_text("# 第一章\n\n## 一节\n\n正文。\n\n## 二节\n\n正文。\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", "-E", str(source), str(tmp_path / "out")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return (tmp_path / "out" / "chapter.html").read_text(encoding="utf-8")


def test_the_chinese_pages_labels_are_chinese(tmp_path: Path) -> None:
    page = built(tmp_path, "zh_CN")
    for label in ("上一页", "本页内容", "回到顶部", "本站使用", "搜索"):
        assert label in page, label
    assert not [label for label in ENGLISH_LABELS if f">{label}<" in page.replace("\n", "").replace("  ", "")]


def test_the_english_pages_keep_the_themes_english(tmp_path: Path) -> None:
    page = built(tmp_path, "en")
    assert "Previous" in page and "On this page" in page and "本页内容" not in page


def test_the_site_loads_the_labels_for_its_chinese_edition() -> None:
    from agentkit.classroom.site import EDITIONS, _configuration

    settings = _configuration(EDITIONS["zh"], Path("static"))
    assert "agentkit.classroom.site_labels" in settings["extensions"] and settings["language"] == "zh_CN"
