"""Two toy tools the policy and loop tests share: `erase` needs a person's yes, `note` does not; both record what
they did in the list given, so a test can tell what really ran."""

from agentkit.tools.contract import ToolDefinition
from agentkit.tools.schema import tool


def recording_tools(log: list[str]) -> tuple[ToolDefinition, ToolDefinition]:
    """`erase` (appends "erased <path>" to `log`) and `note` (appends its text)."""

    @tool(needs_confirmation=True)
    def erase(path: str) -> str:
        """Erase a file.

        Args:
            path: File to erase.
        """
        log.append(f"erased {path}")
        return f"erased {path}"

    @tool
    def note(text: str) -> str:
        """Write a note.

        Args:
            text: What to write.
        """
        log.append(text)
        return f"noted {text}"

    return erase, note
