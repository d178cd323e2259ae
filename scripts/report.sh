#!/usr/bin/env bash
# Evaluates every bundled task with its oracle, its reference against itself and each
# failing candidate (TASK/tests/candidates/*, and tests/candidates/<scale>/<kind>/ for the
# task whose entry the candidate holds), treating them as attempts, then renders the report
# over all of them.  Usage: scripts/report.sh [OUT] [TASK_DIR...]   (OUT defaults to runs/)
# Results go to OUT/results/<scale>-<task>-<candidate>/<scale>-<task>/result.json, the report
# to OUT/report/.
# Assumes scripts/setup.sh has run (scripts/run.sh and scripts/test.sh do that).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-runs}
shift || true
roots=("$@")
[ ${#roots[@]} -gt 0 ] || roots=(tasks)
fm=.venv/bin/frontier-measure

evaluate() {  # task dir, candidate dir, attempt name
  local dest="$out/results/$3"
  echo "== $(basename "$1"): $3"
  # A failing evaluation still writes its result; keep going either way.
  "$fm" eval "$1" --candidate "$2" --out "$dest" >"$dest.log" 2>&1 \
    || echo "   (exit $?; see $dest.log)"
}

mkdir -p "$out/results"
while IFS= read -r toml; do
  task=$(dirname "$toml")
  name=$(basename "$(dirname "$task")")-$(basename "$task")
  [ -d "$task/solution/workspace" ] && evaluate "$task" "$task/solution/workspace" "$name-oracle"
  [ -d "$task/environment/workspace" ] && evaluate "$task" "$task/environment/workspace" "$name-reference"
  for cand in "$task"/tests/candidates/*/; do
    [ -d "$cand" ] && evaluate "$task" "$cand" "$name-$(basename "$cand")"
  done
done < <(find "${roots[@]}" -name task.toml -not -path '*/candidates/*' | sort)

# tests/candidates/<scale>/<kind>/<entry>[.py]: a failing candidate of tasks/<scale>/<entry>,
# evaluated when that task is among the roots.
for cand in tests/candidates/*/*/; do
  [ -d "$cand" ] || continue
  scale=$(basename "$(dirname "$cand")")
  for entry in "$cand"*; do
    task=tasks/$scale/$(basename "$entry" .py)
    [ -f "$task/task.toml" ] || continue
    for root in "${roots[@]}"; do
      case "$task/" in "${root%/}/"*)
        evaluate "$task" "$cand" "$scale-$(basename "$task")-$(basename "$cand")"; break;;
      esac
    done
  done
done

"$fm" report "$out/results" --out "$out/report"
