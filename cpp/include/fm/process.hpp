// Running commands as measured, isolated processes.
//
// A child is forked, set up (session, rlimits, affinity, account, cwd, stdio),
// then held before execve until the parent has attached its counters, so
// counting and the wall clock start at the same instant: the exec itself.
#pragma once

#include "fm/counters.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace fm::process {

struct Limits {
    // Each is applied as both soft and hard limit; -1 leaves it untouched.
    int64_t nproc = -1;        // RLIMIT_NPROC: processes of the (switched) user
    int64_t address_space = -1;  // RLIMIT_AS in bytes
    int64_t cpu_seconds = -1;  // RLIMIT_CPU
    int64_t file_size = -1;    // RLIMIT_FSIZE in bytes
    int64_t open_files = -1;   // RLIMIT_NOFILE
};

struct Spec {
    std::vector<std::string> argv;      // argv[0] is looked up on PATH
    bool shell = false;                 // run argv[0] through /bin/sh -c
    std::string stdin_data;             // fed to the child's stdin, then closed
    std::string cwd;                    // "" = inherit
    bool inherit_env = true;
    std::map<std::string, std::string> env;  // added to (or replacing) the env
    std::vector<int> cpus;              // pin the child; empty = no pinning
    Limits limits;
    int64_t uid = -1, gid = -1;         // switch account (needs root); -1 = stay
    double timeout_s = 0;               // 0 = none; kills the whole process group
    size_t max_output = 16u << 20;      // per stream; the rest is discarded
    std::vector<std::string> counters;  // perf events to attach
    bool keep_stdin_open = false;       // for Handle: caller talks on stdin/stdout
};

struct Result {
    pid_t pid = 0;
    int exit_code = -1;       // -1 when killed by a signal
    int signal = 0;           // terminating signal, 0 if exited
    bool timed_out = false;
    bool stdout_truncated = false;
    bool stderr_truncated = false;
    std::string stdout_data;
    std::string stderr_data;
    int64_t wall_ns = 0;      // from exec release to exit
    int64_t user_ns = 0;      // from wait4 rusage (includes reaped descendants)
    int64_t sys_ns = 0;
    int64_t max_rss_kb = 0;
    std::vector<counters::Value> counters;
    bool ok() const { return exit_code == 0 && signal == 0 && !timed_out; }
    std::string describe() const;  // "exit code 3", "killed by SIGSEGV", "timed out after 2.0 s"
};

// A started process. Destroying a handle kills its group and reaps it.
class Handle {
public:
    explicit Handle(const Spec& spec);
    ~Handle();
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;

    pid_t pid() const { return pid_; }
    // The caller's ends of the child's stdin/stdout when keep_stdin_open is set
    // (-1 otherwise). The handle owns them.
    int stdin_fd() const { return in_fd_; }
    int stdout_fd() const { return out_fd_; }

    // Stop / continue every process in the child's group (SIGSTOP / SIGCONT).
    void suspend();
    void resume();
    bool suspended() const { return suspended_; }
    // Send a signal to the whole group.
    void signal_group(int sig);
    // CPU time (user + sys) the process has used so far, from /proc; -1 if gone.
    int64_t cpu_ns() const;
    // Wait for exit, collecting output (when not kept open), enforcing timeout.
    Result wait();
    bool running() const { return !reaped_; }

private:
    Spec spec_;
    pid_t pid_ = -1;
    int pidfd_ = -1;
    int in_fd_ = -1, out_fd_ = -1, err_fd_ = -1;
    bool suspended_ = false;
    bool reaped_ = false;
    int64_t start_ns_ = 0;
    std::optional<counters::Group> counters_;
};

// Start, feed stdin, collect, wait: one measured run.
Result run(const Spec& spec);

// Signal name for a number ("SIGKILL"), or "signal N".
std::string signal_name(int sig);

// Find an executable on PATH as execvp would; "" when not found.
std::string which(const std::string& name, const std::string& path_env);

}  // namespace fm::process
