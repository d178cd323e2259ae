// An owned file descriptor: closed exactly once, whatever path a function
// leaves by (an exception between pipe() and fork() must not leak the pipe).
#pragma once

#include <unistd.h>
#include <utility>

namespace fm {

class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() { reset(); }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    Fd& operator=(Fd&& other) noexcept {
        if (this != &other) {
            reset();
            fd_ = std::exchange(other.fd_, -1);
        }
        return *this;
    }

    int get() const { return fd_; }
    bool valid() const { return fd_ >= 0; }
    explicit operator bool() const { return valid(); }
    // Gives the descriptor up without closing it.
    int release() { return std::exchange(fd_, -1); }
    void reset(int fd = -1) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = fd;
    }

private:
    int fd_ = -1;
};

// A pipe as two owned ends; throws MeasureError when the kernel refuses.
struct Pipe {
    Fd read;
    Fd write;
};
Pipe make_pipe(int flags);

}  // namespace fm
