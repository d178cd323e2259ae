"""The frontier-measure command line. Parsing and printing only: the work is
done by the modules it calls."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from . import display


class _Group(click.Group):
    """Turns the core's own errors into one clear line instead of a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        from . import _core

        try:
            return super().invoke(ctx)
        except _core.MeasureError as exc:
            raise click.ClickException(str(exc)) from None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="frontier-measure")
def main() -> None:
    """Decide whether a candidate is faster than its reference without
    changing what it does.

    \b
    Start with:
      frontier-measure info                      what this machine can measure
      frontier-measure compare --ref 'CMD' --cand 'CMD'
                                                 time two commands against each other
    """


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


@main.command()
@click.option("--ref", "reference", required=True, metavar="CMD",
              help="Reference command (split like a shell would; see --shell).")
@click.option("--cand", "candidate", required=True, metavar="CMD", help="Candidate command.")
@click.option("--rounds", default="auto", show_default=True,
              help="Number of paired rounds, or 'auto' to stop at --precision.")
@click.option("--warmup", default=2, show_default=True, help="Untimed runs per side first.")
@click.option("--threshold", type=float, default=None,
              help="Claim 'at least X times faster' only if the one-sided lower bound exceeds X.")
@click.option("--cost", type=click.Choice(["wall", "cpu", "instructions", "cycles"]),
              default="wall", show_default=True, help="What a run costs.")
@click.option("--precision", default=0.01, show_default=True,
              help="With --rounds auto: stop once the interval half-width is below this (0.01 = 1%).")
@click.option("--max-time", default=60.0, show_default=True, help="With --rounds auto: time budget in s.")
@click.option("--timeout", default=600.0, show_default=True, help="Per-run timeout in s.")
@click.option("--shell", is_flag=True, help="Run each CMD through /bin/sh -c.")
@click.option("--seed", default=0, show_default=True, help="Seed of the AB/BA round order.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write every round, the summary and the environment here.")
def compare(reference: str, candidate: str, rounds: str, warmup: int, threshold: float | None,
            cost: str, precision: float, max_time: float, timeout: float, shell: bool, seed: int,
            json_out: Path | None) -> None:
    """Time CAND against REF in paired, interleaved rounds.

    Both commands run the same number of times per round, in balanced order
    (AB BA BA AB ...). The speedup is exp(median of ln(ref/cand)) with an exact
    sign-test interval; the verdict is 'faster', 'slower' or 'indistinguishable'.

    \b
    Example:
      frontier-measure compare --ref 'python3 -c "sum(range(10**7))"' \\
                               --cand 'python3 -c "sum(range(10**6))"' --threshold 2
    """
    from .perf import compare as run_compare

    if rounds != "auto" and not rounds.isdigit():
        raise click.BadParameter("give a whole number or 'auto'", param_hint="--rounds")
    with click.progressbar(length=1, label="measuring", file=sys.stderr,
                           show_pos=True) as bar:
        def progress(done: int, total: int) -> None:
            bar.length = max(total, 1)
            bar.update(done - bar.pos)

        result = run_compare(
            reference, candidate,
            rounds="auto" if rounds == "auto" else int(rounds),
            warmup=warmup, threshold=threshold, cost=cost,  # type: ignore[arg-type]
            precision=precision, max_time=max_time, timeout=timeout, shell=shell,
            seed=seed, progress=progress, min_rounds=10,
        )
    click.echo(display.comparison(result))
    if json_out:
        json_out.write_text(json.dumps(result.to_dict(), indent=2))
        click.echo(f"\nwrote {json_out}")
