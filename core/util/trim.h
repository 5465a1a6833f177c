// Trimming of the blanks that log text carries around a value (spaces, tabs, a CR left by a
// CRLF line end).
#pragma once

#include <string_view>

namespace dynascope {

inline std::string_view trimBlanks(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

} // namespace dynascope
