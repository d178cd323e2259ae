#!/bin/sh
# The oracle: pycodestyle with precomputed check dispatch, an inlined token
# loop and cheap prefilters, imported from byte code compiled by make.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cp "$here/workspace/pycodestyle.py" "$here/workspace/pycodestyle_main.py" \
   "$here/workspace/pycodestyle.in" "$here/workspace/Makefile" /app/
cd /app && make
