// Errors the measurement core raises. Each maps to a Python exception of the
// same name (see cpp/bindings/module.cpp), so callers catch them by name.
#pragma once

#include <stdexcept>
#include <string>

namespace fm {

// Base of every error the core raises on purpose.
class MeasureError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A process could not be started: command not found, not executable, bad cwd.
class SpawnError : public MeasureError {
public:
    using MeasureError::MeasureError;
};

// An isolation request could not be honoured: uid switch, rlimit, affinity.
class IsolationError : public MeasureError {
public:
    using MeasureError::MeasureError;
};

// A side failed while it was being measured (non-zero exit, signal, timeout).
// `side` names which one, so a report can say "the candidate crashed".
class SideError : public MeasureError {
public:
    SideError(std::string side, const std::string& what)
        : MeasureError(side + ": " + what), side_(std::move(side)) {}
    const std::string& side() const { return side_; }

private:
    std::string side_;
};

// Errno-carrying message helper: "what: strerror(err)".
std::string errno_message(const std::string& what, int err);

}  // namespace fm
