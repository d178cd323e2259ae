#include "fm/counters.hpp"

#include "fm/errors.hpp"

#include <cerrno>
#include <cstring>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace fm::counters {

const std::vector<Event>& known_events() {
    static const std::vector<Event> events = {
        {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "count", true},
        {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "count", true},
        {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, "count", true},
        {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, "count", true},
        {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "ns", false},
        {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "count", false},
        {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "count", false},
    };
    return events;
}

const Event& event_by_name(const std::string& name) {
    std::string known;
    for (const auto& e : known_events()) {
        if (e.name == name) return e;
        known += (known.empty() ? "" : ", ") + e.name;
    }
    throw MeasureError("unknown counter '" + name + "' (known: " + known + ")");
}

std::vector<std::string> hardware_names() {
    std::vector<std::string> out;
    for (const auto& e : known_events())
        if (e.hardware) out.push_back(e.name);
    return out;
}

std::vector<std::string> software_names() {
    std::vector<std::string> out;
    for (const auto& e : known_events())
        if (!e.hardware) out.push_back(e.name);
    return out;
}

double scale(uint64_t raw, uint64_t enabled, uint64_t running) {
    if (running == 0) return enabled == 0 && raw == 0 ? 0.0 : -1.0;
    if (running >= enabled) return static_cast<double>(raw);
    return static_cast<double>(raw) * (static_cast<double>(enabled) / static_cast<double>(running));
}

std::vector<Value> delta(const std::vector<Value>& before, const std::vector<Value>& after) {
    std::vector<Value> out = after;
    for (size_t i = 0; i < out.size() && i < before.size(); ++i) {
        Value& v = out[i];
        if (!v.available) continue;
        v.raw = after[i].raw - before[i].raw;
        v.time_enabled = after[i].time_enabled - before[i].time_enabled;
        v.time_running = after[i].time_running - before[i].time_running;
        v.value = scale(v.raw, v.time_enabled, v.time_running);
        v.multiplexed = v.time_running < v.time_enabled;
    }
    return out;
}

namespace {

int perf_event_open(perf_event_attr* attr, pid_t pid, int cpu, int group_fd, unsigned long flags) {
    return static_cast<int>(syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags));
}

std::string open_failure_reason(int err, bool hardware) {
    switch (err) {
        case ENOENT:
        case EOPNOTSUPP:
        case ENODEV:
            return hardware ? "not supported: no hardware PMU exposed (common in VMs)"
                            : "not supported by this kernel";
        case EACCES:
        case EPERM:
            return "permission denied: see /proc/sys/kernel/perf_event_paranoid";
        case ENOSYS:
            return "perf_event_open is not available (kernel without perf events)";
        case EMFILE:
            return "too many open files";
        default:
            return std::string("perf_event_open failed: ") + std::strerror(err);
    }
}

}  // namespace

Group::Group(const std::vector<std::string>& names, pid_t pid, bool enable_on_exec, bool inherit)
    : names_(names) {
    for (const auto& name : names) {
        const Event& ev = event_by_name(name);
        units_.push_back(ev.unit);
        perf_event_attr attr;
        std::memset(&attr, 0, sizeof(attr));
        attr.size = sizeof(attr);
        attr.type = ev.type;
        attr.config = ev.config;
        attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
        // Only the leader is disabled: members follow it, so one ioctl on the
        // leader starts and stops the whole group together.
        attr.disabled = leader_ < 0;
        attr.enable_on_exec = enable_on_exec;
        attr.inherit = inherit;
        attr.exclude_hv = true;
        int fd = perf_event_open(&attr, pid, -1, leader_, 0);
        if (fd < 0 && (errno == EACCES || errno == EPERM)) {
            // Unprivileged with perf_event_paranoid >= 2: user space only.
            attr.exclude_kernel = true;
            fd = perf_event_open(&attr, pid, -1, leader_, 0);
        }
        if (fd < 0) {
            fds_.push_back(-1);
            reasons_.push_back(open_failure_reason(errno, ev.hardware));
            continue;
        }
        if (leader_ < 0) leader_ = fd;
        fds_.push_back(fd);
        reasons_.emplace_back();
    }
}

Group::~Group() { close_all(); }

Group::Group(Group&& o) noexcept
    : names_(std::move(o.names_)), units_(std::move(o.units_)), fds_(std::move(o.fds_)),
      reasons_(std::move(o.reasons_)), leader_(o.leader_) {
    o.fds_.clear();
    o.leader_ = -1;
}

Group& Group::operator=(Group&& o) noexcept {
    if (this != &o) {
        close_all();
        names_ = std::move(o.names_);
        units_ = std::move(o.units_);
        fds_ = std::move(o.fds_);
        reasons_ = std::move(o.reasons_);
        leader_ = o.leader_;
        o.fds_.clear();
        o.leader_ = -1;
    }
    return *this;
}

void Group::close_all() {
    for (int fd : fds_)
        if (fd >= 0) ::close(fd);
    fds_.clear();
    leader_ = -1;
}

void Group::enable() {
    if (leader_ >= 0) ioctl(leader_, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
}

void Group::disable() {
    if (leader_ >= 0) ioctl(leader_, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
}

void Group::reset() {
    if (leader_ >= 0) ioctl(leader_, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
}

bool Group::any_available() const { return leader_ >= 0; }

std::vector<Value> Group::read() const {
    std::vector<Value> out;
    for (size_t i = 0; i < names_.size(); ++i) {
        Value v;
        v.name = names_[i];
        v.unit = units_[i];
        if (i >= fds_.size() || fds_[i] < 0) {
            v.reason = i < reasons_.size() ? reasons_[i] : "closed";
            out.push_back(v);
            continue;
        }
        uint64_t buf[3] = {0, 0, 0};
        const ssize_t n = ::read(fds_[i], buf, sizeof(buf));
        if (n != static_cast<ssize_t>(sizeof(buf))) {
            v.reason = errno_message("read", errno);
            out.push_back(v);
            continue;
        }
        v.available = true;
        v.raw = buf[0];
        v.time_enabled = buf[1];
        v.time_running = buf[2];
        v.value = scale(v.raw, v.time_enabled, v.time_running);
        v.multiplexed = v.time_running < v.time_enabled;
        out.push_back(v);
    }
    return out;
}

std::vector<Value> probe(const std::vector<std::string>& names) {
    std::vector<Value> out;
    for (const auto& name : names) {
        Group g({name});
        auto vals = g.read();
        out.push_back(vals.at(0));
    }
    return out;
}

}  // namespace fm::counters
