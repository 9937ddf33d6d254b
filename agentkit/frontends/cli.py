"""The `agentkit` command: chat with the agent, serve the offline model, refresh notebooks, and the course's other tools."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from agentkit.frontends.interrupts import ended_by_signals


def main(argv: Sequence[str] | None = None) -> None:
    given = sys.argv[1:] if argv is None else list(argv)
    named = f"agentkit {given[0]}" if given and not given[0].startswith("-") else "agentkit"
    # Ctrl-C or SIGTERM from here on, while the parser's modules load too: one line, status 128+n, no traceback.
    with ended_by_signals(named):
        _main(argv)


def _main(argv: Sequence[str] | None) -> None:
    from agentkit.frontends.eval_command import add_eval_arguments
    from agentkit.hardening.undumpable import make_undumpable
    from agentkit.offline.command import add_serve_arguments

    parser = argparse.ArgumentParser(prog="agentkit", description="Tool Use, from zero: the course's command line.")
    commands = parser.add_subparsers(dest="command", required=True)

    # Not named `serve`: that is the function that runs it (shadowing it crashed every `agentkit serve`).
    add_serve_arguments(commands.add_parser("serve", help="serve the offline model as an OpenAI-compatible HTTP "
                                                          "server on 127.0.0.1"))

    chat = commands.add_parser("chat", help="talk to the agent in this terminal (offline unless .env names a model)")
    chat.add_argument("--no-history", action="store_true",
                      help="keep no history of requests (default: kept in ~/.agentkit_history, for the arrow keys)")
    chat.add_argument("--trace", action="store_true", help="print each OpenTelemetry span to stderr as it ends: the "
                      "task, each model request, each tool call (chapter 15; needs the `traces` extra)")
    web = commands.add_parser("web", help="the agent's chat page on http://127.0.0.1: open the address it prints, "
                              "with a token new at each launch (needs the `web` extra)")
    web.add_argument("--port", type=int, default=8001,
                     help="port on 127.0.0.1 (default: 8001; 8000 is agentkit serve; 0: any free port)")
    for command in (chat, web):
        command.add_argument("--workspace", default=None, metavar="PATH",
                             help="the folder the agent's file and shell tools work in (default: ./workspace, created)")
        command.add_argument("--system-prompt", default=None, metavar="FILE",
                             help="the agent's system prompt from this text file, instead of the default; "
                                  "{workspace} in it becomes the workspace's path")
        command.add_argument("--show-system-prompt", action="store_true",
                             help="print the system prompt the agent would be given, and exit")
        command.add_argument("--lang", choices=("en", "zh"), default=None,
                             help="the language its own words to you are in (default: the locale's; LANG=zh_CN.UTF-8 "
                                  "gives zh); the model's words and tool names stay as they are")

    mcp = commands.add_parser("mcp", help="serve the clock, file and shell tools as an MCP server on stdin/stdout "
                                          "(needs the `mcp` extra)")
    mcp.add_argument("--workspace", default=None, metavar="PATH",
                     help="the folder the file and shell tools work in (default: ./workspace, created)")
    mcp.add_argument("--no-confirm", action="append", default=[], metavar="TOOL",
                     help="run this tool without asking the client's person first (repeat for several)")
    for command in (chat, web, mcp):
        command.add_argument("--tools", default=None, metavar="MODULE:FUNCTION",
                             help="your own agent's tools: a function (in a module or a file.py) that takes the "
                                  "workspace and returns your registry, instead of the course's tools")
        command.add_argument("--policy", default=None, metavar="MODULE:NAME",
                             help="your own agent's policy: a ToolPolicy (in a module or a file.py), e.g. the POLICY "
                                  "of agentkit new's module, instead of the course's (every tool offered, a tool "
                                  "flagged needs_confirmation asked first, the default limits)")

    new = commands.add_parser("new", help="start a project for your own agent in ./NAME: its tools, system prompt, "
                                          "policy, a test and evaluation cases, and a README with the commands")
    new.add_argument("name", help="the project's name, which is also its module's: letters, digits and underscores, "
                                  "e.g. reading_list")

    evaluation = commands.add_parser("eval", help="score the model's tool calls on the evaluation set "
                                                  "(offline unless .env names a model)")
    add_eval_arguments(evaluation)

    refresh = commands.add_parser("refresh", help="re-execute notebooks in place with stable metadata (offline)")
    refresh.add_argument("notebooks", nargs="+")

    classroom = commands.add_parser("classroom", help="the classroom: student edition, grading, nbgrader export")
    editions = classroom.add_subparsers(dest="edition", required=True)
    student = editions.add_parser("student", help="write a copy of the course with every exercise's solution taken out")
    student.add_argument("source", help="the notebooks folder, e.g. notebooks/")
    student.add_argument("target", help="where to write the student edition")
    grade = editions.add_parser("grade", help="run every student's notebooks (untrusted, confined) and grade each exercise")
    grade.add_argument("submissions", help="a folder with one folder per student (named by the student's id)")
    grade.add_argument("--out", default="grades.csv", help="the grades table to write (default: grades.csv)")
    grade.add_argument("--feedback", default=None, metavar="FOLDER",
                       help="where to write one <student>.md each (default: feedback/ beside --out)")
    grade.add_argument("--course", default="notebooks", help="the teacher's notebooks folder (default: notebooks)")
    grade.add_argument("--notebook", action="append", default=None, metavar="NAME",
                       help="grade only this notebook (repeatable; default: every notebook with exercises)")
    grade.add_argument("--timeout", type=float, default=120, help="seconds a notebook may run (default: 120)")
    grade.add_argument("--jobs", type=int, default=None, help="notebooks run at once (default: one a core)")
    export = editions.add_parser("nbgrader", help="write the course as nbgrader source notebooks (needs the classroom extra)")
    export.add_argument("out", help="the nbgrader source folder of one assignment, e.g. course/source/tool-use")
    export.add_argument("--course", default="notebooks", help="the teacher's notebooks folder (default: notebooks)")

    site = commands.add_parser("site", help="the course as a static web site, from the notebooks' stored outputs (site extra)")
    site.add_argument("out", help="the folder to write the site to (index.html at its top)")
    site.add_argument("--root", default=None, help="the course's folder, with notebooks/ and docs/ (default: this clone)")
    site.add_argument("--language", default=None, help="one edition only (default: every edition: en at OUT, zh at OUT/zh)")
    site.add_argument("--mermaid", default=None, metavar="FILE",
                      help="the mermaid.min.js to ship with the site (default: npm's mermaid package, fetched once with npm)")

    edition = commands.add_parser("edition", help="build notebooks/LANG/, the course in another language, from the English "
                                                 "notebooks and translations/LANG/ (names every cell left to translate)")
    edition.add_argument("language", nargs="?", default="zh", help="the edition (default: zh, Simplified Chinese)")
    edition.add_argument("--root", default=".", help="the course's folder, with notebooks/ and translations/ (default: .)")

    # Run as a program, chat and web restart themselves with a clean environment (see `agentkit.frontends.reexec`);
    # called from Python with arguments (a test, a notebook), main() never replaces the process that called it.
    restart_with = sys.argv[1:] if argv is None else None
    args = parser.parse_args(argv)
    if argv is None and args.command in ("chat", "web", "mcp"):  # the agent, run as a program: before any secret
        make_undumpable()
    if args.command in ("chat", "web"):
        args.system_prompt = _system_prompt(parser, args)
        if args.show_system_prompt:
            print(args.system_prompt)
            return
    _run(args, restart_with)


def _run(args: argparse.Namespace, restart_with: list[str] | None) -> None:
    from agentkit.frontends import commands

    if args.command == "serve":
        commands.serve(args)
    elif args.command == "chat":
        commands.chat(args, restart_with)
    elif args.command == "web":
        commands.web(args, restart_with)
    elif args.command == "mcp":
        commands.mcp(args)
    elif args.command == "new":
        commands.new(args)
    elif args.command == "eval":
        from agentkit.frontends.eval_command import run_eval

        run_eval(args)  # agentkit/frontends/eval_command.py: your own set with --cases/--functions, a table per class
    elif args.command == "refresh":
        from nbclient.exceptions import CellExecutionError

        from agentkit.classroom import refresh as refresh_notebook

        failed = []
        for path in args.notebooks:
            try:
                refresh_notebook(path)
            except CellExecutionError as error:  # the stored notebook is left as it was; the others still run
                failed.append(path)
                print(f"agentkit refresh: {path} left as it was: a cell raised {error.ename}: {error.evalue}",
                      file=sys.stderr)
            else:
                print(f"refreshed {path}")
        if failed:
            raise SystemExit(1)
    elif args.command == "classroom":
        from agentkit.classroom.command import run_classroom_command

        run_classroom_command(args)
    elif args.command == "edition":
        from agentkit.classroom.edition import EditionError, build_edition

        try:
            written = build_edition(args.root, args.language)
        except EditionError as error:
            sys.exit(f"agentkit edition: {error}")
        print(f"wrote {len(written)} notebooks to {written[0].parent}")
    elif args.command == "site":
        from agentkit.classroom.site import run_site_command

        run_site_command(args)


def _system_prompt(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str:
    """The agent's system prompt: --system-prompt FILE's text, or the default, for the workspace it will work in."""
    from agentkit.agent import SYSTEM_PROMPT, system_prompt, workspace_root
    from agentkit.frontends.messages import error_for_the_person, person_language
    from agentkit.frontends.own_agent import read_system_prompt

    try:
        template = read_system_prompt(args.system_prompt) if args.system_prompt else SYSTEM_PROMPT
    except ValueError as error:
        parser.error(error_for_the_person(error, person_language(args.lang, os.environ)))
    return system_prompt(workspace_root(args.workspace), template)


if __name__ == "__main__":
    main()
