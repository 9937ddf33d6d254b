"""`agentkit eval`: score a model on the course's evaluation set, or on your own (`--cases`, `--functions`).

Its arguments live here, with the evaluation, as `agentkit serve`'s live with the offline model.
"""

from __future__ import annotations

import argparse
import sys

from agentkit.evaluation.dataset import CATEGORIES


def add_eval_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `agentkit eval`: which cases (the course's or yours), which of them, and what to print."""
    parser.add_argument("--split", choices=("train", "heldout", "all"), default="all")
    parser.add_argument("--category", default=None, choices=CATEGORIES, help="only this category's cases")
    parser.add_argument("--show-failures", action="store_true", help="list every wrong case and why it is wrong")
    parser.add_argument("--cases", default=None, metavar="PATH",
                        help="your own cases: a cases.jsonl, or a folder with one (default: the course's set)")
    parser.add_argument("--functions", default=None, metavar="PATH",
                        help="the tool schemas your cases offer: a functions.json, or a folder with one")
    parser.add_argument("--tools", default=None, metavar="MODULE:FUNCTION",
                        help="or your agent's tools, as chat takes them (agentkit new's README names yours): their "
                             "schemas are offered, and a case without \"tools\" is offered them all")
    parser.add_argument("--system-prompt", default=None, metavar="FILE", help="send this file's text before each question")


def run_eval(args: argparse.Namespace) -> None:
    """Score the model `.env` names (offline without a key), print the table and the cost; a broken file stops it."""
    import asyncio

    from agentkit.config import ConfigError, connect, load_settings
    from agentkit.evaluation import class_table, cost, evaluate, failures, table
    from agentkit.evaluation.dataset import DATA
    from agentkit.frontends.commands import refuse_error
    from agentkit.frontends.own_agent import read_system_prompt

    try:
        settings = load_settings()
    except ConfigError as error:  # a wrong .env: one line and status 2, as every command that cannot start
        refuse_error("eval", error)
    try:
        if args.tools and args.functions:
            raise ValueError("give --tools or --functions, not both: both say which tools the cases offer")
        prompt = read_system_prompt(args.system_prompt) if args.system_prompt else None
        functions = _schemas(args.tools) if args.tools else args.functions or DATA
        outcomes = asyncio.run(evaluate(connect(settings), settings.model, split=args.split, category=args.category,
                                        system_prompt=prompt, cases=args.cases or DATA, functions=functions))
    except (OSError, ValueError) as error:  # your own file: missing, not JSON, or cases that do not fit their schemas
        sys.exit(f"agentkit eval: {error}")
    by_class = class_table(outcomes)
    print(f"model: {'the offline model' if settings.offline else settings.model}\n\n{table(outcomes)}\n\n"
          + (f"{by_class}\n\n" if by_class else "") + cost(outcomes))
    if args.show_failures:
        print(f"\n{failures(outcomes)}")


def _schemas(spec: str) -> dict:
    """The tool objects of `--tools module:function`, by name: made in a throwaway workspace, since no tool runs."""
    import tempfile

    from agentkit.frontends.own_agent import load_tools
    from agentkit.tools import Workspace, openai_tools

    with tempfile.TemporaryDirectory(prefix="agentkit-eval-") as folder:
        registry = load_tools(spec)(Workspace(folder))
    return {schema["function"]["name"]: schema for schema in openai_tools(registry)}
