#include "fm/fd.hpp"

#include "fm/errors.hpp"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace fm {

Pipe make_pipe(int flags) {
    int ends[2];
    if (pipe2(ends, flags) != 0) throw MeasureError(errno_message("pipe", errno));
    return Pipe{Fd(ends[0]), Fd(ends[1])};
}

}  // namespace fm
