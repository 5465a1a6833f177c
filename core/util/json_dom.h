// Small helpers over simdjson's DOM for the non-hot payloads (guard lists, recompile reasons,
// metrics, stacks). Internal to core: simdjson types never leave core's .cpp files and this header.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dynascope::json {

using Element = simdjson::dom::element;

inline std::optional<std::string_view> str(Element e, std::string_view key)
{
    std::string_view s;
    if (e[key].get_string().get(s))
        return std::nullopt;
    return s;
}

inline std::optional<int64_t> integer(Element e, std::string_view key)
{
    auto v = e[key];
    int64_t i = 0;
    if (!v.get_int64().get(i))
        return i;
    double d = 0;
    if (!v.get_double().get(d) && d > -9.2e18 && d < 9.2e18)
        return static_cast<int64_t>(d);
    return std::nullopt;
}

inline std::optional<double> number(Element e, std::string_view key)
{
    double d = 0;
    if (!e[key].get_double().get(d))
        return d;
    int64_t i = 0;
    if (!e[key].get_int64().get(i))
        return static_cast<double>(i);
    uint64_t u = 0;
    if (!e[key].get_uint64().get(u))
        return static_cast<double>(u);
    return std::nullopt;
}

// Text of a value as a display string: strings unquoted, other values as minified JSON.
inline std::string text(Element e)
{
    std::string_view s;
    if (!e.get_string().get(s))
        return std::string(s);
    if (e.is_null())
        return {};
    return simdjson::minify(e);
}

} // namespace dynascope::json
