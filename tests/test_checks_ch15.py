"""Chapter 15's check passes a summary read by the conventions' names, and says what is wrong with one that is not."""

import asyncio

from opentelemetry.semconv._incubating.attributes import gen_ai_attributes as gen_ai

from agentkit.checks.ch15 import check_exercise_15_1


def trace_summary(spans):
    def operation(name):
        return sorted((s for s in spans if s.attributes.get(gen_ai.GEN_AI_OPERATION_NAME) == name), key=lambda s: s.start_time)

    chats = operation("chat")
    return {"requests": len(chats), "tools": [s.attributes[gen_ai.GEN_AI_TOOL_NAME] for s in operation("execute_tool")],
            "input_tokens": sum(s.attributes.get(gen_ai.GEN_AI_USAGE_INPUT_TOKENS, 0) for s in chats)}


def summing_every_span(spans):
    """Counts the run's total again: invoke_agent carries the sum of its requests' tokens."""
    return trace_summary(spans) | {"input_tokens": sum(s.attributes.get(gen_ai.GEN_AI_USAGE_INPUT_TOKENS, 0) for s in spans)}


def test_a_summary_by_the_conventions_names_passes(capsys):
    assert asyncio.run(check_exercise_15_1({"trace_summary": trace_summary}))
    assert "[pass]" in capsys.readouterr().out


def test_a_summary_that_counts_the_runs_tokens_again_fails_and_says_why(capsys):
    assert not asyncio.run(check_exercise_15_1({"trace_summary": summing_every_span}))
    assert "over the chat spans only" in capsys.readouterr().out


def test_a_summary_not_written_yet_is_todo(capsys):
    assert not asyncio.run(check_exercise_15_1({}))
    assert "[todo]" in capsys.readouterr().out
