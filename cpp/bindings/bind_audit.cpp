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
// What is judged by whose code it is, so that libraries the task permits stay
// free to do their work:
//  * an import counts when it is the candidate's (see `attribute_import`): the
//    nearest frame outside the import machinery is the candidate's, or is a
//    library's that imports a name it was given (importlib.resources.files,
//    pkgutil.resolve_name, pickle's find_class) on the candidate's behalf.
//    A library importing what its own code names (an `import` statement of
//    its, or a part of its own package: numpy importing its parts, the
//    standard library's importlib.resources importing tempfile) is the
//    library's import: permitted, unless the task says library_imports =
//    "listed" (then the module must be permitted too);
//  * exec and compile count when the candidate calls them itself (the import
//    system compiling a module, dataclasses building methods, do not);
//  * ctypes and introspection count when the candidate started them, through
//    libraries or not, unless a module import lies in between (numpy loads
//    native code with ctypes while it is being imported);
//  * a file opened for writing counts when the candidate's code is anywhere
//    on the stack, and is judged by where it lands (links and `..` resolved).
// Creating a process and opening a socket count whoever asks: a worker never
// needs them.
//
// Whose code a frame runs is decided by provenance, never by the spelling of
// its file name (`//work/side/x`, `/tmp/link/x`, a name given to compile(),
// a code object's co_filename rewritten by _imp._fix_co_filename or
// code.replace are all the candidate's to choose). A frame is the evaluator's
// or a library's only when its code object
//  * already existed when the hook was installed, before any of the
//    candidate's code ran (every function, generator and frame the
//    interpreter held then: the evaluator, the standard library it had
//    loaded, the boot script), or
//  * is equal, bytecode, constants and names, to code compiled from a real
//    file below a library root (the standard library, the evaluator's
//    site-packages and package, each resolved), outside the candidate's root
//    and the side's writable directories, or to a frozen module's code. Its
//    file name only says which file to compare it with; the comparison is with
//    that file's cached bytecode or, failing that, its source compiled here.
// Everything else is the candidate's: its files in any spelling, anything it
// loads from a file of another kind, strings it compiles or executes, code
// built from marshal data or by hand, and code the evaluator generates after
// the candidate started (dataclass methods, the worker's compiled timed
// operations), which only ever runs on the candidate's behalf.
//
// The worker also seals its own code and state here (`seal_evaluator`) once
// the hook is in place, and checks it (`verify_sealed`) between requests:
// code the candidate runs can reach the worker's objects through frames even
// once they are out of sys.modules, and a patch it leaves behind ends the
// worker the same way a violation does.
#include "pybind11.hpp"

#include <marshal.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace {

enum class Origin { Candidate, Library, Machinery };

struct Policy {
    std::vector<std::string> allowed;       // importable module roots (task's, own, __future__)
    std::vector<std::string> hatches;       // escape hatches the task permits
    std::vector<std::string> write_roots;   // where files may be opened for writing (resolved)
    std::vector<std::string> machinery;     // file prefixes of import machinery code
    std::vector<std::string> libraries;     // resolved roots of library code
    std::vector<std::string> stdlib;        // resolved roots of the standard library (for reports)
    std::string candidate_root;             // resolved: nothing below it is library code
    std::string pyc_suffix;                 // ".cpython-311.pyc" (".opt-1" before .pyc under -O)
    PyObject* frozen_code = nullptr;        // _imp.get_frozen_object, as it was at install
    int report_fd = -1;
    int exit_code = 86;
    // A violation ends the process (a candidate), or is reported and the
    // run goes on (an author's audit of the reference: every violation, each
    // with its stack, and what libraries imported for themselves).
    bool fatal = true;
    bool libraries_listed = false;          // library_imports = "listed"
    int import_name_op = -1;                // opcode.opmap["IMPORT_NAME"]
    int extended_arg_op = -1;               // opcode.EXTENDED_ARG
    bool installed = false;
    bool in_hook = false;
};

// Modules whose import event was judged (their body's exec then is not).
std::unordered_set<std::string> judged_imports;

// What a report-only hook has written: each distinct report once, so many.
std::unordered_set<std::string> reported;
constexpr size_t kMaxReports = 200;

Policy policy;

bool starts_with(const std::string& s, const std::string& prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

bool under(const std::string& path, const std::string& dir) {
    if (dir.empty()) return false;
    if (dir == "/") return !path.empty() && path[0] == '/';
    return path == dir || starts_with(path, dir.back() == '/' ? dir : dir + "/");
}

std::string utf8(PyObject* s) {
    std::string out;
    if (s && PyUnicode_Check(s)) {
        Py_ssize_t n = 0;
        if (const char* c = PyUnicode_AsUTF8AndSize(s, &n)) out.assign(c, static_cast<size_t>(n));
    }
    PyErr_Clear();
    return out;
}

// The canonical path of an existing file or directory, or "".
std::string real_path(const std::string& p) {
    if (p.empty()) return {};
    char* r = ::realpath(p.c_str(), nullptr);
    if (!r) return {};
    std::string out(r);
    std::free(r);
    return out;
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

// ------------------------------------------------------------------ provenance

// Code objects whose origin is settled, each holding a reference (a freed
// object's address may be reused by a new one of another origin).
std::unordered_map<PyObject*, Origin> known;
size_t known_candidate = 0;
constexpr size_t kMaxCandidateEntries = 1 << 16;  // beyond: judged again each time

// Genuine code of a library file (by resolved path) or a frozen module (by
// "<frozen NAME>"): every code object compiled from it, nested ones included.
struct Genuine {
    std::vector<PyObject*> codes;  // owned references
    bool compiled = false;         // the source was compiled too (the cache did not match)
};
std::unordered_map<std::string, Genuine> genuine;

PyCodeObject* as_code(PyObject* o) {
    return o && PyCode_Check(o) ? reinterpret_cast<PyCodeObject*>(o) : nullptr;
}

void collect(PyObject* obj, std::vector<PyObject*>& out, int depth = 0) {
    PyCodeObject* code = as_code(obj);
    if (!code || depth > 200) return;
    Py_INCREF(obj);
    out.push_back(obj);
    PyObject* consts = code->co_consts;
    if (consts && PyTuple_Check(consts))
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(consts); ++i)
            collect(PyTuple_GET_ITEM(consts, i), out, depth + 1);
}

bool machinery_file(const std::string& file) {
    for (const auto& p : policy.machinery)
        if (starts_with(file, p)) return true;
    return false;
}

void remember(PyObject* code, Origin origin) {
    if (known.count(code)) return;
    if (origin == Origin::Candidate) {
        if (known_candidate >= kMaxCandidateEntries) return;
        ++known_candidate;
    }
    Py_INCREF(code);
    known.emplace(code, origin);
}

// Code that existed before the candidate's: the evaluator's, with its nested code.
void trust(PyObject* code) {
    std::vector<PyObject*> all;
    collect(code, all);
    for (PyObject* c : all) {
        const std::string file = utf8(as_code(c)->co_filename);
        remember(c, machinery_file(file) ? Origin::Machinery : Origin::Library);
        Py_DECREF(c);
    }
}

// Every code object the interpreter can run at this moment: what functions,
// generators and coroutines hold, and what the frames being executed run.
void record_loaded() {
    PyFrameObject* f = PyEval_GetFrame();  // borrowed
    Py_XINCREF(f);
    while (f) {
        PyCodeObject* code = PyFrame_GetCode(f);
        trust(reinterpret_cast<PyObject*>(code));
        Py_DECREF(code);
        PyFrameObject* back = PyFrame_GetBack(f);  // new reference
        Py_DECREF(f);
        f = back;
    }
    PyObject* gc = PyImport_ImportModule("gc");
    PyObject* objects = gc ? PyObject_CallMethod(gc, "get_objects", nullptr) : nullptr;
    Py_XDECREF(gc);
    if (!objects || !PyList_Check(objects)) {
        Py_XDECREF(objects);
        throw std::runtime_error("the audit hook could not list the interpreter's objects");
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(objects); ++i) {
        PyObject* o = PyList_GET_ITEM(objects, i);
        if (PyFunction_Check(o)) {
            trust(PyFunction_GET_CODE(o));
        } else if (PyFrame_Check(o)) {
            PyCodeObject* code = PyFrame_GetCode(reinterpret_cast<PyFrameObject*>(o));
            trust(reinterpret_cast<PyObject*>(code));
            Py_DECREF(code);
        } else if (PyGen_Check(o) || PyCoro_CheckExact(o) || PyAsyncGen_CheckExact(o)) {
            for (const char* attr : {"gi_code", "cr_code", "ag_code"}) {
                if (PyObject* code = PyObject_GetAttrString(o, attr)) {
                    trust(code);
                    Py_DECREF(code);
                    break;
                }
                PyErr_Clear();
            }
        }
    }
    Py_DECREF(objects);
}

bool read_file(const std::string& path, std::string& out) {
    constexpr size_t kCap = size_t{64} << 20;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return false;
    struct stat st {};
    bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
              static_cast<size_t>(st.st_size) <= kCap;
    out.clear();
    char buf[1 << 16];
    while (ok) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ok = n == 0;
            break;
        }
        out.append(buf, static_cast<size_t>(n));
        if (out.size() > kCap) ok = false;
    }
    ::close(fd);
    return ok;
}

// The byte-compiled cache the import system would read for `file`.
std::string cache_path(const std::string& file) {
    const size_t slash = file.rfind('/');
    const std::string dir = file.substr(0, slash), name = file.substr(slash + 1);
    const size_t dot = name.rfind('.');
    if (dot == std::string::npos || dot == 0 || policy.pyc_suffix.empty()) return {};
    return dir + "/__pycache__/" + name.substr(0, dot) + policy.pyc_suffix;
}

// Whether a resolved path is a library's file: a regular file below a
// library root, not in the candidate's tree, and not in a directory the side
// may write to (unless the library root itself lives there: a staged copy of
// the evaluator's packages under /tmp is still not the side's to change).
bool library_file(const std::string& real) {
    struct stat st {};
    if (real.empty() || ::stat(real.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
    if (under(real, policy.candidate_root)) return false;
    const std::string* root = nullptr;
    for (const auto& r : policy.libraries)
        if (under(real, r) && (!root || r.size() > root->size())) root = &r;
    if (!root) return false;
    for (const auto& w : policy.write_roots)
        if (under(real, w) && !under(*root, w)) return false;
    return true;
}

bool same_code(PyObject* genuine_code, PyCodeObject* code) {
    if (genuine_code == reinterpret_cast<PyObject*>(code)) return true;
    PyCodeObject* g = as_code(genuine_code);
    if (g->co_firstlineno != code->co_firstlineno) return false;
    if (utf8(g->co_name) != utf8(code->co_name)) return false;
    // code_richcompare compares instructions (de-specialised), constants by
    // type and value, names, line and exception tables: never the file name,
    // and never by calling Python code (unknown constants compare by identity).
    const int eq = PyObject_RichCompareBool(genuine_code, reinterpret_cast<PyObject*>(code), Py_EQ);
    PyErr_Clear();
    return eq == 1;
}

bool any_same(const std::vector<PyObject*>& codes, size_t from, PyCodeObject* code) {
    for (size_t i = from; i < codes.size(); ++i)
        if (same_code(codes[i], code)) return true;
    return false;
}

PyObject* compile_source(const std::string& real) {
    std::string src;
    if (!read_file(real, src) || src.find('\0') != std::string::npos) return nullptr;
    PyCompilerFlags flags;
    flags.cf_flags = 0;
    flags.cf_feature_version = PY_MINOR_VERSION;
    PyObject* code = Py_CompileStringExFlags(src.c_str(), real.c_str(), Py_file_input, &flags, -1);
    PyErr_Clear();
    return code;
}

// Whether `code` is genuinely code of the library file `real`.
bool genuine_file_code(const std::string& real, PyCodeObject* code) {
    auto [it, fresh] = genuine.try_emplace(real);
    Genuine& g = it->second;
    if (fresh) {
        std::string data;
        const std::string pyc = cache_path(real);
        if (!pyc.empty() && read_file(pyc, data) && data.size() > 16) {
            PyObject* top = PyMarshal_ReadObjectFromString(data.data() + 16,
                                                           static_cast<Py_ssize_t>(data.size() - 16));
            PyErr_Clear();
            collect(top, g.codes);
            Py_XDECREF(top);
        }
    }
    if (any_same(g.codes, 0, code)) return true;
    if (g.compiled) return false;
    g.compiled = true;  // the cache is stale or missing: the import system compiled the source
    const size_t from = g.codes.size();
    PyObject* top = compile_source(real);
    collect(top, g.codes);
    Py_XDECREF(top);
    return any_same(g.codes, from, code);
}

bool genuine_frozen_code(const std::string& file, PyCodeObject* code) {
    auto [it, fresh] = genuine.try_emplace(file);
    if (fresh && policy.frozen_code) {
        const std::string name = file.substr(8, file.size() - 9);  // "<frozen NAME>"
        PyObject* top = PyObject_CallFunction(policy.frozen_code, "s", name.c_str());
        PyErr_Clear();
        collect(top, it->second.codes);
        Py_XDECREF(top);
    }
    return any_same(it->second.codes, 0, code);
}

Origin judge(PyCodeObject* code) {
    const std::string file = utf8(code->co_filename);
    if (file.empty()) return Origin::Candidate;
    if (starts_with(file, "<frozen ") && file.back() == '>') {
        if (!genuine_frozen_code(file, code)) return Origin::Candidate;
        return machinery_file(file) ? Origin::Machinery : Origin::Library;
    }
    if (file[0] != '/') return Origin::Candidate;  // "<string>", "<stdin>", relative names
    const std::string real = real_path(file);
    if (!library_file(real) || !genuine_file_code(real, code)) return Origin::Candidate;
    return machinery_file(file) || machinery_file(real) ? Origin::Machinery : Origin::Library;
}

Origin origin_of(PyCodeObject* code) {
    PyObject* key = reinterpret_cast<PyObject*>(code);
    const auto it = known.find(key);
    if (it != known.end()) return it->second;
    const Origin o = judge(code);
    remember(key, o);
    return o;
}

// ---------------------------------------------------------------- the stack

// A frame of the stack as the hook found it. Frames on the stack stay alive
// while the hook runs, and so do their code objects: both are borrowed.
struct FrameInfo {
    PyFrameObject* frame = nullptr;
    PyCodeObject* code = nullptr;
    mutable int origin = -1;

    Origin where() const {
        if (origin < 0) origin = static_cast<int>(code ? origin_of(code) : Origin::Candidate);
        return static_cast<Origin>(origin);
    }
    std::string describe() const {
        const int line = PyFrame_GetLineNumber(frame);
        PyErr_Clear();
        return utf8(code->co_filename) + ":" + std::to_string(line) + " in " +
               utf8(code->co_name);
    }
};

// The stack, innermost first.
std::vector<FrameInfo> stack(size_t limit) {
    std::vector<FrameInfo> out;
    for (PyFrameObject* f = PyEval_GetFrame(); f && out.size() < limit;) {
        PyCodeObject* code = PyFrame_GetCode(f);  // new reference; its frame holds another
        Py_DECREF(code);
        out.push_back(FrameInfo{f, code});
        PyFrameObject* back = PyFrame_GetBack(f);  // new reference; the caller holds another
        Py_XDECREF(back);
        f = back;
    }
    return out;
}

constexpr size_t kStackLimit = 1 << 14;  // frames looked at to decide (more than any recursion
                                         // limit a worker runs with)
constexpr size_t kReportFrames = 24;  // frames named in a report


// The candidate's code is on the stack, with no module import in between.
bool started_by_candidate(const std::vector<FrameInfo>& frames) {
    for (const auto& f : frames) {
        if (f.where() == Origin::Candidate) return true;
        if (f.where() == Origin::Machinery) return false;
    }
    return false;
}

// The candidate's code is anywhere on the stack (a stack too deep to look
// through counts as the candidate's).
bool candidate_on_stack(const std::vector<FrameInfo>& frames) {
    for (const auto& f : frames)
        if (f.where() == Origin::Candidate) return true;
    return frames.size() >= kStackLimit;
}

// ------------------------------------------------------------ whose import

// The name an `import` statement of a frame imports, when the frame is
// executing one now (IMPORT_NAME: the name is a constant of its code, which
// no caller chooses), else "". The frame's code is genuine library code here,
// so its names are the library's; a relative import's name is resolved
// against the frame's globals, which whoever runs the code may choose, so it
// is never taken on its name (see own_package).
std::string import_statement_name(const FrameInfo& f) {
    if (policy.import_name_op < 0) return {};
    const int lasti = PyFrame_GetLasti(f.frame);
    if (lasti < 0) return {};
    PyObject* bytes = PyCode_GetCode(f.code);  // new reference, de-specialised
    std::string name;
    if (bytes && PyBytes_Check(bytes)) {
        const auto* c = reinterpret_cast<const unsigned char*>(PyBytes_AS_STRING(bytes));
        const Py_ssize_t n = PyBytes_GET_SIZE(bytes);
        if (lasti + 1 < n && c[lasti] == policy.import_name_op) {
            size_t arg = c[lasti + 1];
            int shift = 8;
            for (int k = lasti - 2; k >= 0 && c[k] == policy.extended_arg_op && shift < 32;
                 k -= 2, shift += 8)
                arg |= static_cast<size_t>(c[k + 1]) << shift;
            PyObject* names = f.code->co_names;
            if (names && PyTuple_Check(names) &&
                arg < static_cast<size_t>(PyTuple_GET_SIZE(names)))
                name = utf8(PyTuple_GET_ITEM(names, static_cast<Py_ssize_t>(arg)));
        }
    }
    Py_XDECREF(bytes);
    PyErr_Clear();
    return name;
}

// The library root a resolved file lies below (the longest), or null.
const std::string* library_root(const std::string& real) {
    const std::string* root = nullptr;
    for (const auto& r : policy.libraries)
        if (under(real, r) && (!root || r.size() > root->size())) root = &r;
    return root;
}

// The top-level package (or module) a library frame's file belongs to, by
// where the file lies below its library root: "json" for .../json/decoder.py,
// "tempfile" for .../tempfile.py ("" when unknown).
std::string package_of(const FrameInfo& f) {
    const std::string real = real_path(utf8(f.code->co_filename));
    const std::string* root = library_root(real);
    if (!root || real.size() <= root->size() + 1) return {};
    struct stat st {};
    if (::stat((*root + "/__init__.py").c_str(), &st) == 0) {
        // A package directory given as a root of its own (the evaluator's).
        return root->substr(root->rfind('/') + 1);
    }
    std::string rest = real.substr(*root == "/" ? 1 : root->size() + 1);
    rest = rest.substr(0, rest.find('/'));
    return rest.substr(0, rest.find('.'));
}

bool same_or_below(const std::string& name, const std::string& other) {
    return name == other || starts_with(name, other + ".");
}

// Whether a library frame imports `name` for itself: an import statement of
// its own code naming it (or a package above it, or a module below it: the
// parents of `import a.b.c`, the submodules of `from a import b`), or a part
// of the frame's own package, by whatever name (encodings finding a codec,
// a library's lazy submodules).
bool imports_for_itself(const FrameInfo& f, const std::string& name) {
    const std::string stated = import_statement_name(f);
    if (!stated.empty() && (same_or_below(stated, name) || same_or_below(name, stated)))
        return true;
    const std::string package = package_of(f);
    return !package.empty() && same_or_below(name, package);
}

enum class Importer { Candidate, Library, Evaluator };

struct Attribution {
    Importer who = Importer::Evaluator;
    const FrameInfo* frame = nullptr;  // the library frame an import is attributed to
};

// Whose import an import is.
//  * The nearest frame outside the import machinery is the candidate's: the
//    candidate's.
//  * It is a library's, importing for itself (imports_for_itself): the
//    library's (whoever called it: zoneinfo reading its data imports
//    importlib.resources, whatever the name of the zone).
//  * It is a library's importing a name it was given, called by the
//    candidate (the candidate's code comes before any module import on the
//    way out): the candidate's, laundered or not. The same call made while a
//    library module is being imported (a module import lies in between) is
//    the library's.
// A stack too deep to look through is the candidate's.
Attribution attribute_import(const std::vector<FrameInfo>& frames, const std::string& name) {
    size_t i = 0;
    while (i < frames.size() && frames[i].where() == Origin::Machinery) ++i;
    if (i == frames.size())
        return {frames.size() >= kStackLimit ? Importer::Candidate : Importer::Evaluator, nullptr};
    const FrameInfo& f = frames[i];
    if (f.where() == Origin::Candidate) return {Importer::Candidate, &f};
    if (imports_for_itself(f, name)) return {Importer::Library, &f};
    for (size_t j = i + 1; j < frames.size(); ++j) {
        if (frames[j].where() == Origin::Candidate) return {Importer::Candidate, &frames[j]};
        if (frames[j].where() == Origin::Machinery) return {Importer::Library, &f};
    }
    return {frames.size() >= kStackLimit ? Importer::Candidate : Importer::Library, &f};
}

// "the standard library (importlib/resources/_common.py)" or "the library
// 'numpy' (.../numpy/core/__init__.py)": whom an import was attributed to.
std::string describe_library(const FrameInfo& f) {
    const std::string file = utf8(f.code->co_filename);
    const std::string real = real_path(file);
    for (const auto& r : policy.stdlib)
        if (under(real, r)) {
            const std::string rel = real.size() > r.size() ? real.substr(r.size() + 1) : real;
            return "the standard library (" + rel + ")";
        }
    if (starts_with(file, "<frozen ")) return "the standard library (" + file + ")";
    const std::string package = package_of(f);
    return "the library '" + (package.empty() ? std::string("?") : package) + "' (" + file + ")";
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

const char* origin_name(Origin o) {
    return o == Origin::Candidate ? "candidate" : o == Origin::Library ? "library" : "machinery";
}

// Writes a report line: a violation (which ends the process unless the hook
// only reports), or, from a hook that only reports, a notice of what a
// library imported for itself. A report-only hook writes each distinct line
// once, and at most kMaxReports of them.
void report(const std::string& event, std::string text, const std::string& why,
            const std::vector<FrameInfo>& frames, bool notice = false, bool end = false) {
    if (text.size() > 300) text = text.substr(0, 300) + "...";
    std::string line = "{\"event\": \"" + json_escape(event) + "\", \"rule\": \"" +
                       json_escape(why) + "\", \"args\": \"" + json_escape(text) +
                       "\", \"stack\": [";
    std::string whose;
    for (size_t i = 0; i < frames.size() && i < kReportFrames; ++i) {
        line += std::string(i ? ", " : "") + "\"" + json_escape(frames[i].describe()) + "\"";
        whose += std::string(i ? ", " : "") + "\"" + origin_name(frames[i].where()) + "\"";
    }
    line += "], \"whose\": [" + whose + "]";
    if (notice) line += ", \"notice\": true";
    line += "}\n";
    const bool ends = end || (policy.fatal && !notice);
    if (!ends) {
        if (reported.size() >= kMaxReports || !reported.insert(line).second) return;
    }
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
    if (ends) _exit(policy.exit_code);
}

std::string args_text(PyObject* args) {
    std::string text;
    if (PyObject* r = PyObject_Repr(args)) {
        text = utf8(r);
        Py_DECREF(r);
    }
    PyErr_Clear();
    return text;
}

// A violation: the end of the process, or (a hook that only reports) a report.
void violation(const char* event, PyObject* args, const std::string& why,
               const std::vector<FrameInfo>& frames) {
    report(event, args_text(args), why, frames);
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

// Where a file opened for writing really is: the deepest directory of its
// path that exists, resolved (links, `..`, `//`), with the rest appended. A
// rest that climbs (`..` below a missing directory) resolves to nothing.
std::string write_target(const std::string& p, const std::string& dir = {}) {
    if (p.empty()) return {};
    std::string abs = p;
    if (p[0] != '/') {
        char cwd[PATH_MAX];
        if (dir.empty() && !::getcwd(cwd, sizeof cwd)) return {};
        abs = (dir.empty() ? std::string(cwd) : dir) + "/" + p;
    }
    std::string head = abs, tail;
    while (!head.empty()) {
        const std::string r = real_path(head);
        if (!r.empty()) return r == "/" ? tail : r + tail;
        const size_t slash = head.rfind('/');
        if (slash == std::string::npos) return {};
        const std::string part = head.substr(slash + 1);
        if (part == "..") return {};
        if (!part.empty() && part != ".") tail = "/" + part + tail;
        head = slash == 0 ? std::string("/") : head.substr(0, slash);
    }
    return {};
}

// The directory a *_dir_fd argument names (relative paths are relative to
// it), or "" for the working directory.
std::string dir_of_fd(PyObject* fd) {
    if (!fd || !PyLong_Check(fd)) return {};
    const long n = PyLong_AsLong(fd);
    PyErr_Clear();
    if (n < 0) return {};
    char buf[PATH_MAX];
    const std::string link = "/proc/self/fd/" + std::to_string(n);
    const ssize_t len = ::readlink(link.c_str(), buf, sizeof buf - 1);
    return len > 0 ? std::string(buf, static_cast<size_t>(len)) : std::string("/nonexistent-fd");
}

// A path argument as text: a str, or bytes decoded as the file system does;
// anything else (a path-like object: turning it into text would run its
// Python code inside the hook) is "".
std::string fs_path(PyObject* p) {
    if (p && PyBytes_Check(p)) {
        std::string out;
        if (PyObject* s = PyUnicode_DecodeFSDefaultAndSize(PyBytes_AS_STRING(p),
                                                           PyBytes_GET_SIZE(p))) {
            out = utf8(s);
            Py_DECREF(s);
        }
        PyErr_Clear();
        return out;
    }
    return utf8(p);
}

// The places an event changes the file system at (files opened for writing,
// renamed, linked, made, removed, truncated, their modes or owners changed),
// each as (path, the directory a relative path is relative to). A path given
// as a descriptor was judged when it was opened. A file opened for writing by
// a path-like object resolves to nothing (which no directory of the side's
// holds), as it always has; the other events judge str and bytes paths only,
// so that pathlib's mkdir and unlink in the side's own directories still
// work. (os.open with dir_fd reports no dir_fd: a relative path is taken as
// relative to the working directory, and only the file system's permissions
// stand behind it.)
std::vector<std::pair<std::string, std::string>> changed_paths(const std::string& ev,
                                                               PyObject* args) {
    std::vector<std::pair<std::string, std::string>> out;
    if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) < 1) return out;
    const Py_ssize_t n = PyTuple_GET_SIZE(args);
    const auto arg = [&](Py_ssize_t i) { return i >= 0 && i < n ? PyTuple_GET_ITEM(args, i) : nullptr; };
    const auto add = [&](Py_ssize_t path, Py_ssize_t dir_fd) {
        PyObject* p = arg(path);
        if (p && (PyUnicode_Check(p) || PyBytes_Check(p)))
            out.emplace_back(fs_path(p), dir_of_fd(arg(dir_fd)));
    };
    if (ev == "open") {
        PyObject* p = arg(0);
        if (is_write(args) && p && !PyLong_Check(p)) out.emplace_back(fs_path(p), std::string());
    } else if (ev == "os.rename") {  // (src, dst, src_dir_fd, dst_dir_fd); os.replace too
        add(0, 2);
        add(1, 3);
    } else if (ev == "os.link") {
        add(1, 3);
    } else if (ev == "os.symlink") {  // (src, dst, dir_fd)
        add(1, 2);
    } else if (ev == "os.mkdir" || ev == "os.remove" || ev == "os.rmdir" || ev == "os.mkfifo") {
        add(0, n - 1);  // (path, [mode,] dir_fd)
    } else if (ev == "os.chmod" || ev == "os.chown" || ev == "os.mknod") {
        add(0, n - 1);
    } else if (ev == "os.truncate") {
        add(0, -1);
    }
    return out;
}

// The command of an os.system event (its one argument, bytes), or a string no
// permitted command can equal (a task permits exact commands, "os.system=CMD").
std::string system_command(PyObject* args) {
    PyObject* cmd = PyTuple_Check(args) && PyTuple_GET_SIZE(args) == 1
                        ? PyTuple_GET_ITEM(args, 0) : nullptr;
    if (!cmd || !PyBytes_Check(cmd)) return std::string("\0unknown", 8);
    return std::string(PyBytes_AS_STRING(cmd), static_cast<size_t>(PyBytes_GET_SIZE(cmd)));
}

// The dotted name of the module a library file is (by where it lies below
// its library root), or "" (not a library's file, or the evaluator's).
std::string module_name_of(PyCodeObject* code) {
    const std::string real = real_path(utf8(code->co_filename));
    if (!library_file(real)) return {};
    const std::string* root = library_root(real);
    struct stat st {};
    if (!root || *root == "/" || ::stat((*root + "/__init__.py").c_str(), &st) == 0) return {};
    std::string rel = real.substr(root->size() + 1);
    if (rel.size() < 4 || rel.compare(rel.size() - 3, 3, ".py") != 0) return {};
    rel.resize(rel.size() - 3);
    if (rel == "__init__") return {};
    if (rel.size() > 9 && rel.compare(rel.size() - 9, 9, "/__init__") == 0) rel.resize(rel.size() - 9);
    for (auto& c : rel)
        if (c == '/') c = '.';
    return rel;
}

// The import system running a library module's body (exec from the import
// machinery): an import of that module. importlib.import_module raises no
// "import" event for the module it imports (the interpreter raises it on the
// __import__ path only), so a name handed to it is judged here, by the
// module's file, as the import event would have judged it.
void judge_module_body(PyObject* args, const std::vector<FrameInfo>& frames) {
    if (frames.empty() || frames[0].where() != Origin::Machinery) return;
    PyObject* code = PyTuple_Check(args) && PyTuple_GET_SIZE(args) > 0
                         ? PyTuple_GET_ITEM(args, 0) : nullptr;
    if (!as_code(code)) return;
    const std::string name = module_name_of(as_code(code));
    if (name.empty() || import_allowed(name) || judged_imports.count(name)) return;
    const Attribution a = attribute_import(frames, name);
    if (a.who == Importer::Candidate) {
        report("import", name, "import of a module the task does not permit", frames);
    } else if (a.who == Importer::Library && a.frame && policy.libraries_listed) {
        report("import", name, "import of a module the task does not permit, imported by " +
               describe_library(*a.frame) + " (library_imports = \"listed\")", frames);
    }
}

int hook(const char* event, PyObject* args, void*) {
    if (policy.in_hook) return 0;
    policy.in_hook = true;
    const std::string ev(event);
    const auto frames_for = [] { return stack(kStackLimit); };

    for (const char* p : kProcessEvents) {
        if (starts_with(ev, p) && !allowed_hatch("process") && !allowed_hatch("subprocess") &&
            !(ev == "os.system" && allowed_hatch("os.system=" + system_command(args))))
            violation(event, args, "process creation", frames_for());
    }
    if (starts_with(ev, "socket.") && !allowed_hatch("socket"))
        violation(event, args, "network", frames_for());

    const auto changed = changed_paths(ev, args);
    const bool judged = ev == "import" || ev == "exec" || ev == "compile" ||
                        starts_with(ev, "ctypes.") || !changed.empty();
    bool introspection = false;
    for (const char* p : kIntrospection)
        if (ev == p) introspection = true;
    if (judged || introspection) {
        const auto frames = frames_for();
        if (ev == "import") {
            PyObject* mod = PyTuple_Check(args) && PyTuple_GET_SIZE(args) > 0
                                ? PyTuple_GET_ITEM(args, 0) : nullptr;
            const std::string name = utf8(mod);
            if (!name.empty() && !import_allowed(name)) {
                judged_imports.insert(name);  // its module body's exec is not judged again
                const Attribution a = attribute_import(frames, name);
                if (a.who == Importer::Candidate) {
                    violation(event, args, "import of a module the task does not permit", frames);
                } else if (a.who == Importer::Library && a.frame) {
                    const std::string by = "imported by " + describe_library(*a.frame);
                    if (policy.libraries_listed)
                        violation(event, args, "import of a module the task does not permit, " +
                                  by + " (library_imports = \"listed\")", frames);
                    else if (!policy.fatal)
                        report(event, name, by + ": permitted (library_imports = \"any\")",
                               frames, true);
                }
            }
        } else if (ev == "exec" || ev == "compile") {
            if (!frames.empty() && frames[0].where() == Origin::Candidate &&
                !allowed_hatch("exec") && !allowed_hatch("eval") && !allowed_hatch("compile"))
                violation(event, args, "dynamic code", frames);
            else if (ev == "exec")
                judge_module_body(args, frames);
        } else if (!changed.empty()) {
            // Whoever writes, the import machinery included: a loader the
            // candidate drives (its own get_data, a library file's path)
            // writes a byte-code cache where that path says. (And what is
            // below a library root stays as the evaluator found it: only
            // then is code equal to a file there the library's.)
            if (candidate_on_stack(frames)) {
                for (const auto& [path, dir] : changed) {
                    const std::string target = write_target(path, dir);
                    bool ok = false;
                    for (const auto& w : policy.write_roots)
                        if (!target.empty() && under(target, w)) ok = true;
                    if (!ok)
                        violation(event, args, "writing outside the side's directories", frames);
                }
            }
        } else if (started_by_candidate(frames)) {
            if (starts_with(ev, "ctypes.")) {
                if (!allowed_hatch("ctypes") && !allowed_hatch("native"))
                    violation(event, args, "native code through ctypes", frames);
            } else if (!allowed_hatch(ev)) {
                violation(event, args, "introspection of the evaluator or the interpreter", frames);
            }
        }
    }
    policy.in_hook = false;
    return 0;
}

std::vector<std::string> resolved_all(const std::vector<std::string>& paths) {
    std::vector<std::string> out;
    for (const auto& p : paths) {
        const std::string r = real_path(p);
        if (!r.empty()) out.push_back(r);
    }
    return out;
}

// --------------------------------------------------------- the worker's seal
//
// What the evaluator's worker runs on, as it was before the candidate's code
// ran: namespaces (modules, classes, plain dicts) key by key, functions' code,
// defaults and closures, single names in other modules, and the worker
// object's class and attribute names. Compared by identity only, so checking
// runs none of the candidate's code.

struct SealedNamespace {
    std::string label;
    PyObject* owner = nullptr;  // the module, class or dict (owned)
    PyObject* dict = nullptr;   // its namespace (owned)
    PyObject* mro = nullptr;    // a class's (owned), else null
    PyObject* bases = nullptr;
    std::unordered_map<std::string, PyObject*> items;  // values owned
};
struct SealedFunction {
    std::string label;
    PyObject* fn = nullptr;
    std::vector<PyObject*> parts;  // code, defaults, kwdefaults, closure, cell contents (owned)
};
struct SealedName {
    std::string label;
    PyObject* dict = nullptr;   // owned
    std::string key;
    PyObject* value = nullptr;  // owned; null when absent
};
struct SealedObject {
    std::string label;
    PyObject* obj = nullptr;    // owned
    PyTypeObject* type = nullptr;
    std::vector<std::string> attributes;  // the attribute names it may have
};

struct Seal {
    bool done = false;
    std::vector<SealedNamespace> namespaces;
    std::vector<SealedFunction> functions;
    std::vector<SealedName> names;
    std::vector<SealedObject> objects;
} seal;

PyObject* namespace_of(PyObject* owner, PyObject** mro, PyObject** bases) {
    *mro = *bases = nullptr;
    if (PyModule_Check(owner)) return PyModule_GetDict(owner);
    if (PyType_Check(owner)) {
        auto* t = reinterpret_cast<PyTypeObject*>(owner);
        *mro = t->tp_mro;
        *bases = t->tp_bases;
        return t->tp_dict;
    }
    if (PyDict_Check(owner)) return owner;
    return nullptr;
}

std::vector<PyObject*> function_parts(PyObject* fn) {
    std::vector<PyObject*> parts = {PyFunction_GET_CODE(fn), PyFunction_GET_DEFAULTS(fn),
                                    PyFunction_GET_KW_DEFAULTS(fn), PyFunction_GET_CLOSURE(fn)};
    PyObject* closure = PyFunction_GET_CLOSURE(fn);
    if (closure && PyTuple_Check(closure))
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(closure); ++i) {
            PyObject* cell = PyTuple_GET_ITEM(closure, i);
            parts.push_back(PyCell_Check(cell) ? PyCell_GET(cell) : nullptr);
        }
    return parts;
}

// Attributes the interpreter itself may add to a namespace later, on a read.
bool lazily_added(const std::string& key) {
    return key == "__annotations__" || key == "__slotnames__";
}

std::string seal_broken() {
    for (const auto& n : seal.namespaces) {
        PyObject* mro = nullptr;
        PyObject* bases = nullptr;
        PyObject* dict = namespace_of(n.owner, &mro, &bases);
        if (dict != n.dict || mro != n.mro || bases != n.bases) return n.label + " (replaced)";
        Py_ssize_t pos = 0, seen = 0;
        PyObject *k, *v;
        while (PyDict_Next(dict, &pos, &k, &v)) {
            if (!PyUnicode_CheckExact(k)) return n.label + " (a key that is not a string)";
            const std::string key = utf8(k);
            const auto it = n.items.find(key);
            if (it == n.items.end()) {
                if (lazily_added(key)) continue;
                return n.label + "." + key + " (added)";
            }
            if (it->second != v) return n.label + "." + key + " (replaced)";
            ++seen;
        }
        if (static_cast<size_t>(seen) != n.items.size()) return n.label + " (a name removed)";
    }
    for (const auto& f : seal.functions)
        if (function_parts(f.fn) != f.parts) return f.label + " (its code, defaults or closure)";
    for (const auto& s : seal.names) {
        PyObject* v = PyDict_GetItemString(s.dict, s.key.c_str());  // borrowed; str keys only
        PyErr_Clear();
        if (v != s.value) return s.label + " (replaced)";
    }
    for (const auto& o : seal.objects) {
        if (Py_TYPE(o.obj) != o.type) return o.label + " (its class)";
        PyObject* d = PyObject_GenericGetDict(o.obj, nullptr);
        if (!d) {
            PyErr_Clear();
            continue;
        }
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        std::string bad;
        while (bad.empty() && PyDict_Next(d, &pos, &k, &v)) {
            const std::string key = PyUnicode_CheckExact(k) ? utf8(k) : std::string("?");
            bool ok = false;
            for (const auto& a : o.attributes) ok = ok || a == key;
            if (!ok) bad = o.label + "." + key + " (added)";
        }
        Py_DECREF(d);
        if (!bad.empty()) return bad;
    }
    return {};
}

void own(PyObject* o) { Py_XINCREF(o); }

}  // namespace

void bind_audit(py::module_& m) {
    m.def(
        "install_audit_hook",
        [](const std::string& root, const std::vector<std::string>& allowed,
           const std::vector<std::string>& hatches, const std::vector<std::string>& write_roots,
           const std::vector<std::string>& machinery_prefixes,
           const std::vector<std::string>& library_roots, int report_fd, int exit_code,
           bool fatal, bool libraries_listed, const std::vector<std::string>& stdlib) {
            if (policy.installed) throw std::runtime_error("the audit hook is already installed");
            policy.fatal = fatal;
            policy.libraries_listed = libraries_listed;
            policy.stdlib = resolved_all(stdlib);
            // The opcodes of an import statement, as this interpreter numbers them.
            if (PyObject* opcode = PyImport_ImportModule("opcode")) {
                PyObject* opmap = PyObject_GetAttrString(opcode, "opmap");
                PyObject* op = opmap ? PyMapping_GetItemString(opmap, "IMPORT_NAME") : nullptr;
                PyObject* ext = PyObject_GetAttrString(opcode, "EXTENDED_ARG");
                if (op && PyLong_Check(op)) policy.import_name_op = static_cast<int>(PyLong_AsLong(op));
                if (ext && PyLong_Check(ext))
                    policy.extended_arg_op = static_cast<int>(PyLong_AsLong(ext));
                Py_XDECREF(op);
                Py_XDECREF(ext);
                Py_XDECREF(opmap);
                Py_DECREF(opcode);
            }
            PyErr_Clear();
            policy.allowed = allowed;
            policy.hatches = hatches;
            policy.machinery = machinery_prefixes;
            // Resolved once, here: judging a frame or a write compares resolved paths.
            policy.candidate_root = real_path(root);
            if (policy.candidate_root.empty()) policy.candidate_root = root;
            policy.write_roots = resolved_all(write_roots);
            policy.libraries = resolved_all(library_roots);
            // The cache name the import system uses (importlib.util.cache_from_source).
            PyObject* impl = PySys_GetObject("implementation");  // borrowed
            PyObject* tag = impl ? PyObject_GetAttrString(impl, "cache_tag") : nullptr;
            PyObject* flags = PySys_GetObject("flags");  // borrowed
            PyObject* opt = flags ? PyObject_GetAttrString(flags, "optimize") : nullptr;
            const long level = opt ? PyLong_AsLong(opt) : 0;
            if (tag && PyUnicode_Check(tag))
                policy.pyc_suffix = "." + utf8(tag) +
                                    (level > 0 ? ".opt-" + std::to_string(level) : "") + ".pyc";
            Py_XDECREF(tag);
            Py_XDECREF(opt);
            PyErr_Clear();
            // Frozen modules' genuine code, through the function as it is now:
            // the candidate may rebind _imp's attributes later, not this.
            if (PyObject* imp = PyImport_ImportModule("_imp")) {
                policy.frozen_code = PyObject_GetAttrString(imp, "get_frozen_object");
                Py_DECREF(imp);
            }
            PyErr_Clear();
            record_loaded();
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
        py::arg("machinery"), py::arg("libraries"), py::arg("report_fd"), py::arg("exit_code"),
        py::arg("fatal") = true, py::arg("libraries_listed") = false,
        py::arg("stdlib") = std::vector<std::string>{},
        "Install the side's run-time compliance policy (once; it cannot be removed). Code the "
        "interpreter holds now, and code equal to a real file's below `libraries`, is not the "
        "side's; everything else is. `fatal`: a violation ends the process (else each distinct "
        "one is reported, with notices of modules libraries imported for themselves, and the "
        "run goes on); `libraries_listed`: those imports must be permitted too.");

    m.def(
        "seal_evaluator",
        [](const std::vector<std::pair<std::string, py::object>>& namespaces,
           const std::vector<std::pair<std::string, py::object>>& functions,
           const std::vector<std::tuple<std::string, py::object, std::string>>& names,
           const std::vector<std::tuple<std::string, py::object, std::vector<std::string>>>&
               objects) {
            if (seal.done) throw std::runtime_error("the evaluator is already sealed");
            for (const auto& [label, obj] : namespaces) {
                SealedNamespace n;
                n.label = label;
                n.owner = obj.ptr();
                n.dict = namespace_of(n.owner, &n.mro, &n.bases);
                if (!n.dict) throw std::runtime_error(label + " is not a module, class or dict");
                Py_ssize_t pos = 0;
                PyObject *k, *v;
                while (PyDict_Next(n.dict, &pos, &k, &v)) {
                    if (!PyUnicode_CheckExact(k)) continue;  // checked as "not a string" later
                    own(v);
                    n.items.emplace(utf8(k), v);
                }
                for (PyObject* o : {n.owner, n.dict, n.mro, n.bases}) own(o);
                seal.namespaces.push_back(std::move(n));
            }
            for (const auto& [label, fn] : functions) {
                if (!PyFunction_Check(fn.ptr())) continue;
                SealedFunction f{label, fn.ptr(), function_parts(fn.ptr())};
                own(f.fn);
                for (PyObject* p : f.parts) own(p);
                seal.functions.push_back(std::move(f));
            }
            for (const auto& [label, obj, key] : names) {
                PyObject* mro = nullptr;
                PyObject* bases = nullptr;
                PyObject* dict = namespace_of(obj.ptr(), &mro, &bases);
                if (!dict) continue;
                SealedName s{label, dict, key, PyDict_GetItemString(dict, key.c_str())};
                PyErr_Clear();
                own(s.dict);
                own(s.value);
                seal.names.push_back(std::move(s));
            }
            for (const auto& [label, obj, attributes] : objects) {
                SealedObject o{label, obj.ptr(), Py_TYPE(obj.ptr()), attributes};
                own(o.obj);
                own(reinterpret_cast<PyObject*>(o.type));
                seal.objects.push_back(std::move(o));
            }
            seal.done = true;
        },
        py::arg("namespaces"), py::arg("functions"), py::arg("names"), py::arg("objects"),
        "Record the worker's code and state as they are (once).");

    m.def(
        "verify_sealed",
        [] {
            if (!seal.done) return;
            const std::string broken = seal_broken();
            if (broken.empty()) return;
            policy.in_hook = true;  // nothing the report does is judged again
            report("evaluator.modified", broken, "the side's code changed the evaluator's worker",
                   stack(kReportFrames), false, true);
        },
        "End the process as a violation if anything sealed has changed; else return.");
}
