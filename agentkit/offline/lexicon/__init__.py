"""The offline model's words, kept as data: one TOML file per stage in this folder, each word list written once.

A stage reads its tables with `words("stage")`; a teacher or translator adds a word here without touching the code.
"""

import tomllib
from functools import cache
from pathlib import Path

HERE = Path(__file__).parent


@cache
def words(part: str) -> dict:
    """The tables of `lexicon/<part>.toml`, read once per process (a dict: do not change it)."""
    return tomllib.loads((HERE / f"{part}.toml").read_text(encoding="utf-8"))
