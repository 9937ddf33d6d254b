"""Every Mermaid diagram of the course (notebooks, README, docs) is well formed.

The real parser is mermaid's own JavaScript, which CI does not install (it would need node and a browser or jsdom
for a handful of diagrams). This is a structural check of the subset the course draws instead, strict enough to
catch what breaks a diagram: `flowchart TD`/`LR` (node ids, quoted labels in ["..."], {"..."} or (["..."]),
edges written ` --> ` or ` -->|label| `) and `sequenceDiagram` (declared participants, `A->>B: text` messages,
notes, and alt/else, opt, loop, par/and blocks closed by `end`). Each diagram was also parsed once by mermaid 11
itself (see the note on the issue); a diagram outside this subset is refused here, so extend the checker with it.

A few rules are the course's own, stricter than mermaid, because each catches a diagram that parses and is still
wrong: labels are quoted (a bare label breaks on its first parenthesis), edges have a space on each side (`A-->ox`
draws a circle-headed edge to `x`), every flowchart node has a label somewhere (a bare id is usually a typo),
and every participant is declared and used.
"""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```mermaid\n(.*?)^```", re.MULTILINE | re.DOTALL)

ID = r"[A-Za-z_][A-Za-z0-9_]*"
SHAPES = r'\["[^"]*"\]|\{"[^"]*"\}|\(\["[^"]*"\]\)|\("[^"]*"\)'
NODE = re.compile(rf"(?P<id>{ID})(?P<shape>{SHAPES})?")
EDGE = re.compile(r' (?:-->|-\.->)(\|[^|"\[\]{}();]+\||\|"[^"|]+"\|)? ')
"""An edge, solid (-->) or dotted (-.->, an order rather than a call), with no label, a plain one (-->|yes|) or a
quoted one for text with punctuation (-->|"是，继续"|)."""
CHAIN = re.compile(rf"{ID}(?:{SHAPES})?(?:{EDGE.pattern}{ID}(?:{SHAPES})?)*")
"""A line of a flowchart: one node, or nodes joined by edges; ids and labels are read with NODE afterwards."""
ARROW = r"-->>|->>|-->|->|--x|-x|--\)|-\)"
MESSAGE = re.compile(rf"(?P<source>{ID})\s*(?:{ARROW})\s*(?P<target>{ID})\s*:\s*(?P<text>[^;#]+)")
PARTICIPANT = re.compile(rf"(participant|actor) (?P<id>{ID})( as [^;#]+)?")
NOTE = re.compile(rf"Note (over|left of|right of) (?P<ids>{ID}(\s*,\s*{ID})?)\s*:\s*[^;#]+")
BLOCKS = {"alt": None, "opt": None, "loop": None, "par": None, "else": "alt", "and": "par"}
"""Block keywords of a sequence diagram, and the block a continuation (else, and) must be inside."""
RESERVED = {"end", "graph", "subgraph", "style", "class", "click"}


def mermaid_blocks() -> list[tuple[str, str]]:
    """(where, diagram) for every ```mermaid block in the notebooks' markdown cells, README.md and docs/."""
    found = []
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "notebooks").glob("zh/*.ipynb")):
        for number, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
            if cell["cell_type"] == "markdown":
                text = "".join(cell["source"])
                where = path.relative_to(ROOT / "notebooks")
                found += [(f"{where} cell {number}", block) for block in FENCE.findall(text)]
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        found += [(path.name, block) for block in FENCE.findall(path.read_text(encoding="utf-8"))]
    return found


def diagram_problems(diagram: str) -> list[str]:
    """What is wrong with a diagram, one line each; [] when it is well formed."""
    lines = [line.strip() for line in diagram.splitlines() if line.strip() and not line.strip().startswith("%%")]
    if not lines:
        return ["the diagram is empty"]
    header, body = lines[0], lines[1:]
    if re.fullmatch(r"flowchart (TD|TB|LR|RL|BT)", header):
        return _flowchart_problems(body)
    if header == "sequenceDiagram":
        return _sequence_problems(body)
    return [f"unknown diagram type {header!r}: the course draws 'flowchart TD', 'flowchart LR' or 'sequenceDiagram'"]


def _flowchart_problems(lines: list[str]) -> list[str]:
    problems, labelled, used = [], set(), set()
    for line in lines:
        if line.count('"') % 2:
            problems.append(f"unbalanced quotes in: {line}")
            continue
        if not CHAIN.fullmatch(line):
            problems.append(f"not a node or a chain of ' --> ' edges between nodes (labels quoted): {line}")
            continue
        for node in NODE.finditer(EDGE.sub(" ", line)):
            if node["id"].lower() in RESERVED:
                problems.append(f"{node['id']!r} is a reserved word, not a node id: {line}")
            (labelled if node["shape"] else used).add(node["id"])
    problems += [f"node {name!r} is used but never given a label (a typo of another id?)" for name in used - labelled]
    return problems


def _sequence_problems(lines: list[str]) -> list[str]:
    problems, declared, used, open_blocks = [], set(), set(), []
    for line in lines:
        keyword = line.split(" ")[0]
        if participant := PARTICIPANT.fullmatch(line):
            declared.add(participant["id"])
        elif message := MESSAGE.fullmatch(line):
            used.update((message["source"], message["target"]))
        elif note := NOTE.fullmatch(line):
            used.update(re.split(r"\s*,\s*", note["ids"]))
        elif line == "end":
            if not open_blocks:
                problems.append("'end' closes no block")
            else:
                open_blocks.pop()
        elif keyword in BLOCKS:
            inside = BLOCKS[keyword]
            if inside is None:
                open_blocks.append(keyword)
            elif not open_blocks or open_blocks[-1] != inside:
                problems.append(f"'{keyword}' outside an '{inside}' block: {line}")
        else:
            problems.append(f"not a participant, a message 'A->>B: text', a note or a block keyword: {line}")
    problems += [f"'{block}' block never closed with 'end'" for block in open_blocks]
    problems += [f"participant {name!r} is used but never declared" for name in sorted(used - declared)]
    problems += [f"participant {name!r} is declared but never used" for name in sorted(declared - used)]
    problems += [f"{name!r} is a reserved word, not a participant id" for name in sorted(declared & RESERVED)]
    return problems


def test_the_course_has_diagrams_to_check():
    chapters = {where.split(" ")[0] for where, _ in mermaid_blocks()}
    assert {"01_manual_tool_calling.ipynb", "02_native_tool_calling.ipynb", "04_dispatcher.ipynb",
            "08_agent_loop.ipynb"} <= chapters


@pytest.mark.parametrize(("where", "diagram"), mermaid_blocks(), ids=[where for where, _ in mermaid_blocks()])
def test_every_diagram_is_well_formed(where, diagram):
    assert diagram_problems(diagram) == []


GOOD_FLOWCHART = 'flowchart TD\n    a["start"] --> b{"yes or no?"}\n    b -->|yes| c(["done"])\n    b -->|no| a\n'
GOOD_SEQUENCE = ("sequenceDiagram\n    participant C as Our code\n    participant M as Model\n"
                 "    C->>M: a question\n    alt a call\n        M-->>C: a call\n    else an answer\n"
                 "        M-->>C: the answer\n    end\n    Note over C,M: done\n")


def test_the_checker_accepts_the_subset_the_course_uses():
    assert diagram_problems(GOOD_FLOWCHART) == []
    assert diagram_problems(GOOD_SEQUENCE) == []
    assert diagram_problems("flowchart LR\n    %% a comment\n    x[\"one\"] --> y[\"two\"] --> x\n") == []
    assert diagram_problems("flowchart LR\n    x[\"one\"] -.->|then| y[\"two\"] -.-> x\n") == []


@pytest.mark.parametrize(("diagram", "problem"), [
    ("", "empty"),
    ("graph XY\n    a --> b", "unknown diagram type"),
    ('flowchart TD\n    a["open quote] --> b["two"]', "unbalanced quotes"),
    ('flowchart TD\n    a["one"] --> b{"two"', "not a node or a chain"),
    ('flowchart TD\n    a[unquoted label] --> b["two"]', "not a node or a chain"),  # the course's rule
    ('flowchart TD\n    a["one"]-->b["two"]', "not a node or a chain"),  # the course's rule
    ('flowchart TD\n    a["one"] -->|label b["two"]', "not a node or a chain"),
    ('flowchart TD\n    a["one"] -.- b["two"]', "not a node or a chain"),  # a link with no arrow: not in the subset
    ('flowchart TD\n    a["one"] --> end["two"]', "reserved word"),
    ('flowchart TD\n    a["one"] --> b["two"]\n    b --> c', "never given a label"),  # the course's rule
    ("sequenceDiagram\n    participant A\n    A->>B: hi", "'B' is used but never declared"),  # the course's rule
    ("sequenceDiagram\n    participant A\n    participant B\n    A->>A: hi", "'B' is declared but never used"),  # ditto
    ("sequenceDiagram\n    participant A\n    A->>A hi", "not a participant, a message"),
    ("sequenceDiagram\n    participant A\n    alt x\n    A->>A: hi", "never closed"),
    ("sequenceDiagram\n    participant A\n    A->>A: hi\n    end", "closes no block"),
    ("sequenceDiagram\n    participant A\n    else x\n    A->>A: hi", "outside an 'alt' block"),
    ("sequenceDiagram\n    participant A\n    A->>A: one; two", "not a participant, a message"),
    ("sequenceDiagram\n    participant end\n    end->>end: hi", "reserved word"),
])
def test_the_checker_refuses_a_malformed_diagram(diagram, problem):
    found = diagram_problems(diagram)
    assert any(problem in line for line in found), found
