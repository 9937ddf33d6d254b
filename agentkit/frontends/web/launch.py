"""`agentkit web`: listen on 127.0.0.1 first (a busy port is refused before anything is made), then print the
address with this launch's token and serve the app (`agentkit.frontends.web.app`) with uvicorn until Ctrl-C."""

from __future__ import annotations

import asyncio
import secrets
import signal
import socket

import uvicorn

from agentkit.agent import POLICY, open_workspace
from agentkit.config import Settings, connect, load_settings
from agentkit.frontends.own_agent import Tools
from agentkit.frontends.web.app import create_app
from agentkit.frontends.web.guards import HOST
from agentkit.policy import ToolPolicy
from agentkit.tools.workspace import Workspace


def listen(port: int) -> socket.socket:
    """A socket listening on 127.0.0.1:`port`, made before anything else: a busy port raises OSError here."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: a port just freed is free
    try:
        sock.bind((HOST, port))
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    return sock


def serve(sock: socket.socket | int = 8001, workspace: Workspace | str | None = None, settings: Settings | None = None,
          system_prompt: str | None = None, tools: Tools | None = None, *, language: str = "en",
          policy: ToolPolicy = POLICY) -> None:
    """`agentkit web`: the app on 127.0.0.1 only (on `sock`, from `listen`, or a port number), offline unless
    `.env` (or `settings`) names a model. The page speaks to the person in `language` ("en" or "zh")."""
    settings = settings or load_settings()
    sock = listen(sock) if isinstance(sock, int) else sock
    folder = workspace if isinstance(workspace, Workspace) else open_workspace(workspace)
    token = secrets.token_urlsafe()  # new at every launch, and only ever printed here, for this person
    app = create_app(connect(settings), settings.model, folder, token=token, system_prompt=system_prompt, stream=True,
                     tools=tools, language=language, policy=policy)
    print(f"agentkit web: open http://{HOST}:{sock.getsockname()[1]}/?token={token} (model {settings.model}, "
          f"workspace {folder.root}). Ctrl-C stops it.", flush=True)
    # A turn waiting for Approve would hold Ctrl-C up forever: give open turns a second, then stop them.
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1)
    _StoppingTurns(config).run(sockets=[sock])


class _StoppingTurns(uvicorn.Server):
    """uvicorn's server, which at Ctrl-C or SIGTERM first stops every running turn (a command it runs is killed): each
    ends its stream with no status, which its page reads as the connection lost, so the open requests finish at once
    (uvicorn would cancel them after its graceful timeout, and log each as an error with a traceback)."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.ctrl_c_ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # as by `agentkit web &` (before uvicorn)

    def handle_exit(self, sig: int, frame: object) -> None:
        if sig == signal.SIGINT and self.ctrl_c_ignored:  # it stays ignored, as Python and `agentkit chat` leave it
            return  # (uvicorn would stop, then pass the signal on to the ignoring handler: exit 0, no line)
        loop = asyncio.get_running_loop()  # a signal handler runs on the loop's thread, between two of its steps
        loop.call_soon_threadsafe(self.config.app.state.stop_all_turns)
        super().handle_exit(sig, frame)
