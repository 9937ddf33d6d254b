"""What each `agentkit` command does once its arguments are read: refuse early, start, and end cleanly.

A command that cannot work says so before it creates anything or prints a token: one line naming the
problem and the flag or command that fixes it, exit status 2 (`refuse`). How a command ends on Ctrl-C or
SIGTERM is `agentkit.frontends.interrupts.ended_by_signals`, around all of them (`agentkit.frontends.cli.main`).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from collections.abc import Callable

    from agentkit.config import Settings
    from agentkit.frontends.own_agent import Tools
    from agentkit.policy import ToolPolicy
    from agentkit.tools.workspace import Workspace


def refuse(command: str, problem: str) -> NoReturn:
    """Stop before anything is created or started: one line naming the problem and what fixes it, exit status 2."""
    print(f"agentkit {command}: {problem}", file=sys.stderr)
    raise SystemExit(2)


def refuse_error(command: str, error: Exception) -> NoReturn:
    """`refuse` with an error's message, in the person's language where it carries a key we have words for."""
    from agentkit.frontends.messages import PERSON_LANGUAGE, error_for_the_person

    refuse(command, error_for_the_person(error, PERSON_LANGUAGE.get()))


def _workspace(command: str, path: str | None, language: str | None = None) -> Workspace:
    """The agent's workspace, created if missing, or a refusal that names --workspace (in the person's language)."""
    from agentkit.agent import open_workspace, workspace_root
    from agentkit.frontends.messages import PERSON_LANGUAGE, say

    try:
        return open_workspace(path)
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        refuse(command, say("workspace refused", language or PERSON_LANGUAGE.get(), root=workspace_root(path), reason=reason))


def _needs_extra(command: str, extra: str, missing: ModuleNotFoundError) -> NoReturn:
    refuse(command, f"needs {missing.name}, which comes with the {extra} extra: pip install -e '.[{extra}]'")


def serve(args: argparse.Namespace) -> None:
    from agentkit.offline.command import PortInUse, serve

    try:
        serve(args)
    except PortInUse as error:
        refuse("serve", str(error))


def new(args: argparse.Namespace) -> None:
    from agentkit.classroom.new_project import new_project

    try:
        written = new_project(args.name)
    except (OSError, ValueError) as error:
        refuse("new", str(error))
    print(f"created {args.name}/:")
    for path, purpose in written:
        print(f"  {path.name:22} {purpose}")
    print(f"next: cd {args.name}, then python -m pytest; README.md lists the commands that evaluate and serve it")


def _settings(command: str, restart_with: list[str] | None) -> Settings:
    """The model settings, or a refusal that says which is wrong; first, given arguments, restart with them and no
    secret in the environment."""
    from agentkit.config import ConfigError, load_settings
    from agentkit.frontends.reexec import inherited_settings, restarted_with_clean_environment

    settings = inherited_settings()
    if settings is None:
        try:
            settings = load_settings()  # here, so that a wrong setting is reported before anything else happens
        except ConfigError as error:
            refuse_error(command, error)
        if restart_with is not None:
            restarted_with_clean_environment(restart_with, settings)  # returns only where it is not possible
    return settings


def chat(args: argparse.Namespace, restart_with: list[str] | None) -> None:
    import asyncio

    from agentkit.config import connect
    from agentkit.frontends.chat import chat
    from agentkit.frontends.line_editing import history_path, start_line_editing, terminal_settings_kept
    from agentkit.frontends.terminal import Terminal, person_lines

    language = _language(args, restart_with)
    settings = _settings("chat", restart_with)
    workspace = _workspace("chat", args.workspace, language)
    # What a person types or a terminal shows may not be valid in its encoding: replaced, never an error.
    for stream in (sys.stdin, sys.stdout):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    terminal = Terminal(person_lines(), remember=start_line_editing(None if args.no_history else history_path()),
                        language=language, interactive=sys.stdin is not None and sys.stdin.isatty())
    tracer, stop_tracing = _console_tracer() if args.trace else (None, lambda: None)  # before the client's first request
    with terminal_settings_kept():
        tools = _own_tools(args)
        try:
            asyncio.run(chat(connect(settings), settings.model, workspace, terminal, system_prompt=args.system_prompt,
                             stream=True, tools=tools, tracer=tracer, **_own_policy(args, tools)))
        finally:
            stop_tracing()


def _console_tracer() -> tuple[Any, Callable[[], None]]:
    try:
        from agentkit.beyond.tracing import console_tracer
    except ModuleNotFoundError as missing:
        _needs_extra("chat --trace", "traces", missing)
    return console_tracer()


def mcp(args: argparse.Namespace) -> None:
    import asyncio

    try:
        from agentkit.frontends.mcp_stdio import serve_stdio
        from agentkit.mcp.server import course_server
    except ModuleNotFoundError as missing:
        _needs_extra("mcp", "mcp", missing)
    tools = _own_tools(args)
    try:
        server = course_server(_workspace("mcp", args.workspace), no_confirm=args.no_confirm, tools=tools,
                               **_own_policy(args, tools))
    except ValueError as error:
        refuse("mcp", str(error))
    asyncio.run(serve_stdio(server))


def web(args: argparse.Namespace, restart_with: list[str] | None) -> None:
    try:
        from agentkit.frontends.web.launch import listen, serve
    except ModuleNotFoundError as missing:
        _needs_extra("web", "web", missing)
    language = _language(args, restart_with)
    settings = _settings("web", restart_with)
    try:
        sock = listen(args.port)  # before the workspace and the token: a busy port leaves nothing behind
    except OSError as error:
        refuse("web", f"cannot listen on 127.0.0.1:{args.port} ({error.strerror or error}): another program "
                      "(another agentkit web?) uses it; pick a free port with --port N")
    tools = _own_tools(args)
    serve(sock, _workspace("web", args.workspace, language), settings, args.system_prompt, tools, language=language,
          **_own_policy(args, tools))


def _language(args: argparse.Namespace, restart_with: list[str] | None) -> str:
    """The person's language: `--lang`, else the locale's; passed on as `--lang` to the restart, whose clean
    environment keeps LANG and LC_* but not LANGUAGE."""
    import os

    from agentkit.frontends.messages import PERSON_LANGUAGE, person_language

    language = person_language(args.lang, os.environ)
    PERSON_LANGUAGE.set(language)  # for the line a signal ends the command with (`interrupts.ended_by_signals`)
    if restart_with is not None and args.lang is None:
        restart_with += ["--lang", language]
    return language


def _own_tools(args: argparse.Namespace) -> Tools | None:
    """`--tools module:function`, loaded and tried once on the workspace, so that a broken one stops here and says why."""
    if not args.tools:
        return None
    from agentkit.frontends.own_agent import load_tools

    try:
        tools = load_tools(args.tools)
        tools(_workspace(args.command, args.workspace))
    except (ValueError, TypeError) as error:
        refuse_error(args.command, error)
    return tools


def _own_policy(args: argparse.Namespace, tools: Tools | None) -> dict[str, ToolPolicy]:
    """`--policy module:NAME`, as `policy=` for the front end (none given: `{}`, the front end's own default).
    A policy that names a tool the agent lacks stops here and says which, not at the model's first call."""
    if not args.policy:
        return {}
    from agentkit.agent import agent_tools
    from agentkit.frontends.messages import PERSON_LANGUAGE, error_for_the_person
    from agentkit.frontends.own_agent import LoadError, load_policy
    from agentkit.policy import ToolExecutor

    try:
        policy = load_policy(args.policy)
        workspace = _workspace(args.command, args.workspace)
        if tools is None and args.command == "mcp":  # the course's tools as mcp serves them: no ask_user
            from agentkit.mcp.server import course_tools

            tools = course_tools
        ToolExecutor(tools(workspace) if tools else agent_tools(workspace, ask=None), policy)  # names read only
    except (ValueError, TypeError) as error:
        said = error_for_the_person(error, PERSON_LANGUAGE.get())  # a LoadError names the flag; the executor's does not
        refuse(args.command, said if isinstance(error, LoadError) else f"--policy {args.policy}: {said}")
    return {"policy": policy}
