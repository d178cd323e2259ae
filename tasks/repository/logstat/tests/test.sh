#!/usr/bin/env bash
# Harbor verifier of this task. Generated from the template in
# python/frontier_measure/harbor.py by `frontier-measure harbor scripts`: edit the
# template, not this file.
#
# It works in two layouts: in the task directory (tests/ next to task.toml and
# environment/workspace/), and in a Harbor trial, where only tests/ is uploaded to
# /tests and carries task.toml, reference/ and wheels/ (`frontier-measure harbor
# export`). It clears the verifier log directory first (in Harbor's shared mode the
# agent can write there) and writes reward.json last, always: a flat map of numbers,
# zero with the reason in error.txt when the evaluator cannot run. Harbor ignores
# the exit code.
set -u
umask 022
LOGS="${FM_LOGS:-/logs/verifier}"
CANDIDATE="${FM_CANDIDATE:-/app}"
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$LOGS"
mkdir -p "$LOGS/out"
staged="$LOGS/out/reward.json"

finish() {
    # The only place reward.json is written, as the very last step.
    if [ -n "$1" ] || [ ! -s "$staged" ]; then
        echo "${1:-the evaluator wrote no reward (see eval.txt)}" >"$LOGS/error.txt"
        printf '{"reward": 0, "speedup": 0, "functional_pass_rate": 0, "compliant": 0}\n' \
            >"$staged"
    fi
    chmod 644 "$staged"
    mv -f "$staged" "$LOGS/reward.json"
    exit "$2"
}

# The task: given, around this directory, or rebuilt from the verifier layout.
if [ -n "${FM_TASK_DIR:-}" ]; then
    task=$FM_TASK_DIR
elif [ -f "$here/../task.toml" ] && [ -d "$here/../environment/workspace" ]; then
    task=$(cd "$here/.." && pwd)
elif [ -f "$here/task.toml" ] && [ -d "$here/reference" ]; then
    task="$(mktemp -d /tmp/fm-verifier.XXXXXX)/logstat"
    mkdir "$task" && cp "$here/task.toml" "$task/" && ln -s "$here" "$task/tests" \
        || finish "cannot lay out the task under $task" 1
else
    finish "no task around $here (task.toml with environment/workspace/ or reference/)" 1
fi

# The evaluator: given, installed, or unpacked from the wheels shipped in tests/.
if [ -n "${FM_BIN:-}" ]; then
    fm=("$FM_BIN")
elif command -v frontier-measure >/dev/null 2>&1; then
    fm=(frontier-measure)
elif python3 -c 'import frontier_measure' >/dev/null 2>&1; then
    fm=(python3 -m frontier_measure)
elif [ -d "$here/wheels" ]; then
    key=$(cat "$here"/wheels/*.whl 2>/dev/null | cksum | cut -d' ' -f1)
    site=${FM_SITE:-/opt/frontier-measure/$key/site-packages}
    if [ ! -d "$site" ]; then
        unpack=(python3 - "$here/wheels" "$site")
        "${unpack[@]}" >"$LOGS/install.txt" 2>&1 <<'PY' || finish "unpacking failed: install.txt" 1
import shutil
import sys
import zipfile
from pathlib import Path

wheels, site = Path(sys.argv[1]), Path(sys.argv[2])
partial = site.with_name(site.name + ".partial")
shutil.rmtree(partial, ignore_errors=True)
found = sorted(wheels.glob("*.whl"))
if not found:
    sys.exit(f"no wheels in {wheels}")
for whl in found:
    with zipfile.ZipFile(whl) as z:
        z.extractall(partial)
    print("unpacked", whl.name)
# What a wheel keeps under NAME.data/purelib or platlib belongs at the top.
for data in partial.glob("*.data"):
    for kind in ("purelib", "platlib"):
        if (data / kind).is_dir():
            shutil.copytree(data / kind, partial, dirs_exist_ok=True)
partial.rename(site)
PY
    fi
    # The directory name ends in site-packages so the evaluator hands it to its workers.
    fm=(env "PYTHONPATH=$site" python3 -m frontier_measure)
    "${fm[@]}" --version >>"$LOGS/install.txt" 2>&1 \
        || finish "the wheels in tests/wheels do not run here (see install.txt)" 1
else
    finish "frontier-measure is not installed and tests/wheels/ is missing" 1
fi

"${fm[@]}" eval "$task" --candidate "$CANDIDATE" --out "$LOGS/out" --reward "$staged" \
    >"$LOGS/eval.txt" 2>&1
finish "" $?
