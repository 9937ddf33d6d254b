"""Settings from the environment and `.env`, `connect()` real or offline, and `check_connection`'s plain answers."""

import dataclasses
import re
import socket
import subprocess
import sys
from pathlib import Path

import openai
import pytest

from agentkit.config import VARIABLES, ConfigError, Settings, connect, load_settings
from agentkit.frontends.connection import check_connection
from agentkit.offline import OfflineModel, OfflineServer, ScriptedModel, connect_offline
from agentkit.offline.protocol import ApiError
from agentkit.offline.transport import OFFLINE_BASE_URL
from agentkit.offline.variants import variant
from agentkit.recovery import server_fix

ROOT = Path(__file__).resolve().parent.parent

HELLO = "Hello! I am the course's offline model. Ask me something, or offer me a tool."
NATIVE = "Tool calls: native (it called get_current_time when asked the time in Tokyo)."


@pytest.fixture
def clean(monkeypatch, tmp_path):
    """No MODEL_API_KEY, BASE_URL or MODEL in the environment, and a working directory with no .env above it."""
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write_env(folder, **values):
    path = folder / ".env"
    path.write_text("".join(f"{name}={value}\n" for name, value in values.items()))
    return path


class RecordingModel:
    """The offline model, keeping the model name each request asked for."""

    def __init__(self):
        self.asked = []

    def respond(self, request):
        self.asked.append(request["model"])
        return OfflineModel().respond(request)


# load_settings

def test_no_key_anywhere_means_the_offline_model(clean):
    assert load_settings() == Settings()
    assert Settings().offline and (Settings().model, Settings().base_url) == ("offline", None)
    assert (Settings().timeout, Settings().max_retries) == (60.0, 2)


def test_dotenv_key_base_url_and_model_are_read(clean):
    write_env(clean, MODEL_API_KEY="sk-file", BASE_URL="https://api.deepseek.com/v1", MODEL="deepseek-chat")
    settings = load_settings()
    assert settings == Settings(api_key="sk-file", base_url="https://api.deepseek.com/v1", model="deepseek-chat")
    assert not settings.offline


def test_dotenv_is_found_upwards_from_the_working_directory(clean, monkeypatch):
    write_env(clean, MODEL_API_KEY="sk-file", MODEL="gpt-4o-mini")
    deeper = clean / "notebooks" / "scratch"
    deeper.mkdir(parents=True)
    monkeypatch.chdir(deeper)
    assert load_settings().api_key == "sk-file"


def test_explicit_env_file_and_a_missing_one(clean):
    elsewhere = clean / "elsewhere"  # not above the working directory, so only an explicit path finds it
    elsewhere.mkdir()
    path = write_env(elsewhere, MODEL_API_KEY="sk-explicit", MODEL="m")
    assert load_settings(path).api_key == "sk-explicit"
    with pytest.raises(ConfigError, match=r"no settings file at .*nowhere\.env: copy \.env\.example to \.env"):
        load_settings(clean / "nowhere.env")


def test_environment_wins_over_dotenv(clean, monkeypatch):
    write_env(clean, MODEL_API_KEY="sk-file", MODEL="from-file")
    monkeypatch.setenv("MODEL_API_KEY", "sk-env")
    assert load_settings() == Settings(api_key="sk-env", model="from-file")


def test_an_empty_key_in_the_environment_wins_over_dotenv(clean, monkeypatch):
    # What conftest.py and the refresh command rely on: "" in the environment means offline, whatever .env says.
    write_env(clean, MODEL_API_KEY="sk-file", MODEL="gpt-4o-mini")
    monkeypatch.setenv("MODEL_API_KEY", "")
    assert load_settings().offline


def test_values_are_read_at_call_time(clean):
    assert load_settings().offline
    write_env(clean, MODEL_API_KEY="sk-later", MODEL="m")
    assert load_settings().api_key == "sk-later"


def test_surrounding_whitespace_and_dotenv_quotes_are_not_part_of_the_key(clean, monkeypatch):
    write_env(clean, MODEL_API_KEY='"sk-quoted"', MODEL="m")
    assert load_settings().api_key == "sk-quoted"
    monkeypatch.setenv("MODEL_API_KEY", "  sk-padded \n")
    assert load_settings().api_key == "sk-padded"


@pytest.mark.parametrize("key", [True, False], ids=["with key", "without key"])
def test_base_url_without_a_scheme_names_base_url(clean, key):
    write_env(clean, **({"MODEL_API_KEY": "sk-x", "MODEL": "m"} if key else {}), BASE_URL="api.openai.com/v1")
    with pytest.raises(ConfigError) as raised:
        load_settings()
    assert str(raised.value).startswith("BASE_URL='api.openai.com/v1' is not a URL: put the provider's "
                                        "OpenAI-compatible endpoint, starting with http:// or https://")


def test_key_without_model_names_model(clean):
    write_env(clean, MODEL_API_KEY="sk-x", BASE_URL="https://api.openai.com/v1")
    with pytest.raises(ConfigError, match=r"^MODEL is not set: put the provider's model name, for example MODEL="):
        load_settings()


@pytest.mark.parametrize("key", ["sk-abc def", "sk-abc\tdef", '"sk-abc"', "'sk-abc'"])
def test_key_with_spaces_or_quotes_is_refused(clean, monkeypatch, key):
    monkeypatch.setenv("MODEL_API_KEY", key)
    monkeypatch.setenv("MODEL", "m")
    with pytest.raises(ConfigError, match="^MODEL_API_KEY contains spaces or quotes: put the key alone"):
        load_settings()


def test_importing_config_reads_nothing(clean):
    # A broken .env must not break the import: settings are read when asked, never at import time.
    write_env(clean, BASE_URL="not a url")
    code = ("import agentkit.config as c\n"
            "try:\n    c.load_settings()\nexcept c.ConfigError as e:\n    print('raised at call:', str(e)[:8])")
    done = subprocess.run([sys.executable, "-c", code], cwd=clean, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "raised at call: BASE_URL\n"), done.stderr


# connect

@pytest.mark.anyio
async def test_connect_without_a_key_is_the_offline_model(clean):
    settings = load_settings()
    client = connect(settings)
    assert isinstance(client, openai.AsyncOpenAI) and str(client.base_url) == OFFLINE_BASE_URL + "/"
    assert await check_connection(client, settings) == (
        f"Connected to the offline model (no MODEL_API_KEY set). It says: {HELLO}\n{NATIVE}")


def test_connect_with_a_key_is_a_real_client(clean):
    write_env(clean, MODEL_API_KEY="sk-real", BASE_URL="https://api.deepseek.com/v1", MODEL="deepseek-chat")
    client = connect(load_settings())
    assert isinstance(client, openai.AsyncOpenAI)
    assert (client.api_key, str(client.base_url)) == ("sk-real", "https://api.deepseek.com/v1/")
    assert (client.timeout, client.max_retries) == (60.0, 2)


def test_connect_without_base_url_is_openai_itself(clean, monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    client = connect(Settings(api_key="sk-real", model="gpt-4o-mini"))
    assert str(client.base_url) == "https://api.openai.com/v1/"


@pytest.mark.anyio
async def test_connect_offline_true_ignores_the_key(clean):
    client = connect(Settings(api_key="sk-real", model="gpt-4o-mini"), offline=True)
    assert str(client.base_url) == OFFLINE_BASE_URL + "/"
    response = await client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "hello"}])
    assert response.choices[0].message.content == HELLO


@pytest.mark.anyio
async def test_connect_unruly_is_an_offline_model_making_that_mistake(clean):
    client = connect_offline(unruly="broken_json")
    tools = [{"type": "function", "function": {"name": "get_current_time", "description": "current time in a time zone",
                                               "parameters": {"type": "object", "properties": {"timezone": {"type": "string"}}}}}]
    response = await client.chat.completions.create(
        model="m", messages=[{"role": "user", "content": "What time is it in Tokyo?"}], tools=tools)
    assert response.choices[0].message.tool_calls[0].function.arguments == '{"timezone": "Asia/Tokyo"'


def test_connect_offline_false_without_a_key_is_an_error(clean):
    with pytest.raises(ConfigError, match="^offline=False needs a real model, but MODEL_API_KEY is not set"):
        connect(load_settings(), offline=False)


def test_connect_loads_settings_itself_when_given_none(clean):
    write_env(clean, MODEL_API_KEY="sk-implicit", BASE_URL="http://127.0.0.1:9/v1", MODEL="m")
    assert connect().api_key == "sk-implicit"


# check_connection on the real-provider path, against a local server instead of the network

async def checked(settings):
    # Close the real client on this test's event loop: left open, it is closed later on a loop that is gone.
    async with connect(settings) as client:
        return await check_connection(client, settings)


@pytest.mark.anyio
async def test_check_connection_with_a_key_talks_to_base_url(clean):
    model = RecordingModel()
    with OfflineServer(model) as server:
        write_env(clean, MODEL_API_KEY="sk-test", BASE_URL=server.base_url, MODEL="gpt-test")
        settings = load_settings()
        message = await checked(settings)
    assert message == f"Connected to gpt-test at {server.base_url}. It says: {HELLO}\n{NATIVE}"
    assert model.asked == ["gpt-test", "gpt-test"]  # a hello, then a request with a tool


@pytest.mark.anyio
@pytest.mark.parametrize(("status", "expected"), [
    (401, "{url} refused MODEL_API_KEY (HTTP 401): check the key, and that it belongs to this provider"),
    (404, "{url} has no model 'gpt-test' (HTTP 404): check MODEL, or BASE_URL's path (it usually ends in /v1)"),
])
async def test_check_connection_explains_401_and_404(clean, status, expected):
    with OfflineServer(ScriptedModel([status])) as server:
        settings = Settings(api_key="sk-test", base_url=server.base_url, model="gpt-test")
        with pytest.raises(ConfigError) as raised:
            await checked(settings)
    assert str(raised.value) == expected.format(url=server.base_url)


@pytest.mark.anyio
async def test_check_connection_to_an_unreachable_port(clean):
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = Settings(api_key="sk-test", base_url=f"http://127.0.0.1:{port}/v1", model="gpt-test", max_retries=0)
    with pytest.raises(ConfigError) as raised:
        await checked(settings)
    assert str(raised.value) == f"cannot reach http://127.0.0.1:{port}/v1: check BASE_URL, and that the server is running"


def test_settings_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Settings().model = "other"


# check_connection's tool request: each way a server fails at tools, and the fix it names for that server

class NoToolsModel:
    """A server that chats but refuses any request with tools, as Ollama does for a model without a tool template."""

    def __init__(self, refusal):
        self.refusal = refusal

    def respond(self, request):
        if request.get("tools"):
            raise ApiError(400, self.refusal)
        return OfflineModel().respond(request)


SERVERS = {  # how the learner's BASE_URL names the server -> words of the fix that must be named
    "http://localhost:11434/v1": "template supports tools",
    "http://127.0.0.1:8000/v1": "--enable-auto-tool-choice --tool-call-parser <parser>",
    "http://127.0.0.1:8080/v1": "--jinja",
}


async def checked_as(model, base_url, **settings):
    """check_connection on `model` served over HTTP, with the learner's BASE_URL saying which server it is."""
    with OfflineServer(model) as server:
        async with connect(Settings(api_key="sk-test", base_url=server.base_url, model="m", **settings)) as client:
            return await check_connection(client, Settings(api_key="sk-test", base_url=base_url, model="m", **settings))


@pytest.mark.anyio
@pytest.mark.parametrize(("base_url", "fix"), SERVERS.items())
@pytest.mark.parametrize("refusal", ["registry.ollama.ai/library/gemma:2b does not support tools",
                                     '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
                                     "tools param requires --jinja flag"])
async def test_check_connection_a_400_for_tools_names_the_fix(clean, base_url, fix, refusal):
    with pytest.raises(ConfigError) as raised:
        await checked_as(NoToolsModel(refusal), base_url)
    assert str(raised.value).startswith(f"{base_url} answered HTTP 400 for MODEL='m': Error code: 400 - {refusal}, so this model "
                                        "cannot be given tools here. Fix: ")
    assert fix in str(raised.value)


@pytest.mark.anyio
@pytest.mark.parametrize(("base_url", "fix"), SERVERS.items())
async def test_check_connection_a_model_that_ignores_tools(clean, base_url, fix):
    with pytest.raises(ConfigError) as raised:
        await checked_as(ScriptedModel(["Hi.", "I cannot check the time."]), base_url)
    assert str(raised.value).startswith(f"{base_url}: MODEL='m' answered in text instead of calling the offered tool "
                                        "('I cannot check the time.'): it may not support tool calls. Fix: ")
    assert fix in str(raised.value)


@pytest.mark.anyio
@pytest.mark.parametrize(("base_url", "fix"), SERVERS.items())
@pytest.mark.parametrize("form", ["json_text", "tagged_json", "tagged_function"])
async def test_check_connection_calls_left_in_text(clean, base_url, fix, form):
    with pytest.raises(ConfigError) as raised:  # recovery off: the course would show the call as an answer
        await checked_as(variant(form), base_url, recover_text_calls="off")
    assert "wrote its tool call as text" in str(raised.value) and fix in str(raised.value)
    assert str(raised.value).endswith("; or set RECOVER_TEXT_CALLS=on")
    message = await checked_as(variant(form), base_url)  # on (the default for a local server): it works, and says so
    assert message.endswith(f"the server sent the model's call as text, and RECOVER_TEXT_CALLS read it back "
                            f"(get_current_time). For native calls: {server_fix(base_url)}.")


@pytest.mark.parametrize("first", ["agentkit.config", "agentkit.tools.registry", "agentkit.evaluation",
                                   "agentkit.checks.ch02", "agentkit.checks.ch09"])
def test_importing_agentkit_skips_the_iri_grammar_jsonschema_would_compile(first: str):
    """jsonschema + rfc3987_syntax cost a second of CPU per kernel (4 s on a loaded machine); agentkit imports
    jsonschema without the latter, whichever of its modules a process imports first (stop 45's lazy `import agentkit`
    let chapter 09's scorer import jsonschema before the workaround ran: every kernel and `agentkit eval` paid).
    Not agentkit.classroom: nbformat, which it needs, imports jsonschema itself (once in a grading process)."""
    code = (f"import sys, {first}, jsonschema; "
            "print('rfc3987_syntax' in sys.modules, sys.modules.get('rfc3987_syntax', 'absent'))")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert shown.split() == ["False", "absent"]


def test_only_the_arguments_module_imports_jsonschema():
    """The workaround above works only if agentkit reaches jsonschema through agentkit.hardening.arguments alone."""
    importers = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "agentkit").rglob("*.py")
                       if re.search(r"^\s*(?:import jsonschema|from jsonschema )", path.read_text(encoding="utf-8"), re.M))
    assert importers == ["agentkit/hardening/arguments.py"]
