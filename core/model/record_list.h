// RecordList: the records of one compile (Trace::records indices), in increasing order, kept as
// runs of consecutive indices. A compile's records are nearly always one run (dynamo_start to
// compilation_metrics, with nothing of another compile between: 9,851 runs for the 755,062
// records of the 9,849 compiles of the 1 GB bench trace), so a list is a few bytes where a
// vector of indices was 4 bytes a record (3.0 MB of that trace's heap). Runs are written as two
// LEB128 varints each, the gap from the end of the one before and the length less one, in a
// std::string's bytes (up to 15 of them inline: no allocation for a list of a few runs); the
// last run is held open, unencoded, so that appending the next index costs nothing. Interleaved
// records (two compiles at once) cost 2 bytes a record, still less than the vector.
#pragma once

#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

namespace dynascope {

class RecordList {
public:
    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = uint32_t;
        using difference_type = std::ptrdiff_t;
        using pointer = const uint32_t*;
        using reference = uint32_t;

        const_iterator() = default;
        uint32_t operator*() const { return m_value; }
        const_iterator& operator++();
        const_iterator operator++(int)
        {
            const_iterator old = *this;
            ++*this;
            return old;
        }
        bool operator==(const const_iterator& o) const
        {
            return m_left == o.m_left && m_at == o.m_at && m_inOpen == o.m_inOpen;
        }

    private:
        friend class RecordList;
        void nextRun();
        const RecordList* m_list = nullptr;
        size_t m_at = 0; // byte offset of the next encoded run
        uint32_t m_value = 0;
        uint32_t m_left = 0; // records left in the current run, this one included; 0: the end
        bool m_inOpen = false; // in the open run (the last one)
    };
    using iterator = const_iterator;

    RecordList() = default;
    // From indices in any order (duplicates are kept once).
    explicit RecordList(std::vector<uint32_t> indices);

    // Appends `index`. In increasing order this is O(1); otherwise the list is decoded, the
    // index inserted (once), and the list encoded again: O(size), for the rare record a
    // compile claims after later ones.
    void push_back(uint32_t index);
    // Removes `index` when present (O(size)).
    void erase(uint32_t index);
    // Adds `offset` to every index (a file's records placed after others'; O(bytes)).
    void shift(uint32_t offset);
    void clear() { *this = RecordList(); }
    void shrink_to_fit() { m_bytes.shrink_to_fit(); }

    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    uint32_t front() const { return *begin(); }
    uint32_t back() const { return m_runStart + m_runLength - 1; } // not empty
    const_iterator begin() const;
    const_iterator end() const;
    std::vector<uint32_t> toVector() const;

    // Heap bytes held (0 while the runs fit inline); the bench's heap profile counts them.
    size_t heapBytes() const;
    size_t runs() const; // for tests

private:
    void flushOpenRun();
    std::string m_bytes; // the closed runs
    uint32_t m_size = 0;
    uint32_t m_closedEnd = 0; // one past the last index of the closed runs
    uint32_t m_runStart = 0, m_runLength = 0; // the open run
};

} // namespace dynascope
