// A minimal test harness for the core's C++ tests: no framework to install.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace check {

struct Case {
    const char* name;
    std::function<void()> fn;
};

inline std::vector<Case>& registry() {
    static std::vector<Case> cases;
    return cases;
}

inline int& failures() {
    static int n = 0;
    return n;
}

struct Register {
    Register(const char* name, std::function<void()> fn) { registry().push_back({name, std::move(fn)}); }
};

inline int run_all() {
    int passed = 0, failed = 0;
    for (const auto& c : registry()) {
        const int before = failures();
        try {
            c.fn();
        } catch (const std::exception& e) {
            std::printf("  %s: unexpected exception: %s\n", c.name, e.what());
            ++failures();
        }
        if (failures() == before) {
            ++passed;
        } else {
            std::printf("FAIL %s\n", c.name);
            ++failed;
        }
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

}  // namespace check

#define CHECK_CONCAT2(a, b) a##b
#define CHECK_CONCAT(a, b) CHECK_CONCAT2(a, b)
#define TEST(name)                                                                 \
    static void name();                                                            \
    static check::Register CHECK_CONCAT(reg_, name)(#name, name);                  \
    static void name()
#define CHECK(cond)                                                                \
    do {                                                                           \
        if (!(cond)) {                                                             \
            std::printf("  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
            ++check::failures();                                                   \
        }                                                                          \
    } while (0)
#define CHECK_THROWS(expr, type)                                                   \
    do {                                                                           \
        bool thrown = false;                                                       \
        try {                                                                      \
            expr;                                                                  \
        } catch (const type&) {                                                    \
            thrown = true;                                                         \
        }                                                                          \
        if (!thrown) {                                                             \
            std::printf("  %s:%d: %s did not throw %s\n", __FILE__, __LINE__, #expr, #type); \
            ++check::failures();                                                   \
        }                                                                          \
    } while (0)
