#!/bin/sh
# Verifier: evaluates /app against the reference with frontier-measure and
# writes /logs/verifier/reward.json (a flat map of numbers) last.
set -u
rm -rf /logs/verifier && mkdir -p /logs/verifier
here=$(cd "$(dirname "$0")" && pwd)
task=$(dirname "$here")
python3 -m frontier_measure.runners.repository eval "$task" --candidate /app \
  --json /logs/verifier/result.json \
  > /logs/verifier/eval.txt 2>&1
python3 - <<'PY'
import json
try:
    r = json.load(open("/logs/verifier/result.json"))
except (OSError, ValueError):
    r = {}
f = r.get("functional", {})
p = r.get("performance", {})
reward = {
    "reward": 1.0 if r.get("strict_success") else 0.0,
    "functional_pass_rate": f.get("items_passed", 0) / max(1, f.get("items_total", 1)),
    "speedup": float(p.get("speedup") or 0.0),
    "compliant": 1.0,
}
json.dump(reward, open("/logs/verifier/reward.json", "w"))
PY
