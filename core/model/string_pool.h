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

class StringPool {
public:
    std::string_view intern(std::string_view s);
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
