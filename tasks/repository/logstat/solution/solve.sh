#!/bin/sh
# The oracle: replace the Python program with the C rewrite in solution/workspace.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rm -f /app/logstat.py /app/logstat.in
cp "$here/workspace/logstat.c" "$here/workspace/Makefile" /app/
cd /app && make
