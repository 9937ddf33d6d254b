"""How long a chapter takes a learner, computed from the notebook, so the figure the course states cannot drift.

One rule, used by chapter 00's map, docs/teaching.md and the test that compares them with the notebooks:

- prose at 200 words a minute (every word of every markdown cell);
- a minute for each code cell a learner runs and reads (an exercise's solution and check cells are left out:
  they are the exercise's time);
- each core exercise's stated minutes, written after its title: `**Exercise 4.1: a schema** (10 min).`; an
  exercise that states none counts `UNSTATED_EXERCISE_MINUTES`.

The figure is the core path. An optional exercise is not counted: its title reads
`**Optional exercise 6.3: …** (10 min).`, in Chinese `**选做练习 6.3：…**（10 分钟）`, and EXERCISE does not match it
(nor a stretch exercise, which is optional too). Its solution and check cells are tagged like any exercise's and are
left out of the code cells as well, so an optional exercise costs only the words of its text.

Chapters from `OPTIONAL_FROM` on are the optional third part: timed on lines of their own, and summed on a line of
their own, outside the total.

    python -m agentkit.classroom.timing [notebooks/]    # the table, chapter by chapter, and the total
"""

from __future__ import annotations

import json
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

WORDS_PER_MINUTE = 200
UNSTATED_EXERCISE_MINUTES = 10
EXERCISE = re.compile(r"\*\*(?:Exercise|练习) (\d+\.\d+)\b[^*]*\*\*\s*(?:\((\d+) min\)|（(\d+) 分钟）)?")
"""A core exercise's title in bold, and the minutes stated right after it, in English or in Chinese; an optional
exercise's title (`**Optional exercise 6.3: …**`, `**选做练习 6.3：…**`) does not match."""
OPTIONAL_EXERCISE = re.compile(r"\*\*(?:Optional exercise|选做练习) (\d+\.\d+)")
"""An optional exercise's title: off the five-hour path, its solution and check kept like a core exercise's."""
EXERCISE_CELL_TAGS = {"solution", "check"}
OPTIONAL_FROM = "14"
"""The first chapter of the optional third part: the course's stated time is that of the chapters before it."""


@dataclass(frozen=True)
class ChapterTime:
    """What a chapter costs a learner, by the course's one rule."""

    words: int
    code_cells: int
    exercise_minutes: int
    optional_exercises: int = 0
    """How many optional exercises the chapter has: shown, never counted in its minutes."""

    @property
    def minutes(self) -> int:
        return math.ceil(self.words / WORDS_PER_MINUTE + self.code_cells + self.exercise_minutes)


def chapter_time(path: Path) -> ChapterTime:
    cells = json.loads(Path(path).read_text(encoding="utf-8"))["cells"]
    prose = ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown"]
    code = [cell for cell in cells if cell["cell_type"] == "code"
            and not EXERCISE_CELL_TAGS & set(cell["metadata"].get("tags", []))]
    exercises: dict[str, int] = {}
    optional = {match[1] for text in prose for match in OPTIONAL_EXERCISE.finditer(text)}
    for text in prose:
        for match in EXERCISE.finditer(text):
            stated = match[2] or match[3]
            exercises.setdefault(match[1], int(stated) if stated else UNSTATED_EXERCISE_MINUTES)
    return ChapterTime(sum(len(text.split()) for text in prose), len(code), sum(exercises.values()), len(optional))


def course_times(folder: Path, optional: bool = False) -> dict[str, ChapterTime]:
    """Chapter number ("00", "01", ...) -> its time, for every chapter in `folder` on the course's path (00-13), or
    with `optional=True` for those of the optional third part."""
    return {path.name[:2]: chapter_time(path) for path in sorted(Path(folder).glob("[0-9][0-9]_*.ipynb"))
            if (path.name[:2] >= OPTIONAL_FROM) == optional}


def hours_and_minutes(minutes: int) -> str:
    return f"{minutes // 60} h {minutes % 60:02d} min"


def main(argv: list[str]) -> None:
    folder = Path(argv[0]) if argv else Path("notebooks")
    times = course_times(folder)
    print(f"{'chapter':8} {'words':>6} {'code cells':>10} {'exercises':>10} {'minutes':>8} {'optional (not counted)':>23}")
    for number, time in times.items():
        print(f"{number:8} {time.words:6} {time.code_cells:10} {time.exercise_minutes:9}m {time.minutes:8} "
              f"{time.optional_exercises:23}")
    total = sum(time.minutes for time in times.values())
    print(f"{'total':8} {sum(t.words for t in times.values()):6} {sum(t.code_cells for t in times.values()):10} "
          f"{sum(t.exercise_minutes for t in times.values()):9}m {total:8}  ({hours_and_minutes(total)})")
    optional = course_times(folder, optional=True)  # part three: optional, not in the total
    for number, time in optional.items():
        print(f"{number:8} {time.words:6} {time.code_cells:10} {time.exercise_minutes:9}m {time.minutes:8}  (optional)")
    if optional:
        extra = sum(time.minutes for time in optional.values())
        print(f"{min(optional) + '-' + max(optional):8} {sum(t.words for t in optional.values()):6} "
              f"{sum(t.code_cells for t in optional.values()):10} {sum(t.exercise_minutes for t in optional.values()):9}m "
              f"{extra:8}  ({hours_and_minutes(extra)}, part three, optional)")


if __name__ == "__main__":
    main(sys.argv[1:])
