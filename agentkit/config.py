"""Settings from `.env`, read when asked (never at import), and `connect()`: a real client or the offline model."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args
from urllib.parse import urlparse

import httpx2
import openai
from dotenv import dotenv_values, find_dotenv

from agentkit.hardening.secrets import without_key
from agentkit.recovery import RECOVERED, RecoveringTransport, recover_calls, remember_recovering, server_fix

VARIABLES = ("MODEL_API_KEY", "BASE_URL", "MODEL", "RECOVER_TEXT_CALLS")
OFFLINE_MODEL_NAME = "offline"
RecoveryMode = Literal["auto", "on", "off"]
RECOVERY_MODES: tuple[RecoveryMode, ...] = get_args(RecoveryMode)
OPENAI_HOSTS = ("api.openai.com",)
"""Where `auto` leaves recovery off: OpenAI returns every call natively, so text there is always an answer."""


class ConfigError(ValueError):
    """A setting is missing or wrong; the message names the variable and what to put there."""


@dataclass(frozen=True)
class Settings:
    """Where the model lives. No `api_key` means the offline model."""

    api_key: str | None = None  # MODEL_API_KEY; empty selects the offline model
    base_url: str | None = None  # BASE_URL, the provider's OpenAI-compatible endpoint; empty means OpenAI's own
    model: str = OFFLINE_MODEL_NAME  # MODEL, sent with every request
    timeout: float = 60.0  # seconds to wait for one response before the SDK retries
    max_retries: int = 2  # the SDK's retries of a 429, a 5xx or a dropped connection, with backoff
    variant: str | None = None  # MODEL=offline/<variant> with no key: the offline model with a real model's habit
    recover_text_calls: RecoveryMode = "auto"  # RECOVER_TEXT_CALLS: read calls a server left in the text (agentkit/recovery/)

    @property
    def offline(self) -> bool:
        return not self.api_key

    @property
    def recovers_text_calls(self) -> bool:
        """Whether the client reads tool calls back from text and keeps <think> blocks apart."""
        if self.recover_text_calls != "auto":
            return self.recover_text_calls == "on"
        return self.offline or urlparse(self.base_url or "https://api.openai.com/v1").hostname not in OPENAI_HOSTS


def load_settings(env_file: str | os.PathLike[str] | None = None) -> Settings:
    """Read VARIABLES from the environment, then from `.env` (found upwards from here)."""
    path = env_file if env_file is not None else find_dotenv(usecwd=True)
    if env_file is not None and not Path(env_file).is_file():
        raise ConfigError(f"no settings file at {env_file}: copy .env.example to .env and fill it in")
    from_file = dotenv_values(path) if path else {}
    # As with load_dotenv: a variable set in the environment, even to "", wins over the file.
    values = {name: (os.environ[name] if name in os.environ else from_file.get(name) or "").strip() for name in VARIABLES}
    key, base_url, model = values["MODEL_API_KEY"], values["BASE_URL"], values["MODEL"]
    recovery = values["RECOVER_TEXT_CALLS"].lower() or "auto"
    if recovery not in RECOVERY_MODES:
        raise ConfigError(f"RECOVER_TEXT_CALLS={values['RECOVER_TEXT_CALLS']!r} should be one of: {', '.join(RECOVERY_MODES)} "
                          "(auto: on for every server but OpenAI's own API)")
    if base_url and not base_url.startswith(("http://", "https://")):
        raise ConfigError(f"BASE_URL={base_url!r} is not a URL: put the provider's OpenAI-compatible endpoint, "
                          "starting with http:// or https://, for example https://api.openai.com/v1 (README has a table)")
    if not key:
        # Offline, MODEL selects nothing but a variant: a provider's model name in .env changes no reply.
        if not model.startswith(OFFLINE_MODEL_NAME + "/"):
            return Settings(base_url=base_url or None, recover_text_calls=recovery)
        name = model.removeprefix(OFFLINE_MODEL_NAME + "/")
        from agentkit.offline.variants import VARIANTS  # only for MODEL=offline/<variant>: import agentkit stays light
        if name not in VARIANTS:
            raise ConfigError(f"MODEL={model!r} names no variant of the offline model; should be one of: "
                              + ", ".join(f"offline/{known}" for known in VARIANTS) + " (or set MODEL_API_KEY for a real model)")
        return Settings(base_url=base_url or None, model=model, variant=name, recover_text_calls=recovery)
    if any(c.isspace() or c in "\"'" for c in key):
        raise ConfigError("MODEL_API_KEY contains spaces or quotes: put the key alone, as the provider shows it")
    if not model:
        raise ConfigError("MODEL is not set: put the provider's model name, for example MODEL=gpt-4o-mini "
                          "(README's provider table has one for each provider)")
    return Settings(api_key=key, base_url=base_url or None, model=model, recover_text_calls=recovery)


def connect(settings: Settings | None = None, *, offline: bool | None = None) -> openai.AsyncOpenAI:
    """An `AsyncOpenAI` client: the real provider when a key is set, the offline model otherwise (or if `offline=True`).

    The offline model's teaching switches (a mistake on purpose, obeying injected orders, another model's habit)
    are `agentkit.offline.connect_offline`'s: a real model's mistakes cannot be switched on."""
    settings = settings or load_settings()
    if offline or (offline is None and settings.offline):
        from agentkit.offline import connect_offline  # loaded only when it answers: `import agentkit` stays light
        return connect_offline(variant=settings.variant, recover=settings.recovers_text_calls,
                               max_retries=settings.max_retries)
    if settings.offline:
        raise ConfigError("offline=False needs a real model, but MODEL_API_KEY is not set: put your provider's key "
                          "in .env (copy .env.example), or leave offline unset to use the offline model")
    options = dict(api_key=settings.api_key, base_url=settings.base_url, timeout=settings.timeout,
                   max_retries=settings.max_retries)
    if not settings.recovers_text_calls:  # the SDK's own client: nothing of ours between it and the provider
        return openai.AsyncOpenAI(**options)
    transport = RecoveringTransport(httpx2.AsyncHTTPTransport())
    return remember_recovering(openai.AsyncOpenAI(**options, http_client=openai.DefaultAsyncHttpxClient(transport=transport)))


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
