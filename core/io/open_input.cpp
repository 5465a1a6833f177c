#include "core/io/open_input.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace dynascope {

int openInput(const std::string& path, struct stat& st, std::string& error, int fifoWaitMs)
{
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        error = std::strerror(errno);
        return -1;
    }
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        error = S_ISDIR(st.st_mode) ? "is a folder" : std::strerror(errno);
        ::close(fd);
        return -1;
    }
    if (S_ISFIFO(st.st_mode)) {
        // Linux reports neither POLLIN nor POLLHUP on a FIFO until a writer has opened it since
        // this open: data (POLLIN), or a writer that came and went (POLLHUP, an empty input).
        pollfd p { fd, POLLIN, 0 };
        int ready = 0;
        do
            ready = ::poll(&p, 1, fifoWaitMs);
        while (ready < 0 && errno == EINTR);
        if (ready <= 0) {
            error = ready == 0
                ? "no writer opened the pipe within " + std::to_string(fifoWaitMs / 1000) + " s"
                : std::string(std::strerror(errno));
            ::close(fd);
            return -1;
        }
    }
    if (int flags = fcntl(fd, F_GETFL); flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}

} // namespace dynascope
