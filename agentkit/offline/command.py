"""`agentkit serve` and `python -m agentkit.offline`: the offline model over HTTP on 127.0.0.1, with faults on request.

Its arguments live here, with the model, so that `python -m agentkit.offline` needs nothing from the CLI above it.
"""

from __future__ import annotations

import argparse
import signal
import sys


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `agentkit serve`: the port, an unruly mode, and the faults to inject."""
    parser.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (default: 8000; 0: any free port)")
    parser.add_argument("--unruly", default=None, help="make this mistake on each question's first tool call")
    parser.add_argument("--fail", type=int, default=None, metavar="STATUS",
                        help="answer the first --times requests with this HTTP status")
    parser.add_argument("--times", type=int, default=1, help="how many requests --fail applies to (-1: all)")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to wait before every reply")
    parser.add_argument("--chunk-delay", type=float, default=0.0, metavar="SECONDS",
                        help="seconds the model takes per chunk: a streamed reply arrives piece by piece, others all "
                             "at the end")


class PortInUse(Exception):
    """The port cannot be listened on; the message names it and the flag that picks another."""


def serve(args: argparse.Namespace) -> None:
    """Serve until Ctrl-C or SIGTERM, which end it through `agentkit.frontends.interrupts.ended_by_signals`."""
    from agentkit.offline.model import OfflineModel
    from agentkit.offline.server import Faults, OfflineServer

    faults = Faults(status=args.fail, times=args.times, delay=args.delay, chunk_delay=args.chunk_delay)
    try:
        server = OfflineServer(OfflineModel(unruly=args.unruly), faults, port=args.port)
    except OSError as error:
        raise PortInUse(f"cannot listen on 127.0.0.1:{args.port} ({error.strerror or error}): another program "
                        "(another agentkit serve?) uses it; pick a free port with --port N") from None
    with server:
        print(f"Offline model serving at {server.base_url} (BASE_URL for any OpenAI client). Ctrl-C stops it.", flush=True)
        server.thread.join()


def main() -> None:
    """`python -m agentkit.offline`: the same server, refusals and ends as `agentkit serve` (whose front end,
    `agentkit.frontends.interrupts`, this layer below it does not import: the few lines are repeated here)."""
    parser = argparse.ArgumentParser(prog="python -m agentkit.offline", description="Serve the offline model over HTTP.")
    add_serve_arguments(parser)
    args = parser.parse_args()

    def as_ctrl_c(number: int, frame: object) -> None:
        raise KeyboardInterrupt("SIGTERM")  # ends the server as Ctrl-C does, and says which it was

    signal.signal(signal.SIGTERM, as_ctrl_c)
    try:
        serve(args)
    except PortInUse as error:
        print(f"{parser.prog}: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    except KeyboardInterrupt as stop:
        print(f"{parser.prog}: stopped ({stop.args[0] if stop.args else 'Ctrl-C'})", file=sys.stderr)
        raise SystemExit(130) from None  # as agentkit.frontends.interrupts: 130 whichever signal it was
