"""The offline model: a deterministic stand-in for an LLM, reached through the real openai client.

- `model.py`: the decision procedure (start reading here) and `reading.py`, how it reads a message;
- `protocol.py`: the Chat Completions wire format around it (JSON and SSE, the API's 400 errors);
- `transport.py`: the in-process path, `offline_client()`, and `connect_offline()` with the teaching switches;
- `server.py`: the same model over HTTP on 127.0.0.1, with fault injection;
- `scripted.py`: a queue of replies, for tests that need exact control;
- `variants.py`: the offline model with one habit of another real model each (`MODEL=offline/<name>`);
- `trace.py`: `explain(question, tools)`, how it read one request (values found, tool scores, each argument's pick).
"""

from agentkit.offline.model import MISTAKES, EmittedCall, OfflineModel, Reply
from agentkit.offline.scripted import ScriptedModel, call
from agentkit.offline.server import Faults, OfflineServer
from agentkit.offline.trace import Trace, explain
from agentkit.offline.transport import connect_offline, offline_client, offline_transport
from agentkit.offline.variants import VARIANTS, Variant, variant

__all__ = ["MISTAKES", "Faults", "OfflineModel", "OfflineServer", "Reply", "ScriptedModel", "EmittedCall", "Trace", "VARIANTS",
           "Variant", "call", "explain", "connect_offline", "offline_client", "offline_transport", "variant"]
