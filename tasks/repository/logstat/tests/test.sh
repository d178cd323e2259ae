#!/usr/bin/env bash
# Harbor verifier. Clears /logs/verifier first (in Harbor's shared mode the agent
# could have written there), builds and evaluates the program in /app against this
# task's reference, and writes reward.json last: a flat map of numbers.
# The exit code is ignored by Harbor.
set -u
LOGS="${FM_LOGS:-/logs/verifier}"
TASK_DIR="${FM_TASK_DIR:-$(cd "$(dirname "$0")/.." && pwd)}"
CANDIDATE="${FM_CANDIDATE:-/app}"
FM="${FM_BIN:-frontier-measure}"
rm -rf "$LOGS"
mkdir -p "$LOGS"
"$FM" eval "$TASK_DIR" --candidate "$CANDIDATE" --out "$LOGS/out" \
    --reward "$LOGS/reward.json" >"$LOGS/eval.txt" 2>&1
status=$?
if [ ! -s "$LOGS/reward.json" ]; then
    # The evaluator could not run: zero credit, said plainly.
    printf '{"reward": 0, "speedup": 0, "functional_pass_rate": 0, "compliant": 0}\n' \
        >"$LOGS/reward.json"
fi
exit $status
