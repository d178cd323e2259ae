#!/bin/sh
# Verifier: evaluates /app against the reference in simulated cycles and
# writes /logs/verifier/reward.json (a flat map of numbers) last.
set -u
rm -rf /logs/verifier && mkdir -p /logs/verifier
here=$(cd "$(dirname "$0")" && pwd)
task=$(dirname "$here")
python3 -m frontier_measure.runners.kernel eval "$task" --candidate /app \
  --json /logs/verifier/result.json > /logs/verifier/eval.txt 2>&1
python3 - <<'PY'
import json
try:
    r = json.load(open("/logs/verifier/result.json"))
except (OSError, ValueError):
    r = {}
json.dump(r.get("reward") or {"reward": 0.0}, open("/logs/verifier/reward.json", "w"))
PY
