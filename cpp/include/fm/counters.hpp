// Performance counters through perf_event_open, as one event group so the
// kernel schedules them together. Hardware counters are often missing in VMs:
// each counter then says so (available = false, reason = why) and timing goes on.
#pragma once

#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

namespace fm::counters {

struct Event {
    std::string name;     // "cycles", "instructions", "task-clock", ...
    uint32_t type;        // PERF_TYPE_*
    uint64_t config;      // PERF_COUNT_*
    std::string unit;     // "count" or "ns"
    bool hardware;
};

// The events the core knows by name, hardware first.
const std::vector<Event>& known_events();
// Look an event up by name; throws MeasureError naming the known ones.
const Event& event_by_name(const std::string& name);
std::vector<std::string> hardware_names();
std::vector<std::string> software_names();

// One counter's reading. `value` is scaled for multiplexing:
// raw * time_enabled / time_running (see scale()).
struct Value {
    std::string name;
    std::string unit;
    bool available = false;
    std::string reason;        // why not available ("" when available)
    uint64_t raw = 0;
    uint64_t time_enabled = 0;
    uint64_t time_running = 0;
    double value = 0;
    bool multiplexed = false;  // running < enabled: the value is an estimate
};

// Pure arithmetic, kept apart from syscalls so it is testable anywhere.
// A counter that never ran has no estimate: returns -1.
double scale(uint64_t raw, uint64_t enabled, uint64_t running);
// Difference of two readings of the same counters (after - before).
std::vector<Value> delta(const std::vector<Value>& before, const std::vector<Value>& after);

// An open group of counters on one task (pid 0 = calling thread).
class Group {
public:
    // Opens each named event; an event that cannot be opened is kept as
    // unavailable with the reason. `enable_on_exec` starts counting when the
    // target calls execve (used for child processes); `inherit` follows children.
    Group(const std::vector<std::string>& names, pid_t pid = 0, bool enable_on_exec = false,
          bool inherit = false);
    ~Group();
    Group(const Group&) = delete;
    Group& operator=(const Group&) = delete;
    Group(Group&& other) noexcept;
    Group& operator=(Group&& other) noexcept;

    void enable();
    void disable();
    void reset();
    std::vector<Value> read() const;
    bool any_available() const;
    const std::vector<std::string>& names() const { return names_; }

private:
    void close_all();
    std::vector<std::string> names_;
    std::vector<std::string> units_;
    std::vector<int> fds_;           // -1 where unavailable
    std::vector<std::string> reasons_;
    int leader_ = -1;
};

// Whether each known event can be opened on the calling thread, and why not.
std::vector<Value> probe(const std::vector<std::string>& names);

}  // namespace fm::counters
