#!/bin/sh
# The oracle: the branch-free histogram in solution/workspace.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cp "$here/workspace/kernel.c" /app/kernel.c
