#include "pybind11.hpp"

#include "fm/errors.hpp"

namespace {

// The exception classes live as long as the interpreter; they are created once
// and intentionally never released (module teardown order is not ours).
PyObject* g_measure_error = nullptr;
PyObject* g_spawn_error = nullptr;
PyObject* g_isolation_error = nullptr;
PyObject* g_side_error = nullptr;

PyObject* make(py::module_& m, const char* name, PyObject* base, const char* doc) {
    const std::string qual = std::string("frontier_measure.") + name;
    PyObject* cls = PyErr_NewExceptionWithDoc(qual.c_str(), doc, base, nullptr);
    if (!cls) throw py::error_already_set();
    m.add_object(name, py::reinterpret_borrow<py::object>(cls));
    return cls;
}

}  // namespace

void bind_errors(py::module_& m) {
    g_measure_error = make(m, "MeasureError", PyExc_RuntimeError,
                           "Base of every error the measurement core raises on purpose.");
    g_spawn_error = make(m, "SpawnError", g_measure_error,
                         "A process could not be started (command not found, bad cwd).");
    g_isolation_error = make(m, "IsolationError", g_measure_error,
                             "An isolation request (account, rlimit, CPUs) could not be honoured.");
    g_side_error = make(m, "SideError", g_measure_error,
                        "A side failed while being measured; `.side` names which.");
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const fm::SideError& e) {
            // Carry which side failed as an attribute, so callers need not parse text.
            py::object exc = py::reinterpret_steal<py::object>(
                PyObject_CallFunction(g_side_error, "s", e.what()));
            if (!exc) throw py::error_already_set();
            exc.attr("side") = e.side();
            PyErr_SetObject(g_side_error, exc.ptr());
        } catch (const fm::SpawnError& e) {
            PyErr_SetString(g_spawn_error, e.what());
        } catch (const fm::IsolationError& e) {
            PyErr_SetString(g_isolation_error, e.what());
        } catch (const fm::MeasureError& e) {
            PyErr_SetString(g_measure_error, e.what());
        }
    });
}
