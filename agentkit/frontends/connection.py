"""`check_connection`: one tiny request, then one with a tool, and what answered said plainly, or which setting to fix.

Chapter 00 and `agentkit chat` call it when a learner sets up a provider; the core only connects (`agentkit.config`).
"""

from __future__ import annotations

import openai

from agentkit.config import ConfigError, Settings
from agentkit.hardening.secrets import without_key
from agentkit.recovery import RECOVERED, recover_calls, server_fix

CLOCK_TOOL = {"type": "function", "function": {
    "name": "get_current_time", "description": "Get the current time in a time zone.",
    "parameters": {"type": "object", "properties": {"timezone": {"type": "string", "description": "IANA time zone name"}},
                   "required": ["timezone"]}}}
TOOL_QUESTION = "What time is it in Tokyo? Use the get_current_time tool."


async def check_connection(client: openai.AsyncOpenAI, settings: Settings) -> str:
    """Send one tiny request, then one with a tool, and say plainly what answered, or which setting to fix."""
    where = settings.base_url or "https://api.openai.com/v1"
    response = await _ask(client, settings, where, [{"role": "user", "content": "Say hello."}])
    source = "the offline model (no MODEL_API_KEY set)" if settings.offline else f"{settings.model} at {where}"
    return f"Connected to {source}. It says: {response.choices[0].message.content}\n{await _check_tools(client, settings, where)}"


async def _check_tools(client: openai.AsyncOpenAI, settings: Settings, where: str) -> str:
    """What one request with a tool shows: native calls, calls read back from text, or which fix the server needs."""
    fix = server_fix(settings.base_url)
    message = (await _ask(client, settings, where, [{"role": "user", "content": TOOL_QUESTION}], tools=[CLOCK_TOOL],
                          refusal=f"so this model cannot be given tools here. Fix: {fix}")).choices[0].message
    calls = message.tool_calls or []
    if calls and all(call.id.startswith(RECOVERED) for call in calls):
        return (f"Tool calls: the server sent the model's call as text, and RECOVER_TEXT_CALLS read it back "
                f"({calls[0].function.name}). For native calls: {fix}.")
    if calls:
        return f"Tool calls: native (it called {calls[0].function.name} when asked the time in Tokyo)."
    text = message.content or ""
    if recover_calls(text, {"get_current_time": CLOCK_TOOL["function"]["parameters"]}):
        raise ConfigError(f"{where}: MODEL={settings.model!r} wrote its tool call as text ({text.strip()[:80]!r}), "
                          f"not as a tool call, and RECOVER_TEXT_CALLS is off. Fix: {fix}; or set RECOVER_TEXT_CALLS=on")
    raise ConfigError(f"{where}: MODEL={settings.model!r} answered in text instead of calling the offered tool "
                      f"({text.strip()[:80]!r}): it may not support tool calls. Fix: {fix}")


async def _ask(client: openai.AsyncOpenAI, settings: Settings, where: str, messages: list[dict], *,
               refusal: str = "", **options: object) -> object:
    try:
        return await client.chat.completions.create(model=settings.model, messages=messages, **options)
    except openai.AuthenticationError:
        raise ConfigError(f"{where} refused MODEL_API_KEY (HTTP 401): "
                          "check the key, and that it belongs to this provider") from None
    except openai.NotFoundError:
        raise ConfigError(f"{where} has no model {settings.model!r} (HTTP 404): "
                          "check MODEL, or BASE_URL's path (it usually ends in /v1)") from None
    except openai.APIConnectionError:
        raise ConfigError(f"cannot reach {where}: check BASE_URL, and that the server is running") from None
    except openai.APIStatusError as error:  # 403, 429 (quota), a 400 from a provider's own rules: its message says why
        why = f", {refusal}" if refusal and error.status_code in (400, 422, 500, 501) else ""
        raise ConfigError(f"{where} answered HTTP {error.status_code} for MODEL={settings.model!r}: "
                          f"{without_key(error.message, settings.api_key)}{why}") from None
