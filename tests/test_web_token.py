"""The web app's per-launch token: without it, with a wrong one, or with it in the wrong place, every route is
refused before it runs; with it, the page works end to end in a real browser."""

import json
import re
import secrets
import tempfile

import pytest
import uvicorn
from fastapi.testclient import TestClient
from playwright.sync_api import expect
from test_web import AUTHORIZATION, TOKEN, Stream, browser, page, post, send, serving  # noqa: F401 - fixtures

from agentkit.frontends.web.app import create_app
from agentkit.frontends.web.guards import PUBLIC
from agentkit.offline import OfflineModel, ScriptedModel, offline_client
from agentkit.tools.workspace import Workspace

REFUSED = ("this server needs the token that `agentkit web` printed when it started: open the address it printed, "
           "http://127.0.0.1:<port>/?token=<token>; a script sends the header 'Authorization: Bearer <token>'")


def built(folder, model=None):
    return create_app(offline_client(model or OfflineModel()), "offline", Workspace(folder), token=TOKEN)


def every_route() -> list[tuple[str, str]]:
    """(method, path) of every route the app has: a route added later is tested without a change here."""
    with tempfile.TemporaryDirectory() as folder:
        app = built(folder)
    return sorted((method, route.path) for route in app.routes for method in route.methods - {"HEAD"})


ROUTES = every_route()
WRONG_PLACES = {  # how a request tries to pass the token: headers, query, and whether a JSON body holds it
    "no token": ({}, "", False),
    "a wrong token": ({"authorization": "Bearer " + secrets.token_urlsafe()}, "", False),
    "the token cut short": ({"authorization": f"Bearer {TOKEN[:-1]}"}, "", False),
    "the token and more": ({"authorization": f"Bearer {TOKEN}x"}, "", False),
    "an empty token": ({"authorization": "Bearer "}, "", False),
    "another scheme": ({"authorization": f"Basic {TOKEN}"}, "", False),
    "a cookie": ({"cookie": f"token={TOKEN}"}, "", False),
    "another header": ({"x-token": TOKEN}, "", False),
    "the body": ({}, "", True),
    "the query of an API route": ({}, f"?token={TOKEN}", False),
    "a wrong query token": ({}, "?token=guess", False),
}


def test_the_routes_found_are_the_apps_routes():
    assert {("GET", "/"), ("GET", "/system-prompt"), ("POST", "/chat"), ("POST", "/answer")} <= set(ROUTES)


REFUSED_REQUESTS = [(method, path, place) for method, path in [*ROUTES, ("GET", "/no-such-route"), ("POST", "/x")]
                    for place in WRONG_PLACES  # the page's own address is where the query token belongs:
                    if (method, path, place) != ("GET", "/", "the query of an API route") and (method, path) not in PUBLIC]


def test_only_what_a_browser_asks_for_by_itself_answers_without_the_token_and_it_reveals_nothing(tmp_path):
    assert PUBLIC == {("GET", "/favicon.ico")}
    with TestClient(built(tmp_path), base_url="http://127.0.0.1") as client:
        for method, path in PUBLIC:
            reply = client.request(method, path)
            assert (reply.status_code, reply.content) == (204, b"")
        assert client.post("/favicon.ico").status_code == 401, "another method on the same path still needs the token"


@pytest.mark.parametrize("method, path, place", REFUSED_REQUESTS)
def test_every_route_refuses_a_request_without_the_token_in_its_place(tmp_path, method, path, place):
    headers, query, in_body = WRONG_PLACES[place]
    model = ScriptedModel(["should never be asked"])
    body = {"conversation": "c", "message": "hi", "question": "q", "answer": "y", **({"token": TOKEN} if in_body else {})}
    with TestClient(built(tmp_path, model), base_url="http://127.0.0.1") as client:
        reply = client.request(method, path + query, headers=headers, json=body if method == "POST" else None)
    assert reply.status_code == 401, reply.text
    assert reply.json() == {"detail": REFUSED} and reply.headers["www-authenticate"] == "Bearer"
    assert model.requests == [], "nothing ran"


@pytest.mark.parametrize("method, path", ROUTES)
def test_every_route_answers_with_the_token_in_the_header(tmp_path, method, path):
    with TestClient(built(tmp_path), base_url="http://127.0.0.1") as client:
        reply = client.request(method, path, headers=AUTHORIZATION,
                               json={"conversation": "c", "message": "hi"} if method == "POST" else None)
    assert reply.status_code != 401


def test_the_page_opens_with_the_token_in_its_address_and_only_there(tmp_path):
    with TestClient(built(tmp_path), base_url="http://127.0.0.1") as client:
        assert client.get(f"/?token={TOKEN}").status_code == 200
        assert client.get(f"/?token={TOKEN}&token=guess").status_code == 401  # which one would count?
        assert client.get(f"/system-prompt?token={TOKEN}").status_code == 401
        assert client.post(f"/?token={TOKEN}", json={}).status_code == 401


def test_the_host_check_still_comes_first(tmp_path):
    with serving(OfflineModel(), tmp_path) as port:
        status, body = post(port, "/chat", {"conversation": "c", "message": "hi"}, {"host": "attacker.example"})
    assert (status, body) == (400, "Invalid host header")


def test_a_short_token_is_refused_when_the_app_is_made(tmp_path):
    with pytest.raises(ValueError, match="the token has 6 characters; it needs at least 16, so that it cannot be "
                                         "guessed: use secrets.token_urlsafe"):
        create_app(offline_client(OfflineModel()), "offline", Workspace(tmp_path), token="secret")


def test_agentkit_web_prints_a_new_token_each_launch_and_its_app_wants_it(tmp_path, monkeypatch, capsys):
    from agentkit.frontends.cli import main

    started = []

    def run(server, sockets):  # uvicorn's server, stopped before it starts: the app and the socket are kept
        started.append(server.config.app)
        sockets[0].close()

    monkeypatch.setattr(uvicorn.Server, "run", run)
    for name in ("MODEL_API_KEY", "BASE_URL", "MODEL"):
        monkeypatch.setenv(name, "")
    tokens = []
    for _ in range(2):
        main(["web", "--port", "0", "--workspace", str(tmp_path)])  # 0: any free port, shown in the address
        printed = capsys.readouterr().out
        tokens.append(re.match(r"agentkit web: open http://127\.0\.0\.1:\d+/\?token=([\w-]{43}) \(model offline, ",
                               printed).group(1))
    assert tokens[0] != tokens[1]
    with TestClient(started[1], base_url="http://127.0.0.1") as client:
        assert client.get("/system-prompt").status_code == 401
        assert client.get("/system-prompt", headers={"authorization": f"Bearer {tokens[0]}"}).status_code == 401
        assert client.get("/system-prompt", headers={"authorization": f"Bearer {tokens[1]}"}).status_code == 200
        assert client.get(f"/?token={tokens[1]}").status_code == 200


def test_a_page_opened_without_the_token_shows_why_and_runs_nothing(tmp_path, page):  # noqa: F811
    model = ScriptedModel(["should never be asked"])
    with serving(model, tmp_path) as port:
        page.goto(f"http://127.0.0.1:{port}/")
        assert json.loads(page.locator("body").inner_text()) == {"detail": REFUSED}
        page.goto(f"http://127.0.0.1:{port}/?token=guess")
        assert json.loads(page.locator("body").inner_text()) == {"detail": REFUSED}
    assert model.requests == []


def test_the_page_sends_its_token_with_every_request(tmp_path, page):  # noqa: F811
    with serving(OfflineModel(), tmp_path) as port:
        sent = []
        page.on("request", lambda request: sent.append((request.url, request.headers.get("authorization"))))
        send(page, port, 'Ask me a question: "What is your name?"')
        page.locator(".ask.question input.answer-text").fill("Ada")
        page.locator(".ask.question input.answer-text").press("Enter")
        expect(page.locator(".answer")).to_have_text("You answered: Ada.")
        page.click("#system-prompt summary")
        expect(page.locator("#system-prompt pre")).not_to_be_empty()
    paths = [url.split(str(port), 1)[1] for url, _ in sent]
    assert paths == [f"/?token={TOKEN}", "/chat", "/answer", "/system-prompt"]
    assert [header for _, header in sent[1:]] == [f"Bearer {TOKEN}"] * 3


def test_a_websocket_without_the_token_is_closed_before_any_route(tmp_path):
    from starlette.websockets import WebSocket, WebSocketDisconnect

    app = built(tmp_path)

    @app.websocket("/live")  # a route someone might add later
    async def live(socket: WebSocket):
        await socket.accept()
        await socket.send_text("secret")

    with TestClient(app, base_url="http://127.0.0.1") as client:
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect("ws://127.0.0.1/live") as socket:
            socket.receive_text()
        assert closed.value.code == 1008  # policy violation
        with client.websocket_connect("ws://127.0.0.1/live", headers=AUTHORIZATION) as socket:
            assert socket.receive_text() == "secret"
