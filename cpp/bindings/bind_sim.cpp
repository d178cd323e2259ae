#include "pybind11.hpp"

#include <memory>

#include "simulator.hpp"

namespace {

PyObject* g_simulator_fault = nullptr;

using fm::rv::Fault;
using fm::rv::FaultCode;
using fm::rv::Simulator;

std::unique_ptr<Simulator> make_simulator(const std::string& env, std::uint64_t mem_base,
                                          std::uint64_t mem_size, const std::string& machine) {
    fm::rv::Env e;
    if (env == "user") e = fm::rv::Env::User;
    else if (env == "machine") e = fm::rv::Env::Machine;
    else throw py::value_error("env must be 'user' or 'machine'");
    return std::make_unique<Simulator>(e, mem_base, mem_size, fm::rv::parse_machine(machine));
}

// Runs in chunks with the GIL released, checking for Ctrl-C between chunks.
// Chunk boundaries never change results: the interpreter state carries over.
bool run(Simulator& sim, std::uint64_t max_instructions, std::uint64_t max_cycles,
         std::uint64_t chunk) {
    if (chunk == 0) chunk = 1;
    for (;;) {
        const std::uint64_t done = sim.instret();
        if (sim.exited()) return true;
        if (done >= max_instructions || sim.cycles() >= max_cycles) break;
        std::uint64_t stop = done + std::min(chunk, max_instructions - done);
        // Without the timing model cycles are instructions: the cycle budget is
        // an instruction budget, enforced exactly rather than per chunk.
        if (!sim.timing()) stop = std::min(stop, max_cycles);
        {
            py::gil_scoped_release release;
            sim.run(stop, max_cycles);
        }
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    }
    throw Fault(FaultCode::BudgetExceeded, sim.hart().pc,
                "stopped after " + std::to_string(sim.instret()) + " instructions and " +
                    std::to_string(sim.cycles()) + " cycles",
                sim.instret());
}

py::dict stats_dict(const Simulator& sim) {
    const fm::rv::Stats s = sim.stats();
    py::dict d;
    d["instructions"] = s.instructions;
    d["cycles"] = s.cycles;
    d["cpi"] = s.instructions ? static_cast<double>(s.cycles) / static_cast<double>(s.instructions) : 0.0;
    d["l1i_accesses"] = s.l1i_accesses;
    d["l1i_misses"] = s.l1i_misses;
    d["l1d_accesses"] = s.l1d_accesses;
    d["l1d_misses"] = s.l1d_misses;
    d["l2_accesses"] = s.l2_accesses;
    d["l2_misses"] = s.l2_misses;
    d["branches"] = s.branches;
    d["jumps"] = s.jumps;
    d["mispredicts"] = s.mispredicts;
    d["decoded"] = s.decoded;
    return d;
}

}  // namespace

void bind_sim(py::module_& m) {
    py::object base = m.attr("MeasureError");
    g_simulator_fault = PyErr_NewExceptionWithDoc(
        "frontier_measure.SimulatorFault",
        "The simulated program faulted or ran out of budget; `.code` names the fault "
        "(e.g. 'illegal_instruction', 'budget_exceeded'), `.pc` the instruction and "
        "`.value` the address, instruction word or syscall number.",
        base.ptr(), nullptr);
    if (!g_simulator_fault) throw py::error_already_set();
    m.add_object("SimulatorFault", py::reinterpret_borrow<py::object>(g_simulator_fault));
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const Fault& e) {
            py::object exc = py::reinterpret_steal<py::object>(
                PyObject_CallFunction(g_simulator_fault, "s", e.what()));
            if (!exc) throw py::error_already_set();
            exc.attr("code") = fm::rv::fault_code_name(e.code());
            exc.attr("pc") = e.pc();
            exc.attr("value") = e.value();
            PyErr_SetObject(g_simulator_fault, exc.ptr());
        }
    });

    py::class_<Simulator>(m, "Simulator",
                          "One RV64IMAFDC hart with its memory, environment and timing model.")
        .def(py::init(&make_simulator), py::arg("env"), py::arg("mem_base"), py::arg("mem_size"),
             py::arg("machine") = "")
        .def("write_memory",
             [](Simulator& s, std::uint64_t addr, py::bytes data) {
                 const std::string b = data;
                 s.memory().write(addr, b.data(), b.size());
             })
        .def("read_memory",
             [](Simulator& s, std::uint64_t addr, std::uint64_t n) {
                 std::string b(n, '\0');
                 s.memory().read(addr, b.data(), n);
                 return py::bytes(b);
             })
        .def("set_code_range", &Simulator::set_code_range)
        .def("protect", &Simulator::protect, py::arg("lo"), py::arg("hi"),
             "User mode: make the pages overlapping [lo, hi) read-only (a store there is a fault).")
        .def("set_reg", [](Simulator& s, int i, std::uint64_t v) {
            if (i < 1 || i > 31) throw py::index_error("register x1..x31");
            s.hart().x[i] = v;
        })
        .def("reg", [](Simulator& s, int i) {
            if (i < 0 || i > 31) throw py::index_error("register x0..x31");
            return s.hart().x[i];
        })
        .def_property("pc", [](Simulator& s) { return s.hart().pc; },
                      [](Simulator& s, std::uint64_t pc) { s.hart().pc = pc; })
        .def("set_stdin", [](Simulator& s, py::bytes data) { s.set_stdin(std::string(data)); })
        .def("set_brk", &Simulator::set_brk)
        .def("set_mmap_area", &Simulator::set_mmap_area)
        .def("set_tohost", &Simulator::set_tohost)
        .def("set_fromhost", &Simulator::set_fromhost)
        .def("set_output_limit", &Simulator::set_output_limit)
        .def_property("timing", &Simulator::timing, &Simulator::set_timing)
        .def("set_profile_ranges", &Simulator::set_profile_ranges)
        .def("run", &run, py::arg("max_instructions"), py::arg("max_cycles") = ~0ull,
             py::arg("chunk") = 50000000ull,
             "Run until exit; raises SimulatorFault('budget_exceeded') at the budget.")
        .def_property_readonly("exited", &Simulator::exited)
        .def_property_readonly("exit_code", &Simulator::exit_code)
        .def_property_readonly("stdout", [](const Simulator& s) { return py::bytes(s.stdout_data()); })
        .def_property_readonly("stderr", [](const Simulator& s) { return py::bytes(s.stderr_data()); })
        .def_property_readonly("instructions", &Simulator::instret)
        .def_property_readonly("cycles", &Simulator::cycles)
        .def_property_readonly("fflags", &Simulator::fflags)
        .def("stats", &stats_dict)
        .def("profile", [](const Simulator& s) { return s.profile(); });

    m.def("parse_machine",
          [](const std::string& text) {
              const fm::rv::MachineConfig c = fm::rv::parse_machine(text);
              py::dict d;
              d["name"] = c.name;
              d["freq_hz"] = c.freq_hz;
              d["l1i"] = py::make_tuple(c.l1i.sets, c.l1i.ways, c.l1i.line);
              d["l1d"] = py::make_tuple(c.l1d.sets, c.l1d.ways, c.l1d.line);
              d["l2"] = py::make_tuple(c.l2.sets, c.l2.ways, c.l2.line);
              return d;
          },
          "Validate a machine description; returns its main parameters.");
}
