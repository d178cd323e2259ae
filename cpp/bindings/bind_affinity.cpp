#include "pybind11.hpp"

#include "fm/affinity.hpp"

void bind_affinity(py::module_& m) {
    m.def("get_affinity", &fm::affinity::get, py::arg("pid") = 0,
          "CPUs the process/thread may run on (pid 0: the calling thread).");
    m.def("set_affinity", &fm::affinity::set, py::arg("cpus"), py::arg("pid") = 0,
          "Pin to CPUs; returns the set the kernel granted.");
    m.def("online_cpus", &fm::affinity::online_cpus);
}
