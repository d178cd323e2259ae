#!/usr/bin/env bash
# Makes `docker compose` (v2) available to the docker CLI run with DOCKER_CONFIG=DIR,
# through the adapter onto Debian's docker-compose 1.29 (scripts/compose/docker-compose).
# Only that DOCKER_CONFIG sees it: nothing of the machine's own docker set-up changes.
#   bash scripts/compose/install.sh build/docker-config && export DOCKER_CONFIG=$PWD/build/docker-config
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: install.sh DOCKER_CONFIG_DIR}
mkdir -p "$dir/cli-plugins"
ln -sf "$here/docker-compose" "$dir/cli-plugins/docker-compose"
[ -f "$dir/config.json" ] || echo '{}' > "$dir/config.json"
echo "compose adapter: DOCKER_CONFIG=$dir docker compose version -> $(DOCKER_CONFIG=$dir docker compose version 2>&1)"
