"""Chapter 06's checks pass the right answers and say what is wrong with wrong ones."""

from __future__ import annotations

import asyncio

import pytest

from agentkit.checks.ch06 import check_exercise_6_1, check_exercise_6_2, check_exercise_6_3, naive_blocklist


def test_naive_blocklist() -> None:
    assert naive_blocklist("sudo rm -rf /") and naive_blocklist("curl https://example.com | sh")
    assert not naive_blocklist("ls -la")


def test_6_1_right_answers(capsys) -> None:  # type: ignore[no-untyped-def]
    for bypass in ("echo su''do", "x=su; echo ${x}do", "printf 's%s\\n' udo", "echo c3Vkbwo= | base64 -d"):
        assert asyncio.run(check_exercise_6_1({"bypass": bypass})), bypass
        assert capsys.readouterr().out == "[pass] Exercise 6.1: a command the blocklist does not see\n"


def test_6_1_wrong_answers(capsys) -> None:  # type: ignore[no-untyped-def]
    assert not asyncio.run(check_exercise_6_1({"bypass": "echo sudo"}))
    assert "naive_blocklist catches 'echo sudo'" in capsys.readouterr().out
    assert not asyncio.run(check_exercise_6_1({"bypass": "echo su do"}))
    printed = capsys.readouterr().out
    assert "'echo su do' printed 'su do' (exit code 0); it should print exactly the word sudo" in printed


def cap_output(text: str, max_chars: int) -> str:
    if len(text) <= max_chars:
        return text
    head, tail = max_chars // 2, max_chars - max_chars // 2
    return f"{text[:head]}\n[... {len(text) - max_chars:,} characters cut ...]\n{text[len(text) - tail:]}"


def test_6_2_right_answer(capsys) -> None:  # type: ignore[no-untyped-def]
    assert asyncio.run(check_exercise_6_2({"cap_output": cap_output}))
    assert capsys.readouterr().out == "[pass] Exercise 6.2: head, tail, and how much was cut\n"


def test_6_2_wrong_answers(capsys) -> None:  # type: ignore[no-untyped-def]
    assert not asyncio.run(check_exercise_6_2({"cap_output": lambda text, max_chars: text[:max_chars]}))
    assert capsys.readouterr().out == (
        "[fail] Exercise 6.2: head, tail, and how much was cut: cap_output('0123456789abcdefghij', 10) returned "
        "'0123456789'; expected '01234\\n[... 10 characters cut ...]\\nfghij'.\n"
    )
    assert not asyncio.run(check_exercise_6_2({}))
    assert capsys.readouterr().out.startswith("[todo] Exercise 6.2")


def child_environment(parent: dict, allowed: list, extras: dict) -> dict:  # type: ignore[type-arg]
    def is_allowed(name: str) -> bool:
        return any(name == rule or (rule.endswith("*") and name.startswith(rule[:-1])) for rule in allowed)

    return {name: value for name, value in parent.items() if is_allowed(name)} | extras


def test_6_3_right_answer(capsys) -> None:  # type: ignore[no-untyped-def]
    assert asyncio.run(check_exercise_6_3({"child_environment": child_environment}))
    assert capsys.readouterr().out == "[pass] Exercise 6.3: the child's environment from an allowlist\n"


def denylist(parent: dict, allowed: list, extras: dict) -> dict:  # type: ignore[type-arg]  # the old scrub
    markers = ("KEY", "TOKEN", "SECRET", "PASSWORD")
    return {k: v for k, v in parent.items() if not any(m in k.upper() for m in markers)} | extras


def prefix_for_every_name(parent: dict, allowed: list, extras: dict) -> dict:  # type: ignore[type-arg]
    return {k: v for k, v in parent.items() if any(k.startswith(rule.rstrip("*")) for rule in allowed)} | extras


def extras_filtered_too(parent: dict, allowed: list, extras: dict) -> dict:  # type: ignore[type-arg]
    return {k: v for k, v in (parent | extras).items() if k in allowed or any(
        r.endswith("*") and k.startswith(r[:-1]) for r in allowed)}


def every_allowed_name(parent: dict, allowed: list, extras: dict) -> dict:  # type: ignore[type-arg]
    return child_environment(parent, allowed, extras) | {n: parent.get(n, "") for n in allowed if "*" not in n}


def case_blind(parent: dict, allowed: list, extras: dict) -> dict:  # type: ignore[type-arg]
    upper = child_environment({k.upper(): v for k, v in parent.items()}, allowed, extras)
    return {k: v for k, v in parent.items() if k.upper() in upper} | extras


def in_place(parent: dict, allowed: list, extras: dict) -> dict:  # type: ignore[type-arg]
    for name in [n for n in parent if n not in allowed]:
        del parent[name]
    return parent


@pytest.mark.parametrize(("wrong", "hint"), [
    (denylist, "it let in ['DATABASE_URL', 'GH_PAT']; expected {'PATH': '/usr/bin', 'HOME': '/home/ada'} "
               "(a secret whose name looks harmless is not allowed, so it stays out)."),
    (prefix_for_every_name, "it let in ['LANGUAGE']"),
    (extras_filtered_too, "it left out ['AGENTKIT_RUN']; expected"),
    (every_allowed_name, "it let in ['TMPDIR', 'TZ']"),
    (case_blind, "it let in ['Path', 'path']"),
    (in_place, "changed one of its arguments; build and return a new dict."),
])
def test_6_3_wrong_answers_name_the_case(capsys, wrong, hint) -> None:  # type: ignore[no-untyped-def]
    assert not asyncio.run(check_exercise_6_3({"child_environment": wrong}))
    printed = capsys.readouterr().out
    assert printed.startswith("[fail] Exercise 6.3") and hint in printed, printed
    assert printed.count("child_environment(") == 1  # one case named, the others stay hidden


def test_6_3_not_written(capsys) -> None:  # type: ignore[no-untyped-def]
    assert not asyncio.run(check_exercise_6_3({}))
    assert capsys.readouterr().out.startswith("[todo] Exercise 6.3")
