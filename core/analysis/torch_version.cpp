#include "core/analysis/torch_version.h"

namespace dynascope {

std::string torchVersion(const Trace& t)
{
    for (uint32_t r = 0; r < t.records.size() && r < 4096; ++r) {
        if (t.kindName(r) != "artifact"
            || t.header(r).find("\"torch_version\"") == std::string_view::npos)
            continue;
        const std::string p = t.payload(r);
        const size_t k = p.find("\"pytorch_version\"");
        if (k == std::string::npos)
            return {};
        const size_t q1 = p.find('"', p.find(':', k) + 1);
        const size_t q2 = q1 == std::string::npos ? q1 : p.find('"', q1 + 1);
        return q2 == std::string::npos ? std::string() : p.substr(q1 + 1, q2 - q1 - 1);
    }
    return {};
}

} // namespace dynascope
