"""Runs one command inside a side's container and reports on it as one JSON
line: exit status, output, the wall time measured here (so the engine's exec
overhead stays out of the cost) and how many processes it left behind, which
are then killed. Standard library only: it runs on the image's python3.

It runs as the container's root (with only CAP_SETUID/CAP_SETGID/CAP_KILL)
and starts the command as the side's account, so the side cannot kill or
trace it. Usage: run.py REQUEST_JSON | run.py --sweep UID GID
"""

import base64
import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time


def own_processes(uid):
    me = os.getpid()
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/status") as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
        except OSError:
            continue
        state = fields.get("State", "?").split()[0]
        if int(fields.get("Uid", "-1").split()[0]) == uid and state not in ("Z", "X"):
            out.append(int(entry))
    return out


def sweep(uid, gid):
    """Kill every process of the side's account: kill(-1) from a child running
    as that account reaches all of them (and nothing of ours: this wrapper and
    the container's init run as the container's root)."""
    found = own_processes(uid)
    for _ in range(200):
        if not own_processes(uid):
            break
        subprocess.run(["/bin/sh", "-c", "kill -KILL -1 2>/dev/null; exit 0"],
                       user=uid, group=gid, extra_groups=[], env={"PATH": "/usr/bin:/bin"})
        time.sleep(0.002)
    return len(found)


def clear_scratch(uid, gid):
    """Remove the side's files from the container's /tmp and /dev/shm, as the
    side itself (the wrapper's root may not delete in sticky directories)."""
    subprocess.run(["find", "/tmp", "/dev/shm", "-mindepth", "1", "-maxdepth", "1", "-uid",
                    str(uid), "-exec", "rm", "-rf", "{}", "+"], user=uid, group=gid,
                   extra_groups=[], env={"PATH": "/usr/bin:/bin"}, stderr=subprocess.DEVNULL)


def limits(req):
    def apply():
        for res, value in ((resource.RLIMIT_NPROC, req.get("nproc")),
                           (resource.RLIMIT_AS, req.get("address_space"))):
            if value:
                resource.setrlimit(res, (value, value))
    return apply


def main():
    if sys.argv[1] == "--sweep":
        print(sweep(int(sys.argv[2]), int(sys.argv[3])))
        return
    req = json.loads(sys.argv[1])
    uid, gid = req["uid"], req["gid"]
    if req.get("clear_scratch"):
        clear_scratch(uid, gid)
    cap = req["max_output"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter_ns()
    proc = subprocess.Popen(
        req["argv"], cwd=req["cwd"], env=req["env"], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        user=uid, group=gid, extra_groups=[], preexec_fn=limits(req),
    )
    # Output is read by threads and the wait is on the process itself, not on
    # end-of-file: a background child holding the pipes open must not stretch
    # the command's time (it is killed below and counted as left behind).
    chunks = {"out": [], "err": []}

    def reader(stream, key):
        for block in iter(lambda: stream.read(65536), b""):
            chunks[key].append(block)

    def writer(data):
        try:
            if data:
                proc.stdin.write(data)
            proc.stdin.close()
        except OSError:
            pass

    threads = [threading.Thread(target=reader, args=(proc.stdout, "out"), daemon=True),
               threading.Thread(target=reader, args=(proc.stderr, "err"), daemon=True),
               threading.Thread(target=writer, args=(base64.b64decode(req["stdin"]),),
                                daemon=True)]
    for t in threads:
        t.start()
    timed_out = False
    try:
        proc.wait(timeout=req["timeout"] or None)
    except subprocess.TimeoutExpired:
        timed_out = True
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    wall = time.perf_counter_ns() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    code = proc.returncode
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    leftover = sweep(uid, gid)
    for t in threads:
        t.join(timeout=2)
    out, err = b"".join(chunks["out"]), b"".join(chunks["err"])
    print(json.dumps({
        "exit_code": code if code >= 0 else -1,
        "signal": -code if code < 0 else 0,
        "timed_out": timed_out,
        "stdout": base64.b64encode(out[:cap]).decode(),
        "stderr": base64.b64encode(err[:cap]).decode(),
        "stdout_truncated": len(out) > cap,
        "stderr_truncated": len(err) > cap,
        "wall_ns": wall,
        "user_ns": int((after.ru_utime - before.ru_utime) * 1e9),
        "sys_ns": int((after.ru_stime - before.ru_stime) * 1e9),
        "leftover": leftover,
    }))


if __name__ == "__main__":
    main()
