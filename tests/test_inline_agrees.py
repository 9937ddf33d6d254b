"""Each chapter's inline, teaching-size code agrees with the `agentkit` version the later chapters import.

A chapter builds its idea at teaching size, then shows and uses the promoted version; a learner should not have
to read a cell that only asserts the two agree. These tests run each chapter's own code (tests/chapter_code.py)
and compare, so a change to either side that makes them disagree fails here.
"""

import pytest

from tests.chapter_code import chapter_names


@pytest.fixture(scope="module")
def ch01():
    return chapter_names(1)


def test_01_the_inline_prompt_lines_are_the_promoted_ones(ch01):
    import agentkit.manual as manual

    for function in (ch01["get_current_time"], ch01["interest_calc"]):
        assert ch01["describe"](function) == manual.describe_function(function)


def test_01_the_inline_parser_reads_a_line_as_the_promoted_one_does(ch01):
    import agentkit.manual as manual
    from agentkit.tools.clock import get_current_time

    functions = [get_current_time, ch01["interest_calc"]]
    for reply in ('FUNCTION: get_current_time("Asia/Tokyo")', "FUNCTION: interest_calc(500, 5, 10)", "Hello!"):
        promoted = manual.parse_reply(reply, functions)  # a ToolCall: arguments by name
        assert ch01["parse_function_line"](reply) == (promoted and (promoted.name, tuple(promoted.arguments.values()), {}))


def test_01_the_inline_clock_reads_the_promoted_clock(ch01):
    from agentkit.tools.clock import get_current_time
    from agentkit.tools.contract import ToolError

    for zone in ("UTC", "Europe/Paris", "Asia/Tokyo", "Pacific/Auckland"):
        assert ch01["get_current_time"](zone)[19:] == get_current_time(zone)[19:]  # "+13:00 (Pacific/Auckland)"
    # a well-formed name that is no zone: both say so alike (the promoted one also refuses odd shapes first)
    with pytest.raises(ToolError) as promoted:
        get_current_time("Mars/Olympus_Mons")
    assert ch01["outcome"](ch01["get_current_time"], "Mars/Olympus_Mons") == f"ValueError: {promoted.value}"


def test_02_the_schema_written_by_hand_is_the_promoted_clocks():
    from agentkit.tools.clock import clock_tool

    assert clock_tool().to_openai() == chapter_names(2)["clock_schema"]


@pytest.fixture(scope="module")
def ch03():
    return chapter_names(3)


def test_03_the_inline_tool_is_the_promoted_definition(ch03):
    from agentkit.tools.contract import ToolDefinition

    shout = ToolDefinition("shout", "Repeat a text in capitals.", ch03["SHOUT_SCHEMA"], ch03["shout"])
    assert shout.to_openai() == ch03["shout_tool"].to_openai()


def test_03_the_registry_is_a_dict_of_exactly_the_tools_listed():
    ch03 = chapter_names(3, until="import agentkit.tools.schema")  # the section's registry, before a later one
    assert ch03["registry"] == {tool.name: tool for tool in [ch03["clock"], ch03["shout_definition"]]}


def test_03_the_typed_clock_is_the_promoted_clock(ch03):
    assert ch03["get_current_time"].to_openai() == ch03["clock"].to_openai()


def test_03_the_inline_schema_agrees_with_tool_on_the_basic_types(ch03):
    inline = ch03["simple_schema"](ch03["convert_temperature"])
    promoted = ch03["tool"](ch03["convert_temperature"]).parameters
    assert ({name: value["type"] for name, value in inline["properties"].items()}
            == {name: value["type"] for name, value in promoted["properties"].items()})
    assert inline["required"] == promoted["required"]
    assert inline["additionalProperties"] == promoted["additionalProperties"]


def test_04_the_inline_dispatcher_fails_the_calls_the_promoted_one_fails():
    import logging

    from agentkit.calls import ToolCall
    from agentkit.tools.dispatcher import execute_tool

    ch04 = chapter_names(4)
    logging.getLogger("agentkit.tools").disabled = True
    try:
        for name, raw in ch04["CASES"]:
            small_content, small_error = ch04["run"](ch04["small_dispatch"](ch04["registry"], name, raw))
            result = ch04["run"](execute_tool(ch04["registry"], ToolCall.parse("", name, raw)))
            assert small_error == result.is_error, (name, raw)
            if not result.is_error or name not in ch04["registry"]:  # the good call and the unknown tool
                assert small_content == result.content, (name, raw)
    finally:
        logging.getLogger("agentkit.tools").disabled = False


def test_05_the_two_guards_differ_only_on_the_path_that_fools_the_teaching_one():
    ch05 = chapter_names(5, until="shutil.rmtree(scratch)")
    root, workspace, refused = ch05["root"], ch05["workspace"], ch05["WorkspaceError"]
    cases = [*ch05["ATTACKS"], "notes/todo.txt", "notes/../notes/todo.txt", "new/folder/file.txt", str(root / "notes")]
    differ = []
    for path in cases:
        if len(path) > 4096:
            continue  # the long path: the teaching guard lets it through, to fail in open()
        try:
            small = ch05["guard"](root, path)
        except ValueError:
            small = "refused"
        except Exception:
            continue  # the crash cases (a loop): only the promoted version has an answer
        try:
            promoted = workspace.resolve(path)
        except refused:
            promoted = "refused"
        if small != promoted:
            differ.append(path)
    assert differ == ["loop-a/../out/secret.txt"]


def test_06_the_promoted_bash_reports_an_ordinary_command_as_the_inline_one_does():
    ch06 = chapter_names(6, until="async def tool_in_background")
    command = "ls notes; echo 'oops' >&2; exit 3"
    assert ch06["run"](ch06["bash"].handler({"command": command})) == ch06["small_bash"](command)


def test_07_the_inline_policy_and_the_executor_reach_the_same_verdicts():
    import re

    from agentkit.calls import ToolCall
    from agentkit.policy import ToolExecutor, ToolPolicy, scripted_answers

    ch07 = chapter_names(7, until="policy = ToolPolicy(")

    def verdict(result) -> str:
        refused = re.match(r"Error: refused by rule '([^']+)'", result.content)
        return f"refused by {refused.group(1)}" if refused else f"ran: {result.content}"

    executor = ToolExecutor(ch07["registry"], ToolPolicy(allowed=ch07["allowed"], confirm=ch07["confirm"]),
                            scripted_answers("n"))
    promoted = [ch07["run"](executor.run(ToolCall.parse(f"call_{n}", name, raw))) for n, (name, raw) in enumerate(ch07["calls"])]
    assert [verdict(result) for result in ch07["inline_results"]] == [verdict(result) for result in promoted]
    assert {verdict(result).split(":")[0] for result in promoted} >= {"refused by confirmation", "ran"}


def test_08_the_inline_loop_and_run_task_send_the_same_requests():
    ch08 = chapter_names(8, until="one_call = ToolPolicy")

    def shape(messages: list[dict]) -> list[tuple]:
        return [(m["role"], m.get("content"),
                 [(c["function"]["name"], c["function"]["arguments"]) for c in m.get("tool_calls", [])])
                for m in messages]

    assert ch08["task"].status == "completed"
    assert ch08["inline_answer"] == ch08["task"].answer
    assert shape(ch08["inline_messages"]) == shape(ch08["task"].messages)


def test_09_the_teaching_scorer_and_the_promoted_one_agree_on_every_hand_written_answer():
    ch09 = chapter_names(9, until="from agentkit.evaluation import class_table")
    for case, calls, label in ch09["answers"]:
        assert ch09["teaching_score"](case, calls) == ch09["score"](case, calls, ch09["FUNCTIONS"]).right, label


def test_10_the_inline_assembler_and_the_promoted_one_read_every_stream_alike():
    from agentkit.checks.ch10 import TRICKY_STREAMS, reference

    ch10 = chapter_names(10)
    for name, chunks in {"the model's stream": ch10["chunks"], **TRICKY_STREAMS}.items():
        ours, promoted = ch10["assemble"](chunks), reference(chunks)
        promoted_calls = [{"id": c["id"], **c["function"]} for c in promoted.get("tool_calls", [])]
        assert ours["content"] == promoted["content"], name
        assert ours["tool_calls"] == promoted_calls, name


def test_11_the_teaching_server_and_the_promoted_one_list_and_refuse_alike():
    ch11 = chapter_names(11, until="course = promoted.course_server")
    client_class = ch11["Client"]

    async def listing_and_error(server):
        async with client_class(server) as mcp_client:
            tools = [t.model_dump() for t in (await mcp_client.list_tools()).tools]
            bad = await mcp_client.call_tool("get_current_time", {"timezone": 5})
            return tools, bad.content[0].text

    teaching_tools, teaching_error = ch11["run"](listing_and_error(ch11["teaching_server"](ch11["clock_only"])))
    promoted_tools, promoted_error = ch11["run"](listing_and_error(ch11["promoted"].mcp_server(ch11["clock_only"])))
    assert teaching_tools == promoted_tools
    assert teaching_error.removeprefix("Error: ") in promoted_error


def test_15_the_inline_tracer_records_the_tool_spans_the_promoted_one_does():
    import shutil

    from agentkit.beyond.tracing import traced
    from agentkit.events import finish
    from agentkit.loop import run_task

    ch15 = chapter_names(15, until="OpenAIInstrumentor().instrument")
    exporter = ch15["exporter"]

    def tool_spans(wrap):
        exporter.clear()
        ch15["run"](finish(wrap(run_task(ch15["client"], "offline", ch15["GOAL"], ch15["registry"]))))
        spans = exporter.get_finished_spans()
        [run] = [span for span in spans if span.name.startswith("invoke_agent")]
        return sorted(((span.name, dict(span.attributes), span.parent.span_id == run.context.span_id)
                       for span in spans if span.name.startswith("execute_tool")), key=lambda row: str(row))

    try:
        inline = tool_spans(ch15["trace_task"])
        promoted = tool_spans(lambda events: traced(events, ch15["tracer"], model="offline"))
    finally:
        shutil.rmtree(ch15["scratch"])
    assert len(inline) == 2 and [name for name, _, _ in inline] == [name for name, _, _ in promoted]
    for (_, ours, under_run), (_, theirs, under_theirs) in zip(inline, promoted, strict=True):
        assert under_run and under_theirs and ours.items() <= theirs.items(), (ours, theirs)
