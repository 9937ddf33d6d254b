"""Every limit the course enforces, with its name and default in one place, and what the model reads when one stops it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Limits:
    """Bounds on what one agent task may do; pass `Limits(name=value)` to raise one."""

    max_tool_calls_per_task: int = 25  # tool calls one task may make in total, across all turns
    max_tool_calls_per_turn: int = 8  # tool calls the model may ask for in a single reply
    max_turns: int = 12  # model replies one task may take before it stops as `limit reached`
    max_denials_per_task: int = 3  # noes in one task; then nobody is asked again and the task stops
    max_output_chars: int = 8_000  # characters of one tool result the model sees; the rest is cut, with a note
    max_read_chars: int = 20_000  # characters `read_file` returns from one call
    max_file_bytes: int = 10_000_000  # largest file `write_file` and `edit_file` will write or rewrite
    shell_timeout: float = 30.0  # seconds a shell command may run before its whole process group is killed
    max_glob_results: int = 200  # paths `glob` lists before it stops and says so
    max_command_bytes: int = 100_000  # UTF-8 bytes of one command; Linux refuses an argument of 128 KiB
    max_command_output_bytes: int = 50_000_000  # bytes a command may print (both streams) before it is stopped
    max_command_processes: int = 512  # processes a command may add (RLIMIT_NPROC): a fork bomb stops; not for root
    max_message_chars: int = 20_000  # characters of one web page message; longer: HTTP 413
    max_conversations: int = 50  # conversations the web app keeps; then the least recently used idle one goes


DEFAULT_LIMITS = Limits()


def counted(n: int, noun: str) -> str:
    """`1 tool call`, `3 tool calls`, `1,200 paths`: the number, and the noun in the plural unless it is one."""
    return f"{n:,} {noun}{'s' * (n != 1)}"


CallLimit = Literal["max_tool_calls_per_task", "max_tool_calls_per_turn", "max_denials_per_task"]
REFUSALS: dict[CallLimit, str] = {  # what the model reads when a limit refuses a call, and what to do instead
    "max_tool_calls_per_task": "this task has used all of its {calls} ({limit}); answer with what you have",
    "max_tool_calls_per_turn": "at most {calls} per reply are run or put to the user ({limit}); ask for this one "
                               "again in your next reply if you still need it",
    "max_denials_per_task": "the user denied {calls} in this task ({limit}), so they are not asked again and this "
                            "call did not run; ask the user what they want instead",
}


def limit_refusal(limit: CallLimit, value: int) -> str:
    """Which limit refused the call, and that trying again differently will not get past it."""
    raised = f"Limits.{limit}: only the user can raise it, in the task's ToolPolicy"
    return REFUSALS[limit].format(calls=counted(value, "tool call"), limit=raised)


StoppingLimit = Literal["max_turns", "max_tool_calls_per_task", "max_denials_per_task"]
STOPS: dict[StoppingLimit, str] = {  # why the task stopped, in the library's English
    "max_turns": "the task reached {value} model turns (Limits.max_turns) without an answer",
    "max_tool_calls_per_task": "the task used all of its {calls} (Limits.max_tool_calls_per_task)",
    "max_denials_per_task": "the person said no to {calls} (Limits.max_denials_per_task), so the task stopped asking; "
                            "say what you want instead, or allow more with {how}",
}


@dataclass(frozen=True)
class LimitReached:
    """Why a task stopped at a limit: the `Limits` field `limit`, whose `value` the task reached."""

    limit: StoppingLimit
    value: int

    @property
    def how_to_raise(self) -> str:
        return f"ToolPolicy(limits=Limits({self.limit}=...))"

    def __str__(self) -> str:
        return STOPS[self.limit].format(value=self.value, calls=counted(self.value, "tool call"), how=self.how_to_raise)
