"""A kernel side's build: compiled in a sandbox with only its staged sources,
the task's headers and the toolchain in view, and judged on the compiler's own
account of what it read (-MD, -H), not on a regex over `#include` lines."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from eval_support import ROOT
from frontier_measure import runners
from frontier_measure.compliance import c_reads
from frontier_measure.isolation import sandbox
from frontier_measure.runners import kernel, kernel_build

HISTOGRAM = ROOT / "tasks" / "kernel" / "histogram"
ALLOWED = ["stdint.h", "stddef.h"]
TC = "/opt/tc/include"


# --------------------------------------------------------------------- the account


def test_depfile_parsing_keeps_escaped_names():
    text = ("kernel.c.o: kernel.c /opt/tc/include/stdint.h \\\n  my\\ file.h cost$$.h \\\n"
            "  a\\#b.h\n")
    assert c_reads.parse_depfile(text) == ["kernel.c", "/opt/tc/include/stdint.h", "my file.h",
                                           "cost$.h", "a#b.h"]


def test_include_tree_skips_diagnostics_and_the_guard_list():
    stderr = (". /opt/tc/include/stdint.h\nkernel.c:3:2: warning: something\n"
              ".. /opt/tc/include/bits/alltypes.h\n. ./cell.h\n"
              "Multiple include guards may be useful for:\n/opt/tc/include/x.h\n")
    assert c_reads.parse_tree(stderr) == [(1, "/opt/tc/include/stdint.h"),
                                          (2, "/opt/tc/include/bits/alltypes.h"),
                                          (1, "./cell.h")]


def _check(tree: str, deps: str | None, own=("kernel.c", "cell.h"), text: str = ""):
    return [(f.rule, f.detail) for f in c_reads.check(
        source="kernel.c", cwd="/work/build", own=own, depfile=deps, stderr=tree,
        include_dirs=[TC], allowed_headers=ALLOWED, text=text)]


def test_headers_are_judged_by_who_entered_them():
    tree = (f". {TC}/stdint.h\n.. {TC}/bits/alltypes.h\n. ./cell.h\n.. {TC}/stddef.h\n"
            f".. {TC}/stdio.h\n")
    deps = (f"kernel.c.o: kernel.c {TC}/stdint.h {TC}/bits/alltypes.h cell.h {TC}/stddef.h "
            f"{TC}/stdio.h\n")
    found = _check(tree, deps)
    # stdint.h's own include is its business; stdio.h entered from the
    # side's cell.h is not allowed, whatever the text that named it.
    assert found == [("forbidden-header", f"includes stdio.h ({TC}/stdio.h; allowed: "
                                          "stddef.h, stdint.h)")]


def test_a_forced_include_is_judged_like_any_other():
    # -include puts the header at depth 1, as if the source named it.
    found = _check(f". {TC}/stdlib.h\n", f"kernel.c.o: kernel.c {TC}/stdlib.h\n")
    assert [r for r, _ in found] == ["forbidden-header"]


def test_embedded_and_probed_files_are_forbidden_reads():
    deps = (f"kernel.c.o: kernel.c {TC}/stdint.h /work/tests/golden.json ../etc/x "
            f"{TC}/stddef.h\n")
    found = _check(f". {TC}/stdint.h\n", deps)
    # The probe of an allowed header (__has_include(<stddef.h>)) is fine.
    assert [d.split(" (")[0] for r, d in found if r == "forbidden-read"] == [
        "the compiler read /work/tests/golden.json", "the compiler read /work/etc/x"]


def test_a_compile_without_an_account_is_a_finding_naming_its_embeds():
    found = _check("", None, text='static const char g[] = {\n#embed "/x/golden.json"\n};\n')
    assert found[0][0] == "no-read-account" and '"/x/golden.json"' in found[0][1]


def test_a_failed_compile_names_the_files_of_its_own_it_could_not_find():
    stderr = ("kernel.c:1:10: fatal error: '/tasks/h/tests/golden.h' file not found\n"
              "In file included from kernel.c:2:\n"
              f"{TC}/x.h:3:10: fatal error: 'bits/y.h' file not found\n")
    found = [(f.rule, f.line) for f in c_reads.check(
        source="kernel.c", cwd="/work/build", own=["kernel.c"], depfile=None, stderr=stderr,
        include_dirs=[TC], allowed_headers=ALLOWED, compiled=False)]
    assert found == [("forbidden-read", 1)]


# --------------------------------------------------------------------- real compiles


def _inspect(tmp_path: Path, source: str) -> list:
    task, runner = runners.load(HISTOGRAM)
    cand = tmp_path / "cand"
    cand.mkdir(exist_ok=True)
    (cand / "kernel.c").write_text(source)
    return runner.inspect(task, cand)


BODY = ("void histogram(const unsigned char* s, int n, uint32_t counts[6]) {\n"
        "  for (int i = 0; i < n; i++) counts[s[i] & 1]++;\n}\n")


@pytest.mark.needs_zig
def test_the_oracle_compiles_in_a_sandbox_with_a_clean_account():
    task, _ = runners.load(HISTOGRAM)
    c = kernel.compiled(task, task.oracle_dir, "candidate")
    assert c.ok and c.findings == [] and len(c.objects) == 1
    if sandbox.unavailable_reason() is None:
        assert c.sandboxed


@pytest.mark.needs_zig
@pytest.mark.parametrize("source,rule,names", [
    # a forbidden header through a macro: the regex saw `#include H`
    ("#include <stdint.h>\n#define H <stdio.h>\n#include H\n" + BODY,
     "forbidden-header", "stdio.h"),
    # the task's golden file, by its host path: not in the build's view
    ("#include <stdint.h>\nstatic const unsigned char g[] = {\n#embed \"" +
     str(HISTOGRAM / "tests" / "golden.json") + "\"\n};\n" + BODY,
     "no-read-account", "golden.json"),
    # a file the sandbox shows, embedded
    ("#include <stdint.h>\nstatic const unsigned char g[] = {\n#embed \"/etc/passwd\"\n};\n"
     + BODY, "forbidden-read", "/etc/passwd"),
    # probing with __has_embed is a read on the compiler's account
    ("#include <stdint.h>\n#if __has_embed(\"/etc/passwd\")\n#endif\n" + BODY,
     "forbidden-read", "/etc/passwd"),
    # the evaluator's harness by a path relative to the build directory
    ("#include <stdint.h>\n#include \"../../../../" + str(HISTOGRAM / "tests" / "harness.c")
     + "\"\n" + BODY, "forbidden-read", "harness.c"),
    # __FILE__ pointed at the golden file with #line, then embedded
    ("#include <stdint.h>\n#line 1 \"" + str(HISTOGRAM / "tests" / "golden.json") +
     "\"\nstatic const unsigned char g[] = {\n#embed __FILE__\n};\n" + BODY,
     "no-read-account", "__FILE__"),
])
def test_build_time_reads_are_compliance_findings(tmp_path, source, rule, names):
    found = _inspect(tmp_path, source)
    assert found and found[0].rule == rule, found
    assert names in str(found[0]), found


@pytest.mark.needs_zig
def test_the_task_files_are_not_in_the_builds_view(tmp_path):
    # The same #embed compiled on the host reads the golden file; in the
    # side's sandbox there is nothing there to read.
    src = (f'static const unsigned char g[] = {{\n#embed "{HISTOGRAM / "tests" / "golden.json"}"'
           '\n};\nunsigned long size(void) { return sizeof g; }\n')
    staged = tmp_path / "staged"
    staged.mkdir()
    (staged / "kernel.c").write_text(src)
    acc = kernel_build._compile_in_sandbox(staged, ["kernel.c"], "-O2", "candidate")
    if not acc["sandboxed"]:
        pytest.skip("no sandbox can be made here")
    assert acc["ok"] and acc["sources"]["kernel.c"]["depfile"] is None
    host = tmp_path / "host"
    shutil.copytree(staged, host)
    import subprocess

    r = subprocess.run([*kernel_build.toolchain().host_argv, "-c", "kernel.c", "-MD", "-MF",
                        "k.d", "-o", "k.o"], cwd=host, capture_output=True, text=True)
    assert r.returncode == 0 and "golden.json" in (host / "k.d").read_text()


@pytest.mark.needs_zig
def test_without_a_sandbox_the_account_is_still_checked(tmp_path, monkeypatch):
    # Where no sandbox can be made (no bubblewrap), the build runs as the
    # side's id on the host: the account still names what was read.
    monkeypatch.setattr(sandbox, "unavailable_reason", lambda: "not here (test)")
    staged = tmp_path / "staged"
    staged.mkdir()
    (staged / "kernel.c").write_text("#include <stdint.h>\n#if __has_embed(\"/etc/passwd\")\n"
                                     "#endif\n" + BODY)
    c = kernel_build.compile_side(staged, ["kernel.c"], "-O2", ALLOWED, tmp_path / "cache",
                                  "candidate")
    assert c.ok and not c.sandboxed
    assert [f.rule for f in c.findings] == ["forbidden-read"]
