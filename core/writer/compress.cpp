// compressZstd / compressGzip: one-shot in-memory compression with libzstd and zlib.
#include "core/writer/compress.h"

#include <zlib.h>
#include <zstd.h>

#include <limits>
#include <stdexcept>

namespace dynascope {

std::string compressZstd(std::string_view data, int level)
{
    std::string out(ZSTD_compressBound(data.size()), '\0');
    size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), level);
    if (ZSTD_isError(n))
        throw std::runtime_error(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
    out.resize(n);
    return out;
}

std::string compressGzip(std::string_view data)
{
    if (data.size() > std::numeric_limits<uInt>::max())
        throw std::runtime_error("gzip compression failed: input larger than 4 GiB");
    z_stream zs {};
    if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY)
        != Z_OK)
        throw std::runtime_error("gzip compression failed: deflateInit2");
    gz_header header {};
    header.time = 0;
    header.os = 3;
    if (deflateSetHeader(&zs, &header) != Z_OK) {
        deflateEnd(&zs);
        throw std::runtime_error("gzip compression failed: deflateSetHeader");
    }
    std::string out(deflateBound(&zs, static_cast<uLong>(data.size())) + 64, '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    zs.avail_in = static_cast<uInt>(data.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    int rc = deflate(&zs, Z_FINISH);
    size_t produced = zs.total_out;
    deflateEnd(&zs);
    if (rc != Z_STREAM_END)
        throw std::runtime_error("gzip compression failed: deflate returned " + std::to_string(rc));
    out.resize(produced);
    return out;
}

} // namespace dynascope
