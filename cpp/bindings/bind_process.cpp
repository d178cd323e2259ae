#include "pybind11.hpp"

#include "fm/process.hpp"

void bind_process(py::module_& m) {
    using fm::process::Limits;
    using fm::process::Result;
    using fm::process::Spec;

    py::class_<Limits>(m, "Limits")
        .def(py::init<>())
        .def_readwrite("nproc", &Limits::nproc)
        .def_readwrite("address_space", &Limits::address_space)
        .def_readwrite("cpu_seconds", &Limits::cpu_seconds)
        .def_readwrite("file_size", &Limits::file_size)
        .def_readwrite("open_files", &Limits::open_files);

    py::class_<Spec>(m, "ProcessSpec")
        .def(py::init<>())
        .def_readwrite("argv", &Spec::argv)
        .def_readwrite("shell", &Spec::shell)
        .def_property(
            "stdin_data", [](const Spec& s) { return py::bytes(s.stdin_data); },
            [](Spec& s, const py::bytes& b) { s.stdin_data = std::string(b); })
        .def_readwrite("cwd", &Spec::cwd)
        .def_readwrite("inherit_env", &Spec::inherit_env)
        .def_readwrite("env", &Spec::env)
        .def_readwrite("cpus", &Spec::cpus)
        .def_readwrite("limits", &Spec::limits)
        .def_readwrite("uid", &Spec::uid)
        .def_readwrite("gid", &Spec::gid)
        .def_readwrite("timeout_s", &Spec::timeout_s)
        .def_readwrite("max_output", &Spec::max_output)
        .def_readwrite("counters", &Spec::counters)
        .def_readwrite("keep_stdin_open", &Spec::keep_stdin_open)
        .def_readwrite("inherit_output", &Spec::inherit_output)
        .def_readwrite("cgroups", &Spec::cgroups)
        .def_readwrite("kill_cgroup", &Spec::kill_cgroup)
        .def_readwrite("die_with_parent", &Spec::die_with_parent);

    py::class_<Result>(m, "ProcessResult")
        .def_readonly("pid", &Result::pid)
        .def_readonly("exit_code", &Result::exit_code)
        .def_readonly("signal", &Result::signal)
        .def_readonly("timed_out", &Result::timed_out)
        .def_readonly("stdout_truncated", &Result::stdout_truncated)
        .def_readonly("stderr_truncated", &Result::stderr_truncated)
        .def_property_readonly("stdout", [](const Result& r) { return py::bytes(r.stdout_data); })
        .def_property_readonly("stderr", [](const Result& r) { return py::bytes(r.stderr_data); })
        .def_readonly("wall_ns", &Result::wall_ns)
        .def_readonly("user_ns", &Result::user_ns)
        .def_readonly("sys_ns", &Result::sys_ns)
        .def_readonly("max_rss_kb", &Result::max_rss_kb)
        .def_readonly("counters", &Result::counters)
        .def_readonly("leftover", &Result::leftover)
        .def_property_readonly("ok", &Result::ok)
        .def("describe", &Result::describe);

    py::class_<fm::process::Handle>(m, "ProcessHandle")
        .def(py::init<const Spec&>(), py::arg("spec"), py::call_guard<py::gil_scoped_release>())
        .def_property_readonly("pid", &fm::process::Handle::pid)
        .def_property_readonly("stdin_fd", &fm::process::Handle::stdin_fd)
        .def_property_readonly("stdout_fd", &fm::process::Handle::stdout_fd)
        .def_property_readonly("suspended", &fm::process::Handle::suspended)
        .def_property_readonly("running", &fm::process::Handle::running)
        .def("suspend", &fm::process::Handle::suspend, py::call_guard<py::gil_scoped_release>())
        .def("resume", &fm::process::Handle::resume)
        .def("signal_group", &fm::process::Handle::signal_group, py::arg("signal"))
        .def("cpu_ns", &fm::process::Handle::cpu_ns)
        .def("wait", &fm::process::Handle::wait, py::arg("limit_s") = 0.0,
             py::call_guard<py::gil_scoped_release>());

    m.def("run_process", &fm::process::run, py::arg("spec"),
          py::call_guard<py::gil_scoped_release>(),
          "Run one command to completion and measure it.");
    m.def("signal_name", &fm::process::signal_name, py::arg("signal"));
    m.def("which", &fm::process::which, py::arg("name"), py::arg("path"));
}
