// CPU pinning. The kernel may grant less than asked (cpusets, offline CPUs),
// so every call reports what was actually granted.
#pragma once

#include <sys/types.h>
#include <vector>

namespace fm::affinity {

// CPUs the given thread/process may run on (pid 0: the calling thread).
std::vector<int> get(pid_t pid = 0);
// Pin pid (0: calling thread) to `cpus`; returns the granted set.
// Throws IsolationError when the kernel refuses.
std::vector<int> set(const std::vector<int>& cpus, pid_t pid = 0);
// Number of CPUs configured online on this machine.
int online_cpus();

}  // namespace fm::affinity
