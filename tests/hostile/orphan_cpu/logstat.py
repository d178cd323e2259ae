"""logstat: summaries of web server access logs (Common Log Format).

    logstat summary FILE...                  totals, status classes, distinct clients
    logstat top ip|path|status [-n N] FILE...  the most frequent values
    logstat hourly FILE... [-o OUT]          requests per hour
    logstat filter [--status S] [--prefix P] FILE... -o OUT
                                             copy matching lines to OUT
    logstat report FILE... -d DIR            summary.txt, top_paths.tsv, top_ips.tsv,
                                             hourly.tsv in DIR

FILE may be '-' for standard input. Lines that do not parse are skipped and
counted; a warning goes to stderr. Exit codes: 0 ok, 1 an input could not be
read, 2 usage error.
"""

import os
import re
import sys

LINE = re.compile(
    r'^(\S+) \S+ \S+ \[(\d\d)/([A-Za-z]{3})/(\d{4}):(\d\d):(\d\d):(\d\d) [+-]\d{4}\] '
    r'"(\S+) (\S+) (\S+)" (\d{3}) (\d+|-)$'
)
MONTHS = {m: i + 1 for i, m in enumerate(
    ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"])}
USAGE = "usage: logstat summary|top|hourly|filter|report [OPTIONS] FILE...\n"
OPTIONS = {
    "summary": set(),
    "top": {"-n"},
    "hourly": {"-o"},
    "filter": {"--status", "--prefix", "-o"},
    "report": {"-d"},
}


class UsageError(Exception):
    pass


class Record:
    def __init__(self, raw, m):
        self.raw = raw
        self.ip = m.group(1)
        self.day = int(m.group(2))
        self.month = MONTHS[m.group(3)]
        self.year = int(m.group(4))
        self.hour = int(m.group(5))
        self.method = m.group(8)
        self.path = m.group(9)
        self.status = m.group(11)
        size = m.group(12)
        self.size = 0 if size == "-" else int(size)


def parse_lines(lines):
    records = []
    malformed = 0
    for raw in lines:
        m = LINE.match(raw)
        if m is None or m.group(3) not in MONTHS:
            malformed += 1
            continue
        records.append(Record(raw, m))
    return records, malformed


def read_inputs(files):
    lines = []
    for name in files:
        try:
            if name == "-":
                data = sys.stdin.buffer.read()
            else:
                with open(name.encode("latin-1"), "rb") as f:
                    data = f.read()
        except OSError:
            fail(f"logstat: cannot open '{name}'\n")
        text = data.decode("latin-1")
        parts = text.split("\n")
        if parts and parts[-1] == "":
            parts.pop()
        lines.extend(parts)
    return lines


def parse_args(argv):
    if not argv:
        raise UsageError(USAGE)
    command = argv[0]
    if command not in OPTIONS:
        raise UsageError(USAGE)
    opts = {}
    files = []
    i = 1
    while i < len(argv):
        a = argv[i]
        if a.startswith("-") and a != "-":
            if a not in OPTIONS[command]:
                raise UsageError(f"logstat: unknown option '{a}'\n")
            if i + 1 >= len(argv):
                raise UsageError(f"logstat: option '{a}' needs a value\n")
            opts[a] = argv[i + 1]
            i += 2
        else:
            files.append(a)
            i += 1
    return command, opts, files


def status_class(status):
    first = status[0]
    return first + "xx" if first in "2345" else "other"


def summary_text(records, malformed):
    classes = {"2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0, "other": 0}
    ips = set()
    total = 0
    for r in records:
        classes[status_class(r.status)] += 1
        ips.add(r.ip)
        total += r.size
    out = [
        f"requests: {len(records)}",
        f"malformed: {malformed}",
        f"unique_ips: {len(ips)}",
        f"bytes: {total}",
    ]
    if records:
        out.append(f"mean_bytes: {total // len(records)}")
    for k in ("2xx", "3xx", "4xx", "5xx", "other"):
        out.append(f"{k}: {classes[k]}")
    return "\n".join(out) + "\n"


def top_values(records, field, n):
    counts = {}
    for r in records:
        v = getattr(r, field)
        counts[v] = counts.get(v, 0) + 1
    # Byte order for ties, as the values are latin-1 decoded bytes.
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].encode("latin-1")))
    return "".join(f"{c}\t{v}\n" for v, c in ranked[:n])


def hourly_text(records):
    counts = {}
    for r in records:
        key = (r.year, r.month, r.day, r.hour)
        counts[key] = counts.get(key, 0) + 1
    return "".join(f"{y:04d}-{mo:02d}-{d:02d} {h:02d}:00\t{c}\n"
                   for (y, mo, d, h), c in sorted(counts.items()))


def matches(r, status, prefix):
    if status is not None:
        if len(status) == 3 and status.endswith("xx"):
            if r.status[0] != status[0]:
                return False
        elif r.status != status:
            return False
    return prefix is None or r.path.startswith(prefix)


def fail(message, code=1):
    sys.stdout.buffer.flush()
    sys.stderr.buffer.write(message.encode("latin-1"))
    sys.exit(code)


def write_file(path, text):
    try:
        with open(path.encode("latin-1"), "wb") as f:
            f.write(text.encode("latin-1"))
    except OSError:
        fail(f"logstat: cannot write '{path}'\n")


def positive(value):
    if not value.isdigit() or int(value) <= 0:
        raise UsageError(f"logstat: invalid count '{value}'\n")
    return int(value)


def main(argv):
    # Arguments, paths and log lines are all handled as bytes (latin-1 maps
    # each byte to one character), whatever the locale.
    argv = [os.fsencode(a).decode("latin-1") for a in argv]
    try:
        command, opts, files = parse_args(argv)
        if not files:
            raise UsageError("logstat: no input files\n")
        if command == "top":
            if not files or files[0] not in ("ip", "path", "status"):
                raise UsageError(f"logstat: unknown field '{files[0]}'\n")
            field = files.pop(0)
            if not files:
                raise UsageError("logstat: no input files\n")
            n = positive(opts.get("-n", "10"))
        if command == "filter":
            if "-o" not in opts:
                raise UsageError("logstat: filter needs -o FILE\n")
            status = opts.get("--status")
            if status is not None and not re.fullmatch(r"[1-5](xx|[0-9][0-9])", status):
                raise UsageError(f"logstat: invalid status '{status}'\n")
        if command == "report" and "-d" not in opts:
            raise UsageError("logstat: report needs -d DIR\n")
    except UsageError as exc:
        fail(str(exc), 2)

    records, malformed = parse_lines(read_inputs(files))
    out = sys.stdout.buffer
    if command == "summary":
        out.write(summary_text(records, malformed).encode("latin-1"))
    elif command == "top":
        out.write(top_values(records, field, n).encode("latin-1"))
    elif command == "hourly":
        text = hourly_text(records)
        if "-o" in opts:
            write_file(opts["-o"], text)
        else:
            out.write(text.encode("latin-1"))
    elif command == "filter":
        kept = [r.raw for r in records if matches(r, opts.get("--status"), opts.get("--prefix"))]
        write_file(opts["-o"], "".join(line + "\n" for line in kept))
        out.write(f"{len(kept)} lines written to {opts['-o']}\n".encode("latin-1"))
    elif command == "report":
        d = opts["-d"]
        try:
            os.makedirs(d.encode("latin-1"), exist_ok=True)
        except OSError:
            fail(f"logstat: cannot create '{d}'\n")
        write_file(os.path.join(d, "summary.txt"), summary_text(records, malformed))
        write_file(os.path.join(d, "top_paths.tsv"), top_values(records, "path", 10))
        write_file(os.path.join(d, "top_ips.tsv"), top_values(records, "ip", 10))
        write_file(os.path.join(d, "hourly.tsv"), hourly_text(records))
        out.write(f"report written to {d}\n".encode("latin-1"))
    out.flush()
    if malformed:
        sys.stderr.buffer.write(
            f"logstat: warning: {malformed} malformed line(s) skipped\n".encode("latin-1"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
