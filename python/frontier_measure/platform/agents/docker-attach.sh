#!/bin/sh
# `docker`, bound to the attempt's container ($FM_CONTAINER): for agents that
# start a container of their own (mini-swe-agent's docker environment). `run`
# answers with the attempt's container instead of starting one; `stop`, `rm` and
# `kill` are left to the platform, which removes the container after the attempt;
# everything else (exec) goes to docker.
case "$1" in
  run) echo "$FM_CONTAINER" ;;
  stop|rm|kill) exit 0 ;;
  *) exec docker "$@" ;;
esac
