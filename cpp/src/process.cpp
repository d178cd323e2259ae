#include "fm/process.hpp"

#include "fm/affinity.hpp"
#include "fm/clock.hpp"
#include "fm/errors.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <sstream>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace fm::process {

namespace {

// Setup stages a child reports back when it fails before execve.
enum Stage : int {
    kSession = 1, kRlimit, kAffinity, kCwd, kGroups, kGid, kUid, kStdio, kExec
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

void close_quietly(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
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
    if (spec.argv.empty() || spec.argv[0].empty()) throw SpawnError("empty command");

    // Everything the child needs is built before fork: between fork and execve
    // the child may only make async-signal-safe calls (the parent may have threads).
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
    cpu_set_t cpuset;
    CPU_ZERO(&cpuset);
    for (int c : spec.cpus) {
        if (c < 0 || c >= CPU_SETSIZE) throw IsolationError("CPU index out of range");
        CPU_SET(c, &cpuset);
    }

    int in_pipe[2], out_pipe[2], go_pipe[2], fail_pipe[2];
    int err_fd = -1;
    if (pipe2(in_pipe, O_CLOEXEC) != 0) throw MeasureError(errno_message("pipe", errno));
    if (pipe2(out_pipe, O_CLOEXEC) != 0) throw MeasureError(errno_message("pipe", errno));
    if (pipe2(go_pipe, O_CLOEXEC) != 0) throw MeasureError(errno_message("pipe", errno));
    if (pipe2(fail_pipe, O_CLOEXEC) != 0) throw MeasureError(errno_message("pipe", errno));
    int err_pipe[2] = {-1, -1};
    if (spec.keep_stdin_open) {
        // A long-lived worker's stderr goes to an anonymous file, so a chatty
        // child can never block on a full pipe that nobody reads.
        err_fd = static_cast<int>(syscall(SYS_memfd_create, "fm-stderr", MFD_CLOEXEC));
        if (err_fd < 0) throw MeasureError(errno_message("memfd_create", errno));
    } else {
        if (pipe2(err_pipe, O_CLOEXEC) != 0) throw MeasureError(errno_message("pipe", errno));
    }
    const int child_err = spec.keep_stdin_open ? err_fd : err_pipe[1];

    pid_ = fork();
    if (pid_ < 0) throw SpawnError(errno_message("fork", errno));
    if (pid_ == 0) {
        const int fd = fail_pipe[1];
        if (setsid() < 0) child_fail(fd, kSession, errno);
        signal(SIGPIPE, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        set_limit(RLIMIT_NPROC, spec.limits.nproc, fd);
        set_limit(RLIMIT_AS, spec.limits.address_space, fd);
        set_limit(RLIMIT_CPU, spec.limits.cpu_seconds, fd);
        set_limit(RLIMIT_FSIZE, spec.limits.file_size, fd);
        set_limit(RLIMIT_NOFILE, spec.limits.open_files, fd);
        if (!spec.cpus.empty() && sched_setaffinity(0, sizeof(cpuset), &cpuset) != 0)
            child_fail(fd, kAffinity, errno);
        if (spec.gid >= 0) {
            if (setgroups(0, nullptr) != 0) child_fail(fd, kGroups, errno);
            if (setgid(static_cast<gid_t>(spec.gid)) != 0) child_fail(fd, kGid, errno);
        }
        if (spec.uid >= 0 && setuid(static_cast<uid_t>(spec.uid)) != 0)
            child_fail(fd, kUid, errno);
        // cwd after the account switch: the child must be able to enter it as itself.
        if (!spec.cwd.empty() && chdir(spec.cwd.c_str()) != 0) child_fail(fd, kCwd, errno);
        if (dup2(in_pipe[0], 0) < 0 || dup2(out_pipe[1], 1) < 0 || dup2(child_err, 2) < 0)
            child_fail(fd, kStdio, errno);
        // Nothing else of the parent's leaks into the child.
        syscall(SYS_close_range, 3U, ~0U, 4U /* CLOSE_RANGE_CLOEXEC */);
        char go;
        while (::read(go_pipe[0], &go, 1) < 0 && errno == EINTR) {
        }
        execve(exe.c_str(), argv_c.data(), envp_c.data());
        child_fail(fd, kExec, errno);
    }

    ::close(in_pipe[0]);
    ::close(out_pipe[1]);
    ::close(go_pipe[0]);
    ::close(fail_pipe[1]);
    if (!spec.keep_stdin_open) ::close(err_pipe[1]);
    in_fd_ = in_pipe[1];
    out_fd_ = out_pipe[0];
    err_fd_ = spec.keep_stdin_open ? err_fd : err_pipe[0];

    if (!spec.counters.empty()) counters_.emplace(spec.counters, pid_, true, true);
    start_ns_ = clock::now_ns();
    const char go = 'g';
    ssize_t w = ::write(go_pipe[1], &go, 1);
    (void)w;
    ::close(go_pipe[1]);

    ChildFailure failure{0, 0};
    ssize_t n;
    while ((n = ::read(fail_pipe[0], &failure, sizeof(failure))) < 0 && errno == EINTR) {
    }
    ::close(fail_pipe[0]);
    if (n == static_cast<ssize_t>(sizeof(failure))) {
        int status;
        waitpid(pid_, &status, 0);
        reaped_ = true;
        close_quietly(in_fd_);
        close_quietly(out_fd_);
        close_quietly(err_fd_);
        const std::string what = std::string(stage_text(failure.stage)) + " '" + spec.argv[0] +
                                 "': " + std::strerror(failure.err);
        if (failure.stage == kExec || failure.stage == kCwd || failure.stage == kStdio)
            throw SpawnError(what);
        throw IsolationError(what);
    }
    pidfd_ = static_cast<int>(syscall(SYS_pidfd_open, pid_, 0));
    if (!spec.keep_stdin_open) {
        // run() feeds stdin itself; make writes non-blocking for the poll loop.
        fcntl(in_fd_, F_SETFL, fcntl(in_fd_, F_GETFL) | O_NONBLOCK);
    }
}

Handle::~Handle() {
    if (!reaped_) {
        ::kill(-pid_, SIGKILL);
        ::kill(-pid_, SIGCONT);
        int status;
        while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
    }
    close_quietly(in_fd_);
    close_quietly(out_fd_);
    close_quietly(err_fd_);
    close_quietly(pidfd_);
}

void Handle::signal_group(int sig) {
    if (!reaped_) ::kill(-pid_, sig);
}

void Handle::suspend() {
    if (reaped_ || suspended_) return;
    ::kill(-pid_, SIGSTOP);
    // SIGSTOP is asynchronous: wait until the leader is really stopped, so the
    // other side's timing never overlaps with this side still running.
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

Result Handle::wait() {
    Result r;
    r.pid = pid_;
    if (reaped_) throw MeasureError("process already waited for");
    if (suspended_) resume();
    const size_t cap = spec_.max_output;
    size_t stdin_off = 0;
    const bool feed = !spec_.keep_stdin_open;
    if (feed && spec_.stdin_data.empty()) close_quietly(in_fd_);
    const int64_t deadline =
        spec_.timeout_s > 0 ? start_ns_ + static_cast<int64_t>(spec_.timeout_s * 1e9) : 0;
    bool exited = false;
    int64_t end_ns = 0;
    char buf[65536];

    auto drain = [&](int& fd, std::string& into, bool& truncated) {
        const ssize_t n = ::read(fd, buf, sizeof(buf));
        if (n > 0) {
            const size_t room = into.size() < cap ? cap - into.size() : 0;
            const size_t take = std::min(room, static_cast<size_t>(n));
            into.append(buf, take);
            if (take < static_cast<size_t>(n)) truncated = true;
        } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
            close_quietly(fd);
        }
    };

    const bool read_out = feed;  // with keep_stdin_open the caller owns stdout
    const bool read_err = feed;
    int64_t drain_deadline = 0;
    while (true) {
        pollfd fds[4];
        int nf = 0;
        int i_out = -1, i_err = -1, i_in = -1, i_pid = -1;
        if (read_out && out_fd_ >= 0) { fds[nf] = {out_fd_, POLLIN, 0}; i_out = nf++; }
        if (read_err && err_fd_ >= 0) { fds[nf] = {err_fd_, POLLIN, 0}; i_err = nf++; }
        if (feed && in_fd_ >= 0 && !exited) { fds[nf] = {in_fd_, POLLOUT, 0}; i_in = nf++; }
        if (!exited && pidfd_ >= 0) { fds[nf] = {pidfd_, POLLIN, 0}; i_pid = nf++; }
        if (exited && i_out < 0 && i_err < 0) break;
        int timeout_ms = -1;
        const int64_t now = clock::now_ns();
        if (!exited && deadline) timeout_ms = static_cast<int>(std::max<int64_t>(0, (deadline - now) / 1000000) + 1);
        if (!exited && pidfd_ < 0) timeout_ms = timeout_ms < 0 ? 5 : std::min(timeout_ms, 5);
        if (exited) {
            // Output pipes may be held open by a process that escaped the
            // group; drain for a short grace period, then give up on them.
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
                    close_quietly(in_fd_);
                } else {
                    const ssize_t n = ::write(in_fd_, spec_.stdin_data.data() + stdin_off,
                                              spec_.stdin_data.size() - stdin_off);
                    if (n > 0) stdin_off += static_cast<size_t>(n);
                    if ((n < 0 && errno != EAGAIN && errno != EINTR) ||
                        stdin_off >= spec_.stdin_data.size())
                        close_quietly(in_fd_);
                }
            }
        }
        if (!exited) {
            bool done = false;
            if (i_pid >= 0 && pr > 0 && (fds[i_pid].revents & POLLIN)) done = true;
            if (pidfd_ < 0) {
                siginfo_t info;
                info.si_pid = 0;
                if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
                    info.si_pid == pid_)
                    done = true;
            }
            if (done) {
                end_ns = clock::now_ns();
                exited = true;
            } else if (deadline && clock::now_ns() >= deadline) {
                r.timed_out = true;
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
    // Whatever the command left behind in its group goes with it.
    ::kill(-pid_, SIGKILL);
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
    if (spec_.keep_stdin_open && err_fd_ >= 0) {
        // Worker stderr lives in a memfd: read it from the start, bounded.
        lseek(err_fd_, 0, SEEK_SET);
        ssize_t n;
        while (r.stderr_data.size() < cap && (n = ::read(err_fd_, buf, sizeof(buf))) > 0)
            r.stderr_data.append(buf, std::min(static_cast<size_t>(n), cap - r.stderr_data.size()));
    }
    close_quietly(in_fd_);
    close_quietly(out_fd_);
    close_quietly(err_fd_);
    close_quietly(pidfd_);
    return r;
}

Result run(const Spec& spec) {
    if (spec.keep_stdin_open) throw MeasureError("run() collects output; keep_stdin_open is for Handle");
    Handle h(spec);
    return h.wait();
}

}  // namespace fm::process
