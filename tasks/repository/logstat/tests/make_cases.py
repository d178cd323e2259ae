"""Writes cases.toml: the functional cases and timing inputs of the logstat task.

Run from this directory: python3 make_cases.py
"""

import json

# (id, commands run in order in a fresh copy of fixtures/, behaviour covered)
CASES = [
    ("summary-one", [
        "logstat summary access.log",
    ], "summary"),
    ("summary-many", [
        "logstat summary access.log day2.log small.log",
    ], "summary"),
    ("summary-malformed", [
        "logstat summary mixed.log",
    ], "malformed"),
    ("summary-empty", [
        "logstat summary empty.log",
    ], "empty"),
    ("summary-stdin", [
        "cat small.log | logstat summary -",
    ], "stdin"),
    ("summary-latin1", [
        "logstat summary latin1.log",
    ], "bytes"),
    ("summary-subdir", [
        "logstat summary archive/old.log",
        "logstat summary archive",
    ], "errors"),
    ("top-ip", [
        "logstat top ip access.log",
    ], "top"),
    ("top-path-n", [
        "logstat top path -n 3 access.log",
        "logstat top path access.log -n 25",
    ], "top"),
    ("top-status", [
        "logstat top status access.log mixed.log",
    ], "top"),
    ("top-latin1", [
        "logstat top path latin1.log",
    ], "bytes"),
    ("top-ties", [
        "logstat top ip -n 1 small.log",
        "logstat top status -n 2 small.log",
    ], "top"),
    ("top-bad-field", [
        "logstat top agent access.log",
    ], "usage"),
    ("top-bad-count", [
        "logstat top ip -n 0 access.log",
        "logstat top ip -n x access.log",
        "logstat top ip -n",
    ], "usage"),
    ("top-no-files", [
        "logstat top path",
    ], "usage"),
    ("hourly-stdout", [
        "logstat hourly access.log",
    ], "hourly"),
    ("hourly-file", [
        "logstat hourly access.log day2.log -o hours.tsv",
        "cat hours.tsv",
    ], "hourly"),
    ("hourly-overwrite", [
        "echo old > hours.tsv",
        "logstat hourly small.log -o hours.tsv",
        "wc -l hours.tsv",
    ], "hourly"),
    ("filter-class", [
        "logstat filter --status 5xx access.log -o errors.log",
        "logstat summary errors.log",
    ], "filter"),
    ("filter-code", [
        "logstat filter --status 404 access.log mixed.log -o missing.log",
        "logstat top path missing.log",
    ], "filter"),
    ("filter-prefix", [
        "logstat filter --prefix /static access.log -o static.log",
        "logstat top path static.log",
    ], "filter"),
    ("filter-both", [
        "logstat filter --status 2xx --prefix /api access.log -o api.log",
        "logstat hourly api.log",
    ], "filter"),
    ("filter-none-match", [
        "logstat filter --prefix /nothing access.log -o none.log",
        "logstat summary none.log",
    ], "filter"),
    ("filter-bad-status", [
        "logstat filter --status 6xx access.log -o x.log",
        "logstat filter --status 2x access.log -o x.log",
    ], "usage"),
    ("filter-no-output", [
        "logstat filter --status 2xx access.log",
    ], "usage"),
    ("filter-latin1-prefix", [
        "logstat filter --prefix /caf latin1.log -o cafe.log",
        "cat cafe.log",
    ], "bytes"),
    ("report-basic", [
        "logstat report access.log -d out",
        "ls out",
        "cat out/summary.txt",
    ], "report"),
    ("report-nested", [
        "logstat report access.log day2.log -d reports/2024/july",
    ], "report"),
    ("report-existing", [
        "mkdir keep && echo x > keep/notes.txt",
        "logstat report small.log -d keep",
    ], "report"),
    ("report-blocked", [
        "echo file > blocker",
        "logstat report small.log -d blocker",
        "logstat report small.log -d blocker/sub",
    ], "errors"),
    ("report-no-dir", [
        "logstat report access.log",
    ], "usage"),
    ("missing-file", [
        "logstat summary nope.log",
        "logstat top ip access.log nope.log",
    ], "errors"),
    ("no-args", [
        "logstat",
        "logstat summary",
    ], "usage"),
    ("unknown-command", [
        "logstat stats access.log",
    ], "usage"),
    ("unknown-option", [
        "logstat summary -x access.log",
        "logstat hourly --status 2xx access.log",
    ], "usage"),
    ("pipeline", [
        "logstat filter --status 4xx access.log -o client.log",
        "logstat report client.log -d client",
        "logstat top ip -n 3 client.log",
    ], "filter"),
    ("cleanup-then-run", [
        "rm access.log",
        "logstat summary access.log small.log",
    ], "errors"),
    ("mixed-report", [
        "logstat report mixed.log latin1.log -d mixed",
    ], "malformed"),
    ("stdin-twice", [
        "logstat summary - small.log - < day2.log",
    ], "stdin"),
    ("top-ip-many", [
        "logstat top ip -n 50 access.log day2.log archive/old.log",
    ], "top"),
    ("hourly-stdin", [
        "logstat hourly - < mixed.log",
        "logstat hourly empty.log",
    ], "stdin"),
    ("filter-stdin", [
        "cat access.log | logstat filter --status 3xx - -o redirects.log",
        "logstat top status redirects.log",
        "logstat summary redirects.log",
    ], "filter"),
    ("report-then-summarize", [
        "logstat report day2.log -d r",
        "logstat summary r/summary.txt",
        "cat r/top_ips.tsv",
    ], "report"),
    ("filter-overwrite-input", [
        "logstat filter --status 2xx small.log -o small.log",
        "logstat summary small.log",
    ], "filter"),
    ("readme-as-log", [
        "logstat summary README.txt",
        "logstat top ip README.txt",
    ], "malformed"),
    ("option-value-dash", [
        "logstat filter --prefix - access.log -o dash.log",
    ], "filter"),
    ("trailing-slash-dir", [
        "logstat report small.log -d out/",
        "ls out",
    ], "report"),
    ("stamped-run", [
        "date +%s%N > stamp.txt",
        "logstat summary small.log",
        "ls",
    ], "summary"),
    ("mode-kept", [
        "logstat hourly small.log -o h.tsv",
        "chmod 600 h.tsv",
        "logstat hourly day2.log -o h.tsv",
        "ls -l h.tsv | cut -c1-10",
    ], "hourly"),
]
# Timing inputs: the same three commands on a generated log of two sizes.
TIMING = [("small", 20000), ("large", 100000)]
TIMED = ["logstat summary big.log", "logstat top path -n 20 big.log", "logstat report big.log -d out"]


def main():
    out = ["# Functional cases of the logstat task: each runs its commands in order, in a",
           "# fresh copy of tests/fixtures/. Timing inputs: [[timing]], data made by `setup`",
           "# from $FM_TIMING_SEED, drawn afresh (and secret) in every evaluation.",
           "# Generated by make_cases.py.", ""]
    for cid, cmds, cov in CASES:
        out.append("[[case]]")
        out.append(f"id = {json.dumps(cid)}")
        out.append("commands = [" + ", ".join(json.dumps(c) for c in cmds) + "]")
        out.append(f"covers = [{json.dumps(cov)}]")
        out.append("")
    for tid, n in TIMING:
        out += ["[[timing]]", f'id = "{tid}"', f"size = {n}",
                # The log's seed is the evaluation's own, secret until the verdict.
                f'setup = ["python3 \\"$TESTS/gen_log.py\\" {n} \\"$FM_TIMING_SEED\\" > big.log"]',
                "commands = [" + ", ".join(json.dumps(c) for c in TIMED) + "]", ""]
    with open("cases.toml", "w") as f:
        f.write("\n".join(out))
    print(f"{len(CASES)} cases, {sum(len(c[1]) for c in CASES) * 4} items")


if __name__ == "__main__":
    main()
