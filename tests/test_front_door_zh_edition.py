"""`agentkit edition zh`, as README tells a translator to type it: the installed script builds notebooks/zh/."""

from __future__ import annotations

import shutil
from pathlib import Path

from front_door import exercises, run

ROOT = Path(__file__).resolve().parent.parent


@exercises("edition")
def test_zh_edition_is_built_by_the_installed_script_and_a_stale_cell_is_named(tmp_path):
    course = tmp_path / "course"
    (course / "notebooks").mkdir(parents=True)
    first = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))[0]
    shutil.copy(first, course / "notebooks" / first.name)
    (course / "translations" / "zh").mkdir(parents=True)
    shutil.copy(ROOT / "translations" / "zh" / f"{first.stem}.json", course / "translations" / "zh")
    done = run("edition", "zh", cwd=course)
    assert done.returncode == 0 and "wrote 1 notebooks to" in done.stdout, done
    assert (course / "notebooks" / "zh" / first.name).exists()
    text = (course / "notebooks" / first.name).read_text(encoding="utf-8").replace("offline model", "stand-in", 1)
    (course / "notebooks" / first.name).write_text(text, encoding="utf-8")
    stale = run("edition", "zh", cwd=course)
    assert stale.returncode == 1 and "the English text changed after it was translated" in stale.stderr, stale
    assert "Traceback" not in stale.stderr
