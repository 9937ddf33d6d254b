"""The course's JupyterHub settings for a class: load it from any jupyterhub_config.py (The Littlest JupyterHub reads
every file in /opt/tljh/config/jupyterhub_config.d/; tests/test_hub.py loads it into a hub on 127.0.0.1).

Every student works offline by default: no key anywhere, the course's offline model answers, as in CI.
For a class model, set these in the hub's environment (never the students'):

    CLASS_MODEL_API_KEY   the provider key: read by the hub, given to the model relay only
    CLASS_BASE_URL        the provider's BASE_URL (default https://api.openai.com/v1)
    CLASS_MODEL           the model name (default gpt-4o-mini)

Then the relay (model_relay.py, a hub-managed service) holds the key, and each student's server gets CLASS_BASE_URL
(the relay's address) and CLASS_MODEL; its JUPYTERHUB_API_TOKEN, the student's own hub token, is what the relay
accepts: only through the relay, only for that student, revoked with the student's server. A student switches to
the class model with class.env as their `.env` (it names those variables); the class key is in no student's
environment, file or kernel. What this does not stop is said in docs/teaching.md ("Running a class on JupyterHub").
"""

import os
import sys
from pathlib import Path

c = get_config()  # noqa: F821 (given by JupyterHub when it loads this file)

# A student's server is given only Spawner.env_keep (PATH, LANG, ...) from the hub's environment, plus
# Spawner.environment: a key in the hub's environment never reaches it. MODEL_API_KEY is left unset (not ""), so that
# a student's `.env` can still choose a model: the course lets the environment win over `.env`, even when empty.
RELAY, RELAY_PORT = "model-relay", int(os.environ.get("CLASS_RELAY_PORT", "10101"))
# Where the proxy reaches the relay: this machine (The Littlest JupyterHub), or the hub's Kubernetes service ("hub").
RELAY_HOST = os.environ.get("CLASS_RELAY_HOST", "127.0.0.1")
RELAY_SCRIPT = os.environ.get("CLASS_RELAY_SCRIPT") or str(Path(__file__).resolve().parent / "model_relay.py")
if os.environ.get("CLASS_MODEL_API_KEY"):
    relay_url = f"http://{RELAY_HOST}:{RELAY_PORT}"
    c.JupyterHub.services.append({
        "name": RELAY, "url": relay_url, "command": [sys.executable, RELAY_SCRIPT],
        "environment": {"RELAY_UPSTREAM": os.environ.get("CLASS_BASE_URL", "https://api.openai.com/v1"),
                        "RELAY_LOCAL_ONLY": "1" if RELAY_HOST == "127.0.0.1" else "0",
                        "RELAY_API_KEY": os.environ["CLASS_MODEL_API_KEY"],
                        "RELAY_REQUESTS_PER_MINUTE": os.environ.get("CLASS_REQUESTS_PER_MINUTE", "20")},
    })
    # Every user may call the relay, and a server's own token carries that right (it carries only what is listed).
    c.JupyterHub.load_roles.append({"name": "user", "scopes": ["self", f"access:services!service={RELAY}"]})
    c.Spawner.server_token_scopes = ["users:activity!user", "access:servers!server", f"access:services!service={RELAY}"]
    c.Spawner.environment.update({
        "CLASS_BASE_URL": os.environ.get("CLASS_RELAY_URL", f"{relay_url}/services/{RELAY}/v1"),
        "CLASS_MODEL": os.environ.get("CLASS_MODEL", "gpt-4o-mini"),
    })
