"""The agent loop behind a small FastAPI app: one endpoint streams a chat turn, one takes the person's answers.

    GET  /        the chat page (page.html, one file, no external assets)
    POST /chat    {"conversation", "message"} -> one JSON event a line (NDJSON), as they happen:
                  tool_call, tool_result, confirm, question, answer, status
    POST /answer  {"question", "answer"}: the reply to a confirm or question event

A tool that needs confirmation, or the model's `ask_user`, makes this turn's `Ask` send a `confirm` or
`question` event with a fresh id and wait until the page posts the answer for that id. The page answers
a confirmation with its Approve ("y") or Deny ("n") button, a question from its text box; `/cancel`
stops the task. Each conversation keeps its `Task`, so the model sees the whole conversation.

Each line of the stream is a `loop.Event` with all its fields, or `{"kind", "id", "text"}` for a
confirm or question. The app answers only requests to 127.0.0.1 and takes only JSON bodies, which a
page from another site cannot send without the browser asking this server first.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import AsyncIterator
from dataclasses import asdict
from pathlib import Path

import openai
import uvicorn
from fastapi import FastAPI, HTTPException
from fastapi.responses import HTMLResponse, StreamingResponse
from pydantic import BaseModel, Field
from starlette.middleware.trustedhost import TrustedHostMiddleware

from agentkit.chat import chat_tools, open_workspace
from agentkit.config import Settings, connect, load_settings
from agentkit.loop import Task, run_task
from agentkit.policy import Ask, ToolPolicy
from agentkit.tools.workspace import Workspace

PAGE = Path(__file__).with_name("page.html")
HOST = "127.0.0.1"
LOCAL_NAMES = [HOST, "localhost"]
"""Host headers the app answers; any other name reaching it (DNS rebinding from a web page) is refused."""


class Turn(BaseModel):
    """One message from the page."""

    conversation: str = Field(min_length=1, max_length=64)
    """The page's conversation id: turns with the same id continue the same task."""
    message: str = Field(min_length=1)
    """What the person typed."""


class Answer(BaseModel):
    """The person's reply to a confirm or question event."""

    question: str
    """The event's id."""
    answer: str
    """"y" or "n" from the buttons, the text box's text, or /cancel."""


def create_app(client: openai.AsyncOpenAI, model: str, workspace: Workspace, *,
               policy: ToolPolicy = ToolPolicy()) -> FastAPI:
    """The app for one model and one workspace. Nothing starts until a server (uvicorn) runs it."""
    # No API docs pages: they would load scripts from a CDN, and the page is the interface.
    app = FastAPI(title="agentkit chat", docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=LOCAL_NAMES)
    tasks: dict[str, Task] = {}
    running: dict[str, asyncio.Task] = {}
    waiting: dict[str, asyncio.Future[str]] = {}

    def asker(kind: str, events: asyncio.Queue) -> Ask:
        async def ask(question: str) -> str:
            key = secrets.token_urlsafe(12)  # unguessable: only the page that got the event can answer it
            waiting[key] = asyncio.get_running_loop().create_future()
            events.put_nowait({"kind": kind, "id": key, "text": question})
            try:
                return await waiting[key]
            finally:
                waiting.pop(key, None)

        return ask

    async def turn_events(turn: Turn) -> AsyncIterator[str]:
        events: asyncio.Queue[dict | None] = asyncio.Queue()

        # Made here rather than by run_task, so that a turn stopped halfway still leaves its messages to continue.
        task = tasks.setdefault(turn.conversation, Task(turn.message))

        async def work() -> None:
            try:
                await run_task(client, model, turn.message, chat_tools(workspace, asker("question", events)),
                               policy=policy, ask=asker("confirm", events),
                               on_event=lambda e: events.put_nowait(asdict(e)), task=task)
            finally:
                events.put_nowait(None)

        runner = running[turn.conversation] = asyncio.create_task(work())
        try:
            while (event := await events.get()) is not None:
                yield json.dumps(event, ensure_ascii=False) + "\n"
            await runner  # a bug in the loop is raised here, into the server's log
        finally:
            runner.cancel()  # the page went away mid-turn: stop the task rather than leave it waiting

    @app.get("/")
    async def page() -> HTMLResponse:
        return HTMLResponse(PAGE.read_text(encoding="utf-8"))

    @app.post("/chat")
    async def chat(turn: Turn) -> StreamingResponse:
        runner = running.get(turn.conversation)
        if runner is not None and not runner.done():
            raise HTTPException(409, "this conversation is still working on a turn: answer or /cancel it first")
        return StreamingResponse(turn_events(turn), media_type="application/x-ndjson")

    @app.post("/answer")
    async def answer(reply: Answer) -> dict[str, str]:
        future = waiting.get(reply.question)
        if future is None or future.done():
            raise HTTPException(404, f"no question {reply.question!r} is waiting: it was answered already, or its turn ended")
        future.set_result(reply.answer)
        return {"answered": reply.question}

    return app


def serve(port: int = 8001, workspace: str | None = None, settings: Settings | None = None) -> None:
    """`agentkit web`: the app on 127.0.0.1 only, offline unless `.env` (or `settings`) names a model."""
    settings = settings or load_settings()
    folder = open_workspace(workspace)
    app = create_app(connect(settings), settings.model, folder)
    print(f"agentkit web: open http://{HOST}:{port}/ (model {settings.model}, workspace {folder.root}). "
          "Ctrl-C stops it.", flush=True)
    # A turn waiting for Approve would hold Ctrl-C up forever: give open turns a second, then stop them.
    uvicorn.run(app, host=HOST, port=port, log_level="warning", timeout_graceful_shutdown=1)
