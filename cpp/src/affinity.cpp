#include "fm/affinity.hpp"

#include "fm/errors.hpp"

#include <cerrno>
#include <sched.h>
#include <unistd.h>

namespace fm::affinity {

std::vector<int> get(pid_t pid) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(pid, sizeof(set), &set) != 0)
        throw IsolationError(errno_message("sched_getaffinity", errno));
    std::vector<int> cpus;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set)) cpus.push_back(c);
    return cpus;
}

std::vector<int> set(const std::vector<int>& cpus, pid_t pid) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int c : cpus) {
        if (c < 0 || c >= CPU_SETSIZE)
            throw IsolationError("CPU index out of range: " + std::to_string(c));
        CPU_SET(c, &set);
    }
    if (sched_setaffinity(pid, sizeof(set), &set) != 0)
        throw IsolationError(errno_message("sched_setaffinity", errno));
    return get(pid);
}

int online_cpus() { return static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)); }

}  // namespace fm::affinity
