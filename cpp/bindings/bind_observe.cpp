// The digest of a value a side produced, for the check of timed outputs
// (python/frontier_measure/observe.py `fast_digest`).
//
// It runs inside the timed window of a batch, in the side's worker: turning
// every output into plain data there is what makes a lazy result pay for
// itself, and the time it takes is part of the measurement path that is
// measured and taken off both sides (runners/module.py). In Python the walk
// over 450 small ints cost 53 us, more than the call being timed; here the
// value is walked and hashed in one pass.
//
// Exact builtin types only (a subclass is not its base), each tagged, so two
// values digest alike exactly when their canonical observations are equal:
// floats bit-exact (every NaN alike), ints exact at any size, containers with
// their length. Anything else (sets, numpy arrays, objects) goes to the
// fallback, a Python function returning the canonical form as bytes.
//
// The hash is a 128-bit multiply-rotate mix, not a cryptographic one: a side
// cannot aim at a collision, because the digest it would have to match is
// the reference's, which it never sees; to produce it by chance it would
// have to compute the right output, which is all we ask.
#include "pybind11.hpp"

#include "fm/packed.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

namespace {

constexpr int kMaxDepth = 400;  // deeper nesting is the fallback's to describe

inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

inline uint64_t fmix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

// Two 64-bit lanes fed a word at a time.
class Hasher {
public:
    void word(uint64_t w) {
        a_ = rotl(a_ ^ (w * 0x87c37b91114253d5ULL), 31) * 0x4cf5ad432745937fULL + 0x52dce729;
        b_ = rotl(b_ + (w * 0x4cf5ad432745937fULL), 33) * 0x87c37b91114253d5ULL ^ a_;
        ++n_;
    }
    void tag(char t) { word(static_cast<unsigned char>(t) | 0x5a00ULL); }
    void blob(char t, const char* p, size_t len) {
        tag(t);
        word(len);
        size_t i = 0;
        for (; i + 8 <= len; i += 8) {
            uint64_t w;
            std::memcpy(&w, p + i, 8);
            word(w);
        }
        uint64_t last = 0;
        std::memcpy(&last, p + i, len - i);
        word(last);
    }
    std::string digest() const {
        uint64_t h1 = fmix(a_ ^ n_), h2 = fmix(b_ + h1);
        h1 = fmix(h1 + h2);
        char out[16];
        std::memcpy(out, &h1, 8);
        std::memcpy(out + 8, &h2, 8);
        return std::string(out, 16);
    }

private:
    uint64_t a_ = 0x9e3779b97f4a7c15ULL, b_ = 0xc2b2ae3d27d4eb4fULL, n_ = 0;
};

using Out = Hasher;

void encode(PyObject* o, const py::function& fallback, Out& out, int depth);

void encode_fallback(PyObject* o, const py::function& fallback, Out& out) {
    py::bytes b = fallback(py::handle(o));
    const std::string s = b;
    out.blob('X', s.data(), s.size());
}

void encode(PyObject* o, const py::function& fallback, Out& out, int depth) {
    if (depth > kMaxDepth) {
        encode_fallback(o, fallback, out);
        return;
    }
    if (o == Py_None) {
        out.tag('N');
    } else if (o == Py_True) {
        out.tag('T');
    } else if (o == Py_False) {
        out.tag('F');
    } else if (PyLong_CheckExact(o)) {
        int overflow = 0;
        const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (!overflow) {
            out.tag('i');
            out.word(static_cast<uint64_t>(v));
        } else {
            py::str text = py::str(py::handle(o));
            const std::string s = text;
            out.blob('I', s.data(), s.size());
        }
    } else if (PyFloat_CheckExact(o)) {
        double d = PyFloat_AS_DOUBLE(o);
        if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();  // payloads are not behaviour
        uint64_t bits;
        std::memcpy(&bits, &d, sizeof bits);
        out.tag('f');
        out.word(bits);
    } else if (PyUnicode_CheckExact(o)) {
        Py_ssize_t n = 0;
        const char* s = PyUnicode_AsUTF8AndSize(o, &n);
        if (s) {
            out.blob('s', s, static_cast<size_t>(n));
        } else {  // lone surrogates: not UTF-8, still a value
            PyErr_Clear();
            encode_fallback(o, fallback, out);
        }
    } else if (PyBytes_CheckExact(o)) {
        out.blob('b', PyBytes_AS_STRING(o), static_cast<size_t>(PyBytes_GET_SIZE(o)));
    } else if (PyList_CheckExact(o) || PyTuple_CheckExact(o)) {
        const bool list = PyList_CheckExact(o);
        const Py_ssize_t n = list ? PyList_GET_SIZE(o) : PyTuple_GET_SIZE(o);
        out.tag(list ? 'L' : 'U');
        out.word(static_cast<uint64_t>(n));
        for (Py_ssize_t i = 0; i < n; ++i) {
            // A list may change under us only through code we call (the
            // fallback); hold the item while it is encoded.
            if (list && i >= PyList_GET_SIZE(o)) throw py::value_error("a list changed while encoded");
            PyObject* item = list ? PyList_GET_ITEM(o, i) : PyTuple_GET_ITEM(o, i);
            Py_INCREF(item);
            try {
                encode(item, fallback, out, depth + 1);
            } catch (...) {
                Py_DECREF(item);
                throw;
            }
            Py_DECREF(item);
        }
    } else if (PyDict_CheckExact(o)) {
        out.tag('D');
        out.word(static_cast<uint64_t>(PyDict_GET_SIZE(o)));
        // Insertion order is part of a dict's behaviour: kept, not sorted.
        py::list items = py::reinterpret_steal<py::list>(PyDict_Items(o));
        for (auto kv : items) {
            PyObject* pair = kv.ptr();
            encode(PyTuple_GET_ITEM(pair, 0), fallback, out, depth + 1);
            encode(PyTuple_GET_ITEM(pair, 1), fallback, out, depth + 1);
        }
    } else {
        encode_fallback(o, fallback, out);
    }
}

}  // namespace

void bind_observe(py::module_& m) {
    m.def(
        "plain_digest",
        [](py::handle value, const py::function& fallback) {
            Hasher h;
            encode(value.ptr(), fallback, h, 0);
            return py::bytes(h.digest());
        },
        py::arg("value"), py::arg("fallback"),
        "16-byte digest of a value: exact builtin types walked here, anything else "
        "given by fallback(value) -> bytes (its canonical form).");
    m.def(
        "packed_values",
        [](const py::bytes& data, int64_t limit) {
            char* buf = nullptr;
            Py_ssize_t size = 0;
            if (PyBytes_AsStringAndSize(data.ptr(), &buf, &size) != 0) throw py::error_already_set();
            return fm::packed::count_values(reinterpret_cast<const uint8_t*>(buf),
                                            static_cast<size_t>(size), limit);
        },
        py::arg("data"), py::arg("limit"),
        "How many values the MessagePack bytes hold, nested ones included, counted "
        "without decoding: limit + 1 once over limit, -1 if malformed or cut short.");
}
