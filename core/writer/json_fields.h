// Field helpers shared by the JSON documents core writes (the summary, core/writer/summary_json;
// the report, core/report/report_json), so both spell a value the same way. Internal to core
// (nlohmann_json is a private dependency).
#pragma once

#include "core/model/diagnostic.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

namespace dynascope::jsonfields {

// The value, or null when it is absent (a metric not logged, a rank not known).
template <typename T> nlohmann::ordered_json orNull(const std::optional<T>& v)
{
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

// Microseconds as the integer the documents hold.
inline int64_t us(double v)
{
    return static_cast<int64_t>(std::llround(v));
}

// The documents' "diagnostics" array: file, line, severity, code, message for each.
inline nlohmann::ordered_json diagnostics(const std::vector<Diagnostic>& list)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& d : list)
        out.push_back(
            { { "file", d.file }, { "line", d.line }, { "severity", toString(d.severity) },
                { "code", toString(d.code) }, { "message", d.message } });
    return out;
}

} // namespace dynascope::jsonfields
