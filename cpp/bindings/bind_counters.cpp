#include "pybind11.hpp"

#include "fm/counters.hpp"

namespace {

py::dict value_to_dict(const fm::counters::Value& v) {
    py::dict d;
    d["name"] = v.name;
    d["unit"] = v.unit;
    d["available"] = v.available;
    d["reason"] = v.reason;
    d["raw"] = v.raw;
    d["time_enabled"] = v.time_enabled;
    d["time_running"] = v.time_running;
    d["value"] = v.value;
    d["multiplexed"] = v.multiplexed;
    return d;
}

}  // namespace

void bind_counters(py::module_& m) {
    using fm::counters::Value;
    py::class_<Value>(m, "CounterValue")
        .def_readonly("name", &Value::name)
        .def_readonly("unit", &Value::unit)
        .def_readonly("available", &Value::available)
        .def_readonly("reason", &Value::reason)
        .def_readonly("raw", &Value::raw)
        .def_readonly("time_enabled", &Value::time_enabled)
        .def_readonly("time_running", &Value::time_running)
        .def_readonly("value", &Value::value)
        .def_readonly("multiplexed", &Value::multiplexed)
        .def("to_dict", &value_to_dict)
        .def("__repr__", [](const Value& v) {
            if (!v.available) return "<CounterValue " + v.name + " unavailable: " + v.reason + ">";
            return "<CounterValue " + v.name + "=" + std::to_string(v.value) + " " + v.unit + ">";
        });

    py::class_<fm::counters::Group>(m, "CounterGroup")
        .def(py::init<const std::vector<std::string>&, pid_t, bool, bool>(), py::arg("names"),
             py::arg("pid") = 0, py::arg("enable_on_exec") = false, py::arg("inherit") = false)
        .def("enable", &fm::counters::Group::enable)
        .def("disable", &fm::counters::Group::disable)
        .def("reset", &fm::counters::Group::reset)
        .def("read", &fm::counters::Group::read)
        .def("any_available", &fm::counters::Group::any_available)
        .def_property_readonly("names", &fm::counters::Group::names);

    m.def("counter_scale", &fm::counters::scale, py::arg("raw"), py::arg("enabled"),
          py::arg("running"), "Scale a raw count for multiplexing; -1 if it never ran.");
    m.def("probe_counters", &fm::counters::probe, py::arg("names"),
          "Open each counter once on this thread: available or not, and why.");
    m.def("hardware_counters", &fm::counters::hardware_names);
    m.def("software_counters", &fm::counters::software_names);
}
