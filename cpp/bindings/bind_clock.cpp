#include "pybind11.hpp"

#include "fm/clock.hpp"

void bind_clock(py::module_& m) {
    py::class_<fm::clock::Info>(m, "ClockInfo")
        .def_readonly("resolution_ns", &fm::clock::Info::resolution_ns)
        .def_readonly("reported_ns", &fm::clock::Info::reported_ns)
        .def_readonly("overhead_ns", &fm::clock::Info::overhead_ns)
        .def_readonly("clocksource", &fm::clock::Info::clocksource)
        .def_readonly("available", &fm::clock::Info::available)
        .def_readonly("warning", &fm::clock::Info::warning);
    m.def("now_ns", &fm::clock::now_ns, "CLOCK_MONOTONIC in nanoseconds.");
    m.def("process_cpu_ns", &fm::clock::process_cpu_ns, "CPU time of this process in ns.");
    m.def("clock_info", &fm::clock::info, py::call_guard<py::gil_scoped_release>(),
          "Measure the clock: resolution, read overhead, clocksource.");
    m.def("clock_resolution_ns", &fm::clock::measure_resolution_ns, py::arg("trials") = 200,
          py::call_guard<py::gil_scoped_release>());
    m.def("clock_overhead_ns", &fm::clock::measure_overhead_ns, py::arg("reads") = 1 << 20,
          py::call_guard<py::gil_scoped_release>());
    m.def("clocksource", &fm::clock::current_clocksource);
    m.def("clocksource_warning", &fm::clock::clocksource_warning, py::arg("source"));
}
