// LineSplitter: finds the lines of a buffer with memchr, strips a trailing CR, counts line
// numbers. The hot loop of loading: no allocation, no copying.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace dynascope {

// The first byte at or after `p` (before `end`) that is not '\n': eight bytes compared at a
// time, so a file of blank lines (a gigabyte of them gzips to a megabyte) is skipped at memory
// speed.
inline const char* skipNewlines(const char* p, const char* end)
{
    constexpr uint64_t kNewlines = 0x0a0a0a0a0a0a0a0aull;
    while (end - p >= 8) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        if (w != kNewlines)
            break;
        p += 8;
    }
    while (p < end && *p == '\n')
        ++p;
    return p;
}

struct Line {
    uint64_t offset = 0; // of the first byte
    uint32_t length = 0; // without '\n' and without a trailing '\r'
    uint64_t number = 0; // 1-based
    bool terminated = true; // false for a last line without '\n'
};

class LineSplitter {
public:
    explicit LineSplitter(std::string_view buffer)
        : m_data(buffer.data())
        , m_size(buffer.size())
    {
    }

    bool next(Line& line)
    {
        if (m_pos >= m_size)
            return false;
        const char* start = m_data + m_pos;
        const void* nl = std::memchr(start, '\n', m_size - m_pos);
        uint64_t end = nl ? static_cast<uint64_t>(static_cast<const char*>(nl) - m_data) : m_size;
        line.offset = m_pos;
        line.terminated = nl != nullptr;
        uint64_t len = end - m_pos;
        if (len > 0 && m_data[end - 1] == '\r')
            --len;
        // Lines over 4 GiB cannot be records; clamp the length (the parser reports them).
        line.length = len > 0xffffffffull ? 0xffffffffu : static_cast<uint32_t>(len);
        line.number = ++m_number;
        m_pos = end + 1;
        return true;
    }

    uint64_t position() const { return m_pos; }
    uint64_t lineNumber() const { return m_number; } // of the last line returned or skipped

    // Skips the empty lines ("\n" alone) that follow, counting them: a run of blank lines costs
    // a byte compare each instead of a call to next().
    void skipEmptyLines()
    {
        const uint64_t next
            = static_cast<uint64_t>(skipNewlines(m_data + m_pos, m_data + m_size) - m_data);
        m_number += next - m_pos;
        m_pos = next;
    }

private:
    const char* m_data;
    uint64_t m_size;
    uint64_t m_pos = 0;
    uint64_t m_number = 0;
};

} // namespace dynascope
