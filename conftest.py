"""Tests and nbval run against the offline model, whatever a developer's .env says."""

import os

# Set before any notebook kernel starts: kernels inherit this environment, and an empty
# MODEL_API_KEY in the environment wins over a key in .env (see agentkit.config.load_settings).
os.environ["MODEL_API_KEY"] = ""
