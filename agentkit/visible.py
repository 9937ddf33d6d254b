"""`visible(text)`: untrusted text (a file, a tool's output, the model's words) made safe to show to a person.

A terminal obeys control characters: `\\x1b[2K\\r` erases the line, and ESC or U+009B (a one-character
ESC [) start sequences that move the cursor, set the window title or repaint a question, so text from a
file can make `Allow bash {"command": "rm -rf ~"}?` look like something harmless. Bidi controls (U+202E
turns the rest of a line right to left) and invisible characters (U+200B) make what is shown differ from
what runs. So every such character is shown as an escape a person can see, instead of being obeyed:

    >>> visible("ok\\x1b[2K\\u202eevil")
    'ok\\\\x1b[2K<U+202E>evil'

Lone surrogates (a file name that is not UTF-8, decoded with `surrogateescape`) cannot be encoded, so
printing them raises `UnicodeEncodeError`; they are marked too, so the result can always be written.
Plain text comes back unchanged, and `visible(visible(t)) == visible(t)`.
"""

from __future__ import annotations

import unicodedata

KEPT_IN_MULTILINE = "\n\t"
"""Characters left as they are when the text is shown over several lines; escaped otherwise."""
NAMED_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}
"""Controls shown by their usual names; the others by their code."""
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u034f")
"""Characters that are not format controls but draw nothing (Hangul fillers, the combining grapheme joiner)."""


def visible(text: str, *, multiline: bool = True) -> str:
    """`text` with every control, bidi, invisible or unencodable character replaced by a visible escape.

    C0 controls and DEL become escapes as in Python's string syntax (`\\r`, `\\x1b`), C1 controls too
    (`\\u009b`); format characters (bidi controls, zero-width spaces, U+FEFF, tags), line and paragraph
    separators, blank letters and lone surrogates become `<U+202E>`. Newlines and tabs are kept when
    `multiline`, escaped as `\\n` and `\\t` otherwise.
    """
    if text.isprintable() and not BLANK_LETTERS.intersection(text):  # the common case, in one pass of C
        return text
    return "".join(_shown(character, multiline) for character in text)


def _shown(character: str, multiline: bool) -> str:
    code = ord(character)
    if multiline and character in KEPT_IN_MULTILINE:
        return character
    if character in NAMED_ESCAPES:
        return NAMED_ESCAPES[character]
    if code < 0x20 or code == 0x7F:
        return f"\\x{code:02x}"
    if 0x80 <= code < 0xA0:
        return f"\\u{code:04x}"
    # Cf: format characters (bidi controls, zero-width ones, U+FEFF, tags); Zl, Zp: line and paragraph
    # separators; Cs: lone surrogates. `isprintable` is False for all of them, and for the spaces (Zs),
    # which show as spaces and are kept.
    if unicodedata.category(character) in ("Cf", "Zl", "Zp", "Cs") or character in BLANK_LETTERS:
        return f"<U+{code:04X}>"
    return character
