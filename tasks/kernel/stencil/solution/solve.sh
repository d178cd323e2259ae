#!/bin/sh
# The oracle: the row-major, window-buffered stencil in solution/workspace.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cp "$here/workspace/kernel.c" /app/kernel.c
