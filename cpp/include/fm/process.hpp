// Running commands as measured, isolated processes.
//
// A child is started, set up (cgroups, session, rlimits, affinity, account,
// cwd, stdio) and execs the command; the wall clock starts at the instant
// before execve. Two ways to start it:
//  * with counters: fork, then hold the child before execve until the parent
//    has attached its counters (enable_on_exec), so counting and the clock
//    start together at the exec itself;
//  * without: clone(CLONE_VM | CLONE_VFORK), the way posix_spawn does. The
//    child shares the parent's memory until it execs, so exec does not have to
//    tear down a copy of the evaluator's (large) address space, work that a
//    forked child pays inside the measured window (about 0.5 ms of CPU per
//    command here, which pulled command ratios towards 1).
#pragma once

#include "fm/counters.hpp"
#include "fm/fd.hpp"

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
    // The child writes to the caller's own stdout and stderr (a terminal, a
    // log): nothing is captured, so Result's stdout/stderr stay empty. Not
    // with keep_stdin_open, whose caller reads the child's stdout.
    bool inherit_output = false;
    // cgroup.procs files the child joins before anything else (as the caller,
    // i.e. before the account switch), so every process it starts is
    // accounted, frozen and killed with it whatever group or session it moves to.
    std::vector<std::string> cgroups;
    // A cgroup v2 directory emptied (cgroup.kill) the moment the command's
    // leader exits; what was still alive in it is counted in Result::leftover.
    std::string kill_cgroup;
    bool die_with_parent = false;       // SIGKILL the child if the caller dies
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
    int leftover = 0;         // processes still alive in kill_cgroup at exit (killed)
    bool ok() const { return exit_code == 0 && signal == 0 && !timed_out; }
    std::string describe() const;  // "exit code 3", "killed by SIGSEGV", "timed out after 2.0 s"
};

struct ChildPlan;  // what a starting child needs, prepared before it exists

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
    int stdin_fd() const { return in_fd_.get(); }
    int stdout_fd() const { return out_fd_.get(); }

    // Stop / continue every process in the child's group (SIGSTOP / SIGCONT).
    void suspend();
    void resume();
    bool suspended() const { return suspended_; }
    // Send a signal to the whole group.
    void signal_group(int sig);
    // CPU time (user + sys) the process has used so far, from /proc; -1 if gone.
    int64_t cpu_ns() const;
    // Wait for exit, collecting output (when not kept open), enforcing the
    // spec's timeout; `limit_s` > 0 also bounds this wait from now (a worker
    // asked to exit that does not is killed, never waited for without end).
    Result wait(double limit_s = 0);
    bool running() const { return !reaped_; }

private:
    void start_forked(ChildPlan& plan);
    void start_vforked(ChildPlan& plan);
    void kill_and_reap() noexcept;
    Spec spec_;
    pid_t pid_ = -1;
    Fd pidfd_;
    Fd in_fd_, out_fd_, err_fd_;
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
