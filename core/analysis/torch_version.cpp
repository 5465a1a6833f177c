#include "core/analysis/torch_version.h"

namespace dynascope {

namespace {

// The string value of "pytorch_version" in JSON text ("" when absent).
std::string versionField(std::string_view json)
{
    const size_t k = json.find("\"pytorch_version\"");
    if (k == std::string_view::npos)
        return {};
    const size_t colon = json.find(':', k);
    const size_t q1 = colon == std::string_view::npos ? colon : json.find('"', colon + 1);
    const size_t q2 = q1 == std::string_view::npos ? q1 : json.find('"', q1 + 1);
    if (q2 == std::string_view::npos)
        return {};
    // Only `"pytorch_version": "..."`: a null or a number is no version.
    for (size_t i = colon + 1; i < q1; ++i)
        if (json[i] != ' ')
            return {};
    return std::string(json.substr(q1 + 1, q2 - q1 - 1));
}

} // namespace

TorchVersion torchVersionOf(const Trace& t)
{
    for (uint32_t r = 0; r < t.records.size() && r < 4096; ++r) {
        if (t.kindName(r) != "artifact"
            || t.header(r).find("\"torch_version\"") == std::string_view::npos)
            continue;
        if (std::string v = versionField(t.payload(r)); !v.empty())
            return { std::move(v), "torch_version artifact" };
        break;
    }
    for (const Compile& c : t.compiles) {
        if (c.metricsRecord == kNone)
            continue;
        if (std::string v = versionField(t.header(c.metricsRecord)); !v.empty())
            return { std::move(v), "compilation_metrics" };
    }
    return {};
}

std::string torchVersion(const Trace& t)
{
    return torchVersionOf(t).version;
}

} // namespace dynascope
