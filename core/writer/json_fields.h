// Field helpers shared by the JSON documents core writes (the summary, core/writer/summary_json;
// the report, core/report/report_json), so both spell a value the same way. Internal to core
// (nlohmann_json is a private dependency).
#pragma once

#include "core/analysis/kernels.h"
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

// The documents' "kernels" object: the generated (Triton and C++) kernels, every kind's count
// (by_kind.extern: the distinct extern kernels each graph calls), the Triton kernels' compile
// time and the kernels autotuned after a cache miss.
inline nlohmann::ordered_json kernels(const KernelCounts& n)
{
    nlohmann::ordered_json byKind = nlohmann::ordered_json::object();
    for (size_t i = 0; i < kKernelKindCount; ++i)
        byKind[toString(static_cast<KernelKind>(i))] = n.byKind[i];
    return { { "generated", n.generated }, { "by_kind", std::move(byKind) },
        { "compile_time_us", n.compileTimeUs }, { "autotune_misses", n.autotuneMisses } };
}

} // namespace dynascope::jsonfields
