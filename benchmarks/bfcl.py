"""The offline model on BFCL, the Berkeley Function Calling Leaderboard, scored by BFCL's own AST checker.

Run: python benchmarks/bfcl.py [CATEGORY ...] [--split even|odd] [--failures FILE] [--wheel DIR]

CATEGORY: simple_python, multiple, parallel, parallel_multiple, irrelevance (the default: all five), live_simple,
live_multiple, live_parallel, live_irrelevance. Each line printed is a category's fully right share; a failure's
question, calls and BFCL's error go to FILE as JSON lines.

BFCL's questions, answers and checker come in the `bfcl-eval` wheel, which is not one of our dependencies (it
installs every provider's SDK): the script fetches the wheel alone (`pip download bfcl-eval --no-deps`, a package
registry is all it needs) into ~/.cache/agentkit/bfcl, or uses the unpacked wheel in --wheel DIR, and imports only its
checker. The checker reads one field of BFCL's model table, whose module imports every SDK: the script puts a table
with that one entry in its place (`underscore_to_dot`: a tool name sent to an OpenAI-style API has no dots).

Each question goes to the offline model as BFCL's OpenAI handler sends it: the question's messages, no system prompt,
the functions as tools (dots in names as "_", BFCL's types as JSON Schema's). Irrelevance is right when no tool is
called. `--split even` keeps the questions whose number is even (read their failures while fixing a class),
`--split odd` the others (kept unread: a blind score).
"""

from __future__ import annotations

import asyncio
import copy
import json
import subprocess
import sys
import types
import zipfile
from pathlib import Path

import agentkit

CACHE = Path.home() / ".cache" / "agentkit" / "bfcl"
CATEGORIES = ["simple_python", "multiple", "parallel", "parallel_multiple", "irrelevance", "live_simple",
              "live_multiple", "live_parallel", "live_irrelevance"]
TYPES = {"integer": "integer", "number": "number", "float": "number", "string": "string", "boolean": "boolean",
         "bool": "boolean", "array": "array", "list": "array", "tuple": "array", "dict": "object", "object": "object"}
"""BFCL's parameter types as JSON Schema's (bfcl_eval's GORILLA_TO_OPENAPI, the Python ones); any other is a string."""


def unpacked_wheel(where: Path | None) -> Path:
    """The folder holding `bfcl_eval/`: `where`, or the wheel fetched once into the cache and unpacked there."""
    if where:
        return where
    if not (CACHE / "bfcl_eval").is_dir():
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "bfcl-eval", "--no-deps", "-q", "-d", str(CACHE)],
                       check=True)
        with zipfile.ZipFile(next(CACHE.glob("bfcl_eval-*.whl"))) as wheel:
            wheel.extractall(CACHE)
    return CACHE


def bfcl_checker(wheel: Path):
    """BFCL's `ast_checker` and its `Language`, imported with a one-entry model table (see the module's docstring)."""
    sys.path.insert(0, str(wheel))
    table = types.ModuleType("bfcl_eval.constants.model_config")
    table.MODEL_CONFIG_MAPPING = {"offline": types.SimpleNamespace(underscore_to_dot=True)}
    sys.modules["bfcl_eval.constants.model_config"] = table
    from bfcl_eval.constants.enums import Language
    from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker
    return ast_checker, Language.PYTHON


def as_schema(properties: dict) -> dict:
    """BFCL's parameters as JSON Schema, as its OpenAI handler converts them (a float says so in its description)."""
    for spec in properties.values():
        kind = spec.get("type", "string")
        if kind == "float":
            spec["format"], spec["description"] = "float", spec.get("description", "") + " This is a float type value."
        spec["type"] = TYPES.get(kind, "string")
        if "properties" in spec:
            spec["properties"] = as_schema(spec["properties"])
        elif spec["type"] == "array" and "items" in spec:
            items = spec["items"]
            items["type"] = TYPES.get(items.get("type", "string"), "string")
            if "properties" in items:
                items["properties"] = as_schema(items["properties"])
            elif "items" in items:
                items["items"]["type"] = TYPES.get(items["items"].get("type", "string"), "string")
    return properties


def as_tools(functions: list[dict]) -> list[dict]:
    """BFCL's functions as the `tools=` of a chat completion."""
    tools = []
    for function in copy.deepcopy(functions):
        function["name"] = function["name"].replace(".", "_")
        function["parameters"] = {**function["parameters"], "type": "object",
                                  "properties": as_schema(function["parameters"].get("properties", {}))}
        tools.append({"type": "function", "function": function})
    return tools


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


async def score(category: str, data: Path, split: str | None, check, language, failures: list[dict]) -> tuple[int, int]:
    """How many of a category's questions the offline model gets fully right, of how many."""
    questions = lines(data / f"BFCL_v4_{category}.json")
    if split:
        questions = [q for q in questions if int(q["id"].rsplit("_", 1)[1]) % 2 == (split == "odd")]
    answers = {} if "irrelevance" in category else {
        a["id"]: a["ground_truth"] for a in lines(data / "possible_answer" / f"BFCL_v4_{category}.json")}
    client, right = agentkit.connect(offline=True), 0
    for question in questions:
        response = await client.chat.completions.create(model="offline", messages=question["question"][0],
                                                        tools=as_tools(question["function"]))
        calls = [{c.function.name: json.loads(c.function.arguments)} for c in response.choices[0].message.tool_calls or []]
        if "irrelevance" in category:
            verdict = {"valid": not calls, "error": ["called a tool"]}
        elif not calls:
            verdict = {"valid": False, "error": ["no call"]}
        else:
            verdict = check(question["function"], calls, answers[question["id"]], language, category, "offline")
        right += verdict["valid"]
        if not verdict["valid"]:
            failures.append({"id": question["id"], "question": question["question"][0][-1]["content"], "calls": calls,
                             "expected": answers.get(question["id"]), "error": verdict.get("error")})
    return right, len(questions)


def option(name: str) -> str | None:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv[:-1] else None


async def main() -> None:
    wheel = unpacked_wheel(Path(option("--wheel")) if option("--wheel") else None)
    check, language = bfcl_checker(wheel)
    split, failures = option("--split"), []
    chosen = [a for a in sys.argv[1:] if a in CATEGORIES] or CATEGORIES[:5]
    print(f"BFCL v4 ({wheel}), the offline model{f', {split} ids' if split else ''}: fully right")
    for category in chosen:
        right, total = await score(category, wheel / "bfcl_eval" / "data", split, check, language, failures)
        print(f"  {category:18} {right:4}/{total:<4} {100 * right / total:5.1f}%")
    if path := option("--failures"):
        Path(path).write_text("".join(json.dumps(f, ensure_ascii=False) + "\n" for f in failures), encoding="utf-8")


if __name__ == "__main__":
    asyncio.run(main())
