// StringPool: names that repeat across a trace (chromium phase names and categories, instant
// event names) stored once each. The views it hands out stay valid as long as the pool lives:
// Trace::pools keeps every pool its views point into, and merging traces or copying one keeps
// them too. A trace's names come from its input, so a pool holds at most the input's distinct
// names: its size is bounded by the input's.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>

namespace dynascope {

// Two texts interned together (a phase span's name and category), addressed by one pointer:
// 8 bytes where two string_views take 32. Empty texts when default-constructed.
class PooledPair {
public:
    PooledPair() = default;
    std::string_view first() const;
    std::string_view second() const;

private:
    friend class StringPool;
    explicit PooledPair(const char* p)
        : m_data(p)
    {
    }
    const char* m_data = nullptr; // two 32-bit lengths, then the first text and the second
};

class StringPool {
public:
    std::string_view intern(std::string_view s);
    // Texts longer than 4 GB are cut there (a pair is a name and a category).
    PooledPair internPair(std::string_view first, std::string_view second);
    size_t count() const { return m_strings.size(); }
    size_t bytes() const; // the strings' heap (those past the small-string buffer)

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view> {}(s); }
    };
    std::unordered_set<std::string, Hash, std::equal_to<>> m_strings;
};

} // namespace dynascope
