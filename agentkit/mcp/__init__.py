"""Chapter 11, tools over MCP with the official `mcp` SDK: `server` serves a registry through the same policy as
the agent loop; `client` imports a server's tools into a registry. Needs the `mcp` extra: `pip install -e '.[mcp]'`."""
