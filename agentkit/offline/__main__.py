"""`python -m agentkit.offline [--port N]`: serve the offline model over HTTP, like `agentkit serve`."""

from agentkit.offline.command import main

main()
