// Compression helpers for writing .zst and .gz copies of traces (fixtures, exports).
// Both are deterministic: the same input gives the same bytes (the gzip header has mtime 0).
#pragma once

#include <string>
#include <string_view>

namespace dynascope {

// A single zstd frame (with the content size in its header). Throws std::runtime_error on failure.
std::string compressZstd(std::string_view data, int level = 3);

// A gzip member (RFC 1952) made with zlib, mtime 0, OS byte 3 (Unix). Throws std::runtime_error
// on failure.
std::string compressGzip(std::string_view data);

} // namespace dynascope
