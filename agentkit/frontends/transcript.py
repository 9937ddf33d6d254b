"""Histories as transcripts (chapters 02 and 08): a conversation shown the way a person reads it, not as dicts.

`transcript(messages)` returns an object that Jupyter displays as Markdown (and prints as plain text): each
message under its role, each tool call with its name and arguments, and under each call the result that
answers it, found by `tool_call_id` wherever it stands in the history. A result is marked when it is an
`Error:`, when the policy refused the call or a person denied it (pass the task's `decisions`), and when it is
missing. A `Task` displays the same way.

Everything shown comes from a model or a tool, so it is untrusted: it goes only into code spans and fenced
code blocks, where neither Markdown nor HTML is interpreted, each fence longer than any run of backticks in
the text. Escaping it with backslashes would work too, but would hide clock times from nbval's sanitizer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agentkit.hardening.visible import readable
from agentkit.limits import counted

SHOWN_CHARS = 600
"""Most characters of one message or result a transcript shows; the rest is cut, and the cut is counted."""

_MARKS = {"refused": "refused by the policy", "denied": "denied by the person", "cancelled": "cancelled by the person",
          "confirmed": "confirmed by the person"}
"""How a decision of the policy's log (`Decision.outcome`) marks its call; "allowed" needs no mark."""

_ROLES = ("system", "developer", "user", "assistant")


@dataclass(frozen=True)
class Entry:
    """One line of a transcript: our own label, then the model's or a tool's text, shown as data."""

    label: str
    """Our words (a role, "call 1", "result 1 · error"): the only text that is never untrusted."""
    inline: str = ""
    """Untrusted text for the same line (a tool's name and arguments), shown as code."""
    block: str | None = None
    """Untrusted text shown below the line (a message, a result), already cut to size."""
    cut: int = 0
    """Characters of `block` left out."""


@dataclass(frozen=True)
class Transcript:
    """A conversation that displays as a readable transcript in Jupyter (`_repr_markdown_`) and as text (`str`)."""

    messages: Sequence[Mapping[str, Any]]
    """The conversation as sent to the model (dicts, or the SDK's message objects)."""
    decisions: Sequence[Any] = ()
    """The policy's log (`Task.decisions`): marks the calls it refused and those a person denied or confirmed."""
    heading: str = ""
    """A line of our own above the conversation (a task's status); empty for none."""
    max_chars: int = SHOWN_CHARS
    """Most characters shown of one message or result."""
    show_ids: bool = False
    """Show each call's id (stable only when the model's ids are: the offline model's change with the clock)."""
    entries: list[Entry] = field(init=False, repr=False)
    """What is shown, in order, built once from the fields above."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "entries", _entries(self))

    def _repr_markdown_(self) -> str:
        return "\n\n".join(_markdown(entry) for entry in self.entries)

    def __str__(self) -> str:
        return "\n".join(_plain(entry) for entry in self.entries)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # IPython's text/plain, instead of the dataclass repr
        printer.text(str(self))


def transcript(messages: Sequence[Any], decisions: Sequence[Any] = (), *, max_chars: int = SHOWN_CHARS,
               show_ids: bool = False) -> Transcript:
    """A list of messages as a transcript: display it in a notebook (last line of a cell), or print it."""
    return Transcript(list(messages), list(decisions), max_chars=max_chars, show_ids=show_ids)


def task_transcript(task: Any, max_chars: int = SHOWN_CHARS) -> Transcript:
    """A `Task` as a transcript: its status and counts on top, its policy's decisions marking its calls."""
    heading = f"task {task.status} · {counted(task.turns, 'turn')} · {counted(task.tool_calls, 'tool call')}"
    return Transcript(task.messages, task.decisions, heading=heading, max_chars=max_chars)


def _entries(shown: Transcript) -> list[Entry]:
    messages = [_as_dict(message) for message in shown.messages]
    results = {m.get("tool_call_id"): m for m in messages if m.get("role") == "tool"}
    paired: set[int] = set()  # the tool messages already shown under their call
    marks = _marks(shown.decisions)
    entries = [Entry(shown.heading)] if shown.heading else []
    number = 0
    for message in messages:
        role, text = message.get("role"), _text(message.get("content"))
        if role == "tool":
            if id(message) not in paired:  # no call of the history has this id: say so, show it anyway
                entries.append(_block("tool result for no call", text, shown.max_chars,
                                      f"tool_call_id {message.get('tool_call_id')!r}"))
            continue
        calls = message.get("tool_calls") or []
        # A role outside the protocol's is shown as data, like any text we did not write.
        label, inline = (role, "") if role in _ROLES else ("message", f"role {role!r}")
        entries.append(_block(label, text, shown.max_chars, inline) if text or not calls else Entry(label, inline))
        for call in calls:
            number += 1
            function, call_id = call.get("function") or {}, call.get("id")
            call_text = f"{function.get('name', '?')} {readable(str(function.get('arguments') or ''))}".strip()
            entries.append(Entry(f"call {number}", call_text + (f" [{call_id}]" if shown.show_ids else "")))
            result = results.get(call_id)
            if result is None:
                entries.append(Entry(f"result {number} · missing: no role=\"tool\" message answers this call, "
                                     "and the API refuses a history with an unanswered call"))
                continue
            paired.add(id(result))
            content = _text(result.get("content"))
            # A tool message is the API's role, id and content, no more: `Error:` is the one sign of a failure it keeps
            # (`ToolResult.failure` writes every failed call so; the event's `is_error` never reaches the history).
            label = " · ".join([f"result {number}"] + (["error"] if content.startswith("Error:") else [])
                               + marks.get(call_id, []))
            entries.append(_block(label, content, shown.max_chars))
    return entries


def _marks(decisions: Sequence[Any]) -> dict[str, list[str]]:
    """Each call's marks from the policy's log, by call id (a confirmed call is also logged as allowed)."""
    marks: dict[str, list[str]] = {}
    for decision in decisions:
        mark = _MARKS.get(decision.outcome)
        if mark:
            rule = f" (rule '{decision.rule}')" if decision.outcome == "refused" else ""
            marks.setdefault(decision.call_id, []).append(mark + rule)
    return marks


def _as_dict(message: Any) -> Mapping[str, Any]:
    """A message as a mapping: the SDK's message objects (pydantic models) are dumped as they would be sent."""
    return message.model_dump(exclude_none=True) if hasattr(message, "model_dump") else message


def _text(content: Any) -> str:
    """A message's content as text: content parts (a list) are joined, and what is not text is named."""
    if content is None:
        return ""
    if isinstance(content, list):
        return "\n".join(part.get("text", f"[{part.get('type', 'part')}]") if isinstance(part, Mapping)
                         else str(part) for part in content)
    return str(content)


def _block(label: str, text: str, max_chars: int, inline: str = "") -> Entry:
    shown = text[:max_chars]
    return Entry(label, inline, shown, cut=len(text) - len(shown))


def _cut_note(entry: Entry) -> str:
    return f"({entry.cut:,} more character{'s' * (entry.cut != 1)} not shown)" if entry.cut else ""


def _markdown(entry: Entry) -> str:
    parts = [f"**{entry.label}**" + (f" {_code_span(entry.inline)}" if entry.inline else "")]
    if entry.block is not None:
        parts.append(_fenced(entry.block))
    if entry.cut:
        parts.append(f"*{_cut_note(entry)}*")
    return "\n\n".join(parts)


def _plain(entry: Entry) -> str:
    nested = entry.label.startswith(("call ", "result "))  # a call and its result sit under the assistant's turn
    line = ("  " if nested else "") + (f"{entry.label}: {entry.inline}" if entry.inline else entry.label)
    indent = "    " if nested else "  "
    body = [(indent + text).rstrip() for text in (entry.block or "").splitlines()] if entry.block is not None else []
    return "\n".join([line, *body] + ([indent + _cut_note(entry)] if entry.cut else []))


def _longest_backtick_run(text: str) -> int:
    return max((len(run) for run in re.findall("`+", text)), default=0)


def _fenced(text: str) -> str:
    """A fenced code block that no line of `text` can close: its fence is longer than any backtick run inside."""
    fence = "`" * max(3, _longest_backtick_run(text) + 1)
    return f"{fence}text\n{text}\n{fence}"


def _code_span(text: str) -> str:
    """Inline code holding `text` verbatim; on one line, since a blank line would end the span early."""
    one_line = " ".join(text.splitlines())
    ticks = "`" * (_longest_backtick_run(one_line) + 1)
    return f"{ticks} {one_line} {ticks}"  # a space inside each end is dropped by Markdown, so a ` at an end is safe
