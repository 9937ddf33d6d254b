"""`agentkit site DIR` as README tells a reader to type it: the installed script, from the clone's folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from front_door import exercises, run

from agentkit.classroom.site_mermaid import cache_folder

ROOT = Path(__file__).resolve().parent.parent

pytest.importorskip("myst_nb", reason="agentkit site needs the site extra")


@exercises("site")
def test_site_builds_the_course_from_the_clone_with_a_page_per_chapter(tmp_path):
    out = tmp_path / "site"
    # The reader's home is a new one; Mermaid's copy is this machine's (fetched from npm once, then kept).
    done = run("site", str(out), cwd=ROOT, timeout=300, XDG_CACHE_HOME=str(cache_folder().parents[1]))
    assert done.returncode == 0, done.stderr
    chapters = sorted(path.stem for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    built = {path.stem for path in out.rglob("*.html")}
    assert "index" in built and "search" in built, sorted(built)
    assert set(chapters) <= built, sorted(set(chapters) - built)


def test_site_refuses_an_unknown_edition_in_one_line(tmp_path):
    done = run("site", str(tmp_path / "site"), "--language", "xx", cwd=ROOT)
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
