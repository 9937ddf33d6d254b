"""Chapter 12: LangChain and the OpenAI Agents SDK against `agentkit serve`, and the Anthropic conversion functions."""

from __future__ import annotations

import asyncio
import json

import pytest

from agentkit.frameworks import agents_tools, anthropic_messages, anthropic_tools, langchain_tools
from agentkit.offline import OfflineServer
from agentkit.policy import ToolExecutor, ToolPolicy, scripted_answers
from agentkit.tools import Workspace, build_registry, clock_tool, file_tools
from agentkit.tools.dispatcher import ToolResult, tool_message


@pytest.fixture
def registry(tmp_path):
    (tmp_path / "notes.txt").write_text("milk\n")
    return build_registry([clock_tool(), *file_tools(Workspace(tmp_path))])


def test_langchain_bind_tools_round_trip_through_the_offline_server(registry):
    pytest.importorskip("langchain_openai")
    from langchain_core.messages import HumanMessage, ToolMessage
    from langchain_openai import ChatOpenAI

    executor = ToolExecutor(registry, ToolPolicy(allowed={"get_current_time", "read_file"}))
    tools = {tool.name: tool for tool in langchain_tools(executor)}
    assert sorted(tools) == ["get_current_time", "read_file"]  # the policy's allowlist decides what is offered

    async def run() -> str:
        with OfflineServer() as server:
            llm = ChatOpenAI(model="offline", base_url=server.base_url, api_key="offline").bind_tools(list(tools.values()))
            messages = [HumanMessage("What time is it in Tokyo?")]
            reply = await llm.ainvoke(messages)
            assert reply.tool_calls[0]["name"] == "get_current_time"
            assert reply.tool_calls[0]["args"] == {"timezone": "Asia/Tokyo"}
            messages.append(reply)
            for call in reply.tool_calls:
                messages.append(ToolMessage(await tools[call["name"]].ainvoke(call["args"]), tool_call_id=call["id"]))
            return (await llm.ainvoke(messages)).content

    assert "Tokyo" in asyncio.run(run())


def test_langchain_tool_keeps_the_dispatchers_error_contract(registry):
    pytest.importorskip("langchain_core")
    tool = {t.name: t for t in langchain_tools(ToolExecutor(registry))}["read_file"]
    outside = asyncio.run(tool.ainvoke({"path": "../../etc/passwd"}))
    assert outside.startswith("Error:") and "outside the workspace" in outside


@pytest.mark.parametrize("model_class", ["OpenAIChatCompletionsModel", "OpenAIResponsesModel"])
def test_agents_sdk_runner_with_function_tools_against_the_offline_server(registry, model_class):
    agents = pytest.importorskip("agents")
    import openai

    agents.set_tracing_disabled(True)  # else it uploads traces to OpenAI
    executor = ToolExecutor(registry, ToolPolicy(allowed={"get_current_time"}))

    async def run():
        with OfflineServer() as server:
            client = openai.AsyncOpenAI(base_url=server.base_url, api_key="offline")
            model = getattr(agents, model_class)(model="offline", openai_client=client)
            agent = agents.Agent(name="clock", instructions="Answer with the tools.", tools=agents_tools(executor),
                                 model=model)
            return await agents.Runner.run(agent, "What time is it in Tokyo?", max_turns=4)

    result = asyncio.run(run())
    assert [item.type for item in result.new_items] == ["tool_call_item", "tool_call_output_item", "message_output_item"]
    assert "Tokyo" in result.final_output
    assert [d.outcome for d in executor.log] == ["allowed"]  # the call went through our policy


def test_agents_tool_asks_where_the_policy_says_so(registry):
    pytest.importorskip("agents")
    executor = ToolExecutor(registry, ask=scripted_answers("n"))
    write = {t.name: t for t in agents_tools(executor)}["write_file"]
    result = asyncio.run(write.on_invoke_tool(None, json.dumps({"path": "a.txt", "content": "x"})))
    assert result.startswith("Error: refused by rule 'confirmation'")


def test_anthropic_conversion_of_tools_and_a_history_with_two_results_one_an_error(registry):
    tools = anthropic_tools(registry)
    assert tools[0] == {"name": "get_current_time", "description": registry["get_current_time"].description,
                        "input_schema": registry["get_current_time"].parameters}
    calls = [{"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "a"}'}},
             {"id": "call_2", "type": "function", "function": {"name": "get_current_time", "arguments": ""}}]
    history = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"},
               {"role": "assistant", "content": "Checking.", "tool_calls": calls},
               tool_message("call_1", ToolResult("Error: no file 'a'", is_error=True)),
               tool_message("call_2", ToolResult("10:00")),
               {"role": "assistant", "content": "It is 10:00."}]
    system, messages = anthropic_messages(history)
    assert system == "Be brief."
    assert messages == [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": [{"type": "text", "text": "Checking."},
                                          {"type": "tool_use", "id": "call_1", "name": "read_file", "input": {"path": "a"}},
                                          {"type": "tool_use", "id": "call_2", "name": "get_current_time", "input": {}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "call_1", "content": "Error: no file 'a'", "is_error": True},
            {"type": "tool_result", "tool_use_id": "call_2", "content": "10:00"}]},
        {"role": "assistant", "content": "It is 10:00."},
    ]
