// InputBuffer: the bytes of one trace file, memory-mapped when plain, decompressed into one heap
// buffer when zstd or gzip (recognised by magic bytes, not by name). At least kPadding readable
// bytes follow data() + size() so the JSON parser can read past a line's end safely.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace dynascope {

class InputBuffer {
public:
    static constexpr size_t kPadding = 64;

    enum class Compression { None, Zstd, Gzip };

    // Opens and (if needed) decompresses `path`. On failure returns null and sets `error` to a
    // one-line reason (no path in it). maxDecoded limits decompressed size.
    static std::shared_ptr<const InputBuffer> open(
        const std::string& path, uint64_t maxDecoded, std::string& error);
    // Wraps bytes already in memory (tests, fuzzers). Compressed bytes are decompressed.
    static std::shared_ptr<const InputBuffer> fromBytes(
        std::string_view bytes, uint64_t maxDecoded, std::string& error);

    ~InputBuffer();
    InputBuffer(const InputBuffer&) = delete;
    InputBuffer& operator=(const InputBuffer&) = delete;

    const char* data() const { return m_data; }
    size_t size() const { return m_size; }
    std::string_view view() const { return { m_data, m_size }; }
    uint64_t fileBytes() const { return m_fileBytes; }
    Compression compression() const { return m_compression; }
    // Whether bytes [offset, offset+len+kPadding) are readable (true except near a mapping's end).
    bool paddedAt(size_t offset, size_t len) const { return offset + len + kPadding <= m_readable; }

    static Compression sniff(std::string_view head);

private:
    InputBuffer() = default;
    bool decompress(std::string_view src, uint64_t maxDecoded, std::string& error);

    const char* m_data = nullptr;
    size_t m_size = 0;
    size_t m_readable = 0;
    uint64_t m_fileBytes = 0;
    Compression m_compression = Compression::None;
    void* m_map = nullptr;
    size_t m_mapLength = 0;
    std::unique_ptr<char[]> m_owned;
};

const char* toString(InputBuffer::Compression c);

} // namespace dynascope
