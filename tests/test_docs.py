"""The docs name tests and files as evidence: every one they name must exist, or the claim has no backing."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECURITY = (ROOT / "docs" / "security.md").read_text()


def test_every_test_named_in_security_md_exists():
    defined = {name for path in (ROOT / "tests").glob("test_*.py")
               for name in re.findall(r"^(?:async )?def (test_\w+)", path.read_text(), re.MULTILINE)}
    named = set(re.findall(r"\b(test_\w+)(?!\.py)\b", SECURITY)) - {p.stem for p in (ROOT / "tests").glob("*.py")}
    assert named, "security.md names no test"
    assert not named - defined, f"security.md names tests that do not exist: {sorted(named - defined)}"


def test_every_file_named_in_security_md_exists():
    files = set(re.findall(r"`((?:agentkit|tests)/[\w/.]+\.py)`", SECURITY))
    for short in re.findall(r"`((?:tools|offline)/\w+\.py)`", SECURITY):
        files.add(f"agentkit/{short}")
    missing = sorted(f for f in files if not (ROOT / f).exists())
    assert files and not missing, f"security.md names files that do not exist: {missing}"
