// Compliance at run time: a PEP 578 audit hook for a side's worker process.
//
// The worker installs it before it imports any of the side's code. From then
// on every audited action of the process passes through `hook` below. Its
// policy lives here, in C++, where no Python code can reach it: a hook cannot
// be removed, and unlike a Python hook there is no closure, global or object
// a candidate could find (gc, sys.modules) and rewrite. On a violation the
// hook writes one JSON line (event, arguments, the Python stack) to a
// descriptor of its own and ends the process at once with a reserved exit
// status: nothing the candidate runs afterwards can take the verdict back.
//
// What is judged by whose code it is (a frame's file under the candidate's
// root is the candidate's code), so that libraries the task permits stay free
// to do their work:
//  * an import counts when the nearest frame outside the import machinery is
//    the candidate's (numpy importing its own parts does not);
//  * exec and compile count when the candidate calls them itself (the import
//    system compiling a module, dataclasses building methods, do not);
//  * ctypes, file writes and introspection count when the candidate started
//    them, through libraries or not, unless a module import lies in between
//    (numpy loads native code with ctypes while it is being imported).
// Creating a process and opening a socket count whoever asks: a worker never
// needs them.
#include "pybind11.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

struct Policy {
    std::string root;                       // the candidate's code lives below this path
    std::vector<std::string> allowed;       // importable module roots (task's, own, __future__)
    std::vector<std::string> hatches;       // escape hatches the task permits
    std::vector<std::string> write_roots;   // where files may be opened for writing
    std::vector<std::string> machinery;     // file prefixes of import machinery frames
    int report_fd = -1;
    int exit_code = 86;
    bool installed = false;
    bool in_hook = false;
};

Policy policy;

bool starts_with(const std::string& s, const std::string& prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

bool under(const std::string& path, const std::string& dir) {
    return path == dir || starts_with(path, dir.back() == '/' ? dir : dir + "/");
}

bool allowed_hatch(const std::string& name) {
    for (const auto& h : policy.hatches)
        if (h == name) return true;
    return false;
}

// Private runtime modules the interpreter imports on a program's behalf
// (encodings, _strptime ...) are fine; these are not: they are the doors the
// public escape hatches lead through.
const char* const kPrivateHatches[] = {"_ctypes", "_posixsubprocess", "_socket", "_thread",
                                       "_multiprocessing", "_testcapi", "_testinternalcapi",
                                       "_xxsubinterpreters", "_signal"};

bool import_allowed(const std::string& module) {
    const std::string root = module.substr(0, module.find('.'));
    for (const auto& a : policy.allowed)
        if (module == a || starts_with(module, a + ".") || root == a) return true;
    if (root.empty()) return true;
    for (const char* h : kPrivateHatches)
        if (root == h) return allowed_hatch(root.substr(1));
    return root[0] == '_' || root == "encodings";
}

struct FrameInfo {
    std::string file;
    std::string func;
    int line = 0;
};

// The stack, innermost first.
std::vector<FrameInfo> stack(size_t limit) {
    std::vector<FrameInfo> out;
    PyFrameObject* f = PyEval_GetFrame();  // borrowed
    Py_XINCREF(f);
    while (f && out.size() < limit) {
        FrameInfo fi;
        PyCodeObject* code = PyFrame_GetCode(f);  // new reference
        if (const char* s = PyUnicode_AsUTF8(code->co_filename)) fi.file = s;
        if (const char* s = PyUnicode_AsUTF8(code->co_name)) fi.func = s;
        fi.line = PyFrame_GetLineNumber(f);
        PyErr_Clear();
        Py_DECREF(code);
        out.push_back(std::move(fi));
        PyFrameObject* back = PyFrame_GetBack(f);  // new reference
        Py_DECREF(f);
        f = back;
    }
    Py_XDECREF(f);
    return out;
}

bool machinery(const std::string& file) {
    for (const auto& p : policy.machinery)
        if (starts_with(file, p)) return true;
    return false;
}

bool candidate(const FrameInfo* f) {
    return f && !policy.root.empty() && under(f->file, policy.root);
}

// The nearest frame that is not import machinery is the candidate's.
bool asked_by_candidate(const std::vector<FrameInfo>& frames) {
    for (const auto& f : frames)
        if (!machinery(f.file)) return candidate(&f);
    return false;
}

// The candidate's code is on the stack, with no module import in between.
bool started_by_candidate(const std::vector<FrameInfo>& frames) {
    for (const auto& f : frames) {
        if (candidate(&f)) return true;
        if (machinery(f.file)) return false;
    }
    return false;
}

std::string json_escape(const std::string& s) {
    std::string out;
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

[[noreturn]] void violation(const char* event, PyObject* args, const std::string& why,
                            const std::vector<FrameInfo>& frames) {
    std::string text;
    if (PyObject* r = PyObject_Repr(args)) {
        if (const char* s = PyUnicode_AsUTF8(r)) text = s;
        Py_DECREF(r);
    }
    PyErr_Clear();
    if (text.size() > 300) text = text.substr(0, 300) + "...";
    std::string line = "{\"event\": \"" + json_escape(event) + "\", \"rule\": \"" +
                       json_escape(why) + "\", \"args\": \"" + json_escape(text) +
                       "\", \"stack\": [";
    for (size_t i = 0; i < frames.size(); ++i) {
        line += std::string(i ? ", " : "") + "\"" + json_escape(frames[i].file) + ":" +
                std::to_string(frames[i].line) + " in " + json_escape(frames[i].func) + "\"";
    }
    line += "]}\n";
    if (policy.report_fd >= 0) {
        const char* p = line.data();
        size_t left = line.size();
        while (left) {
            const ssize_t n = ::write(policy.report_fd, p, left);
            if (n <= 0) break;
            p += n;
            left -= static_cast<size_t>(n);
        }
    }
    _exit(policy.exit_code);
}

const char* const kProcessEvents[] = {"os.system", "os.exec", "os.posix_spawn", "os.spawn",
                                      "os.fork", "os.forkpty", "subprocess.Popen", "pty.spawn",
                                      "os.startfile"};
const char* const kIntrospection[] = {"sys.settrace", "sys.setprofile", "gc.get_objects",
                                      "gc.get_referrers", "gc.get_referents", "code.__new__",
                                      "sys._current_frames", "os.kill", "os.killpg",
                                      "signal.pthread_kill", "sys.addaudithook"};

bool is_write(PyObject* args) {
    // open: (path, mode, flags)
    if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) < 3) return false;
    PyObject* mode = PyTuple_GET_ITEM(args, 1);
    if (mode && PyUnicode_Check(mode)) {
        const char* m = PyUnicode_AsUTF8(mode);
        if (m && std::strpbrk(m, "wax+")) return true;
    }
    PyObject* flags = PyTuple_GET_ITEM(args, 2);
    if (flags && PyLong_Check(flags)) {
        const long fl = PyLong_AsLong(flags);
        if (fl != -1 && (fl & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND))) return true;
    }
    PyErr_Clear();
    return false;
}

// The command of an os.system event (its one argument, bytes), or a string no
// permitted command can equal (a task permits exact commands, "os.system=CMD").
std::string system_command(PyObject* args) {
    PyObject* cmd = PyTuple_Check(args) && PyTuple_GET_SIZE(args) == 1
                        ? PyTuple_GET_ITEM(args, 0) : nullptr;
    if (!cmd || !PyBytes_Check(cmd)) return std::string("\0unknown", 8);
    return std::string(PyBytes_AS_STRING(cmd), static_cast<size_t>(PyBytes_GET_SIZE(cmd)));
}

int hook(const char* event, PyObject* args, void*) {
    if (policy.in_hook) return 0;
    policy.in_hook = true;
    const std::string ev(event);
    const auto frames_for = [] { return stack(24); };

    for (const char* p : kProcessEvents) {
        if (starts_with(ev, p) && !allowed_hatch("process") && !allowed_hatch("subprocess") &&
            !(ev == "os.system" && allowed_hatch("os.system=" + system_command(args))))
            violation(event, args, "process creation", frames_for());
    }
    if (starts_with(ev, "socket.") && !allowed_hatch("socket"))
        violation(event, args, "network", frames_for());

    const bool judged = ev == "import" || ev == "exec" || ev == "compile" ||
                        starts_with(ev, "ctypes.") || ev == "open";
    bool introspection = false;
    for (const char* p : kIntrospection)
        if (ev == p) introspection = true;
    if (judged || introspection) {
        const auto frames = frames_for();
        if (ev == "import") {
            PyObject* mod = PyTuple_Check(args) && PyTuple_GET_SIZE(args) > 0
                                ? PyTuple_GET_ITEM(args, 0) : nullptr;
            const char* name = mod && PyUnicode_Check(mod) ? PyUnicode_AsUTF8(mod) : nullptr;
            if (name && asked_by_candidate(frames) && !import_allowed(name))
                violation(event, args, "import of a module the task does not permit", frames);
        } else if (ev == "exec" || ev == "compile") {
            if (!frames.empty() && candidate(&frames[0]) && !allowed_hatch("exec") &&
                !allowed_hatch("eval") && !allowed_hatch("compile"))
                violation(event, args, "dynamic code", frames);
        } else if (started_by_candidate(frames)) {
            if (starts_with(ev, "ctypes.")) {
                if (!allowed_hatch("ctypes") && !allowed_hatch("native"))
                    violation(event, args, "native code through ctypes", frames);
            } else if (ev == "open") {
                if (is_write(args)) {
                    PyObject* path = PyTuple_GET_ITEM(args, 0);
                    std::string p;
                    if (path && PyUnicode_Check(path)) {
                        if (const char* c = PyUnicode_AsUTF8(path)) p = c;
                    }
                    PyErr_Clear();
                    bool ok = !p.empty() && p[0] != '/';  // relative: below the side's own dir
                    for (const auto& w : policy.write_roots)
                        if (!p.empty() && p[0] == '/' && under(p, w)) ok = true;
                    if (!ok) violation(event, args, "writing outside the side's directories", frames);
                }
            } else if (!allowed_hatch(ev)) {
                violation(event, args, "introspection of the evaluator or the interpreter", frames);
            }
        }
    }
    policy.in_hook = false;
    return 0;
}

}  // namespace

void bind_audit(py::module_& m) {
    m.def(
        "install_audit_hook",
        [](const std::string& root, const std::vector<std::string>& allowed,
           const std::vector<std::string>& hatches, const std::vector<std::string>& write_roots,
           const std::vector<std::string>& machinery_prefixes, int report_fd, int exit_code) {
            if (policy.installed) throw std::runtime_error("the audit hook is already installed");
            policy.root = root;
            policy.allowed = allowed;
            policy.hatches = hatches;
            policy.write_roots = write_roots;
            policy.machinery = machinery_prefixes;
            // A descriptor of the hook's own: code that closes or redirects
            // stderr does not silence the report. (Any free number: a side's
            // RLIMIT_NOFILE may be low.)
            policy.report_fd = report_fd >= 0 ? fcntl(report_fd, F_DUPFD_CLOEXEC, 3) : -1;
            if (report_fd >= 0 && policy.report_fd < 0)
                throw std::runtime_error("the audit hook's report descriptor: " +
                                         std::string(std::strerror(errno)));
            policy.exit_code = exit_code;
            if (PySys_AddAuditHook(hook, nullptr) != 0) throw py::error_already_set();
            policy.installed = true;
        },
        py::arg("root"), py::arg("allowed"), py::arg("hatches"), py::arg("write_roots"),
        py::arg("machinery"), py::arg("report_fd"), py::arg("exit_code"),
        "Install the side's run-time compliance policy (once; it cannot be removed).");
}
