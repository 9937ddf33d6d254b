"""The chat's last English lines, in Chinese too (issue 37): a refusal at launch (a wrong setting, an agent of your own
that does not load) and the chat's own commands (/help, /foo), each said in the person's language from a key and
values, never by translating the English; `--lang en` keeps the English as it was, and the exit status is the same."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from front_door import SCRIPT, environment
from test_zh_messages import english_runs

from agentkit.config import ConfigError, load_settings
from agentkit.frontends.messages import MESSAGES, error_for_the_person
from agentkit.frontends.own_agent import LoadError, load_policy, load_tools, read_system_prompt
from agentkit.tools.workspace import Workspace

CHINESE = re.compile(r"[\u4e00-\u9fff]")


def raised(function, *arguments) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        function(*arguments)
    return caught.value


def every_refusal(tmp_path: Path, monkeypatch) -> list[ConfigError]:
    """One error for each key a setting or an agent of your own can be refused with, raised by the code that raises it."""
    monkeypatch.chdir(tmp_path)
    errors = [raised(load_settings, tmp_path / "nowhere.env")]
    for variables in ({"RECOVER_TEXT_CALLS": "sometimes"}, {"BASE_URL": "api.openai.com/v1"}, {"MODEL": "offline/nope"},
                      {"MODEL_API_KEY": "sk x", "MODEL": "m"}, {"MODEL_API_KEY": "sk-x"}):
        for name in ("MODEL_API_KEY", "BASE_URL", "MODEL", "RECOVER_TEXT_CALLS"):
            monkeypatch.setenv(name, variables.get(name, ""))
        errors.append(raised(load_settings))
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "mine.py").write_text("import json\nPOLICY = 3\n\ndef tools(workspace):\n    return 42\n")
    errors += [raised(read_system_prompt, tmp_path / "missing.txt"), raised(read_system_prompt, tmp_path / "empty.txt"),
               raised(load_tools, "no colon"), raised(load_tools, "no_such_module_here:tools"),
               raised(load_tools, "mine.py:nothing"), raised(load_tools("mine.py:tools"), Workspace(tmp_path)),
               raised(load_policy, "mine.py:NOPE"), raised(load_policy, "mine.py:POLICY")]
    return errors


def test_every_refusal_at_launch_has_chinese_words_and_english_as_it_was(tmp_path, monkeypatch):
    errors = every_refusal(tmp_path, monkeypatch)
    worded = {key for key in MESSAGES["zh"] if key.startswith("error ")}
    assert {f"error {error.key}" for error in errors} == worded, "each key raised once, and words for each"
    for error in errors:
        chinese = error_for_the_person(error, "zh")
        assert CHINESE.search(chinese) and english_runs(chinese) == [], (error.key, chinese)
        assert "{" not in chinese.replace("{JSON}", ""), (error.key, chinese)  # every place filled
        assert error_for_the_person(error, "en") == str(error), "English is the error's own message"
    assert all(isinstance(error, LoadError) for error in errors[6:]), "an agent of your own: a LoadError"
    assert error_for_the_person(ValueError("a plain error"), "zh") == "a plain error", "no key: as it is"


LAUNCH = [  # what is wrong, the options and variables that make it so, and what the English line says
    ("variant", [], {"MODEL": "offline/nope"}, "names no variant of the offline model"),
    ("url", [], {"BASE_URL": "api.example.com/v1"}, "is not a URL"),
    ("import", ["--tools", "no_such_module_here:tools"], {}, "cannot import no_such_module_here"),
    ("no policy", ["--policy", "agentkit.agent:NOPE"], {}, "agentkit.agent.NOPE is missing, not a ToolPolicy"),
    ("spec", ["--policy", "bad"], {}, "write module:NAME"),
    ("prompt empty", ["--system-prompt", "empty.txt"], {}, "is empty: write the agent's instructions in it"),
]


@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize(("key", "options", "variables", "english"), LAUNCH, ids=[row[0] for row in LAUNCH])
def test_a_chat_refused_at_launch_says_why_in_the_persons_language_with_status_2(tmp_path, language, key, options,
                                                                                 variables, english):
    (tmp_path / "empty.txt").write_text("")
    done = subprocess.run([str(SCRIPT), "chat", "--no-history", "--lang", language, *options], cwd=tmp_path, text=True,
                          input="/exit\n", capture_output=True, timeout=120, env=environment(tmp_path, **variables))
    line = done.stderr.splitlines()[-1]
    assert done.returncode == 2 and done.stdout == "", (done.returncode, done.stdout, done.stderr)
    assert line.startswith(("agentkit chat: ", "agentkit: error: ")), line
    if language == "en":
        assert english in line and not CHINESE.search(line), line
    else:
        assert english not in line and CHINESE.search(line) and english_runs(line) == [], line


@pytest.mark.parametrize(("language", "help_line", "unknown"), [
    ("en", "Type a request.", "The chat has no command /foo: its commands are /help, /cancel, /explain and /exit"),
    ("zh", "输入你的请求。", "聊天程序没有 /foo 这个命令：它的命令有 /help、/cancel、/explain 和 /exit"),
])
def test_help_and_an_unknown_command_are_answered_by_the_chat_not_sent_to_the_model(tmp_path, language, help_line,
                                                                                     unknown):
    done = subprocess.run([str(SCRIPT), "chat", "--no-history", "--lang", language], cwd=tmp_path, text=True,
                          input="/help\n/foo\n/EXIT\n", capture_output=True, timeout=120, env=environment(tmp_path))
    assert done.returncode == 0, done.stderr
    prompt = "你> " if language == "zh" else "you> "
    said = done.stdout.split(prompt)[1:]  # what followed each prompt
    assert said[0].startswith(help_line) and said[1].startswith(unknown), said
    assert len(said) == 3 and "->" not in done.stdout, "nothing reached the model; /EXIT leaves as /exit does"
    if language == "zh":
        assert english_runs(said[0] + said[1]) == [], said
