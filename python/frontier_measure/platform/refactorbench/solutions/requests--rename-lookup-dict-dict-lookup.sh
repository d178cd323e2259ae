#!/usr/bin/env bash
# Hand-made refactoring for refactorbench/requests/rename-lookup-dict-dict-lookup:
# the class and every reference to it in Python files. Runs in the repository root.
set -euo pipefail
grep -rlw LookupDict --include='*.py' . | xargs sed -i 's/\bLookupDict\b/DictLookup/g'
