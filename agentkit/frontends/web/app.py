"""The agent loop behind a small FastAPI app: one endpoint streams a chat turn, one takes the person's answers.

    GET  /        the chat page (page.html, one file, no external assets)
    GET  /system-prompt  {"system_prompt"}: what the agent is told first, shown by the page on request
    POST /chat    {"conversation", "message"} -> one JSON event a line (NDJSON), as they happen:
                  tool_call, tool_result, confirm, question, answer, status, and text (a streamed piece)
    POST /answer  {"conversation", "question", "answer"}: the reply to a confirm or question event
    POST /cancel  {"conversation"}: stop its turn now, even while a tool runs (a command is killed)
    GET  /favicon.ico  204, the one answer without the token (the browser asks for it on its own)

A tool that needs confirmation, or the model's `ask_user`, makes this turn's `Ask` send a `confirm` or
`question` event with a fresh id and wait until the page posts the answer for that id. The page answers
a confirmation with its Approve ("y") or Deny ("n") button, a question from its text box; `/cancel` as
the answer, or the Stop button (POST /cancel), stops the task. Each conversation keeps its `Task`, so the
model sees the whole conversation, and a turn stopped from outside (Stop, or the page going away) leaves
that task valid to go on.

Each line of the stream is a `loop.Event` with all its fields (a tool_call's `recovered`: read back out
of the text the model streamed), or a confirm or question (`protocol.asking`: its text marked for display); a turn that
breaks on a bug ends with a `failed` status, and its conversation goes on. When the server stops (Ctrl-C),
each turn is stopped and its stream ends with no status: the page says the connection is lost.
A conversation runs one turn at a time (another turn posted meanwhile gets 409); messages longer than
`Limits.max_message_chars` get 413; the app keeps at most `Limits.max_conversations` conversations.

The app answers only requests to 127.0.0.1, carrying the token of this launch (`agentkit web` prints the
address with it), and takes only JSON bodies, which a page from another site cannot send without the
browser asking this server first.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator, Callable, Coroutine
from contextvars import ContextVar
from pathlib import Path

import openai
from fastapi import FastAPI, HTTPException, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.background import BackgroundTask
from starlette.middleware.trustedhost import TrustedHostMiddleware

from agentkit.agent import POLICY, agent_tools
from agentkit.agent import system_prompt as default_system_prompt
from agentkit.asking import Ask, Question
from agentkit.events import CallAnswered, CallEvent, Event, Note, Status, finish
from agentkit.frontends.messages import PERSON_LANGUAGE, for_the_person, note_for_the_person, say, why_it_stopped
from agentkit.frontends.own_agent import Tools
from agentkit.frontends.web.conversations import Conversation, Conversations, stop_once, without_lone_surrogates
from agentkit.frontends.web.guards import JSON_BYTES_PER_CHAR, LOCAL_NAMES, BodyLimit, TokenCheck
from agentkit.frontends.web.protocol import Answer, AskKind, Stop, Turn, asking, event_fields, json_line, page_in
from agentkit.loop import run_task, stop_interrupted
from agentkit.policy import ToolPolicy
from agentkit.recovery import RECOVERED
from agentkit.task import Task
from agentkit.tools.workspace import Workspace

PAGE = Path(__file__).with_name("page.html")
log = logging.getLogger(__name__)

def create_app(client: openai.AsyncOpenAI, model: str, workspace: Workspace, *, token: str,
               policy: ToolPolicy = POLICY, system_prompt: str | None = None, stream: bool = False,
               tools: Tools | None = None, language: str = "en") -> FastAPI:
    """The app for one model and one workspace. Nothing starts until a server (uvicorn) runs it.

    Every request must carry `token` (see `guards.TokenCheck`): `agentkit web` makes a new one each launch.

    `system_prompt` starts every conversation: `agentkit.agent`'s default for this workspace unless given.
    With `stream=True` (as `agentkit web` runs it) the model's replies are streamed: `text` events carry
    each new piece of text as it is written, and the page shows it at once.
    `tools` makes your registry for the workspace (`agentkit web --tools module:function`): the course's agent otherwise.
    `language` ("en" or "zh", `agentkit web --lang`): the page's own words, a confirmation's, a declined call's line.
    """
    system_prompt = default_system_prompt(workspace.root) if system_prompt is None else system_prompt
    # No API docs pages: they would load scripts from a CDN, and the page is the interface.
    app = FastAPI(title="agentkit chat", docs_url=None, redoc_url=None, openapi_url=None)
    stream_replies = stream  # the name `stream` is taken below, by the function that sends the events
    limits = policy.limits
    # The last added runs first: the Host, then the token, then the body's size, then the routes.
    app.add_middleware(BodyLimit, max_bytes=limits.max_message_chars * JSON_BYTES_PER_CHAR + 4096)
    TokenCheck.check(token)
    app.add_middleware(TokenCheck, token=token)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=LOCAL_NAMES)
    conversations = Conversations(limits.max_conversations)
    app.state.stop_all_turns = conversations.stop_all  # for the server stopping: see `agentkit.frontends.web.launch`
    waiting: dict[tuple[str, str], asyncio.Future[str]] = {}  # by (conversation, event id)

    # Built once, not at every turn: `ask_user` asks the person of the turn that calls it, through a context
    # variable each turn sets (a turn is an asyncio task of its own, so each sees only its own value).
    this_turns_question: ContextVar[Ask] = ContextVar("this_turns_question")
    # Made once, not at every turn; a registry of your own (--tools) fails here, at launch, if it is broken.
    registry = tools(workspace) if tools else agent_tools(workspace, lambda question: this_turns_question.get()(question))

    def asker(kind: AskKind, events: asyncio.Queue, conversation: str) -> Ask:
        async def ask(question: Question) -> str:
            key = conversation, secrets.token_urlsafe(12)  # unguessable: only the page that got the event can answer
            waiting[key] = asyncio.get_running_loop().create_future()
            events.put_nowait(asking(kind, key[1], question, language))
            try:
                return await waiting[key]
            finally:
                waiting.pop(key, None)

        return ask

    def work_on(key: str, message: str, events: asyncio.Queue[dict | None]) -> Callable[[Conversation], Coroutine]:
        def show(event: Event, task: Task) -> None:
            if event.kind in ("usage", "confirm"):  # nothing to show: the page's own confirm event asks the question
                return
            # The event's message is in the history by now: a lone surrogate (a file name's invalid bytes)
            # must go before the next model request, which could not encode it and would fail every turn after.
            task.messages[:] = without_lone_surrogates(task.messages)
            shown = (for_the_person(event.decision, event.arguments) if isinstance(event, CallAnswered)
                     else why_it_stopped(event.error, language) if isinstance(event, Status) and event.error
                     else note_for_the_person(event.text, language) if isinstance(event, Note) else "")
            recovered = isinstance(event, CallEvent) and event.call_id.startswith(RECOVERED)
            events.put_nowait(event_fields(event, shown) | {"recovered": recovered})

        async def work(conversation: Conversation) -> None:
            this_turns_question.set(asker("question", events, key))
            PERSON_LANGUAGE.set(language)  # the line for a call that did not run (a turn is a task of its own)
            try:
                await finish(run_task(client, model, message, registry, policy=policy, ask=asker("confirm", events, key),
                                      system_prompt=system_prompt, task=conversation.task, stream=stream_replies),
                             lambda event: show(event, conversation.task))
            except asyncio.CancelledError:  # Stop, the page went away, or the server is stopping: its history stays valid
                if conversations.server_stopping:  # no status: the stream just ends, and the page says the connection is lost
                    stop_interrupted(conversation.task, "the server was stopped")
                    return
                show(stop_interrupted(conversation.task, "the page's Stop button"), conversation.task)

        return work

    async def stream(events: asyncio.Queue[dict | None], running: asyncio.Task) -> AsyncIterator[str]:
        try:
            # Every event waiting goes in one chunk: one write to the socket per wait, so a page gone mid-stream is
            # noticed before the next write, not after a burst of writes to a closed socket (asyncio would log each).
            batch: list[dict | None] = []
            while not batch or batch[-1] is not None:  # None: the turn is done, however it ended
                batch = [await events.get()]
                while batch[-1] is not None and not events.empty():
                    batch.append(events.get_nowait())
                if lines := "".join(json_line(event) for event in batch if event is not None):
                    yield lines
            if running.cancelled():  # stopped before its first step, so it could not say so itself
                yield json_line({"kind": "status", "text": "cancelled", "content": "cancelled before it started",
                                 "shown": say("stopped before it started", language)})
            elif error := running.exception():  # a bug in the loop or a tool: into the log, and the page is told
                log.error("a turn failed", exc_info=error)
                detail = f"{type(error).__name__}: {error}"
                yield json_line({"kind": "status", "text": "failed", "shown": say("stopped internal error", language,
                                 detail=detail), "content": f"internal error: {detail} (see the server's log)"})
        finally:
            stop_once(running)  # the page went away mid-turn: stop the task rather than leave it waiting

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        # The default answer echoes the input, which may hold a lone surrogate ("\udcff" in the JSON): unsendable.
        return JSONResponse({"detail": without_lone_surrogates(jsonable_encoder(error.errors()))}, 422)

    @app.get("/")
    async def page() -> HTMLResponse:
        return HTMLResponse(page_in(PAGE.read_text(encoding="utf-8"), language))

    @app.get("/favicon.ico")
    async def no_icon() -> Response:  # asked for by the browser itself, without the token (guards.PUBLIC)
        return Response(status_code=204)

    @app.get("/system-prompt")
    async def shown_system_prompt() -> dict[str, str]:
        return {"system_prompt": system_prompt}

    @app.post("/chat")
    async def chat(turn: Turn) -> StreamingResponse:
        if len(turn.message) > limits.max_message_chars:
            raise HTTPException(413, f"the message has {len(turn.message):,} characters; this server takes at "
                                     f"most {limits.max_message_chars:,} (Limits.max_message_chars): send a shorter "
                                     "one, or raise the limit: create_app(..., policy=ToolPolicy(limits="
                                     "Limits(max_message_chars=...)))")
        events: asyncio.Queue[dict | None] = asyncio.Queue()
        work = work_on(turn.conversation, turn.message, events)
        running = conversations.start_turn(turn.conversation, turn.message, work).turn
        running.add_done_callback(lambda _: events.put_nowait(None))  # even if it is cancelled before it starts
        # If the stream never starts (the page left at once), the background task still stops the turn.
        return StreamingResponse(stream(events, running), media_type="application/x-ndjson",
                                 background=BackgroundTask(stop_once, running))

    @app.post("/answer")
    async def answer(reply: Answer) -> dict[str, str]:
        future = waiting.get((reply.conversation, reply.question))
        if future is None or future.done():
            raise HTTPException(404, f"no question {reply.question!r} is waiting in conversation "
                                     f"{reply.conversation!r}: it was answered already, its turn ended, or it was "
                                     "asked in another conversation")
        future.set_result(reply.answer)
        return {"answered": reply.question}

    @app.post("/cancel")
    async def cancel(stop: Stop) -> dict[str, str]:
        conversations.stop_turn(stop.conversation)
        return {"cancelled": stop.conversation}

    return app
