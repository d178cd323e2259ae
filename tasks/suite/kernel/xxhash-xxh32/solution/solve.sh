#!/bin/sh
# The oracle: XXH32 with aligned 64-bit reads in solution/workspace.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cp "$here/workspace/kernel.c" /app/kernel.c
