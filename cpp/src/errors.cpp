#include "fm/errors.hpp"

#include <cstring>

namespace fm {

std::string errno_message(const std::string& what, int err) {
    return what + ": " + std::strerror(err);
}

}  // namespace fm
