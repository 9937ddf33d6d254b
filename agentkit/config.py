"""Settings from `.env`, read when asked (never at import), and `connect()`: a real client or the offline model.

Whether the connection works, said in plain words, is the front ends' job: `agentkit.frontends.connection`."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args
from urllib.parse import urlparse

import httpx2
import openai
from dotenv import dotenv_values, find_dotenv

from agentkit.recovery import RecoveringClient

VARIABLES = ("MODEL_API_KEY", "BASE_URL", "MODEL", "RECOVER_TEXT_CALLS")
OFFLINE_MODEL_NAME = "offline"
RecoveryMode = Literal["auto", "on", "off"]
RECOVERY_MODES: tuple[RecoveryMode, ...] = get_args(RecoveryMode)
OPENAI_HOSTS = ("api.openai.com",)
"""Where `auto` leaves recovery off: OpenAI returns every call natively, so text there is always an answer."""


class ConfigError(ValueError):
    """A setting is missing or wrong: the message names the variable and what to put there; `key` and `values`, which."""
    def __init__(self, message: str, key: str = "", **values: object) -> None:
        super().__init__(message)
        self.key, self.values = key, values


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
        raise ConfigError(f"no settings file at {env_file}: copy .env.example to .env and fill it in", "no file", path=env_file)
    from_file = dotenv_values(path) if path else {}
    # As with load_dotenv: a variable set in the environment, even to "", wins over the file.
    values = {name: (os.environ[name] if name in os.environ else from_file.get(name) or "").strip() for name in VARIABLES}
    key, base_url, model = values["MODEL_API_KEY"], values["BASE_URL"], values["MODEL"]
    recovery = values["RECOVER_TEXT_CALLS"].lower() or "auto"
    if recovery not in RECOVERY_MODES:
        raise ConfigError(f"RECOVER_TEXT_CALLS={values['RECOVER_TEXT_CALLS']!r} should be one of: {', '.join(RECOVERY_MODES)} "
                          "(auto: on for every server but OpenAI's own API)", "recovery", value=values["RECOVER_TEXT_CALLS"])
    if base_url and not base_url.startswith(("http://", "https://")):
        raise ConfigError(f"BASE_URL={base_url!r} is not a URL: put the provider's OpenAI-compatible endpoint, "
                          "starting with http:// or https://, for example https://api.openai.com/v1 (README has a table)", "url")
    if not key:
        # Offline, MODEL selects nothing but a variant: a provider's model name in .env changes no reply.
        if not model.startswith(OFFLINE_MODEL_NAME + "/"):
            return Settings(base_url=base_url or None, recover_text_calls=recovery)
        name = model.removeprefix(OFFLINE_MODEL_NAME + "/")
        from agentkit.offline.variants import VARIANTS  # only for MODEL=offline/<variant>: import agentkit stays light
        if name not in VARIANTS:
            known = ", ".join(f"offline/{known}" for known in VARIANTS)
            raise ConfigError(f"MODEL={model!r} names no variant of the offline model; should be one of: {known} (or set "
                              "MODEL_API_KEY for a real model)", "variant", value=model, known=known)
        return Settings(base_url=base_url or None, model=model, variant=name, recover_text_calls=recovery)
    if any(c.isspace() or c in "\"'" for c in key):
        raise ConfigError("MODEL_API_KEY contains spaces or quotes: put the key alone, as the provider shows it", "key")
    if not model:
        raise ConfigError("MODEL is not set: put the provider's model name, for example MODEL=gpt-4o-mini "
                          "(README's provider table has one for each provider)", "model")
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
    return RecoveringClient(**options, transport=httpx2.AsyncHTTPTransport())
