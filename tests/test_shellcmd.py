"""Commands given through the shell are measured as themselves: plain words run
without a shell, one simple command is exec'd by it, anything else runs as
typed (shellcmd.py). The same rule for the CLI and for compare(shell=True)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from frontier_measure import _core
from frontier_measure.comparisons import Settings
from frontier_measure.perf import _process_spec as process_spec
from frontier_measure.perf import make_side
from frontier_measure.shellcmd import argv


@pytest.mark.parametrize("command, expected", [
    ("./prog 5", ["./prog", "5"]),
    ("./prog 'a b' --n=3", ["./prog", "a b", "--n=3"]),
    ("./prog < in.txt > /dev/null", ["/bin/sh", "-c", "exec ./prog < in.txt > /dev/null"]),
    ("prog 2>&1", ["/bin/sh", "-c", "exec prog 2>&1"]),
    ("prog $N *.txt", ["/bin/sh", "-c", "exec prog $N *.txt"]),
    ("a | b", ["/bin/sh", "-c", "a | b"]),
    ("a; b", ["/bin/sh", "-c", "a; b"]),
    ("cd /tmp && ls", ["/bin/sh", "-c", "cd /tmp && ls"]),
    ("prog &", ["/bin/sh", "-c", "prog &"]),
    ("prog $(date)", ["/bin/sh", "-c", "prog $(date)"]),
    ("N=5 prog", ["/bin/sh", "-c", "N=5 prog"]),
    ("echo hi", ["/bin/sh", "-c", "echo hi"]),
    ("exec prog > x", ["/bin/sh", "-c", "exec prog > x"]),
    ("prog 'unbalanced", ["/bin/sh", "-c", "exec prog 'unbalanced"]),  # the shell says why
])
def test_how_a_shell_command_is_started(command, expected):
    assert argv(command) == expected


def test_another_shell_follows_the_same_rule():
    s = Settings(shell="/bin/bash")
    assert s.argv("prog 1") == ["prog", "1"]
    assert s.argv("prog > x") == ["/bin/bash", "-c", "exec prog > x"]
    assert s.argv("a | b") == ["/bin/bash", "-c", "a | b"]
    assert Settings().argv("prog > x") == "prog > x"  # compare()'s own shell mode


def _parent_of_script(tmp_path: Path, command: str) -> int:
    """Run `command` (SCRIPT: a script writing its parent's pid) as
    compare(shell=True) would; the pid of the script's parent."""
    script = tmp_path / "ppid.sh"
    script.write_text("#!/bin/sh\necho $PPID > \"${1:-ppid.out}\"\n")
    script.chmod(0o755)
    command = command.replace("SCRIPT", str(script))
    spec = process_spec(command, name="reference", shell=True, cwd=str(tmp_path))
    r = _core.run_process(spec)
    assert r.exit_code == 0
    return int((tmp_path / "ppid.out").read_text())


def test_a_measured_command_is_the_program_not_a_waiting_shell(tmp_path):
    me = os.getpid()
    # Plain words: no shell at all; a redirection: the shell execs the program.
    assert _parent_of_script(tmp_path, "SCRIPT ppid.out") == me
    assert _parent_of_script(tmp_path, "SCRIPT > /dev/null") == me
    # A list needs the shell, which stays the program's parent.
    assert _parent_of_script(tmp_path, "SCRIPT; :") != me


def test_shell_features_still_work(tmp_path):
    (tmp_path / "in.txt").write_text("x\n")
    spec = process_spec("cat < in.txt > out.txt", name="reference", shell=True,
                        cwd=str(tmp_path))
    assert _core.run_process(spec).exit_code == 0
    assert (tmp_path / "out.txt").read_text() == "x\n"
    # A command that is not found is still named before anything runs.
    with pytest.raises(_core.SpawnError, match="no-such-program-here"):
        make_side("no-such-program-here > /dev/null", name="candidate", shell=True)
