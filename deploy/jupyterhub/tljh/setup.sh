#!/usr/bin/env bash
# A class on The Littlest JupyterHub (one server, up to about 100 users). Run as root on the server, from a checkout
# of the course, after TLJH's own installer has run (https://tljh.jupyter.org, "Installing on your own server"):
#
#     curl -L https://tljh.jupyter.org/bootstrap.py | sudo python3 - --admin teacher
#     sudo deploy/jupyterhub/tljh/setup.sh                              # offline model only
#     sudo CLASS_MODEL_API_KEY=sk-... CLASS_BASE_URL=https://api.openai.com/v1 CLASS_MODEL=gpt-4o-mini \
#          deploy/jupyterhub/tljh/setup.sh                              # plus a class model through the relay
#
# Safe to run again. docs/teaching.md ("Running a class on JupyterHub") says what each step is for.
set -euo pipefail
COURSE="$(cd "$(dirname "$0")/../../.." && pwd)"
DEPLOY="$COURSE/deploy/jupyterhub"
USER_ENV=/opt/tljh/user                      # the students' Python: every user's server and kernel
CLASS=/opt/tljh/class                        # the relay and the key: root's, read by the hub only
CONFIG_D=/opt/tljh/config/jupyterhub_config.d

# 1. The course's package in the students' environment, as a wheel: never the checkout, which holds the solutions.
#    nbgrader comes with the classroom extra; its JupyterLab extensions are enabled as it installs.
wheels="$(mktemp -d)"
"$USER_ENV/bin/pip" wheel --no-deps "$COURSE" -w "$wheels"
"$USER_ENV/bin/pip" install "$(ls "$wheels"/agentkit-*.whl)[course,classroom]"
install -D -m 0644 "$DEPLOY/nbgrader_config.py" "$USER_ENV/etc/jupyter/nbgrader_config.py"
install -d -m 1777 /srv/nbgrader/exchange    # everyone writes, no one deletes another's files (sticky)

# 2. The student edition, copied into each account's home when TLJH creates it (accounts made before keep theirs).
rm -rf /etc/skel/tool-use
"$USER_ENV/bin/agentkit" classroom student "$COURSE/notebooks" /etc/skel/tool-use
install -m 0644 "$DEPLOY/class.env" /etc/skel/tool-use/class.env

# 3. The hub: the class settings (offline by default), the model relay beside them, the teacher as admin.
install -D -m 0644 "$DEPLOY/class_config.py" "$CONFIG_D/class_config.py"
install -d -m 0700 "$CLASS"
install -m 0644 "$DEPLOY/model_relay.py" "$CLASS/model_relay.py"
tljh-config add-item users.admin teacher
tljh-config set user_environment.default_app jupyterlab
tljh-config set limits.memory 1G             # per student; chapters 00-12 need well under 500 MB
tljh-config set limits.cpu 1
tljh-config set services.cull.timeout 3600   # stop a server idle for an hour

# 4. The class key, if any: in a file only root reads, handed to the hub (and by it to the relay) by systemd.
umask 077
{
    echo "CLASS_RELAY_SCRIPT=$CLASS/model_relay.py"
    if [ -n "${CLASS_MODEL_API_KEY:-}" ]; then
        echo "CLASS_MODEL_API_KEY=$CLASS_MODEL_API_KEY"
        echo "CLASS_BASE_URL=${CLASS_BASE_URL:-https://api.openai.com/v1}"
        echo "CLASS_MODEL=${CLASS_MODEL:-gpt-4o-mini}"
    fi
} > "$CLASS/class.env"
mkdir -p /etc/systemd/system/jupyterhub.service.d
printf '[Service]\nEnvironmentFile=%s\n' "$CLASS/class.env" > /etc/systemd/system/jupyterhub.service.d/class.conf
systemctl daemon-reload
systemctl restart jupyterhub
echo "done: log in as teacher at this server's address; students log in with the authenticator you chose (tljh-config)"
