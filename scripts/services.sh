#!/usr/bin/env bash
# Starts the services the tests and the main job need: the Docker engine
# (installed from Debian's docker.io when missing) and the local base image of
# the Docker isolation backend. Only as root; otherwise it says what it skipped.
# Safe to run again: a running engine and a built image are left alone.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" != 0 ]; then
  echo "services: not root; skipping the Docker engine (Docker tests will be skipped)"
  exit 0
fi

if ! command -v dockerd >/dev/null || ! command -v docker >/dev/null; then
  echo "services: installing docker.io"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker.io >/dev/null
fi

if ! docker info >/dev/null 2>&1; then
  echo "services: starting dockerd (log: /tmp/frontier-measure-dockerd.log)"
  # No registry is reachable and the containers run without network, so the
  # engine needs no iptables rules; that also keeps it working in sandboxes
  # whose kernel has no netfilter.
  nohup dockerd --iptables=false --ip6tables=false \
    >/tmp/frontier-measure-dockerd.log 2>&1 </dev/null &
  for _ in $(seq 1 120); do
    docker info >/dev/null 2>&1 && break
    sleep 0.5
  done
  if ! docker info >/dev/null 2>&1; then
    echo "services: dockerd did not come up; last log lines:" >&2
    tail -n 20 /tmp/frontier-measure-dockerd.log >&2 || true
    exit 1
  fi
fi
echo "services: docker engine $(docker version --format '{{.Server.Version}}') is running"

bash scripts/docker-image.sh
