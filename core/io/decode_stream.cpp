#include "core/io/decode_stream.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <unistd.h>
#include <vector>
#include <zlib.h>
#include <zstd.h>

namespace dynascope {

std::string decodeLimitMessage(uint64_t limit, const char* what)
{
    return std::string(what) + " exceeds the limit of " + std::to_string(limit)
        + " bytes (raise it with --max-decompressed)";
}

DecodeReader readerOf(std::string_view first, int fd)
{
    auto pos = std::make_shared<size_t>(0);
    return [first, fd, pos](char* buffer, size_t capacity) -> ssize_t {
        if (*pos < first.size()) {
            const size_t n = std::min(capacity, first.size() - *pos);
            std::memcpy(buffer, first.data() + *pos, n);
            *pos += n;
            return static_cast<ssize_t>(n);
        }
        return fd >= 0 ? ::read(fd, buffer, capacity) : 0;
    };
}

namespace {
constexpr size_t kInBlock = 1u << 20;
constexpr size_t kOutBlock = 4u << 20;

// Hands decoded bytes on, counting them against the limit.
struct Output {
    const DecodeWriter& write;
    uint64_t limit;
    uint64_t& decoded;
    bool put(const char* data, size_t n, std::string& error)
    {
        if (n == 0)
            return true;
        if (n > limit - decoded) {
            error = decodeLimitMessage(limit);
            return false;
        }
        if (!write(data, n, error))
            return false;
        decoded += n;
        return true;
    }
};

// Reads the next block; false (error set) when the reader failed.
bool pull(const DecodeReader& read, std::vector<char>& in, size_t& got, std::string& error)
{
    while (true) {
        const ssize_t n = read(in.data(), in.size());
        if (n >= 0) {
            got = static_cast<size_t>(n);
            return true;
        }
        if (errno != EINTR) {
            error = std::strerror(errno);
            return false;
        }
    }
}

bool decodeZstd(const DecodeReader& read, Output& out, std::string& error)
{
    std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> ctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
    if (!ctx) {
        error = "out of memory";
        return false;
    }
    std::vector<char> in(kInBlock), block(kOutBlock);
    size_t last = 0;
    while (true) {
        size_t got = 0;
        if (!pull(read, in, got, error))
            return false;
        if (got == 0)
            break;
        ZSTD_inBuffer zin { in.data(), got, 0 };
        // Until the input is used up and the output block not filled (nothing is held back).
        while (true) {
            ZSTD_outBuffer o { block.data(), block.size(), 0 };
            last = ZSTD_decompressStream(ctx.get(), &o, &zin);
            if (ZSTD_isError(last)) {
                const bool kept = out.put(block.data(), o.pos, error) && out.decoded > 0;
                error = std::string("zstd: ") + ZSTD_getErrorName(last) + " (kept the "
                    + std::to_string(out.decoded) + " bytes before it)";
                return kept;
            }
            if (!out.put(block.data(), o.pos, error))
                return false;
            if (zin.pos == zin.size && o.pos < o.size)
                break;
        }
    }
    if (last != 0)
        error = "zstd: the compressed stream is cut short (kept what decompressed)";
    return true;
}

bool decodeGzip(const DecodeReader& read, Output& out, std::string& error)
{
    z_stream zs {};
    if (inflateInit2(&zs, 15 + 32) != Z_OK) {
        error = "zlib: cannot initialise";
        return false;
    }
    std::vector<char> in(kInBlock), block(kOutBlock);
    bool ended = false; // the last member ended, nothing after it yet
    bool ok = true;
    while (ok) {
        if (zs.avail_in == 0) {
            size_t got = 0;
            if (!pull(read, in, got, error)) {
                ok = false;
                break;
            }
            if (got == 0) {
                if (!ended)
                    error = "gzip: the compressed stream is cut short (kept what decompressed)";
                break;
            }
            zs.next_in = reinterpret_cast<Bytef*>(in.data());
            zs.avail_in = static_cast<uInt>(got);
            if (ended) { // concatenated gzip members (gzip a; gzip b; cat) are valid gzip
                inflateReset(&zs);
                ended = false;
            }
        }
        zs.next_out = reinterpret_cast<Bytef*>(block.data());
        zs.avail_out = static_cast<uInt>(block.size());
        const int rc = inflate(&zs, Z_NO_FLUSH);
        if (!out.put(block.data(), block.size() - zs.avail_out, error)) {
            ok = false;
            break;
        }
        if (rc == Z_STREAM_END) {
            ended = true;
            if (zs.avail_in > 0) {
                inflateReset(&zs);
                ended = false;
            }
            continue;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            error = std::string("gzip: ") + (zs.msg ? zs.msg : "corrupt data") + " (kept the "
                + std::to_string(out.decoded) + " bytes before it)";
            break;
        }
    }
    inflateEnd(&zs);
    return ok;
}
} // namespace

bool decodeStream(InputBuffer::Compression kind, const DecodeReader& read,
    const DecodeWriter& write, uint64_t limit, uint64_t& decoded, std::string& error)
{
    decoded = 0;
    Output out { write, limit, decoded };
    return kind == InputBuffer::Compression::Zstd ? decodeZstd(read, out, error)
                                                  : decodeGzip(read, out, error);
}

} // namespace dynascope
