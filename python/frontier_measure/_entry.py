"""The `frontier-measure` command's entry point. `--version` (or `-V`) alone
is answered here, before the command line's framework and the native
extension load: it is asked by scripts and health checks that should not pay
for them (bench/startup.py measures it). Everything else goes to cli.py."""

from __future__ import annotations

import sys


def main() -> None:
    if sys.argv[1:] in (["--version"], ["-V"]):
        from . import __version__

        sys.stdout.write(f"frontier-measure {__version__}\n")
        return
    from .cli import main as cli_main

    cli_main()
