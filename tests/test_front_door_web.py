"""`agentkit web` run as a reader runs it: the page behind its token, one line at Ctrl-C even mid-turn, and what
the page is sent for the person (a declined call's line, a confirmation's hidden characters marked)."""

from __future__ import annotations

import json
import re
import signal
from pathlib import Path

import httpx
import pytest
from front_door import (
    Running,
    exercises,
    no_process_left,  # noqa: F401 (a fixture: nothing left running)
    processes_with,
    wait_until,
)


def start_web(tmp_path) -> tuple[Running, str, str]:
    """`agentkit web` on a free port; the process, its address and its token."""
    web = Running("web", "--port", "0", cwd=tmp_path)
    address, token = re.search(r"(http://127\.0\.0\.1:\d+)/\?token=(\S+)", web.line_with("agentkit web: open")).groups()
    return web, address, token


def turn(address: str, token: str, message: str):
    """POST /chat and yield its events; the stream stays open while the generator is not closed (a page that
    went away would stop the turn)."""
    headers = {"authorization": f"Bearer {token}"}
    with httpx.stream("POST", f"{address}/chat", json={"conversation": "c1", "message": message},
                      headers=headers, timeout=60) as response:
        assert response.status_code == 200
        for line in response.iter_lines():
            yield json.loads(line)


def until(events, kind: str) -> list[dict]:
    """The events up to the first of `kind`, the stream left open."""
    seen = []
    for event in events:
        seen.append(event)
        if event["kind"] == kind:
            return seen
    raise AssertionError(f"no {kind} event: {seen}")


def answer(address: str, token: str, event: dict, reply: str) -> None:
    sent = httpx.post(f"{address}/answer", json={"conversation": "c1", "question": event["id"], "answer": reply},
                      headers={"authorization": f"Bearer {token}"}, timeout=30)
    assert sent.status_code == 200, sent.text


@exercises("web")
def test_web_serves_its_page_only_with_its_token_and_ends_on_ctrl_c(tmp_path):
    web, address, token = start_web(tmp_path)
    page = httpx.get(f"{address}/?token={token}", timeout=30)
    assert page.status_code == 200 and "<title>agentkit chat</title>" in page.text
    assert httpx.get(f"{address}/", timeout=30).status_code == 401
    assert httpx.get(f"{address}/?token=not-{token}", timeout=30).status_code == 401
    assert web.end(signal.SIGINT) == (130, "agentkit web: stopped (Ctrl-C)\n")


def test_web_started_with_ctrl_c_ignored_keeps_ignoring_it_and_ends_on_sigterm_with_its_line(tmp_path):
    """A script's `agentkit web &` ignores Ctrl-C, as Python and `agentkit chat` do: uvicorn, which catches it
    anyway, would stop and pass it on to the ignoring handler (exit 0, no line). SIGTERM still ends it."""
    web = Running("web", "--port", "0", cwd=tmp_path, ctrl_c=False)
    address = re.search(r"http://127\.0\.0\.1:\d+", web.line_with("agentkit web: open")).group()
    web.process.send_signal(signal.SIGINT)
    assert httpx.get(f"{address}/", timeout=30).status_code == 401, "still serving after the ignored Ctrl-C"
    assert web.end(signal.SIGTERM) == (130, "agentkit web: stopped (SIGTERM)\n")


def test_web_ends_cleanly_with_a_confirmation_pending(tmp_path):
    web, address, token = start_web(tmp_path)
    events = turn(address, token, 'Run the bash command "touch never.txt"')
    until(events, "confirm")
    status, stderr = web.end(signal.SIGINT)
    assert (status, stderr) == (130, "agentkit web: stopped (Ctrl-C)\n")
    assert not (tmp_path / "workspace" / "never.txt").exists()


def test_sigterm_while_a_command_runs_kills_it_and_ends_web_with_one_line(tmp_path, marker):
    web, address, token = start_web(tmp_path)
    events = turn(address, token, f'Run the bash command "sleep {marker}"')
    *_, confirm = until(events, "confirm")
    answer(address, token, confirm, "y")
    assert wait_until(lambda: processes_with(marker)), "the approved command should be running"
    status, stderr = web.end(signal.SIGTERM)
    assert (status, stderr) == (130, "agentkit web: stopped (SIGTERM)\n")
    assert wait_until(lambda: not processes_with(marker), within=5), "no command is left running"


def test_the_page_is_sent_a_line_for_the_person_and_marked_hidden_characters(tmp_path):
    web, address, token = start_web(tmp_path)
    events = turn(address, token, 'Write "a\u202eb" to the file notes.txt')
    *_, confirm = until(events, "confirm")
    assert "<U+202E>" in confirm["text"] and "\u202e" not in confirm["text"], "marked where the event is made"
    assert "\u202e" in confirm["raw"] and confirm["hidden"] == 1, confirm
    assert (confirm["tool"], json.loads(confirm["arguments"])) == ("write_file", {"path": "notes.txt",
                                                                                 "content": "a\u202eb"})
    answer(address, token, confirm, "n")
    (result,) = [event for event in until(events, "status") if event["kind"] == "tool_result"]
    assert result["shown"] == "You declined: write_file notes.txt", result
    assert "did not allow" in result["content"], "the model still reads the sentence written for it"
    assert web.end(signal.SIGINT)[0] == 130


def test_the_page_says_the_connection_is_lost_when_the_server_stops_mid_turn(tmp_path):
    """Ctrl-C on `agentkit web` while the page waits for Approve: the page says the connection was lost (not that it
    cancelled anything), its header stops saying "ready", and neither button claims a decision."""
    from playwright.sync_api import expect, sync_playwright
    from test_web import BROWSER_ARGS, CHROMIUM, WAIT

    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium); .ci/run installs it")
    web, address, token = start_web(tmp_path)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS, timeout=WAIT * 1000)
        page = browser.new_page()
        page.set_default_timeout(WAIT * 3000)
        page.goto(f"{address}/?token={token}")
        page.fill("#message", 'Run the bash command "touch never.txt"')
        page.press("#message", "Enter")
        expect(page.locator(".ask.confirm button.approve")).to_be_enabled()
        assert web.end(signal.SIGINT) == (130, "agentkit web: stopped (Ctrl-C)\n")
        lost = page.locator(".status.error")
        expect(lost).to_contain_text("connection lost")
        expect(lost).to_contain_text("start `agentkit web` again")
        expect(page.locator("#state")).to_have_text("disconnected")
        expect(page.locator(".ask.confirm .note")).to_have_text("the turn has ended")
        expect(page.locator(".ask.confirm button.chosen")).to_have_count(0)
        assert "cancelled" not in page.locator("#log").inner_text()
        page.fill("#message", "Are you there?")  # the server is gone: a new turn cannot reach it either
        page.press("#message", "Enter")
        expect(lost.nth(1)).to_contain_text("connection lost")
        expect(page.locator("#state")).to_have_text("disconnected")
        browser.close()
    assert not (tmp_path / "workspace" / "never.txt").exists()
