// Row ranges of the trace's tables, typed by the table as Perfetto types its table ids: a file's
// records are a RecordRange, iterated or asked whether they hold a row, instead of adding
// TraceFile::firstRecord to a count by hand at every use (`for (uint32_t r : recordsOf(file))`).
// A RecordRange is not a CompileRange: a function that takes one cannot be handed the other.
#pragma once

#include "core/model/trace.h"

#include <cstdint>
#include <iterator>

namespace dynascope {

template <typename Row> class RowRange {
public:
    constexpr RowRange() = default;
    constexpr RowRange(uint32_t first, uint32_t count)
        : m_first(first)
        , m_count(count)
    {
    }

    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = uint32_t;
        using difference_type = std::ptrdiff_t;
        using pointer = const uint32_t*;
        using reference = uint32_t;

        constexpr iterator() = default;
        constexpr explicit iterator(uint64_t row)
            : m_row(row)
        {
        }
        constexpr uint32_t operator*() const { return static_cast<uint32_t>(m_row); }
        constexpr iterator& operator++()
        {
            ++m_row;
            return *this;
        }
        constexpr iterator operator++(int)
        {
            iterator old = *this;
            ++m_row;
            return old;
        }
        constexpr bool operator==(const iterator& o) const { return m_row == o.m_row; }

    private:
        uint64_t m_row = 0; // 64 bits: the end of a range that reaches 2^32 - 1 does not wrap
    };

    constexpr iterator begin() const { return iterator(m_first); }
    constexpr iterator end() const { return iterator(uint64_t(m_first) + m_count); }
    constexpr uint32_t first() const { return m_first; }
    constexpr uint32_t size() const { return m_count; }
    constexpr bool empty() const { return m_count == 0; }
    constexpr bool contains(uint64_t row) const
    {
        return row >= m_first && row < uint64_t(m_first) + m_count;
    }

private:
    uint32_t m_first = 0;
    uint32_t m_count = 0;
};

using RecordRange = RowRange<Record>;

// The file's records in Trace::records.
inline RecordRange recordsOf(const TraceFile& file)
{
    return { file.firstRecord, file.recordCount };
}

} // namespace dynascope
