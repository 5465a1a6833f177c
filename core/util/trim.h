// Trimming of the blanks that log text carries around a value (spaces, tabs, a CR left by a
// CRLF line end), and splitting a printed list into its trimmed items.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dynascope {

inline std::string_view trimBlanks(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// "a, b,c" -> {"a", "b", "c"}: the items between `sep`, blanks trimmed, empty ones dropped.
inline std::vector<std::string> splitTrimmed(std::string_view list, char sep = ',')
{
    std::vector<std::string> out;
    while (!list.empty()) {
        const size_t at = list.find(sep);
        if (const std::string_view item = trimBlanks(list.substr(0, at)); !item.empty())
            out.emplace_back(item);
        if (at == std::string_view::npos)
            break;
        list.remove_prefix(at + 1);
    }
    return out;
}

} // namespace dynascope
