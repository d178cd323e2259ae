"""How a command string given "through the shell" is started, so that what is
timed is the command itself and not a shell waiting for it. One rule, used by
the CLI (`compare`, `check`: the default /bin/sh, or --shell SHELL) and by the
Python API (`compare(..., shell=True)`), documented in docs/how-it-works/measurement.md
("Commands and the shell").

A shell that runs `sh -c 'prog args'` may fork, run prog as its child and
wait for it (dash here does not exec the last command of -c): every timed run
then pays a shell start, a fork and a wait on both sides, a constant that
pulls every ratio towards 1 (a ~5 ms 2x pair read 1.73x). So:

  plain words          `./prog --n 5 'a b'`: no expansion, redirection or
                       operator, so the shell would only split the words;
                       they are split here (as the shell would) and the
                       program runs without a shell.
  one simple command   `./prog < in.txt > /dev/null`, `./prog $N *.txt`: the
                       shell is needed for the expansions and redirections,
                       then replaces itself by the program (`exec`), so the
                       shell's start-up remains but not the fork and the wait.
  anything else        pipelines, lists, compound commands, builtins, leading
                       assignments: run by SHELL -c as typed. Here the shell
                       is part of the command, and of its cost.
"""

from __future__ import annotations

import re
import shlex

DEFAULT_SHELL = "/bin/sh"

# Words a shell runs itself (keywords and builtins, POSIX and common
# extensions): such a command is not a program to start or to exec.
SHELL_WORDS = frozenset([
    "!", ".", ":", "[", "[[", "{", "}", "(", "alias", "bg", "break", "case", "cd", "command",
    "continue", "declare", "echo", "eval", "exec", "exit", "export", "false", "fg", "for",
    "function", "getopts", "hash", "if", "jobs", "kill", "let", "local", "printf", "pwd",
    "read", "readonly", "return", "select", "set", "shift", "source", "test", "time", "times",
    "trap", "true", "type", "typeset", "ulimit", "umask", "unalias", "unset", "until", "wait",
    "while"])

# Characters after which the words are not plain: expansions, globs, quoting
# escapes, redirections, operators, comments, history and tilde expansion.
_NOT_PLAIN = set("$`\\*?[]~;&|<>(){}#!\n")
# Characters that make more than one simple command (or a subshell, a command
# substitution, a background job). `>&` and `<&` are redirections, not `&`.
_COMPOUND = set(";&|(){}`\n")
_FD_DUP = re.compile(r"[<>]&")


def _first_word(command: str) -> str:
    parts = command.strip().split(maxsplit=1)
    return parts[0] if parts else ""


def plain_words(command: str) -> list[str] | None:
    """The words of `command` when a shell would only split them (quotes
    allowed, nothing to expand or redirect); None otherwise."""
    if not command.strip() or any(ch in _NOT_PLAIN for ch in command):
        return None
    first = _first_word(command)
    if first in SHELL_WORDS or "=" in first or first[0] in "'\"":
        return None
    try:
        return shlex.split(command)
    except ValueError:  # an unbalanced quote: let the shell report it
        return None


def execs(command: str) -> bool:
    """Whether `command` is one simple command that the shell can replace
    itself with (`exec command`) without changing what it does."""
    if not command.strip() or any(ch in _COMPOUND for ch in _FD_DUP.sub("", command)):
        return False
    first = _first_word(command)
    # A leading assignment (`N=5 prog`) would become exec's program name.
    return bool(first) and first not in SHELL_WORDS and "=" not in first \
        and first[0] not in "'\"$"


def argv(command: str, shell: str = DEFAULT_SHELL) -> list[str]:
    """The argv that runs `command` through `shell` as described above."""
    words = plain_words(command)
    if words is not None:
        return words
    if execs(command):
        return [shell, "-c", "exec " + command]
    return [shell, "-c", command]
