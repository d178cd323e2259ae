#!/usr/bin/env bash
# Hand-made refactoring for refactorbench/flask/render-template-str: the rename
# everywhere the old name appears (definition, re-export, tests, documentation).
# Runs in the repository root.
set -euo pipefail
grep -rl render_template_string . | xargs sed -i 's/render_template_string/render_template_str/g'
