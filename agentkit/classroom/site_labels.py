"""The site theme's own labels in the edition's language, where Sphinx's catalogue has none (a Sphinx extension).

Sphinx translates its labels ("搜索", "上一页") under `language = "zh_CN"`; the furo theme asks for some it does not
have ("Next", "Previous", "On this page", "Back to top"), which stayed English on the Chinese pages. They are
added here as the last fallback of Sphinx's translator, so a label Sphinx does translate keeps its own wording.
"""

from __future__ import annotations

import gettext

LABELS: dict[str, dict[str, str]] = {
    "zh_CN": {
        "Next": "下一页", "Previous": "上一页", "On this page": "本页内容", "Back to top": "回到顶部",
        "Made with ": "本站使用 ", '<a href="https://www.sphinx-doc.org/">Sphinx</a> and ':
        '<a href="https://www.sphinx-doc.org/">Sphinx</a> 和 ', "Search": "搜索", "Home": "首页", "Index": "索引",
        "Edit this page": "编辑本页", "View this page": "查看本页",
        "Please activate JavaScript to enable the search functionality.": "请启用 JavaScript 以使用搜索功能。",
    },
}
"""language -> the theme's English label -> the label in that language."""


class ThemeLabels(gettext.NullTranslations):
    """A translator that knows only the theme's labels, in one language."""

    def __init__(self, labels: dict[str, str]) -> None:
        super().__init__()
        self.labels = labels

    def gettext(self, message: str) -> str:
        return self.labels.get(message, message)


def setup(app) -> dict:  # app: Sphinx's application; its translator exists before extensions are set up
    """Add the theme's labels in the site's language (if we have them) after Sphinx's own catalogue."""
    labels = LABELS.get(app.config.language)
    if labels and hasattr(app.translator, "add_fallback"):
        app.translator.add_fallback(ThemeLabels(labels))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
