#!/bin/sh
# The oracle: slicing-by-8 CRC-32 in solution/workspace.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cp "$here/workspace/kernel.c" /app/kernel.c
