#include "pybind11.hpp"

#include "fm/timing.hpp"

namespace {

// Calls fn() `loops` times with the GIL held. The Python call protocol is used
// directly: no argument tuple is built per call, keeping the loop's own cost
// to a few tens of ns next to the callable's.
void call_loop(PyObject* fn, uint64_t loops) {
    for (uint64_t i = 0; i < loops; ++i) {
        PyObject* r = PyObject_CallNoArgs(fn);
        if (!r) throw py::error_already_set();
        Py_DECREF(r);
    }
}

}  // namespace

fm::timing::Batch time_callable(const py::object& fn, uint64_t loops,
                                fm::counters::Group* group) {
    auto b = fm::timing::time_batch([&](uint64_t n) { call_loop(fn.ptr(), n); }, loops, group);
    // Ctrl-C lands here, between batches, never inside a timed region.
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    return b;
}

void bind_timing(py::module_& m) {
    using fm::timing::Batch;
    py::class_<Batch>(m, "Batch")
        .def(py::init<>())
        .def_readwrite("loops", &Batch::loops)
        .def_readwrite("wall_ns", &Batch::wall_ns)
        .def_readwrite("cpu_ns", &Batch::cpu_ns)
        .def_readwrite("counters", &Batch::counters)
        .def("__repr__", [](const Batch& b) {
            return "<Batch loops=" + std::to_string(b.loops) + " wall_ns=" + std::to_string(b.wall_ns) +
                   " cpu_ns=" + std::to_string(b.cpu_ns) + ">";
        });

    m.def("time_callable", &time_callable, py::arg("fn"), py::arg("loops"),
          py::arg("counters") = nullptr,
          "Call fn() `loops` times in a C++ loop; returns the timed Batch.");
    m.def("min_batch_ns", &fm::timing::min_batch_ns, py::arg("resolution_ns"),
          py::arg("floor_ns") = 1000000);
    m.def("calibrate", &fm::timing::calibrate, py::arg("measure"), py::arg("target_ns"),
          py::arg("max_loops") = (uint64_t{1} << 40),
          "Double loops until measure(loops) (wall ns) reaches target_ns.");
}
