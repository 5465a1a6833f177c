#include "core/io/trace_source.h"

#include "core/io/decode_stream.h"
#include "core/io/open_input.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace dynascope {

namespace {
int64_t mtimeNs(const struct stat& st)
{
    return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

// A loaded file keeps its descriptor: a folder of 1,024 ranks needs more than the usual soft
// limit of 1,024, so it is raised to the hard limit once.
void raiseOpenFileLimit()
{
    static std::once_flag once;
    std::call_once(once, [] {
        struct rlimit rl { };
        if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
            rl.rlim_cur = rl.rlim_max;
            setrlimit(RLIMIT_NOFILE, &rl);
        }
    });
}

std::string tempFolder()
{
    const char* t = std::getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

// An unlinked file in `folder`, gone when its descriptor closes; -1 with `error` set.
int openTempFile(const std::string& folder, std::string& error)
{
    int fd = -1;
#ifdef O_TMPFILE
    fd = ::open(folder.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0)
        return fd;
#endif
    std::string name = folder + "/dynascope-decoded-XXXXXX";
    fd = mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0) {
        error = "cannot make a temporary file in " + folder + " for the decoded input: "
            + std::strerror(errno) + " (set TMPDIR to a writable folder)";
        return -1;
    }
    ::unlink(name.c_str());
    return fd;
}

bool writeAll(int fd, const char* data, size_t n, uint64_t already, const std::string& folder,
    std::string& error)
{
    while (n > 0) {
        const ssize_t w = ::write(fd, data, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            const int e = w < 0 ? errno : ENOSPC;
            error = e == ENOSPC || e == EDQUOT
                ? "the temporary space in " + folder + " ran out after " + std::to_string(already)
                    + " bytes of decoded input (set TMPDIR to a folder "
                    + "with more room, or decompress the file yourself)"
                : "cannot write the decoded input to a temporary file in " + folder + ": "
                    + std::strerror(e);
            return false;
        }
        data += w;
        n -= static_cast<size_t>(w);
        already += static_cast<uint64_t>(w);
    }
    return true;
}
} // namespace

std::shared_ptr<const TraceSource> TraceSource::fromMemory(std::shared_ptr<const InputBuffer> bytes)
{
    std::shared_ptr<TraceSource> s(new TraceSource);
    s->m_size = bytes->size();
    s->m_fileBytes = bytes->fileBytes();
    s->m_compression = bytes->compression();
    s->m_memory = std::move(bytes);
    return s;
}

std::shared_ptr<const TraceSource> TraceSource::open(
    const std::string& path, uint64_t maxDecoded, std::string& error)
{
    raiseOpenFileLimit();
    struct stat st { };
    const int fd = openInput(path, st, error);
    if (fd < 0)
        return nullptr;
    std::shared_ptr<TraceSource> s(new TraceSource);
    s->m_path = path;
    // Regular files: the size when opened; bytes appended later are not indexed. Pipes, devices
    // and procfs files (which report size 0): to their end.
    const bool regular = S_ISREG(st.st_mode) && st.st_size > 0;
    std::string head(4, '\0');
    ssize_t n = regular ? ::pread(fd, head.data(), head.size(), 0) : ::read(fd, head.data(), 4);
    head.resize(n > 0 ? static_cast<size_t>(n) : 0);
    s->m_compression = InputBuffer::sniff(head);
    if (regular && s->m_compression == InputBuffer::Compression::None) {
        s->m_fd = fd;
        s->m_size = s->m_fileBytes = static_cast<uint64_t>(st.st_size);
        s->m_mtimeNs = mtimeNs(st);
        return s;
    }
    // Decoded (or copied from a pipe) once into a file of our own.
    const std::string folder = tempFolder();
    const int out = openTempFile(folder, error);
    if (out < 0) {
        ::close(fd);
        return nullptr;
    }
    s->m_fd = out;
    s->m_private = true;
    uint64_t raw = 0;
    // A regular file is read again from its start (the head came from pread); a pipe's head was
    // consumed, and comes first.
    const DecodeReader input = readerOf(regular ? std::string_view() : head, fd);
    auto read = [&](char* buffer, size_t capacity) -> ssize_t {
        const ssize_t got = input(buffer, capacity);
        if (got > 0)
            raw += static_cast<uint64_t>(got);
        return got;
    };
    uint64_t written = 0;
    auto write = [&](const char* data, size_t size, std::string& why) {
        if (!writeAll(out, data, size, written, folder, why))
            return false;
        written += size;
        return true;
    };
    bool ok = true;
    if (s->m_compression != InputBuffer::Compression::None) {
        uint64_t decoded = 0; // counted by decodeStream as `written` is by the writer
        ok = decodeStream(s->m_compression, read, write, maxDecoded, decoded, error);
    } else {
        std::vector<char> block(1u << 20);
        while (ok) {
            const ssize_t got = read(block.data(), block.size());
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0) {
                error = std::strerror(errno);
                ok = false;
            } else if (got == 0) {
                break;
            } else if (static_cast<uint64_t>(got) > maxDecoded - written) {
                error = decodeLimitMessage(maxDecoded, "input");
                ok = false;
            } else {
                ok = write(block.data(), static_cast<size_t>(got), error);
            }
        }
    }
    ::close(fd);
    if (!ok)
        return nullptr;
    s->m_size = written;
    s->m_fileBytes = regular ? static_cast<uint64_t>(st.st_size) : raw;
    return s;
}

TraceSource::~TraceSource()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

bool TraceSource::stillIndexed(bool& written) const
{
    written = false;
    if (m_private)
        return true;
    struct stat st { };
    if (fstat(m_fd, &st) != 0) {
        reportChange(std::string("cannot check it: ") + std::strerror(errno));
        return false;
    }
    if (static_cast<uint64_t>(st.st_size) < m_size) {
        reportChange("it is now " + std::to_string(st.st_size) + " bytes, " + std::to_string(m_size)
            + " when it was loaded");
        return false;
    }
    written = static_cast<uint64_t>(st.st_size) != m_size || mtimeNs(st) != m_mtimeNs;
    return true;
}

ByteWindow TraceSource::read(
    uint64_t offset, uint64_t length, std::string& out, bool* written) const
{
    offset = std::min(offset, m_size);
    length = std::min(length, m_size - offset);
    if (m_memory)
        return { m_memory->data() + offset, offset, offset + length };
    bool changed = false;
    if (!stillIndexed(changed))
        return {};
    if (written)
        *written = changed;
    out.resize(static_cast<size_t>(length) + InputBuffer::kPadding);
    std::memset(out.data() + length, 0, InputBuffer::kPadding);
    uint64_t done = 0;
    while (done < length) {
        const ssize_t n = ::pread(m_fd, out.data() + done,
            static_cast<size_t>(std::min<uint64_t>(length - done, 1u << 30)),
            static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            reportChange(n < 0 ? std::string("cannot read it: ") + std::strerror(errno)
                               : "it ends before byte " + std::to_string(offset + length));
            return {};
        }
        done += static_cast<uint64_t>(n);
    }
    return { out.data(), offset, offset + length };
}

std::string TraceSource::readAll() const
{
    std::string storage;
    const ByteWindow w = read(0, m_size, storage);
    return w.empty() ? std::string() : std::string(w.view(0, w.end));
}

std::string TraceSource::problem() const
{
    std::lock_guard lock(m_mutex);
    return m_problem;
}

void TraceSource::reportChange(const std::string& what) const
{
    std::lock_guard lock(m_mutex);
    if (m_problem.empty())
        m_problem = m_path + " changed since it was loaded (" + what
            + "): what is shown of it may be out of date; open it again";
}

bool sameBytes(const TraceSource& a, const TraceSource& b)
{
    if (a.size() != b.size())
        return false;
    // Blocks from 64 KB, doubling up to 4 MB: rank files of one size differ in their first
    // records, and comparing them costs a small read each, not 4 MB.
    std::string x, y;
    uint64_t block = 64u << 10;
    for (uint64_t at = 0; at < a.size();
         at += block, block = std::min<uint64_t>(2 * block, 4u << 20)) {
        const ByteWindow wa = a.read(at, block, x), wb = b.read(at, block, y);
        if (wa.empty() || wb.empty() || wa.end != wb.end
            || std::memcmp(wa.data, wb.data, static_cast<size_t>(wa.end - at)) != 0)
            return false;
    }
    return true;
}

} // namespace dynascope
