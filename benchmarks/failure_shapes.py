"""How the offline model fails on a set of cases, in counts only: a set kept unread stays unread.

Run: python benchmarks/failure_shapes.py DIR [--today YYYY-MM-DD]

DIR holds a `cases.jsonl` and a `functions.json` in the evaluation set's format (an outside question set written for
the team and never read). `--today` fixes the clock the set was written for ("tomorrow" in its expected dates).
Nothing of a question or a value is printed: the fully right count by class, each failure's kind by class, and, for a
free-text value that came out wrong, how it relates to the accepted ones (longer, shorter, another span of the
question, not written in it), with the missing or extra part's shape (a word count, a digit, a stop word). A shape that
recurs names a class of misreading to write cases for in your own words; the team found "a house number lost from a
street address" this way.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import collections
import datetime as real
import re
import types

from agentkit import connect
from agentkit.evaluation.dataset import load_functions
from agentkit.evaluation.runner import evaluate
from agentkit.offline import dates
from agentkit.offline.phrases import text_kind
from agentkit.offline.reading import STOP_WORDS
from agentkit.offline.roles import role_of

BAD = re.compile(r"^(\w+): bad value for '(\w+)': got (.*), expected (\[.*\])$")
KINDS = {"no call": "no call", "extra call": "extra call", "missing call": "missing call", "bad value": "bad value",
         "missing argument": "missing argument", "wrong tool": "wrong tool", "although no": "called although none fits"}


def fix_clock(today: str) -> None:
    """`dates` reads today from its `dt` module: give it one whose today is `today` (09:30)."""
    year, month, day = map(int, today.split("-"))
    date_class = type("Date", (real.date,), {"today": classmethod(lambda cls: cls(year, month, day))})
    datetime_class = type("DateTime", (real.datetime,), {
        "now": classmethod(lambda cls, tz=None: cls(year, month, day, 9, 30, tzinfo=tz))})
    dates.dt = types.SimpleNamespace(**{k: getattr(real, k) for k in dir(real) if not k.startswith("__")})
    dates.dt.date, dates.dt.datetime = date_class, datetime_class


def part_shape(part: str, chinese: bool) -> str:
    """A missing or extra part of a value, described without its words."""
    if not part.strip():
        return "-"
    if chinese:
        return f"{len(part.strip())} characters" + (", a number" if re.search(r"\d|[一二两三四五六七八九十]", part) else "")
    words = part.split()
    first = words[0].strip(",.")
    first = "a stop word" if first.lower() in STOP_WORDS else "a number" if first[:1].isdigit() else "a word"
    return f"{min(len(words), 4)} word(s), first {first}" + (", a comma" if "," in part else "")


def value_shape(got: str, accepted: list[str], question: str) -> str:
    """How a wrong free-text value relates to the accepted ones."""
    chinese = bool(re.search(r"[\u4e00-\u9fff]", accepted[0]))
    low, wanted = got.lower().strip(), [w.lower().strip() for w in accepted]
    if inside := [w for w in wanted if w in low]:
        at, value = low.index(max(inside, key=len)), max(inside, key=len)
        return f"longer: extra before {part_shape(low[:at], chinese)} | after {part_shape(low[at + len(value):], chinese)}"
    if around := [w for w in wanted if low and low in w]:
        value = min(around, key=len)
        at = value.index(low)
        return f"shorter: missing before {part_shape(value[:at], chinese)} | after {part_shape(value[at + len(low):], chinese)}"
    if low and low in question.lower():
        return "another span of the question"
    return "not written in the question" + (" (an accepted value is)" if any(w in question.lower() for w in wanted) else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--today", help="YYYY-MM-DD: the clock the set was written for")
    args = parser.parse_args()
    if args.today:
        fix_clock(args.today)
    outcomes = asyncio.run(evaluate(connect(offline=True), "offline", cases=args.dir, functions=args.dir))
    right, total, failures, shapes = (collections.Counter() for _ in range(4))
    tools = load_functions(args.dir)
    for outcome in outcomes:
        kind = outcome.case.kind or outcome.case.category  # a case without a class: its category
        total[kind] += 1
        right[kind] += bool(outcome.verdict.right)
        for reason in outcome.verdict.reasons:
            failures[(kind, next((name for cue, name in KINDS.items() if cue in reason), "other"))] += 1
            if (bad := BAD.match(reason)) and isinstance(got := ast.literal_eval(bad[3]), str):
                accepted = [w for w in ast.literal_eval(bad[4]) if isinstance(w, str)]
                schema = (tools.get(bad[1]) or {}).get("function", {}).get("parameters") or {}
                spec = schema.get("properties", {}).get(bad[2], {})
                slot = text_kind(bad[2]) or role_of(bad[2], spec)[0] or "free"
                if accepted:  # and the question's language: a shape can be of one language's writing
                    language = "zh" if re.search(r"[\u4e00-\u9fff]", outcome.case.question) else "en"
                    shapes[(f"{slot} ({language})", value_shape(got, accepted, outcome.case.question))] += 1
    print(f"fully right {sum(right.values())}/{len(outcomes)}: " + ", ".join(f"{k} {right[k]}/{total[k]}" for k in sorted(total)))
    print("failures by class and kind:")
    for (kind, failure), count in sorted(failures.items()):
        print(f"  {count:3d}  {kind}: {failure}")
    print("wrong free-text values (slot kind: shape):")
    for (slot, shape), count in shapes.most_common():
        print(f"  {count:3d}  {slot}: {shape}")


if __name__ == "__main__":
    main()
