#include "pybind11.hpp"

#include "fm/errors.hpp"
#include "fm/process.hpp"
#include "fm/scheduler.hpp"

#include <memory>
#include <optional>

fm::timing::Batch time_callable(const py::object& fn, uint64_t loops, fm::counters::Group* group);

namespace {

using fm::scheduler::Side;
using fm::timing::Batch;

// Lets Python classes implement a side (e.g. a long-lived worker process).
class PySide : public Side {
public:
    using Side::Side;
    Batch measure(uint64_t loops) override { PYBIND11_OVERRIDE_PURE(Batch, Side, measure, loops); }
    void suspend() override { PYBIND11_OVERRIDE(void, Side, suspend, ); }
    void resume() override { PYBIND11_OVERRIDE(void, Side, resume, ); }
};

// A Python callable timed in this process.
class CallableSide : public Side {
public:
    CallableSide(py::object fn, const std::vector<std::string>& counters) : fn_(std::move(fn)) {
        if (!counters.empty()) {
            group_.emplace(counters);
            group_->enable();
        }
    }
    Batch measure(uint64_t loops) override {
        return time_callable(fn_, loops, group_ ? &*group_ : nullptr);
    }

private:
    py::object fn_;
    std::optional<fm::counters::Group> group_;
};

// The side's error for a run that failed: what ran, how it ended, the end of its stderr.
fm::SideError run_failed(const std::string& side, const std::string& what_ran,
                         const fm::process::Result& r, double timeout_s) {
    std::string tail = r.stderr_data.size() > 400
                           ? "..." + r.stderr_data.substr(r.stderr_data.size() - 400)
                           : r.stderr_data;
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
    std::string what = what_ran + " failed (" + r.describe() + ")";
    if (r.timed_out) what = what_ran + " timed out after " + std::to_string(timeout_s) + " s";
    if (!tail.empty()) what += "; stderr: " + tail;
    return fm::SideError(side, what);
}

// A command: one fresh process per loop. Nothing of it outlives its batch
// (the runner kills the process group), so there is nothing to suspend.
// An optional `prepare` command runs before every run and `conclude` after
// it, untimed: each run's cost is its own process's, from exec to exit, so
// they add nothing to the batch. With `ignore_failure` the command's non-zero
// exit code is part of what it does (grep finding nothing, a linter finding
// something), not an error; a signal or a timeout still is, and so is any
// failure of prepare or conclude.
class CommandSide : public Side {
public:
    CommandSide(fm::process::Spec spec, std::string name,
                std::optional<fm::process::Spec> prepare = std::nullopt,
                std::optional<fm::process::Spec> conclude = std::nullopt,
                bool ignore_failure = false)
        : spec_(std::move(spec)), name_(std::move(name)), prepare_(std::move(prepare)),
          conclude_(std::move(conclude)), ignore_failure_(ignore_failure) {}
    Batch measure(uint64_t loops) override {
        Batch b;
        b.loops = loops;
        b.cpu_ns = 0;
        // One run of a spec, the GIL released while it runs; a failure is the side's error.
        auto run = [this](const fm::process::Spec& spec, const char* what, bool exit_ok) {
            fm::process::Result res;
            {
                py::gil_scoped_release release;
                res = fm::process::run(spec);
            }
            bool exited = res.signal == 0 && !res.timed_out && res.exit_code >= 0;
            if (!res.ok() && !(exit_ok && exited)) throw run_failed(name_, what, res, spec.timeout_s);
            return res;
        };
        for (uint64_t i = 0; i < loops; ++i) {
            if (prepare_) run(*prepare_, "prepare command", false);
            fm::process::Result r = run(spec_, "command", ignore_failure_);
            if (conclude_) run(*conclude_, "conclude command", false);
            b.wall_ns += r.wall_ns;
            b.cpu_ns += r.user_ns + r.sys_ns;
            if (b.counters.empty()) {
                b.counters = r.counters;
            } else {
                for (size_t k = 0; k < b.counters.size() && k < r.counters.size(); ++k) {
                    b.counters[k].raw += r.counters[k].raw;
                    b.counters[k].value += r.counters[k].value;
                    b.counters[k].time_enabled += r.counters[k].time_enabled;
                    b.counters[k].time_running += r.counters[k].time_running;
                }
            }
            last_ = std::move(r);
        }
        return b;
    }
    const fm::process::Result& last() const { return last_; }

private:
    fm::process::Spec spec_;
    std::string name_;
    std::optional<fm::process::Spec> prepare_, conclude_;
    bool ignore_failure_;
    fm::process::Result last_;
};

}  // namespace

void bind_scheduler(py::module_& m) {
    using fm::scheduler::Plan;
    using fm::scheduler::Round;

    py::class_<Side, PySide, std::shared_ptr<Side>>(m, "Side")
        .def(py::init<>())
        .def("measure", &Side::measure, py::arg("loops"))
        .def("suspend", &Side::suspend)
        .def("resume", &Side::resume);
    py::class_<CallableSide, Side, std::shared_ptr<CallableSide>>(m, "CallableSide")
        .def(py::init<py::object, const std::vector<std::string>&>(), py::arg("fn"),
             py::arg("counters") = std::vector<std::string>{});
    py::class_<CommandSide, Side, std::shared_ptr<CommandSide>>(m, "CommandSide")
        .def(py::init<fm::process::Spec, std::string, std::optional<fm::process::Spec>,
                      std::optional<fm::process::Spec>, bool>(),
             py::arg("spec"), py::arg("name"), py::arg("prepare") = py::none(),
             py::arg("conclude") = py::none(), py::arg("ignore_failure") = false)
        .def_property_readonly("last", &CommandSide::last);

    py::class_<Plan>(m, "Plan")
        .def(py::init<>())
        .def(py::init([](uint64_t loops, int warmup, int rounds, uint64_t seed) {
                 Plan p;
                 p.loops = loops;
                 p.warmup = warmup;
                 p.rounds = rounds;
                 p.seed = seed;
                 return p;
             }),
             py::arg("loops") = 1, py::arg("warmup") = 1, py::arg("rounds") = 20, py::arg("seed") = 0)
        .def_readwrite("loops", &Plan::loops)
        .def_readwrite("warmup", &Plan::warmup)
        .def_readwrite("rounds", &Plan::rounds)
        .def_readwrite("seed", &Plan::seed);

    py::class_<Round>(m, "Round")
        .def_readonly("index", &Round::index)
        .def_readonly("reference_first", &Round::reference_first)
        .def_readonly("reference", &Round::reference)
        .def_readonly("candidate", &Round::candidate);

    m.def("balanced_order", &fm::scheduler::balanced_order, py::arg("rounds"), py::arg("seed"),
          "reference_first flags: mirror-image pairs AB BA / BA AB drawn from the seed.");
    m.def(
        "run_paired",
        [](Side& reference, Side& candidate, const Plan& plan, const py::object& progress,
           int first_index) {
            fm::scheduler::Progress cb = [&](int done, int total) {
                if (PyErr_CheckSignals() != 0) throw py::error_already_set();
                if (!progress.is_none()) progress(done, total);
            };
            return fm::scheduler::run_paired(reference, candidate, plan, cb, first_index);
        },
        py::arg("reference"), py::arg("candidate"), py::arg("plan"), py::arg("progress") = py::none(),
        py::arg("first_index") = 0,
        "Warm-up, then balanced interleaved rounds; the idle side is suspended.");
}
