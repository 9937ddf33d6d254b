"""Settings from `.env`, read when asked (never at import), and `connect()`: a real client or the offline model."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path

import openai
from dotenv import dotenv_values, find_dotenv

from agentkit.offline import OfflineModel, offline_client
from agentkit.offline.variants import VARIANTS, variant as offline_variant

VARIABLES = ("MODEL_API_KEY", "BASE_URL", "MODEL")
OFFLINE_MODEL_NAME = "offline"


class ConfigError(ValueError):
    """A setting is missing or wrong; the message names the variable and what to put there."""


@dataclass(frozen=True)
class Settings:
    """Where the model lives. No `api_key` means the offline model."""

    api_key: str | None = None
    """MODEL_API_KEY: the provider's key; empty selects the offline model."""
    base_url: str | None = None
    """BASE_URL: the provider's OpenAI-compatible endpoint; empty means OpenAI's own."""
    model: str = OFFLINE_MODEL_NAME
    """MODEL: the model name to send with every request."""
    timeout: float = 60.0
    """Seconds to wait for one response before the SDK gives up on it (and retries)."""
    max_retries: int = 2
    """How often the SDK retries a 429, a 5xx or a dropped connection, with backoff."""
    variant: str | None = None
    """MODEL=offline/<variant> with no key: the offline model with one real model's habit (see offline/variants.py)."""

    @property
    def offline(self) -> bool:
        return not self.api_key


def load_settings(env_file: str | os.PathLike[str] | None = None) -> Settings:
    """Read MODEL_API_KEY, BASE_URL and MODEL from the environment, then from `.env` (found upwards from here)."""
    path = env_file if env_file is not None else find_dotenv(usecwd=True)
    if env_file is not None and not Path(env_file).is_file():
        raise ConfigError(f"no settings file at {env_file}: copy .env.example to .env and fill it in")
    from_file = dotenv_values(path) if path else {}
    # As with load_dotenv: a variable set in the environment, even to "", wins over the file.
    values = {name: (os.environ[name] if name in os.environ else from_file.get(name) or "").strip() for name in VARIABLES}
    key, base_url, model = values["MODEL_API_KEY"], values["BASE_URL"], values["MODEL"]
    if base_url and not base_url.startswith(("http://", "https://")):
        raise ConfigError(f"BASE_URL={base_url!r} is not a URL: put the provider's OpenAI-compatible endpoint, "
                          "starting with http:// or https://, for example https://api.openai.com/v1 (README has a table)")
    if not key:
        # Offline, MODEL selects nothing but a variant: a provider's model name in .env changes no reply.
        if not model.startswith(OFFLINE_MODEL_NAME + "/"):
            return Settings(base_url=base_url or None)
        name = model.removeprefix(OFFLINE_MODEL_NAME + "/")
        if name not in VARIANTS:
            raise ConfigError(f"MODEL={model!r} names no variant of the offline model; should be one of: "
                              + ", ".join(f"offline/{known}" for known in VARIANTS) + " (or set MODEL_API_KEY for a real model)")
        return Settings(base_url=base_url or None, model=model, variant=name)
    if any(c.isspace() or c in "\"'" for c in key):
        raise ConfigError("MODEL_API_KEY contains spaces or quotes: put the key alone, as the provider shows it")
    if not model:
        raise ConfigError("MODEL is not set: put the provider's model name, for example MODEL=gpt-4o-mini "
                          "(README's provider table has one for each provider)")
    return Settings(api_key=key, base_url=base_url or None, model=model)


def connect(settings: Settings | None = None, *, offline: bool | None = None, unruly: str | None = None,
            gullible: bool = False, variant: str | None = None) -> openai.AsyncOpenAI:
    """An `AsyncOpenAI` client: the real provider when a key is set, the offline model otherwise.

    `offline=True` asks for the offline model even with a key; `unruly` (a mistake from
    `agentkit.offline.MISTAKES`) makes it an offline model that makes that mistake; `gullible=True` an
    offline model that obeys a command found in a tool result (prompt injection); `variant` (a name
    in `agentkit.offline.VARIANTS`, default MODEL=offline/<variant>) gives it another model's habit.
    `unruly` and `gullible` always mean the offline model: a real model's mistakes cannot be switched on.
    """
    settings = settings or load_settings()
    if offline or unruly or gullible or variant or (offline is None and settings.offline):
        model = OfflineModel(unruly=unruly, gullible=gullible)
        name = variant or settings.variant
        if name:
            model = dataclasses.replace(offline_variant(name), base=model)
        return offline_client(model, max_retries=settings.max_retries)
    if settings.offline:
        raise ConfigError("offline=False needs a real model, but MODEL_API_KEY is not set: put your provider's key "
                          "in .env (copy .env.example), or leave offline unset to use the offline model")
    return openai.AsyncOpenAI(api_key=settings.api_key, base_url=settings.base_url,
                              timeout=settings.timeout, max_retries=settings.max_retries)


async def check_connection(client: openai.AsyncOpenAI, settings: Settings) -> str:
    """Send one tiny request and say plainly what answered, or which setting to fix."""
    where = settings.base_url or "https://api.openai.com/v1"
    try:
        response = await client.chat.completions.create(
            model=settings.model, messages=[{"role": "user", "content": "Say hello."}])
    except openai.AuthenticationError:
        raise ConfigError(f"{where} refused MODEL_API_KEY (HTTP 401): check the key, and that it belongs to this provider") from None
    except openai.NotFoundError:
        raise ConfigError(f"{where} has no model {settings.model!r} (HTTP 404): check MODEL, or BASE_URL's path (it usually ends in /v1)") from None
    except openai.APIConnectionError:
        raise ConfigError(f"cannot reach {where}: check BASE_URL, and that the server is running") from None
    except openai.APIStatusError as error:  # 403, 429 (quota), a 400 from a provider's own rules: its message says why
        raise ConfigError(f"{where} answered HTTP {error.status_code} for MODEL={settings.model!r}: {error.message}") from None
    source = "the offline model (no MODEL_API_KEY set)" if settings.offline else f"{settings.model} at {where}"
    return f"Connected to {source}. It says: {response.choices[0].message.content}"
