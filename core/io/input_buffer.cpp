#include "core/io/input_buffer.h"

#include "core/io/decode_stream.h"
#include "core/io/huge_pages.h"
#include "core/io/open_input.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace dynascope {

const char* toString(InputBuffer::Compression c)
{
    switch (c) {
    case InputBuffer::Compression::Zstd:
        return "zstd";
    case InputBuffer::Compression::Gzip:
        return "gzip";
    case InputBuffer::Compression::None:
        break;
    }
    return "";
}

InputBuffer::Compression InputBuffer::sniff(std::string_view h)
{
    if (h.size() >= 4 && static_cast<unsigned char>(h[0]) == 0x28
        && static_cast<unsigned char>(h[1]) == 0xB5 && static_cast<unsigned char>(h[2]) == 0x2F
        && static_cast<unsigned char>(h[3]) == 0xFD)
        return Compression::Zstd;
    if (h.size() >= 2 && static_cast<unsigned char>(h[0]) == 0x1F
        && static_cast<unsigned char>(h[1]) == 0x8B)
        return Compression::Gzip;
    return Compression::None;
}

InputBuffer::~InputBuffer() = default;

namespace {
struct Growable {
    std::unique_ptr<char[]> data;
    size_t size = 0;
    size_t capacity = 0;
    // Grows towards `need` but never past `limit`; false when no room at all is left.
    bool reserve(size_t need, uint64_t limit)
    {
        if (need <= capacity)
            return true;
        size_t cap = capacity ? capacity : 1 << 20;
        while (cap < need)
            cap *= 2;
        if (cap > limit)
            cap = static_cast<size_t>(limit);
        if (cap <= capacity)
            return capacity > size;
        // Not zero-filled here: whoever adopts the buffer zeroes what follows the data. Zeroing it
        // all would touch every page before the input does.
        auto fresh = std::make_unique_for_overwrite<char[]>(cap + InputBuffer::kPadding);
        adviseHugePages(fresh.get(), cap + InputBuffer::kPadding);
        if (size)
            std::memcpy(fresh.get(), data.get(), size);
        data = std::move(fresh);
        capacity = cap;
        return true;
    }
};

// Output buffers are capped at limit + 1 bytes: reaching limit + 1 proves the input is over the
// limit, while an input of exactly `limit` bytes still fits (tst_hostile::exactlyAtTheLimit).
uint64_t capFor(uint64_t limit)
{
    return limit < UINT64_MAX ? limit + 1 : limit;
}

// Reads `fd` into `out`: up to `expected` bytes when non-zero (a regular file's size when
// opened), else to the end of the input but at most `limit` bytes.
bool readInput(int fd, uint64_t expected, uint64_t limit, Growable& out, std::string& error)
{
    const uint64_t cap = expected ? expected : capFor(limit);
    while (expected == 0 || out.size < expected) {
        const size_t step = expected ? static_cast<size_t>(expected - out.size) : size_t(1) << 20;
        if (!out.reserve(out.size + step, cap)) {
            error = decodeLimitMessage(limit, "input");
            return false;
        }
        size_t room = out.capacity - out.size;
        if (expected)
            room = std::min<size_t>(room, static_cast<size_t>(expected - out.size));
        ssize_t n = ::read(fd, out.data.get() + out.size, std::min<size_t>(room, 1u << 30));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            error = std::strerror(errno);
            return false;
        }
        if (n == 0)
            break;
        out.size += static_cast<size_t>(n);
    }
    if (!expected && out.size > limit) {
        error = decodeLimitMessage(limit, "input");
        return false;
    }
    return true;
}

// readInput() for a regular file of `expected` bytes, on several threads that each pread() one
// part: the kernel's copy and the first touch of the buffer's pages are most of the cost of
// reading, and both scale with cores. Parts start on 2 MB boundaries so no two threads fault in the
// same huge page. The result is what one reader gets: the longest prefix read in full (a file
// that shrank meanwhile gives fewer bytes), and a read error before that point fails.
bool readInputParallel(
    int fd, uint64_t expected, unsigned threads, Growable& out, std::string& error)
{
    if (!out.reserve(expected, expected)) {
        error = decodeLimitMessage(expected, "input");
        return false;
    }
    struct Part {
        uint64_t begin = 0, end = 0, done = 0;
        int error = 0;
    };
    std::vector<Part> parts(threads);
    constexpr uint64_t kAlign = 2u << 20;
    for (unsigned i = 0; i < threads; ++i) {
        parts[i].begin = i == 0 ? 0 : expected * i / threads / kAlign * kAlign;
        parts[i].end = i + 1 == threads ? expected : expected * (i + 1) / threads / kAlign * kAlign;
    }
    auto work = [&](Part& p) {
        while (p.begin + p.done < p.end) {
            const uint64_t at = p.begin + p.done;
            ssize_t n = ::pread(fd, out.data.get() + at,
                static_cast<size_t>(std::min<uint64_t>(p.end - at, 1u << 30)),
                static_cast<off_t>(at));
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                p.error = errno;
                return;
            }
            if (n == 0)
                return;
            p.done += static_cast<uint64_t>(n);
        }
    };
    {
        std::vector<std::jthread> pool;
        for (unsigned i = 1; i < threads; ++i)
            pool.emplace_back([&work, &parts, i] { work(parts[i]); });
        work(parts[0]);
    }
    out.size = 0;
    for (const Part& p : parts) {
        if (p.error) {
            error = std::strerror(p.error);
            return false;
        }
        out.size = static_cast<size_t>(p.begin + p.done);
        if (p.begin + p.done < p.end)
            break;
    }
    return true;
}

} // namespace

bool InputBuffer::decompress(std::string_view src, uint64_t maxDecoded, std::string& error)
{
    Growable out;
    // decodeStream never passes the limit, so the capped buffer always has room.
    auto write = [&](const char* data, size_t n, std::string&) {
        out.reserve(out.size + n, capFor(maxDecoded));
        std::memcpy(out.data.get() + out.size, data, n);
        out.size += n;
        return true;
    };
    uint64_t decoded = 0;
    if (!decodeStream(m_compression, readerOf(src), write, maxDecoded, decoded, error))
        return false;
    adopt(std::move(out.data), out.size, out.capacity);
    return true;
}

void InputBuffer::adopt(std::unique_ptr<char[]> data, size_t size, size_t capacity)
{
    if (!data) {
        data = std::make_unique<char[]>(kPadding);
        capacity = 0;
    }
    std::memset(data.get() + size, 0, capacity + kPadding - size);
    m_owned = std::move(data);
    m_data = m_owned.get();
    m_size = size;
    m_readable = capacity + kPadding;
}

std::shared_ptr<const InputBuffer> InputBuffer::fromBytes(
    std::string_view bytes, uint64_t maxDecoded, std::string& error)
{
    std::shared_ptr<InputBuffer> b(new InputBuffer);
    b->m_fileBytes = bytes.size();
    b->m_compression = sniff(bytes);
    if (b->m_compression != Compression::None) {
        if (!b->decompress(bytes, maxDecoded, error))
            return nullptr;
        return b;
    }
    b->m_owned = std::make_unique<char[]>(bytes.size() + kPadding);
    if (!bytes.empty())
        std::memcpy(b->m_owned.get(), bytes.data(), bytes.size());
    std::memset(b->m_owned.get() + bytes.size(), 0, kPadding);
    b->m_data = b->m_owned.get();
    b->m_size = bytes.size();
    b->m_readable = bytes.size() + kPadding;
    return b;
}

std::optional<std::string> InputBuffer::readHead(const std::string& path, size_t maxBytes)
{
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return std::nullopt;
    struct stat st { };
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return std::nullopt;
    }
    // Compressed input is decoded until maxBytes came out (a head needs more than one read
    // only when it compresses well, and never more than the file).
    std::string out, first(std::min<size_t>(maxBytes, 256 * 1024), '\0');
    ssize_t n = ::read(fd, first.data(), first.size());
    first.resize(n > 0 ? static_cast<size_t>(n) : 0);
    const Compression kind = sniff(first);
    if (kind == Compression::None) {
        out = std::move(first);
        while (out.size() < maxBytes) {
            const size_t before = out.size();
            out.resize(std::min(maxBytes, before + (1u << 20)));
            n = ::read(fd, out.data() + before, out.size() - before);
            out.resize(before + (n > 0 ? static_cast<size_t>(n) : 0));
            if (n <= 0)
                break;
        }
    } else {
        auto write = [&](const char* data, size_t size, std::string&) {
            out.append(data, std::min(size, maxBytes - out.size()));
            return out.size() < maxBytes; // enough: stop decoding
        };
        uint64_t decoded = 0;
        std::string error;
        decodeStream(kind, readerOf(first, fd), write, UINT64_MAX, decoded, error);
    }
    ::close(fd);
    return out;
}

std::shared_ptr<const InputBuffer> InputBuffer::open(
    const std::string& path, uint64_t maxDecoded, std::string& error, unsigned threads)
{
    struct stat st { };
    const int fd = openInput(path, st, error);
    if (fd < 0)
        return nullptr;
    // Regular files: the size when opened (see the header comment). Pipes, devices and procfs
    // files (which report size 0): to their end, at most maxDecoded bytes.
    const uint64_t expected
        = S_ISREG(st.st_mode) && st.st_size > 0 ? static_cast<uint64_t>(st.st_size) : 0;
    Growable raw;
    std::string readError;
    const unsigned parts = static_cast<unsigned>(std::min<uint64_t>(threads, expected >> 25));
    const bool ok = parts > 1 ? readInputParallel(fd, expected, parts, raw, readError)
                              : readInput(fd, expected, maxDecoded, raw, readError);
    ::close(fd);
    if (!ok) {
        error = readError;
        return nullptr;
    }
    std::shared_ptr<InputBuffer> b(new InputBuffer);
    b->m_fileBytes = expected ? expected : raw.size;
    std::string_view bytes(raw.data.get(), raw.size);
    b->m_compression = sniff(bytes);
    if (b->m_compression != Compression::None) {
        if (!b->decompress(bytes, maxDecoded, error))
            return nullptr;
    } else {
        b->adopt(std::move(raw.data), raw.size, raw.capacity);
    }
    if (expected && raw.size < expected) {
        // The file shrank while it was read: keep what was read, say so.
        const std::string shrank = "the file shrank while it was read (read "
            + std::to_string(raw.size) + " of " + std::to_string(expected) + " bytes)";
        error = error.empty() ? shrank : error + "; " + shrank;
    }
    return b;
}

} // namespace dynascope
