"""`python -m agentkit.offline [--port N]`: serve the offline model over HTTP, like `agentkit serve`."""

import argparse

from agentkit.offline.command import add_serve_arguments, serve

parser = argparse.ArgumentParser(prog="python -m agentkit.offline", description="Serve the offline model over HTTP.")
add_serve_arguments(parser)
serve(parser.parse_args())
