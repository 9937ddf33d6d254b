"""Secret scrubbing: the API key never reaches a screen, a web page or a transcript.

The attack: a provider's error message may echo the key it was sent (`Invalid key Bearer sk-...`), and that
message is shown to the person, sent to the web page and kept in transcripts, where a screenshot or a shared
notebook leaks it. `without_key` is applied where a provider's words enter the task (`agentkit.turn`).
Proved by tests/test_chat_secrets.py.
"""

HIDDEN_KEY = "<MODEL_API_KEY hidden>"
"""What `without_key` shows in place of the key."""
PLACEHOLDER_KEY_CHARS = 8
"""Keys shorter than this are placeholders ("offline", "ollama", "EMPTY"), not secrets: hiding such a word would
garble messages that merely contain it."""


def without_key(text: str, key: str | None) -> str:
    """`text` with every copy of the API `key` replaced by `HIDDEN_KEY`."""
    if not key or len(key) < PLACEHOLDER_KEY_CHARS:
        return text
    return text.replace(key, HIDDEN_KEY)
