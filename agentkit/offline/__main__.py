"""`python -m agentkit.offline [--port N]`: serve the offline model over HTTP, like `agentkit serve`."""

import sys

from agentkit.cli import main

main(["serve", *sys.argv[1:]])
