"""The errors every layer raises or catches, at the bottom: this module imports nothing of agentkit's, so the
defences (hardening/), the tools and the loop can all import it without importing one another."""


class ToolError(Exception):
    """A mistake the model can fix (a missing file, a bad value): the dispatcher sends its message back as `Error: ...`.

    Any other exception from a handler is a bug in our code, and the dispatcher treats it as one."""


class WorkspaceError(ToolError):
    """A path the model proposed is outside the workspace or is not a usable path."""


class TaskCancelled(BaseException):
    """The person answered `/cancel` or `/exit` (it carries an `agentkit.asking.Cancelled` that says so, or an
    `Ask`'s own words): the task stops as cancelled, not failed. A `BaseException`, as
    `asyncio.CancelledError` is, so that no `except Exception` on its way (the dispatcher's, a tool's) swallows it."""
