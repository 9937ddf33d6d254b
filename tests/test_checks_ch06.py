"""Chapter 06's checks pass the right answers and say what is wrong with wrong ones."""

from __future__ import annotations

import asyncio

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


def scrub(environ: dict) -> dict:  # type: ignore[type-arg]
    return {k: v for k, v in environ.items() if not any(m in k.upper() for m in ("KEY", "TOKEN", "SECRET", "PASSWORD"))}


def test_6_3_right_answer(capsys) -> None:  # type: ignore[no-untyped-def]
    assert asyncio.run(check_exercise_6_3({"scrub": scrub}))
    assert capsys.readouterr().out == "[pass] Exercise 6.3: no secrets in the child's environment\n"


def test_6_3_wrong_answers(capsys) -> None:  # type: ignore[no-untyped-def]
    def case_sensitive(environ: dict) -> dict:  # type: ignore[type-arg]
        return {k: v for k, v in environ.items() if "KEY" not in k and "TOKEN" not in k}

    assert not asyncio.run(check_exercise_6_3({"scrub": case_sensitive}))
    assert "scrub kept ['DB_Password', 'github_token']; drop every name containing KEY" in capsys.readouterr().out

    def in_place(environ: dict) -> dict:  # type: ignore[type-arg]
        environ.pop("MODEL_API_KEY")
        return environ

    assert not asyncio.run(check_exercise_6_3({"scrub": in_place}))
    assert "scrub changed the dict it was given" in capsys.readouterr().out
