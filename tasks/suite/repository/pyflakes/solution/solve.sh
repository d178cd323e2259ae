#!/bin/sh
# The oracle: pyflakes that loads doctest and platform only when needed, tests
# the node depth before walking the scope stack, and is imported from byte code
# compiled by make.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cp "$here/workspace/lib/pyflakes/checker.py" "$here/workspace/lib/pyflakes/api.py" /app/lib/pyflakes/
cp "$here/workspace/Makefile" /app/
cd /app && make
