#!/usr/bin/env bash
# Hand-made refactoring for refactorbench/celery/rename-host-format: the function
# and every reference to it in Python files. Runs in the repository root.
set -euo pipefail
grep -rlw host_format --include='*.py' . | xargs sed -i 's/\bhost_format\b/format_host/g'
