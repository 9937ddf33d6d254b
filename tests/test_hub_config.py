"""deploy/jupyterhub's files, read as the hub reads them: the class key goes to the relay and nowhere a student is.

These need no running hub (tests/test_hub.py starts one); they check every configuration the files can produce.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

traitlets_loader = pytest.importorskip("traitlets.config.loader")

DEPLOY = Path(__file__).resolve().parent.parent / "deploy" / "jupyterhub"
KEY = "sk-class-key"


def load_class_config(monkeypatch: pytest.MonkeyPatch, **environment: str):
    for name in ("CLASS_MODEL_API_KEY", "CLASS_BASE_URL", "CLASS_MODEL", "CLASS_RELAY_HOST"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    return traitlets_loader.PyFileConfigLoader("class_config.py", path=str(DEPLOY)).load_config()


def test_hub_config_without_a_key_is_offline_and_sets_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_class_config(monkeypatch)
    assert "services" not in config.JupyterHub
    assert "services" not in config.JupyterHub and "environment" not in config.Spawner


def test_hub_config_with_a_key_gives_it_to_the_relay_only(monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_class_config(monkeypatch, CLASS_MODEL_API_KEY=KEY, CLASS_MODEL="m")
    [relay] = config.JupyterHub.services.get_value([])  # appended to whatever the main config had (here nothing)
    assert relay["environment"]["RELAY_API_KEY"] == KEY and Path(relay["command"][1]).name == "model_relay.py"
    students = config.Spawner.environment.get_value({})
    assert KEY not in json.dumps(students) and set(students) == {"CLASS_BASE_URL", "CLASS_MODEL"}
    assert "access:services!service=model-relay" in config.Spawner.server_token_scopes


def test_hub_z2jh_config_keeps_the_key_out_of_the_students_pods() -> None:
    chart = yaml.safe_load((DEPLOY / "z2jh" / "config.yaml").read_text())
    assert "KEY" not in json.dumps(chart["singleuser"]).upper()
    assert chart["hub"]["extraEnv"]["CLASS_MODEL_API_KEY"]["valueFrom"]["secretKeyRef"]["optional"] is True
    mounted = {file["mountPath"].rsplit("/", 1)[1] for file in chart["hub"]["extraFiles"].values()}
    assert mounted == {"class_config.py", "model_relay.py"} and all((DEPLOY / name).is_file() for name in mounted)


def test_hub_class_env_names_no_key_only_the_students_own_token() -> None:
    lines = dict(line.split("=", 1) for line in (DEPLOY / "class.env").read_text().splitlines()
                 if line and not line.startswith("#"))
    assert lines == {"MODEL_API_KEY": "${JUPYTERHUB_API_TOKEN}", "BASE_URL": "${CLASS_BASE_URL}", "MODEL": "${CLASS_MODEL}"}
