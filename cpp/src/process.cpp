#include "fm/process.hpp"

#include "fm/affinity.hpp"
#include "fm/clock.hpp"
#include "fm/errors.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sstream>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace fm::process {

// Everything a starting child needs, built before it exists: between its
// start and execve the child may only make async-signal-safe calls, and in the
// vfork path it runs on the parent's memory, so it must not allocate either.
struct ChildPlan {
    const char* exe = nullptr;
    char* const* argv = nullptr;
    char* const* envp = nullptr;
    const char* cwd = nullptr;  // nullptr = inherit
    const Limits* limits = nullptr;
    bool pin = false;
    cpu_set_t cpuset{};
    int64_t uid = -1, gid = -1;
    bool die_with_parent = false;
    pid_t parent = 0;
    const char* const* cgroups = nullptr;
    size_t n_cgroups = 0;
    int in_fd = -1, out_fd = -1, err_fd = -1;  // the child's ends of its stdio
    int fail_fd = -1;                          // a failed setup step is reported here
    int go_fd = -1;         // fork path: wait for one byte before execve; -1: exec at once
    int64_t exec_ns = 0;    // vfork path: the clock just before execve, written by the child
};

namespace {

// Setup stages a child reports back when it fails before execve.
enum Stage : int {
    kSession = 1, kRlimit, kAffinity, kCwd, kGroups, kGid, kUid, kStdio, kExec, kCgroup, kParent
};

const char* stage_text(int stage) {
    switch (stage) {
        case kSession: return "cannot start a new session";
        case kRlimit: return "cannot set resource limit";
        case kAffinity: return "cannot pin to CPUs";
        case kCwd: return "cannot enter working directory";
        case kGroups: return "cannot drop supplementary groups";
        case kGid: return "cannot switch group";
        case kUid: return "cannot switch user";
        case kStdio: return "cannot set up stdin/stdout/stderr";
        case kExec: return "cannot execute";
        case kCgroup: return "cannot join its cgroup";
        case kParent: return "cannot tie its life to the evaluator's";
        default: return "setup failed";
    }
}

struct ChildFailure {
    int stage;
    int err;
};

[[noreturn]] void child_fail(int fd, int stage, int err) {
    ChildFailure f{stage, err};
    ssize_t ignored = ::write(fd, &f, sizeof(f));
    (void)ignored;
    _exit(127);
}

void set_limit(int resource, int64_t value, int fd) {
    if (value < 0) return;
    rlimit rl;
    rl.rlim_cur = rl.rlim_max = static_cast<rlim_t>(value);
    if (setrlimit(resource, &rl) != 0) child_fail(fd, kRlimit, errno);
}

// The child's side of the start: nothing here allocates or takes a lock.
[[noreturn]] void child_main(ChildPlan& p) {
    const int fd = p.fail_fd;
    // First into the cgroups, while still the caller's account: from here on
    // every process the command starts is counted, frozen and killed with it.
    for (size_t i = 0; i < p.n_cgroups; ++i) {
        const int c = ::open(p.cgroups[i], O_WRONLY | O_CLOEXEC);
        if (c < 0) child_fail(fd, kCgroup, errno);
        if (::write(c, "0", 1) != 1) child_fail(fd, kCgroup, errno);
        ::close(c);
    }
    if (p.die_with_parent) {
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) child_fail(fd, kParent, errno);
        if (getppid() != p.parent) _exit(127);  // the caller is already gone
    }
    if (setsid() < 0) child_fail(fd, kSession, errno);
    // No handler of the caller may run in the child (in the vfork path it would
    // run on the caller's memory), and what Python ignores (SIGPIPE, SIGXFSZ)
    // gets its default action back, as a shell's child would have.
    for (int sig = 1; sig < NSIG; ++sig) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        struct sigaction sa;
        if (sigaction(sig, nullptr, &sa) != 0) continue;
        const bool handled = (sa.sa_flags & SA_SIGINFO) != 0 ||
                             (sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN);
        const bool restore = (sig == SIGPIPE || sig == SIGXFSZ) && sa.sa_handler == SIG_IGN;
        if (handled || restore) {
            struct sigaction dfl;
            std::memset(&dfl, 0, sizeof(dfl));
            dfl.sa_handler = SIG_DFL;
            sigaction(sig, &dfl, nullptr);
        }
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    set_limit(RLIMIT_NPROC, p.limits->nproc, fd);
    set_limit(RLIMIT_AS, p.limits->address_space, fd);
    set_limit(RLIMIT_CPU, p.limits->cpu_seconds, fd);
    set_limit(RLIMIT_FSIZE, p.limits->file_size, fd);
    set_limit(RLIMIT_NOFILE, p.limits->open_files, fd);
    if (p.pin && sched_setaffinity(0, sizeof(p.cpuset), &p.cpuset) != 0)
        child_fail(fd, kAffinity, errno);
    // Raw system calls: glibc's setuid() would try to change the ids of every
    // thread of the caller, whose memory a vfork child shares.
    if (p.gid >= 0) {
        if (syscall(SYS_setgroups, 0, nullptr) != 0) child_fail(fd, kGroups, errno);
        if (syscall(SYS_setgid, static_cast<gid_t>(p.gid)) != 0) child_fail(fd, kGid, errno);
    }
    if (p.uid >= 0 && syscall(SYS_setuid, static_cast<uid_t>(p.uid)) != 0)
        child_fail(fd, kUid, errno);
    // cwd after the account switch: the child must be able to enter it as itself.
    if (p.cwd && chdir(p.cwd) != 0) child_fail(fd, kCwd, errno);
    // An output fd of -1 keeps the caller's own (Spec::inherit_output).
    if (dup2(p.in_fd, 0) < 0 || (p.out_fd >= 0 && dup2(p.out_fd, 1) < 0) ||
        (p.err_fd >= 0 && dup2(p.err_fd, 2) < 0))
        child_fail(fd, kStdio, errno);
    // Nothing else of the caller's leaks into the command.
    syscall(SYS_close_range, 3U, ~0U, 4U /* CLOSE_RANGE_CLOEXEC */);
    if (p.go_fd >= 0) {
        char go = 0;
        ssize_t n;
        while ((n = ::read(p.go_fd, &go, 1)) < 0 && errno == EINTR) {
        }
        // End of file without the go byte: the caller gave up on this start
        // (or died). The command must never run then.
        if (n != 1) _exit(127);
    }
    p.exec_ns = clock::now_ns();
    execve(p.exe, p.argv, p.envp);
    child_fail(fd, kExec, errno);
}

int vforked_entry(void* arg) {
    child_main(*static_cast<ChildPlan*>(arg));
}

int64_t ticks_to_ns(unsigned long long ticks) {
    static const long hz = sysconf(_SC_CLK_TCK);
    return static_cast<int64_t>(ticks) * (1000000000LL / hz);
}

std::string path_of(const std::map<std::string, std::string>& env, bool inherit) {
    auto it = env.find("PATH");
    if (it != env.end()) return it->second;
    if (inherit) {
        const char* p = std::getenv("PATH");
        if (p) return p;
    }
    return "/usr/local/bin:/usr/bin:/bin";
}

// How many processes a cgroup v2 directory holds, then all of them killed.
int kill_cgroup(const std::string& dir) {
    int alive = 0;
    {
        std::ifstream procs(dir + "/cgroup.procs");
        std::string line;
        while (std::getline(procs, line))
            if (!line.empty()) ++alive;
    }
    if (alive) {
        const int fd = ::open((dir + "/cgroup.kill").c_str(), O_WRONLY | O_CLOEXEC);
        if (fd >= 0) {
            ssize_t w = ::write(fd, "1", 1);
            (void)w;
            ::close(fd);
        }
    }
    return alive;
}

}  // namespace

std::string signal_name(int sig) {
    const char* abbrev = sigabbrev_np(sig);
    if (abbrev) return std::string("SIG") + abbrev;
    return "signal " + std::to_string(sig);
}

std::string which(const std::string& name, const std::string& path_env) {
    if (name.find('/') != std::string::npos)
        return access(name.c_str(), X_OK) == 0 ? name : "";
    std::stringstream ss(path_env);
    std::string dir;
    while (std::getline(ss, dir, ':')) {
        if (dir.empty()) dir = ".";
        const std::string full = dir + "/" + name;
        struct stat st;
        if (stat(full.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(full.c_str(), X_OK) == 0)
            return full;
    }
    return "";
}

std::string Result::describe() const {
    if (timed_out) return "timed out";
    if (signal) return "killed by " + signal_name(signal);
    return "exit code " + std::to_string(exit_code);
}

Handle::Handle(const Spec& spec) : spec_(spec) {
    // Everything that can be refused is checked before the child exists: an
    // error after it has started would leave a process nobody owns.
    if (spec.argv.empty() || spec.argv[0].empty()) throw SpawnError("empty command");
    if (spec.inherit_output && spec.keep_stdin_open)
        throw MeasureError("inherit_output and keep_stdin_open exclude each other");
    for (const auto& name : spec.counters) counters::event_by_name(name);  // throws on a typo
    std::vector<std::string> args;
    std::string exe;
    if (spec.shell) {
        std::string joined;
        for (size_t i = 0; i < spec.argv.size(); ++i) joined += (i ? " " : "") + spec.argv[i];
        args = {"/bin/sh", "-c", joined};
        exe = "/bin/sh";
    } else {
        args = spec.argv;
        exe = which(spec.argv[0], path_of(spec.env, spec.inherit_env));
        if (exe.empty()) {
            if (spec.argv[0].find('/') != std::string::npos)
                throw SpawnError("command not found or not executable: '" + spec.argv[0] + "'");
            throw SpawnError("command not found on PATH: '" + spec.argv[0] + "'");
        }
    }
    if (!spec.cwd.empty()) {
        struct stat st;
        if (stat(spec.cwd.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
            throw SpawnError("working directory does not exist: '" + spec.cwd + "'");
    }
    for (const auto& cg : spec.cgroups)
        if (access(cg.c_str(), W_OK) != 0)
            throw IsolationError("cgroup cannot be joined: '" + cg + "': " + std::strerror(errno));
    std::vector<std::string> env_strings;
    if (spec.inherit_env) {
        for (char** e = environ; e && *e; ++e) {
            std::string kv(*e);
            const auto eq = kv.find('=');
            if (eq != std::string::npos && spec.env.count(kv.substr(0, eq))) continue;
            env_strings.push_back(kv);
        }
    }
    for (const auto& [k, v] : spec.env) env_strings.push_back(k + "=" + v);
    std::vector<char*> argv_c, envp_c;
    for (auto& a : args) argv_c.push_back(a.data());
    argv_c.push_back(nullptr);
    for (auto& e : env_strings) envp_c.push_back(e.data());
    envp_c.push_back(nullptr);
    std::vector<const char*> cgroups_c;
    for (const auto& cg : spec.cgroups) cgroups_c.push_back(cg.c_str());

    ChildPlan plan;
    plan.exe = exe.c_str();
    plan.argv = argv_c.data();
    plan.envp = envp_c.data();
    plan.cwd = spec.cwd.empty() ? nullptr : spec.cwd.c_str();
    plan.limits = &spec_.limits;
    plan.pin = !spec.cpus.empty();
    CPU_ZERO(&plan.cpuset);
    for (int c : spec.cpus) {
        if (c < 0 || c >= CPU_SETSIZE) throw IsolationError("CPU index out of range");
        CPU_SET(c, &plan.cpuset);
    }
    plan.uid = spec.uid;
    plan.gid = spec.gid;
    plan.die_with_parent = spec.die_with_parent;
    plan.parent = getpid();
    plan.cgroups = cgroups_c.data();
    plan.n_cgroups = cgroups_c.size();

    Pipe in = make_pipe(O_CLOEXEC);
    Pipe out = make_pipe(O_CLOEXEC);
    Pipe fail = make_pipe(O_CLOEXEC);
    Fd err_ours, err_child;
    if (spec.inherit_output) {
        // Nothing to capture: the child keeps the caller's fds 1 and 2.
    } else if (spec.keep_stdin_open) {
        // A long-lived worker's stderr goes to an anonymous file, so a chatty
        // child can never block on a full pipe that nobody reads.
        err_child.reset(static_cast<int>(syscall(SYS_memfd_create, "fm-stderr", MFD_CLOEXEC)));
        if (!err_child) throw MeasureError(errno_message("memfd_create", errno));
        err_ours.reset(fcntl(err_child.get(), F_DUPFD_CLOEXEC, 3));
        if (!err_ours) throw MeasureError(errno_message("dup", errno));
    } else {
        Pipe err = make_pipe(O_CLOEXEC);
        err_ours = std::move(err.read);
        err_child = std::move(err.write);
    }
    plan.in_fd = in.read.get();
    plan.out_fd = spec.inherit_output ? -1 : out.write.get();
    plan.err_fd = spec.inherit_output ? -1 : err_child.get();
    plan.fail_fd = fail.write.get();

    if (spec.counters.empty()) {
        start_vforked(plan);
    } else {
        start_forked(plan);
    }
    // The child's ends are its own now (or it is gone).
    in.read.reset();
    out.write.reset();
    err_child.reset();
    fail.write.reset();
    in_fd_ = std::move(in.write);
    out_fd_ = std::move(out.read);
    err_fd_ = std::move(err_ours);

    ChildFailure failure{0, 0};
    ssize_t n;
    while ((n = ::read(fail.read.get(), &failure, sizeof(failure))) < 0 && errno == EINTR) {
    }
    if (n == static_cast<ssize_t>(sizeof(failure))) {
        int status;
        while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
        reaped_ = true;
        const std::string what = std::string(stage_text(failure.stage)) + " '" + spec.argv[0] +
                                 "': " + std::strerror(failure.err);
        if (failure.stage == kExec || failure.stage == kCwd || failure.stage == kStdio)
            throw SpawnError(what);
        throw IsolationError(what);
    }
    pidfd_.reset(static_cast<int>(syscall(SYS_pidfd_open, pid_, 0)));
    if (!spec.keep_stdin_open) {
        // run() feeds stdin itself; make writes non-blocking for the poll loop.
        fcntl(in_fd_.get(), F_SETFL, fcntl(in_fd_.get(), F_GETFL) | O_NONBLOCK);
    }
}

void Handle::start_vforked(ChildPlan& plan) {
    constexpr size_t kStack = 256 * 1024;
    void* stack = mmap(nullptr, kStack, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) throw MeasureError(errno_message("mmap", errno));
    // No signal handler of ours may run in the child before it has reset them:
    // block everything across the clone (the child unblocks after resetting).
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    const pid_t pid = clone(vforked_entry, static_cast<char*>(stack) + kStack,
                            CLONE_VM | CLONE_VFORK | SIGCHLD, &plan);
    const int err = errno;
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    munmap(stack, kStack);
    if (pid < 0) throw SpawnError(errno_message("clone", err));
    pid_ = pid;
    // The child has exec'd (or failed) by now; it wrote the clock before execve.
    start_ns_ = plan.exec_ns ? plan.exec_ns : clock::now_ns();
}

void Handle::start_forked(ChildPlan& plan) {
    Pipe go = make_pipe(O_CLOEXEC);
    plan.go_fd = go.read.get();
    const pid_t pid = fork();
    if (pid < 0) throw SpawnError(errno_message("fork", errno));
    if (pid == 0) child_main(plan);
    pid_ = pid;
    go.read.reset();
    try {
        counters_.emplace(spec_.counters, pid_, true, true);
    } catch (...) {
        // The child is held before execve: closing the go pipe unblocks it
        // with end of file (it then exits without running the command); the
        // kill makes sure of it.
        go.write.reset();
        kill_and_reap();
        throw;
    }
    start_ns_ = clock::now_ns();
    const char go_byte = 'g';
    ssize_t w = ::write(go.write.get(), &go_byte, 1);
    (void)w;
}

void Handle::kill_and_reap() noexcept {
    if (reaped_ || pid_ <= 0) return;
    ::kill(-pid_, SIGKILL);  // the group, while its leader is not yet reaped
    ::kill(pid_, SIGKILL);   // in case it had not made its own group yet
    ::kill(-pid_, SIGCONT);
    int status;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
}

Handle::~Handle() {
    if (!reaped_ && !spec_.kill_cgroup.empty()) kill_cgroup(spec_.kill_cgroup);
    kill_and_reap();
}

void Handle::signal_group(int sig) {
    if (!reaped_) ::kill(-pid_, sig);
}

void Handle::suspend() {
    if (reaped_ || suspended_) return;
    ::kill(-pid_, SIGSTOP);
    // SIGSTOP is asynchronous: wait until the leader is really stopped, so the
    // other side's timing never overlaps with this side still running. (Only
    // the leader: a cgroup freezer, where there is one, covers the rest.)
    for (int i = 0; i < 2000; ++i) {
        std::ifstream st("/proc/" + std::to_string(pid_) + "/stat");
        std::string line;
        std::getline(st, line);
        const auto close_paren = line.rfind(')');
        if (close_paren == std::string::npos || close_paren + 2 >= line.size()) break;
        const char state = line[close_paren + 2];
        if (state == 'T' || state == 't' || state == 'Z' || state == 'X') break;
        usleep(50);
    }
    suspended_ = true;
}

void Handle::resume() {
    if (reaped_ || !suspended_) return;
    ::kill(-pid_, SIGCONT);
    suspended_ = false;
}

int64_t Handle::cpu_ns() const {
    if (reaped_) return -1;
    std::ifstream st("/proc/" + std::to_string(pid_) + "/stat");
    std::string line;
    if (!std::getline(st, line)) return -1;
    const auto close_paren = line.rfind(')');
    if (close_paren == std::string::npos) return -1;
    std::istringstream fields(line.substr(close_paren + 2));
    std::string f;
    unsigned long long utime = 0, stime = 0;
    // After ')' the fields start at field 3 (state); utime is 14, stime 15.
    for (int i = 3; i <= 15 && (fields >> f); ++i) {
        if (i == 14) utime = std::stoull(f);
        if (i == 15) stime = std::stoull(f);
    }
    return ticks_to_ns(utime + stime);
}

Result Handle::wait(double limit_s) {
    Result r;
    r.pid = pid_;
    if (reaped_) throw MeasureError("process already waited for");
    if (suspended_) resume();
    const size_t cap = spec_.max_output;
    size_t stdin_off = 0;
    const bool feed = !spec_.keep_stdin_open;
    if (feed && spec_.stdin_data.empty()) in_fd_.reset();
    int64_t deadline =
        spec_.timeout_s > 0 ? start_ns_ + static_cast<int64_t>(spec_.timeout_s * 1e9) : 0;
    if (limit_s > 0) {
        const int64_t limit = clock::now_ns() + static_cast<int64_t>(limit_s * 1e9);
        deadline = deadline ? std::min(deadline, limit) : limit;
    }
    bool exited = false;
    int64_t end_ns = 0;
    char buf[65536];

    auto drain = [&](Fd& fd, std::string& into, bool& truncated) {
        const ssize_t n = ::read(fd.get(), buf, sizeof(buf));
        if (n > 0) {
            const size_t room = into.size() < cap ? cap - into.size() : 0;
            const size_t take = std::min(room, static_cast<size_t>(n));
            into.append(buf, take);
            if (take < static_cast<size_t>(n)) truncated = true;
        } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
            fd.reset();
        }
    };

    const bool read_out = feed;  // with keep_stdin_open the caller owns stdout
    const bool read_err = feed;
    int64_t drain_deadline = 0;
    while (true) {
        pollfd fds[4];
        int nf = 0;
        int i_out = -1, i_err = -1, i_in = -1, i_pid = -1;
        if (read_out && out_fd_) { fds[nf] = {out_fd_.get(), POLLIN, 0}; i_out = nf++; }
        if (read_err && err_fd_) { fds[nf] = {err_fd_.get(), POLLIN, 0}; i_err = nf++; }
        if (feed && in_fd_ && !exited) { fds[nf] = {in_fd_.get(), POLLOUT, 0}; i_in = nf++; }
        if (!exited && pidfd_) { fds[nf] = {pidfd_.get(), POLLIN, 0}; i_pid = nf++; }
        if (exited && i_out < 0 && i_err < 0) break;
        int timeout_ms = -1;
        const int64_t now = clock::now_ns();
        if (!exited && deadline)
            timeout_ms = static_cast<int>(std::max<int64_t>(0, (deadline - now) / 1000000) + 1);
        if (!exited && !pidfd_) timeout_ms = timeout_ms < 0 ? 5 : std::min(timeout_ms, 5);
        if (exited) {
            // Output pipes may be held open by a process that escaped the
            // group (and had no cgroup to be killed with); drain for a short
            // grace period, then give up on them.
            if (!drain_deadline) drain_deadline = now + 200000000LL;
            if (now >= drain_deadline) break;
            timeout_ms = static_cast<int>((drain_deadline - now) / 1000000) + 1;
        }
        const int pr = poll(fds, static_cast<nfds_t>(nf), timeout_ms);
        if (pr < 0 && errno != EINTR) throw MeasureError(errno_message("poll", errno));
        if (pr > 0) {
            if (i_out >= 0 && fds[i_out].revents) drain(out_fd_, r.stdout_data, r.stdout_truncated);
            if (i_err >= 0 && fds[i_err].revents) drain(err_fd_, r.stderr_data, r.stderr_truncated);
            if (i_in >= 0 && fds[i_in].revents) {
                if (fds[i_in].revents & (POLLERR | POLLHUP)) {
                    in_fd_.reset();
                } else {
                    const ssize_t n = ::write(in_fd_.get(), spec_.stdin_data.data() + stdin_off,
                                              spec_.stdin_data.size() - stdin_off);
                    if (n > 0) stdin_off += static_cast<size_t>(n);
                    if ((n < 0 && errno != EAGAIN && errno != EINTR) ||
                        stdin_off >= spec_.stdin_data.size())
                        in_fd_.reset();
                }
            }
        }
        if (!exited) {
            bool done = false;
            if (i_pid >= 0 && pr > 0 && (fds[i_pid].revents & POLLIN)) done = true;
            if (!pidfd_) {
                siginfo_t info;
                info.si_pid = 0;
                if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
                    info.si_pid == pid_)
                    done = true;
            }
            if (done) {
                end_ns = clock::now_ns();
                exited = true;
                // Whatever the command left behind goes now, before the
                // leader is reaped (its group id cannot be reused until then)
                // and before the drain, so nothing of it keeps working.
                if (!spec_.kill_cgroup.empty()) r.leftover = kill_cgroup(spec_.kill_cgroup);
                ::kill(-pid_, SIGKILL);
            } else if (deadline && clock::now_ns() >= deadline) {
                r.timed_out = true;
                if (!spec_.kill_cgroup.empty()) kill_cgroup(spec_.kill_cgroup);
                ::kill(-pid_, SIGKILL);
                ::kill(-pid_, SIGCONT);
            }
        }
    }
    int status = 0;
    rusage ru{};
    while (wait4(pid_, &status, 0, &ru) < 0 && errno == EINTR) {
    }
    reaped_ = true;
    if (!end_ns) end_ns = clock::now_ns();
    r.wall_ns = end_ns - start_ns_;
    if (WIFEXITED(status)) {
        r.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        r.signal = WTERMSIG(status);
        r.exit_code = -1;
    }
    r.user_ns = static_cast<int64_t>(ru.ru_utime.tv_sec) * 1000000000LL + ru.ru_utime.tv_usec * 1000LL;
    r.sys_ns = static_cast<int64_t>(ru.ru_stime.tv_sec) * 1000000000LL + ru.ru_stime.tv_usec * 1000LL;
    r.max_rss_kb = ru.ru_maxrss;
    if (counters_) r.counters = counters_->read();
    if (spec_.keep_stdin_open && err_fd_) {
        // Worker stderr lives in a memfd: read it from the start, bounded.
        lseek(err_fd_.get(), 0, SEEK_SET);
        ssize_t n;
        while (r.stderr_data.size() < cap && (n = ::read(err_fd_.get(), buf, sizeof(buf))) > 0)
            r.stderr_data.append(buf, std::min(static_cast<size_t>(n), cap - r.stderr_data.size()));
    }
    in_fd_.reset();
    out_fd_.reset();
    err_fd_.reset();
    pidfd_.reset();
    return r;
}

Result run(const Spec& spec) {
    if (spec.keep_stdin_open) throw MeasureError("run() collects output; keep_stdin_open is for Handle");
    Handle h(spec);
    return h.wait();
}

}  // namespace fm::process
