"""`visible(text)`: untrusted text (a file, a tool's output, the model's words) made safe to show to a person.

The attack: a terminal obeys control characters: `\\x1b[2K\\r` erases the line, and ESC or U+009B (a one-character
ESC [) start sequences that move the cursor, set the window title or repaint a question, so text from a
file can make `Allow bash {"command": "rm -rf ~"}?` look like something harmless. Bidi controls (U+202E
turns the rest of a line right to left) and invisible characters (U+200B) make what is shown differ from
what runs. So every such character is shown as an escape a person can see, instead of being obeyed:

    >>> visible("ok\\x1b[2K\\u202eevil")
    'ok\\\\x1b[2K<U+202E>evil'

Lone surrogates (a file name that is not UTF-8, decoded with `surrogateescape`) cannot be encoded, so
printing them raises `UnicodeEncodeError`; they are marked too, so the result can always be written.
Plain text comes back unchanged, and `visible(visible(t)) == visible(t)`. Proved by tests/test_chat_display.py
(the terminal) and tests/test_front_door_web.py (the page).
"""

from __future__ import annotations

import re
import unicodedata

KEPT_IN_MULTILINE = "\n\t"
"""Characters left as they are when the text is shown over several lines; escaped otherwise."""
NAMED_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}
"""Controls shown by their usual names; the others by their code."""
DRAWN_AS_NOTHING = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164"
    "\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]")
"""Unicode's Default_Ignorable_Code_Point: what a terminal draws as nothing, though a program reads it. Most
are format characters; the variation selectors (U+FE00-U+FE0F, U+E0100-U+E01EF) are not, and a run of them
can carry a whole hidden message after one visible character."""
EMOJI_STYLE = "\ufe0e\ufe0f"
"""Variation selectors kept right after a symbol: they choose text or emoji style (U+2764 U+FE0F is a red heart)."""
UNUSUAL_SPACES = re.compile("[^\\S \n\t\r\x0b\x0c\x1c-\x1f\x85\u2028\u2029]|\u2800")
"""Spaces other than U+0020 (no-break, em, ideographic, braille blank): bash does not split words on them, so in
a question that gates a command they are marked too (`exact=True`)."""


def visible(text: str, *, multiline: bool = True, exact: bool = False) -> str:
    """`text` with every control, bidi, invisible or unencodable character replaced by a visible escape.

    C0 controls and DEL become escapes as in Python's string syntax (`\\r`, `\\x1b`), C1 controls too
    (`\\u009b`); format characters (bidi controls, zero-width spaces, U+FEFF, tags), line and paragraph
    separators, characters drawn as nothing and lone surrogates become `<U+202E>`. Newlines and tabs are
    kept when `multiline`, escaped as `\\n` and `\\t` otherwise. `exact`: spaces other than U+0020 are
    marked too, for a question whose answer runs the text (a confirmation).
    """
    if text.isprintable() and not DRAWN_AS_NOTHING.search(text) and not (exact and UNUSUAL_SPACES.search(text)):
        return text  # the common case, in a few passes of C
    return "".join(_shown(character, text[index - 1] if index else "", multiline, exact)
                   for index, character in enumerate(text))


def marked(text: str, *, exact: bool = False) -> tuple[str, int]:
    """`text` with each character `visible` would escape written `<U+XXXX>` (newlines and tabs kept), and how
    many there were: one uniform mark a page can badge, for text that crosses the wire to be shown elsewhere."""
    shown = [f"<U+{ord(c):04X}>" if _shown(c, text[i - 1] if i else "", True, exact) != c else c
             for i, c in enumerate(text)]
    return "".join(shown), sum(len(part) > 1 for part in shown)


def _shown(character: str, before: str, multiline: bool, exact: bool) -> str:
    code = ord(character)
    if multiline and character in KEPT_IN_MULTILINE:
        return character
    if character in NAMED_ESCAPES:
        return NAMED_ESCAPES[character]
    if code < 0x20 or code == 0x7F:
        return f"\\x{code:02x}"
    if 0x80 <= code < 0xA0:
        return f"\\u{code:04x}"
    if character in EMOJI_STYLE and before and unicodedata.category(before) == "So":
        return character
    # Cf: format characters (bidi controls, zero-width ones, U+FEFF, tags); Zl, Zp: line and paragraph
    # separators; Cs: lone surrogates. `isprintable` is False for all of them, and for the spaces (Zs),
    # which show as spaces and are kept unless `exact`.
    if (unicodedata.category(character) in ("Cf", "Zl", "Zp", "Cs") or DRAWN_AS_NOTHING.match(character)
            or (exact and UNUSUAL_SPACES.match(character))):
        return f"<U+{code:04X}>"
    return character


_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})|(?<!\\)((?:\\\\)*)\\u([0-9a-f]{4})",
                     re.IGNORECASE)


def readable(arguments: str) -> str:
    """JSON text with its `\\uXXXX` escapes of non-ASCII characters written as the characters, so that "笔记.txt"
    reads as written, not as `\\u7b14\\u8bb0.txt` (json.dumps' default `ensure_ascii=True`). Escapes of ASCII stay, and
    what comes out still goes through `visible()`: a hidden character escaped by the model is marked, not hidden."""
    def character(match: re.Match[str]) -> str:
        if match.group(2):
            high, low = int(match.group(2), 16), int(match.group(3), 16)
            return match.group(1) + chr(0x10000 + (high - 0xD800) * 0x400 + low - 0xDC00)
        code = int(match.group(5), 16)
        kept = code < 0x80 or 0xD800 <= code <= 0xDFFF
        return match.group(4) + (match.group(0)[len(match.group(4)):] if kept else chr(code))
    return _ESCAPE.sub(character, arguments)
