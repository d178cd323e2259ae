// Included first by every binding file, so each translation unit sees the same
// type casters (STL containers, std::map, functional).
#pragma once

#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

// Each bind_<concept>.cpp registers its part of the module.
void bind_errors(py::module_& m);
void bind_clock(py::module_& m);
void bind_counters(py::module_& m);
void bind_affinity(py::module_& m);
void bind_process(py::module_& m);
void bind_timing(py::module_& m);
void bind_scheduler(py::module_& m);
void bind_observe(py::module_& m);
void bind_audit(py::module_& m);
#ifdef FM_HAVE_RISCV
void bind_sim(py::module_& m);
#endif
