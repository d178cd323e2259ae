#!/usr/bin/env bash
# Hand-made refactoring for refactorbench/tornado/rename-to-camel-case: the
# method and every call to it, in the package and its tests. Runs in the repository root.
set -euo pipefail
grep -rl get_new_ioloop tornado | xargs sed -i 's/get_new_ioloop/getNewIoLoop/g'
