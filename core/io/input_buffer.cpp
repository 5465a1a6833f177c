#include "core/io/input_buffer.h"

#include "core/io/huge_pages.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

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

InputBuffer::~InputBuffer()
{
    if (m_map)
        munmap(m_map, m_mapLength);
}

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

std::string limitMessage(uint64_t limit)
{
    return "decompressed size exceeds the limit of " + std::to_string(limit)
        + " bytes (raise it with --max-decompressed)";
}

bool inflateZstd(std::string_view src, uint64_t limit, Growable& out, std::string& error)
{
    ZSTD_DCtx* ctx = ZSTD_createDCtx();
    if (!ctx) {
        error = "out of memory";
        return false;
    }
    ZSTD_inBuffer in { src.data(), src.size(), 0 };
    size_t last = 0;
    while (true) {
        if (!out.reserve(out.size + (1 << 20), limit)) {
            error = limitMessage(limit);
            ZSTD_freeDCtx(ctx);
            return false;
        }
        ZSTD_outBuffer o { out.data.get() + out.size, out.capacity - out.size, 0 };
        last = ZSTD_decompressStream(ctx, &o, &in);
        out.size += o.pos;
        if (ZSTD_isError(last)) {
            error = std::string("zstd: ") + ZSTD_getErrorName(last) + " (kept the "
                + std::to_string(out.size) + " bytes before it)";
            ZSTD_freeDCtx(ctx);
            return out.size > 0;
        }
        if (in.pos == in.size && o.pos < o.size)
            break;
    }
    ZSTD_freeDCtx(ctx);
    if (last != 0)
        error = "zstd: the compressed stream is cut short (kept what decompressed)";
    return true;
}

bool inflateGzip(std::string_view src, uint64_t limit, Growable& out, std::string& error)
{
    z_stream zs {};
    if (inflateInit2(&zs, 15 + 32) != Z_OK) {
        error = "zlib: cannot initialise";
        return false;
    }
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(src.data()));
    zs.avail_in = static_cast<uInt>(std::min<size_t>(src.size(), UINT32_MAX));
    size_t consumedBefore = 0;
    int rc = Z_OK;
    while (true) {
        if (!out.reserve(out.size + (1 << 20), limit)) {
            error = limitMessage(limit);
            inflateEnd(&zs);
            return false;
        }
        zs.next_out = reinterpret_cast<Bytef*>(out.data.get() + out.size);
        zs.avail_out = static_cast<uInt>(std::min<size_t>(out.capacity - out.size, UINT32_MAX));
        size_t before = zs.avail_out;
        rc = inflate(&zs, Z_NO_FLUSH);
        out.size += before - zs.avail_out;
        if (zs.avail_in == 0 && consumedBefore + zs.total_in < src.size()) {
            // Feed the next chunk of a >4 GiB input.
            consumedBefore = zs.total_in;
            size_t rest = src.size() - zs.total_in;
            zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(src.data() + zs.total_in));
            zs.avail_in = static_cast<uInt>(std::min<size_t>(rest, UINT32_MAX));
        }
        if (rc == Z_STREAM_END) {
            // Concatenated gzip members (gzip a; gzip b; cat) are valid gzip.
            if (zs.avail_in > 0) {
                inflateReset(&zs);
                continue;
            }
            break;
        }
        if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
            error = "gzip: the compressed stream is cut short (kept what decompressed)";
            break;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            error = std::string("gzip: ") + (zs.msg ? zs.msg : "corrupt data") + " (kept the "
                + std::to_string(out.size) + " bytes before it)";
            break;
        }
    }
    inflateEnd(&zs);
    return true;
}
} // namespace

bool InputBuffer::decompress(std::string_view src, uint64_t maxDecoded, std::string& error)
{
    Growable out;
    bool ok = m_compression == Compression::Zstd ? inflateZstd(src, maxDecoded, out, error)
                                                 : inflateGzip(src, maxDecoded, out, error);
    if (!ok)
        return false;
    if (!out.data) {
        out.data = std::make_unique<char[]>(kPadding);
        out.capacity = 0;
    }
    std::memset(out.data.get() + out.size, 0, out.capacity + kPadding - out.size);
    m_owned = std::move(out.data);
    m_data = m_owned.get();
    m_size = out.size;
    m_readable = out.capacity + kPadding;
    return true;
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

std::shared_ptr<const InputBuffer> InputBuffer::open(
    const std::string& path, uint64_t maxDecoded, std::string& error)
{
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error = std::strerror(errno);
        return nullptr;
    }
    struct stat st { };
    if (fstat(fd, &st) != 0) {
        error = std::strerror(errno);
        ::close(fd);
        return nullptr;
    }
    if (S_ISDIR(st.st_mode)) {
        ::close(fd);
        error = "is a folder";
        return nullptr;
    }
    std::shared_ptr<InputBuffer> b(new InputBuffer);
    b->m_fileBytes = static_cast<uint64_t>(st.st_size);
    if (st.st_size == 0 || !S_ISREG(st.st_mode)) {
        // Empty files and non-regular files (pipes): read them plainly.
        std::string bytes;
        char chunk[65536];
        ssize_t n;
        while ((n = ::read(fd, chunk, sizeof chunk)) > 0)
            bytes.append(chunk, static_cast<size_t>(n));
        ::close(fd);
        auto r = fromBytes(bytes, maxDecoded, error);
        return r;
    }
    size_t length = static_cast<size_t>(st.st_size);
    // Map one extra page so the bytes after EOF read as zeros for the JSON parser's padding;
    // when the size is page-aligned that extra page is past EOF and would fault, so the loader
    // checks paddedAt() and copies the last line in that case.
    void* map = mmap(nullptr, length, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (map == MAP_FAILED) {
        error = std::string("cannot map: ") + std::strerror(errno);
        return nullptr;
    }
    madvise(map, length, MADV_SEQUENTIAL | MADV_WILLNEED);
    std::string_view bytes(static_cast<const char*>(map), length);
    b->m_compression = sniff(bytes);
    if (b->m_compression != Compression::None) {
        bool ok = b->decompress(bytes, maxDecoded, error);
        munmap(map, length);
        return ok ? b : nullptr;
    }
    b->m_map = map;
    b->m_mapLength = length;
    b->m_data = static_cast<const char*>(map);
    b->m_size = length;
    long page = sysconf(_SC_PAGESIZE);
    size_t pageSize = page > 0 ? static_cast<size_t>(page) : 4096;
    b->m_readable = (length + pageSize - 1) / pageSize * pageSize; // zero-filled tail of the page
    return b;
}

} // namespace dynascope
