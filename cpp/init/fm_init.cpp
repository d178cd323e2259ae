// fm-init: PID 1 of a sandbox made for one command (isolation/local.py).
//
// bubblewrap makes the sandbox (new user, PID, IPC, mount, UTS, network and
// cgroup namespaces, as the side's id for the evaluation) and execs this as
// the namespace's init. The evaluator speaks to it on stdin/stdout:
//
//   init -> "up\n"                          started (the evaluator moves it into the side's cgroup)
//   evaluator -> request frame              what to run (see read_request)
//   init -> "ready\n"                       limits and system-call filter in place
//   evaluator -> "go\n"                     the clock and the cgroup's CPU reading start here
//   init -> "ended\n"                       the command has exited (the evaluator reads the cgroup)
//   evaluator -> "\n"
//   init -> one JSON line, then the kept stdout and stderr bytes
//
// It is written in C-style C++ with no library beyond libc so that starting it
// costs about a millisecond: it runs once per command, and the Python version
// of the same protocol (_container/run.py --init) cost 20-90 ms to start.
//
// The side cannot touch it: as the namespace's init it gets no signal it has
// no handler for (it installs none), not even SIGKILL from inside; it is not
// dumpable (no /proc/1/mem, fd or environ for the side); ptrace and
// process_vm_* are off the allow-list. The calls the filter does not allow
// wait on its listener and are answered EPERM, their numbers kept for the
// report (the evaluator names them).
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <string>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

[[noreturn]] void die(const char* what) {
    // The evaluator reads an "error" line as an infrastructure failure.
    std::printf("{\"error\": \"fm-init: %s: %s\"}\n", what, std::strerror(errno));
    std::fflush(stdout);
    _exit(70);
}

void say(const std::string& s) {
    size_t off = 0;
    while (off < s.size()) {
        const ssize_t n = ::write(1, s.data() + off, s.size() - off);
        if (n < 0) {
            if (errno == EINTR) continue;
            _exit(71);  // the evaluator is gone
        }
        off += static_cast<size_t>(n);
    }
}

bool read_exact(void* buf, size_t n) {
    auto* p = static_cast<char*>(buf);
    while (n > 0) {
        const ssize_t r = ::read(0, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        p += r;
        n -= static_cast<size_t>(r);
    }
    return true;
}

void read_line() {
    char c = 0;
    do {
        if (!read_exact(&c, 1)) _exit(0);  // the evaluator is gone
    } while (c != '\n');
}

struct Request {
    std::vector<std::string> argv, env;
    std::string cwd = "/", stdin_data, filter;
    int64_t timeout_ms = 0;
    size_t max_output = 16u << 20;
    long seccomp_nr = -1;
    int64_t nproc = 0, address_space = 0, file_size = 0, open_files = 0;
};

// The request: records of a tag byte, a 4-byte little-endian length and that
// many bytes, ending with tag 'z'. Numbers are decimal text.
Request read_request() {
    Request r;
    for (;;) {
        unsigned char head[5];
        if (!read_exact(head, 5)) _exit(0);
        const uint32_t len = static_cast<uint32_t>(head[1]) |
                             (static_cast<uint32_t>(head[2]) << 8) |
                             (static_cast<uint32_t>(head[3]) << 16) |
                             (static_cast<uint32_t>(head[4]) << 24);
        std::string v(len, '\0');
        if (len && !read_exact(&v[0], len)) _exit(0);
        switch (head[0]) {
            case 'a': r.argv.push_back(v); break;
            case 'e': r.env.push_back(v); break;
            case 'c': r.cwd = v; break;
            case 'i': r.stdin_data = v; break;
            case 'f': r.filter = v; break;
            case 't': r.timeout_ms = std::strtoll(v.c_str(), nullptr, 10); break;
            case 'm': r.max_output = std::strtoull(v.c_str(), nullptr, 10); break;
            case 'n': r.seccomp_nr = std::strtol(v.c_str(), nullptr, 10); break;
            case 'p': r.nproc = std::strtoll(v.c_str(), nullptr, 10); break;
            case 's': r.address_space = std::strtoll(v.c_str(), nullptr, 10); break;
            case 'F': r.file_size = std::strtoll(v.c_str(), nullptr, 10); break;
            case 'o': r.open_files = std::strtoll(v.c_str(), nullptr, 10); break;
            case 'z': return r;
            default: errno = EINVAL; die("unknown request field");
        }
    }
}

void set_limit(int resource, int64_t value) {
    if (value <= 0) return;
    rlimit lim{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
    if (setrlimit(resource, &lim) != 0) die("setrlimit");
}

int install_filter(const Request& r) {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) die("prctl(PR_SET_NO_NEW_PRIVS)");
    sock_fprog prog{};
    prog.len = static_cast<unsigned short>(r.filter.size() / sizeof(sock_filter));
    prog.filter = reinterpret_cast<sock_filter*>(const_cast<char*>(r.filter.data()));
    const long fd = syscall(r.seccomp_nr, SECCOMP_SET_MODE_FILTER,
                            SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
    if (fd < 0) die("seccomp(SECCOMP_SET_MODE_FILTER)");
    return static_cast<int>(fd);
}

int64_t now_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

int64_t self_cpu_ns() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return (static_cast<int64_t>(u.ru_utime.tv_sec) + u.ru_stime.tv_sec) * 1000000000 +
           (static_cast<int64_t>(u.ru_utime.tv_usec) + u.ru_stime.tv_usec) * 1000;
}

struct Stream {
    int fd = -1;
    std::string kept;
    size_t total = 0;
};

// Read what is there; false at end of file.
bool drain(Stream& s, size_t cap) {
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(s.fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return true;
        if (n <= 0) return false;
        const size_t got = static_cast<size_t>(n);
        if (s.kept.size() < cap) s.kept.append(buf, std::min(got, cap - s.kept.size()));
        s.total += got;
    }
}

void answer_denied(int listener, std::vector<int>& denied) {
    seccomp_notif req{};
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) != 0) return;  // the caller died meanwhile
    bool seen = false;
    for (int nr : denied) seen = seen || nr == req.data.nr;
    if (!seen) denied.push_back(req.data.nr);
    seccomp_notif_resp resp{};
    resp.id = req.id;
    resp.error = -EPERM;
    ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
}

// Every other process of this PID namespace (all of them the side's) is
// killed; returns how many were alive when the command ended.
int sweep() {
    int found = 0;
    for (int round = 0; round < 200; ++round) {
        int alive = 0;
        if (DIR* d = opendir("/proc")) {
            while (dirent* e = readdir(d)) {
                const long pid = std::strtol(e->d_name, nullptr, 10);
                if (pid <= 1) continue;
                char path[64];
                std::snprintf(path, sizeof path, "/proc/%ld/stat", pid);
                FILE* f = std::fopen(path, "r");
                if (!f) continue;
                char line[512] = {0};
                const bool got = std::fgets(line, sizeof line, f) != nullptr;
                std::fclose(f);
                const char* close_paren = got ? std::strrchr(line, ')') : nullptr;
                if (close_paren && close_paren[1] == ' ' && close_paren[2] != 'Z' &&
                    close_paren[2] != 'X')
                    ++alive;
            }
            closedir(d);
        }
        if (round == 0) found = alive;
        if (alive == 0) break;
        kill(-1, SIGKILL);
        while (waitpid(-1, nullptr, WNOHANG) > 0) {
        }
        usleep(1000);
    }
    return found;
}

}  // namespace

int main() {
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    std::signal(SIGPIPE, SIG_IGN);
    say("up\n");
    Request r = read_request();
    if (r.argv.empty()) {
        errno = EINVAL;
        die("no command");
    }
    set_limit(RLIMIT_NPROC, r.nproc);
    set_limit(RLIMIT_AS, r.address_space);
    set_limit(RLIMIT_FSIZE, r.file_size);
    set_limit(RLIMIT_NOFILE, r.open_files);
    const int listener = r.filter.empty() ? -1 : install_filter(r);
    if (listener >= 0) fcntl(listener, F_SETFD, FD_CLOEXEC);
    say("ready\n");
    read_line();

    int in[2], out[2], err[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) die("pipe");
    std::vector<char*> argv, envp;
    for (auto& a : r.argv) argv.push_back(&a[0]);
    argv.push_back(nullptr);
    for (auto& e : r.env) envp.push_back(&e[0]);
    envp.push_back(nullptr);

    const int64_t own0 = self_cpu_ns();
    const int64_t t0 = now_ns();
    const pid_t child = fork();
    if (child < 0) die("fork");
    if (child == 0) {
        setsid();
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        if (chdir(r.cwd.c_str()) != 0) {
            dprintf(2, "fm-init: cannot enter %s: %s\n", r.cwd.c_str(), std::strerror(errno));
            _exit(126);
        }
        environ = envp.data();
        execvp(argv[0], argv.data());
        dprintf(2, "fm-init: cannot run %s: %s\n", argv[0], std::strerror(errno));
        _exit(errno == ENOENT ? 127 : 126);
    }
    close(in[0]);
    close(out[1]);
    close(err[1]);
    const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, child, 0));
    if (pidfd < 0) die("pidfd_open");
    Stream so, se;
    so.fd = out[0];
    se.fd = err[0];
    fcntl(so.fd, F_SETFL, O_NONBLOCK);
    fcntl(se.fd, F_SETFL, O_NONBLOCK);
    int to_child = in[1];
    fcntl(to_child, F_SETFL, O_NONBLOCK);
    size_t fed = 0;
    if (r.stdin_data.empty()) {
        close(to_child);
        to_child = -1;
    }
    std::vector<int> denied;
    bool timed_out = false, exited = false, so_open = true, se_open = true;
    int status = 0;
    rusage usage{};
    int64_t wall = 0;
    const int64_t deadline = r.timeout_ms > 0 ? t0 + r.timeout_ms * 1000000 : 0;
    // Until the command itself exits (not until end of file: a background child
    // holding the pipes must not stretch the command's time).
    while (!exited) {
        pollfd fds[5];
        int n = 0;
        fds[n++] = {pidfd, POLLIN, 0};
        const int i_out = so_open ? n : -1;
        if (so_open) fds[n++] = {so.fd, POLLIN, 0};
        const int i_err = se_open ? n : -1;
        if (se_open) fds[n++] = {se.fd, POLLIN, 0};
        const int i_lis = listener >= 0 ? n : -1;
        if (listener >= 0) fds[n++] = {listener, POLLIN, 0};
        const int i_in = to_child >= 0 ? n : -1;
        if (to_child >= 0) fds[n++] = {to_child, POLLOUT, 0};
        int wait_ms = -1;
        if (deadline) {
            const int64_t left = deadline - now_ns();
            wait_ms = left <= 0 ? 0 : static_cast<int>(left / 1000000 + 1);
        }
        const int ready = poll(fds, static_cast<nfds_t>(n), wait_ms);
        if (ready < 0 && errno != EINTR) die("poll");
        if (deadline && now_ns() >= deadline && !exited) {
            timed_out = true;
            kill(-child, SIGKILL);
            kill(child, SIGKILL);
        }
        if (ready <= 0) continue;
        if (i_out >= 0 && fds[i_out].revents) so_open = drain(so, r.max_output);
        if (i_err >= 0 && fds[i_err].revents) se_open = drain(se, r.max_output);
        if (i_lis >= 0 && (fds[i_lis].revents & POLLIN)) answer_denied(listener, denied);
        if (i_in >= 0 && fds[i_in].revents) {
            const ssize_t w = ::write(to_child, r.stdin_data.data() + fed,
                                      r.stdin_data.size() - fed);
            if (w > 0) fed += static_cast<size_t>(w);
            if (w < 0 && errno != EAGAIN && errno != EINTR) fed = r.stdin_data.size();
            if (fed >= r.stdin_data.size()) {
                close(to_child);
                to_child = -1;
            }
        }
        if (fds[0].revents & POLLIN) {
            if (wait4(child, &status, 0, &usage) == child) {
                wall = now_ns() - t0;
                exited = true;
            }
        }
    }
    const int64_t own = self_cpu_ns() - own0;
    if (to_child >= 0) close(to_child);
    say("ended\n");
    read_line();
    const int leftover = sweep();  // counted before anything is killed
    // Everything else is dead: what is left in the pipes is the rest of the output.
    if (so_open) {
        fcntl(so.fd, F_SETFL, 0);
        while (drain(so, r.max_output)) {
        }
    }
    if (se_open) {
        fcntl(se.fd, F_SETFL, 0);
        while (drain(se, r.max_output)) {
        }
    }
    // Calls denied to the processes killed just now are answered too.
    if (listener >= 0) {
        pollfd p{listener, POLLIN, 0};
        while (poll(&p, 1, 0) > 0 && (p.revents & POLLIN)) answer_denied(listener, denied);
    }
    std::string denied_json;
    for (int nr : denied) denied_json += (denied_json.empty() ? "" : ", ") + std::to_string(nr);
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    const int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    char head[1024];
    std::snprintf(
        head, sizeof head,
        "{\"exit_code\": %d, \"signal\": %d, \"timed_out\": %s, \"wall_ns\": %lld, "
        "\"user_ns\": %lld, \"sys_ns\": %lld, \"leftover\": %d, \"launcher_cpu_ns\": %lld, "
        "\"stdout_len\": %zu, \"stderr_len\": %zu, \"stdout_truncated\": %s, "
        "\"stderr_truncated\": %s, \"denied\": [%s]}\n",
        code, sig, timed_out ? "true" : "false", static_cast<long long>(wall),
        static_cast<long long>(usage.ru_utime.tv_sec) * 1000000000LL +
            static_cast<long long>(usage.ru_utime.tv_usec) * 1000LL,
        static_cast<long long>(usage.ru_stime.tv_sec) * 1000000000LL +
            static_cast<long long>(usage.ru_stime.tv_usec) * 1000LL,
        leftover, static_cast<long long>(own), so.kept.size(), se.kept.size(),
        so.total > so.kept.size() ? "true" : "false",
        se.total > se.kept.size() ? "true" : "false", denied_json.c_str());
    say(head);
    say(so.kept);
    say(se.kept);
    return 0;
}
