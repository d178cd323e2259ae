#!/bin/sh
# The oracle: word-at-a-time Adler-32 in solution/workspace.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cp "$here/workspace/kernel.c" /app/kernel.c
