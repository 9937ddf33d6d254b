"""`agentkit serve` and `python -m agentkit.offline`: the offline model over HTTP on 127.0.0.1, with faults on request.

Its arguments live here, with the model, so that `python -m agentkit.offline` needs nothing from the CLI above it.
"""

from __future__ import annotations

import argparse
import sys


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `agentkit serve`: the port, an unruly mode, and the faults to inject."""
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--unruly", default=None, help="make this mistake on each question's first tool call")
    parser.add_argument("--fail", type=int, default=None, metavar="STATUS",
                        help="answer the first --times requests with this HTTP status")
    parser.add_argument("--times", type=int, default=1, help="how many requests --fail applies to (-1: all)")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to wait before every reply")
    parser.add_argument("--chunk-delay", type=float, default=0.0, metavar="SECONDS",
                        help="seconds the model takes per chunk: a streamed reply arrives piece by piece, others all "
                             "at the end")


def serve(args: argparse.Namespace) -> None:
    """Serve until Ctrl-C."""
    from agentkit.offline.model import OfflineModel
    from agentkit.offline.server import Faults, OfflineServer

    faults = Faults(status=args.fail, times=args.times, delay=args.delay, chunk_delay=args.chunk_delay)
    with OfflineServer(OfflineModel(unruly=args.unruly), faults, port=args.port) as server:
        print(f"Offline model serving at {server.base_url} (BASE_URL for any OpenAI client). Ctrl-C stops it.", flush=True)
        try:
            server.thread.join()
        except KeyboardInterrupt:
            print("stopped", file=sys.stderr)
