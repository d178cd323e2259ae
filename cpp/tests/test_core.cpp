// Tests of the measurement core that need no Python. Pure arithmetic first,
// then real processes.
#include "check.hpp"

#include "fm/affinity.hpp"
#include "fm/clock.hpp"
#include "fm/counters.hpp"
#include "fm/errors.hpp"
#include "fm/packed.hpp"
#include "fm/process.hpp"
#include "fm/scheduler.hpp"
#include "fm/timing.hpp"

#include <cerrno>
#include <csignal>
#include <sys/wait.h>
#include <cstdio>
#include <string>
#include <unistd.h>

using namespace fm;

namespace {
// Alive = exists and is not a zombie waiting for its (new) parent to reap it.
bool alive(pid_t pid) {
    FILE* f = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
    if (!f) return false;
    char buf[512] = {0};
    const size_t n = std::fread(buf, 1, sizeof(buf) - 1, f);
    std::fclose(f);
    const std::string line(buf, n);
    const auto p = line.rfind(')');
    return p != std::string::npos && p + 2 < line.size() && line[p + 2] != 'Z' && line[p + 2] != 'X';
}
}  // namespace

TEST(counter_scaling_is_pure_arithmetic) {
    CHECK(counters::scale(1000, 100, 100) == 1000.0);
    CHECK(counters::scale(1000, 200, 100) == 2000.0);  // ran half the time: doubled
    CHECK(counters::scale(0, 0, 0) == 0.0);
    CHECK(counters::scale(5, 100, 0) == -1.0);         // never ran: no estimate
}

TEST(counter_delta_subtracts_and_rescales) {
    counters::Value a, b;
    a.available = b.available = true;
    a.raw = 100; a.time_enabled = 10; a.time_running = 10;
    b.raw = 400; b.time_enabled = 30; b.time_running = 20;
    auto d = counters::delta({a}, {b});
    CHECK(d[0].raw == 300);
    CHECK(d[0].value == 300.0 * 20.0 / 10.0);
    CHECK(d[0].multiplexed);
}

TEST(unknown_counter_names_the_known_ones) {
    bool named = false;
    try {
        counters::event_by_name("bogus");
    } catch (const MeasureError& e) {
        named = std::string(e.what()).find("task-clock") != std::string::npos;
    }
    CHECK(named);
}

TEST(unavailable_counters_are_reported_not_raised) {
    // Whatever this machine offers, opening every known event must not throw,
    // and an unavailable one must carry a reason.
    std::vector<std::string> all = counters::hardware_names();
    for (auto& s : counters::software_names()) all.push_back(s);
    counters::Group g(all);
    for (const auto& v : g.read()) CHECK(v.available || !v.reason.empty());
}

TEST(balanced_order_pairs_are_mirror_images) {
    for (uint64_t seed = 0; seed < 20; ++seed) {
        auto o = scheduler::balanced_order(40, seed);
        CHECK(o.size() == 40);
        int first = 0;
        for (size_t i = 0; i + 1 < o.size(); i += 2) {
            CHECK(o[i] != o[i + 1]);
            first += o[i] ? 1 : 0;
        }
        (void)first;
    }
    CHECK(scheduler::balanced_order(7, 1).size() == 7);
    CHECK(scheduler::balanced_order(10, 3) == scheduler::balanced_order(10, 3));
    CHECK(scheduler::balanced_order(64, 3) != scheduler::balanced_order(64, 4));
}

TEST(calibration_doubles_until_the_target) {
    // A fake side costing 1000 ns per loop: the target 1 ms needs >= 1000 loops.
    std::vector<uint64_t> asked;
    auto measure = [&](uint64_t loops) {
        asked.push_back(loops);
        return static_cast<int64_t>(loops * 1000);
    };
    const uint64_t loops = timing::calibrate(measure, 1000000);
    CHECK(loops >= 1000);
    CHECK(loops <= 2400);  // jumps near the target rather than far past it
    CHECK(timing::min_batch_ns(20.0) == 1000000);
    CHECK(timing::min_batch_ns(5000.0) == 5000000);
}

struct CountingSide : scheduler::Side {
    std::vector<std::string>* log;
    std::string name;
    bool running = false;
    CountingSide(std::vector<std::string>* l, std::string n) : log(l), name(std::move(n)) {}
    timing::Batch measure(uint64_t loops) override {
        CHECK(running);  // measured only while resumed
        log->push_back(name);
        timing::Batch b;
        b.loops = loops;
        b.wall_ns = 100;
        return b;
    }
    void suspend() override { running = false; }
    void resume() override { running = true; }
};

TEST(scheduler_runs_warmup_then_balanced_rounds_with_one_side_awake) {
    std::vector<std::string> log;
    CountingSide a(&log, "A"), b(&log, "B");
    scheduler::Plan plan;
    plan.loops = 3;
    plan.warmup = 1;
    plan.rounds = 4;
    plan.seed = 7;
    auto rounds = scheduler::run_paired(a, b, plan);
    CHECK(rounds.size() == 4);
    CHECK(log.size() == 2 + 8);
    CHECK(!a.running && !b.running);
    for (const auto& r : rounds) CHECK(r.reference.loops == 3 && r.candidate.loops == 3);
}

TEST(process_runs_and_captures_output) {
    process::Spec s;
    s.argv = {"sh", "-c", "cat; echo err >&2; exit 3"};
    s.stdin_data = "hello";
    auto r = process::run(s);
    CHECK(r.exit_code == 3);
    CHECK(r.stdout_data == "hello");
    CHECK(r.stderr_data == "err\n");
    CHECK(r.wall_ns > 0);
}

TEST(process_output_is_bounded) {
    process::Spec s;
    s.argv = {"sh", "-c", "head -c 100000 /dev/zero"};
    s.max_output = 1000;
    auto r = process::run(s);
    CHECK(r.stdout_data.size() == 1000);
    CHECK(r.stdout_truncated);
    CHECK(r.exit_code == 0);
}

TEST(missing_command_is_a_spawn_error) {
    process::Spec s;
    s.argv = {"definitely-not-a-command-xyz"};
    CHECK_THROWS(process::run(s), SpawnError);
    s.argv = {"true"};
    s.cwd = "/nonexistent/dir";
    CHECK_THROWS(process::run(s), SpawnError);
}

TEST(timeout_kills_grandchildren) {
    process::Spec s;
    // The grandchild writes its pid, then sleeps; the timeout must take it too.
    s.argv = {"sh", "-c", "sh -c 'echo $$; exec sleep 30' & wait"};
    s.timeout_s = 0.3;
    auto r = process::run(s);
    CHECK(r.timed_out);
    const pid_t grandchild = static_cast<pid_t>(std::atoi(r.stdout_data.c_str()));
    CHECK(grandchild > 0);
    usleep(50000);
    CHECK(grandchild > 0 && !alive(grandchild));
}

TEST(affinity_reports_granted_cpus) {
    auto cpus = affinity::get();
    CHECK(!cpus.empty());
    auto granted = affinity::set({cpus[0]});
    CHECK(granted.size() == 1 && granted[0] == cpus[0]);
    affinity::set(cpus);
    CHECK_THROWS(affinity::set({-1}), IsolationError);
}

TEST(suspended_process_accumulates_no_cpu) {
    process::Spec s;
    s.argv = {"sh", "-c", "while :; do :; done"};
    s.keep_stdin_open = true;
    s.timeout_s = 10;
    process::Handle h(s);
    usleep(100000);
    h.suspend();
    const int64_t before = h.cpu_ns();
    usleep(300000);
    const int64_t after = h.cpu_ns();
    CHECK(before > 0);
    CHECK(after == before);
    h.resume();
    h.signal_group(SIGKILL);
    auto r = h.wait();
    CHECK(r.signal == SIGKILL);
}

TEST(a_refused_start_leaves_no_process_behind) {
    // An unknown counter is refused before the child exists: no child to
    // reap, and no command that runs later on its own.
    process::Spec s;
    s.argv = {"sh", "-c", "touch /tmp/fm-core-test-must-not-exist"};
    s.counters = {"no-such-counter"};
    ::unlink("/tmp/fm-core-test-must-not-exist");
    CHECK_THROWS(process::run(s), MeasureError);
    CHECK(waitpid(-1, nullptr, WNOHANG) < 0 && errno == ECHILD);
    usleep(50000);
    CHECK(::access("/tmp/fm-core-test-must-not-exist", F_OK) != 0);
}

TEST(both_ways_of_starting_give_the_same_result) {
    // Without counters the child is started with clone(CLONE_VM | CLONE_VFORK),
    // with them it is forked and held before execve: same observable result.
    for (bool with_counters : {false, true}) {
        process::Spec s;
        s.argv = {"sh", "-c", "read x; echo \"$x\" $PWD; exit 4"};
        s.stdin_data = "in\n";
        s.cwd = "/";
        if (with_counters) s.counters = {"task-clock"};
        auto r = process::run(s);
        CHECK(r.exit_code == 4);
        CHECK(r.stdout_data == "in /\n");
        CHECK(r.wall_ns > 0 && r.wall_ns < 5000000000LL);
    }
}

TEST(inherited_output_goes_to_the_callers_fds) {
    // With inherit_output the child writes to our own fds 1 and 2 (here a
    // file put in their place), nothing is captured, and stdin is still fed.
    for (bool with_counters : {false, true}) {
        char path[] = "/tmp/fm-core-test-output-XXXXXX";
        const int file = mkstemp(path);
        CHECK(file >= 0);
        std::fflush(stdout);
        const int saved_out = dup(1), saved_err = dup(2);
        dup2(file, 1);
        dup2(file, 2);
        process::Spec s;
        s.argv = {"sh", "-c", "read x; echo out \"$x\"; echo err >&2"};
        s.stdin_data = "in\n";
        s.inherit_output = true;
        if (with_counters) s.counters = {"task-clock"};
        auto r = process::run(s);
        dup2(saved_out, 1);
        dup2(saved_err, 2);
        ::close(saved_out);
        ::close(saved_err);
        char buf[64] = {0};
        const ssize_t n = pread(file, buf, sizeof(buf) - 1, 0);
        ::close(file);
        ::unlink(path);
        CHECK(r.exit_code == 0);
        CHECK(r.stdout_data.empty() && r.stderr_data.empty());
        CHECK(n > 0 && std::string(buf) == "out in\nerr\n");
    }
    process::Spec both;
    both.argv = {"true"};
    both.inherit_output = true;
    both.keep_stdin_open = true;
    CHECK_THROWS(process::Handle h(both), MeasureError);
}

TEST(a_wait_can_be_bounded) {
    process::Spec s;
    s.argv = {"sleep", "30"};
    s.keep_stdin_open = true;
    process::Handle h(s);
    const int64_t t0 = clock::now_ns();
    auto r = h.wait(0.2);
    CHECK(r.timed_out);
    CHECK(r.signal == SIGKILL);
    CHECK(clock::now_ns() - t0 < 5000000000LL);
}

TEST(clock_is_monotonic_and_fine) {
    const int64_t a = clock::now_ns();
    const int64_t b = clock::now_ns();
    CHECK(b >= a);
    CHECK(clock::measure_resolution_ns(20) < 1000.0);
    CHECK(clock::clocksource_warning("tsc").empty());
    CHECK(!clock::clocksource_warning("hpet").empty());
}

int main() { return check::run_all(); }

TEST(packed_values_are_counted_without_decoding) {
    // [1, {"a": []}, "xy"]: the array, 1, the map, "a", [], "xy".
    const uint8_t v[] = {0x93, 0x01, 0x81, 0xa1, 'a', 0x90, 0xa2, 'x', 'y'};
    CHECK(packed::count_values(v, sizeof v, 100) == 6);
    CHECK(packed::count_values(v, sizeof v, 3) == 4);       // over the limit: stops there
    CHECK(packed::count_values(v, sizeof v - 1, 100) == -1);  // cut short
    const uint8_t unused[] = {0xc1};
    CHECK(packed::count_values(unused, 1, 100) == -1);
    // array32 announcing four billion values in six bytes is malformed, not counted.
    const uint8_t huge[] = {0xdd, 0xff, 0xff, 0xff, 0xff, 0x90};
    CHECK(packed::count_values(huge, sizeof huge, 1000) == -1);
    // bin8 of 3 bytes, float64, ext8 of 2 bytes: three values, their payloads skipped.
    const uint8_t mixed[] = {0x93, 0xc4, 3, 0xdd, 0xdd, 0xdd, 0xcb, 0, 0, 0, 0, 0, 0, 0, 0,
                             0xc7, 2, 5, 0x90, 0x90};
    CHECK(packed::count_values(mixed, sizeof mixed, 100) == 4);
}
