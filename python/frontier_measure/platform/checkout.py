"""Isolated checkouts: every attempt starts from the task's pristine workspace.

A checkout is a private, writable copy of the pristine tree, made fresh for one
attempt and removed after it:

* as root, an overlay mount (lower: the pristine tree, never written; upper: this
  attempt's changes), so a 70 MB repository costs nothing to "copy" and the
  changes are exactly the upper directory;
* otherwise a plain copy.

With `isolation = "docker"` (the default) the attempt also gets a container of its
own from the task's image: no network, limits, the checkout bind-mounted at the
task's workdir, labelled with the run's database so that a runner that died
(kill -9) has its leftovers removed at its next start. The agent process runs on
the host and sends its commands into the container (`docker exec`). With
`isolation = "copy"` (the fallback) commands run on the host in the checkout.

What goes back to the host is a `Changes` (added, modified, deleted files against
the pristine tree), from which the patch and its line counts are made; the gate
reads the checkout after the agent and its container are gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import hashlib
import os
import shutil
import stat
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

# Written by tools, not by the agent's intent: kept out of changes and patches.
IGNORED_PARTS = ("__pycache__", ".pytest_cache", ".mypy_cache")
IGNORED_SUFFIXES = (".pyc",)
LABEL = "frontier-measure.platform"  # value: the run database's id (see runner.db_label)
CONTAINER_START_STOP_S = 3.0  # a stopped run waits this long for a `docker run` under way


def _ignored(rel: str) -> bool:
    parts = rel.split("/")
    return any(p in IGNORED_PARTS for p in parts) or rel.endswith(IGNORED_SUFFIXES)


def ignore_tool_files(directory: str, names: list[str]) -> set[str]:
    """shutil.copytree's ignore: what changes and patches leave out."""
    rel = Path(directory)
    return {n for n in names if _ignored(str(rel / n))}


# ---------------------------------------------------------------- the private copy


def overlay_supported() -> bool:
    if os.geteuid() != 0:
        return False
    try:
        return "overlay" in Path("/proc/filesystems").read_text()
    except OSError:
        return False


@dataclass
class Checkout:
    """A private copy of `pristine` at `root/workspace`."""

    pristine: Path
    root: Path  # the attempt's scratch directory (removed by close())
    overlay: bool = False

    @property
    def path(self) -> Path:
        return self.root / "workspace"

    @classmethod
    def create(cls, pristine: Path, root: Path, overlay: bool | None = None) -> Checkout:
        if root.exists():
            remove_tree(root)
        root.mkdir(parents=True)
        use_overlay = overlay_supported() if overlay is None else overlay
        c = cls(pristine.resolve(), root, use_overlay)
        if use_overlay:
            for d in ("upper", "work", "workspace"):
                (root / d).mkdir()
            r = subprocess.run(["mount", "-t", "overlay", "overlay", "-o",
                                f"lowerdir={c.pristine},upperdir={root / 'upper'},"
                                f"workdir={root / 'work'}", str(c.path)],
                               capture_output=True, text=True)
            if r.returncode == 0:
                return c
            # No overlay here after all (a filesystem that cannot be a lower or upper).
            c.overlay = False
            (root / "workspace").rmdir()
        shutil.copytree(c.pristine, c.path, symlinks=True)
        return c

    def candidate_paths(self) -> set[str] | None:
        """Paths that may differ from the pristine tree (None: any of them may)."""
        if not self.overlay:
            return None
        upper = self.root / "upper"
        out: set[str] = set()
        for dirpath, dirnames, filenames in os.walk(upper):
            rel_dir = os.path.relpath(dirpath, upper)
            for name in filenames + dirnames:
                rel = name if rel_dir == "." else f"{rel_dir}/{name}"
                full = Path(dirpath) / name
                st = full.lstat()
                whiteout = stat.S_ISCHR(st.st_mode) and st.st_rdev == 0
                opaque = stat.S_ISDIR(st.st_mode) and _opaque(full)
                if whiteout or opaque:
                    # A deleted or replaced directory: every pristine file below it may be gone.
                    out.update(_files_below(self.pristine / rel, rel))
                if not stat.S_ISDIR(st.st_mode) or whiteout:
                    out.add(rel)
        return out

    def changes(self) -> Changes:
        return tree_changes(self.pristine, self.path, self.candidate_paths())

    def close(self) -> None:
        if self.overlay:
            subprocess.run(["umount", "-l", str(self.path)], capture_output=True)
        remove_tree(self.root)


def _opaque(path: Path) -> bool:
    try:
        return os.getxattr(path, "trusted.overlay.opaque") == b"y"
    except OSError:
        return False


def _files_below(path: Path, rel: str) -> set[str]:
    if not path.is_dir() or path.is_symlink():
        return set()
    out = set()
    for dirpath, _, filenames in os.walk(path):
        for name in filenames:
            out.add(f"{rel}/{os.path.relpath(Path(dirpath) / name, path)}")
    return out


def remove_tree(root: Path) -> None:
    """Remove a scratch directory, unmounting what is mounted below it first."""
    root = root.resolve()
    try:
        mounts = [line.split()[1] for line in Path("/proc/mounts").read_text().splitlines()]
    except OSError:
        mounts = []
    for m in sorted(mounts, key=len, reverse=True):
        m = m.replace("\\040", " ")
        if m == str(root) or m.startswith(str(root) + "/"):
            subprocess.run(["umount", "-l", m], capture_output=True)
    shutil.rmtree(root, ignore_errors=True)


# ---------------------------------------------------------------- changes and patches


@dataclass
class Change:
    path: str
    kind: str  # added | modified | deleted
    before: bytes | None  # file content (a symlink: b"-> target")
    after: bytes | None


@dataclass
class Changes:
    items: list[Change] = field(default_factory=list)

    @property
    def files(self) -> int:
        return len(self.items)

    def patch(self) -> str:
        """A unified diff (git style, applies with `git apply`)."""
        return "".join(_file_patch(c) for c in self.items)

    def line_counts(self) -> tuple[int, int]:
        """Lines added and removed, over the text files."""
        added = removed = 0
        for c in self.items:
            a, b = _lines(c.before), _lines(c.after)
            if a is None or b is None:
                continue
            for line in difflib.unified_diff(a, b, n=0):
                if line.startswith("+") and not line.startswith("+++"):
                    added += 1
                elif line.startswith("-") and not line.startswith("---"):
                    removed += 1
        return added, removed


def _read(path: Path) -> bytes | None:
    try:
        st = path.lstat()
    except OSError:
        return None
    if stat.S_ISLNK(st.st_mode):
        return b"-> " + os.readlink(path).encode()
    if stat.S_ISREG(st.st_mode):
        try:
            return path.read_bytes()
        except OSError:
            return None
    return None


def _walk_files(root: Path) -> set[str]:
    out = set()
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        for name in filenames + [d for d in dirnames if (Path(dirpath) / d).is_symlink()]:
            out.add(name if rel_dir == "." else f"{rel_dir}/{name}")
    return out


def tree_changes(pristine: Path, workspace: Path, paths: set[str] | None = None) -> Changes:
    if paths is None:
        paths = _walk_files(pristine) | _walk_files(workspace)
    items = []
    for rel in sorted(paths):
        if _ignored(rel):
            continue
        before, after = _read(pristine / rel), _read(workspace / rel)
        if before == after:
            continue
        kind = "added" if before is None else "deleted" if after is None else "modified"
        items.append(Change(rel, kind, before, after))
    return Changes(items)


def _lines(data: bytes | None) -> list[str] | None:
    if data is None:
        return []
    if b"\0" in data:
        return None
    try:
        return data.decode().splitlines(keepends=True)
    except UnicodeDecodeError:
        return None


def _file_patch(c: Change) -> str:
    a, b = _lines(c.before), _lines(c.after)
    head = f"diff --git a/{c.path} b/{c.path}\n"
    if c.kind == "added":
        head += "new file mode 100644\n"
    elif c.kind == "deleted":
        head += "deleted file mode 100644\n"
    if a is None or b is None:
        return head + f"Binary files a/{c.path} and b/{c.path} differ\n"
    body = list(difflib.unified_diff(a, b, "/dev/null" if c.kind == "added" else f"a/{c.path}",
                                     "/dev/null" if c.kind == "deleted" else f"b/{c.path}"))
    out = []
    for line in body:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return head + "".join(out)


def digest(path: Path) -> str:
    """A short content hash of a tree (names, modes, contents)."""
    h = hashlib.sha256()
    for rel in sorted(_walk_files(path)):
        data = _read(path / rel) or b""
        h.update(rel.encode() + b"\0" + data + b"\0")
    return h.hexdigest()[:16]


# ---------------------------------------------------------------- the container


@dataclass
class Container:
    """The attempt's container (docker CLI; the runner is asyncio, so are these)."""

    id: str
    workdir: str

    @classmethod
    async def start(cls, image: str, checkout: Path, workdir: str, labels: dict[str, str],
                    cpus: float | None = None, memory_mb: int | None = None) -> Container:
        argv = ["docker", "run", "-d", "--network", "none", "--init",
                "-v", f"{checkout}:{workdir}", "-w", workdir]
        for k, v in labels.items():
            argv += ["--label", f"{k}={v}"]
        if cpus:
            argv += ["--cpus", str(cpus)]
        if memory_mb:
            argv += ["--memory", f"{memory_mb}m", "--memory-swap", f"{memory_mb}m"]
        argv += ["--pids-limit", "1024", image, "sleep", "infinity"]
        started = asyncio.ensure_future(run_process(argv, timeout=120))
        try:
            code, out, err = await asyncio.shield(started)
        except asyncio.CancelledError:
            # A stopped run: killing `docker run` half-way could leave a container made
            # behind its back; let it end (a few seconds at most), then remove what it made.
            with contextlib.suppress(TimeoutError):
                code, out, _ = await asyncio.wait_for(started, CONTAINER_START_STOP_S)
                if code == 0 and out.strip():
                    await run_process(["docker", "rm", "-f", out.strip()], timeout=60)
            raise
        if code != 0:
            raise RuntimeError(f"docker run {image} failed: {err.strip()[-800:]}")
        return cls(out.strip(), workdir)

    async def exec(self, command: str, timeout: float) -> tuple[int, str]:
        code, out, err = await run_process(
            ["docker", "exec", "-w", self.workdir, self.id, "bash", "-c", command], timeout=timeout)
        return code, out + err

    async def remove(self) -> None:
        await run_process(["docker", "rm", "-f", self.id], timeout=120)


async def run_process(argv: list[str], timeout: float, cwd: Path | None = None,
                      env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """Run a command to completion (its whole session killed at the timeout, or when
    the caller is cancelled)."""
    proc = await asyncio.create_subprocess_exec(*argv, cwd=cwd, env=env,
                                                stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE,
                                                start_new_session=True)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), timeout)
    except TimeoutError:
        kill_session(proc.pid)
        await proc.wait()
        return -9, "", f"timed out after {timeout:g} s"
    except asyncio.CancelledError:
        kill_session(proc.pid)
        await proc.wait()
        raise
    return proc.returncode or 0, out.decode(errors="replace"), err.decode(errors="replace")


def kill_session(pid: int) -> None:
    import signal

    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def process_start(pid: int) -> str:
    """The start time of a process (field 22 of /proc/PID/stat): with the pid it
    names one process, even after the pid is reused."""
    try:
        stat_line = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat_line.rsplit(")", 1)[-1].split()[19]


def kill_recorded(pid_file: Path) -> bool:
    """Kill the session recorded in `pid_file` ("PID START") if it is still that process."""
    try:
        pid_s, start = pid_file.read_text().split()
    except (OSError, ValueError):
        return False
    if process_start(int(pid_s)) != start:
        return False
    kill_session(int(pid_s))
    return True


def remove_labelled_containers(label_value: str) -> list[str]:
    """Containers a runner of this database left behind (docker ps by label)."""
    try:
        r = subprocess.run(["docker", "ps", "-aq", "--filter", f"label={LABEL}={label_value}"],
                           capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return []
    ids = r.stdout.split()
    if ids:
        subprocess.run(["docker", "rm", "-f", *ids], capture_output=True, timeout=300)
    return ids


def docker_available() -> str | None:
    """None when a Docker engine answers, else why not."""
    if shutil.which("docker") is None:
        return "no docker client"
    try:
        r = subprocess.run(["docker", "info", "--format", "{{.ServerVersion}}"],
                           capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"docker info failed: {exc}"
    return None if r.returncode == 0 else "no Docker engine answering (scripts/services.sh starts it)"
