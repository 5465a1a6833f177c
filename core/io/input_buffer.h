// InputBuffer: the bytes of one input in one heap buffer, decompressed when zstd or gzip
// (recognised by magic bytes, not by name). kPadding zero bytes follow data() + size() so the
// JSON parser can read past a line's end safely. What holds its bytes in memory uses it: tests
// and fuzzers, the live follower's growing files, TORCH_LOGS text. The loader does not keep a
// TORCH_TRACE file in one: it indexes it where it lies and reads records again when asked
// (core/io/trace_source.h).
//
// Files are read, never memory-mapped. A mapping of a file that another process truncates raises
// SIGBUS at the next access to a vanished page. A regular file is read up to the size it had when
// opened (bytes appended later are not read; a file that shrank meanwhile gives fewer bytes and a
// warning), anything else (pipes, /dev/stdin, procfs) to its end, at most maxDecoded bytes.
#pragma once

#include "core/io/byte_window.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace dynascope {

class InputBuffer {
public:
    static constexpr size_t kPadding = 64;

    enum class Compression { None, Zstd, Gzip };

    // Reads and (if needed) decompresses `path`. On failure returns null and sets `error` to a
    // one-line reason (no path in it). maxDecoded limits the decompressed size, and the size
    // read from a non-regular file. A non-null result with `error` set is a warning (cut
    // compressed stream, file shrank while read).
    // A large regular file is read on `threads` threads, each a part of it.
    static std::shared_ptr<const InputBuffer> open(
        const std::string& path, uint64_t maxDecoded, std::string& error, unsigned threads = 1);
    // Wraps bytes already in memory (tests, fuzzers). Compressed bytes are decompressed.
    static std::shared_ptr<const InputBuffer> fromBytes(
        std::string_view bytes, uint64_t maxDecoded, std::string& error);

    ~InputBuffer();
    InputBuffer(const InputBuffer&) = delete;
    InputBuffer& operator=(const InputBuffer&) = delete;

    const char* data() const { return m_data; }
    size_t size() const { return m_size; }
    std::string_view view() const { return { m_data, m_size }; }
    ByteWindow window() const { return { m_data, 0, m_size }; }
    uint64_t fileBytes() const { return m_fileBytes; }
    Compression compression() const { return m_compression; }

    static Compression sniff(std::string_view head);

    // The first `maxBytes` decoded bytes of a regular file (decompressed when zstd or gzip),
    // read without reading the rest: a 10 GB file that is not a trace is told apart at once.
    // Null for what cannot be read twice (pipes, /dev/stdin) and for files that cannot be
    // opened; open() says why for those.
    static std::optional<std::string> readHead(const std::string& path, size_t maxBytes);

private:
    InputBuffer() = default;
    bool decompress(std::string_view src, uint64_t maxDecoded, std::string& error);
    // Takes a buffer of capacity + kPadding bytes holding `size` bytes (null when empty).
    void adopt(std::unique_ptr<char[]> data, size_t size, size_t capacity);

    const char* m_data = nullptr;
    size_t m_size = 0;
    size_t m_readable = 0;
    uint64_t m_fileBytes = 0;
    Compression m_compression = Compression::None;
    std::unique_ptr<char[]> m_owned;
};

const char* toString(InputBuffer::Compression c);

} // namespace dynascope
