"""The system calls a side may make: an allow-list, everything else denied.

A side's sandbox is fresh for every run (new namespaces), so most kernel
objects it makes die with the run. The allow-list closes the rest by
construction: a call that is not on it fails, whatever store or trick it
would have reached. The list is written out here name by name, so a system
call added to the kernel after it was written is denied until someone decides
otherwise (a deny-list would let it through).

Left off on purpose (each a way to keep state past a run, to see or touch
another process, or to change the machine): keyrings (keyctl, add_key,
request_key: per user, not per namespace); POSIX message queues and System V
IPC; ptrace, process_vm_*, kcmp, pidfd_getfd; perf_event_open, bpf,
userfaultfd, io_uring_*; unshare, setns, mount and the new mount API,
pivot_root, chroot; namespaces through clone flags (clone3, whose flags a
filter cannot read, answers ENOSYS so the C library falls back to clone);
fanotify; personality; module, clock, swap, reboot and quota calls. Sockets
are local (AF_UNIX) unless the task names "socket"; the network namespace is
empty either way.

Two programs are made from the list, both with libseccomp (loaded with
ctypes: libseccomp2 is part of every Debian system):

* `program(NOTIFY)`: denied calls go to a supervisor (the sandbox's init,
  _container/run.py), which answers EPERM and records the call's name, so a
  denied call is a finding with a name rather than a mystery crash;
* `program(EPERM)`: denied calls fail with EPERM, for bubblewrap's --seccomp
  where no supervisor runs (Python workers, whose audit hook names what they
  tried first).

`docker_profile()` gives Docker the same list in its own JSON form.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import json
import os
import platform
from collections.abc import Iterable
from functools import cache

from .. import _core

# Ordinary work: files, memory, processes and threads, signals, time, pipes,
# polling, local sockets.
ALLOWED = (
    # files and directories
    "read", "write", "open", "openat", "openat2", "close", "close_range", "creat",
    "stat", "fstat", "lstat", "newfstatat", "statx", "statfs", "fstatfs", "lseek",
    "pread64", "pwrite64", "readv", "writev", "preadv", "pwritev", "preadv2", "pwritev2",
    "access", "faccessat", "faccessat2", "getdents", "getdents64", "getcwd", "chdir",
    "fchdir", "rename", "renameat", "renameat2", "mkdir", "mkdirat", "rmdir", "link",
    "linkat", "unlink", "unlinkat", "symlink", "symlinkat", "readlink", "readlinkat",
    "chmod", "fchmod", "fchmodat", "chown", "fchown", "lchown", "fchownat", "umask",
    "truncate", "ftruncate", "fallocate", "fsync", "fdatasync", "syncfs", "sync_file_range",
    "flock", "fcntl", "dup", "dup2", "dup3", "pipe", "pipe2", "mknod", "mknodat",
    "utime", "utimes", "utimensat", "futimesat", "sendfile", "splice", "tee", "vmsplice",
    "copy_file_range", "readahead", "fadvise64", "ioctl", "getxattr", "lgetxattr",
    "fgetxattr", "listxattr", "llistxattr", "flistxattr", "setxattr", "lsetxattr",
    "fsetxattr", "removexattr", "lremovexattr", "fremovexattr", "memfd_create",
    "inotify_init", "inotify_init1", "inotify_add_watch", "inotify_rm_watch",
    # memory
    "brk", "mmap", "munmap", "mremap", "mprotect", "madvise", "msync", "mincore",
    "mlock", "mlock2", "munlock", "mlockall", "munlockall", "remap_file_pages",
    "get_mempolicy", "set_mempolicy", "mbind", "membarrier", "pkey_alloc", "pkey_free",
    "pkey_mprotect",
    # processes and threads
    "clone", "fork", "vfork", "execve", "execveat", "exit", "exit_group", "wait4",
    "waitid", "getpid", "getppid", "gettid", "getpgid", "setpgid", "getpgrp", "getsid",
    "setsid", "set_tid_address", "set_robust_list", "get_robust_list", "rseq", "futex",
    "futex_waitv", "arch_prctl", "prctl", "seccomp", "getrlimit", "setrlimit", "prlimit64",
    "getrusage", "times", "getpriority", "setpriority", "sched_yield", "sched_getaffinity",
    "sched_setaffinity",  # bounded by the side's cpuset: it cannot widen its CPUs
    "sched_getparam", "sched_getscheduler", "sched_get_priority_max",
    "sched_get_priority_min", "sched_rr_get_interval", "sched_getattr", "getcpu",
    "ioprio_get", "pidfd_open", "pidfd_send_signal", "landlock_create_ruleset",
    "landlock_add_rule", "landlock_restrict_self",
    # ids: in the side's user namespace, with no capabilities, these can only drop
    "getuid", "geteuid", "getgid", "getegid", "getgroups", "getresuid", "getresgid",
    "setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid", "setfsuid",
    "setfsgid", "setgroups", "capget", "capset",
    # signals and time
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigpending", "rt_sigtimedwait",
    "rt_sigqueueinfo", "rt_tgsigqueueinfo", "rt_sigsuspend", "sigaltstack", "kill",
    "tkill", "tgkill", "pause", "alarm", "nanosleep", "clock_nanosleep", "clock_gettime",
    "clock_getres", "gettimeofday", "time", "getitimer", "setitimer", "timer_create",
    "timer_settime", "timer_gettime", "timer_getoverrun", "timer_delete",
    "timerfd_create", "timerfd_settime", "timerfd_gettime", "signalfd", "signalfd4",
    "eventfd", "eventfd2", "restart_syscall",
    # waiting on descriptors
    "select", "pselect6", "poll", "ppoll", "epoll_create", "epoll_create1", "epoll_ctl",
    "epoll_wait", "epoll_pwait", "epoll_pwait2",
    # local sockets (socket itself: AF_UNIX only, see `program`)
    "socket", "socketpair", "connect", "accept", "accept4", "bind", "listen",
    "getsockname", "getpeername", "setsockopt", "getsockopt", "sendto", "recvfrom",
    "sendmsg", "recvmsg", "sendmmsg", "recvmmsg", "shutdown",
    # the machine, read only
    "uname", "sysinfo", "getrandom", "sethostname", "setdomainname",  # the side's own UTS
)

# Never allowed, whatever a task asks: each reaches past the side's own run.
NEVER = frozenset({
    "keyctl", "add_key", "request_key", "ptrace", "process_vm_readv", "process_vm_writev",
    "kcmp", "pidfd_getfd", "process_madvise", "process_mrelease", "perf_event_open", "bpf",
    "userfaultfd", "unshare", "setns", "mount", "umount2", "pivot_root", "chroot",
    "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
    "name_to_handle_at", "open_by_handle_at", "kexec_load", "kexec_file_load",
    "init_module", "finit_module", "delete_module", "reboot", "swapon", "swapoff",
    "acct", "settimeofday", "clock_settime", "adjtimex", "clock_adjtime", "syslog",
    "iopl", "ioperm", "quotactl", "quotactl_fd", "fanotify_init", "fanotify_mark",
    "lookup_dcookie", "vhangup", "uselib", "_sysctl", "nfsservctl", "memfd_secret",
    "modify_ldt", "personality",
})

# What a task may name in addition (`syscalls` in its [metadata.frontier]):
# any call not in NEVER, e.g. "shmget", "mq_open" (its own IPC namespace is
# still new for every run), "io_uring_setup", or "socket" for sockets of any family.

AF_UNIX = 1
CLONE_NAMESPACES = (0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000
                    | 0x20000000 | 0x40000000 | 0x00000080)  # CLONE_NEW{NS,CGROUP,UTS,IPC,USER,PID,NET,TIME}

# libseccomp's action values (seccomp.h)
ALLOW = 0x7FFF0000
NOTIFY = 0x7FC00000


def errno_action(code: int) -> int:
    return 0x00050000 | (code & 0xFFFF)


EPERM = errno_action(errno.EPERM)

_CMP_EQ = 4
_CMP_MASKED_EQ = 7


class _ArgCmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int),
                ("datum_a", ctypes.c_uint64), ("datum_b", ctypes.c_uint64)]


@cache
def _lib() -> ctypes.CDLL:
    name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
    try:
        lib = ctypes.CDLL(name, use_errno=True)
    except OSError as exc:
        raise _core.IsolationError(
            f"libseccomp is not installed ({exc}): Debian package libseccomp2") from exc
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_syscall_resolve_name.restype = ctypes.c_int
    lib.seccomp_syscall_resolve_num_arch.argtypes = [ctypes.c_uint32, ctypes.c_int]
    lib.seccomp_syscall_resolve_num_arch.restype = ctypes.c_void_p
    lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int,
                                           ctypes.c_uint, ctypes.POINTER(_ArgCmp)]
    lib.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.seccomp_attr_set.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32]
    return lib


_ATTR_OPTIMIZE = 8  # SCMP_FLTATR_CTL_OPTIMIZE (libseccomp >= 2.5)


def unavailable_reason() -> str | None:
    try:
        _lib()
    except _core.IsolationError as exc:
        return str(exc)
    return None


def number(name: str) -> int:
    """The system call's number on this machine, or -1 where it has none."""
    return int(_lib().seccomp_syscall_resolve_name(name.encode()))


def name_of(nr: int) -> str:
    """The name of system call `nr` on this machine (`syscall N` if unknown)."""
    lib = _lib()
    p = lib.seccomp_syscall_resolve_num_arch(0, nr)  # 0: the native architecture
    if not p:
        return f"syscall {nr}"
    name = ctypes.string_at(p).decode()
    ctypes.CDLL(None).free(ctypes.c_void_p(p))
    return name


def check_extra(names: Iterable[str]) -> list[str]:
    """What is wrong with a task's extra system calls (empty when nothing)."""
    problems = []
    for n in names:
        if not isinstance(n, str) or not n:
            problems.append(f"not a system call name: {n!r}")
        elif n in NEVER:
            problems.append(f"'{n}' is never allowed to a side")
        elif unavailable_reason() is None and number(n) < 0:
            problems.append(f"'{n}' is not a system call on this machine")
    return problems


def allowed(extra: Iterable[str] = ()) -> list[str]:
    """The names a side may call, for the result's record."""
    return sorted(set(ALLOWED) | set(extra))


@cache
def program(deny_action: int, extra: tuple[str, ...] = ()) -> bytes:
    """A classic BPF program (what seccomp(2) and bwrap --seccomp take) that
    allows ALLOWED and `extra` and answers every other call with
    `deny_action` (NOTIFY or an errno action)."""
    lib = _lib()
    ctx = lib.seccomp_init(deny_action)
    if not ctx:
        raise _core.IsolationError("libseccomp could not start a filter")
    try:
        # A binary tree of the allowed numbers rather than a list tried in
        # order: every system call of a side runs the filter, so its length
        # is paid per call (where libseccomp is older, the list it is).
        lib.seccomp_attr_set(ctx, _ATTR_OPTIMIZE, 2)
        def add(action: int, name: str, *cmps: _ArgCmp) -> None:
            nr = number(name)
            if nr < 0:
                return  # not a call of this architecture (e.g. open on arm64)
            arr = (_ArgCmp * len(cmps))(*cmps) if cmps else None
            rc = lib.seccomp_rule_add_array(ctx, action, nr, len(cmps), arr)
            if rc != 0:
                raise _core.IsolationError(f"libseccomp refused the rule for {name} ({rc})")

        wanted = set(ALLOWED) | set(extra)
        for name in sorted(wanted - {"clone", "socket"}):
            add(ALLOW, name)
        # New namespaces would be the side's own to keep things in: clone is
        # allowed without namespace flags only.
        add(ALLOW, "clone", _ArgCmp(0, _CMP_MASKED_EQ, CLONE_NAMESPACES, 0))
        if "socket" in extra:
            add(ALLOW, "socket")
        else:
            add(ALLOW, "socket", _ArgCmp(0, _CMP_EQ, AF_UNIX, 0))
        if "clone3" not in wanted:
            add(errno_action(errno.ENOSYS), "clone3")
        r, w = os.pipe()
        try:
            if lib.seccomp_export_bpf(ctx, w) != 0:
                raise _core.IsolationError("libseccomp could not export the filter")
            os.close(w)
            w = -1
            chunks = []
            while chunk := os.read(r, 65536):
                chunks.append(chunk)
            return b"".join(chunks)
        finally:
            os.close(r)
            if w >= 0:
                os.close(w)
    finally:
        lib.seccomp_release(ctx)


def seccomp_syscall_number() -> int:
    """The number of seccomp(2) itself, for the init that installs a program."""
    return number("seccomp")


# The calls a side is most likely to try for a store or a way around the
# measurement: a container lets these through its own profile when the
# launcher inside installs the allow-list itself (NOTIFY), so that they are
# refused and named there rather than refused silently by the container.
NAMED = ("keyctl", "add_key", "request_key", "mq_open", "mq_unlink", "mq_timedsend",
         "mq_timedreceive", "mq_notify", "mq_getsetattr", "shmget", "shmat", "shmctl", "shmdt",
         "semget", "semop", "semctl", "semtimedop", "msgget", "msgsnd", "msgrcv", "msgctl",
         "ptrace", "process_vm_readv", "process_vm_writev", "perf_event_open", "bpf",
         "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register", "personality",
         "unshare", "setns")


def docker_profile(extra: Iterable[str] = (), named: bool = False) -> str:
    """The same allow-list as a Docker seccomp profile (JSON): denied calls
    fail with EPERM, clone only without namespace flags, socket AF_UNIX only
    unless the task names it, clone3 ENOSYS. With `named`, NAMED are let
    through to the filter the launcher installs (which refuses and names them),
    and so are the launcher's own namespace calls."""
    extra = set(extra)
    names = sorted((set(ALLOWED) | extra | (set(NAMED) if named else set()))
                   - {"clone", "socket"})
    syscalls: list[dict[str, object]] = [{"names": names, "action": "SCMP_ACT_ALLOW"}]
    if named:
        # The launcher makes each command's namespaces (clone with namespace
        # flags) and mounts its /tmp and /dev/shm there, before the command
        # runs under its own filter, which refuses both.
        syscalls.append({"names": ["clone", "mount"], "action": "SCMP_ACT_ALLOW"})
    else:
        syscalls.append({"names": ["clone"], "action": "SCMP_ACT_ALLOW",
                         "args": [{"index": 0, "value": CLONE_NAMESPACES, "valueTwo": 0,
                                   "op": "SCMP_CMP_MASKED_EQ"}]})
    if "socket" in extra:
        syscalls.append({"names": ["socket"], "action": "SCMP_ACT_ALLOW"})
    else:
        syscalls.append({"names": ["socket"], "action": "SCMP_ACT_ALLOW",
                         "args": [{"index": 0, "value": AF_UNIX, "valueTwo": 0,
                                   "op": "SCMP_CMP_EQ"}]})
    if "clone3" not in extra:
        syscalls.append({"names": ["clone3"], "action": "SCMP_ACT_ERRNO",
                         "errnoRet": errno.ENOSYS})
    arch = {"x86_64": ["SCMP_ARCH_X86_64"], "aarch64": ["SCMP_ARCH_AARCH64"]}.get(
        platform.machine(), [])
    return json.dumps({"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": errno.EPERM,
                       "architectures": arch, "syscalls": syscalls})
