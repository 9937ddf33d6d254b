"""Send each case to a model through any `AsyncOpenAI` client, and score what it called."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import openai

from agentkit.evaluation.dataset import DATA, Case, Category, SplitOrAll, case_problems, load_cases, load_functions
from agentkit.evaluation.scorer import ModelCall, Verdict, score


@dataclass(frozen=True)
class Outcome:
    case: Case
    """The case that was asked."""
    verdict: Verdict
    """Right or wrong, and why."""
    calls: tuple[ModelCall, ...]
    """The calls the model made (name, arguments as sent)."""
    text: str | None
    """The model's text, if it answered in words."""
    prompt_tokens: int = 0
    """Tokens the request cost, as the provider's `usage` reports them (0 when it reports none)."""
    completion_tokens: int = 0
    """Tokens the reply cost."""


def messages_for(case: Case, system_prompt: str | None = None) -> list[dict[str, Any]]:
    """The conversation sent for one case: an optional system prompt, the conversation so far, then the question."""
    system = [{"role": "system", "content": system_prompt}] if system_prompt else []
    return [*system, *case.history, {"role": "user", "content": case.question}]


async def run_case(client: openai.AsyncOpenAI, model: str, case: Case, functions: Mapping[str, Mapping[str, Any]],
                   system_prompt: str | None = None) -> Outcome:
    """Ask one case's question with its tools, once, and score the reply's tool calls."""
    try:
        response = await client.chat.completions.create(
            model=model, messages=messages_for(case, system_prompt), tools=[functions[name] for name in case.tools])
    except openai.APIError as error:  # one refused request is a wrong answer, not the end of a long run
        failed = Verdict(False, False, (f"the request failed: {type(error).__name__}: {error}",))
        return Outcome(case, failed, (), None)
    message = response.choices[0].message
    calls = tuple((call.function.name, call.function.arguments) for call in message.tool_calls or ())
    usage = response.usage
    return Outcome(case, score(case, calls, functions, message.content), calls, message.content,
                   usage.prompt_tokens if usage else 0, usage.completion_tokens if usage else 0)


async def run_cases(client: openai.AsyncOpenAI, model: str, cases: Sequence[Case],
                    functions: Mapping[str, Mapping[str, Any]] | None = None, *,
                    system_prompt: str | None = None, concurrency: int = 4) -> list[Outcome]:
    """Run every case, at most `concurrency` at a time (a provider's rate limit is the usual bound); in case order."""
    functions = functions if functions is not None else load_functions()
    gate = asyncio.Semaphore(concurrency)

    async def bounded(case: Case) -> Outcome:
        async with gate:
            return await run_case(client, model, case, functions, system_prompt)

    return list(await asyncio.gather(*(bounded(case) for case in cases)))


async def evaluate(client: openai.AsyncOpenAI, model: str, *, split: SplitOrAll = "all", category: Category | None = None,
                   system_prompt: str | None = None, concurrency: int = 4,
                   cases: Path | str = DATA, functions: Path | str | Mapping[str, Any] = DATA) -> list[Outcome]:
    """Run an evaluation set (one split, optionally one category) against `client`: the course's, or your own.

    `cases` is a `cases.jsonl` (or a folder with one), `functions` the `functions.json` its cases offer (or those
    tool objects by name); a case that names no tools is offered them all. Each case is checked against the
    schemas first, and a ValueError lists what is wrong, since a broken case scores nothing.
    """
    schemas = dict(functions) if isinstance(functions, Mapping) else load_functions(functions)
    chosen = [case if case.tools else replace(case, tools=tuple(schemas))
              for case in load_cases(cases, split=split, category=category)]
    problems = [f"{case.id}: {problem}" for case in chosen for problem in case_problems(case, schemas)]
    if problems:
        raise ValueError(f"{len(problems)} problem(s) in the cases, fix them first:\n  " + "\n  ".join(problems[:10]))
    return await run_cases(client, model, chosen, schemas, system_prompt=system_prompt, concurrency=concurrency)
