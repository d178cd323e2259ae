"""What a kernel task tells the agent about its machine, made from the machine file.

A kernel task's cost is simulated cycles on the machine its task.toml names
([metadata.frontier.kernel] machine). The figures an agent optimises for
(cache sizes and latencies, the branch predictor, the multiplier) are that
file's, so the task's instructions carry a section generated from it, "## The
machine", in instruction.md and in the prompts that repeat it (prompts/base.md,
prompts/descriptive.md). Written by hand, such prose drifts: the bundled tasks
once promised 32 KiB L1 and 2 MiB L2 caches on a machine with 16 KiB and
512 KiB. `frontier-measure task instructions` rewrites the section;
`validate` reports a section that differs from what the file gives.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from . import sim

HEADING = "## The machine"
# The files of a task that carry the section (the lazy prompt says one line
# and nothing about the machine, on purpose).
FILES = ("instruction.md", "prompts/base.md", "prompts/descriptive.md")
# The section: its heading up to the next heading or the end of the file.
_SECTION = re.compile(rf"(?ms)^{re.escape(HEADING)}\n.*?(?=^#|\Z)")


def machine_values(machine: str) -> dict[str, str]:
    """The `key = value` settings of a machine file (a bundled name or a
    path), as written in it; the simulator's own parser checks the file first."""
    text = sim.load_machine(machine)
    out: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if "=" in line:
            key, value = (part.strip() for part in line.split("=", 1))
            out[key] = value
    return out


def _size(n: int) -> str:
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20} MiB"
    if n >= 1 << 10 and n % (1 << 10) == 0:
        return f"{n >> 10} KiB"
    return f"{n} bytes"


def _cache(v: dict[str, str], name: str) -> str | None:
    try:
        sets, ways, line = (int(v[f"{name}.{k}"]) for k in ("sets", "ways", "line"))
    except KeyError:
        return None
    assoc = "direct-mapped" if ways == 1 else f"{ways}-way"
    return f"{_size(sets * ways * line)}, {assoc}, {line}-byte lines"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _iterative(v: dict[str, str], unit: str, what: str) -> str | None:
    bits = int(v.get(f"{unit}.bits_per_cycle", "0"))
    latency = v.get(f"latency.{unit}")
    if bits:
        text = (f"iterative, {_plural(bits, 'bit')} of the {what} per cycle plus "
                f"{_plural(int(v.get(f'{unit}.base', '0')), 'cycle')}")
        if int(v.get(f"{unit}.early_out", "0")):
            text += ", stopping early on short operands"
        return text
    if latency is None:
        return None
    pipelined = unit == "mul" and int(v.get("mul.pipelined", "0"))
    return f"{_plural(int(latency), 'cycle')}" + (", pipelined" if pipelined else ", blocking")


def section(machine: str) -> str:
    """The "## The machine" section for a task on `machine`, ending in one newline."""
    v = machine_values(machine)
    name = v.get("name", sim.machine_name(machine))
    rows: list[tuple[str, str]] = []
    for key, label in (("l1i", "L1 instruction cache"), ("l1d", "L1 data cache")):
        c = _cache(v, key)
        if c:
            rows.append((label, c))
    l2 = _cache(v, "l2")
    if l2:
        rows.append(("L2 cache", l2 + (f"; {_plural(int(v['l2.latency']), 'cycle')} "
                                       "on an L1 miss" if "l2.latency" in v else "")))
    if "memory.latency" in v:
        rows.append(("memory", f"{_plural(int(v['memory.latency']), 'cycle')} on an L2 miss"))
    loads = [(w, v.get(f"latency.load_{w}", v.get("latency.load")))
             for w in ("byte", "half", "word", "double")]
    if all(c is not None for _, c in loads):
        by: dict[str, list[str]] = {}
        for w, c in loads:
            by.setdefault(str(c), []).append(w)
        rows.append(("load to use", "; ".join(f"{_plural(int(c), 'cycle')} ({', '.join(ws)})"
                                              for c, ws in by.items())))
    for unit, label, what in (("mul", "multiply", "multiplier"), ("div", "divide", "quotient")):
        text = _iterative(v, unit, what)
        if text:
            rows.append((label, text))
    if "branch.predictor" in v:
        pred = v["branch.predictor"]
        bits = int(v.get("branch.table_bits", "0"))
        text = f"{pred} predictor" + (f", {1 << bits} entries" if bits else "")
        if pred == "gshare" and "branch.history_bits" in v:
            text += f", {_plural(int(v['branch.history_bits']), 'bit')} of global history"
        if "branch.mispredict_penalty" in v:
            text += (f"; {_plural(int(v['branch.mispredict_penalty']), 'cycle')} lost per "
                     "mispredicted branch")
        extras = []
        if "branch.btb_entries" in v:
            extras.append(f"{v['branch.btb_entries']}-entry branch target buffer")
        if "branch.ras_entries" in v:
            extras.append(f"{v['branch.ras_entries']}-entry return-address stack")
        if extras:
            text += "; " + ", ".join(extras)
        rows.append(("branches", text))
    head = f"{HEADING}\n\n" + textwrap.fill(
        f"Cycles are counted on `{name}` (`simulators/machines/{name}.machine` in "
        "frontier-measure), a simulated single-issue, in-order RV64GC core: an "
        "instruction waits for its operands and for the unit it needs, the caches "
        "are blocking and least-recently-used.", width=78, break_on_hyphens=False) + "\n\n"
    table = "| | |\n|---|---|\n" + "".join(f"| {a} | {b} |\n" for a, b in rows)
    return head + table


def files(task_dir: Path) -> list[Path]:
    return [task_dir / f for f in FILES if (task_dir / f).is_file()]


def drift(task_dir: str | Path, machine: str) -> list[str]:
    """The task's instruction files whose machine section is missing or differs
    from what `machine`'s file gives (paths relative to the task)."""
    task_dir = Path(task_dir)
    want = section(machine)
    out = []
    for p in files(task_dir):
        found = _SECTION.search(p.read_text())
        if found is None or found.group(0).rstrip("\n") != want.rstrip("\n"):
            out.append(p.relative_to(task_dir).as_posix())
    return out


def write(task_dir: str | Path, machine: str) -> list[str]:
    """Rewrite the machine section of the task's instruction files (appended
    where there is none); returns the files changed."""
    task_dir = Path(task_dir)
    want = section(machine)
    changed = []
    for p in files(task_dir):
        text = p.read_text()
        found = _SECTION.search(text)
        if found is None:
            new = text.rstrip("\n") + "\n\n" + want
        else:
            rest = text[found.end():]
            new = text[:found.start()] + want + ("\n" + rest if rest else "")
        if new != text:
            p.write_text(new)
            changed.append(p.relative_to(task_dir).as_posix())
    return changed
