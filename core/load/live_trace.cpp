#include "core/load/live_trace.h"

#include "core/io/input_buffer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace dynascope {

LiveTrace::LiveTrace(std::vector<std::string> paths, LoadOptions options)
    : m_paths(std::move(paths))
    , m_options(options)
{
    // Every file of the folder's newest run is followed; runs are chosen at each snapshot.
    m_options.newestOnly = false;
}

uint64_t LiveTrace::bytesHeld() const
{
    uint64_t n = 0;
    for (const auto& f : m_files)
        n += f.bytes.size();
    return n;
}

LiveTrace::Poll LiveTrace::poll()
{
    Poll result;
    // A folder that holds no trace file yet (the program has not imported torch) is normal here:
    // it is polled again, so its "no such file" or "holds no trace" errors are not kept.
    std::vector<Diagnostic> notYet;
    for (const std::string& path : expandInputs(m_paths, m_options, notYet)) {
        if (path == "-")
            continue; // standard input cannot be followed
        if (m_known.insert(path).second) {
            Followed f;
            f.path = path;
            m_files.push_back(std::move(f));
        }
    }
    for (Followed& f : m_files)
        result.changed = readMore(f, result.bytesRead) || result.changed;
    m_totalRead += result.bytesRead;
    return result;
}

bool LiveTrace::readMore(Followed& f, uint64_t& read)
{
    struct stat st { };
    if (::stat(f.path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
        if (!f.vanished && f.offset > 0)
            f.note = "the file vanished while it was followed; kept what was read of it";
        f.vanished = true;
        return false;
    }
    f.vanished = false;
    bool changed = false;
    const auto size = static_cast<uint64_t>(st.st_size);
    const bool replaced = f.offset > 0
        && (static_cast<uint64_t>(st.st_ino) != f.inode
            || static_cast<uint64_t>(st.st_dev) != f.device);
    if (replaced || size < f.offset) {
        f.note = std::string(replaced ? "the file was replaced" : "the file shrank")
            + " while it was followed; read again from its start";
        f.bytes.clear();
        f.offset = 0;
        f.complete = 0;
        changed = true;
    }
    f.device = static_cast<uint64_t>(st.st_dev);
    f.inode = static_cast<uint64_t>(st.st_ino);
    if (size <= f.offset)
        return changed;
    if (f.compressed) { // a compressed stream is not read from its middle: all of it again
        f.bytes.clear();
        f.offset = 0;
    }
    // The loader's limit on decoded bytes holds for what is followed, too.
    const uint64_t want = std::min(size, m_options.maxDecompressedBytes);
    if (want <= f.offset)
        return changed;
    const int fd = ::open(f.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return changed;
    const size_t old = f.bytes.size();
    f.bytes.resize(old + (want - f.offset));
    size_t got = old;
    while (got < f.bytes.size()) {
        const ssize_t n = ::pread(fd, f.bytes.data() + got, f.bytes.size() - got,
            static_cast<off_t>(f.offset + (got - old)));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; // the file shrank meanwhile: the next poll notices
        got += static_cast<size_t>(n);
    }
    ::close(fd);
    f.bytes.resize(got);
    f.offset = got;
    read += got - old;
    if (old == 0)
        f.compressed = InputBuffer::sniff(f.bytes) != InputBuffer::Compression::None;
    if (f.compressed)
        return got > old || changed;
    // Only complete lines are loaded: the writer may be in the middle of one.
    const void* nl = got > old ? ::memrchr(f.bytes.data() + old, '\n', got - old) : nullptr;
    if (nl) {
        f.complete = static_cast<size_t>(static_cast<const char*>(nl) - f.bytes.data()) + 1;
        changed = true;
    }
    return changed;
}

LoadResult LiveTrace::snapshot(std::stop_token stop) const
{
    std::vector<LoadedBytes> inputs;
    for (const Followed& f : m_files) {
        const std::string_view bytes = f.compressed
            ? std::string_view(f.bytes)
            : std::string_view(f.bytes).substr(0, f.complete);
        if (bytes.empty())
            continue;
        std::string error;
        auto buffer = InputBuffer::fromBytes(bytes, m_options.maxDecompressedBytes, error);
        std::string warning = f.note;
        if (!error.empty())
            warning += (warning.empty() ? "" : "; ") + error;
        inputs.push_back({ f.path, std::move(buffer), std::move(warning) });
    }
    if (inputs.empty())
        return {};
    return loadFromMemory(inputs, m_paths, m_options, stop);
}

} // namespace dynascope
