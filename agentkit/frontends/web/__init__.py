"""The web adapter (chapter 08, extra `web`): the agent loop behind a FastAPI app and a one-file chat page."""
