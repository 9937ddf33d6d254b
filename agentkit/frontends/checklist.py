"""A plan in a tool's result, recognised by its shape and drawn as a checklist (chapter 14's plans, or anyone's).

A plan tool (chapter 14's `write_plan` and `mark_step`, or a tool of your own) restates its plan in each result, for
the model to read. A person reads it more easily as a checklist, so the chat and the web page draw one wherever a
result has a plan's shape, whatever the tool is called:

    Plan:                                  {"steps": [{"text": "Read notes.txt", "status": "done"},
    1. [done] Read notes.txt                          {"text": "Count the words", "done": false}]}
    2. [in_progress] Count the words       - [x] Read notes.txt
                                           - [ ] Count the words

that is, lines that are each a step with its status in brackets (or a ☐/☑ in front), after at most one heading
line; or JSON, a list of objects with a text and a status (or a done flag), alone or as an object's one list.
A result of another shape is shown as it is: nothing is guessed from a sentence.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, get_args

from agentkit.beyond.plans import StepStatus
from agentkit.frontends.messages import say
from agentkit.hardening.visible import visible

OTHER_SPELLINGS: dict[StepStatus, tuple[str, ...]] = {
    "done": ("completed", "complete", "finished", "x", "✓", "✔", "☑", "✅", "已完成", "完成"),
    "in_progress": ("in progress", "in-progress", "doing", "进行中"),
    "pending": ("todo", "to do", "not started", "", "☐", "待办", "未开始", "待完成"),
}
"""How other plan tools (a TodoWrite's, a `[x]` list, a Chinese one) write a status that chapter 14's plan tools
write as it is named (`beyond.plans.StepStatus`)."""
STATUSES: dict[str, StepStatus] = {word: status for status in get_args(StepStatus)
                                   for word in (status, *OTHER_SPELLINGS[status])}
"""A step's status as plan tools write it (lowercased), and what it means; a word not here makes no step. Words
that other lists use too ("open", "active": issues, jobs) are left out, so that such a list is not drawn as a plan."""
_MARKS = "".join(word for word in STATUSES if len(word) == 1 and not word.isalnum())
"""The statuses written as one mark in front of a step (☐, ☑, ✓ ...)."""

TEXT_KEYS = ("text", "content", "title", "step", "description", "task")
"""Where a JSON step keeps what to do, the first one present."""
STATUS_KEYS = ("status", "state")
DONE_KEYS = ("done", "completed", "complete", "checked")
"""Where a JSON step keeps its status: a word (`STATUSES`), or a flag that is true once it is done."""

_BRACKETED = re.compile(r"(?:[-*+]|\d+[.)])?\s*\[(?P<status>[^\]]{0,16})\]\s*(?:\d+[.)]\s*)?(?P<text>\S.*)")
_BOXED = re.compile(rf"(?:[-*+]\s*)?(?P<status>[{_MARKS}])\s*(?:\d+[.)]\s*)?(?P<text>\S.*)")
_HEADING = re.compile(r"#+ .*|[^\[\]]{1,60}[:：]")


@dataclass(frozen=True)
class Step:
    text: str  # what to do, as the tool wrote it
    status: StepStatus


def plan_in(content: str) -> list[Step] | None:
    """The steps of the plan `content` holds, in order; None when it has no plan's shape (see the module's doc)."""
    stripped = content.strip()
    if stripped[:1] in "[{":
        try:
            return _json_steps(json.loads(stripped))
        except ValueError:
            pass
    lines = [line.strip() for line in stripped.splitlines() if line.strip()]
    if lines and _HEADING.fullmatch(lines[0]) and not _step(lines[0]):
        lines = lines[1:]
    steps = [_step(line) for line in lines]
    return steps if steps and all(steps) else None  # type: ignore[return-value]  # all() ruled None out


def checklist(steps: list[Step], language: str = "en") -> list[str]:
    """The plan as the person reads it: a heading with how much is done, then a ☐ or ☑ line a step, numbered;
    a step's text made visible (`visible`), since a tool wrote it."""
    done = sum(step.status == "done" for step in steps)
    lines = [say("plan heading", language, done=done, total=len(steps))]
    for number, step in enumerate(steps, 1):
        going = say("plan in progress", language) if step.status == "in_progress" else ""
        lines.append(f"{'☑' if step.status == 'done' else '☐'} {number}. {visible(step.text, multiline=False)}{going}")
    return lines


def _step(line: str) -> Step | None:
    found = _BRACKETED.fullmatch(line) or _BOXED.fullmatch(line)
    status = STATUSES.get(found["status"].strip().lower()) if found else None
    return Step(found["text"].strip(), status) if found and status else None


def _json_steps(value: Any) -> list[Step] | None:
    if isinstance(value, dict):  # {"steps": [...]}, whatever the key: the object's one list of steps
        lists = [item for item in value.values() if isinstance(item, list)]
        return _json_steps(lists[0]) if len(lists) == 1 else None
    if not isinstance(value, list) or not value:
        return None
    steps = [_json_step(item) for item in value]
    return steps if all(steps) else None  # type: ignore[return-value]


def _json_step(item: Any) -> Step | None:
    if not isinstance(item, dict):
        return None
    text = next((item[key] for key in TEXT_KEYS if isinstance(item.get(key), str)), None)
    word = next((item[key] for key in STATUS_KEYS if isinstance(item.get(key), str)), None)
    flag = next((item[key] for key in DONE_KEYS if isinstance(item.get(key), bool)), None)
    status = STATUSES.get(word.strip().lower()) if word is not None else None if flag is None else \
        "done" if flag else "pending"
    return Step(text.strip(), status) if text and text.strip() and status else None
